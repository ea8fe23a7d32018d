//! `kinrow pbrain`: the engine over the Gomocup (piskvork) protocol on stdin/stdout,
//! so gomoku GUIs and tournament managers can play it.
//!
//! Commands: `START n`, `RECTSTART w,h`, `BEGIN`, `TURN x,y`, `BOARD` .. `DONE`,
//! `SWAP2BOARD` .. `DONE` (the swap2 opening, `crates/kinrow-lab/src/pbrain/swap2.rs`),
//! `TAKEBACK x,y`, `INFO key value` (`timeout_turn`, `timeout_match`, `time_left`,
//! `rule`, `thread_num`, `max_memory`, and the rest accepted silently), `RESTART`, `ABOUT`, `END`.
//! Coordinates are `x,y` = column,row, zero-based. Whatever the brain cannot do (a
//! board larger than 64, renju and caro at once, renju with k other than 5, a move on
//! an occupied cell, a command before `START`) is answered `ERROR` with the reason; an
//! unknown command gets `UNKNOWN`.
//!
//! Before every move it prints one `MESSAGE` line of what it thinks, in Rapfi's brief
//! shape ([`message`]): depth, eval (its value through [`EVAL_UNIT`], or a mate) and the
//! best line, so that kinrow served as an external engine (`unit=200`) answers a value
//! and a depth as Rapfi does.
//!
//! `INFO rule` is the protocol's bit mask: 1 exactly five, 2 continuous game (nothing
//! for the brain to do), 4 renju, 8 caro. 0 plays freestyle, 1 exactly five, 4 or 5
//! renju, 8 or 9 caro (which is exactly five already).
//!
//! Time: a move uses at most `timeout_turn` minus a safety margin. On a match clock it
//! aims at a twentieth of `time_left` and stops there once its best move is settled; a
//! move whose best answer keeps changing, or that meets a threat, may take up to three
//! times that, at most a seventh of `time_left` ([`Brain::move_time`], the engine's
//! [`timeman`](kinrow_engine::timeman)).
//!
//! Threads: `INFO thread_num N` lets `auto`'s pattern search run on N threads, cut to
//! `--max-threads` (`KINROW_MAX_THREADS`; by default the number of cores: the manager
//! that sends `thread_num` hands out the machine).

use std::io::{BufRead, Write};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use kinrow_engine::gomocup::{self, parse_board_line, Brief, Command, Eval, Field, Info};
use kinrow_engine::timeman;
use kinrow_engine::value::values;
use kinrow_engine::CellValues;
use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::SearchContext;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_game::{Cell, Piece, Player, Position, Rules, Variant, MAX_SIDE};

mod swap2;

/// What a cell holds from the brain's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stone {
    Empty,
    Own,
    Theirs,
}

/// The brain's state between commands.
pub struct Brain {
    engine: Box<dyn Engine>,
    kind: EngineKind,
    engine_name: &'static str,
    k: u64,
    size: Option<(usize, usize)>,
    board: Vec<Stone>,
    exact: bool,
    variant: Variant,
    timeout_turn: Duration,
    timeout_match: Duration,
    time_left: Option<Duration>,
    /// Threads of a search (`INFO thread_num`, cut to `max_threads`).
    threads: usize,
    max_threads: usize,
    /// Lines collected between `BOARD` and `DONE`.
    pending_board: Option<Vec<(usize, usize, u8)>>,
    /// Stones collected between `SWAP2BOARD` and `DONE`.
    pending_swap2: Option<Vec<(usize, usize)>>,
    rng: StdRng,
    /// What the engine keeps between the moves of the game (a new one per game).
    ctx: SearchContext,
    /// Set by `END`.
    pub finished: bool,
    /// The node cap per move (`--nodes`), if any.
    pub nodes: Option<u64>,
}

/// The engine pbrain plays with when none is named: `auto` when registered, else the
/// registry's default (the first of [`EngineKind::ALL`]).
pub fn default_engine() -> Option<EngineKind> {
    EngineKind::parse("auto").or_else(|| EngineKind::ALL.first().copied())
}

impl Brain {
    /// A brain playing `engine` with `k` in a row.
    pub fn new(engine: EngineKind, k: u64, seed: u64) -> Brain {
        Brain {
            engine: engine.build(),
            kind: engine,
            engine_name: engine.name(),
            k,
            size: None,
            board: Vec::new(),
            exact: false,
            variant: Variant::default(),
            timeout_turn: Duration::from_millis(5000),
            timeout_match: Duration::ZERO,
            time_left: None,
            threads: 1,
            max_threads: 1,
            pending_board: None,
            pending_swap2: None,
            rng: StdRng::seed_from_u64(seed),
            ctx: SearchContext::new(),
            finished: false,
            nodes: None,
        }
    }

