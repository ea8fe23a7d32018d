//! A configured external brain's processes, kept warm and supervised: the pool the
//! request path ([`super::brain`]) takes a process from and gives it back to.
//!
//! Algorithm: a supervisor thread per brain keeps the pool at its size. Every process is
//! spawned with a watcher on its output ([`ExternalEngine::spawn_watched`]): the moment
//! it exits (a crash, an out-of-memory kill, `kill -9`) its flag drops and the
//! supervisor wakes, throws the dead process out of the idle list and starts a
//! replacement in the background, one start-up at a time on its own thread, never
//! inside a request. A request takes only a process that is alive and started; when none is
//! idle it waits (a busy process freed, a start-up finished) until its wait's deadline.
//!
//! Crash loops back off: a brain whose start-up fails [`START_FAILURES`] times in a row
//! (it exits, hangs past `start_ms` or answers nonsense to `START`) is marked
//! unavailable with its last error; requests get [`Failure::Unavailable`] at once, and
//! the supervisor tries one start-up after the spec's `retry_ms`, then after twice that,
//! and so on up to [`MAX_RETRY_FACTOR`] times it. A start-up that succeeds makes it
//! available again and fills the pool.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use super::manager::{ExternalEngine, Silence};
use super::protocol::start_command;
use super::spec::BrainSpec;

/// Start-up failures in a row that mark a brain unavailable.
pub const START_FAILURES: u32 = 3;
/// The longest wait between the tries of an unavailable brain, in multiples of its
/// spec's `retry_ms`.
pub const MAX_RETRY_FACTOR: u32 = 16;

/// Why a brain gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It refused the position's board or rules (`ERROR` to `START` or `INFO rule`): the
    /// request asked for something it cannot play.
    Refused(String),
    /// It crashed, hung, overran, talked nonsense, answered an illegal move, or no live
    /// process of it was to be had in time (it keeps dying at start-up, or every process
    /// was busy); a stopped process is replaced in the background.
    Unavailable(String),
}

impl Failure {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Refused(m) | Failure::Unavailable(m) => m,
        }
    }
}

/// Counts of one brain's life, for the metrics.
#[derive(Debug, Default)]
pub struct BrainCounts {
    /// Positions asked.
    pub requests: AtomicU64,
    /// Positions that got no answer ([`Failure`]).
    pub failures: AtomicU64,
    /// Processes started to replace one that was stopped or died.
    pub restarts: AtomicU64,
    /// Start-ups that failed (the process exited, hung or answered nonsense to `START`).
    pub failed_starts: AtomicU64,
}

/// What the pool says of itself (`/v1/engines`, `/healthz`, the metrics).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolStatus {
    /// Requests are served (false: marked unavailable after a crash loop).
    pub available: bool,
    /// Processes started and idle now.
    pub idle: usize,
    /// Processes asked a position now.
    pub busy: usize,
    /// Processes starting now.
    pub starting: usize,
    /// The size the pool is kept at.
    pub size: usize,
    /// Why it is unavailable, with its last start-up error and when it is tried again;
    /// `None` while available.
    pub reason: Option<String>,
}

/// One running process and what it was last told.
pub struct Process {
    /// The protocol's client of the process.
    pub engine: ExternalEngine,
    /// The board size of its last `START`.
    pub size: (usize, usize),
    /// Its last `INFO rule`.
    pub rule: Option<u32>,
    /// When it last printed a move.
    pub answered: Option<Instant>,
    /// Dropped by its watcher when its output closed.
    alive: Arc<AtomicBool>,
}

impl Process {
    /// Whether the process still runs (its output is open and it has not exited).
    pub fn is_alive(&mut self) -> bool {
        self.alive.load(Ordering::Acquire) && !self.engine.exited()
    }
}

/// The pool's processes and its health, under one lock.
struct State {
    /// Idle processes, the one idle longest first.
    idle: VecDeque<Process>,
    /// Taken by a request (or by the reaper of one that overran).
    busy: usize,
    /// Start-ups under way.
    starting: usize,
    /// Processes lost and not yet replaced: the next starts count as restarts.
    lost: u64,
    /// Start-up failures in a row.
    failures: u32,
    /// The last start-up error.
    last_error: Option<String>,
    /// While marked unavailable: when the next start-up is tried.
    retry_at: Option<Instant>,
    /// The wait before the try after next.
    backoff: Duration,
    /// The program could not be run at all (no such file, not executable).
    cannot_run: Option<String>,
    /// The brain was dropped: the supervisor stops and the processes end.
    closing: bool,
}

