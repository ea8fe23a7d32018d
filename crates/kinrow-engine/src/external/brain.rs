//! An external brain served as an engine: a pool of long-lived Gomocup processes of one
//! command, each asked one position at a time.
//!
//! Algorithm: a request takes an idle process of the pool (or starts one while the pool
//! is below its size, or waits for one), tells it the board size (`START n`, only when it
//! changed), the turn's time, the rules and the limits it takes, then the whole position
//! as `BOARD` .. `DONE` in one write, and reads its lines until a move. `MESSAGE` lines
//! along the way ([`Thinking`]) become the search's progress (depth, evaluation, best
//! line), reported as the built-in engines report theirs. The move must be a legal mark
//! of the position.
//!
//! Failures never leave a broken process in the pool: a process that exits, prints a
//! line that is neither a move nor a known message, answers an illegal move or `ERROR`
//! to a position is killed, and the next request starts a fresh one (counted as a
//! restart). A process still thinking at the budget plus the grace is given to a reaper
//! thread: it sends `YXSTOP` (Yixin's and Rapfi's "answer now"), takes the process back
//! if it answers within [`STOP_WAIT`], kills it otherwise. A process that does not answer
//! `START` within its start-up time is killed as hung. The request itself gets the error
//! ([`Failure`]) at once; the caller answers it (the server: 503 `engine_unavailable`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use kinrow_game::{Cell, Move, Player, Position};

use super::protocol::{
    parse_move, rule_mask, start_command, Eval, ExternalEngine, Silence, Thinking,
};
use crate::core::budget::Budget;
use crate::core::progress::Line;
use crate::core::types::{Analysis, Evaluation, MoveEval, Outcome, Scale, SearchStats};

/// How long an overrunning process has after `YXSTOP` to answer before it is killed.
pub const STOP_WAIT: Duration = Duration::from_millis(1000);
/// The match clock a brain is told of: long enough that only the turn's time binds.
const MATCH_MS: u64 = 100_000_000;

/// One external brain as configured: `NAME=COMMAND[;key=value]*`.
#[derive(Clone, Debug, PartialEq)]
pub struct BrainSpec {
    /// Its name in the API.
    pub name: String,
    /// The executable.
    pub program: PathBuf,
    /// Its arguments (the command's words after the first).
    pub args: Vec<String>,
    /// Processes kept running (`pool=N`, 1 to 64; by default the caller's, the
    /// server's search slots).
    pub pool: Option<usize>,
    /// `INFO max_memory`, in bytes (`memory_mb=N`; not sent when omitted).
    pub memory: Option<u64>,
    /// The value scale: the brain's eval `e` maps to the value `tanh(e / (2 * unit))`,
    /// that is `2σ(e / unit) - 1` (`unit=N`; default 200).
    pub unit: f64,
    /// It takes `INFO max_node` (`nodes=yes`): the API's `nodes` is honoured.
    pub takes_nodes: bool,
    /// It takes `INFO max_depth` (`depth=yes`): the API's `depth` is honoured.
    pub takes_depth: bool,
    /// How long it has to answer `START` (`start_ms=N`; default 10000).
    pub start_time: Duration,
}

