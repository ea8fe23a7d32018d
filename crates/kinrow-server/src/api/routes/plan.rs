//! The [`SearchPlan`] of a request (`engine`, or `/v1/play`'s `reply`): engine, limits,
//! level, multipv and seed, with the server's defaults and caps applied. Every error
//! names its field under the request's own key (`engine.time_ms`, `reply.depth`).

use std::time::Duration;

use rand::RngExt;

use crate::api::dto::{default_engine, EngineParams};
use crate::api::error::{ApiError, ErrorCode};
use crate::config::{Config, MAX_DEPTH, MAX_NODES};
use kinrow_engine::level;
use kinrow_engine::BrainRun;
use kinrow_engine::BrainSpec;
use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use kinrow_engine::MAX_LINES;
use kinrow_engine::{EngineChoice, SearchPlan};

/// An `invalid_limits` error at `{at}.{field}`.
fn invalid_limit(at: &str, field: &str, message: String) -> ApiError {
    ApiError::at(ErrorCode::InvalidLimits, format!("{at}.{field}"), message)
}

/// The search plan of a request's engine parameters found at `at` (`engine`, or `reply`
/// in `/v1/play`), with the server's defaults and caps applied. The limits are checked
/// before the engine name, so their errors do not depend on the registry.
pub fn search_plan(
    params: &EngineParams,
    config: &Config,
    at: &str,
) -> Result<SearchPlan, ApiError> {
    let limits = limits_of(params, config, at)?;
    let engine = engine_of(params, config, at)?;
    let level = level_of(params, at)?;
    let multipv = multipv_of(params, at)?;
    match &engine {
        EngineChoice::Own(kind) => {
            if limits.mistake_probability > 0.0 && !level::honours_mistakes(*kind) {
                return Err(invalid_limit(
                    at,
                    "mistake_probability",
                    format!(
                        "the {} engine cannot honour mistake_probability (only perfect, threat, \
                         priority and greedy overlook branches); use level 1 to 9 for a weaker {}",
                        kind.name(),
                        kind.name()
                    ),
                ));
            }
        }
        EngineChoice::External(run) => external_limits(params, run.brain.spec(), at)?,
    }
    let seed = seed_of(params, at)?;
    Ok(SearchPlan {
        engine,
        limits,
        level,
        multipv,
        seed,
    })
}

/// The request's limits (under `at`): `time_ms` (the server's default, cut to its
/// most), `depth`, `nodes`, `mistake_probability` and `threads` (cut to the server's
/// most), each checked.
fn limits_of(params: &EngineParams, config: &Config, at: &str) -> Result<Limits, ApiError> {
    let time = match params.time_ms {
        None => config.default_time,
        Some(t) if t < 1 => {
            return Err(invalid_limit(
                at,
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
                at,
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
                at,
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
                at,
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
                at,
                "threads",
                format!("threads is {t}, but it must be at least 1"),
            ))
        }
    };
    Ok(Limits {
        time,
        depth,
        nodes,
        mistake_probability,
        threads,
        target: None,
    })
}

/// The request's `seed` (under `at`), at least 0; drawn when omitted.
fn seed_of(params: &EngineParams, at: &str) -> Result<u64, ApiError> {
    // Drawn seeds stay below 2^53 so that JavaScript clients can send them back exactly.
    Ok(match params.seed {
        None => rand::rng().random_range(0..1u64 << 53),
        Some(s) => u64::try_from(s).map_err(|_| {
            invalid_limit(
                at,
                "seed",
                format!("seed is {s}, but it must be at least 0"),
            )
        })?,
    })
}

/// The request's `level` (under `at`), 1 to 10 (10, full strength, when omitted).
fn level_of(params: &EngineParams, at: &str) -> Result<u8, ApiError> {
    match params.level {
        None => Ok(level::FULL),
        Some(l) if (i64::from(level::MIN)..=i64::from(level::FULL)).contains(&l) => Ok(l as u8),
        Some(l) => Err(invalid_limit(
            at,
            "level",
            format!("level is {l}, but it must be between 1 (weakest) and 10 (full strength)"),
        )),
    }
}

