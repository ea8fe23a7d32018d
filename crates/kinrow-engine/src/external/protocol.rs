//! The Gomocup ("pbrain") protocol's client: any brain program, run as a child process
//! and spoken to over its stdin/stdout. The lab plays whole games with it (`kinrow
//! arena`, `judge`); the server keeps brains running and asks one position at a time
//! ([`super::brain`]).
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
use std::path::{Path, PathBuf};
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
        let mut engine = ExternalEngine::spawn(&spec.program, &spec.args, &spec.label)?;
        let start = start_command(rules.m(), rules.n());
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
        engine.send(&format!("INFO rule {}", rule_mask(rules)))?;
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

    /// Sends `INFO key value` (say `max_node 5000`), for the limits a brain may take
    /// beyond the turn's time.
    pub fn info(&mut self, key: &str, value: u64) -> Result<(), String> {
        self.send(&format!("INFO {key} {value}"))
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
        let token = eval_token(line)?;
        if let Some(m) = token.strip_prefix("+M") {
            return (m == "*" || m.parse::<u32>().is_ok()).then_some(Eval::Mate { win: true });
        }
        if let Some(m) = token.strip_prefix("-M") {
            return (m == "*" || m.parse::<u32>().is_ok()).then_some(Eval::Mate { win: false });
        }
        token.parse().ok().map(Eval::Score)
    }
}

/// The token after the last word `eval` of `line` (any case, then spaces or colons).
fn eval_token(line: &str) -> Option<&str> {
    let lower = line.to_ascii_lowercase();
    let at = lower.rfind("eval")?;
    line[at + 4..]
        .trim_start_matches([':', ' '])
        .split_whitespace()
        .next()
}

/// The plies of a mate in `line`'s evaluation: 15 of `+M15` or `-M15` (Rapfi counts
/// them from the position to the five); `None` for a score or `+M*`.
fn mate_plies(line: &str) -> Option<u32> {
    let token = eval_token(line)?;
    let m = token
        .strip_prefix("+M")
        .or_else(|| token.strip_prefix("-M"))?;
    m.parse().ok()
}

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

/// `START n` for a square board, `RECTSTART m,n` otherwise.
pub fn start_command(m: usize, n: usize) -> String {
    if m == n {
        format!("START {m}")
    } else {
        format!("RECTSTART {m},{n}")
    }
}

/// `INFO rule`'s bit mask for `rules`: 0 freestyle, 1 exactly five, 4 renju, 8 caro.
pub fn rule_mask(rules: &Rules) -> u32 {
    rules.variant().gomocup_rule(rules.overline())
}

/// The stones of `text` (`x,y x,y ..`, as a brain answers `SWAP2BOARD`), `None` when it
/// is not a list of stones.
pub fn parse_stones(text: &str) -> Option<Vec<Coord>> {
    text.split_whitespace()
        .map(|s| {
            let (x, y) = s.split_once(',')?;
            Some(Coord::new(y.trim().parse().ok()?, x.trim().parse().ok()?))
        })
        .collect()
}

/// `x,y` (column, row) as numbers; `None` for a line that is not a move.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
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

/// What a brain said of its search in one `MESSAGE` line (Rapfi's and Yixin's style):
/// the depth after the word `depth`, the evaluation ([`Eval::in_message`]) with a mate's
/// plies, and the best line after the word `pv` or `bestline`, as `x,y` pairs or as
/// letter-and-number cells (`h8`: column h, the 8th row from the top); in a line with a
/// depth and no such word, the cells after its last `|` (Rapfi's per-depth line,
/// `Depth 10-9 | Eval -114 | Time 13ms | I8 I7 H7`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// The depth reached (the first number after `depth`: `8` of `Depth 8-14`).
    pub depth: Option<u32>,
    /// The evaluation for the side to move, in the brain's units.
    pub eval: Option<Eval>,
    /// The plies to the five of a mate evaluation where the brain counted them.
    pub plies: Option<u32>,
    /// The best line, from the side to move, cut at its first cell off a board of
    /// `m` x `n`.
    pub pv: Vec<Coord>,
}

