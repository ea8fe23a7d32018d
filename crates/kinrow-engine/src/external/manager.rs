//! The manager's end of the Gomocup ("pbrain") protocol: any brain program, run as a
//! child process and spoken to over its stdin/stdout in the words of [`super::protocol`].
//! The lab plays whole games with it (`kinrow arena`, `judge`, `label`'s teacher); the
//! server keeps brains running and asks one position at a time ([`super::pool`],
//! [`super::brain`]).
//!
//! A game opens with `START n` (`RECTSTART m,n` on rectangles), waits for `OK`, then
//! sends `INFO timeout_turn`, `INFO timeout_match`, `INFO max_memory` and `INFO rule`.
//! Each of the engine's turns sends the whole position as `BOARD` .. `DONE` (the stones
//! in the order they were played, 1 for the engine's own, 2 for its opponent's), so the
//! engine needs no memory of earlier turns, and reads lines until one is a move `x,y`
//! (column, row); `MESSAGE`, `DEBUG` and other lines are skipped, `ERROR` ends the game.
//! Some engines drop a command that arrives while they are still printing, so every
//! command waits [`PAUSE`] first. At the end of the game the engine gets `END` and, if it
//! has not exited shortly after, is killed.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kinrow_game::{Coord, Move, Player, Position, Rules};

use super::protocol::{
    mate_plies, parse_move, parse_stones, rule_mask, start_command, stones_command, Eval, Field,
    Info,
};

/// The pause before every command sent to an external engine.
pub const PAUSE: Duration = Duration::from_millis(5);
/// Extra time an external engine gets to answer, beyond its turn's budget, before it
/// forfeits the game (process start-up, a slow first move, pipe latency).
pub const GRACE: Duration = Duration::from_millis(2000);

/// The match clock the engine is told of (`timeout_match`, `time_left`): long enough
/// that only the turn's budget binds.
const MATCH_MS: u64 = 100_000_000;

/// What a contestant answers at one step of the opening.
#[derive(Clone, Debug, PartialEq)]
pub enum StepAnswer {
    /// Stones placed (three at the first step, two at swap2's second), in turn.
    Place(Vec<Coord>),
    /// The side it plays from now on.
    Choose(Player),
    /// It keeps o and plays this move now (an external engine's answer).
    KeepO(Move),
}

/// An external engine as written on the command line: `pbrain:PATH[:key=value]*` with the
/// keys `time_ms` (its time per move) and `arg` (one command-line argument, repeatable).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalSpec {
    /// The engine's executable.
    pub program: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Its time per move (the match's when omitted).
    pub time_ms: Option<u64>,
    /// The text it was parsed from: its label in the results.
    pub label: String,
}

impl ExternalSpec {
    /// Parses a whole `pbrain:PATH[:key=value]*`.
    pub fn from_pbrain(text: &str) -> Result<ExternalSpec, String> {
        match text.strip_prefix("pbrain:") {
            Some(rest) => ExternalSpec::parse(text, rest),
            None => Err(format!("{text:?} is not pbrain:PATH")),
        }
    }

    /// Parses what follows `pbrain:` in `text`.
    pub fn parse(text: &str, rest: &str) -> Result<ExternalSpec, String> {
        let mut parts = rest.split(':');
        let program = parts.next().unwrap_or_default();
        if program.is_empty() {
            return Err(format!("{text:?}: pbrain needs a program path"));
        }
        let mut spec = ExternalSpec {
            program: PathBuf::from(program),
            args: Vec::new(),
            time_ms: None,
            label: text.trim().to_string(),
        };
        for part in parts {
            match part.split_once('=') {
                Some(("time_ms", v)) => {
                    spec.time_ms = Some(
                        v.parse()
                            .map_err(|_| format!("{text:?}: time_ms={v:?} is not a number"))?,
                    );
                }
                Some(("arg", v)) => spec.args.push(v.to_string()),
                _ => {
                    return Err(format!(
                        "{text:?}: unknown pbrain parameter {part:?} (time_ms=N, arg=TEXT)"
                    ))
                }
            }
        }
        Ok(spec)
    }
}

/// A running external engine, for one game.
pub struct ExternalEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    label: String,
}

