//! Running engine searches without ever blocking an HTTP worker for long, and without
//! piling up. Every search request is put in one of two lanes by its cost ([`lane`]):
//!
//! - **inline**: searches that cost microseconds run at once on the HTTP worker, outside
//!   the slots and the queue, so they are never shed for want of a slot: every engine but
//!   `mcts` on a position with at most [`INLINE_EMPTIES`] empty cells and no special
//!   pieces in hand (the whole game tree is tiny and the engine stops once it is
//!   searched), and the one-ply engines (`threat`, `priority`, `greedy`) on boards of at
//!   most [`CHEAP_CELLS`] cells (with special pieces in hand, `greedy` tries each of them
//!   on every target: at most [`CHEAP_CELLS`] / 4 cells then).
//! - **pool**: everything else. At most `max_concurrent_searches` run at once, each on
//!   tokio's blocking pool; at most `search_queue` more wait for a slot, first come first
//!   served (tokio's semaphore is fair); past that a request gets 503 at once.
//!
//! Time: a request's budget counts from its start (see [`RequestClock`]: a proxy's
//! `X-Request-Start`, else its arrival) and is capped by the client's deadline
//! (`X-Kinrow-Deadline-Ms`). Time spent waiting comes out of the budget, and a request
//! waits only while at least the admission [`Floor`] of its budget would be left (20%
//! of it and at least 20 ms by default, but at most half of a short budget): past that
//! it answers 503 rather than a 200 that had no time to search. The answer arrives
//! within the budget plus the margin (and before the deadline, if one was given): a
//! search that overruns it answers 503 (the search itself finishes in the background and
//! keeps its slot until then, so the ceiling on running searches holds). A panic in an
//! engine becomes a logged 500 for that request only.
//!
//! Every search, in either lane, borrows a [`SearchContext`](crate::engine::SearchContext)
//! of its rules from a [`ContextPool`] (what `auto` and `perfect` keep between a game's
//! moves) and gives it back when done: at most [`SearchPool::contexts_kept`] idle contexts
//! of at most [`MAX_CONTEXT_BYTES`](crate::engine::context::MAX_CONTEXT_BYTES) each are kept.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;
use tokio::sync::Semaphore;

use super::deadline::RequestClock;
use super::error::{ApiError, ErrorCode};
use super::metrics::Metrics;
use crate::engine::{Analysis, ContextPool, Engine, EngineKind, Limits};
use crate::game::Position;

/// The most empty cells a position may have for any search but `mcts` to run inline.
pub const INLINE_EMPTIES: u32 = 9;
/// The largest board (in cells) on which the one-ply engines run inline: 32x32. On
/// 15x15 they take 0.02-0.2 ms a call, on 32x32 at most about 1 ms (`kinrow bench`,
/// docs/performance.md).
pub const CHEAP_CELLS: usize = 1024;

/// Where a search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lane {
    /// At once on the HTTP worker, outside the slots and the queue.
    Inline,
    /// On the blocking pool, behind a slot (and maybe the queue).
    Pool,
}

/// The lane of the search of `kind` on `position`, by its cost (see the module docs).
pub fn lane(kind: EngineKind, position: &Position) -> Lane {
    let tiny = kind != EngineKind::Mcts
        && !position.has_special_pieces()
        && position.empties() <= INLINE_EMPTIES;
    let cells = position.m() * position.n();
    let one_ply = match kind {
        EngineKind::Threat | EngineKind::Priority => cells <= CHEAP_CELLS,
        EngineKind::Greedy if position.has_special_pieces() => cells <= CHEAP_CELLS / 4,
        EngineKind::Greedy => cells <= CHEAP_CELLS,
        _ => false,
    };
    if tiny || one_ply {
        Lane::Inline
    } else {
        Lane::Pool
    }
}

/// True when the search of `kind` on `position` runs on the HTTP worker.
pub fn runs_inline(kind: EngineKind, position: &Position) -> bool {
    lane(kind, position) == Lane::Inline
}

