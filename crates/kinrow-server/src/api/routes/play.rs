//! `POST /v1/play`.

use std::sync::Arc;

use actix_web::{web, HttpResponse};

use super::plan::{search_plan, unplayable};
use super::run::{brain_failure, game_over_error, guarded, run_search, EngineLabel};
use super::suggest::{suggestion, trimmed};
use crate::api::dto::forms::shows_every_cell;
use crate::api::dto::{
    continued_order, known_order, position_with_moves, GameStatus, MoveDto, PlayRequest,
    PlayResponse, StateResponse,
};
use crate::api::error::{ApiError, ErrorBody};
use crate::api::extract::ApiJson;
use crate::api::state::AppState;
use kinrow_game::Position;

/// Play a move, and the engine's reply.
///
/// Checks the move and answers the position after it: the new board, the rules with the
/// decremented `pieces`, whose turn it is and the status. With `reply` (engine parameters,
/// or just a name) and the game still going on, the engine then answers that position and
/// its move is played too: the answer carries the engine's whole suggestion (`reply`, its
/// `move` the reply that was played) and `after`, the position after both moves. A
/// frontend sends `after` back with its next request (adding the player's `move`): one
/// request per turn, and it never re-implements the rules.
#[utoipa::path(
    post,
    path = "/v1/play",
    tag = "positions",
    request_body(content = PlayRequest, examples(
        ("tic-tac-toe" = (summary = "3x3, three in a row", value = json!(crate::api::examples::play_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five", value = json!(crate::api::examples::play_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(crate::api::examples::play_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(crate::api::examples::play_renju()))),
    )),
    responses(
        (status = 200, description = "The position after the move (and the engine's reply)", body = PlayResponse),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules`, `inconsistent_turn`, `game_over`, `illegal_move`, `forbidden_move` (renju: the reason is in the message); with `reply`: `unknown_engine` or `invalid_limits` (field `reply.*`)", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded` (with `reply`): every search slot is taken, or the search completed no iteration within its budget (a search that completed one answers 200 with it: `stats.stopped` is `deadline`); `engine_unavailable`: an external engine crashed, hung, overran or answered nonsense (its process is replaced; docs/external.md)",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn play(
    state: web::Data<AppState>,
    body: ApiJson<PlayRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0;
    let (after_move, answer, order) = play_position(&req)?;
    // The reply's engine and limits are checked even when the move ends the game.
    let plan = match &req.reply {
        Some(params) => Some(search_plan(params, &state.config, "reply")?),
        None => None,
    };
    let (Some(plan), GameStatus::InProgress) = (plan, answer.status) else {
        return Ok(HttpResponse::Ok().json(answer));
    };
    if let Some(e) = unplayable(&plan, &after_move) {
        return Err(e);
    }
    let cells = shows_every_cell(req.include.as_deref());
    let watch = Arc::new(plan.watch().anytime().showing_cells(cells));
    let done = run_search(&state, &plan, after_move.clone(), watch).await?;
    if let Some(e) = brain_failure(&plan, &state.metrics) {
        return Err(e);
    }
    let mut reply = suggestion(&after_move, &plan, &done)?;
    reply.continue_order(order.as_deref());
    let after = reply.after.clone();
    let reply = trimmed(&reply, req.include.as_deref())?;
    let mut response = HttpResponse::Ok().json(PlayResponse {
        reply: Some(reply),
        after,
        ..answer
    });
    response.extensions_mut().insert(EngineLabel(plan.name()));
    Ok(response)
}

/// The answer of `POST /v1/play` without its reply (panics caught).
pub fn play_answer(req: &PlayRequest) -> Result<PlayResponse, ApiError> {
    play_position(req).map(|(_, answer, _)| answer)
}

/// The position after the request's move, the answer for it, and the game's move order
/// after the move where the request gave one (panics caught).
fn play_position(req: &PlayRequest) -> Result<(Position, PlayResponse, Option<String>), ApiError> {
    guarded("playing the move", || {
        let mut p = position_with_moves(&req.rules, &req.board, req.to_move, &req.moves)?;
        if p.is_over() {
            return Err(game_over_error(&p));
        }
        if let Some(e) = super::opening::opening_phase_error(&p) {
            return Err(e);
        }
        let mv = req.mv.to_move(&p)?;
        p.try_play(mv)?;
        let played = MoveDto::new(mv, p.m());
        let order = known_order(&req.rules, &req.board, &req.moves);
        let order = continued_order(order.as_deref(), &played);
        let answer = PlayResponse::new(played, StateResponse::new(&p).in_order(order.clone()));
        Ok((p, answer, order))
    })
}
