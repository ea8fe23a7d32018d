//! `GET /openapi.json`.

use actix_web::{web, HttpResponse};

use crate::api::state::AppState;

/// This OpenAPI document.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "operations",
    responses((status = 200, description = "The OpenAPI 3 document of this API", body = Object))
)]
pub async fn openapi_json(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(state.openapi_json.clone())
}