/// The admission floor: the least of its budget a search must have left when it gets a
/// slot; a request that would have less answers 503 instead of a starved 200.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Floor {
    /// A share of the budget, in percent.
    pub percent: u32,
    /// And at least this much (but at most half of the budget).
    pub min: Duration,
}

impl Default for Floor {
    fn default() -> Floor {
        Floor {
            percent: 20,
            min: Duration::from_millis(20),
        }
    }
}

impl Floor {
    /// The floor of a search whose whole budget is `budget`.
    pub fn of(&self, budget: Duration) -> Duration {
        let share = budget.mul_f64(f64::from(self.percent.min(100)) / 100.0);
        share.max(self.min.min(budget / 2))
    }
}

/// When a search must stop and when its answer is due, from its request's clock.
#[derive(Copy, Clone, Debug)]
struct Window {
    /// When the request started (the budget counts from here).
    start: Instant,
    /// When the engine must stop: start + budget, or earlier for a deadline.
    end: Instant,
    /// When the answer is due at the latest: `end` + margin, or the deadline.
    due: Instant,
}

impl Window {
    /// With a deadline, the engine stops a margin before it (at most a fifth of the
    /// deadline, so that short deadlines keep most of their time for the search).
    fn new(clock: RequestClock, budget: Duration, margin: Duration) -> Window {
        let start = clock.start;
        let mut end = start + budget;
        let mut due = end + margin;
        if let Some(deadline) = clock.deadline {
            let reserve = margin.min(deadline.saturating_duration_since(start) / 5);
            end = end.min(deadline.checked_sub(reserve).unwrap_or(start));
            due = due.min(deadline);
        }
        Window { start, end, due }
    }

