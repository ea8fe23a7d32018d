//! Running engine searches without ever blocking an HTTP worker for long, and without
//! piling up. Every search request is put in one of two lanes by its cost ([`lane`]):
//!
//! - **inline**: searches that cost microseconds run at once on the HTTP worker, outside
//!   the slots and the queue, so they are never shed for want of a slot: every engine but
//!   `mcts` on a position with at most [`INLINE_EMPTIES`](lanes::INLINE_EMPTIES) empty
//!   cells and no special pieces in hand (the whole game tree is tiny and the engine
//!   stops once it is searched), and the one-ply engines (`threat`, `priority`, `greedy`)
//!   on boards of at most [`CHEAP_CELLS`](lanes::CHEAP_CELLS) cells (with special pieces
//!   in hand, `greedy` tries each of them on every target: at most
//!   [`CHEAP_CELLS`](lanes::CHEAP_CELLS) / 4 cells then). The lanes are in `pool/lanes.rs`,
//!   the request's window and the admission floor in `pool/window.rs`.
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
//! within the budget plus the margin (and before the deadline, if one was given). Answers
//! are anytime: a search still running half a margin past its budget (a machine whose
//! cores are busy) is told to stop, and the request answers at once with its last
//! completed iteration (the watch's last report: `complete: false`, `stopped:
//! "deadline"`); only a search that completed nothing answers 503. Either way the
//! search itself finishes in the background and keeps its slot until then, so the
//! ceiling on running searches holds. A panic in an engine becomes a logged 500 for
//! that request only.
//!
//! Every search, in either lane, borrows a [`SearchContext`](kinrow_engine::SearchContext)
//! of its rules from a [`ContextPool`] (what `auto` and `perfect` keep between a game's
//! moves) and gives it back when done: at most [`SearchPool::contexts_kept`] idle contexts
//! of at most [`MAX_CONTEXT_BYTES`](kinrow_engine::MAX_CONTEXT_BYTES) each are
//! kept, and at most [`IDLE_CONTEXT_BYTES`] of them together.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::deadline::RequestClock;
use super::error::{ApiError, ErrorCode};
use super::metrics::Metrics;
use kinrow_engine::Budget;
use kinrow_engine::Engine;
use kinrow_engine::SearchPlan;
use kinrow_engine::Watch;
use kinrow_engine::{Analysis, Limits};
use kinrow_engine::{ContextPool, SearchContext};
use kinrow_game::Position;

mod lanes;
mod window;

pub use lanes::{lane, Lane};
pub use window::Floor;
use window::Window;

/// The most kept state the idle contexts hold together: one gravity table of `perfect`
/// (44-76 MiB) and a few of `auto`'s 6 MiB tables. Without it six idle contexts could
/// keep 6 x 92 MiB, more than a replica's whole memory limit (docs/deployment.md).
pub const IDLE_CONTEXT_BYTES: usize = 128 << 20;

/// A search that ran: the analysis, the time it waited for a slot and the limits it had.
pub struct Finished {
    /// The engine's answer.
    pub analysis: Analysis,
    /// The time the request waited for a slot.
    pub queued: Duration,
    /// The limits the engine ran with (the budget less the wait).
    pub limits: Limits,
    /// Why the answer came before the engine returned: `Some("deadline")` for an
    /// anytime answer (the last completed iteration), `None` when the engine returned.
    pub stopped: Option<&'static str>,
}

/// How a job on the blocking pool ended, as far as the request is concerned.
enum Ran<T> {
    /// It returned (or panicked, the message) in time.
    Done(Result<T, String>),
    /// It was still running when the answer was due.
    Late,
}

/// The bounded pool of search slots shared by every HTTP worker.
pub struct SearchPool {
    slots: Arc<Semaphore>,
    admitted: Arc<AtomicUsize>,
    capacity: usize,
    margin: Duration,
    floor: Floor,
    metrics: Metrics,
    contexts: Arc<ContextPool>,
}

/// Counts a request as admitted (running or waiting) until dropped.
struct Admission(Arc<AtomicUsize>);

