//! The pro and long pro rules in every engine: [`ProRoot`] wraps each engine the registry
//! builds, so that no engine answers a move the opening forbids.
//!
//! The rule restricts two moves of x: the first stone (only the centre) and x's second
//! stone (outside the centre's 5x5 / 7x7 square). Only the root of a search can be at
//! those steps in practice (a search from the empty board does not read three plies
//! under any budget worth the name), so the rule is enforced there:
//! - the first stone: the engine searches as usual and the root driver
//!   ([`crate::core::root::finish`]) drops every cell but the centre, which the
//!   position's legality forbids ([`Position::forbidden`]);
//! - x's second stone: the tree searches (`auto`, `minimax`, `mcts`) would spend their
//!   budget on the cells next to the stones, which the rule forbids, so the root is split:
//!   the allowed cells nearest the stones (at most [`CANDIDATES`]) are each played and
//!   the engine searches the position after them with an equal share of the budget; a
//!   cell's score is the negated score of that search. Those searches report nothing to
//!   a watching caller (their lines are o's replies); the split root reports its own
//!   lines, the cells searched so far best first, after each cell. `perfect` honours the rule through
//!   the position's own legal moves, and the one-ply engines score every cell, so both
//!   only need the root driver's filter.
//!
//! Whatever path answered, [`legal_only`] checks the answer last (an anytime answer taken
//! at a deadline does not pass through the root driver).

use rand::rngs::StdRng;

use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::progress::Line;
use crate::core::root;
use crate::core::root::{Choice, RootResults};
use crate::core::types::{
    sort_best_first, Analysis, Bound, Evaluation, Limits, MoveEval, Outcome, Scale,
};
use kinrow_game::{centre, distance, Cell, Coord, Move, Player, Position};

/// How many allowed cells the split root searches for x's second stone.
pub const CANDIDATES: usize = 12;

/// An engine that honours the pro rules at the root (see the top of the file).
pub struct ProRoot {
    /// Whether `inner` searches a tree (auto, minimax, mcts): then x's second stone is
    /// chosen by searching each allowed candidate cell (the split root).
    searches: bool,
    /// The scale of the inner engine's answers (its registry row's), for the reports.
    scale: fn(&Analysis) -> Scale,
    inner: Box<dyn Engine>,
}

impl ProRoot {
    /// `inner` with the pro rules enforced at its root; `searches` as on [`ProRoot`],
    /// `scale` the scale of `inner`'s answers.
    pub fn new(searches: bool, scale: fn(&Analysis) -> Scale, inner: Box<dyn Engine>) -> ProRoot {
        ProRoot {
            searches,
            scale,
            inner,
        }
    }
}

impl Engine for ProRoot {
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        if !position.opening_restricted() {
            return self.inner.analyze_in(position, limits, budget, ctx, rng);
        }
        let split = position.marks(Player::X) == 1 && self.searches;
        let mut analysis = if split {
            self.split_root(position, limits, budget, ctx, rng)
        } else {
            self.inner.analyze_in(position, limits, budget, ctx, rng)
        };
        legal_only(position, &mut analysis);
        analysis
    }

    fn value_unsearched(
        &self,
        position: &Position,
        analysis: &mut Analysis,
        budget: &mut Budget,
        ctx: &mut SearchContext,
    ) {
        // (Under the pro rule only the moves already listed are legal: none is added.)
        self.inner.value_unsearched(position, analysis, budget, ctx);
    }
}