impl BrainSpec {
    /// Parses `NAME=COMMAND[;key=value]*`; the command is split at whitespace.
    pub fn parse(text: &str) -> Result<BrainSpec, String> {
        let (name, rest) = text
            .split_once('=')
            .ok_or_else(|| format!("external engine {text:?} is not NAME=COMMAND"))?;
        let name = name.trim().to_ascii_lowercase();
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
        if name.is_empty() || !name.chars().all(valid) {
            return Err(format!(
                "external engine {text:?}: the name must be letters, digits, '-', '_' or '.'"
            ));
        }
        let mut parts = rest.split(';');
        let mut words = parts.next().unwrap_or_default().split_whitespace();
        let Some(program) = words.next() else {
            return Err(format!("external engine {name:?} has no command"));
        };
        let mut spec = BrainSpec {
            program: PathBuf::from(program),
            args: words.map(str::to_string).collect(),
            name,
            pool: None,
            memory: None,
            unit: 200.0,
            takes_nodes: false,
            takes_depth: false,
            start_time: Duration::from_millis(10_000),
        };
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || {
                format!(
                    "external engine {:?}: {part:?} is not one of pool=N, memory_mb=N, unit=N, \
                     nodes=yes|no, depth=yes|no, start_ms=N",
                    spec.name
                )
            };
            let (key, value) = part.split_once('=').ok_or_else(bad)?;
            let number = || value.trim().parse::<u64>().map_err(|_| bad());
            let yes = || match value.trim() {
                "yes" | "true" | "1" => Ok(true),
                "no" | "false" | "0" => Ok(false),
                _ => Err(bad()),
            };
            match key.trim() {
                "pool" => spec.pool = Some(number()?.clamp(1, 64) as usize),
                "memory_mb" => spec.memory = Some(number()? * 1024 * 1024),
                "unit" => {
                    spec.unit = value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|u| *u > 0.0 && u.is_finite())
                        .ok_or_else(bad)?
                }
                "nodes" => spec.takes_nodes = yes()?,
                "depth" => spec.takes_depth = yes()?,
                "start_ms" => spec.start_time = Duration::from_millis(number()?.max(1)),
                _ => return Err(bad()),
            }
        }
        Ok(spec)
    }

    /// The brain's value of its eval `e` for the side to move: `2σ(e / unit) - 1`, kept
    /// inside (-1, 1) (only a proof is worth exactly 1).
    pub fn value(&self, eval: f64) -> f64 {
        let v = (eval / (2.0 * self.unit)).tanh();
        v.clamp(-0.999, 0.999)
    }
}

/// Why a brain gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It refused the position's board or rules (`ERROR` to `START` or `INFO rule`): the
    /// request asked for something it cannot play.
    Refused(String),
    /// It crashed, hung, overran, talked nonsense or answered an illegal move; the
    /// process was stopped and will be replaced.
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
    /// Processes started to replace one that was stopped.
    pub restarts: AtomicU64,
}

/// One running process and what it was last told.
struct Process {
    engine: ExternalEngine,
    /// The board size of its last `START`.
    size: (usize, usize),
    /// Its last `INFO rule`.
    rule: Option<u32>,
}

/// The pool's processes: those idle, and how many exist (idle or busy).
struct Slots {
    idle: Vec<Process>,
    live: usize,
    /// A process was stopped: the next one started is a restart.
    lost: u64,
}

/// A configured brain: its spec and its pool of processes.
pub struct ExternalBrain {
    spec: BrainSpec,
    name: &'static str,
    /// Processes kept running.
    size: usize,
    /// The time it may take past a turn's budget before it is stopped.
    grace: Duration,
    slots: Mutex<Slots>,
    freed: Condvar,
    /// What happened to it so far.
    pub counts: BrainCounts,
}

impl std::fmt::Debug for ExternalBrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalBrain")
            .field("name", &self.name)
            .field("command", &self.spec.program)
            .finish()
    }
}

impl ExternalBrain {
    /// Starts the pool of `spec` (of `slots` processes unless the spec says): every
    /// process must answer `START 15` within the spec's start-up time, or none is kept
    /// and the error says why. `grace` is the time a turn may run past its budget before
    /// the process is stopped.
    pub fn start(
        spec: BrainSpec,
        grace: Duration,
        slots: usize,
    ) -> Result<Arc<ExternalBrain>, String> {
        // One name per brain for the whole process: the API labels are `&'static str`.
        let name: &'static str = Box::leak(spec.name.clone().into_boxed_str());
        let size = spec.pool.unwrap_or(slots).max(1);
        let brain = ExternalBrain {
            name,
            size,
            grace,
            slots: Mutex::new(Slots {
                idle: Vec::new(),
                live: 0,
                lost: 0,
            }),
            freed: Condvar::new(),
            counts: BrainCounts::default(),
            spec,
        };
        let mut started = Vec::new();
        for _ in 0..brain.size {
            let deadline = Instant::now() + brain.spec.start_time;
            started.push(brain.launch(15, 15, deadline).map_err(|f| {
                format!(
                    "external engine {:?} ({}): {}",
                    brain.name,
                    brain.spec.program.display(),
                    f.message()
                )
            })?);
        }
        {
            let mut slots = brain.slots.lock().expect("brain slots");
            slots.live = started.len();
            slots.idle = started;
        }
        Ok(Arc::new(brain))
    }