/// The request's `multipv` (under `at`), 1 to [`MAX_LINES`] (1 when omitted).
fn multipv_of(params: &EngineParams, at: &str) -> Result<usize, ApiError> {
    match params.multipv {
        None => Ok(1),
        Some(n) if (1..=MAX_LINES as i64).contains(&n) => Ok(n as usize),
        Some(n) => Err(invalid_limit(
            at,
            "multipv",
            format!("multipv is {n}, but it must be between 1 and {MAX_LINES}"),
        )),
    }
}

/// The engine the request names at `{at}.name` (case-insensitive): one of the registry,
/// or an external engine of the server; the default engine when it names none.
fn engine_of(params: &EngineParams, config: &Config, at: &str) -> Result<EngineChoice, ApiError> {
    let Some(name) = &params.name else {
        return default_engine().map(EngineChoice::Own).ok_or_else(|| {
            ApiError::at(
                ErrorCode::UnknownEngine,
                format!("{at}.name"),
                "this server has no engine built in",
            )
        });
    };
    let wanted = name.0.to_ascii_lowercase();
    if let Some(kind) = EngineKind::parse(&wanted) {
        return Ok(EngineChoice::Own(kind));
    }
    if let Some(brain) = config.brains.iter().find(|b| b.name() == wanted) {
        return Ok(EngineChoice::External(BrainRun::new(brain.clone())));
    }
    let known: Vec<&str> = EngineKind::ALL
        .iter()
        .map(|k| k.name())
        .chain(config.brains.iter().map(|b| b.name()))
        .collect();
    Err(ApiError::at(
        ErrorCode::UnknownEngine,
        format!("{at}.name"),
        format!(
            "there is no engine {:?}; the engines are: {}",
            name.0,
            known.join(", ")
        ),
    ))
}

/// The limits an external brain refuses: `level` below 10 and `mistake_probability`
/// (it has neither), `multipv` above 1 (one move comes back), `nodes` and `depth` unless
/// its spec says it takes `INFO max_node` / `max_depth`.
fn external_limits(params: &EngineParams, spec: &BrainSpec, at: &str) -> Result<(), ApiError> {
    let refuse = |field: &str, why: &str| {
        Err(invalid_limit(
            at,
            field,
            format!("the external engine {} {why}", spec.name),
        ))
    };
    if params.level.is_some_and(|l| l != i64::from(level::FULL)) {
        return refuse("level", "plays at its own strength: it has no levels");
    }
    if params.mistake_probability.is_some_and(|p| p > 0.0) {
        return refuse("mistake_probability", "cannot be told to overlook moves");
    }
    if params.multipv.is_some_and(|n| n > 1) {
        return refuse("multipv", "answers one move: multipv must be 1");
    }
    if params.nodes.is_some() && !spec.takes_nodes {
        return refuse(
            "nodes",
            "does not take a node limit (INFO max_node); use time_ms",
        );
    }
    if params.depth.is_some() && !spec.takes_depth {
        return refuse(
            "depth",
            "does not take a depth limit (INFO max_depth); use time_ms",
        );
    }
    Ok(())
}

/// The error for a position `plan`'s engine cannot play, naming the field at fault:
/// an external brain plays the protocol's games only (five in a row, marks only, no
/// gravity, the free opening).
pub fn unplayable(plan: &SearchPlan, position: &kinrow_game::Position) -> Option<ApiError> {
    let EngineChoice::External(run) = &plan.engine else {
        return None;
    };
    kinrow_engine::ExternalBrain::cannot_play(position).map(|(field, why)| {
        let code = if field == "board" {
            ErrorCode::InvalidBoard
        } else {
            ErrorCode::InvalidRules
        };
        ApiError::at(code, field, format!("{}: {why}", run.brain.name()))
    })
}