    /// The same brain, with `INFO thread_num` cut to `max` threads (at least 1).
    pub fn with_max_threads(mut self, max: usize) -> Brain {
        self.max_threads = max.clamp(1, kinrow_engine::MAX_THREADS);
        self.threads = self.threads.min(self.max_threads);
        self
    }

    /// The threads the next search runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Handles one input line; returns the lines to answer (possibly none).
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        if self.pending_board.is_some() {
            return self.board_line(line);
        }
        if self.pending_swap2.is_some() {
            return self.swap2_line(line);
        }
        let command = match Command::parse(line) {
            Ok(command) => command,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        match command {
            Command::Start(side) => self.start(side, side),
            Command::RectStart(w, h) => self.start(w, h),
            Command::Restart => match self.size {
                Some(_) => {
                    self.board.iter_mut().for_each(|s| *s = Stone::Empty);
                    vec!["OK".into()]
                }
                None => vec!["ERROR RESTART before START".into()],
            },
            Command::Begin => self.think(),
            Command::Turn(x, y) => match self.place(x, y, Stone::Theirs) {
                Ok(()) => self.think(),
                Err(e) => vec![format!("ERROR {e}")],
            },
            Command::Takeback(x, y) => match self.index(x, y) {
                Ok(i) => {
                    self.board[i] = Stone::Empty;
                    vec!["OK".into()]
                }
                Err(e) => vec![format!("ERROR {e}")],
            },
            Command::Board => {
                if self.size.is_none() {
                    return vec!["ERROR BOARD before START".into()];
                }
                self.pending_board = Some(Vec::new());
                Vec::new()
            }
            Command::Info(info) => self.info(info),
            Command::About => vec![format!(
                "name=\"kinrow\", version=\"{}\", author=\"kinrow\", country=\"-\", www=\"-\", engine=\"{}\"",
                env!("CARGO_PKG_VERSION"),
                self.engine_name
            )],
            Command::End => {
                self.finished = true;
                Vec::new()
            }
            Command::Swap2Board => self.swap2_begin(),
            Command::Unknown(word) => vec![format!("UNKNOWN command {word:?}")],
        }
    }