/// A brain's supervised pool of processes.
pub struct Pool {
    spec: BrainSpec,
    name: &'static str,
    size: usize,
    state: Mutex<State>,
    /// Woken on every change: a process freed, started, lost or dead, the brain closed.
    changed: Condvar,
    /// What happened to it so far.
    pub counts: BrainCounts,
}

impl Pool {
    /// Starts the pool of `spec` (of `size` processes) and its supervisor, and waits
    /// until every process has started or the brain is marked unavailable (it keeps
    /// dying at start-up: the pool then keeps trying in the background), at most
    /// [`START_FAILURES`] + 1 start-up times. Fails only where the program cannot be run
    /// at all.
    pub fn start(spec: BrainSpec, name: &'static str, size: usize) -> Result<Arc<Pool>, String> {
        let pool = Arc::new(Pool {
            name,
            size: size.max(1),
            state: Mutex::new(State {
                idle: VecDeque::new(),
                busy: 0,
                starting: 0,
                lost: 0,
                failures: 0,
                last_error: None,
                retry_at: None,
                backoff: spec.retry,
                cannot_run: None,
                closing: false,
            }),
            changed: Condvar::new(),
            counts: BrainCounts::default(),
            spec,
        });
        let supervised = Arc::clone(&pool);
        std::thread::Builder::new()
            .name(format!("brain-{name}"))
            .spawn(move || supervised.supervise())
            .map_err(|e| format!("external engine {name:?}: cannot start its supervisor: {e}"))?;
        let settled = Instant::now() + pool.spec.start_time * (START_FAILURES + 1);
        let mut state = pool.lock();
        loop {
            if let Some(e) = state.cannot_run.clone() {
                state.closing = true;
                drop(state);
                pool.changed.notify_all();
                return Err(format!(
                    "external engine {name:?} ({}): {e}",
                    pool.spec.program.display()
                ));
            }
            let full = state.idle.len() == pool.size;
            if full || state.retry_at.is_some() || Instant::now() >= settled {
                break;
            }
            state = pool.wait(state, Some(settled));
        }
        drop(state);
        Ok(pool)
    }

    /// The configuration.
    pub fn spec(&self) -> &BrainSpec {
        &self.spec
    }

    /// What the pool says of itself now.
    pub fn status(&self) -> PoolStatus {
        let state = self.lock();
        PoolStatus {
            available: state.retry_at.is_none(),
            idle: state.idle.len(),
            busy: state.busy,
            starting: state.starting,
            size: self.size,
            reason: state.retry_at.map(|at| self.unavailable(&state, at)),
        }
    }

    /// Why the brain is unavailable, to be tried again at `at`.
    fn unavailable(&self, state: &State, at: Instant) -> String {
        format!(
            "{} is unavailable: its start-up failed {} times in a row (last: {}); it is tried \
             again in {} s",
            self.name,
            state.failures,
            state.last_error.as_deref().unwrap_or("unknown"),
            at.saturating_duration_since(Instant::now())
                .as_secs()
                .max(1)
        )
    }

    /// A live, started process by `deadline` (or at once, the reason, when the brain is
    /// marked unavailable); processes found dead on the way are thrown out and replaced.
    pub fn take(&self, deadline: Instant) -> Result<Process, Failure> {
        let mut state = self.lock();
        loop {
            // The process idle longest: a brain that printed its move a moment ago may
            // not be listening yet (Rapfi drops a command that arrives before it has
            // cleared its thinking flag, which it does after printing the move).
            while let Some(mut process) = state.idle.pop_front() {
                if process.is_alive() {
                    state.busy += 1;
                    return Ok(process);
                }
                state.lost += 1;
                self.changed.notify_all();
                drop(state);
                process.engine.kill();
                state = self.lock();
            }
            if let Some(at) = state.retry_at {
                return Err(Failure::Unavailable(self.unavailable(&state, at)));
            }
            if Instant::now() >= deadline {
                return Err(Failure::Unavailable(format!(
                    "no process of {} was free within the time the request could wait \
                     ({} busy, {} starting, of {})",
                    self.name, state.busy, state.starting, self.size
                )));
            }
            state = self.wait(state, Some(deadline));
        }
    }

    /// Puts a taken process back, healthy.
    pub fn give_back(&self, process: Process) {
        let mut state = self.lock();
        state.busy = state.busy.saturating_sub(1);
        if state.closing {
            drop(state);
            drop(process);
            return;
        }
        state.idle.push_back(process);
        drop(state);
        self.changed.notify_all();
    }

