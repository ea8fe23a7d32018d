//! `GET /v1/engines`.

use actix_web::{web, HttpResponse};

use crate::api::dto::{default_engine, EngineInfo, EnginesResponse, PlaysDto, ServerLimits};
use crate::api::state::AppState;
use crate::config::{MAX_BODY_BYTES, MAX_DEPTH, MAX_NODES};
use kinrow_engine::EngineKind;
use kinrow_engine::ExternalBrain;
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
                kind: "builtin".to_string(),
                description: k.description().to_string(),
                raw_unit: k.score_unit().to_string(),
                parameters: k
                    .parameters()
                    .iter()
                    .map(|p| p.as_str().to_string())
                    .collect(),
                ignored: k.ignored().iter().map(|p| p.as_str().to_string()).collect(),
                default: Some(k) == default,
                plays: None,
                available: true,
                unavailable_reason: None,
            })
            .chain(c.brains.iter().map(|b| external_info(b)))
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

/// The `/v1/engines` entry of an external brain: the limits it honours (`time_ms` as
/// `INFO timeout_turn`, `threads` as `INFO thread_num`, `nodes` and `depth` where its
/// spec says it takes them); `seed` is ignored; `level` below 10,
/// `mistake_probability` above 0 and `multipv` above 1 are refused.
fn external_info(brain: &ExternalBrain) -> EngineInfo {
    let spec = brain.spec();
    let status = brain.status();
    let mut parameters = vec!["time_ms", "threads"];
    let mut refused = vec!["level", "mistake_probability", "multipv"];
    for (takes, name) in [(spec.takes_nodes, "nodes"), (spec.takes_depth, "depth")] {
        if takes {
            parameters.push(name);
        } else {
            refused.push(name);
        }
    }
    EngineInfo {
        name: brain.name().to_string(),
        kind: "external".to_string(),
        description: format!(
            "External Gomocup engine {} (processes kept running and reused). Plays five in \
             a row with marks only, no gravity, the free opening: freestyle, exactly five, \
             renju or caro (INFO rule), on the board sizes it accepts (START n, RECTSTART \
             m,n). Its MESSAGE lines give evaluation, pv and depth; other cells are not \
             evaluated. Refuses {} with 422 invalid_limits.",
            spec.program
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            refused.join(", ")
        ),
        raw_unit: format!(
            "the engine's own eval as it prints it; value = 2σ(eval / {}) - 1",
            spec.unit
        ),
        parameters: parameters.into_iter().map(String::from).collect(),
        ignored: vec!["seed".to_string()],
        default: false,
        // What `ExternalBrain::cannot_play` lets through: the Gomocup protocol's games.
        plays: Some(PlaysDto {
            k: 5,
            pieces: false,
            gravity: false,
            openings: vec!["free".to_string()],
        }),
        available: status.available,
        unavailable_reason: status.reason,
    }
}
