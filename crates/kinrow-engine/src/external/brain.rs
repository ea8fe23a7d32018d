//! An external brain served as an engine: the request path. A request takes a live,
//! started process of the brain's supervised pool ([`super::pool`]) and asks it one
//! position.
//!
//! Algorithm: the request takes an idle process (waiting at most three quarters of its
//! budget for one: start-ups never run inside a request), tells it the board size (`START n`, only
//! when it changed), then, in one write, the turn's time (what is left of the budget at
//! that moment), the rules and the limits it takes and the whole position as `BOARD` ..
//! `DONE`, and reads its lines until a move. `MESSAGE` lines along the way
//! ([`Thinking`]) become the search's progress (depth, evaluation, best line), reported
//! as the built-in engines report theirs. The move must be a legal mark of the position.
//!
//! A process found dead before its search began (its write fails, it does not answer
//! the board size's `START`, or it was killed from outside by `SIGKILL` before it said a
//! word: the kill raced the request) is thrown out and the request tried once more on
//! another process, within its budget. Other failures never leave a broken process in the pool:
//! a process that exits while thinking, prints a line that is neither a move nor a
//! known message, answers an illegal move or `ERROR` to a position is killed (the pool
//! replaces it in the background). A process still thinking at the turn's end plus the
//! grace is given to a reaper thread: it sends `YXSTOP` (Yixin's and Rapfi's "answer
//! now"), takes the process back if it answers within [`STOP_WAIT`], kills it otherwise.
//! The request itself gets the error ([`Failure`]) at once; the caller answers it (the
//! server: 503 `engine_unavailable`).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kinrow_game::{Cell, Move, Player, Position};

use super::manager::{Silence, PAUSE};
use super::pool::{clip, open, send, BrainCounts, Failure, Pool, PoolStatus, Process};
use super::protocol::{parse_move, rule_mask, Eval, Thinking};
use super::spec::BrainSpec;
use crate::core::budget::Budget;
use crate::core::progress::Line;
use crate::core::types::{Analysis, Evaluation, MoveEval, Outcome, Scale, SearchStats};

/// How long an overrunning process has after `YXSTOP` to answer before it is killed.
pub const STOP_WAIT: Duration = Duration::from_millis(1000);
/// How long a process whose output closed has to be seen exited, to tell a kill from
/// outside from a crash of its own.
const KILL_SEEN: Duration = Duration::from_millis(50);
/// The match clock a brain is told of: long enough that only the turn's time binds.
const MATCH_MS: u64 = 100_000_000;

/// A configured brain: its supervised pool of processes and the grace of its turns.
pub struct ExternalBrain {
    pool: Arc<Pool>,
    name: &'static str,
    /// The time it may take past a turn's end before it is stopped.
    grace: Duration,
}

impl std::fmt::Debug for ExternalBrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalBrain")
            .field("name", &self.name)
            .field("command", &self.pool.spec().program)
            .finish()
    }
}

impl Drop for ExternalBrain {
    fn drop(&mut self) {
        self.pool.close();
    }
}

impl ExternalBrain {
    /// Starts the pool of `spec` (of `slots` processes unless the spec says) and waits
    /// until it is warm, or the brain is marked unavailable because it keeps dying at
    /// start-up (the pool keeps trying in the background; [`ExternalBrain::status`]
    /// says why). Fails only where the program cannot be run at all. `grace` is the time
    /// a turn may run past its end before the process is stopped.
    pub fn start(
        spec: BrainSpec,
        grace: Duration,
        slots: usize,
    ) -> Result<Arc<ExternalBrain>, String> {
        // One name per brain for the whole process: the API labels are `&'static str`.
        let name: &'static str = Box::leak(spec.name.clone().into_boxed_str());
        let size = spec.pool.unwrap_or(slots).max(1);
        let pool = Pool::start(spec, name, size)?;
        Ok(Arc::new(ExternalBrain { pool, name, grace }))
    }

    /// Its name in the API.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its configuration.
    pub fn spec(&self) -> &BrainSpec {
        self.pool.spec()
    }

    /// Whether it is available, its processes, and why not.
    pub fn status(&self) -> PoolStatus {
        self.pool.status()
    }

    /// What happened to it so far.
    pub fn counts(&self) -> &BrainCounts {
        &self.pool.counts
    }

    /// The time a turn may run past its end before the process is stopped.
    pub fn grace(&self) -> Duration {
        self.grace
    }

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

    /// The brain's move in `position` within `budget` (its time, its stop flag; its
    /// progress goes to the budget's watch), with `nodes` and `depth` passed on where
    /// the brain takes them and `threads` as `INFO thread_num`.
    pub fn think(
        &self,
        position: &Position,
        budget: &Budget,
        nodes: Option<u64>,
        depth: Option<u32>,
        threads: usize,
    ) -> Result<Analysis, Failure> {
        self.pool.counts.requests.fetch_add(1, Ordering::Relaxed);
        let result = self.think_once(position, budget, nodes, depth, threads);
        if result.is_err() {
            self.pool.counts.failures.fetch_add(1, Ordering::Relaxed);
        }
        result
    }