    /// Kills a taken process; the supervisor replaces it.
    pub fn kill(&self, process: Process) {
        process.engine.kill();
        let mut state = self.lock();
        state.busy = state.busy.saturating_sub(1);
        state.lost += 1;
        drop(state);
        self.changed.notify_all();
    }

    /// Stops the supervisor; idle processes are told `END` (and killed if they linger).
    pub fn close(&self) {
        self.lock().closing = true;
        self.changed.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a change, until `deadline` at the latest.
    fn wait<'a>(
        &self,
        state: MutexGuard<'a, State>,
        deadline: Option<Instant>,
    ) -> MutexGuard<'a, State> {
        match deadline {
            Some(d) => {
                let wait = d.saturating_duration_since(Instant::now());
                match self.changed.wait_timeout(state, wait) {
                    Ok((s, _)) => s,
                    Err(e) => e.into_inner().0,
                }
            }
            None => self.changed.wait(state).unwrap_or_else(|e| e.into_inner()),
        }
    }

    /// The supervisor: throws dead idle processes out, keeps the pool at its size,
    /// tries an unavailable brain again when its wait is over.
    fn supervise(self: Arc<Self>) {
        let mut state = self.lock();
        loop {
            if state.closing {
                let idle = std::mem::take(&mut state.idle);
                drop(state);
                // Dropping a process tells it `END` and kills it if it lingers.
                drop(idle);
                return;
            }
            let mut dead = Vec::new();
            let mut i = 0;
            while i < state.idle.len() {
                if state.idle[i].is_alive() {
                    i += 1;
                } else {
                    dead.extend(state.idle.remove(i));
                }
            }
            if !dead.is_empty() {
                state.lost += dead.len() as u64;
                drop(state);
                for process in dead {
                    process.engine.kill();
                }
                state = self.lock();
                continue;
            }
            let live = state.idle.len() + state.busy + state.starting;
            let mut until = None;
            match state.retry_at {
                // Unavailable: one try at a time, when its wait is over.
                Some(at) if Instant::now() < at => until = Some(at),
                Some(_) if state.starting == 0 && live < self.size => {
                    self.start_one(&mut state);
                }
                Some(_) => {}
                // One start-up at a time: two at once on a busy machine each take twice
                // as long, and the first process started is the one a request waits for.
                None if state.starting == 0 && live < self.size => self.start_one(&mut state),
                None => {}
            }
            state = self.wait(state, until);
        }
    }

    /// Starts one process on its own thread, counted in `starting` until it is done.
    fn start_one(self: &Arc<Self>, state: &mut State) {
        let pool = Arc::clone(self);
        let started = std::thread::Builder::new()
            .name(format!("brain-{}-start", self.name))
            .spawn(move || {
                let result = pool.launch();
                pool.started(result);
            });
        match started {
            Ok(_) => state.starting += 1,
            Err(e) => self.fail(state, format!("no thread for its start-up: {e}")),
        }
    }

    /// Records the end of a start-up.
    fn started(&self, result: Result<Process, Launch>) {
        let mut state = self.lock();
        state.starting = state.starting.saturating_sub(1);
        match result {
            Ok(process) => {
                state.failures = 0;
                state.last_error = None;
                state.retry_at = None;
                state.backoff = self.spec.retry;
                if state.lost > 0 {
                    state.lost -= 1;
                    self.counts.restarts.fetch_add(1, Ordering::Relaxed);
                }
                if state.closing {
                    drop(state);
                    drop(process);
                    return;
                }
                state.idle.push_back(process);
            }
            Err(Launch::CannotRun(e)) if state.failures == 0 && state.cannot_run.is_none() => {
                state.cannot_run = Some(e.clone());
                self.fail(&mut state, e);
            }
            Err(Launch::CannotRun(e) | Launch::Failed(e)) => self.fail(&mut state, e),
        }
        drop(state);
        self.changed.notify_all();
    }

    /// Counts a failed start-up; marks the brain unavailable at [`START_FAILURES`] in a
    /// row, and doubles the wait of one that stays so.
    fn fail(&self, state: &mut State, error: String) {
        self.counts.failed_starts.fetch_add(1, Ordering::Relaxed);
        state.failures += 1;
        state.last_error = Some(error);
        if state.failures >= START_FAILURES {
            state.retry_at = Some(Instant::now() + state.backoff);
            state.backoff = (state.backoff * 2).min(self.spec.retry * MAX_RETRY_FACTOR);
        }
    }

    /// Starts one process and opens a 15x15 board, within the spec's start-up time.
    fn launch(self: &Arc<Self>) -> Result<Process, Launch> {
        let alive = Arc::new(AtomicBool::new(true));
        let (flag, pool): (Arc<AtomicBool>, Weak<Pool>) =
            (Arc::clone(&alive), Arc::downgrade(self));
        let engine = ExternalEngine::spawn_watched(
            &self.spec.program,
            &self.spec.args,
            self.name,
            move || {
                flag.store(false, Ordering::Release);
                if let Some(pool) = pool.upgrade() {
                    // Taking the lock orders the flag before the supervisor's next look.
                    drop(pool.lock());
                    pool.changed.notify_all();
                }
            },
        )
        .map_err(Launch::CannotRun)?;
        let mut process = Process {
            engine,
            size: (0, 0),
            rule: None,
            answered: None,
            alive,
        };
        let deadline = Instant::now() + self.spec.start_time;
        let opened = open(&mut process, 15, 15, deadline).and_then(|()| match self.spec.memory {
            Some(bytes) => send(&mut process, &format!("INFO max_memory {bytes}")),
            None => Ok(()),
        });
        match opened {
            Ok(()) => Ok(process),
            Err(f) => {
                process.engine.kill();
                Err(Launch::Failed(f.message().to_string()))
            }
        }
    }
}

