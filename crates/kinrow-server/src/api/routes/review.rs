//! `POST /v1/review`: a whole game judged move by move ([`kinrow_engine::service::review`]).
//!
//! The moves are replayed first (the first illegal one is a 422 naming `moves[i]`, before
//! any search). Then the review takes one search slot through the same admission as a
//! suggestion (a 503 with `Retry-After` when the server is full) with a budget of the
//! positions times the time per move, at most the server's maximum, and searches the
//! positions in turn on the blocking pool, each within its share of what is left. With
//! `Accept: text/event-stream` the answer is a stream instead: an `info` event per judged
//! move (data: `ReviewedMove`) as the review goes, then a `result` event with the whole
//! answer, as `/v1/analyse` streams a search.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::analyse::{event, stream};
use super::plan::search_plan;
use super::run::EngineLabel;
use crate::api::dto::analyse::StreamEvent;
use crate::api::dto::position;
use crate::api::dto::review::{
    ClassName, ReviewRequest, ReviewResponse, ReviewStatsDto, ReviewSummary, ReviewedMoveDto,
};
use crate::api::dto::MoveDto;
use crate::api::error::{ApiError, ErrorBody, ErrorCode};
use crate::api::extract::ApiJson;
use crate::api::search::StopOnDrop;
use crate::api::state::AppState;
use kinrow_engine::core::budget::Budget;
use kinrow_engine::core::context::SearchContext;
use kinrow_engine::core::progress::Watch;
use kinrow_engine::core::types::Limits;
use kinrow_engine::service::review;
use kinrow_engine::service::review::{final_value, forced, judge, Proofs};
use kinrow_engine::service::{level, value};
use kinrow_game::{Move, Player, Position};

/// The most moves one review takes.
pub const MAX_REVIEW_MOVES: usize = 1000;

/// The time per position when neither `time_ms_per_move` nor `engine.time_ms` is given:
/// a 20-move review (21 positions) searches for at most about 2.5 s.
pub const DEFAULT_MS_PER_MOVE: u64 = 120;

/// By default, the time a review keeps for each position after the one it searches.
pub const RESERVE: Duration = Duration::from_millis(20);

/// The node cap of a position without `engine.nodes` is the engine's nominal node rate
/// ([`level::nodes_per_second`], about half of what one idle core does) times this share
/// of the time per position: the cap binds first, with room for a loaded machine, so
/// the same game and seed get the same classes; the time is only the safety net.
pub const NODE_SHARE: f64 = 0.5;

/// The replayed game: every position (the start first) and every move.
struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

/// Replays `req.moves` from the start position; the first illegal move is an error
/// naming `moves[i]`.
fn replay(req: &ReviewRequest) -> Result<Game, ApiError> {
    if req.moves.len() > MAX_REVIEW_MOVES {
        return Err(ApiError::at(
            ErrorCode::InvalidLimits,
            "moves",
            format!(
                "the game has {} moves, but a review takes at most {MAX_REVIEW_MOVES}",
                req.moves.len()
            ),
        ));
    }
    let mut p = position(&req.rules, &req.board, req.to_move)?;
    let mut game = Game {
        positions: vec![p.clone()],
        moves: Vec::with_capacity(req.moves.len()),
    };
    for (i, m) in req.moves.iter().enumerate() {
        let field = format!("moves[{i}]");
        let illegal = |code: ErrorCode, why: String| {
            ApiError::at(
                code,
                field.clone(),
                match m.row {
                    Some(row) => format!("moves[{i}] (row {row}, col {}) is illegal: {why}", m.col),
                    None => format!("moves[{i}] (col {}) is illegal: {why}", m.col),
                },
            )
        };
        if p.is_over() {
            let why = match p.winner() {
                Some(w) => format!("the game was over after the move before ({w} had won)"),
                None => "the game was over after the move before (a draw)".to_string(),
            };
            return Err(illegal(ErrorCode::IllegalMove, why));
        }
        let mv = m
            .to_move(&p)
            .map_err(|e| illegal(ErrorCode::IllegalMove, e.message))?;
        p.try_play(mv).map_err(|e| {
            let e = ApiError::from(e);
            illegal(e.code, e.message)
        })?;
        game.moves.push(mv);
        game.positions.push(p.clone());
    }
    Ok(game)
}