    fn start(&mut self, w: usize, h: usize) -> Vec<String> {
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
            return vec![format!(
                "ERROR unsupported board size {w}x{h}: sides must be 1 to {MAX_SIDE}"
            )];
        }
        self.size = Some((w, h));
        self.board = vec![Stone::Empty; w * h];
        self.ctx.clear();
        // The evaluation's tables are built once per process: here, before `OK`, rather
        // than inside the first move's time (as the server does before its first request).
        kinrow_engine::warm_up();
        vec!["OK".into()]
    }

    fn index(&self, x: usize, y: usize) -> Result<usize, String> {
        let (w, h) = self.size.ok_or("no board yet: send START first")?;
        if x >= w || y >= h {
            return Err(format!("{x},{y} is off the {w}x{h} board"));
        }
        Ok(y * w + x)
    }

    fn place(&mut self, x: usize, y: usize, stone: Stone) -> Result<(), String> {
        let i = self.index(x, y)?;
        if self.board[i] != Stone::Empty {
            return Err(format!("{x},{y} is already occupied"));
        }
        self.board[i] = stone;
        Ok(())
    }

    fn board_line(&mut self, line: &str) -> Vec<String> {
        if line.eq_ignore_ascii_case("DONE") {
            let lines = self.pending_board.take().unwrap_or_default();
            self.board.iter_mut().for_each(|s| *s = Stone::Empty);
            for (x, y, field) in lines {
                let stone = match Field::of(field) {
                    Some(Field::Own) => Stone::Own,
                    Some(Field::Theirs) => Stone::Theirs,
                    None => return vec![format!("ERROR field {field} at {x},{y} is not supported (only 1 = own, 2 = opponent)")],
                };
                if let Err(e) = self.place(x, y, stone) {
                    return vec![format!("ERROR {e}")];
                }
            }
            return self.think();
        }
        match parse_board_line(line) {
            Some(t) => {
                self.pending_board.get_or_insert_with(Vec::new).push(t);
                Vec::new()
            }
            None => vec![format!("ERROR BOARD line {line:?} is not x,y,field")],
        }
    }

    fn info(&mut self, info: Info) -> Vec<String> {
        match info {
            Info::TimeoutTurn(ms) => self.timeout_turn = Duration::from_millis(ms),
            Info::TimeoutMatch(ms) => self.timeout_match = Duration::from_millis(ms),
            Info::TimeLeft(ms) => self.time_left = Some(Duration::from_millis(ms)),
            Info::ThreadNum(n) => self.threads = n.min(self.max_threads),
            Info::Rule(mask) => {
                if let Err(e) = self.rule(mask) {
                    return vec![format!("ERROR {e}")];
                }
            }
            // Accepted, nothing to do: the engines' memory is bounded by their own caps.
            Info::MaxMemory(_) | Info::MaxNode(_) | Info::MaxDepth(_) | Info::Other { .. } => {}
        }
        Vec::new()
    }

    /// Sets the rules of `INFO rule`'s bit mask (see the top of this file); a mask the
    /// brain cannot play leaves the rules as they were.
    fn rule(&mut self, mask: u32) -> Result<(), String> {
        let (variant, exact) = gomocup::rules_of_mask(mask)?;
        if let Some(k) = variant.fixed_k().filter(|&k| u64::from(k) != self.k) {
            return Err(format!(
                "{} is played with {k} in a row, but this brain plays {} in a row",
                variant.as_str(),
                self.k
            ));
        }
        self.variant = variant;
        self.exact = exact;
        Ok(())
    }

    /// The time of the next move: the most it may take, and, on a match clock, the time
    /// it aims to answer by ([`timeman::move_time`]).
    pub fn move_time(&self) -> (Duration, Option<Duration>) {
        timeman::move_time(self.timeout_turn, self.time_left, self.timeout_match)
    }

    fn position(&self) -> Result<Position, String> {
        let (w, h) = self.size.ok_or("no board yet: send START first")?;
        let own = self.board.iter().filter(|&&s| s == Stone::Own).count();
        let theirs = self.board.iter().filter(|&&s| s == Stone::Theirs).count();
        // X moves first: with equal counts the brain (to move) is X.
        let me = if own == theirs {
            Player::X
        } else if theirs == own + 1 {
            Player::O
        } else {
            return Err(format!(
                "the board has {own} own and {theirs} opponent stones: it cannot be the brain's turn"
            ));
        };
        let rules = Rules::new(w as u64, h as u64, self.k, !self.exact, Default::default())
            .and_then(|r| r.with_variant(self.variant))
            .map_err(|e| e.to_string())?;
        let cells = self
            .board
            .iter()
            .map(|s| match s {
                Stone::Empty => Cell::Empty,
                Stone::Own => Cell::Mark(me),
                Stone::Theirs => Cell::Mark(me.opponent()),
            })
            .collect();
        Position::from_cells(&rules, cells, Some(me)).map_err(|e| e.to_string())
    }

    fn think(&mut self) -> Vec<String> {
        self.think_within(None)
    }

    /// The brain's move, within `cap` as well as the turn's time when given.
    fn think_within(&mut self, cap: Option<std::time::Duration>) -> Vec<String> {
        let position = match self.position() {
            Ok(p) => p,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        if position.is_over() {
            return vec!["ERROR the game is over: there is no move to make".into()];
        }
        let (time, target) = self.move_time();
        let time = cap.map_or(time, |c| c.min(time));
        let limits = Limits {
            threads: self.threads,
            target: target.map(|t| t.min(time)),
            nodes: self.nodes,
            ..Limits::with_time(time)
        };
        // The protocol answers a move only: no share of the turn goes to valuing the
        // other cells.
        *self.ctx.kept::<CellValues>() = CellValues(false);
        let mut analysis =
            self.engine
                .analyze_with(&position, &limits, &mut self.ctx, &mut self.rng);
        let said = message(self.kind, &position, &mut analysis);
        let mv = analysis.best;
        if mv.piece == Piece::Mark && position.is_legal(mv) {
            self.board[mv.cell()] = Stone::Own;
        }
        vec![said, gomocup::cell_text(mv.coord(position.m()))]
    }
}

/// The unit of the eval `kinrow pbrain` prints: its value `v` in [-1, 1] is printed as
/// `e = 2 * UNIT * atanh(v)`, so that an external-engine config with `unit=200` (as for
/// Rapfi) reads `tanh(e / (2 * 200)) = v` back.
pub const EVAL_UNIT: f64 = 200.0;

