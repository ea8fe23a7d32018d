//! `GET /metrics`.

use actix_web::{http::header, web, HttpResponse};

use crate::api::state::AppState;

/// Prometheus metrics.
///
/// Text exposition format: `kinrow_http_requests_total` and
/// `kinrow_http_requests_duration_seconds` by endpoint, method and status;
/// `kinrow_searches_total` by engine and result, `kinrow_search_nodes_total` and
/// `kinrow_search_duration_seconds` by engine, `kinrow_searches_in_flight`,
/// `kinrow_searches_queued` and `kinrow_search_queue_seconds`. External engines are
/// engines here too (their results include `engine_unavailable` and `refused`);
/// `kinrow_external_restarts_total` counts their processes restarted,
/// `kinrow_external_failed_starts_total` their failed start-ups, and
/// `kinrow_external_available` is 0 while one is marked unavailable. Table:
/// docs/deployment.md, "Metrics".
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "Prometheus text format", body = String, content_type = "text/plain"))
)]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    state.metrics.observe_brains(&state.config.brains);
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; version=0.0.4"))
        .body(state.metrics.render())
}