impl ExternalEngine {
    /// Starts the program and sets up a game of `rules` with `turn` per move.
    pub fn start(spec: &ExternalSpec, rules: &Rules, turn: Duration) -> Result<Self, String> {
        let mut engine = ExternalEngine::spawn(&spec.program, &spec.args, &spec.label)?;
        let start = start_command(rules.m(), rules.n());
        engine.send(&start)?;
        let reply = engine.read_line(Instant::now() + GRACE)?;
        if !reply.eq_ignore_ascii_case("OK") {
            return Err(format!("{}: answered {reply:?} to {start:?}", engine.label));
        }
        let ms = turn.as_millis() as u64;
        engine.info(Info::TimeoutTurn(ms))?;
        engine.info(Info::TimeoutMatch(MATCH_MS))?;
        engine.info(Info::TimeLeft(MATCH_MS))?;
        engine.info(Info::MaxMemory(268_435_456))?;
        engine.info(Info::Rule(rule_mask(rules)))?;
        Ok(engine)
    }

    /// Runs `program` with `args`, its stdin and stdout piped (stderr dropped), without
    /// a word said yet; `label` names it in errors.
    pub fn spawn(program: &Path, args: &[String], label: &str) -> Result<Self, String> {
        ExternalEngine::spawn_watched(program, args, label, || {})
    }

    /// [`spawn`](Self::spawn), calling `on_exit` from its reader thread as soon as the
    /// process's output closes (it exited, crashed or was killed), whether or not
    /// anybody is reading: a pool learns of a dead process when it dies.
    pub fn spawn_watched(
        program: &Path,
        args: &[String],
        label: &str,
        on_exit: impl FnOnce() + Send + 'static,
    ) -> Result<Self, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{label}: cannot start: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Nobody listens any more: keep reading, so that the exit is still seen.
                let _ = send.send(line.trim().to_string());
            }
            drop(send);
            on_exit();
        });
        Ok(ExternalEngine {
            child,
            stdin,
            lines,
            label: label.to_string(),
        })
    }

    /// Sends `INFO key value` (say [`Info::MaxNode`], for the limits a brain may take
    /// beyond the turn's time).
    pub fn info(&mut self, info: Info) -> Result<(), String> {
        self.send(&info.to_string())
    }

    /// The name the engine goes by in errors.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Sends one command after [`PAUSE`] (for engines that drop a command arriving
    /// while they print).
    pub fn send(&mut self, command: &str) -> Result<(), String> {
        std::thread::sleep(PAUSE);
        self.send_now(command)
    }

    /// Sends `text` (one or more lines) at once, without the pause: for an engine that
    /// is idle, having answered everything it was asked.
    pub fn send_now(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.stdin, "{text}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.label))
    }

    /// The engine's next line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, String> {
        self.next_line(deadline).map_err(|e| match e {
            Silence::Timeout => format!("{}: no answer in time", self.label),
            Silence::Exited => format!("{}: exited", self.label),
        })
    }

    /// The engine's next line by `deadline`, or why there is none.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, Silence> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Silence::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Silence::Exited),
        }
    }

    /// Whether the process has exited (reaped here if it has).
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Whether the process, whose output closed, was killed by `SIGKILL` (an
    /// out-of-memory killer, an operator: nothing it did itself), waiting up to `within`
    /// for its exit. False for an exit of its own or a crash (`SIGSEGV`, `SIGABRT`).
    pub fn killed(&mut self, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return killed_by_sigkill(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
                _ => return false,
            }
        }
    }

    /// Kills the process at once (it is not asked to `END`) and reaps it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Drop then finds it exited and says nothing more.
    }

    /// The engine's move in `position`, reached by `history` (every move from the empty
    /// board), within `turn` plus [`GRACE`].
    pub fn best_move(
        &mut self,
        position: &Position,
        history: &[Move],
        turn: Duration,
    ) -> Result<Move, String> {
        self.think(position, history, turn).map(|(mv, _)| mv)
    }

    /// [`best_move`](Self::best_move), with the last evaluation the engine reported in a
    /// `MESSAGE` line on the way (see [`Eval::in_message`]).
    pub fn think(
        &mut self,
        position: &Position,
        history: &[Move],
        turn: Duration,
    ) -> Result<(Move, Option<Eval>), String> {
        self.think_counted(position, history, turn)
            .map(|(mv, said)| (mv, said.map(|(eval, _)| eval)))
    }

    /// [`think`](Self::think), with the plies of the last evaluation where it is a
    /// forced result the engine counted (15 of Rapfi's `Eval +M15`; `None` for a score
    /// or `+M*`).
    pub fn think_counted(
        &mut self,
        position: &Position,
        history: &[Move],
        turn: Duration,
    ) -> Result<(Move, Option<CountedEval>), String> {
        let (mv, messages) = self.think_messages(position, history, turn)?;
        let eval = messages
            .iter()
            .rev()
            .find_map(|line| Eval::in_message(line).map(|e| (e, mate_plies(line))));
        Ok((mv, eval))
    }

    /// The engine's move with every `MESSAGE` line it printed on the way, in order (its
    /// depths, evaluations and node counts, as [`Thinking::in_message`] reads them).
    pub fn think_messages(
        &mut self,
        position: &Position,
        history: &[Move],
        turn: Duration,
    ) -> Result<(Move, Vec<String>), String> {
        let m = position.m();
        let me = position.to_move();
        let mut who = Player::X;
        let stones = history.iter().map(|mv| {
            let field = if who == me { Field::Own } else { Field::Theirs };
            who = who.opponent();
            (mv.coord(m), field)
        });
        let board = stones_command("BOARD", stones);
        self.info(Info::TimeLeft(MATCH_MS))?;
        self.send(&board)?;
        let deadline = Instant::now() + turn + GRACE;
        let mut messages = Vec::new();
        loop {
            let line = self.read_line(deadline)?;
            if line.starts_with("MESSAGE") {
                messages.push(line);
                continue;
            }
            if let Some(mv) = parse_move(&line) {
                let (m, n) = (position.m() as i64, position.n() as i64);
                return match mv {
                    (col, row) if (0..m).contains(&col) && (0..n).contains(&row) => {
                        Ok((Move::mark((row * m + col) as usize), messages))
                    }
                    _ => Err(format!("{}: move {line:?} is off the board", self.label)),
                };
            }
            if line.starts_with("ERROR") {
                return Err(format!("{}: {line}", self.label));
            }
        }
    }
}

