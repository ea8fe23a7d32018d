//! `kinrow value-suite`: whether the per-move values an engine shows agree with an
//! external judge's forced results, on two suites of positions the judge labelled.
//!
//! - `build` ([`build`]) walks the positions of recorded games in a seeded order and asks
//!   a Gomocup judge (Rapfi) about them. The *winning* suite holds positions where the
//!   judge reports a forced win for the side to move within `--max-plies`, confirmed by
//!   its forced loss for the opponent after the judge's winning move; the *defence*
//!   suite holds positions the judge values without a forced result, where among the
//!   candidate moves (the empty cells near the stones) some *lose* (after the move the
//!   judge reports a forced win for the opponent) and some *hold* (it does not). Neither
//!   suite takes a position where a player can complete a line at once (trivial).
//! - `check` ([`check`]) has an engine answer every suite position as `/v1/suggest`
//!   would, with every cell valued, maps its answer to the API's values
//!   ([`SearchPlan::values`](kinrow_engine::SearchPlan::values)) and
//!   counts: the judge's winning moves it shows won, the losing moves it values at
//!   [`LOSING_VALUE`] or below, and the positions where the holding move's value is above
//!   every losing move's.
//!
//! - `agree` ([`agree`]) needs no judge: it checks the values shown for an answer's best
//!   moves against a search of the position after each move.
//!
//! The suite file is JSON lines ([`SuiteLine`]) after a `#` comment naming the command
//! and the judge that made it.

pub mod agree;
pub mod build;
pub mod check;

use serde::{Deserialize, Serialize};

pub use crate::measuring::arena::{cell_move, cell_text};
use crate::measuring::judge::Judgement;
use crate::record::rules_from_text;
use kinrow_engine::value::Values;
use kinrow_engine::Eval;
use kinrow_engine::{Analysis, Outcome};
use kinrow_game::{Cell, Move, Player, Position, Rules};

pub use agree::AgreeArgs;
pub use build::BuildArgs;
pub use check::CheckArgs;

/// The loose threshold of a win shown: a value at least this high reads as winning.
pub const WINNING_VALUE: f64 = 0.5;
/// A losing move is shown lost at this value or below.
pub const LOSING_VALUE: f64 = -0.5;

/// `kinrow value-suite` on the command line.
#[derive(clap::Args, Debug)]
pub struct ValueSuiteArgs {
    /// Build the suites with a judge, or check an engine against them.
    #[command(subcommand)]
    pub command: SuiteCommand,
}

/// The two steps of `kinrow value-suite`.
#[derive(clap::Subcommand, Debug)]
pub enum SuiteCommand {
    /// Make the winning and defence suites from recorded games with an external judge.
    Build(BuildArgs),
    /// Count how often an engine's per-move values agree with a suite's labels.
    Check(CheckArgs),
    /// Count how often the values shown for the best moves agree with a search of the
    /// position after each move.
    Agree(AgreeArgs),
}

/// Runs `kinrow value-suite`; returns the exit code.
pub fn main(args: ValueSuiteArgs) -> i32 {
    let (what, result) = match args.command {
        SuiteCommand::Build(a) => ("build", build::run(&a)),
        SuiteCommand::Check(a) => ("check", check::run(&a)),
        SuiteCommand::Agree(a) => ("agree", agree::run(&a)),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow value-suite {what}: {e}");
            1
        }
    }
}

/// Which suite a position belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suite {
    /// The side to move has a forced win; `move` is the judge's winning move.
    Winning,
    /// The side to move is not lost; `move` holds, `losing` lose.
    Defence,
}

/// One position of a suite, one line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteLine {
    /// The suite.
    pub suite: Suite,
    /// The game it came from: `FILE:LINE` of the game record.
    pub game: String,
    /// Moves before the position (the opening's included).
    pub ply: usize,
    /// Its index in the build's seeded order of every position (to resume after it).
    pub order: usize,
    /// The rules as `M,N,K`.
    pub rules: String,
    /// The rule variant (`free`, `renju`, `caro`).
    pub variant: String,
    /// Only exactly `k` in a row wins.
    #[serde(default)]
    pub exact: bool,
    /// Every move from the empty board, x's first, as Gomocup `x,y` (column, row).
    pub moves: String,
    /// The side to move, `x` or `o`.
    pub to_move: String,
    /// The judge's winning move (winning suite) or the holding move it prefers (defence).
    #[serde(rename = "move")]
    pub mv: String,
    /// Winning: the plies to the five the judge counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// Defence: the judge's evaluation of the position for the side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<i64>,
    /// Defence: the candidate moves after which the judge reports a forced win for the
    /// opponent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losing: Vec<String>,
    /// Defence: the candidate moves after which it reports none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holding: Vec<String>,
}

impl SuiteLine {
    /// The rules of the line.
    pub fn rules(&self) -> Result<Rules, String> {
        rules_from_text(&self.rules, &self.variant, self.exact)
    }

