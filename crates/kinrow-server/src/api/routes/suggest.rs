//! `POST /v1/suggest`.

use std::sync::Arc;

use actix_web::{web, HttpResponse};

use super::plan::{search_plan, unplayable};
use super::run::{
    brain_failure, game_over_error, guarded, json_body, json_ok, run_search, EngineLabel,
};
use crate::api::dto::forms::{shows_every_cell, trim, IncludeName};
use crate::api::dto::suggest_json;
use crate::api::dto::{
    known_order, position_with_moves, LimitsUsed, SuggestRequest, SuggestResponse,
};
use crate::api::error::{ApiError, ErrorBody, ErrorCode};
use crate::api::extract::ApiJson;
use crate::api::pool::Finished;
use crate::api::state::AppState;
use crate::config::Config;
use kinrow_engine::SearchPlan;
use kinrow_game::Position;

/// The position and search plan of a suggest request (panics caught).
pub fn prepare_suggest(
    req: &SuggestRequest,
    config: &Config,
) -> Result<(Position, SearchPlan), ApiError> {
    guarded("parsing the position", || {
        let position = position_with_moves(&req.rules, &req.board, req.to_move, &req.moves)?;
        if position.is_over() {
            return Err(game_over_error(&position));
        }
        if let Some(e) = super::opening::opening_phase_error(&position) {
            return Err(e);
        }
        let plan = search_plan(&req.engine.clone().unwrap_or_default(), config, "engine")?;
        if let Some(e) = unplayable(&plan, &position) {
            return Err(e);
        }
        Ok((position, plan))
    })
}

/// Suggest a move.
///
/// Runs an engine on the position and answers the chosen move, every evaluated move
/// (best first), a board-shaped grid of scores and what the search did. The budget is
/// `engine.time_ms` (default 1000 ms, capped at the server's maximum, 10000 ms by default);
/// time spent waiting for a free search slot counts against it, and the answer arrives
/// within the budget plus the server's margin (100 ms by default). Answers are anytime:
/// a search still running then (a busy machine) answers with its last completed
/// iteration (`stats.complete` false, `stats.stopped` `deadline`); 503 only when it
/// completed none, or when the server is at capacity.
#[utoipa::path(
    post,
    path = "/v1/suggest",
    tag = "moves",
    request_body(content = SuggestRequest, examples(
        ("tic-tac-toe" = (summary = "3x3, three in a row", value = json!(crate::api::examples::suggest_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five", value = json!(crate::api::examples::suggest_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(crate::api::examples::suggest_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(crate::api::examples::suggest_renju()))),
    )),
    responses(
        (status = 200, description = "The engine's suggestion", body = SuggestResponse),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`: the body is over 64 KiB", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`: the body is not application/json", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules`, `inconsistent_turn`, `game_over`, `unknown_engine` or `invalid_limits`", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded`: every search slot is taken, or the search completed no iteration within its budget (a search that completed one answers 200 with it: `stats.stopped` is `deadline`); `engine_unavailable`: an external engine crashed, hung, overran or answered nonsense (its process is replaced; docs/external.md)",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn suggest(
    state: web::Data<AppState>,
    body: ApiJson<SuggestRequest>,
) -> Result<HttpResponse, ApiError> {
    let (position, plan) = prepare_suggest(&body.0, &state.config)?;
    let cells = shows_every_cell(body.0.include.as_deref());
    let watch = Arc::new(plan.watch().anytime().showing_cells(cells));
    let done = run_search(&state, &plan, position.clone(), watch).await?;
    if let Some(e) = brain_failure(&plan, &state.metrics) {
        return Err(e);
    }
    let mut answer = suggestion(&position, &plan, &done)?;
    let b = &body.0;
    answer.continue_order(known_order(&b.rules, &b.board, &b.moves).as_deref());
    let mut response = match &body.0.include {
        None => {
            let mut body = Vec::with_capacity(4096);
            suggest_json::write(&mut body, &answer);
            json_body(body)
        }
        Some(keep) => json_ok(&trimmed(&answer, Some(keep))?)?,
    };
    response.extensions_mut().insert(EngineLabel(plan.name()));
    Ok(response)
}

/// The answer for the search `done` of `position` by `plan` (panics caught).
pub fn suggestion(
    position: &Position,
    plan: &SearchPlan,
    done: &Finished,
) -> Result<SuggestResponse, ApiError> {
    guarded("building the answer", || {
        let used = LimitsUsed {
            time_ms: LimitsUsed::whole_ms(done.limits.time),
            depth: done.limits.depth,
            // Below level 10 the node cap the level applied.
            nodes: plan.leveled(&done.limits).nodes,
            mistake_probability: done.limits.mistake_probability,
            level: plan.level,
            threads: done.limits.threads as u32,
        };
        let mut answer = SuggestResponse::new(
            position,
            plan,
            &done.analysis,
            (done.queued.as_secs_f64() * 1000.0, plan.seed),
            used,
        );
        answer.stats.stopped = done.stopped.map(str::to_string);
        Ok(answer)
    })
}

/// `answer` with only `move` and the fields `include` names (all of it without `include`).
pub fn trimmed(
    answer: &SuggestResponse,
    include: Option<&[IncludeName]>,
) -> Result<serde_json::Value, ApiError> {
    let value = serde_json::to_value(answer).map_err(|e| {
        ApiError::new(
            ErrorCode::Internal,
            format!("the answer did not serialize: {e}"),
        )
    })?;
    Ok(trim(value, include))
}