impl Drop for Admission {
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

/// Counts a request as `gone` in `kinrow_searches_total` when dropped before
/// [`Gone::disarm`]: its future was dropped (the client hung up, which ends the
/// connection and the handler at once) while it waited for a slot or its search ran.
struct Gone {
    metrics: Metrics,
    name: &'static str,
    what: &'static str,
    armed: bool,
}

impl Gone {
    fn arm(metrics: &Metrics, name: &'static str, what: &'static str) -> Gone {
        Gone {
            metrics: metrics.clone(),
            name,
            what,
            armed: true,
        }
    }

    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for Gone {
    fn drop(&mut self) {
        if self.armed {
            count(&self.metrics, self.name, "gone");
            log::debug!(
                "the client of a {} search went away {}; freed",
                self.name,
                self.what
            );
        }
    }
}

/// Stops the watched search when dropped: a request whose client went away (its
/// future dropped) stops its search at the engine's next budget check.
pub struct StopOnDrop(pub Arc<Watch>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
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

fn count(metrics: &Metrics, name: &str, result: &str) {
    metrics.searches.with_label_values(&[name, result]).inc()
}

/// A search's answer and whether its engine [failed](Engine::failed) to give one.
type Answered = (Analysis, bool);

/// Runs the engine `build` makes on `position`: its answer, and whether it failed.
fn answer<F>(
    build: F,
    position: &Position,
    limits: &Limits,
    budget: &mut Budget,
    ctx: &mut SearchContext,
    rng: &mut StdRng,
) -> Answered
where
    F: FnOnce() -> Box<dyn Engine>,
{
    let engine = build();
    let analysis = engine.analyze_in(position, limits, budget, ctx, rng);
    (analysis, engine.failed())
}

/// Counts a search that returned (or panicked) and turns a panic into a 500. A search
/// whose engine failed (an external brain: its analysis is a void stand-in) is not
/// counted here: the caller answers it with the failure and counts that
/// (`engine_unavailable`, `refused`), never as `ok`.
fn finish(
    metrics: &Metrics,
    name: &str,
    result: Result<Answered, String>,
) -> Result<Analysis, ApiError> {
    match result {
        Ok((analysis, true)) => Ok(analysis),
        Ok((analysis, false)) => {
            let m = metrics.search(name);
            m.ok.inc();
            m.nodes.inc_by(analysis.stats.nodes);
            m.seconds.observe(analysis.stats.elapsed.as_secs_f64());
            Ok(analysis)
        }
        Err(panic) => {
            count(metrics, name, "panic");
            log::error!("engine {name} panicked: {panic}");
            Err(ApiError::new(
                ErrorCode::Internal,
                format!("the {name} engine failed on this position (a bug, logged)"),
            ))
        }
    }
}

impl SearchPool {
    /// `concurrent` slots, a queue of `queue` waiting searches, and `margin` past a
    /// budget before the answer falls due.
    pub fn new(concurrent: usize, queue: usize, margin: Duration, metrics: Metrics) -> SearchPool {
        SearchPool {
            slots: Arc::new(Semaphore::new(concurrent.max(1))),
            admitted: Arc::new(AtomicUsize::new(0)),
            capacity: concurrent.max(1) + queue,
            margin,
            floor: Floor::default(),
            metrics,
            contexts: Arc::new(
                ContextPool::new(Self::contexts_kept(concurrent))
                    .with_max_bytes(IDLE_CONTEXT_BYTES),
            ),
        }
    }

    /// The same pool with admission floor `floor`.
    pub fn with_floor(mut self, floor: Floor) -> SearchPool {
        self.floor = floor;
        self
    }

    /// The idle search contexts kept for `concurrent` search slots: one per slot and a
    /// few for the searches that run on the HTTP workers (together at most
    /// [`IDLE_CONTEXT_BYTES`]).
    pub fn contexts_kept(concurrent: usize) -> usize {
        concurrent.max(1) + 4
    }

    /// Leaves up to `count` idle contexts for `position`'s rules holding the table
    /// `perfect` keeps for its gravity board (as many as [`IDLE_CONTEXT_BYTES`] holds),
    /// so that the first searches of that board do not pay for making it
    /// ([`kinrow_engine::gravity::prepare`]).
    pub fn prepare_gravity(&self, position: &Position, count: usize) {
        let mut held = Vec::new();
        let mut bytes = 0;
        while held.len() < count {
            let mut ctx = self.contexts.take(position);
            kinrow_engine::gravity::prepare(position, &mut ctx);
            bytes += ctx.bytes();
            if bytes > IDLE_CONTEXT_BYTES || ctx.bytes() == 0 {
                break;
            }
            held.push(ctx);
        }
    }

    /// Runs the engine of `plan` (at full strength) on `position` within its limits
    /// (whose `time` is the whole request's budget, queueing included) with the RNG
    /// seeded by its seed, in its [`lane`].
    pub async fn run(&self, plan: &SearchPlan, position: Position) -> Result<Finished, ApiError> {
        let watch = Arc::new(plan.watch().anytime());
        self.run_watched(plan, position, watch).await
    }

    /// [`SearchPool::run`] with `watch` on the search (its lines, its stop flag).
    pub async fn run_watched(
        &self,
        plan: &SearchPlan,
        position: Position,
        watch: Arc<Watch>,
    ) -> Result<Finished, ApiError> {
        // An external brain always runs in the pool: its process I/O is never cheap.
        if let Some(kind) = plan.engine.own() {
            if lane(kind, &position) == Lane::Inline {
                return self.run_inline(plan, &position, watch);
            }
        }
        self.admit(plan.name(), plan.limits.clone())
            .await?
            .search(plan.builder(), position, plan.seed, watch)
            .await
    }

    /// Runs a tiny search (see [`lane`]) right here, with the same panic
    /// boundary and metrics as a pooled one.
    fn run_inline(
        &self,
        plan: &SearchPlan,
        position: &Position,
        watch: Arc<Watch>,
    ) -> Result<Finished, ApiError> {
        let mut limits = plan.limits.clone();
        let name = plan.name();
        let build = plan.builder();
        let now = Instant::now();
        let window = Window::new(RequestClock::current(), limits.time, self.margin);
        if window.end <= now {
            count(&self.metrics, name, "starved");
            return Err(overloaded(
                "the request's time budget or deadline had passed before its search could start",
            ));
        }
        limits.time = limits.time.min(window.left(now));
        let mut rng = plan.rng();
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut ctx = self.contexts.take(position);
            let mut budget = Budget::new(&limits).watched(watch);
            answer(build, position, &limits, &mut budget, &mut ctx, &mut rng)
        }))
        .map_err(|payload| panic_message(&*payload));
        finish(&self.metrics, name, result).map(|analysis| Finished {
            analysis,
            queued: Duration::ZERO,
            limits,
            stopped: None,
        })
    }

