//! `POST /v1/opening`: the engine's decision at the current step of a swap / swap2 opening
//! ([`kinrow_engine::swap::decide`]), run in one search slot on the blocking pool.

use actix_web::{web, HttpResponse};

use super::plan::search_plan;
use super::run::{guarded, json_ok, EngineLabel};
use crate::api::dto::opening::{OpeningRequest, OpeningResponse};
use crate::api::dto::{position, LimitsUsed};
use crate::api::error::{ApiError, ErrorBody, ErrorCode};
use crate::api::extract::ApiJson;
use crate::api::state::AppState;
use kinrow_engine::swap::decide;
use kinrow_game::{Opening, OpeningStep, Position};

/// The 422 of `/v1/suggest`, `/v1/play` and `/v1/analyse` for a swap / swap2 board that
/// holds fewer than the three stones of the first placement: those are placed through
/// `/v1/opening`. `None` for every other board.
pub fn opening_phase_error(p: &Position) -> Option<ApiError> {
    let opening = p.opening();
    let stones = p.marks(kinrow_game::Player::X) + p.marks(kinrow_game::Player::O);
    if !opening.has_phase() || stones >= 3 {
        return None;
    }
    Some(ApiError::at(
        ErrorCode::OpeningPhase,
        "rules.opening",
        format!(
            "under {} the first player places three stones at once: take the opening's steps with POST /v1/opening (a board of {stones} stones is still in its first placement)",
            opening.as_str()
        ),
    ))
}

/// The engine's decision in the opening phase.
///
/// Under `rules.opening` `swap` or `swap2`, `board` holds the stones placed so far (none,
/// three, or five under swap2). The step follows from the count: `place3` (empty board;
/// the first player places two x and one o), `choose` (swap, three stones: the second
/// player picks x or o), `place2_or_choose` (swap2, three stones: the second player picks
/// x or o, or places one x and one o more) and `choose_after_5` (swap2, five stones: the
/// first player picks x or o). The answer is the engine's `decision` (`place`: the stones
/// with their sides; or `choose`: the side it plays from now on), the value it expects for
/// every option, and `after`, the position after the decision with the next `step` and
/// who `decides` it (both null when the opening is done; the game then goes on with o to
/// move through `/v1/suggest` and `/v1/play`). Placements are proposed balanced: on the
/// boards the committed table covers (15x15 freestyle), drawn from openings `auto`'s long
/// search judged even; elsewhere the most even of a few random candidates. `engine.level`
/// applies (searches at the level's strength, choices drawn by the level's temperature,
/// fewer candidates); the budget is shared by every search of the answer; the same
/// request with the same `seed` and a `nodes` limit gives the same answer.
#[utoipa::path(
    post,
    path = "/v1/opening",
    tag = "moves",
    request_body(content = OpeningRequest, examples(
        ("swap2, first placement" = (summary = "15x15 swap2, empty board: the first player places three stones", value = json!(crate::api::examples::opening_place3()))),
        ("swap2, three stones" = (summary = "15x15 swap2: the second player chooses a side or places two more", value = json!(crate::api::examples::opening_swap2_three()))),
        ("swap, three stones" = (summary = "15x15 swap: the second player chooses a side", value = json!(crate::api::examples::opening_swap_three()))),
    )),
    responses(
        (status = 200, description = "The engine's decision at the current step", body = OpeningResponse),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 422, description = "`invalid_rules` (field `rules.opening`: a rule without an opening phase, `free`, `pro` or `long_pro`), `invalid_board` (field `board`: stone counts at no step of the rule, a game past its opening, a line on the board), `inconsistent_turn`, `unknown_engine` or `invalid_limits`", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded`: every search slot is taken, or the searches overran their budget",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn opening(
    state: web::Data<AppState>,
    body: ApiJson<OpeningRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0;
    let (position, plan) = guarded("parsing the opening", || {
        let p = position(&req.rules, &req.board, req.to_move)?;
        OpeningStep::of(&p)?;
        let plan = search_plan(
            &req.engine.clone().unwrap_or_default(),
            &state.config,
            "engine",
        )?;
        // The opening's decisions are kinrow's: the protocol's SWAP2BOARD is not served.
        if plan.engine.own().is_none() {
            return Err(ApiError::at(
                ErrorCode::UnknownEngine,
                "engine.name",
                format!(
                    "{} is an external engine; the opening's decisions are taken by kinrow's own engines",
                    plan.name()
                ),
            ));
        }
        Ok((p, plan))
    })?;
    debug_assert!(position.opening() != Opening::Free);
    let slot = state.search.admit(plan.name(), plan.limits.clone()).await?;
    let mut run_plan = plan.clone();
    let answer = slot
        .run(move |_contexts, limits| {
            run_plan.limits = limits.clone();
            let answer = decide(&position, &run_plan);
            (answer, run_plan.limits.clone())
        })
        .await?
        .map_err(|panic| ApiError::new(ErrorCode::Internal, panic))?;
    let (answer, limits) = answer;
    let answer = answer?;
    let used = LimitsUsed {
        time_ms: LimitsUsed::whole_ms(limits.time),
        depth: limits.depth,
        nodes: plan.leveled(&limits).nodes,
        mistake_probability: limits.mistake_probability,
        level: plan.level,
        threads: limits.threads as u32,
    };
    let body = OpeningResponse::new(&answer, plan.name(), plan.seed, used);
    let mut response = json_ok(&body)?;
    response.extensions_mut().insert(EngineLabel(plan.name()));
    Ok(response)
}
