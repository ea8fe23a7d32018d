//! Running engine searches without ever blocking an HTTP worker, and without piling up:
//!
//! - at most `max_concurrent_searches` run at once, each on tokio's blocking pool;
//! - at most `search_queue` more wait for a slot; past that a request gets 503 at once;
//! - time spent waiting comes out of the request's budget, so a request answers within
//!   its budget plus the margin: a search that overruns it answers 503 (the search
//!   itself finishes in the background and keeps its slot until then, so the ceiling holds);
//! - a panic in an engine becomes a logged 500 for that request only;
//! - searches too small to be worth the hop (every engine but `mcts`, whose work is
//!   bounded by the game tree, on a position with at most [`INLINE_EMPTIES`] empty cells
//!   and no special pieces in hand: tens of microseconds at most, less than the trip to
//!   the blocking pool and back) run at once on the HTTP worker, outside the slots;
//! - every search borrows a [`SearchContext`](crate::engine::SearchContext) of its
//!   rules from a [`ContextPool`] (what `auto` and `perfect` keep between a game's moves)
//!   and gives it back when done: at most [`SearchPool::contexts_kept`] idle contexts of
//!   at most [`MAX_CONTEXT_BYTES`](crate::engine::context::MAX_CONTEXT_BYTES) each are kept.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;
use tokio::sync::Semaphore;

use super::error::{ApiError, ErrorCode};
use super::metrics::Metrics;
use crate::engine::{Analysis, ContextPool, Engine, EngineKind, Limits};
use crate::game::Position;

/// The most empty cells a position may have for its search to run on the HTTP worker.
pub const INLINE_EMPTIES: u32 = 9;

/// True when the search of `kind` on `position` is so small that it runs on the HTTP
/// worker: its whole game tree is tiny and the engine stops once it is searched.
pub fn runs_inline(kind: EngineKind, position: &Position) -> bool {
    kind != EngineKind::Mcts
        && !position.has_special_pieces()
        && position.empties() <= INLINE_EMPTIES
}

/// A search that ran: the analysis, the time it waited for a slot and the limits it had.
pub struct Finished {
    pub analysis: Analysis,
    pub queued: Duration,
    pub limits: Limits,
}

/// The bounded pool of search slots shared by every HTTP worker.
pub struct SearchPool {
    slots: Arc<Semaphore>,
    admitted: AtomicUsize,
    capacity: usize,
    margin: Duration,
    metrics: Metrics,
    contexts: Arc<ContextPool>,
}

/// Counts a request as admitted (running or waiting) until dropped.
struct Admission<'a>(&'a AtomicUsize);

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Decrements a gauge when dropped (also when the request is cancelled).
struct GaugeGuard(prometheus::IntGauge);

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

