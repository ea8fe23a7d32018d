//! `POST /v1/state`.

use actix_web::HttpResponse;

use super::run::guarded;
use crate::api::dto::{known_order, position_with_moves, StateRequest, StateResponse};
use crate::api::error::{ApiError, ErrorBody};
use crate::api::extract::ApiJson;

/// The state of a position.
///
/// Whose turn it is, whether the game is in progress, won (with the winning line) or
/// drawn, and how many legal moves the side to move has.
#[utoipa::path(
    post,
    path = "/v1/state",
    tag = "positions",
    request_body(content = StateRequest, examples(
        ("tic-tac-toe" = (summary = "3x3, three in a row", value = json!(crate::api::examples::state_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five", value = json!(crate::api::examples::state_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(crate::api::examples::state_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(crate::api::examples::state_renju()))),
    )),
    responses(
        (status = 200, description = "The state of the position", body = StateResponse),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules` or `inconsistent_turn`", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
    )
)]
pub async fn state(body: ApiJson<StateRequest>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(state_answer(&body.0)?))
}

/// The answer of `POST /v1/state` (panics caught).
pub fn state_answer(req: &StateRequest) -> Result<StateResponse, ApiError> {
    guarded("reading the position", || {
        let p = position_with_moves(&req.rules, &req.board, req.to_move, &req.moves)?;
        let order = known_order(&req.rules, &req.board, &req.moves);
        Ok(StateResponse::new(&p).in_order(order))
    })
}