impl ExternalEngine {
    /// The engine's answer to `SWAP2BOARD` at `step` of `position` (its stones,
    /// `history`, sent in turn, x first, each with field 2 for x and 1 for o: o is to move at three and five
    /// stones, and the field is "own" for the side that would move), within `turn` plus
    /// [`GRACE`]. `SWAP` takes x; one move keeps o and plays it; stones are placed.
    pub fn swap2(
        &mut self,
        position: &Position,
        history: &[Move],
        step: kinrow_game::OpeningStep,
        turn: Duration,
    ) -> Result<StepAnswer, String> {
        if position.opening() != kinrow_game::Opening::Swap2 {
            return Err(format!(
                "{}: external engines take swap2 decisions only (SWAP2BOARD)",
                self.label
            ));
        }
        let m = position.m();
        let stones = history.iter().enumerate().map(|(i, mv)| {
            let field = if i % 2 == 0 {
                Field::Theirs
            } else {
                Field::Own
            };
            (mv.coord(m), field)
        });
        let text = stones_command("SWAP2BOARD", stones);
        self.info(Info::TimeLeft(MATCH_MS))?;
        self.send(&text)?;
        let deadline = Instant::now() + turn + GRACE;
        loop {
            let line = self.read_line(deadline)?;
            if line.eq_ignore_ascii_case("SWAP") {
                return Ok(StepAnswer::Choose(Player::X));
            }
            if line.starts_with("ERROR") {
                return Err(format!("{}: {line}", self.label));
            }
            let Some(stones) = parse_stones(&line) else {
                continue;
            };
            return match (step, stones.as_slice()) {
                (kinrow_game::OpeningStep::Place3, _) => Ok(StepAnswer::Place(stones)),
                (_, [c]) if c.row < position.n() && c.col < m => {
                    Ok(StepAnswer::KeepO(Move::mark(c.row * m + c.col)))
                }
                (_, [_]) => Err(format!("{}: move {line:?} is off the board", self.label)),
                _ => Ok(StepAnswer::Place(stones)),
            };
        }
    }
}

/// An evaluation with the plies of a forced result where the engine counted them
/// ([`ExternalEngine::think_counted`]).
pub type CountedEval = (Eval, Option<u32>);

#[cfg(unix)]
fn killed_by_sigkill(status: std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal() == Some(9)
}

#[cfg(not(unix))]
fn killed_by_sigkill(_: std::process::ExitStatus) -> bool {
    false
}

/// Why no line came from an engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// Nothing by the deadline.
    Timeout,
    /// Its output closed: the process exited (or crashed).
    Exited,
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "END").and_then(|()| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
