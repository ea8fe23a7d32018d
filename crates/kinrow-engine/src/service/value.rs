//! The value scale: every engine's answer as the expected result for the side to move,
//! in [-1, 1] (1 a win, 0 a draw or an even position, -1 a loss).
//!
//! - A proven outcome maps exactly: win 1, draw 0, loss -1. A mark that completes a line
//!   is a proven win in one ply whatever the engine said ([`prove_wins_now`]).
//! - An unproven move maps its engine's own score `raw` through a logistic fitted on
//!   positions of self-play games with their results: `value = 2 σ(a·asinh(raw / s) + b) - 1`
//!   (the expected score `σ(..)` rescaled to [-1, 1]); `asinh` is a signed logarithm, so
//!   the engines' scores that grow by powers (window potentials, attack weights) fit
//!   with two numbers. Unproven values stay within ±[`UNPROVEN_MAX`], so a proven win
//!   is always above an unproven move and a proven loss below.
//! - `mcts` maps each move's win rate `w` (its playouts' mean result) as `raw = 2w - 1`,
//!   not the visit share its `raw` shows.
//! - `perfect` has no heuristic score: a move it could not prove is worth 0.
//!
//! A fit is chosen per engine, per path for `auto` (`perfect`, `pattern search`,
//! `minimax`: the units differ) and per board family ([`Family`]). The constants in
//! [`fit`] were fitted by `kinrow calibrate` (crates/kinrow-lab/src/calibrate.rs); its tables of Brier
//! scores and reliability are in docs/calibration.md.

use std::collections::HashMap;

use crate::core::tactics;
use crate::core::types::{Analysis, Evaluation, Outcome};
use crate::registry::EngineKind;
use kinrow_game::{Move, Piece, Position};

/// The largest value of an unproven move (its negative the smallest).
pub const UNPROVEN_MAX: f64 = 0.99;

/// Boards grouped by size, each with its own fit: the engines' scores mean different
/// things on a 7x7 board (most positions a few moves from the end) and on 15x15.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Up to 64 cells (calibrated on 7x7x4).
    Small,
    /// 65 to 144 cells (calibrated on 9x9x5).
    Medium,
    /// Over 144 cells (calibrated on 15x15x5).
    Large,
}

impl Family {
    /// The family of an `m` x `n` board.
    pub fn of(m: usize, n: usize) -> Family {
        match m * n {
            0..=64 => Family::Small,
            65..=144 => Family::Medium,
            _ => Family::Large,
        }
    }

    /// Its name in the calibration's report.
    pub fn name(self) -> &'static str {
        match self {
            Family::Small => "small (<= 64 cells)",
            Family::Medium => "medium (65-144 cells)",
            Family::Large => "large (> 144 cells)",
        }
    }
}

use crate::core::types::Scale;

impl Scale {
    /// The scale of `kind`'s answer `analysis` (its registry row's; for `auto`, from
    /// `stats.path`).
    pub fn of(kind: EngineKind, analysis: &Analysis) -> Scale {
        (kind.row().scale)(analysis)
    }
}

/// `value = 2 σ(a·asinh(raw / s) + b) - 1`, clamped to ±[`UNPROVEN_MAX`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Logistic {
    /// The raw score's unit of bend: `asinh` is nearly linear below it.
    pub s: f64,
    /// The slope.
    pub a: f64,
    /// The offset.
    pub b: f64,
}

impl Logistic {
    /// The fitted feature of a raw score.
    pub fn feature(&self, raw: f64) -> f64 {
        (raw / self.s).asinh()
    }

    /// The expected score in [0, 1] (1 a win, ½ a draw).
    pub fn expected(&self, raw: f64) -> f64 {
        let z = self.a * self.feature(raw) + self.b;
        1.0 / (1.0 + (-z).exp())
    }

    /// The value of an unproven `raw` in [-UNPROVEN_MAX, UNPROVEN_MAX].
    pub fn value(&self, raw: f64) -> f64 {
        let v = 2.0 * self.expected(raw) - 1.0;
        if v.is_nan() {
            0.0
        } else {
            v.clamp(-UNPROVEN_MAX, UNPROVEN_MAX)
        }
    }
}

