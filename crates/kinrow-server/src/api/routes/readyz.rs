//! `GET /readyz`.

use actix_web::{web, HttpResponse};
use kinrow_engine::gravity_book::{self, BooksState};

use crate::api::dto::Readiness;
use crate::api::state::AppState;

/// Readiness: 200 once the replica answers at full quality, 503 before. The evaluation's
/// tables and the external brains are ready before the port is bound; Connect Four's
/// book is read when first wanted (`books: "not_read"` then `"reading"`, the searches
/// meanwhile answered without it), or, with `KINROW_BOOKS=at-start`, at start, and then
/// the replica is ready only once it is read.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "Ready: every search is answered at full quality", body = Readiness),
        (status = 503, description = "Not yet: the book the replica was told to read at start is being read", body = Readiness)
    )
)]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let books = gravity_book::state();
    let ready = !state.config.books_at_start || books == BooksState::Read;
    let body = Readiness {
        status: if ready { "ready" } else { "starting" }.to_string(),
        books: books.name().to_string(),
    };
    if ready {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
