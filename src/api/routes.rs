//! The handlers: thin, they convert the body, call the game or an engine, convert back.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use actix_web::{http::header, web, HttpResponse};
use rand::RngExt;

use super::dto::{
    default_engine, position, EngineInfo, EngineParams, EnginesResponse, GameStatus, Health,
    LimitsUsed, MoveDto, PlayRequest, PlayResponse, ServerLimits, StateRequest, StateResponse,
    SuggestRequest, SuggestResponse,
};
use super::error::{ApiError, ErrorBody, ErrorCode};
use super::extract::ApiJson;
use super::forms::{trim, IncludeName};
use super::search::Finished;
use super::AppState;
use crate::config::{Config, MAX_BODY_BYTES, MAX_DEPTH, MAX_NODES};
use crate::engine::progress::{Watch, MAX_LINES};
use crate::engine::{level, EngineKind, Limits};
use crate::game::{GameError, GameErrorKind, Position, MAX_PIECES, MAX_SIDE};

/// The engine that answered, for the request log line.
#[derive(Clone, Debug)]
pub struct EngineLabel(pub &'static str);

fn invalid_limit(field: &str, message: String) -> ApiError {
    ApiError::at(ErrorCode::InvalidLimits, format!("engine.{field}"), message)
}

/// The engine, limits and seed of a request, with the server's defaults and caps applied.
/// The limits are checked before the engine name, so their errors do not depend on the registry.
pub fn search_plan(
    params: &EngineParams,
    config: &Config,
) -> Result<(EngineKind, Limits, u64), ApiError> {
    let time = match params.time_ms {
        None => config.default_time,
        Some(t) if t < 1 => {
            return Err(invalid_limit(
                "time_ms",
                format!("time_ms is {t}, but it must be at least 1"),
            ))
        }
        Some(t) => Duration::from_millis(t as u64).min(config.max_time),
    };
    let depth = match params.depth {
        None => None,
        Some(d) if (1..=MAX_DEPTH).contains(&d) => Some(d as u32),
        Some(d) => {
            return Err(invalid_limit(
                "depth",
                format!("depth is {d}, but it must be between 1 and {MAX_DEPTH}"),
            ))
        }
    };
    let nodes = match params.nodes {
        None => None,
        Some(n) if (1..=MAX_NODES).contains(&n) => Some(n as u64),
        Some(n) => {
            return Err(invalid_limit(
                "nodes",
                format!("nodes is {n}, but it must be between 1 and {MAX_NODES}"),
            ))
        }
    };
    let mistake_probability = match params.mistake_probability {
        None => 0.0,
        Some(p) if (0.0..=1.0).contains(&p) => p,
        Some(p) => {
            return Err(invalid_limit(
                "mistake_probability",
                format!("mistake_probability is {p}, but it must be between 0 and 1"),
            ))
        }
    };
    let threads = match params.threads {
        None => 1,
        Some(t) if t >= 1 => t.min(config.max_threads as i64) as usize,
        Some(t) => {
            return Err(invalid_limit(
                "threads",
                format!("threads is {t}, but it must be at least 1"),
            ))
        }
    };
    let kind = match &params.name {
        // Names are case-insensitive: "Minimax" is "minimax".
        Some(name) => EngineKind::parse(&name.0.to_ascii_lowercase()).ok_or_else(|| {
            let known: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
            ApiError::at(
                ErrorCode::UnknownEngine,
                "engine.name",
                format!(
                    "there is no engine {:?}; the engines are: {}",
                    name.0,
                    known.join(", ")
                ),
            )
        })?,
        None => default_engine().ok_or_else(|| {
            ApiError::at(
                ErrorCode::UnknownEngine,
                "engine.name",
                "this server has no engine built in",
            )
        })?,
    };
    level_of(params)?;
    if mistake_probability > 0.0 && !level::honours_mistakes(kind) {
        return Err(invalid_limit(
            "mistake_probability",
            format!(
                "the {} engine cannot honour mistake_probability (only perfect, threat, \
                 priority and greedy overlook branches); use level 1 to 9 for a weaker {}",
                kind.name(),
                kind.name()
            ),
        ));
    }
    // Drawn seeds stay below 2^53 so that JavaScript clients can send them back exactly.
    let seed = match params.seed {
        None => rand::rng().random_range(0..1u64 << 53),
        Some(s) => u64::try_from(s).map_err(|_| {
            invalid_limit("seed", format!("seed is {s}, but it must be at least 0"))
        })?,
    };
    let limits = Limits {
        time,
        depth,
        nodes,
        mistake_probability,
        threads,
        target: None,
    };
    Ok((kind, limits, seed))
}

/// The request's `engine.level`, 1 to 10 (10, full strength, when omitted).
pub fn level_of(params: &EngineParams) -> Result<u8, ApiError> {
    match params.level {
        None => Ok(level::FULL),
        Some(l) if (i64::from(level::MIN)..=i64::from(level::FULL)).contains(&l) => Ok(l as u8),
        Some(l) => Err(invalid_limit(
            "level",
            format!("level is {l}, but it must be between 1 (weakest) and 10 (full strength)"),
        )),
    }
}

/// The request's `engine.multipv`, 1 to [`MAX_LINES`] (1 when omitted).
pub fn multipv_of(params: &EngineParams) -> Result<usize, ApiError> {
    match params.multipv {
        None => Ok(1),
        Some(n) if (1..=MAX_LINES as i64).contains(&n) => Ok(n as usize),
        Some(n) => Err(invalid_limit(
            "multipv",
            format!("multipv is {n}, but it must be between 1 and {MAX_LINES}"),
        )),
    }
}

/// What builds the engine of `kind` at `level`: the engine itself at full strength
/// (and no root mistakes), else wrapped by [`level::Leveled`].
pub fn builder(
    kind: EngineKind,
    level: u8,
    mistake_probability: f64,
) -> impl FnOnce() -> Box<dyn crate::engine::Engine> + Send + 'static {
    move || {
        if level::untouched(kind, level, mistake_probability) {
            kind.build()
        } else {
            Box::new(level::Leveled::new(kind, level))
        }
    }
}

