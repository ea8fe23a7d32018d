//! `GET /healthz`.

use actix_web::HttpResponse;

use crate::api::dto::Health;

/// Liveness: answers `{"status": "ok"}` while the server runs.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses((status = 200, description = "The server is up", body = Health))
)]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".to_string(),
    })
}