/// Review a game.
///
/// Replays `moves` from the start position (the empty board, or `board`), evaluates every
/// position with the engine and judges every move: its value before and after (for the
/// player who made it, on the common scale: 1 a win, 0 a draw, -1 a loss), the engine's
/// best move and its value, the loss (`best_value - value_after`, at least 0, where
/// `value_after` is the outcome the search proved for the move when it proved one) and a
/// class: `best` (loss <= 0.02), `good` (<= 0.1), `inaccuracy` (<= 0.2), `mistake`
/// (<= 0.4), `blunder` (more), or `forced` when it was the only move that did not lose at
/// once; a move into a proven loss where a move that did not lose existed is at least a
/// `mistake`. Each position is searched with a fresh context and a node cap (`stats`),
/// so the same game with the same seed gets the same classes; by default the cap is half
/// of what the engine's nominal rate does in 120 ms a position (`auto`: 24 000 nodes),
/// so that it binds before the time, which is only the safety net: a 20-move review
/// answers within 3 s. `stats.stopped_by_time` counts the positions the time stopped
/// first (a loaded machine), whose classes may differ on another run.
/// A summary per player counts the classes and gives an accuracy (the mean of
/// `1 - loss`, in percent); `values` is every position's value for `x`, for a graph. The
/// whole review takes at most the server's maximum budget, spread over the positions
/// (`stats`). With `Accept: text/event-stream` the answer is streamed: an `info` event per
/// judged move (data: `ReviewedMove`), then one `result` event (data: `ReviewResponse`).
#[utoipa::path(
    post,
    path = "/v1/review",
    tag = "moves",
    request_body(content = ReviewRequest, examples(
        ("tic-tac-toe" = (summary = "3x3: o answers the centre on an edge and loses", value = json!(crate::api::examples::review_3x3()))),
        ("gomoku" = (summary = "15x15: x ignores o's open three", value = json!(crate::api::examples::review_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, with a block played", value = json!(crate::api::examples::review_pieces()))),
        ("renju" = (summary = "15x15 renju: two moves beside the cell forbidden for x", value = json!(crate::api::examples::review_renju()))),
    )),
    responses(
        (status = 200, description = "Every move judged, a summary per player, the value series; with `Accept: text/event-stream`, a stream of `info` events (data: `ReviewedMove`) and one `result` event (data: `ReviewResponse`)", content(
            (ReviewResponse = "application/json"),
            (StreamEvent = "text/event-stream", example = json!({"event": "info", "data": "{\"index\":0,\"player\":\"x\",\"move\":{\"row\":1,\"col\":1,\"piece\":\"mark\"},\"class\":\"best\"}"})),
        )),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules`, `inconsistent_turn`, `illegal_move` (field `moves[i]`: the first illegal move), `unknown_engine` or `invalid_limits`", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded`: every search slot is taken, or the review overran its budget",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn review(
    state: web::Data<AppState>,
    http: HttpRequest,
    body: ApiJson<ReviewRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0;
    let game = replay(&req)?;
    let params = req.engine.clone().unwrap_or_default();
    let plan = search_plan(&params, &state.config, "engine")?;
    let (kind, seed, build) = (plan.kind, plan.seed, plan.builder());
    let limits = plan.limits;
    let per_move = match req.time_ms_per_move {
        None if params.time_ms.is_none() => Duration::from_millis(DEFAULT_MS_PER_MOVE),
        None => limits.time,
        Some(t) if t >= 1 => Duration::from_millis(t as u64).min(state.config.max_time),
        Some(t) => {
            return Err(ApiError::at(
                ErrorCode::InvalidLimits,
                "time_ms_per_move",
                format!("time_ms_per_move is {t}, but it must be at least 1"),
            ))
        }
    };
    // A node cap per position makes the review repeat with its seed.
    let limits = Limits {
        nodes: limits.nodes.or_else(|| {
            level::nodes_per_second(kind)
                .map(|rate| (rate * per_move.as_secs_f64() * NODE_SHARE).max(1.0) as u64)
        }),
        ..limits
    };
    let searched = game.positions.iter().filter(|p| !p.is_over()).count();
    let total = (per_move * searched.max(1) as u32).min(state.config.max_time);
    // A position's time: an even share of what is left, at most what the client asked
    // for; by default (the node cap binds first) what is left less a reserve for each
    // later position, so that a slow position (or a loaded machine) borrows what the
    // others do not use rather than be stopped by the time.
    let defaulted = req.time_ms_per_move.is_none() && params.time_ms.is_none();
    let most = (!defaulted).then_some(per_move);
    let slot = state
        .search
        .admit(
            kind.name(),
            Limits {
                time: total,
                ..limits.clone()
            },
        )
        .await?;
    let queued = slot.queued();
    let metrics = slot.metrics().clone();
    let stats = ReviewStatsDto {
        engine: kind.name().to_string(),
        positions: searched,
        time_ms_per_move: per_move.as_millis() as u64,
        nodes_per_move: limits.nodes,
        max_total_ms: state.config.max_time.as_millis() as u64,
        budget_ms: slot.limits().time.as_millis() as u64,
        elapsed_ms: 0.0,
        queued_ms: queued.as_secs_f64() * 1000.0,
        nodes: 0,
        seed,
        complete: true,
        stopped_by_time: 0,
    };
    let watch = Arc::new(Watch::new(1));
    let stop = StopOnDrop(Arc::clone(&watch));
    let streamed = wants_stream(&http);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    let on_move = move |m: &ReviewedMoveDto| {
        if streamed {
            let _ = tx.send(event("info", m));
        }
    };
    let job = move |_contexts: &Arc<kinrow_engine::core::context::ContextPool>, budget: &Limits| {
        let engine = build();
        let run = |p: &Position, time: Duration| {
            let limits = Limits {
                time,
                ..limits.clone()
            };
            // A fresh context: nothing kept from other requests changes the review.
            let mut ctx = SearchContext::new();
            let mut budget = Budget::new(&limits).watched(Arc::clone(&watch));
            let mut rng = StdRng::seed_from_u64(seed);
            let mut analysis = engine.analyze_in(p, &limits, &mut budget, &mut ctx, &mut rng);
            let v = value::values(kind, p, &mut analysis).evaluation;
            (analysis, v)
        };
        judge_game(&game, (most, budget.time), stats, run, on_move)
    };
    let result = async move {
        let _stop = stop;
        let answer = slot.run(job).await?.map_err(|panic| {
            log::error!("review with engine {} panicked: {panic}", kind.name());
            ApiError::new(ErrorCode::Internal, "the review failed (a bug, logged)")
        })?;
        let m = metrics.search(kind.name());
        m.ok.inc();
        m.nodes.inc_by(answer.stats.nodes);
        m.seconds.observe(answer.stats.elapsed_ms / 1000.0);
        Ok::<_, ApiError>(answer)
    };
    let mut response = if streamed {
        let result = async move {
            let answer = result.await?;
            serde_json::to_value(answer)
                .map_err(|e| ApiError::new(ErrorCode::Internal, format!("the answer: {e}")))
        };
        stream(rx, result)
    } else {
        HttpResponse::Ok().json(result.await?)
    };
    response.extensions_mut().insert(EngineLabel(kind.name()));
    Ok(response)
}

/// True when the request's `Accept` asks for an event stream.
fn wants_stream(http: &HttpRequest) -> bool {
    http.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}

/// Searches every position of `game` in turn with `run` (a position and its time: the
/// analysis and its value), within `budget` spread over them (evenly, each at most
/// `most`; without `most`, each may use what is left but [`RESERVE`] per later one), and
/// judges every move, handing each to `on_move` as soon as it is judged.
fn judge_game(
    game: &Game,
    (most, budget): (Option<Duration>, Duration),
    mut stats: ReviewStatsDto,
    run: impl Fn(&Position, Duration) -> (kinrow_engine::core::types::Analysis, f64),
    on_move: impl Fn(&ReviewedMoveDto),
) -> ReviewResponse {
    let start = Instant::now();
    let mut left = stats.positions;
    // Each position's value for its side to move, and the engine's move there.
    let mut values: Vec<f64> = Vec::with_capacity(game.positions.len());
    let mut bests: Vec<Option<Move>> = Vec::with_capacity(game.positions.len());
    let mut proofs: Vec<Proofs> = Vec::with_capacity(game.positions.len());
    let mut moves = Vec::with_capacity(game.moves.len());
    let mut summary = ReviewSummary::default();
    let mut losses: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (i, p) in game.positions.iter().enumerate() {
        if p.is_over() {
            values.push(final_value(p));
            bests.push(None);
            proofs.push(Proofs::NONE);
        } else {
            let unspent = budget.saturating_sub(start.elapsed());
            let time = match most {
                Some(most) => review::spread(unspent, left, most),
                None => unspent
                    .saturating_sub(RESERVE * left.saturating_sub(1) as u32)
                    .max(Duration::from_millis(1)),
            };
            left -= 1;
            let (analysis, v) = run(p, time);
            stats.nodes += analysis.stats.nodes;
            stats.complete &= analysis.stats.complete;
            if analysis.stats.elapsed >= time {
                stats.stopped_by_time += 1;
            }
            values.push(v);
            bests.push(Some(analysis.best));
            let played = game.moves.get(i).and_then(|&mv| {
                analysis
                    .moves
                    .iter()
                    .find(|e| e.mv == mv)
                    .map(|e| e.eval.outcome)
            });
            proofs.push(Proofs {
                position: analysis.evaluation.outcome,
                played: played.unwrap_or(kinrow_engine::core::types::Outcome::Unknown),
            });
        }
        // The move that led here can be judged now.
        let Some(j) = i.checked_sub(1) else { continue };
        let before = &game.positions[j];
        let played = game.moves[j];
        let best = bests[j].unwrap_or(played);
        let verdict = judge(
            played,
            (best, values[j]),
            values[i],
            forced(before),
            proofs[j],
        );
        let m = before.m();
        let mover = before.to_move();
        let dto = ReviewedMoveDto {
            index: j,
            player: mover.into(),
            mv: MoveDto::new(played, m),
            value_before: verdict.value_before,
            value_after: verdict.value_after,
            best: MoveDto::new(verdict.best, m),
            best_value: verdict.best_value,
            loss: verdict.loss,
            class: verdict.class.into(),
        };
        let side = match mover {
            Player::X => &mut summary.x,
            Player::O => &mut summary.o,
        };
        side.count(dto.class);
        losses[mover.index()].push(if dto.class == ClassName::Forced {
            0.0
        } else {
            dto.loss
        });
        on_move(&dto);
        moves.push(dto);
    }
    summary.x.accuracy = review::accuracy(&losses[Player::X.index()]);
    summary.o.accuracy = review::accuracy(&losses[Player::O.index()]);
    let for_x = game
        .positions
        .iter()
        .zip(&values)
        .map(|(p, &v)| if p.to_move() == Player::X { v } else { 0.0 - v })
        .collect();
    stats.elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    ReviewResponse {
        moves,
        summary,
        values: for_x,
        stats,
    }
}