impl ProRoot {
    /// x's second stone: each of the allowed cells nearest the stones searched on its own.
    fn split_root(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let cells = candidates(position);
        let mut moves = Vec::with_capacity(cells.len());
        let mut win_rates = Vec::new();
        let mut path = None;
        let mut depth = 0;
        let mut complete = true;
        let mut lines: Vec<Line> = Vec::new();
        for (i, &cell) in cells.iter().enumerate() {
            let mv = Move::mark(cell);
            let mut child = position.clone();
            child.play(mv);
            let fraction = 1.0 / (cells.len() - i) as f64;
            let mut share = budget.share(fraction);
            share.silence();
            let reply = self.inner.analyze_in(&child, limits, &mut share, ctx, rng);
            drop(share);
            let scale = (self.scale)(&reply);
            let e = &reply.evaluation;
            let outcome = match e.outcome {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                o => o,
            };
            moves.push(MoveEval {
                mv,
                eval: Evaluation {
                    score: -e.score,
                    outcome,
                    plies: e.plies.map(|p| p + 1),
                },
                action: None,
                evaluated: true,
                depth: reply.stats.depth + 1,
                bound: Bound::Exact,
            });
            if let Some(&(_, r)) = reply.win_rates.iter().find(|(m, _)| *m == reply.best) {
                win_rates.push((mv, 1.0 - r));
            }
            path = path.or(reply.stats.path);
            depth = depth.max(reply.stats.depth + 1);
            complete &= reply.stats.complete;
            if budget.observed() {
                lines.push(Line {
                    mv,
                    eval: moves[i].eval.clone(),
                    win_rate: win_rates.last().filter(|(m, _)| *m == mv).map(|&(_, r)| r),
                    pv: std::iter::once(mv)
                        .chain(reply.pv.iter().copied())
                        .collect(),
                });
                report(budget, depth, scale, &moves, &lines);
            }
        }
        let results = RootResults {
            moves,
            choice: Choice::AmongBest,
            line_after: Box::new(|_| Vec::new()),
            depth,
            complete,
            path,
        };
        let mut analysis = root::finish(position, results, budget, rng);
        analysis.win_rates = win_rates;
        analysis
    }
}

/// Reports the cells searched so far, best first, as the root's lines (as many as the
/// caller asks for).
fn report(budget: &Budget, depth: u32, scale: Scale, moves: &[MoveEval], lines: &[Line]) {
    let mut order = moves.to_vec();
    sort_best_first(&mut order);
    let best: Vec<Line> = order
        .iter()
        .take(budget.lines())
        .filter_map(|e| lines.iter().find(|l| l.mv == e.mv).cloned())
        .collect();
    budget.report(depth, scale, best);
}

/// The allowed empty cells nearest the stones (then nearest the centre, then in cell
/// order), at most [`CANDIDATES`].
fn candidates(position: &Position) -> Vec<usize> {
    let m = position.m();
    let stones: Vec<Coord> = (0..position.cells().len())
        .filter(|&i| position.cell(i) != Cell::Empty)
        .map(|i| Coord::new(i / m, i % m))
        .collect();
    let mid = centre(m, position.n());
    let mut cells: Vec<(usize, usize, usize)> = (0..position.cells().len())
        .filter(|&i| position.cell(i) == Cell::Empty && position.forbidden(i).is_none())
        .map(|i| {
            let c = Coord::new(i / m, i % m);
            let near = stones.iter().map(|&s| distance(c, s)).min().unwrap_or(0);
            (near, distance(c, mid), i)
        })
        .collect();
    cells.sort_unstable();
    cells.truncate(CANDIDATES);
    cells.into_iter().map(|(_, _, i)| i).collect()
}

/// Drops every move the position forbids from `analysis`; when the chosen move was one,
/// the best of the rest is chosen (or, when none is left, the first legal move).
pub fn legal_only(position: &Position, analysis: &mut Analysis) {
    analysis.moves.retain(|e| position.is_legal(e.mv));
    if position.is_legal(analysis.best) {
        return;
    }
    if analysis.moves.is_empty() {
        let Some(&mv) = position.legal_moves().first() else {
            return;
        };
        analysis
            .moves
            .push(MoveEval::unsearched(mv, analysis.evaluation.clone()));
    }
    let first = &analysis.moves[0];
    analysis.best = first.mv;
    analysis.evaluation = first.eval.clone();
    analysis.pv = vec![first.mv];
    analysis.lines.clear();
}