fn overloaded(message: &str) -> ApiError {
    ApiError::new(ErrorCode::Overloaded, message)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

impl SearchPool {
    pub fn new(concurrent: usize, queue: usize, margin: Duration, metrics: Metrics) -> SearchPool {
        SearchPool {
            slots: Arc::new(Semaphore::new(concurrent.max(1))),
            admitted: AtomicUsize::new(0),
            capacity: concurrent.max(1) + queue,
            margin,
            metrics,
            contexts: Arc::new(ContextPool::new(Self::contexts_kept(concurrent))),
        }
    }

    /// The idle search contexts kept for `concurrent` search slots: one per slot and a
    /// few for the searches that run on the HTTP workers.
    pub fn contexts_kept(concurrent: usize) -> usize {
        concurrent.max(1) + 4
    }

    /// Runs `kind` on `position` within `limits` (whose `time` is the whole request's
    /// budget, queueing included) with the RNG seeded by `seed`.
    pub async fn run(
        &self,
        kind: EngineKind,
        position: Position,
        limits: Limits,
        seed: u64,
    ) -> Result<Finished, ApiError> {
        if runs_inline(kind, &position) {
            return self.run_inline(kind, &position, limits, seed);
        }
        self.run_engine(kind.name(), move || kind.build(), position, limits, seed)
            .await
    }

    /// Runs a tiny search (see [`runs_inline`]) right here, with the same panic
    /// boundary and metrics as a pooled one.
    fn run_inline(
        &self,
        kind: EngineKind,
        position: &Position,
        limits: Limits,
        seed: u64,
    ) -> Result<Finished, ApiError> {
        let name = kind.name();
        let mut rng = StdRng::seed_from_u64(seed);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut ctx = self.contexts.take(position);
            kind.build()
                .analyze_with(position, &limits, &mut ctx, &mut rng)
        }))
        .map_err(|payload| panic_message(&*payload));
        self.finish(name, result).map(|analysis| Finished {
            analysis,
            queued: Duration::ZERO,
            limits,
        })
    }

    /// Counts a search that returned (or panicked) and turns a panic into a 500.
    fn finish(&self, name: &str, result: Result<Analysis, String>) -> Result<Analysis, ApiError> {
        match result {
            Ok(analysis) => {
                let metrics = self.metrics.search(name);
                metrics.ok.inc();
                metrics.nodes.inc_by(analysis.stats.nodes);
                metrics
                    .seconds
                    .observe(analysis.stats.elapsed.as_secs_f64());
                Ok(analysis)
            }
            Err(panic) => {
                self.count(name, "panic");
                log::error!("engine {name} panicked: {panic}");
                Err(ApiError::new(
                    ErrorCode::Internal,
                    format!("the {name} engine failed on this position (a bug, logged)"),
                ))
            }
        }
    }

    fn count(&self, name: &str, result: &str) {
        self.metrics
            .searches
            .with_label_values(&[name, result])
            .inc()
    }

    /// Runs the engine that `build` makes (on the blocking pool, like the search),
    /// labelled `name` in the metrics and logs. [`SearchPool::run`] for any engine.
    pub async fn run_engine<F>(
        &self,
        name: &'static str,
        build: F,
        position: Position,
        mut limits: Limits,
        seed: u64,
    ) -> Result<Finished, ApiError>
    where
        F: FnOnce() -> Box<dyn Engine> + Send + 'static,
    {
        let start = Instant::now();
        let count = |result: &str| self.count(name, result);
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= self.capacity {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            count("overloaded");
            return Err(overloaded(
                "every search slot and queue place is taken; retry later",
            ));
        }
        let _admission = Admission(&self.admitted);

        let budget = limits.time;
        let permit = {
            self.metrics.queued.inc();
            let _queued = GaugeGuard(self.metrics.queued.clone());
            tokio::time::timeout(budget, Arc::clone(&self.slots).acquire_owned()).await
        };
        let queued = start.elapsed();
        self.metrics.queue_seconds.observe(queued.as_secs_f64());
        let permit = match permit {
            Ok(Ok(permit)) => permit,
            _ => {
                count("overloaded");
                return Err(overloaded(
                    "no search slot came free within the time budget; retry later",
                ));
            }
        };
        // What is left of the budget, at least a millisecond: the answer still arrives
        // within budget + margin, and reports the time the engine had.
        limits.time = budget.saturating_sub(queued).max(Duration::from_millis(1));

        let metrics = self.metrics.clone();
        let contexts = Arc::clone(&self.contexts);
        let job_limits = limits.clone();
        metrics.in_flight.inc();
        let handle = tokio::task::spawn_blocking(move || {
            // The slot and the gauge are held until the engine returns, even if the
            // request has given up waiting: the number of running searches stays bounded.
            let _permit = permit;
            let _in_flight = GaugeGuard(metrics.in_flight.clone());
            let mut rng = StdRng::seed_from_u64(seed);
            catch_unwind(AssertUnwindSafe(|| {
                let mut ctx = contexts.take(&position);
                build().analyze_with(&position, &job_limits, &mut ctx, &mut rng)
            }))
            .map_err(|payload| panic_message(&*payload))
        });
        match tokio::time::timeout(limits.time + self.margin, handle).await {
            Ok(Ok(result)) => self.finish(name, result).map(|analysis| Finished {
                analysis,
                queued,
                limits,
            }),
            Ok(Err(join_error)) => {
                count("panic");
                log::error!("search task of engine {name} failed: {join_error}");
                Err(ApiError::new(
                    ErrorCode::Internal,
                    "the search task failed (a bug, logged)",
                ))
            }
            Err(_) => {
                count("overrun");
                log::warn!(
                    "engine {name} overran its budget of {} ms by more than {} ms",
                    limits.time.as_millis(),
                    self.margin.as_millis()
                );
                Err(overloaded(
                    "the search did not finish within its time budget; retry later",
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Hand, Rules};

    #[test]
    fn only_tiny_trees_without_pieces_run_inline() {
        let ttt = Position::empty(&Rules::mnk(3, 3, 3).unwrap());
        assert!(runs_inline(EngineKind::Perfect, &ttt));
        assert!(runs_inline(EngineKind::Auto, &ttt));
        assert!(runs_inline(EngineKind::Minimax, &ttt));
        // MCTS spends its budget: never on the worker.
        assert!(!runs_inline(EngineKind::Mcts, &ttt));
        let four = Position::empty(&Rules::mnk(4, 4, 4).unwrap());
        assert!(!runs_inline(EngineKind::Perfect, &four));
        let hands = [Hand::new(0, 1, 0), Hand::default()];
        let pieces = Position::empty(&Rules::new(3, 3, 3, true, hands).unwrap());
        assert!(!runs_inline(EngineKind::Perfect, &pieces));
    }
}