    /// Runs the engine that `build` makes (on the blocking pool, like the search),
    /// labelled `name` in the metrics and logs. [`SearchPool::run`] for any engine.
    pub async fn run_engine<F>(
        &self,
        name: &'static str,
        build: F,
        position: Position,
        limits: Limits,
        seed: u64,
    ) -> Result<Finished, ApiError>
    where
        F: FnOnce() -> Box<dyn Engine> + Send + 'static,
    {
        let watch = Arc::new(Watch::new(1).anytime());
        self.admit(name, limits)
            .await?
            .search(build, position, seed, watch)
            .await
    }

    /// Admits a search of engine `name` within `limits` (whose `time` is the whole
    /// request's budget): a place among the admitted, then a slot, waited for while at
    /// least the floor of the budget would be left; 503 otherwise. The [`Slot`] holds
    /// both until its search ends (or it is dropped).
    pub async fn admit(&self, name: &'static str, mut limits: Limits) -> Result<Slot, ApiError> {
        let arrived = Instant::now();
        let count = |result: &str| count(&self.metrics, name, result);
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
        let admission = Admission(Arc::clone(&self.admitted));

        let permit = {
            self.metrics.queued.inc();
            let _queued = GaugeGuard(self.metrics.queued.clone());
            let wait = admit_by.saturating_duration_since(arrived);
            let gone = Gone::arm(&self.metrics, name, "while it waited for a slot");
            let permit = tokio::time::timeout(wait, Arc::clone(&self.slots).acquire_owned()).await;
            gone.disarm();
            permit
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
        Ok(Slot {
            permit,
            _admission: admission,
            name,
            queued,
            window,
            limits,
            margin: self.margin,
            metrics: self.metrics.clone(),
            contexts: Arc::clone(&self.contexts),
        })
    }
}

/// An admitted search: its slot (held until the engine returns), the time it waited,
/// and the limits it has left. It owns all it needs, so a streamed answer can carry it.
pub struct Slot {
    permit: OwnedSemaphorePermit,
    _admission: Admission,
    name: &'static str,
    queued: Duration,
    window: Window,
    limits: Limits,
    margin: Duration,
    metrics: Metrics,
    contexts: Arc<ContextPool>,
}

impl Slot {
    /// The limits the search has: the request's, its time cut to what waiting left.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The time the request waited for the slot.
    pub fn queued(&self) -> Duration {
        self.queued
    }