/// How a start-up failed.
enum Launch {
    /// The program could not be run at all.
    CannotRun(String),
    /// It ran, and exited, hung or answered nonsense to `START`.
    Failed(String),
}

/// `START`s `process` on a board of `m` x `n`, waiting for `OK` until `deadline`.
pub fn open(process: &mut Process, m: usize, n: usize, deadline: Instant) -> Result<(), Failure> {
    let start = start_command(m, n);
    send(process, &start)?;
    let label = process.engine.label().to_string();
    loop {
        match process.engine.next_line(deadline) {
            Ok(line) if line.eq_ignore_ascii_case("OK") => break,
            Ok(line) if line.to_ascii_uppercase().starts_with("ERROR") => {
                return Err(Failure::Refused(format!(
                    "{label} cannot play a {m}x{n} board: {line}"
                )))
            }
            Ok(line) if line.to_ascii_uppercase().starts_with("MESSAGE") => continue,
            Ok(line) if line.to_ascii_uppercase().starts_with("DEBUG") => continue,
            Ok(line) => {
                return Err(Failure::Unavailable(format!(
                    "{label} answered {:?} to {start:?}",
                    clip(&line)
                )))
            }
            Err(Silence::Timeout) => {
                return Err(Failure::Unavailable(format!(
                    "{label} did not answer {start:?} in time (hung at start-up)"
                )))
            }
            Err(Silence::Exited) => {
                return Err(Failure::Unavailable(format!(
                    "{label} exited before answering {start:?}"
                )))
            }
        }
    }
    process.size = (m, n);
    process.rule = None;
    Ok(())
}

/// Sends `text` to `process` at once.
pub fn send(process: &mut Process, text: &str) -> Result<(), Failure> {
    process.engine.send_now(text).map_err(Failure::Unavailable)
}

/// The first 80 characters of a line, for a message.
pub fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program that cannot be run fails the start; one that dies at every start-up is
    /// marked unavailable after [`START_FAILURES`] tries, says why, and is tried again.
    #[test]
    fn a_brain_that_dies_at_start_up_is_marked_unavailable_and_tried_again() {
        let missing = BrainSpec::parse("m=/nonexistent/brain").unwrap();
        let err = Pool::start(missing, "m", 1).err().expect("cannot run");
        assert!(err.contains("cannot start"), "{err}");

        let dies = BrainSpec::parse("d=/bin/sh -c exit;retry_ms=200").unwrap();
        let pool = Pool::start(dies, "d", 2).expect("runs");
        let status = pool.status();
        assert!(!status.available, "{status:?}");
        let reason = status.reason.expect("a reason");
        // Which the start-up meets first, the closed pipe or the exit, is the machine's
        // timing: either says the process died at start-up.
        assert!(
            reason.contains("exited before answering") || reason.contains("cannot write"),
            "{reason}"
        );
        let taken = pool.take(Instant::now() + Duration::from_secs(1));
        assert!(matches!(taken, Err(Failure::Unavailable(_))));
        let before = pool.counts.failed_starts.load(Ordering::Relaxed);
        assert!(before >= u64::from(START_FAILURES), "{before}");
        std::thread::sleep(Duration::from_millis(600));
        assert!(pool.counts.failed_starts.load(Ordering::Relaxed) > before);
        pool.close();
    }
}