/// The fitted mapping of `scale` on boards of `family`; `None` where the scale has no
/// heuristic score (`perfect`: an unproven move is worth 0).
///
/// Fitted by `kinrow calibrate --engines auto:nodes=40000,minimax:nodes=100000,mcts:nodes=2000,threat,priority,greedy
/// --boards "7,7,4;9,9,5;15,15,5" --games 24 --seed 1 --time-ms 2000` (24 self-play
/// games per engine and board; its output, with Brier scores and reliability tables, is
/// in docs/calibration.md). A family with fewer than 100 unproven positions (7x7x4 is mostly
/// proven) takes the medium family's fit; `auto`'s minimax path (k <= 3 or special
/// pieces held) has no sample of its own and takes `minimax`'s. A slope of 0 means the
/// engine's score did not predict the result (see docs/calibration.md): its unproven moves
/// all get the same value, near 0.
pub fn fit(scale: Scale, family: Family) -> Option<Logistic> {
    use Family::*;
    let l = |s: f64, a: f64, b: f64| Some(Logistic { s, a, b });
    match (scale, family) {
        (Scale::Perfect, _) => None,
        // The score is a logit already (see `value_of`).
        (Scale::Learned, _) => None,
        // An external brain's value comes through its own unit (`values_external`).
        (Scale::External, _) => None,
        (Scale::Pattern, Small | Medium) => l(1e2, 0.0856, -0.0219),
        (Scale::Pattern, Large) => l(3.162278e3, 38.0896, -0.2058),
        (Scale::Minimax, Small | Medium) => l(1e4, 11.6096, -0.0319),
        (Scale::Minimax, Large) => l(1e4, 17.4795, -0.1911),
        (Scale::Mcts, Small | Medium) => l(1e1, 18.0429, -0.0484),
        (Scale::Mcts, Large) => l(1e1, 32.1131, -0.1762),
        (Scale::Threat, Small) => l(1e4, 10.1385, -0.1853),
        (Scale::Threat, Medium) => l(1.0, 0.0, 0.0059),
        (Scale::Threat, Large) => l(1.0, 0.0, 0.0394),
        (Scale::Priority, Small) => l(1.0, 0.0, -0.0383),
        (Scale::Priority, Medium) => l(1.0, 0.0, -0.0228),
        (Scale::Priority, Large) => l(1.0, 0.0, -0.0180),
        (Scale::Greedy, Small | Medium) => l(3.162278e3, 17.1152, -1.2006),
        (Scale::Greedy, Large) => l(3.162278e3, 13.4742, -1.1653),
    }
}

/// The value of a proven outcome, `None` for `unknown`.
pub fn proven(outcome: Outcome) -> Option<f64> {
    match outcome {
        Outcome::Win => Some(1.0),
        Outcome::Draw => Some(0.0),
        Outcome::Loss => Some(-1.0),
        Outcome::Unknown => None,
    }
}

/// Marks every move of `analysis` that completes a line of the side to move as a win
/// in one ply, and every move that leaves two winning cells the opponent cannot both
/// take (an open four, a double four: [`tactics::sure_double_threats`]) as a win in three
/// where no shorter win was proven (and the evaluation too when the chosen move is
/// one): the engines that do not prove anything still get the value 1 for a win now,
/// and both ends of an open three read the same. An exact analysis (`stats.exact`) has
/// nothing to learn from this and is left as it is.
pub fn prove_wins_now(position: &Position, analysis: &mut Analysis) {
    if analysis.stats.exact {
        return;
    }
    let me = position.to_move();
    let wins = |mv: Move| mv.piece == Piece::Mark && position.wins_at(mv.cell(), me);
    let doubles = tactics::sure_double_threats(position);
    let proof = |mv: Move| {
        if wins(mv) {
            Some(1)
        } else if doubles.contains(&mv) {
            Some(3)
        } else {
            None
        }
    };
    let prove = |eval: &mut crate::core::types::Evaluation, plies: u32| {
        if eval.outcome != Outcome::Win || eval.plies.is_none_or(|p| p > plies) {
            eval.outcome = Outcome::Win;
            eval.plies = Some(plies);
        }
    };
    for e in analysis.moves.iter_mut() {
        if let Some(plies) = proof(e.mv) {
            prove(&mut e.eval, plies);
            // A move the engine had not valued is now read as deep as its proof.
            if !e.evaluated {
                e.depth = plies;
                e.bound = crate::core::types::Bound::Exact;
            }
            e.evaluated = true;
        }
    }
    if let Some(plies) = proof(analysis.best) {
        prove(&mut analysis.evaluation, plies);
    }
}

/// Marks every move and the evaluation a proven draw when no line of k cells fits on the
/// board: nobody can ever win, whatever any engine's search said.
pub fn prove_no_line_fits(position: &Position, analysis: &mut Analysis) {
    if !position.geometry().windows().all.is_empty() {
        return;
    }
    for e in analysis.moves.iter_mut() {
        e.eval.outcome = Outcome::Draw;
        e.eval.plies = None;
        // A move the engine had not valued is read one ply: the board admits no line.
        if !e.evaluated {
            e.depth = 1;
            e.bound = crate::core::types::Bound::Exact;
        }
        e.evaluated = true;
    }
    analysis.evaluation.outcome = Outcome::Draw;
    analysis.evaluation.plies = None;
}