    /// The metrics of the pool.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Runs the engine `build` makes on `position` with the RNG seeded by `seed` and
    /// `watch` on its budget. When this future is dropped (the client went away), the
    /// watch says stop: the engine returns at its next budget check. When the engine
    /// is late, the answer is its last completed iteration (the watch's last report;
    /// the watch must be [`Watch::anytime`] or observed), or 503 without one.
    pub async fn search<F>(
        self,
        build: F,
        position: Position,
        seed: u64,
        watch: Arc<Watch>,
    ) -> Result<Finished, ApiError>
    where
        F: FnOnce() -> Box<dyn Engine> + Send + 'static,
    {
        let _stop = StopOnDrop(Arc::clone(&watch));
        let (name, queued, metrics) = (self.name, self.queued, self.metrics.clone());
        let (limits, margin) = (self.limits.clone(), self.margin);
        let job_watch = Arc::clone(&watch);
        let late_position = position.clone();
        // Late halfway between the engine's end and the answer's due time: the other half
        // is left for the anytime answer.
        let w = &self.window;
        let late = w.end + w.due.saturating_duration_since(w.end) / 2;
        let started = Instant::now();
        let ran = self
            .run_or_late(late, move |contexts, limits| {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut ctx = contexts.take(&position);
                let mut budget = Budget::new(limits).watched(job_watch);
                answer(build, &position, limits, &mut budget, &mut ctx, &mut rng)
            })
            .await?;
        let result = match ran {
            Ran::Done(result) => result,
            Ran::Late => {
                watch.stop();
                // The slowest searches count in the duration histogram too: for the
                // time they searched until the answer went (issue 54 item 5).
                let searched = started.elapsed().as_secs_f64();
                metrics.search(name).seconds.observe(searched);
                let Some(analysis) = watch.last().and_then(|p| p.analysis(&late_position)) else {
                    return Err(budget_exhausted(&metrics, name, &limits, margin));
                };
                count(&metrics, name, "deadline");
                log::info!(
                    "engine {name} was still searching past its budget of {} ms; answered \
                     with its last completed iteration (depth {})",
                    limits.time.as_millis(),
                    analysis.stats.depth
                );
                return Ok(Finished {
                    analysis,
                    queued,
                    limits,
                    stopped: Some("deadline"),
                });
            }
        };
        finish(&metrics, name, result).map(|analysis| Finished {
            analysis,
            queued,
            limits,
            stopped: None,
        })
    }

    /// Runs `job` (given the context pool and the limits) on the blocking pool, holding
    /// the slot until it returns; its panic comes back as `Err(message)`. The answer is
    /// due within the budget plus the margin: past that, 503 (the job still keeps its
    /// slot until it returns, so the number of running searches stays bounded).
    pub async fn run<T, J>(self, job: J) -> Result<Result<T, String>, ApiError>
    where
        T: Send + 'static,
        J: FnOnce(&Arc<ContextPool>, &Limits) -> T + Send + 'static,
    {
        let (name, limits, margin, metrics) = (
            self.name,
            self.limits.clone(),
            self.margin,
            self.metrics.clone(),
        );
        let due = self.window.due;
        match self.run_or_late(due, job).await? {
            Ran::Done(result) => Ok(result),
            Ran::Late => Err(budget_exhausted(&metrics, name, &limits, margin)),
        }
    }

    /// [`Slot::run`], saying [`Ran::Late`] instead of 503 when the job is still running
    /// at `late`.
    async fn run_or_late<T, J>(self, late: Instant, job: J) -> Result<Ran<T>, ApiError>
    where
        T: Send + 'static,
        J: FnOnce(&Arc<ContextPool>, &Limits) -> T + Send + 'static,
    {
        let Slot {
            permit,
            _admission,
            name,
            limits,
            metrics,
            contexts,
            ..
        } = self;
        metrics.in_flight.inc();
        let gauge = metrics.in_flight.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _in_flight = GaugeGuard(gauge);
            catch_unwind(AssertUnwindSafe(|| job(&contexts, &limits)))
                .map_err(|payload| panic_message(&*payload))
        });
        let due = late.saturating_duration_since(Instant::now());
        let gone = Gone::arm(&metrics, name, "while its search ran");
        let ran = tokio::time::timeout(due, handle).await;
        gone.disarm();
        match ran {
            Ok(Ok(result)) => Ok(Ran::Done(result)),
            Ok(Err(join_error)) => {
                count(&metrics, name, "panic");
                log::error!("search task of engine {name} failed: {join_error}");
                Err(ApiError::new(
                    ErrorCode::Internal,
                    "the search task failed (a bug, logged)",
                ))
            }
            Err(_) => Ok(Ran::Late),
        }
    }
}

/// The 503 of a search that was late and had no completed iteration to answer with.
fn budget_exhausted(metrics: &Metrics, name: &str, limits: &Limits, margin: Duration) -> ApiError {
    count(metrics, name, "budget_exhausted");
    log::warn!(
        "engine {name} overran its budget of {} ms (margin {} ms) with no completed iteration",
        limits.time.as_millis(),
        margin.as_millis()
    );
    overloaded("the search did not finish within its time budget; retry later")
}

#[cfg(test)]
mod tests;