    /// The engine's time from `now` on, at least a millisecond.
    fn left(&self, now: Instant) -> Duration {
        self.end
            .saturating_duration_since(now)
            .max(Duration::from_millis(1))
    }
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
    floor: Floor,
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
            floor: Floor::default(),
            metrics,
            contexts: Arc::new(ContextPool::new(Self::contexts_kept(concurrent))),
        }
    }

    /// The same pool with admission floor `floor`.
    pub fn with_floor(mut self, floor: Floor) -> SearchPool {
        self.floor = floor;
        self
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
        if lane(kind, &position) == Lane::Inline {
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
        mut limits: Limits,
        seed: u64,
    ) -> Result<Finished, ApiError> {
        let name = kind.name();
        let now = Instant::now();
        let window = Window::new(RequestClock::current(), limits.time, self.margin);
        if window.end <= now {
            self.count(name, "starved");
            return Err(overloaded(
                "the request's time budget or deadline had passed before its search could start",
            ));
        }
        limits.time = limits.time.min(window.left(now));
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
        let arrived = Instant::now();
        let count = |result: &str| self.count(name, result);
        let window = Window::new(RequestClock::current(), limits.time, self.margin);
        // Wait for a slot only while at least the floor of the budget would be left.
        let floor = self
            .floor
            .of(window.end.saturating_duration_since(window.start));
        let admit_by = window.end.checked_sub(floor).unwrap_or(window.start);
        if admit_by <= arrived {
            count("starved");
            return Err(overloaded(
                "the request's time budget had mostly passed before it reached the search; retry later",
            ));
        }
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= self.capacity {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            count("overloaded");
            return Err(overloaded(
                "every search slot and queue place is taken; retry later",
            ));
        }
        let _admission = Admission(&self.admitted);

        let permit = {
            self.metrics.queued.inc();
            let _queued = GaugeGuard(self.metrics.queued.clone());
            let wait = admit_by.saturating_duration_since(arrived);
            tokio::time::timeout(wait, Arc::clone(&self.slots).acquire_owned()).await
        };
        let now = Instant::now();
        let queued = now.saturating_duration_since(arrived);
        self.metrics.queue_seconds.observe(queued.as_secs_f64());
        let permit = match permit {
            // (A slot that came while the waiting task itself was not scheduled, after the
            // floor was reached, is as good as none.)
            Ok(Ok(permit)) if now <= admit_by + Duration::from_millis(1) => permit,
            _ => {
                count("starved");
                return Err(overloaded(
                    "no search slot came free while enough of the time budget was left; retry later",
                ));
            }
        };
        // What is left of the budget: the answer still arrives within budget + margin (and
        // before the deadline), and reports the time the engine had.
        limits.time = limits.time.min(window.left(now));

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
        let due = window.due.saturating_duration_since(Instant::now());
        match tokio::time::timeout(due, handle).await {
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

    fn empty(m: u64, n: u64, k: u64) -> Position {
        Position::empty(&Rules::mnk(m, n, k).unwrap())
    }

    #[test]
    fn cheap_searches_run_inline_and_the_rest_in_the_pool() {
        use EngineKind::*;
        let hands = [Hand::new(1, 1, 1), Hand::new(1, 1, 1)];
        let pieces = |m, n, k| Position::empty(&Rules::new(m, n, k, true, hands).unwrap());
        // (engine, position, lane)
        let table = [
            (Perfect, empty(3, 3, 3), Lane::Inline), // the whole tree is tiny
            (Auto, empty(3, 3, 3), Lane::Inline),
            (Minimax, empty(3, 3, 3), Lane::Inline),
            (Mcts, empty(3, 3, 3), Lane::Pool), // mcts spends its budget
            (Perfect, empty(4, 4, 4), Lane::Pool),
            (Perfect, pieces(3, 3, 3), Lane::Pool),
            (Threat, empty(15, 15, 5), Lane::Inline), // one ply
            (Priority, empty(15, 15, 5), Lane::Inline),
            (Greedy, empty(15, 15, 5), Lane::Inline),
            (Threat, empty(32, 32, 5), Lane::Inline),
            (Threat, empty(64, 64, 5), Lane::Pool), // 4096 cells
            (Greedy, pieces(15, 15, 5), Lane::Inline), // 225 cells x every piece
            (Greedy, pieces(20, 20, 5), Lane::Pool),
            (Minimax, empty(15, 15, 5), Lane::Pool),
            (Auto, empty(15, 15, 5), Lane::Pool),
        ];
        for (kind, position, want) in table {
            let (m, n) = (position.m(), position.n());
            assert_eq!(lane(kind, &position), want, "{} on {m}x{n}", kind.name());
        }
    }

    #[test]
    fn the_floor_is_a_fifth_of_the_budget_and_at_least_20_ms_or_half() {
        let floor = Floor::default();
        let ms = Duration::from_millis;
        // (budget, floor)
        for (budget, want) in [
            (1000, 200),
            (300, 60),
            (100, 20),
            (40, 20),
            (30, 15),
            (2, 1),
        ] {
            assert_eq!(floor.of(ms(budget)), ms(want), "budget {budget} ms");
        }
    }

    #[test]
    fn a_deadline_caps_the_window() {
        let ms = Duration::from_millis;
        let start = Instant::now();
        let no_deadline = RequestClock {
            start,
            deadline: None,
        };
        let w = Window::new(no_deadline, ms(800), ms(100));
        assert_eq!((w.end - start, w.due - start), (ms(800), ms(900)));
        // The deadline is earlier: the engine stops a margin before it.
        let clock = RequestClock {
            start,
            deadline: Some(start + ms(500)),
        };
        let w = Window::new(clock, ms(800), ms(100));
        assert_eq!((w.end - start, w.due - start), (ms(400), ms(500)));
        // A short deadline keeps four fifths for the search.
        let clock = RequestClock {
            start,
            deadline: Some(start + ms(50)),
        };
        let w = Window::new(clock, ms(800), ms(100));
        assert_eq!((w.end - start, w.due - start), (ms(40), ms(50)));
        // A later deadline changes nothing.
        let clock = RequestClock {
            start,
            deadline: Some(start + ms(5000)),
        };
        let w = Window::new(clock, ms(800), ms(100));
        assert_eq!((w.end - start, w.due - start), (ms(800), ms(900)));
    }
}
