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
//! - `perfect` has no heuristic score: a move it could not prove has no value (it is
//!   listed `evaluated: false`, never as a 0 that reads as a draw).
//!
//! On top of the mapping, one scale for every number of an answer ([`one_scale`], after
//! [`prove_losses`] and [`raw_in_unit`]): a move's value is comparable with the chosen
//! move's only where it is a proof or was searched as deep; an estimate above the chosen
//! move's value is shown as an upper bound clamped to it (the main search did not prefer
//! it), so no value in `moves` or `scores` outshines the chosen move's unless proven
//! better. docs/values.md shows what estimates and bounds look like in an answer.
//!
//! A fit is chosen per engine, per path for `auto` (`perfect`, `pattern search`,
//! `minimax`: the units differ) and per board family ([`Family`]). The constants in
//! [`fit`] were fitted by `kinrow calibrate` (crates/kinrow-lab/src/calibrate.rs); its tables of Brier
//! scores and reliability are in docs/calibration.md.

use std::collections::HashMap;

use crate::core::budget::Budget;
use crate::core::tactics;
use crate::core::types::{Analysis, Bound, Evaluation, Limits, Outcome};
use crate::registry::EngineKind;
use crate::search::auto::PATTERN_MATE;
use crate::search::tss::{Tss, Verdict};
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
    /// Each move's `raw` in the unit its engine names (`/v1/engines`), in
    /// `analysis.moves` order; `None` where the engine's score is no number of that unit
    /// ([`raw_in_unit`]).
    pub raw: Vec<Option<f64>>,
    /// The evaluation's `raw`, as in `raw`.
    pub evaluation_raw: Option<f64>,
    /// Each move's distance bound, in `analysis.moves` order: `Upper` where its `plies`
    /// only bound the distance from above (a loss [`prove_losses`] proved: the opponent
    /// wins in at most that many plies), `Exact` elsewhere.
    pub plies_bound: Vec<Bound>,
    /// Below full strength, the place in `moves` of the move played when it is not the
    /// first: the best stays first and the played one says so ([`one_scale`]).
    pub played: Option<usize>,
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
/// whatever the engine ([`prove_no_line_fits`], [`prove_wins_now`], [`prove_losses`]),
/// so the outcomes shown agree with the values; a move `perfect` (or `auto`'s perfect
/// path) could not prove is then listed without a value ([`unproven_has_no_value`]).
pub fn values(kind: EngineKind, position: &Position, analysis: &mut Analysis) -> Values {
    prove_no_line_fits(position, analysis);
    prove_wins_now(position, analysis);
    let lost = prove_losses(position, analysis);
    let scale = Scale::of(kind, analysis);
    unproven_has_no_value(scale, analysis);
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
        raw: analysis
            .moves
            .iter()
            .map(|e| raw_in_unit(scale, e.eval.score))
            .collect(),
        evaluation_raw: raw_in_unit(scale, analysis.evaluation.score),
        plies_bound: bounds_of(analysis, &lost),
        played: None,
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
    let lost = prove_losses(position, analysis);
    let of = |e: &Evaluation| proven(e.outcome).unwrap_or_else(|| value(e.score));
    let moves = analysis.moves.iter().map(|e| of(&e.eval)).collect();
    let raw = |x: f64| x.is_finite().then_some(x);
    Values {
        evaluation: of(&analysis.evaluation),
        moves,
        raw: analysis.moves.iter().map(|e| raw(e.eval.score)).collect(),
        evaluation_raw: raw(analysis.evaluation.score),
        plies_bound: bounds_of(analysis, &lost),
        played: None,
        scale: Scale::External,
        family: Family::of(position.m(), position.n()),
    }
}

/// Per move, whether its `plies` only bound the distance: a loss to continuous fours
/// ([`prove_losses`]), or a proven win or loss whose score (which counts the plies) is only
/// a bound because the budget ran out before the distance was pinned (`perfect` under
/// gravity); either way the end comes within at most `plies`.
fn bounds_of(analysis: &Analysis, lost: &[Move]) -> Vec<Bound> {
    analysis
        .moves
        .iter()
        .map(|e| {
            let decided = matches!(e.eval.outcome, Outcome::Win | Outcome::Loss);
            if lost.contains(&e.mv)
                || (decided && e.eval.plies.is_some() && e.bound != Bound::Exact)
            {
                Bound::Upper
            } else {
                Bound::Exact
            }
        })
        .collect()
}

