//! `GET /v1/engines`.

use actix_web::{web, HttpResponse};

use crate::api::dto::{default_engine, EngineInfo, EnginesResponse, ServerLimits};
use crate::api::state::AppState;
use crate::config::{MAX_BODY_BYTES, MAX_DEPTH, MAX_NODES};
use kinrow_engine::registry::EngineKind;
use kinrow_game::{MAX_PIECES, MAX_SIDE};

/// The engines.
///
/// Every engine with its description, the unit of its raw scores and the request parameters
/// it reads; which one is the default; and the server's limits.
#[utoipa::path(
    get,
    path = "/v1/engines",
    tag = "moves",
    responses((status = 200, description = "The engines and the server's limits", body = EnginesResponse))
)]
pub async fn engines(state: web::Data<AppState>) -> HttpResponse {
    let default = default_engine();
    let c = &state.config;
    HttpResponse::Ok().json(EnginesResponse {
        default: default.map(|k| k.name().to_string()),
        engines: EngineKind::ALL
            .iter()
            .map(|&k| EngineInfo {
                name: k.name().to_string(),
                description: k.description().to_string(),
                raw_unit: k.score_unit().to_string(),
                parameters: k
                    .parameters()
                    .iter()
                    .map(|p| p.as_str().to_string())
                    .collect(),
                ignored: k.ignored().iter().map(|p| p.as_str().to_string()).collect(),
                default: Some(k) == default,
            })
            .collect(),
        limits: ServerLimits {
            default_time_ms: c.default_time.as_millis() as u64,
            max_time_ms: c.max_time.as_millis() as u64,
            time_margin_ms: c.margin.as_millis() as u64,
            max_depth: MAX_DEPTH as u64,
            max_nodes: MAX_NODES as u64,
            max_threads: c.max_threads as u64,
            max_concurrent_searches: c.max_concurrent_searches as u64,
            search_queue: c.search_queue as u64,
            max_body_bytes: MAX_BODY_BYTES as u64,
            max_side: MAX_SIDE as u64,
            max_pieces: MAX_PIECES as u64,
        },
    })
}
