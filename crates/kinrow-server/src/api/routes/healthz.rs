//! `GET /healthz`.

use actix_web::{web, HttpResponse};

use crate::api::dto::Health;
use crate::api::state::AppState;

/// Liveness: answers `{"status": "ok"}` while the server runs, with the external engines
/// marked unavailable, if any.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses((status = 200, description = "The server is up", body = Health))
)]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".to_string(),
        unavailable_engines: (state.config.brains.iter())
            .filter(|b| !b.status().available)
            .map(|b| b.name().to_string())
            .collect(),
    })
}