/// The values of one answer: the evaluation's and each move's (in `analysis.moves` order).
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    /// The position's value (that of the chosen move).
    pub evaluation: f64,
    /// Each move's value, in `analysis.moves` order.
    pub moves: Vec<f64>,
    /// The fit that mapped the unproven moves (`None`: they are worth 0).
    pub scale: Scale,
    /// The board family of the fit.
    pub family: Family,
}

impl Values {
    /// The board-shaped grid: for every cell the best value of any evaluated move that
    /// targets it, `None` where none does. Row-major, `m` columns.
    pub fn grid(&self, analysis: &Analysis, m: usize, n: usize) -> Vec<Vec<Option<f64>>> {
        let mut grid = vec![vec![None; m]; n];
        for (e, &v) in analysis.moves.iter().zip(&self.moves) {
            if !e.evaluated {
                continue;
            }
            let c = e.mv.coord(m);
            let slot: &mut Option<f64> = &mut grid[c.row][c.col];
            if slot.is_none_or(|s| v > s) {
                *slot = Some(v);
            }
        }
        grid
    }
}

/// The score an unproven evaluation maps from: the raw score, or for `mcts` `2w - 1`
/// of the move's win rate `w` (`None` when it has none: never visited).
fn mapped_raw(scale: Scale, raw: f64, win_rate: Option<f64>) -> Option<f64> {
    match scale {
        Scale::Mcts => win_rate.map(|w| 2.0 * w - 1.0),
        _ => Some(raw),
    }
}

/// The value of one evaluation on `scale` (`win_rate`: `mcts`' rate for the move).
pub fn value_of(eval: &Evaluation, scale: Scale, family: Family, win_rate: Option<f64>) -> f64 {
    if let Some(v) = proven(eval.outcome) {
        return v;
    }
    if scale == Scale::External {
        // The brain's own unit gave the line its win rate (an info event's line).
        return win_rate.map_or(0.0, |w| (2.0 * w - 1.0).clamp(-UNPROVEN_MAX, UNPROVEN_MAX));
    }
    if scale == Scale::Learned {
        let v = 2.0 / (1.0 + (-eval.score / crate::eval::weights::UNIT).exp()) - 1.0;
        return if v.is_nan() {
            0.0
        } else {
            v.clamp(-UNPROVEN_MAX, UNPROVEN_MAX)
        };
    }
    match (fit(scale, family), mapped_raw(scale, eval.score, win_rate)) {
        (Some(f), Some(raw)) => f.value(raw),
        _ => 0.0,
    }
}

/// The values of `kind`'s answer `analysis` on `position`. First marks what is proven
/// whatever the engine ([`prove_no_line_fits`], [`prove_wins_now`]), so the outcomes
/// shown agree with the values.
pub fn values(kind: EngineKind, position: &Position, analysis: &mut Analysis) -> Values {
    prove_no_line_fits(position, analysis);
    prove_wins_now(position, analysis);
    let scale = Scale::of(kind, analysis);
    let family = Family::of(position.m(), position.n());
    let rates: HashMap<Move, f64> = analysis.win_rates.iter().copied().collect();
    let moves: Vec<f64> = analysis
        .moves
        .iter()
        .map(|e| value_of(&e.eval, scale, family, rates.get(&e.mv).copied()))
        .collect();
    let evaluation = match analysis.moves.iter().position(|e| e.mv == analysis.best) {
        Some(i) if proven(analysis.evaluation.outcome).is_none() => moves[i],
        _ => value_of(
            &analysis.evaluation,
            scale,
            family,
            rates.get(&analysis.best).copied(),
        ),
    };
    Values {
        evaluation,
        moves,
        scale,
        family,
    }
}

/// The values of an answer whose unproven scores map through `value` (an external
/// brain's own unit) rather than a fit: what is proven first, as in [`values`]; a move
/// the engine did not evaluate is worth nothing here (its grid cell stays empty).
pub fn values_by(
    position: &Position,
    analysis: &mut Analysis,
    value: impl Fn(f64) -> f64,
) -> Values {
    prove_no_line_fits(position, analysis);
    prove_wins_now(position, analysis);
    let of = |e: &Evaluation| proven(e.outcome).unwrap_or_else(|| value(e.score));
    let moves = analysis.moves.iter().map(|e| of(&e.eval)).collect();
    Values {
        evaluation: of(&analysis.evaluation),
        moves,
        scale: Scale::External,
        family: Family::of(position.m(), position.n()),
    }
}