    /// Its name in the API.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its configuration.
    pub fn spec(&self) -> &BrainSpec {
        &self.spec
    }

    /// Why `position` is not a game the Gomocup protocol can put to the brain, with the
    /// request field at fault; `None` when it is.
    pub fn cannot_play(position: &Position) -> Option<(&'static str, String)> {
        let rules = position.rules();
        if rules.k() != 5 {
            return Some((
                "rules.k",
                format!("external engines play five in a row; k is {}", rules.k()),
            ));
        }
        if rules.has_special_pieces() {
            return Some((
                "rules.pieces",
                "external engines play marks only: no block, remove or bomb".into(),
            ));
        }
        if rules.gravity() {
            return Some((
                "rules.gravity",
                "external engines do not play with gravity".into(),
            ));
        }
        if rules.opening() != kinrow_game::Opening::Free {
            return Some((
                "rules.opening",
                format!(
                    "external engines are asked positions of the free opening; the opening is {:?}",
                    rules.opening()
                ),
            ));
        }
        if position.cells().contains(&Cell::Block) {
            return Some(("board", "external engines cannot read blocks (#)".into()));
        }
        if rules.m() < 5 && rules.n() < 5 {
            return Some(("rules.m", "no five fits on the board".into()));
        }
        None
    }

    /// Starts one process and opens a board of `m` x `n`, by `deadline`.
    fn launch(&self, m: usize, n: usize, deadline: Instant) -> Result<Process, Failure> {
        let engine = ExternalEngine::spawn(&self.spec.program, &self.spec.args, self.name)
            .map_err(Failure::Unavailable)?;
        let mut process = Process {
            engine,
            size: (0, 0),
            rule: None,
        };
        open(&mut process, m, n, deadline)?;
        if let Some(bytes) = self.spec.memory {
            send(&mut process, &format!("INFO max_memory {bytes}"))?;
        }
        Ok(process)
    }