    /// The position and the moves that reached it, each move checked.
    pub fn position(&self) -> Result<(Position, Vec<Move>), String> {
        let rules = self.rules()?;
        let mut p = Position::empty(&rules);
        let mut moves = Vec::new();
        for word in self.moves.split_whitespace() {
            let mv = cell_move(word, &rules)?;
            p.try_play(mv).map_err(|e| format!("{word}: {e}"))?;
            moves.push(mv);
        }
        if p.is_over() {
            return Err("the game is over".into());
        }
        if p.to_move().as_char().to_string() != self.to_move {
            return Err(format!(
                "to_move {:?} is not the side to move",
                self.to_move
            ));
        }
        Ok((p, moves))
    }

    /// Each of `texts` as a move of the line's board.
    pub fn cells(&self, texts: &[String]) -> Result<Vec<Move>, String> {
        let rules = self.rules()?;
        texts.iter().map(|t| cell_move(t, &rules)).collect()
    }
}

/// The lines of a suite file (`#` comments and blank lines skipped) and its comments.
pub fn read_suite(text: &str) -> Result<(Vec<String>, Vec<SuiteLine>), String> {
    crate::output::read_commented_lines(text)
}

/// Whether the judge's root evaluation is a forced win for the side to move within
/// `max_plies` (a win whose plies it did not count is not taken).
pub fn forced_win(eval: Eval, plies: Option<u32>, max_plies: u32) -> bool {
    eval == Eval::Mate { win: true } && plies.is_some_and(|p| p <= max_plies)
}

/// What a candidate move does by the judge's evaluation after it (for the opponent).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// The judge reports a forced win for the opponent.
    Losing,
    /// It reports none (a score, or a forced win for the mover).
    Holding,
    /// It gave no evaluation.
    Unjudged,
}

impl Fate {
    /// The fate of a move after which the judge said `after` (for the opponent).
    pub fn of(after: Option<Eval>) -> Fate {
        match after {
            Some(Eval::Mate { win: true }) => Fate::Losing,
            Some(_) => Fate::Holding,
            None => Fate::Unjudged,
        }
    }
}

/// The labels of a defence position.
#[derive(Clone, Debug, PartialEq)]
pub struct Defence {
    /// The holding move the judge prefers.
    pub hold: Move,
    /// The candidates that lose.
    pub losing: Vec<Move>,
    /// The candidates that hold.
    pub holding: Vec<Move>,
    /// The candidates the judge gave no evaluation after.
    pub unjudged: usize,
}

/// Labels a defence position from the judge's evaluations after each candidate move
/// (`judged`, in candidate order, each for the opponent): `None` unless some candidate
/// loses and some holds. The holding move is the judge's own best move `root_best`
/// where it holds, else the holding candidate the judge values best for the mover (the
/// first of equals).
pub fn defence(root_best: Move, judged: &[(Move, Option<Eval>)]) -> Option<Defence> {
    let fate = |f: Fate| -> Vec<Move> {
        judged
            .iter()
            .filter(|(_, after)| Fate::of(*after) == f)
            .map(|(mv, _)| *mv)
            .collect()
    };
    let losing = fate(Fate::Losing);
    let holding = fate(Fate::Holding);
    if losing.is_empty() || holding.is_empty() {
        return None;
    }
    let hold = if holding.contains(&root_best) {
        root_best
    } else {
        let mut best: Option<(i64, Move)> = None;
        for (mv, after) in judged {
            if let (Some(after), Fate::Holding) = (after, Fate::of(*after)) {
                // Higher is better for the mover; a forced loss of the opponent first.
                let v = Judgement::mover_value(*after, i64::MAX);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, *mv));
                }
            }
        }
        best.map(|(_, mv)| mv)?
    };
    Some(Defence {
        hold,
        losing,
        holding,
        unjudged: fate(Fate::Unjudged).len(),
    })
}

/// The candidate moves of a defence position: the empty cells within two of a stone,
/// the most crowded first (each stone at distance one counts 2, at distance two 1), then
/// by cell; at most `cap`.
pub fn candidates(p: &Position, cap: usize) -> Vec<Move> {
    let (m, n) = (p.m(), p.n());
    let mut crowded: Vec<(u32, usize)> = Vec::new();
    for cell in 0..p.cells().len() {
        if p.cell(cell) != Cell::Empty || !p.is_legal(Move::mark(cell)) {
            continue;
        }
        let (row, col) = ((cell / m) as i64, (cell % m) as i64);
        let mut weight = 0;
        for dr in -2..=2i64 {
            for dc in -2..=2i64 {
                let (r, c) = (row + dr, col + dc);
                if (dr, dc) == (0, 0) || r < 0 || c < 0 || r >= n as i64 || c >= m as i64 {
                    continue;
                }
                if matches!(p.cell(r as usize * m + c as usize), Cell::Mark(_)) {
                    weight += 3 - dr.abs().max(dc.abs()) as u32;
                }
            }
        }
        if weight > 0 {
            crowded.push((weight, cell));
        }
    }
    crowded.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    crowded
        .into_iter()
        .take(cap)
        .map(|(_, cell)| Move::mark(cell))
        .collect()
}