impl Thinking {
    /// What `line` (a `MESSAGE` line) says, on a board of `m` columns and `n` rows.
    pub fn in_message(line: &str, m: usize, n: usize) -> Thinking {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == '|' || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        let after = |key: &str| {
            words.iter().position(|w| {
                w.trim_end_matches([':', '=']).eq_ignore_ascii_case(key)
                    || w.to_ascii_lowercase()
                        .strip_prefix(key)
                        .is_some_and(|r| r.starts_with([':', '=']))
            })
        };
        let depth = after("depth").and_then(|i| {
            let w = words[i];
            let inline = w.split_once([':', '=']).map(|(_, v)| v).unwrap_or("");
            let text = if inline.is_empty() {
                words.get(i + 1).copied().unwrap_or("")
            } else {
                inline
            };
            let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        });
        let pv = after("pv")
            .or_else(|| after("bestline"))
            .map(|i| {
                words[i + 1..]
                    .iter()
                    .map_while(|w| cell_of(w, m, n))
                    .collect()
            })
            .or_else(|| {
                depth?;
                let (_, tail) = line.rsplit_once('|')?;
                let cells: Option<Vec<Coord>> =
                    tail.split_whitespace().map(|w| cell_of(w, m, n)).collect();
                cells.filter(|c| !c.is_empty())
            })
            .unwrap_or_default();
        let eval = Eval::in_message(line);
        Thinking {
            depth,
            eval,
            plies: eval.and_then(|_| mate_plies(line)),
            pv,
        }
    }
}

/// A cell written `x,y` (column, row, from 0) or `h8` (a letter for the column from
/// `a`, then the row from 1 at the top); `None` when it is neither or off the board.
fn cell_of(word: &str, m: usize, n: usize) -> Option<Coord> {
    let (col, row) = match parse_move(word) {
        Some((x, y)) => (usize::try_from(x).ok()?, usize::try_from(y).ok()?),
        None => {
            let mut chars = word.chars();
            let letter = chars.next()?.to_ascii_lowercase();
            if !letter.is_ascii_lowercase() {
                return None;
            }
            let row: usize = chars.as_str().parse().ok()?;
            ((letter as u8 - b'a') as usize, row.checked_sub(1)?)
        }
    };
    (col < m && row < n).then(|| Coord::new(row, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rapfi_style_message_gives_depth_eval_and_line() {
        let t = Thinking::in_message("MESSAGE depth 11-17 ev 42 n 120k pv h8 i9 g7", 15, 15);
        assert_eq!(t.depth, Some(11));
        assert_eq!(
            t.pv,
            vec![Coord::new(7, 7), Coord::new(8, 8), Coord::new(6, 6)]
        );
        let t = Thinking::in_message("MESSAGE Depth:9 | Eval -118 | pv 7,7 8,7 zz", 15, 15);
        assert_eq!(t.depth, Some(9));
        assert_eq!(t.eval, Some(Eval::Score(-118)));
        assert_eq!(t.pv, vec![Coord::new(7, 7), Coord::new(7, 8)]);
    }

    #[test]
    fn rapfi_lines_give_mate_plies_and_the_per_depth_line() {
        let t = Thinking::in_message(
            "MESSAGE Speed 167K | Depth 10-9 | Eval +M15 | Node 2183 | Time 13ms",
            15,
            15,
        );
        assert_eq!(t.eval, Some(Eval::Mate { win: true }));
        assert_eq!(t.plies, Some(15));
        assert!(t.pv.is_empty());
        let t = Thinking::in_message("MESSAGE Depth 12-20 | Eval -M8 | Time 40ms", 15, 15);
        assert_eq!(
            (t.eval, t.plies),
            (Some(Eval::Mate { win: false }), Some(8))
        );
        let t = Thinking::in_message("MESSAGE Depth 3 | Eval +M* | Time 1ms", 15, 15);
        assert_eq!((t.eval, t.plies), (Some(Eval::Mate { win: true }), None));
        let t = Thinking::in_message("MESSAGE Depth 4 | Eval -114 | Time 9ms", 15, 15);
        assert_eq!((t.eval, t.plies), (Some(Eval::Score(-114)), None));
        // message_mode = "normal": the best line after the last '|', without a keyword.
        let t = Thinking::in_message(
            "MESSAGE Depth 10-9 | Eval -114 | Time 13ms | I8 I7 H7",
            15,
            15,
        );
        assert_eq!(t.depth, Some(10));
        assert_eq!(
            t.pv,
            vec![Coord::new(7, 8), Coord::new(6, 8), Coord::new(6, 7)]
        );
        // Not without a depth, nor when the tail holds anything but cells.
        let t = Thinking::in_message("MESSAGE Load config | I8 I7", 15, 15);
        assert!(t.pv.is_empty());
        let t = Thinking::in_message("MESSAGE Depth 5 | Eval 3 | Time 9ms", 15, 15);
        assert!(t.pv.is_empty());
    }

    #[test]
    fn a_message_without_search_words_says_nothing() {
        assert_eq!(
            Thinking::in_message("MESSAGE hello from the brain", 15, 15),
            Thinking::default()
        );
        // A line off the board ends the line.
        let t = Thinking::in_message("MESSAGE pv 3,3 20,20 4,4", 15, 15);
        assert_eq!(t.pv, vec![Coord::new(3, 3)]);
    }
}
