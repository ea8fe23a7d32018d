//! What several handlers share: the engine label of the log line, panics caught around
//! game code, the game-over error, and running a search at a level.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use actix_web::HttpResponse;

use crate::api::error::{ApiError, ErrorCode};
use crate::api::metrics::Metrics;
use crate::api::pool::Finished;
use crate::api::state::AppState;
use kinrow_engine::BrainFailure;
use kinrow_engine::SearchPlan;
use kinrow_engine::Watch;
use kinrow_game::{GameError, GameErrorKind, Position};

/// The engine that answered, for the request log line.
#[derive(Clone, Debug)]
pub struct EngineLabel(pub &'static str);

/// Runs `plan` on `position` with `watch` on it: the engine itself at full strength in
/// its lane (so that tiny searches still run on the worker), else wrapped by
/// [`kinrow_engine::level::Leveled`] in the pool.
pub(crate) async fn run_search(
    state: &AppState,
    plan: &SearchPlan,
    position: Position,
    watch: Arc<Watch>,
) -> Result<Finished, ApiError> {
    if plan.untouched() {
        return state.search.run_watched(plan, position, watch).await;
    }
    state
        .search
        .admit(plan.name(), plan.limits.clone())
        .await?
        .search(plan.builder(), position, plan.seed, watch)
        .await
}

/// A `200 application/json` answer of `value`, written into a buffer sized for a small
/// board's answer at once (growing it from empty costs several copies per answer).
pub(crate) fn json_ok<T: serde::Serialize>(value: &T) -> Result<HttpResponse, ApiError> {
    let mut body = Vec::with_capacity(4096);
    serde_json::to_writer(&mut body, value).map_err(|e| {
        ApiError::new(
            ErrorCode::Internal,
            format!("the answer did not serialize: {e}"),
        )
    })?;
    Ok(json_body(body))
}

/// A `200 application/json` answer of the JSON `body`.
pub(crate) fn json_body(body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(actix_web::http::header::ContentType::json())
        .body(body)
}

/// Runs cheap game code (parsing, state, one move) with panics caught, so that a bug
/// answers 500 for this request only instead of dropping the connection.
pub(crate) fn guarded<T>(
    what: &str,
    f: impl FnOnce() -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        log::error!("panic while handling {what}");
        Err(ApiError::new(
            ErrorCode::Internal,
            format!("{what} failed (a bug, logged)"),
        ))
    })
}

pub(crate) fn game_over_error(p: &Position) -> ApiError {
    let message = match p.winner() {
        Some(w) => format!("the game is over: {w} has won"),
        None => "the game is over: it is a draw".to_string(),
    };
    GameError::new(GameErrorKind::GameOver, "board", message).into()
}

/// The error for a search of `plan` whose external brain failed: 422 `invalid_rules`
/// where it refused the board or rules, else 503 `engine_unavailable` (counted in the
/// metrics); `None` when nothing failed.
pub(crate) fn brain_failure(plan: &SearchPlan, metrics: &Metrics) -> Option<ApiError> {
    let failure = plan.failure()?;
    let name = plan.name();
    Some(match failure {
        BrainFailure::Refused(message) => {
            metrics.searches.with_label_values(&[name, "refused"]).inc();
            ApiError::at(ErrorCode::InvalidRules, "rules", message)
        }
        BrainFailure::Unavailable(message) => {
            metrics
                .searches
                .with_label_values(&[name, "engine_unavailable"])
                .inc();
            log::warn!("external engine {name}: {message}");
            ApiError::new(ErrorCode::EngineUnavailable, message)
        }
    })
}