/// `raw` as the unit of `scale` names it, `None` where `score` is no number of it: not
/// finite (a move a level added without a search), or the pattern search's clamp
/// [`PATTERN_MATE`] of a value near a win that is no proof (its unit is the window
/// score, and +-(1e15 - plies) for threat-space proofs). The clamp is a zone, not a
/// point: the root's parity shift moves every unproven value alike, a clamped one too
/// (-`PATTERN_MATE` - 21 was answered as a raw value).
pub fn raw_in_unit(scale: Scale, score: f64) -> Option<f64> {
    if !score.is_finite() {
        return None;
    }
    match scale {
        Scale::Pattern | Scale::Learned if at_the_clamp(score) => None,
        _ => Some(score),
    }
}

/// Whether a pattern-search score lies at its clamp [`PATTERN_MATE`] (give or take the
/// parity shift) or between it and the threat-space proofs' +-(1e15 - plies): no
/// evaluation comes within a million of the clamp, and no proof is that long.
fn at_the_clamp(score: f64) -> bool {
    const SLACK: f64 = 1e6;
    let a = score.abs();
    a >= PATTERN_MATE as f64 - SLACK && a < crate::core::root::WinScale::SEARCH.win - SLACK
}

/// On `perfect`'s scale an unproven move has no heuristic value: it is listed without
/// one (`evaluated` false, depth 0), so that no bare 0 reads as a draw.
pub fn unproven_has_no_value(scale: Scale, analysis: &mut Analysis) {
    if scale != Scale::Perfect {
        return;
    }
    for e in analysis
        .moves
        .iter_mut()
        .filter(|e| e.eval.outcome == Outcome::Unknown)
    {
        e.evaluated = false;
        e.depth = 0;
        e.bound = Bound::Exact;
    }
}

/// The nodes [`prove_losses`] may search: a node cap, not a time, so that an answer
/// repeats with its seed; continuous fours are narrow, and this is milliseconds.
pub const LOSS_PROOF_NODES: u64 = 100_000;

/// Marks every unproven mark of `analysis` that the opponent's continuous fours refute
/// as a proven loss: where the opponent would win by fours if the side to move passed
/// (and the side to move has no fours to win first), every move off the cells that could
/// stop those fours ([`Tss::defences`]) loses in at most the fours' plies plus one (the
/// threat-space root's "every other move loses"). Returns the moves so proven: their
/// `plies` are an upper bound of the distance. Boards with k < 4, gravity boards
/// (`perfect` solves those) and a defender holding remove or bomb are left as they are.
pub fn prove_losses(position: &Position, analysis: &mut Analysis) -> Vec<Move> {
    let unknown = |e: &crate::core::types::MoveEval| {
        e.eval.outcome == Outcome::Unknown && e.mv.piece == Piece::Mark
    };
    if position.k() < 4
        || position.gravity()
        || position.is_over()
        || !analysis.moves.iter().any(unknown)
    {
        return Vec::new();
    }
    let me = position.to_move();
    let opp = me.opponent();
    let limits = Limits {
        nodes: Some(LOSS_PROOF_NODES),
        ..Limits::with_time(std::time::Duration::from_secs(10))
    };
    let mut budget = Budget::new(&limits);
    let mut tss = Tss::new(position);
    if !matches!(tss.vcf(&mut budget, me), Verdict::NoProof) {
        return Vec::new();
    }
    let Verdict::Win(threat) = tss.vcf(&mut budget, opp) else {
        return Vec::new();
    };
    let defences = tss.defences(opp, &threat);
    let plies = threat.plies() + 1;
    let mut lost = Vec::new();
    for e in analysis.moves.iter_mut() {
        if !unknown(e) || defences.contains(&e.mv) {
            continue;
        }
        e.eval.outcome = Outcome::Loss;
        e.eval.plies = Some(plies);
        // A proof reads to its end.
        e.evaluated = true;
        e.depth = plies;
        e.bound = Bound::Exact;
        lost.push(e.mv);
    }
    if lost.contains(&analysis.best) && analysis.evaluation.outcome == Outcome::Unknown {
        analysis.evaluation.outcome = Outcome::Loss;
        analysis.evaluation.plies = Some(plies);
    }
    lost
}