/// A move as an engine's answer shows it: its value where the engine evaluated it
/// (`None`: no value shown, as the API leaves it out), and its outcome.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Shown {
    /// The value on the API's scale, -1 to 1.
    pub value: Option<f64>,
    /// The proven outcome for the side to move.
    pub outcome: Outcome,
}

impl Shown {
    /// How `analysis`, whose values are `values` ([`Values::moves`], in the same order),
    /// shows `mv`: the best value of an evaluated entry for it (as the API's `scores`
    /// grid), with that entry's outcome.
    pub fn of(analysis: &Analysis, values: &Values, mv: Move) -> Shown {
        let mut shown = Shown {
            value: None,
            outcome: Outcome::Unknown,
        };
        for (e, &v) in analysis.moves.iter().zip(&values.moves) {
            if e.mv != mv || !e.evaluated {
                continue;
            }
            if shown.value.is_none_or(|s| v > s) {
                shown = Shown {
                    value: Some(v),
                    outcome: e.eval.outcome,
                };
            }
        }
        shown
    }

    /// Shown won strictly: a proven win.
    pub fn won(&self) -> bool {
        self.value.is_some() && self.outcome == Outcome::Win
    }

    /// Shown winning loosely: a value of [`WINNING_VALUE`] or more.
    pub fn winning(&self) -> bool {
        self.value.is_some_and(|v| v >= WINNING_VALUE)
    }

    /// Shown lost: a value of [`LOSING_VALUE`] or less.
    pub fn lost(&self) -> bool {
        self.value.is_some_and(|v| v <= LOSING_VALUE)
    }
}

/// Whether `hold`'s value is above every one of `losing` (a move without a value is
/// above nothing and below nothing: it fails).
pub fn above_every(hold: Shown, losing: &[Shown]) -> bool {
    hold.value
        .is_some_and(|h| losing.iter().all(|l| l.value.is_some_and(|v| h > v)))
}

/// One engine's counts over both suites.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Positions of the winning suite answered.
    pub winning: usize,
    /// Of them, where the judge's winning move was shown a proven win.
    pub won: usize,
    /// Where it was shown at [`WINNING_VALUE`] or more.
    pub won_loosely: usize,
    /// Where the engine's own move was shown a proven win (the position shown won,
    /// whichever winning move it chose).
    pub own_won: usize,
    /// Positions of the defence suite answered.
    pub defence: usize,
    /// Their losing moves.
    pub losing: usize,
    /// Of them, those shown at [`LOSING_VALUE`] or below.
    pub shown_lost: usize,
    /// Positions where the holding move's value was above every losing move's.
    pub held_above: usize,
    /// Positions where the engine's own move was one of the losing moves.
    pub own_losing: usize,
    /// Labelled moves (winning, holding or losing) shown without a value.
    pub unvalued: usize,
}

impl Tally {
    /// Counts a winning position whose winning move was shown `win`, and the engine's
    /// own move `own`.
    pub fn add_winning(&mut self, win: Shown, own: Shown) {
        self.winning += 1;
        self.own_won += usize::from(own.won());
        self.won += usize::from(win.won());
        self.won_loosely += usize::from(win.winning());
        self.unvalued += usize::from(win.value.is_none());
    }

    /// Counts a defence position whose holding move was shown `hold` and its losing
    /// moves `losing`; `own_loses` when the engine's own move is one of them.
    pub fn add_defence(&mut self, hold: Shown, losing: &[Shown], own_loses: bool) {
        self.defence += 1;
        self.own_losing += usize::from(own_loses);
        self.losing += losing.len();
        self.shown_lost += losing.iter().filter(|l| l.lost()).count();
        self.held_above += usize::from(above_every(hold, losing));
        self.unvalued +=
            usize::from(hold.value.is_none()) + losing.iter().filter(|l| l.value.is_none()).count();
    }

    /// The share of losing moves shown lost (0 without any).
    pub fn lost_share(&self) -> f64 {
        if self.losing == 0 {
            0.0
        } else {
            self.shown_lost as f64 / self.losing as f64
        }
    }

    /// The counts as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "winning_positions": self.winning,
            "winning_shown_won": self.won,
            "winning_shown_at_least_half": self.won_loosely,
            "winning_own_move_shown_won": self.own_won,
            "defence_positions": self.defence,
            "losing_moves": self.losing,
            "losing_shown_at_most_minus_half": self.shown_lost,
            "losing_share": self.lost_share(),
            "hold_above_every_losing": self.held_above,
            "own_move_losing": self.own_losing,
            "unvalued_moves": self.unvalued,
        })
    }
}

/// The side to move as the suite line writes it.
pub fn side_text(p: Player) -> String {
    p.as_char().to_string()
}