/// Runs `kind` at `level` on `position` with `watch` on it: the engine itself at full
/// strength in its lane (so that tiny searches still run on the worker), else wrapped by
/// [`level::Leveled`] in the pool.
async fn run_search(
    state: &AppState,
    (kind, level, limits, seed): (EngineKind, u8, Limits, u64),
    position: Position,
    watch: Arc<Watch>,
) -> Result<Finished, ApiError> {
    if level::untouched(kind, level, limits.mistake_probability) {
        return state
            .search
            .run_watched(kind, position, limits, seed, watch)
            .await;
    }
    let build = builder(kind, level, limits.mistake_probability);
    state
        .search
        .admit(kind.name(), limits)
        .await?
        .search(build, position, seed, watch)
        .await
}

/// Runs cheap game code (parsing, state, one move) with panics caught, so that a bug
/// answers 500 for this request only instead of dropping the connection.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        log::error!("panic while handling {what}");
        Err(ApiError::new(
            ErrorCode::Internal,
            format!("{what} failed (a bug, logged)"),
        ))
    })
}

fn game_over_error(p: &Position) -> ApiError {
    let message = match p.winner() {
        Some(w) => format!("the game is over: {w} has won"),
        None => "the game is over: it is a draw".to_string(),
    };
    GameError::new(GameErrorKind::GameOver, "board", message).into()
}

/// The position, engine, limits and seed of a suggest request (panics caught).
pub fn prepare_suggest(
    req: &SuggestRequest,
    config: &Config,
) -> Result<(Position, (EngineKind, Limits, u64)), ApiError> {
    guarded("parsing the position", || {
        let position = position(&req.rules, &req.board, req.to_move)?;
        if position.is_over() {
            return Err(game_over_error(&position));
        }
        let plan = search_plan(&req.engine.clone().unwrap_or_default(), config)?;
        Ok((position, plan))
    })
}

