//! `POST /v1/review`: a whole game judged move by move ([`kinrow_engine::review`]).
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
use super::plan::{search_plan, unplayable};
use super::run::{brain_failure, EngineLabel};
use crate::api::dto::analyse::StreamEvent;
use crate::api::dto::position;
use crate::api::dto::review::{ReviewRequest, ReviewResponse, ReviewStatsDto, ReviewedMoveDto};
use crate::api::error::{ApiError, ErrorBody, ErrorCode};
use crate::api::extract::ApiJson;
use crate::api::pool::StopOnDrop;
use crate::api::state::AppState;
use crate::config::Config;
use kinrow_engine::gravity;
use kinrow_engine::level;
use kinrow_engine::review;
use kinrow_engine::review::{Game, Spread};
use kinrow_engine::value;
use kinrow_engine::Budget;
use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use kinrow_engine::SearchContext;
use kinrow_engine::SearchPlan;
use kinrow_engine::Watch;
use kinrow_game::Position;

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
/// first (a loaded machine), whose classes may differ on another run. A review whose
/// searches cost more than its time (a large board with a millisecond per move, a loaded
/// machine) does not overrun: it answers the moves judged when the time ran out, with
/// `stats.unjudged` the number of last moves left out and `stats.complete` false.
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
        (status = 503, description = "`overloaded`: every search slot is taken, or the review overran its budget; `engine_unavailable`: an external engine crashed, hung, overran or answered nonsense (its process is replaced; docs/external.md)",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn review(
    state: web::Data<AppState>,
    http: HttpRequest,
    body: ApiJson<ReviewRequest>,
) -> Result<HttpResponse, ApiError> {
    let review = PreparedReview::new(&body.0, &state.config)?;
    let name = review.plan.name();
    let plan = review.plan.clone();
    let slot = state
        .search
        .admit(
            name,
            Limits {
                time: review.total,
                ..review.plan.limits.clone()
            },
        )
        .await?;
    let queued = slot.queued();
    // The budget counts from here: the wait for a blocking thread and the engine's
    // set-up come out of it too.
    let admitted = Instant::now();
    let metrics = slot.metrics().clone();
    let watch = Arc::new(Watch::new(1));
    let stop = StopOnDrop(Arc::clone(&watch));
    let streamed = wants_stream(&http);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    let on_move = move |m: &ReviewedMoveDto| {
        if streamed {
            let _ = tx.send(event("info", m));
        }
    };
    let job = move |_contexts: &Arc<kinrow_engine::ContextPool>, budget: &Limits| {
        let budget = budget.time.saturating_sub(admitted.elapsed());
        review.run(budget, queued, &watch, on_move)
    };
    let result = async move {
        let _stop = stop;
        let answer = slot.run(job).await?.map_err(|panic| {
            log::error!("review with engine {name} panicked: {panic}");
            ApiError::new(ErrorCode::Internal, "the review failed (a bug, logged)")
        })?;
        if let Some(e) = brain_failure(&plan, &metrics) {
            return Err(e);
        }
        let m = metrics.search(name);
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
        stream(rx, result, None)
    } else {
        HttpResponse::Ok().json(result.await?)
    };
    response.extensions_mut().insert(EngineLabel(name));
    Ok(response)
}

/// True when the request's `Accept` asks for an event stream.
fn wants_stream(http: &HttpRequest) -> bool {
    http.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}

/// A review ready to run: the replayed game, the engine's plan with the node cap of
/// each position, and how the time is spread.
pub struct PreparedReview {
    game: Game,
    plan: SearchPlan,
    /// The positions to search (those not yet over).
    searched: usize,
    /// The time asked for each position.
    per_move: Duration,
    /// Each position's most (`None` by default: the node cap binds first, see
    /// [`Spread`]).
    most: Option<Duration>,
    /// The whole review's time: the positions times `per_move`, at most the server's
    /// maximum.
    total: Duration,
    /// The server's maximum.
    max_time: Duration,
}

impl PreparedReview {
    /// Replays the game of `req` and plans its searches under `config`; every problem is
    /// an error naming its field.
    pub fn new(req: &ReviewRequest, config: &Config) -> Result<PreparedReview, ApiError> {
        let game = replay(req)?;
        let params = req.engine.clone().unwrap_or_default();
        let mut plan = search_plan(&params, config, "engine")?;
        if let Some(e) = game.positions.first().and_then(|p| unplayable(&plan, p)) {
            return Err(e);
        }
        // A swap / swap2 board still in its first placement is refused as by every other
        // game endpoint: those stones are placed through /v1/opening (issue 54 item 9).
        if let Some(e) = game
            .positions
            .first()
            .and_then(super::opening::opening_phase_error)
        {
            return Err(e);
        }
        let per_move = match req.time_ms_per_move {
            None if params.time_ms.is_none() => Duration::from_millis(DEFAULT_MS_PER_MOVE),
            None => plan.limits.time,
            Some(t) if t >= 1 => Duration::from_millis(t as u64).min(config.max_time),
            Some(t) => {
                return Err(ApiError::at(
                    ErrorCode::InvalidLimits,
                    "time_ms_per_move",
                    format!("time_ms_per_move is {t}, but it must be at least 1"),
                ))
            }
        };
        // A node cap per position makes the review repeat with its seed.
        // (An external brain counts no nodes: its time binds.)
        plan.limits.nodes = plan.limits.nodes.or_else(|| {
            level::nodes_per_second(plan.engine.own()?)
                .map(|rate| (rate * per_move.as_secs_f64() * NODE_SHARE).max(1.0) as u64)
        });
        let searched = game.positions.iter().filter(|p| !p.is_over()).count();
        let total = (per_move * searched.max(1) as u32).min(config.max_time);
        // A position's time: an even share of what is left, at most what the client
        // asked for; by default (the node cap binds first) what is left less a reserve
        // for each later position, so that a slow position (or a loaded machine)
        // borrows what the others do not use rather than be stopped by the time.
        let defaulted = req.time_ms_per_move.is_none() && params.time_ms.is_none();
        Ok(PreparedReview {
            game,
            plan,
            searched,
            per_move,
            most: (!defaulted).then_some(per_move),
            total,
            max_time: config.max_time,
        })
    }

    /// Runs the review on this thread within `budget` (after `queued` waiting for a
    /// slot), each position with a fresh context and the plan's seed, stopping when
    /// `watch` is stopped; hands every judged move to `on_move` as it is judged.
    pub fn run(
        self,
        budget: Duration,
        queued: Duration,
        watch: &Arc<Watch>,
        mut on_move: impl FnMut(&ReviewedMoveDto),
    ) -> ReviewResponse {
        let (plan, seed) = (&self.plan, self.plan.seed);
        let engine = self.plan.builder()();
        let limits = self.plan.limits.clone();
        let m = self.game.positions[0].m();
        // Where `perfect`'s gravity solver applies (Connect Four and boards up to 128
        // cells with their sentinel row) each position is solved by it, by time (a proof
        // is the same whatever its budget), with one context for the whole review: the
        // game's positions share most of their subtrees. A position it cannot prove in
        // its share keeps `perfect`'s answer: no value, so its moves are judged only where
        // the positions around them are proven (the verdicts agree with the solver).
        let solver = EngineKind::Perfect.build();
        let mut proof_ctx = SearchContext::new();
        let proves = self.plan.engine.own().is_some() && self.plan.untouched();
        let run = |p: &Position, time: Duration| {
            if proves && gravity::applies(p) {
                let solve = Limits::with_time(time);
                let mut budget = Budget::new(&solve).watched(Arc::clone(watch));
                let mut rng = StdRng::seed_from_u64(seed);
                let mut proof = solver.analyze_in(p, &solve, &mut budget, &mut proof_ctx, &mut rng);
                let mut values = value::values(EngineKind::Perfect, p, &mut proof);
                value::one_scale(&mut proof, &mut values, true);
                return (proof, values.evaluation);
            }
            let limits = Limits {
                time,
                ..limits.clone()
            };
            // A fresh context: nothing kept from other requests changes the review.
            let mut ctx = SearchContext::new();
            let mut budget = Budget::new(&limits).watched(Arc::clone(watch));
            let mut rng = StdRng::seed_from_u64(seed);
            let mut analysis = engine.analyze_in(p, &limits, &mut budget, &mut ctx, &mut rng);
            let v = plan.values(p, &mut analysis).evaluation;
            (analysis, v)
        };
        let spread = Spread {
            budget,
            per_position: self.most,
            reserve: RESERVE,
        };
        let review = review::judge_game(&self.game, spread, run, |judged| {
            on_move(&ReviewedMoveDto::new(judged, m))
        });
        let stats = ReviewStatsDto {
            engine: plan.name().to_string(),
            positions: self.searched,
            time_ms_per_move: self.per_move.as_millis() as u64,
            nodes_per_move: limits.nodes,
            max_total_ms: self.max_time.as_millis() as u64,
            budget_ms: budget.as_millis() as u64,
            elapsed_ms: review.elapsed.as_secs_f64() * 1000.0,
            queued_ms: queued.as_secs_f64() * 1000.0,
            nodes: review.nodes,
            seed,
            complete: review.complete,
            stopped_by_time: review.stopped_by_time,
            unjudged: review.unjudged,
        };
        ReviewResponse::new(&review, m, stats)
    }
}

/// A review on this thread, without a server: what `POST /v1/review` answers for `req`
/// under `config` (`kinrow review`). Its budget is the whole review's time.
pub fn review_here(req: &ReviewRequest, config: &Config) -> Result<ReviewResponse, ApiError> {
    let review = PreparedReview::new(req, config)?;
    let budget = review.total;
    Ok(review.run(budget, Duration::ZERO, &Arc::new(Watch::new(1)), |_| {}))
}