    fn think_once(
        &self,
        position: &Position,
        budget: &Budget,
        nodes: Option<u64>,
        depth: Option<u32>,
        threads: usize,
    ) -> Result<Analysis, Failure> {
        let started = Instant::now();
        // A request waits for a process (a replacement still starting: Rapfi takes
        // 110-150 ms to answer `START` on a loaded machine) at most three quarters of its
        // budget: a move on a short turn is worth more than a 503.
        let wait_until = started + budget.remaining() * 3 / 4;
        let mut retried = false;
        loop {
            let mut process = self.pool.take(wait_until)?;
            let turn = match self.prepare(&mut process, position, budget, nodes, depth, threads) {
                Ok(turn) => turn,
                // Found dead before its search began: once more on another process.
                Err(Failure::Unavailable(_)) if !retried => {
                    self.pool.kill(process);
                    retried = true;
                    continue;
                }
                Err(f) => {
                    self.pool.kill(process);
                    return Err(f);
                }
            };
            let give_up = Instant::now() + turn + self.grace;
            return match self.read_answer(&mut process, position, budget, give_up, started) {
                Ok(analysis) => {
                    self.pool.give_back(process);
                    Ok(analysis)
                }
                Err(Answer::Late) => {
                    self.reap(process);
                    Err(Failure::Unavailable(format!(
                        "{} did not answer within its turn of {} ms and the grace of {} ms; \
                         it was stopped",
                        self.name,
                        turn.as_millis(),
                        self.grace.as_millis()
                    )))
                }
                // Killed from outside before it said a word: its search may never have
                // begun (the kill raced the request), so once more on another process.
                Err(Answer::Killed(_)) if !retried => {
                    self.pool.kill(process);
                    retried = true;
                    continue;
                }
                Err(Answer::Killed(f) | Answer::Broken(f)) => {
                    self.pool.kill(process);
                    Err(f)
                }
            };
        }
    }

    /// Tells `process` the board (`START` when its size changed), then, in one write,
    /// the turn's time (what is left of `budget` now), the rules and the limits, and the
    /// position; returns the turn's time.
    fn prepare(
        &self,
        process: &mut Process,
        position: &Position,
        budget: &Budget,
        nodes: Option<u64>,
        depth: Option<u32>,
        threads: usize,
    ) -> Result<Duration, Failure> {
        // A brain that printed its move a moment ago may not be listening yet: the
        // protocol client's pause after its last answer.
        if let Some(at) = process.answered {
            std::thread::sleep((at + PAUSE).saturating_duration_since(Instant::now()));
        }
        let (m, n) = (position.m(), position.n());
        if process.size != (m, n) {
            open(process, m, n, Instant::now() + budget.remaining())?;
        }
        let spec = self.pool.spec();
        let rules = position.rules();
        let mask = rule_mask(&rules);
        let time = budget.remaining();
        let mut text = format!(
            "INFO timeout_turn {}\nINFO timeout_match {MATCH_MS}\nINFO time_left {MATCH_MS}\nINFO thread_num {}",
            time.as_millis().max(1),
            threads.max(1)
        );
        if let (true, Some(nodes)) = (spec.takes_nodes, nodes) {
            text.push_str(&format!("\nINFO max_node {nodes}"));
        }
        if let (true, Some(depth)) = (spec.takes_depth, depth) {
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
        send(process, &text)?;
        Ok(time)
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
        let mut lines = 0;
        loop {
            // Short waits, so that a stopped budget (the client went away) is seen.
            let wait_until = (Instant::now() + Duration::from_millis(20)).min(give_up);
            let line = match process.engine.next_line(wait_until) {
                Ok(line) => line,
                Err(Silence::Exited) if lines == 0 && process.engine.killed(KILL_SEEN) => {
                    return Err(Answer::Killed(Failure::Unavailable(format!(
                        "{} was killed (SIGKILL) before it answered",
                        self.name
                    ))))
                }
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
            lines += 1;
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
            process.answered = Some(Instant::now());
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
            Some(Eval::Score(e)) => Some((1.0 + self.spec().value(e as f64)) / 2.0),
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
    fn reap(&self, mut process: Process) {
        let pool = Arc::clone(&self.pool);
        std::thread::spawn(move || {
            let until = Instant::now() + STOP_WAIT;
            if process.engine.send_now("YXSTOP").is_ok() {
                while let Ok(line) = process.engine.next_line(until) {
                    if parse_move(&line).is_some() {
                        process.answered = Some(Instant::now());
                        pool.give_back(process);
                        return;
                    }
                }
            }
            pool.kill(process);
        });
    }
}

/// How reading an answer ended without one.
enum Answer {
    /// Nothing by the budget plus the grace (or the caller stopped).
    Late,
    /// The process was killed from outside (`SIGKILL`) before it said a word.
    Killed(Failure),
    /// The process failed.
    Broken(Failure),
}

fn stopped(budget: &Budget) -> bool {
    budget.watch().is_some_and(|w| w.stopped())
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
    fn board_lines_alternate_x_first_with_fields_for_the_side_to_move() {
        let rules = kinrow_game::Rules::mnk(5, 5, 5).unwrap();
        let rows = ["x.x..", ".o...", ".....", ".....", "....."];
        let p = Position::new(&rules, Some(&rows[..]), None).unwrap();
        let lines = board_lines(&p);
        // o is to move: x's stones are the opponent's (2).
        assert_eq!(lines, vec![(0, 2), (6, 1), (2, 2)]);
    }
}
