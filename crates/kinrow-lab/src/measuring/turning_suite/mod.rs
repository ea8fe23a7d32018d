//! `kinrow turning-suite`: the tactical turns of lost games as a suite, and how an
//! engine fares on them (issue 58, step 0).
//!
//! - `build` ([`build`]) keeps, from the `--out` files of `kinrow judge --turning`, every
//!   game that turned *tactically*: the loser's move after which the judge saw a forced
//!   win for the opponent at once. Each turn is one line ([`TurnLine`]): the position
//!   before the turning move, the turning move, the judge's own move there, and the
//!   judge's mate distance and depth right after the turning move.
//! - `check` ([`check`]) has an engine answer each position before the turning move
//!   (does it avoid the turning move?) and search the position after it (does it see the
//!   loss, and from which depth?), and sorts each turn into why a search could miss it
//!   ([`Class`]): the horizon, the guard's time, a win the threat-space search cannot
//!   read, or pruning.
//!
//! The suite file is JSON lines after a `#` comment naming the command that made it,
//! as the value suites are (data/suites/README.md).

pub mod check;
pub mod classify;

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::measuring::arena::cell_move;
use crate::output::print_line;
use crate::record::rules_from_text;
use kinrow_game::{Move, Position, Rules};

pub use check::CheckArgs;

/// `kinrow turning-suite` on the command line.
#[derive(clap::Args, Debug)]
pub struct TurningSuiteArgs {
    /// Build the suite from `judge --turning` files, or check an engine against it.
    #[command(subcommand)]
    pub command: TurningCommand,
}

/// The two steps of `kinrow turning-suite`.
#[derive(clap::Subcommand, Debug)]
pub enum TurningCommand {
    /// Keep the tactical turns of `kinrow judge --turning --out` files as a suite.
    Build(BuildArgs),
    /// Count the turning moves an engine avoids and the losses it sees after them.
    Check(CheckArgs),
}

/// `kinrow turning-suite build` on the command line.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// A `kinrow judge --turning --out` file (repeatable); its games are named by the
    /// file name of the games it judged and their line there.
    #[arg(long, required = true)]
    pub turning: Vec<PathBuf>,
    /// Text added to the suite's first comment after the command (e.g. the judge's
    /// command that made the files).
    #[arg(long)]
    pub note: Option<String>,
    /// The suite file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `kinrow turning-suite`; returns the exit code.
pub fn main(args: TurningSuiteArgs) -> i32 {
    let (what, result) = match args.command {
        TurningCommand::Build(a) => ("build", build(&a)),
        TurningCommand::Check(a) => ("check", check::run(&a)),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow turning-suite {what}: {e}");
            1
        }
    }
}

/// One tactical turn, one line of the suite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnLine {
    /// The game it came from: `FILE:LINE` of the game record.
    pub game: String,
    /// Moves before the turning move (the opening's included).
    pub ply: usize,
    /// The rules as `M,N,K`.
    pub rules: String,
    /// The rule variant (`free`, `renju`, `caro`).
    pub variant: String,
    /// Only exactly `k` in a row wins.
    #[serde(default)]
    pub exact: bool,
    /// Every move from the empty board to the position before the turning move, x's
    /// first, as Gomocup `x,y` (column, row).
    pub moves: String,
    /// The side to move (the loser), `x` or `o`.
    pub to_move: String,
    /// The contestant that lost the game.
    pub loser: String,
    /// The turning move.
    pub turning: String,
    /// The judge's own move in the position before it.
    pub judge_move: Option<String>,
    /// The judge's plies to the five of the opponent's forced win after the turning
    /// move (`+M11`: 11), where it counted them.
    pub plies: Option<u32>,
    /// The depth the judge reached there.
    pub depth: Option<u32>,
    /// The judge's evaluation of the position before the turning move for the loser,
    /// where it was a score.
    #[serde(default)]
    pub eval_before: Option<i64>,
    /// A forced result the judge reported before the turning move: the plies to the
    /// five, positive when the loser wins, negative when it loses (0: uncounted). A
    /// loss here means the judge saw the game lost already and the turning move only
    /// made its next search see it: such a turn cannot be avoided.
    #[serde(default)]
    pub mate_before: Option<i32>,
}

impl TurnLine {
    /// Whether the judge did not already see the loser lost before the turning move
    /// (see [`TurnLine::mate_before`]).
    pub fn open(&self) -> bool {
        self.mate_before.is_none_or(|m| m > 0)
    }
}

impl TurnLine {
    /// The rules of the line.
    pub fn rules(&self) -> Result<Rules, String> {
        rules_from_text(&self.rules, &self.variant, self.exact)
    }

