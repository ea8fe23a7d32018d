//! External engines in the arena: any Gomocup ("pbrain") program, run as a child process
//! for one game and spoken to over its stdin/stdout.
//!
//! A game opens with `START n` (`RECTSTART m,n` on rectangles), waits for `OK`, then
//! sends `INFO timeout_turn`, `INFO timeout_match`, `INFO max_memory` and `INFO rule`
//! (0 freestyle, 1 exactly five, 4 renju, 8 caro). Each of the engine's turns sends the
//! whole position as `BOARD` .. `DONE` (the stones in the order they were played, 1 for
//! the engine's own, 2 for its opponent's), so the engine needs no memory of earlier
//! turns, and reads
//! lines until one is a move `x,y` (column, row); `MESSAGE`, `DEBUG` and other lines are
//! skipped, `ERROR` ends the game. Some engines drop a command that arrives while they
//! are still printing, so every command waits [`PAUSE`] first. At the end of the game
//! the engine gets `END` and, if it has not exited shortly after, is killed.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use kinrow_game::{Coord, Move, Player, Position, Rules};

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
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: cannot start: {e}", spec.label))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line.trim().to_string()).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            child,
            stdin,
            lines,
            label: spec.label.clone(),
        };
        let start = if rules.m() == rules.n() {
            format!("START {}", rules.m())
        } else {
            format!("RECTSTART {},{}", rules.m(), rules.n())
        };
        engine.send(&start)?;
        let reply = engine.read_line(Instant::now() + GRACE)?;
        if !reply.eq_ignore_ascii_case("OK") {
            return Err(format!("{}: answered {reply:?} to {start:?}", engine.label));
        }
        let ms = turn.as_millis();
        engine.send(&format!("INFO timeout_turn {ms}"))?;
        engine.send(&format!("INFO timeout_match {MATCH_MS}"))?;
        engine.send(&format!("INFO time_left {MATCH_MS}"))?;
        engine.send("INFO max_memory 268435456")?;
        engine.send(&format!("INFO rule {}", crate::pbrain::rule_mask(rules)))?;
        Ok(engine)
    }

    /// Sends `INFO key value` (say `max_node 5000`), for the limits a brain may take
    /// beyond the turn's time.
    pub fn info(&mut self, key: &str, value: u64) -> Result<(), String> {
        self.send(&format!("INFO {key} {value}"))
    }

    fn send(&mut self, command: &str) -> Result<(), String> {
        std::thread::sleep(PAUSE);
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.label))
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!("{}: no answer in time", self.label)),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{}: exited", self.label)),
        }
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
        let m = position.m();
        let me = position.to_move();
        let mut board = String::from("BOARD");
        let mut who = Player::X;
        for mv in history {
            let c = mv.coord(m);
            let field = if who == me { 1 } else { 2 };
            board.push_str(&format!("\n{},{},{field}", c.col, c.row));
            who = who.opponent();
        }
        board.push_str("\nDONE");
        self.send(&format!("INFO time_left {MATCH_MS}"))?;
        self.send(&board)?;
        let deadline = Instant::now() + turn + GRACE;
        let mut eval = None;
        loop {
            let line = self.read_line(deadline)?;
            if line.starts_with("MESSAGE") {
                eval = Eval::in_message(&line).or(eval);
            }
            if let Some(mv) = parse_move(&line) {
                let (m, n) = (position.m() as i64, position.n() as i64);
                return match mv {
                    (col, row) if (0..m).contains(&col) && (0..n).contains(&row) => {
                        Ok((Move::mark((row * m + col) as usize), eval))
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
        let mut text = String::from("SWAP2BOARD");
        for (i, mv) in history.iter().enumerate() {
            let c = mv.coord(m);
            let field = if i % 2 == 0 { 2 } else { 1 };
            text.push_str(&format!("\n{},{},{field}", c.col, c.row));
        }
        text.push_str("\nDONE");
        self.send(&format!("INFO time_left {MATCH_MS}"))?;
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
            let Some(stones) = crate::pbrain::parse_stones(&line) else {
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

/// An evaluation an engine printed for the side to move, in its own units.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A score (Rapfi's `Eval -118`, Wine's `eval:-47`).
    Score(i64),
    /// A forced win (`+M15`, `+M*`) or loss (`-M15`) for the side to move.
    Mate {
        /// True for a win of the side to move.
        win: bool,
    },
}

impl Eval {
    /// The evaluation in a `MESSAGE` line: the token after the last word `eval`
    /// (any case, followed by a space or a colon), as a whole number or a mate `±M..`.
    pub fn in_message(line: &str) -> Option<Eval> {
        let lower = line.to_ascii_lowercase();
        let at = lower.rfind("eval")?;
        let rest = line[at + 4..].trim_start_matches([':', ' ']);
        let token = rest.split_whitespace().next()?;
        if let Some(m) = token.strip_prefix("+M") {
            return (m == "*" || m.parse::<u32>().is_ok()).then_some(Eval::Mate { win: true });
        }
        if let Some(m) = token.strip_prefix("-M") {
            return (m == "*" || m.parse::<u32>().is_ok()).then_some(Eval::Mate { win: false });
        }
        token.parse().ok().map(Eval::Score)
    }
}

/// `x,y` (column, row) as numbers; `None` for a line that is not a move.
fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
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