    /// A process for a board of `m` x `n` by `deadline`: an idle one, else a new one
    /// while the pool is below its size, else the first freed.
    fn take(&self, m: usize, n: usize, deadline: Instant) -> Result<Process, Failure> {
        let mut slots = self.slots.lock().expect("brain slots");
        loop {
            if let Some(p) = slots.idle.pop() {
                return Ok(p);
            }
            if slots.live < self.size {
                slots.live += 1;
                let restart = slots.lost > 0;
                slots.lost = slots.lost.saturating_sub(1);
                drop(slots);
                if restart {
                    self.counts.restarts.fetch_add(1, Ordering::Relaxed);
                }
                return self.launch(m, n, deadline).inspect_err(|_| self.lose());
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            if wait.is_zero() {
                return Err(Failure::Unavailable(format!(
                    "every process of {} was busy until the request's time ran out",
                    self.name
                )));
            }
            slots = self.freed.wait_timeout(slots, wait).expect("brain slots").0;
        }
    }

    /// Puts a healthy process back.
    fn give_back(&self, process: Process) {
        self.slots.lock().expect("brain slots").idle.push(process);
        self.freed.notify_one();
    }

    /// Counts a process gone (killed, or never started): its place is free for a new one.
    fn lose(&self) {
        let mut slots = self.slots.lock().expect("brain slots");
        slots.live = slots.live.saturating_sub(1);
        slots.lost += 1;
        drop(slots);
        self.freed.notify_one();
    }

    /// Kills `process` and frees its place.
    fn kill(&self, process: Process) {
        process.engine.kill();
        self.lose();
    }

    /// The brain's move in `position` within `budget` (its time, its stop flag; its
    /// progress goes to the budget's watch), with `nodes` and `depth` passed on where
    /// the brain takes them and `threads` as `INFO thread_num`.
    pub fn think(
        self: &Arc<Self>,
        position: &Position,
        budget: &Budget,
        nodes: Option<u64>,
        depth: Option<u32>,
        threads: usize,
    ) -> Result<Analysis, Failure> {
        self.counts.requests.fetch_add(1, Ordering::Relaxed);
        let result = self.think_once(position, budget, nodes, depth, threads);
        if result.is_err() {
            self.counts.failures.fetch_add(1, Ordering::Relaxed);
        }
        result
    }

    fn think_once(
        self: &Arc<Self>,
        position: &Position,
        budget: &Budget,
        nodes: Option<u64>,
        depth: Option<u32>,
        threads: usize,
    ) -> Result<Analysis, Failure> {
        let started = Instant::now();
        let time = budget.remaining();
        let give_up = started + time + self.grace;
        let (m, n) = (position.m(), position.n());
        let mut process = self.take(m, n, started + time)?;
        // A process that died while idle is found out here: replaced once if time is left.
        let prepared = self.prepare(&mut process, position, time, nodes, depth, threads);
        let mut process = match prepared {
            Ok(()) => process,
            Err(Failure::Unavailable(_)) if Instant::now() + time / 2 < started + time => {
                self.kill(process);
                let mut fresh = self.take(m, n, started + time)?;
                if let Err(f) = self.prepare(&mut fresh, position, time, nodes, depth, threads) {
                    self.kill(fresh);
                    return Err(f);
                }
                fresh
            }
            Err(f) => {
                self.kill(process);
                return Err(f);
            }
        };
        match self.read_answer(&mut process, position, budget, give_up, started) {
            Ok(analysis) => {
                self.give_back(process);
                Ok(analysis)
            }
            Err(Answer::Late) => {
                self.reap(process);
                Err(Failure::Unavailable(format!(
                    "{} did not answer within {} ms and the grace of {} ms; it was stopped",
                    self.name,
                    time.as_millis(),
                    self.grace.as_millis()
                )))
            }
            Err(Answer::Broken(f)) => {
                self.kill(process);
                Err(f)
            }
        }
    }

    /// Tells `process` the board, the rules and the limits, then the position.
    fn prepare(
        &self,
        process: &mut Process,
        position: &Position,
        time: Duration,
        nodes: Option<u64>,
        depth: Option<u32>,
        threads: usize,
    ) -> Result<(), Failure> {
        let (m, n) = (position.m(), position.n());
        let deadline = Instant::now() + time;
        if process.size != (m, n) {
            open(process, m, n, deadline)?;
        }
        let rules = position.rules();
        let mask = rule_mask(&rules);
        let mut text = format!(
            "INFO timeout_turn {}\nINFO timeout_match {MATCH_MS}\nINFO time_left {MATCH_MS}\nINFO thread_num {}",
            time.as_millis().max(1),
            threads.max(1)
        );
        if let (true, Some(nodes)) = (self.spec.takes_nodes, nodes) {
            text.push_str(&format!("\nINFO max_node {nodes}"));
        }
        if let (true, Some(depth)) = (self.spec.takes_depth, depth) {
            text.push_str(&format!("\nINFO max_depth {depth}"));
        }
        if process.rule != Some(mask) {
            text.push_str(&format!("\nINFO rule {mask}"));
            process.rule = Some(mask);
        }
        text.push_str("\nBOARD");
        for (cell, field) in board_lines(position) {
            let c = kinrow_game::Coord::new(cell / m, cell % m);
            text.push_str(&format!("\n{},{},{field}", c.col, c.row));
        }
        text.push_str("\nDONE");
        send(process, &text)
    }

    /// Reads the answer to a position: `MESSAGE` lines reported as progress, then a move.
    fn read_answer(
        &self,
        process: &mut Process,
        position: &Position,
        budget: &Budget,
        give_up: Instant,
        started: Instant,
    ) -> Result<Analysis, Answer> {
        let (m, n) = (position.m(), position.n());
        let mut said = Thinking::default();
        loop {
            // Short waits, so that a stopped budget (the client went away) is seen.
            let wait_until = (Instant::now() + Duration::from_millis(20)).min(give_up);
            let line = match process.engine.next_line(wait_until) {
                Ok(line) => line,
                Err(Silence::Exited) => {
                    return Err(Answer::Broken(Failure::Unavailable(format!(
                        "{} exited while thinking",
                        self.name
                    ))))
                }
                Err(Silence::Timeout) if Instant::now() >= give_up || stopped(budget) => {
                    return Err(Answer::Late)
                }
                Err(Silence::Timeout) => continue,
            };
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("MESSAGE") {
                let t = Thinking::in_message(&line, m, n);
                said.depth = t.depth.or(said.depth);
                if t.eval.is_some() {
                    (said.eval, said.plies) = (t.eval, t.plies);
                }
                if !t.pv.is_empty() {
                    said.pv = t.pv;
                }
                self.report(position, budget, &said);
                continue;
            }
            if line.is_empty() || upper.starts_with("DEBUG") || upper == "OK" {
                continue;
            }
            if upper.starts_with("ERROR") {
                return Err(Answer::Broken(Failure::Refused(format!(
                    "{} refused the position: {line}",
                    self.name
                ))));
            }
            let Some((x, y)) = parse_move(&line) else {
                return Err(Answer::Broken(Failure::Unavailable(format!(
                    "{} printed {:?}, which is neither a move nor a message",
                    self.name,
                    clip(&line)
                ))));
            };
            let legal = (0..m as i64).contains(&x)
                && (0..n as i64).contains(&y)
                && position.is_legal(Move::mark(y as usize * m + x as usize));
            if !legal {
                return Err(Answer::Broken(Failure::Unavailable(format!(
                    "{} answered {x},{y}, which is not a legal move here",
                    self.name
                ))));
            }
            let best = Move::mark(y as usize * m + x as usize);
            return Ok(self.analysis(position, best, &said, started.elapsed()));
        }
    }

    /// Reports what the brain said so far as the search's progress (with a best line).
    fn report(&self, position: &Position, budget: &Budget, said: &Thinking) {
        let Some(first) = said.pv.first() else {
            return;
        };
        let m = position.m();
        let mv = Move::mark(first.row * m + first.col);
        if !position.is_legal(mv) {
            return;
        }
        // The value of the line's score through the brain's own unit, as a win rate (an
        // info event has no other way to know the unit).
        let win_rate = match said.eval {
            Some(Eval::Score(e)) => Some((1.0 + self.spec.value(e as f64)) / 2.0),
            _ => None,
        };
        let line = Line {
            mv,
            eval: evaluation(said.eval, said.plies),
            win_rate,
            pv: pv_moves(position, &said.pv),
        };
        budget.report(said.depth.unwrap_or(0), Scale::External, vec![line]);
    }

    /// The answer: the brain's move with what it said of it; every other legal move is
    /// listed unevaluated (the brain said nothing of them).
    fn analysis(
        &self,
        position: &Position,
        best: Move,
        said: &Thinking,
        elapsed: Duration,
    ) -> Analysis {
        let m = position.m();
        let pv = match said.pv.first() {
            Some(c) if c.row * m + c.col == best.cell() => pv_moves(position, &said.pv),
            _ => vec![best],
        };
        let eval = evaluation(said.eval, said.plies);
        // The brain's own depth where it printed one (1 where it valued the move
        // without saying how deep).
        let best_eval = match said.eval {
            Some(_) => MoveEval::searched(best, eval.clone(), said.depth.unwrap_or(1).max(1)),
            None => MoveEval::unsearched(best, eval.clone()),
        };
        let moves = std::iter::once(best_eval)
            .chain(
                position
                    .legal_moves()
                    .into_iter()
                    .filter(|&mv| mv != best)
                    .map(|mv| MoveEval::unsearched(mv, evaluation(None, None))),
            )
            .collect();
        Analysis {
            best,
            evaluation: eval,
            moves,
            pv,
            win_rates: Vec::new(),
            lines: Vec::new(),
            stats: SearchStats {
                nodes: 0,
                depth: said.depth.unwrap_or(0),
                elapsed,
                complete: true,
                ..SearchStats::default()
            },
        }
    }

    /// Stops an overrunning process off the request's thread: `YXSTOP`, then its answer
    /// within [`STOP_WAIT`] puts it back in the pool; no answer, it is killed.
    fn reap(self: &Arc<Self>, mut process: Process) {
        let brain = Arc::clone(self);
        std::thread::spawn(move || {
            let until = Instant::now() + STOP_WAIT;
            if process.engine.send_now("YXSTOP").is_ok() {
                while let Ok(line) = process.engine.next_line(until) {
                    if parse_move(&line).is_some() {
                        brain.give_back(process);
                        return;
                    }
                }
            }
            brain.kill(process);
        });
    }
}

/// How reading an answer ended without one.
enum Answer {
    /// Nothing by the budget plus the grace (or the caller stopped).
    Late,
    /// The process failed.
    Broken(Failure),
}

fn stopped(budget: &Budget) -> bool {
    budget.watch().is_some_and(|w| w.stopped())
}

/// `START`s `process` on a board of `m` x `n`, waiting for `OK` until `deadline`.
fn open(process: &mut Process, m: usize, n: usize, deadline: Instant) -> Result<(), Failure> {
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

fn send(process: &mut Process, text: &str) -> Result<(), Failure> {
    process.engine.send_now(text).map_err(Failure::Unavailable)
}

/// The first 80 characters of a line, for a message.
fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}

/// The position's stones as `BOARD` lines (cell, field 1 own or 2 the opponent's),
/// x's and o's alternating as far as they go, x first (the order they could have been
/// played in), so that brains that replay the list see a plausible game.
fn board_lines(position: &Position) -> Vec<(usize, u8)> {
    let me = position.to_move();
    let of = |p: Player| -> Vec<usize> {
        (0..position.cells().len())
            .filter(|&i| position.cell(i) == Cell::Mark(p))
            .collect()
    };
    let (xs, os) = (of(Player::X), of(Player::O));
    let field = |p: Player| if p == me { 1 } else { 2 };
    let mut out = Vec::with_capacity(xs.len() + os.len());
    for i in 0..xs.len().max(os.len()) {
        if let Some(&c) = xs.get(i) {
            out.push((c, field(Player::X)));
        }
        if let Some(&c) = os.get(i) {
            out.push((c, field(Player::O)));
        }
    }
    out
}

/// The moves of a best line, cut where one is not legal in turn.
fn pv_moves(position: &Position, pv: &[kinrow_game::Coord]) -> Vec<Move> {
    let m = position.m();
    let mut p = position.clone();
    let mut out = Vec::new();
    for c in pv {
        let mv = Move::mark(c.row * m + c.col);
        if p.is_over() || !p.is_legal(mv) {
            break;
        }
        p.play(mv);
        out.push(mv);
    }
    out
}

/// The evaluation of what a brain said: its score, or a proven win or loss for a mate.
fn evaluation(eval: Option<Eval>, plies: Option<u32>) -> Evaluation {
    match eval {
        Some(Eval::Score(s)) => Evaluation {
            score: s as f64,
            outcome: Outcome::Unknown,
            plies: None,
        },
        Some(Eval::Mate { win }) => Evaluation {
            score: 0.0,
            outcome: if win { Outcome::Win } else { Outcome::Loss },
            plies,
        },
        None => Evaluation {
            score: 0.0,
            outcome: Outcome::Unknown,
            plies: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_reads_its_command_and_options() {
        let s = BrainSpec::parse(
            "Rapfi=/opt/rapfi/pbrain-rapfi --x 1;pool=2;memory_mb=64;unit=300;nodes=yes",
        )
        .unwrap();
        assert_eq!(s.name, "rapfi");
        assert_eq!(s.program, PathBuf::from("/opt/rapfi/pbrain-rapfi"));
        assert_eq!(s.args, vec!["--x", "1"]);
        assert_eq!((s.pool, s.memory, s.unit), (Some(2), Some(64 << 20), 300.0));
        assert!(s.takes_nodes && !s.takes_depth);
        assert!(BrainSpec::parse("rapfi").is_err());
        assert!(BrainSpec::parse("rapfi=").is_err());
        assert!(BrainSpec::parse("a b=/bin/x").is_err());
        assert!(BrainSpec::parse("r=/bin/x;colour=blue").is_err());
    }

    #[test]
    fn the_value_scale_is_a_logistic_of_the_unit() {
        let s = BrainSpec::parse("r=/bin/x").unwrap();
        assert_eq!(s.value(0.0), 0.0);
        // 2σ(1) - 1 = tanh(1/2).
        assert!((s.value(200.0) - 0.5f64.tanh()).abs() < 1e-12);
        assert!(s.value(-1e9) >= -0.999);
    }

    #[test]
    fn board_lines_alternate_x_first_with_fields_for_the_side_to_move() {
        let rules = kinrow_game::Rules::mnk(5, 5, 5).unwrap();
        let rows = ["x.x..", ".o...", ".....", ".....", "....."];
        let p = Position::new(&rules, Some(&rows[..]), None).unwrap();
        let lines = board_lines(&p);
        // o is to move: x's stones are the opponent's (2).
        assert_eq!(lines, vec![(0, 2), (6, 1), (2, 2)]);
    }
}