    /// The position before the turning move, checked against `ply` and `to_move`, with
    /// the turning move (legal there) and the judge's move.
    pub fn position(&self) -> Result<(Position, Move, Option<Move>), String> {
        let rules = self.rules()?;
        let mut p = Position::empty(&rules);
        for word in self.moves.split_whitespace() {
            let mv = cell_move(word, &rules).map_err(|e| format!("moves: {e}"))?;
            p.try_play(mv).map_err(|e| format!("moves: {word}: {e}"))?;
        }
        if p.ply() as usize != self.ply {
            return Err(format!(
                "ply {} is not the {} moves of `moves`",
                self.ply,
                p.ply() as usize
            ));
        }
        if p.is_over() {
            return Err("moves: the game is over".into());
        }
        if p.to_move().as_char().to_string() != self.to_move {
            return Err(format!(
                "to_move {:?} is not the side to move",
                self.to_move
            ));
        }
        let turning = cell_move(&self.turning, &rules).map_err(|e| format!("turning: {e}"))?;
        if !p.is_legal(turning) {
            return Err(format!("turning: {} is not legal there", self.turning));
        }
        let judge = self
            .judge_move
            .as_deref()
            .map(|t| cell_move(t, &rules).map_err(|e| format!("judge_move: {e}")))
            .transpose()?;
        Ok((p, turning, judge))
    }
}

/// The turns of a suite file (`#` comments and blank lines skipped) and its comments.
pub fn read_suite(text: &str) -> Result<(Vec<String>, Vec<TurnLine>), String> {
    crate::output::read_commented_lines(text)
}

/// The tactical turn of one `judge --turning --out` line, `None` for a game that did
/// not turn tactically.
pub fn turn_of(judged: &serde_json::Value) -> Result<Option<TurnLine>, String> {
    let field = |name: &str| judged.get(name).filter(|v| !v.is_null());
    let text = |name: &str| -> Result<String, String> {
        field(name)
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("{name} is missing"))
    };
    let number = |name: &str| field(name).and_then(serde_json::Value::as_u64);
    if field("tactical").and_then(serde_json::Value::as_bool) != Some(true) {
        return Ok(None);
    }
    let games = text("games")?;
    let file = Path::new(&games)
        .file_name()
        .map_or(games.clone(), |f| f.to_string_lossy().to_string());
    let line = number("line").ok_or("line is missing")?;
    let rules_text = text("rules")?;
    let variant = text("variant")?;
    let exact = field("exact").and_then(serde_json::Value::as_bool) == Some(true);
    let moves = text("position")?;
    let rules = rules_from_text(&rules_text, &variant, exact)?;
    let mut p = Position::empty(&rules);
    for word in moves.split_whitespace() {
        p.try_play(cell_move(word, &rules)?)
            .map_err(|e| format!("position: {word}: {e}"))?;
    }
    // The judge's root evaluation before the turning move (the loser's own).
    let before = judged["moves"]
        .as_array()
        .and_then(|ms| {
            ms.iter()
                .find(|m| m["ply"].as_u64() == number("turning_ply"))
        })
        .ok_or("the turning move is not among the judged moves")?;
    let before_plies = before["before_plies"].as_u64().map_or(0, |p| p as i32);
    let (eval_before, mate_before) = match &before["before"] {
        serde_json::Value::String(s) if s == "+M" => (None, Some(before_plies)),
        serde_json::Value::String(s) if s == "-M" => (None, Some(-before_plies)),
        v => (v.as_i64(), None),
    };
    let turn = TurnLine {
        game: format!("{file}:{line}"),
        ply: p.ply() as usize,
        rules: rules_text,
        variant,
        exact,
        moves,
        to_move: p.to_move().as_char().to_string(),
        loser: text("loser")?,
        turning: text("turning_move")?,
        judge_move: text("judge_move").ok(),
        plies: number("turning_plies").map(|n| n as u32),
        depth: number("turning_depth").map(|n| n as u32),
        eval_before,
        mate_before,
    };
    // What the line says must hold together.
    turn.position()?;
    Ok(Some(turn))
}

/// `kinrow turning-suite build`.
pub fn build(args: &BuildArgs) -> Result<(), String> {
    let mut turns: Vec<TurnLine> = Vec::new();
    let mut games = 0;
    for path in &args.turning {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--turning: cannot read {}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: String| format!("--turning: {} line {}: {e}", path.display(), i + 1);
            let judged: serde_json::Value =
                serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
            games += 1;
            if let Some(t) = turn_of(&judged).map_err(at)? {
                // The same turn from two files (a game judged twice) is kept once.
                if !turns
                    .iter()
                    .any(|u| u.moves == t.moves && u.turning == t.turning)
                {
                    turns.push(t);
                }
            }
        }
    }
    let mut out = std::fs::File::create(&args.out)
        .map_err(|e| format!("--out: cannot write {}: {e}", args.out.display()))?;
    let files: Vec<String> = args
        .turning
        .iter()
        .map(|p| format!("--turning {}", p.display()))
        .collect();
    let mut text = format!(
        "# kinrow turning-suite build {} --out {}",
        files.join(" "),
        args.out.display()
    );
    if let Some(note) = &args.note {
        text.push_str(&format!("; {note}"));
    }
    text.push('\n');
    for t in &turns {
        text.push_str(&serde_json::to_string(t).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .map_err(|e| format!("--out: {e}"))?;
    print_line(&format!(
        "{} tactical turns of {games} lost games written to {}; in {} of them the judge saw the loser lost already before the turning move, in {} its own move there was the turning move",
        turns.len(),
        args.out.display(),
        turns.iter().filter(|t| !t.open()).count(),
        turns.iter().filter(|t| t.judge_move.as_deref() == Some(t.turning.as_str())).count(),
    ));
    Ok(())
}