/// Suggest a move.
///
/// Runs an engine on the position and answers the chosen move, every evaluated move
/// (best first), a board-shaped grid of scores and what the search did. The budget is
/// `engine.time_ms` (default 1000 ms, capped at the server's maximum, 10000 ms by default);
/// time spent waiting for a free search slot counts against it, and the answer arrives
/// within the budget plus the server's margin (100 ms by default) or as a 503.
#[utoipa::path(
    post,
    path = "/v1/suggest",
    tag = "moves",
    request_body(content = SuggestRequest, examples(
        ("tic-tac-toe" = (summary = "3x3, three in a row", value = json!(super::examples::suggest_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five", value = json!(super::examples::suggest_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(super::examples::suggest_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(super::examples::suggest_renju()))),
    )),
    responses(
        (status = 200, description = "The engine's suggestion", body = SuggestResponse),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`: the body is over 64 KiB", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`: the body is not application/json", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules`, `inconsistent_turn`, `game_over`, `unknown_engine` or `invalid_limits`", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded`: every search slot is taken, or the search overran its budget",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn suggest(
    state: web::Data<AppState>,
    body: ApiJson<SuggestRequest>,
) -> Result<HttpResponse, ApiError> {
    let (position, (kind, limits, seed)) = prepare_suggest(&body.0, &state.config)?;
    let params = body.0.engine.clone().unwrap_or_default();
    let (level, lines) = (level_of(&params)?, multipv_of(&params)?);
    let watch = Arc::new(Watch::new(lines));
    let done = run_search(&state, (kind, level, limits, seed), position.clone(), watch).await?;
    let answer = suggestion(&position, kind, &done, (seed, level))?;
    let mut response = match &body.0.include {
        None => HttpResponse::Ok().json(answer),
        Some(keep) => HttpResponse::Ok().json(trimmed(&answer, Some(keep))?),
    };
    response.extensions_mut().insert(EngineLabel(kind.name()));
    Ok(response)
}

/// The answer for the search `done` of `position` (panics caught).
pub fn suggestion(
    position: &Position,
    kind: EngineKind,
    done: &Finished,
    (seed, level): (u64, u8),
) -> Result<SuggestResponse, ApiError> {
    guarded("building the answer", || {
        let used = LimitsUsed {
            time_ms: done.limits.time.as_millis() as u64,
            depth: done.limits.depth,
            // Below level 10 the node cap the level applied.
            nodes: level::limits(kind, level, &done.limits).nodes,
            mistake_probability: done.limits.mistake_probability,
            level,
            threads: done.limits.threads as u32,
        };
        Ok(SuggestResponse::new(
            position,
            kind,
            &done.analysis,
            (done.queued.as_secs_f64() * 1000.0, seed),
            used,
        ))
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

/// The state of a position.
///
/// Whose turn it is, whether the game is in progress, won (with the winning line) or
/// drawn, and how many legal moves the side to move has.
#[utoipa::path(
    post,
    path = "/v1/state",
    tag = "positions",
    request_body(content = StateRequest, examples(
        ("tic-tac-toe" = (summary = "3x3, three in a row", value = json!(super::examples::state_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five", value = json!(super::examples::state_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(super::examples::state_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(super::examples::state_renju()))),
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
        let p = position(&req.rules, &req.board, req.to_move)?;
        Ok(StateResponse::new(&p))
    })
}

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
        ("tic-tac-toe" = (summary = "3x3, three in a row", value = json!(super::examples::play_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five", value = json!(super::examples::play_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(super::examples::play_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(super::examples::play_renju()))),
    )),
    responses(
        (status = 200, description = "The position after the move (and the engine's reply)", body = PlayResponse),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules`, `inconsistent_turn`, `game_over`, `illegal_move`, `forbidden_move` (renju: the reason is in the message); with `reply`: `unknown_engine` or `invalid_limits` (field `reply.*`)", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded` (with `reply`): every search slot is taken, or the search overran its budget",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn play(
    state: web::Data<AppState>,
    body: ApiJson<PlayRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0;
    let (after_move, answer) = play_position(&req)?;
    // The reply's engine and limits are checked even when the move ends the game.
    let plan = match &req.reply {
        Some(params) => Some(search_plan(params, &state.config).map_err(|mut e| {
            e.field = e.field.map(|f| f.replacen("engine.", "reply.", 1));
            e
        })?),
        None => None,
    };
    let (Some((kind, limits, seed)), GameStatus::InProgress) = (plan, answer.status) else {
        return Ok(HttpResponse::Ok().json(answer));
    };
    let level = req.reply.as_ref().map_or(Ok(level::FULL), level_of)?;
    let lines = req.reply.as_ref().map_or(Ok(1), multipv_of)?;
    let watch = Arc::new(Watch::new(lines));
    let done = run_search(
        &state,
        (kind, level, limits, seed),
        after_move.clone(),
        watch,
    )
    .await?;
    let reply = suggestion(&after_move, kind, &done, (seed, level))?;
    let after = reply.after.clone();
    let reply = trimmed(&reply, req.include.as_deref())?;
    let mut response = HttpResponse::Ok().json(PlayResponse {
        reply: Some(reply),
        after,
        ..answer
    });
    response.extensions_mut().insert(EngineLabel(kind.name()));
    Ok(response)
}

/// The answer of `POST /v1/play` without its reply (panics caught).
pub fn play_answer(req: &PlayRequest) -> Result<PlayResponse, ApiError> {
    play_position(req).map(|(_, answer)| answer)
}

/// The position after the request's move, and the answer for it (panics caught).
fn play_position(req: &PlayRequest) -> Result<(Position, PlayResponse), ApiError> {
    guarded("playing the move", || {
        let mut p = position(&req.rules, &req.board, req.to_move)?;
        if p.is_over() {
            return Err(game_over_error(&p));
        }
        let mv = req.mv.to_move(&p)?;
        p.try_play(mv)?;
        let answer = PlayResponse::new(MoveDto::new(mv, p.m()), StateResponse::new(&p));
        Ok((p, answer))
    })
}

/// The engines.
///
/// Every engine with its description, the unit of its raw scores and the request parameters
/// it reads; which one is the default; and the server's limits.
#[utoipa::path(
    get,
    path = "/v1/engines",
    tag = "moves",
    responses((status = 200, description = "The engines and the server's limits", body = EnginesResponse))
)]
pub async fn engines(state: web::Data<AppState>) -> HttpResponse {
    let default = default_engine();
    let c = &state.config;
    HttpResponse::Ok().json(EnginesResponse {
        default: default.map(|k| k.name().to_string()),
        engines: EngineKind::ALL
            .iter()
            .map(|&k| EngineInfo {
                name: k.name().to_string(),
                description: k.description().to_string(),
                raw_unit: k.score_unit().to_string(),
                parameters: k
                    .parameters()
                    .iter()
                    .map(|p| p.as_str().to_string())
                    .collect(),
                default: Some(k) == default,
            })
            .collect(),
        limits: ServerLimits {
            default_time_ms: c.default_time.as_millis() as u64,
            max_time_ms: c.max_time.as_millis() as u64,
            time_margin_ms: c.margin.as_millis() as u64,
            max_depth: MAX_DEPTH as u64,
            max_nodes: MAX_NODES as u64,
            max_threads: c.max_threads as u64,
            max_concurrent_searches: c.max_concurrent_searches as u64,
            search_queue: c.search_queue as u64,
            max_body_bytes: MAX_BODY_BYTES as u64,
            max_side: MAX_SIDE as u64,
            max_pieces: MAX_PIECES as u64,
        },
    })
}

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

/// Prometheus metrics.
///
/// Text exposition format: `kinrow_http_requests_total` and
/// `kinrow_http_requests_duration_seconds` by endpoint, method and status;
/// `kinrow_searches_total` by engine and result, `kinrow_search_nodes_total` and
/// `kinrow_search_duration_seconds` by engine, `kinrow_searches_in_flight`,
/// `kinrow_searches_queued` and `kinrow_search_queue_seconds`.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "Prometheus text format", body = String, content_type = "text/plain"))
)]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; version=0.0.4"))
        .body(state.metrics.render())
}

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