/// One scale for the answer's numbers (see the top of the file). `full_strength`: the
/// chosen move is the engine's own choice (level 10, no mistakes); below it the engine
/// played a worse move on purpose.
///
/// The reference is the chosen move's value and depth at full strength; below it the
/// best value of the moves searched as deep as the deepest (or proven). Every unproven
/// move above the reference is an estimate the main search did not prefer: its value
/// becomes the reference, marked `bound: upper`. Then `moves` is ordered best first
/// (proofs and exact values before bounds of the same value, the engine's order among
/// equals), the chosen move first at full strength; below it the played move keeps its
/// place by value and [`Values::played`] names it.
pub fn one_scale(analysis: &mut Analysis, values: &mut Values, full_strength: bool) {
    let n = analysis.moves.len();
    if n == 0 || values.moves.len() != n {
        return;
    }
    let chosen = analysis.moves.iter().position(|e| e.mv == analysis.best);
    let is_proven = |e: &crate::core::types::MoveEval| e.eval.outcome != Outcome::Unknown;
    let reference = if full_strength {
        chosen
            .filter(|&i| analysis.moves[i].evaluated)
            .map(|i| values.moves[i])
    } else {
        let deepest = analysis
            .moves
            .iter()
            .filter(|e| e.evaluated && !is_proven(e) && e.bound == Bound::Exact)
            .map(|e| e.depth)
            .max();
        analysis
            .moves
            .iter()
            .zip(&values.moves)
            .filter(|(e, _)| {
                e.evaluated
                    && (is_proven(e) || (e.bound == Bound::Exact && Some(e.depth) >= deepest))
            })
            .map(|(_, &v)| v)
            .reduce(f64::max)
    };
    if let Some(top) = reference {
        for (e, v) in analysis.moves.iter_mut().zip(values.moves.iter_mut()) {
            if e.evaluated && !is_proven(e) && *v > top {
                *v = top;
                e.bound = Bound::Upper;
            }
        }
    }
    // Best first: the chosen move first at full strength, then evaluated moves by value
    // (exact before bounds), then the moves without a value in the engine's order.
    let key = |i: usize| {
        let e = &analysis.moves[i];
        let first = full_strength && Some(i) == chosen;
        (
            !first,
            !e.evaluated,
            -if e.evaluated { values.moves[i] } else { 0.0 },
            e.bound != Bound::Exact,
        )
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.cmp(&kb.1))
            .then(ka.2.total_cmp(&kb.2))
            .then(ka.3.cmp(&kb.3))
    });
    values.moves = order.iter().map(|&i| values.moves[i]).collect();
    values.raw = order.iter().map(|&i| values.raw[i]).collect();
    values.plies_bound = order.iter().map(|&i| values.plies_bound[i]).collect();
    let mut moves: Vec<Option<crate::core::types::MoveEval>> = std::mem::take(&mut analysis.moves)
        .into_iter()
        .map(Some)
        .collect();
    analysis.moves = order.iter().map(|&i| moves[i].take().unwrap()).collect();
    values.played = if full_strength {
        None
    } else {
        analysis
            .moves
            .iter()
            .position(|e| e.mv == analysis.best)
            .filter(|&i| i > 0)
    };
    if let Some(i) = analysis.moves.iter().position(|e| e.mv == analysis.best) {
        if analysis.moves[i].evaluated && !is_proven(&analysis.moves[i]) {
            values.evaluation = values.moves[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::root::WinScale;

    /// `auto` plays a proven draw rather than a fallback's estimate up to
    /// [`crate::search::auto::DRAW_MARGIN`]: on every scale its fallback answers in, on
    /// the boards `perfect` solves (at most 128 cells), that estimate must read no
    /// better than the draw, or the chosen move would show below the draw it passed over.
    #[test]
    fn auto_s_draw_margin_reads_no_better_than_a_draw() {
        let edge = crate::search::auto::DRAW_MARGIN;
        for scale in [Scale::Minimax, Scale::Pattern, Scale::Learned] {
            for family in [Family::Small, Family::Medium] {
                let eval = Evaluation {
                    score: edge,
                    outcome: Outcome::Unknown,
                    plies: None,
                };
                let v = value_of(&eval, scale, family, None);
                assert!(v >= 0.0, "{scale:?} {family:?}: {v}");
            }
        }
    }

    #[test]
    fn a_clamped_search_value_has_no_raw_even_when_shifted() {
        let clamp = PATTERN_MATE as f64;
        for scale in [Scale::Pattern, Scale::Learned] {
            assert_eq!(raw_in_unit(scale, -clamp), None);
            // The parity shift of a clamped value (seen: -PATTERN_MATE - 21).
            assert_eq!(raw_in_unit(scale, -clamp - 21.0), None);
            assert_eq!(raw_in_unit(scale, clamp - 21.0), None);
            // An evaluation and a threat-space proof keep theirs.
            assert_eq!(raw_in_unit(scale, -350.0), Some(-350.0));
            let proof = WinScale::SEARCH.proven(Outcome::Loss, 9);
            assert_eq!(raw_in_unit(scale, proof), Some(proof));
        }
        // Another engine's unit is its own.
        assert_eq!(
            raw_in_unit(Scale::Minimax, -clamp - 21.0),
            Some(-clamp - 21.0)
        );
    }
}