/// The `MESSAGE` line of a move, in Rapfi's brief shape ([`Brief`], which
/// `kinrow_engine::Thinking` reads back). The eval is the value of kinrow's answer for
/// the side to move through [`EVAL_UNIT`] (the value scale of `/v1/suggest`), a mate for
/// a proven win or loss, 0 for a proven draw; the best line is the engine's `pv`.
pub fn message(kind: EngineKind, position: &Position, analysis: &mut Analysis) -> String {
    // First: the values mark what is proven whatever the engine said (a win now).
    let value = values(kind, position, analysis).evaluation;
    let eval = match analysis.evaluation.outcome {
        Outcome::Win => Eval::Mate { win: true },
        Outcome::Loss => Eval::Mate { win: false },
        Outcome::Draw => Eval::Score(0),
        Outcome::Unknown => {
            let e = 2.0 * EVAL_UNIT * value.clamp(-0.999, 0.999).atanh();
            Eval::Score(e.round() as i64)
        }
    };
    let m = position.m();
    let stats = &analysis.stats;
    Brief {
        depth: stats.depth,
        eval,
        plies: analysis.evaluation.plies,
        nodes: stats.nodes,
        time: stats.elapsed,
        line: analysis.pv.iter().map(|mv| mv.coord(m)).collect(),
    }
    .to_string()
}

/// `kinrow pbrain` on the command line.
#[derive(clap::Args, Debug)]
pub struct PbrainArgs {
    /// The engine (default: `auto` when available, else the registry's default).
    #[arg(long)]
    pub engine: Option<String>,
    /// Marks in a row to win.
    #[arg(long, default_value_t = 5)]
    pub k: u64,
    /// Seed of the engine's RNG.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Cap on `INFO thread_num` [default: the number of cores].
    #[arg(long, env = "KINROW_MAX_THREADS")]
    pub max_threads: Option<usize>,
    /// A node cap per move besides the clock (the lab's equal-node matches of one build
    /// against another through `kinrow arena`'s `pbrain:` engines).
    #[arg(long)]
    pub nodes: Option<u64>,
}

/// Runs the protocol on stdin/stdout until `END` or end of input; returns the exit code.
pub fn main(args: PbrainArgs) -> i32 {
    let kind = match &args.engine {
        Some(name) => EngineKind::parse(name),
        None => default_engine(),
    };
    let Some(kind) = kind else {
        println!("ERROR no such engine: {}", args.engine.unwrap_or_default());
        return 2;
    };
    let max_threads = args.max_threads.unwrap_or_else(kinrow_engine::cores);
    let mut brain = Brain::new(kind, args.k, args.seed).with_max_threads(max_threads);
    brain.nodes = args.nodes;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        for answer in brain.handle(&line) {
            if writeln!(out, "{answer}").and_then(|_| out.flush()).is_err() {
                return 1;
            }
        }
        if brain.finished {
            break;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brain(info: &[&str]) -> Brain {
        let mut b = Brain::new(EngineKind::Auto, 5, 1);
        for line in info {
            assert!(b.handle(line).is_empty(), "{line}");
        }
        b
    }

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn without_a_match_clock_a_move_takes_its_turn_less_the_margin() {
        let (time, target) = brain(&["INFO timeout_turn 5000"]).move_time();
        assert!(time < MS(5000) && time >= MS(4000), "{time:?}");
        assert_eq!(target, None);
    }

    #[test]
    fn on_a_match_clock_a_move_aims_at_a_twentieth_and_may_take_three_times_that() {
        let b = brain(&[
            "INFO timeout_turn 30000",
            "INFO timeout_match 180000",
            "INFO time_left 100000",
        ]);
        assert_eq!(b.move_time(), (MS(100_000) / 7, Some(MS(5000))));
        let b = brain(&[
            "INFO timeout_turn 30000",
            "INFO timeout_match 180000",
            "INFO time_left 2000",
        ]);
        assert_eq!(b.move_time(), (MS(2000) / 7, Some(MS(100))));
    }

    #[test]
    fn a_short_turn_caps_both() {
        let b = brain(&[
            "INFO timeout_turn 1000",
            "INFO timeout_match 180000",
            "INFO time_left 100000",
        ]);
        let (time, target) = b.move_time();
        assert!(time <= MS(1000) && time >= MS(800), "{time:?}");
        assert_eq!(target, None);
    }
}
