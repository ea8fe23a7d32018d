//! Difficulty: `level` 1..=10 for every engine, and `mistake_probability` at the root
//! for the one-ply engines.
//!
//! A level weakens an engine in two ways, both generic:
//! - **budget**: below 10 the search gets a node cap, [`nodes_per_second`] of the engine
//!   times the request's time budget, divided by 4 per level below 10 (level 9 a
//!   quarter, level 8 a sixteenth, ...); the time budget stays as a cap, and a request's
//!   own node limit is divided the same way. Being a node cap, a level's search is
//!   reproducible with a seed.
//! - **careless moves**: with a probability that grows as the level falls ([`careless`])
//!   the engine's choice is replaced by a random legal move near the pieces on the board
//!   (within two cells of one). A budget alone does not make a ladder where a position
//!   is won by simple means (7x7x4 from the arena's openings: whoever moves first wins
//!   at every budget), and overlooking single moves rarely loses such a game, because
//!   several moves win; a plain careless move does.
//!
//! `mistake_probability` p keeps its meaning, each branch overlooked with probability p:
//! `perfect` overlooks branches inside its search; for the one-ply engines (`threat`,
//! `priority`, `greedy`) every branch is a root move, so each root move is overlooked
//! with probability p and the best move not overlooked is played ([`overlook_root`]);
//! the other tree engines refuse the field ([`honours_mistakes`]).
//!
//! Level 10 with no mistakes is the engine itself, untouched: same moves, same RNG draws.
//! The ladder these constants make is measured with `kinrow arena` in docs/strength.md.

use rand::rngs::StdRng;
use rand::RngExt;

use super::{Analysis, Budget, Engine, EngineKind, Limits, SearchContext};
use crate::game::Position;

/// Full strength: the default.
pub const FULL: u8 = 10;
/// The weakest level.
pub const MIN: u8 = 1;

/// The probability at `level` that a move is a careless one (0 at level 10).
pub fn careless(level: u8) -> f64 {
    match level {
        0 | 1 => 0.7,
        2 => 0.58,
        3 => 0.48,
        4 => 0.4,
        5 => 0.33,
        6 => 0.26,
        7 => 0.2,
        8 => 0.15,
        9 => 0.07,
        _ => 0.0,
    }
}

/// A conservative node rate of each engine (about half of what `kinrow bench` measures
/// on 15x15x5 and 9x9x5 on one core): a level's node cap is this times the time budget.
/// Engines that do not count nodes in their strength (the one-ply ones) have none.
pub fn nodes_per_second(kind: EngineKind) -> Option<f64> {
    match kind {
        EngineKind::Auto | EngineKind::Perfect => Some(400_000.0),
        EngineKind::Minimax => Some(1_000_000.0),
        EngineKind::Mcts => Some(50_000.0),
        EngineKind::Threat | EngineKind::Priority | EngineKind::Greedy => None,
    }
}

/// True for the engines whose every branch is a root move: they look one ply.
pub fn one_ply(kind: EngineKind) -> bool {
    matches!(
        kind,
        EngineKind::Threat | EngineKind::Priority | EngineKind::Greedy
    )
}

/// True when `kind` honours `mistake_probability`: `perfect` inside its search, the
/// one-ply engines at the root. The others refuse it rather than ignore it.
pub fn honours_mistakes(kind: EngineKind) -> bool {
    kind == EngineKind::Perfect || one_ply(kind)
}

/// True when `kind` at `level` with `mistake_probability` is the engine itself: full
/// strength, and no root mistakes to apply.
pub fn untouched(kind: EngineKind, level: u8, mistake_probability: f64) -> bool {
    level >= FULL && !(one_ply(kind) && mistake_probability > 0.0)
}

/// The limits of `kind` at `level`: the budget cut as the module explains.
pub fn limits(kind: EngineKind, level: u8, limits: &Limits) -> Limits {
    let mut out = limits.clone();
    if level >= FULL {
        return out;
    }
    let share = 0.25f64.powi(i32::from(FULL - level.max(MIN)));
    if let Some(rate) = nodes_per_second(kind) {
        let by_time = rate * limits.time.as_secs_f64() * share;
        let by_nodes = limits.nodes.map_or(f64::INFINITY, |n| n as f64 * share);
        out.nodes = Some(by_time.min(by_nodes).max(1.0) as u64);
    }
    out
}

/// Overlooks each root move with probability `p`, in the engine's order (best first),
/// and makes the first one kept the chosen move. Returns true when the choice changed.
pub fn overlook_root(
    position: &Position,
    analysis: &mut Analysis,
    p: f64,
    rng: &mut StdRng,
) -> bool {
    if p <= 0.0 || analysis.moves.is_empty() {
        return false;
    }
    let kept = analysis
        .moves
        .iter()
        .position(|e| position.is_legal(e.mv) && !rng.random_bool(p.min(1.0)));
    let Some(i) = kept else {
        return false;
    };
    promote(analysis, i)
}

/// With probability `p`, replaces the chosen move by a random legal move of `moves`
/// whose target is within two cells of a piece (any legal move when none is). Returns
/// true when the choice changed.
pub fn careless_move(
    position: &Position,
    analysis: &mut Analysis,
    p: f64,
    rng: &mut StdRng,
) -> bool {
    if p <= 0.0 || analysis.moves.is_empty() || !rng.random_bool(p.min(1.0)) {
        return false;
    }
    let legal: Vec<usize> = (0..analysis.moves.len())
        .filter(|&i| position.is_legal(analysis.moves[i].mv))
        .collect();
    let near: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&i| near_a_piece(position, analysis.moves[i].mv.cell()))
        .collect();
    let pool = if near.is_empty() { &legal } else { &near };
    if pool.is_empty() {
        return false;
    }
    let i = pool[rng.random_range(0..pool.len())];
    promote(analysis, i)
}

/// True when a piece stands within two cells (rows and columns) of `cell`.
fn near_a_piece(position: &Position, cell: usize) -> bool {
    let (m, n) = (position.m() as i64, position.n() as i64);
    let (r, c) = ((cell as i64) / m, (cell as i64) % m);
    (-2..=2).any(|dr| {
        (-2..=2).any(|dc| {
            let (rr, cc) = (r + dr, c + dc);
            (dr, dc) != (0, 0)
                && (0..n).contains(&rr)
                && (0..m).contains(&cc)
                && position.cell((rr * m + cc) as usize) != crate::game::Cell::Empty
        })
    })
}

/// Makes `analysis.moves[i]` the chosen move; true when that changed the choice.
fn promote(analysis: &mut Analysis, i: usize) -> bool {
    if analysis.moves[i].mv == analysis.best {
        return false;
    }
    let chosen = analysis.moves.remove(i);
    analysis.best = chosen.mv;
    analysis.evaluation = chosen.eval.clone();
    analysis.pv = vec![chosen.mv];
    analysis.moves.insert(0, chosen);
    true
}

/// An engine at a level: [`limits`] before the search; after it, [`overlook_root`] with
/// a one-ply engine's `mistake_probability`, then [`careless_move`] at the level's rate.
pub struct Leveled {
    kind: EngineKind,
    level: u8,
    inner: Box<dyn Engine>,
}

impl Leveled {
    /// `kind` at `level` (clamped to 1..=10).
    pub fn new(kind: EngineKind, level: u8) -> Leveled {
        Leveled {
            kind,
            level: level.clamp(MIN, FULL),
            inner: kind.build(),
        }
    }
}

impl Engine for Leveled {
    fn analyze_in(
        &self,
        position: &Position,
        given: &Limits,
        budget: &mut Budget,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let mut analysis = if self.level >= FULL {
            self.inner.analyze_in(position, given, budget, ctx, rng)
        } else {
            let run = limits(self.kind, self.level, given);
            let mut cut = budget.within(&run);
            let analysis = self.inner.analyze_in(position, &run, &mut cut, ctx, rng);
            budget.charge(cut.nodes);
            analysis
        };
        if one_ply(self.kind) {
            overlook_root(position, &mut analysis, given.mistake_probability, rng);
        }
        careless_move(position, &mut analysis, careless(self.level), rng);
        analysis
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn budgets_shrink_by_four_per_level_and_full_strength_is_untouched() {
        let given = Limits::with_time(Duration::from_millis(1000));
        assert_eq!(limits(EngineKind::Auto, 10, &given), given);
        assert_eq!(limits(EngineKind::Auto, 9, &given).nodes, Some(100_000));
        assert_eq!(limits(EngineKind::Auto, 8, &given).nodes, Some(25_000));
        assert_eq!(limits(EngineKind::Auto, 1, &given).nodes, Some(1));
        // A request's own node limit is cut too, and the smaller cap wins.
        let by_nodes = Limits {
            nodes: Some(1_000),
            ..given.clone()
        };
        assert_eq!(limits(EngineKind::Minimax, 9, &by_nodes).nodes, Some(250));
        // One-ply engines have no budget to cut.
        assert_eq!(limits(EngineKind::Threat, 1, &given), given);
    }

    #[test]
    fn mistakes_grow_as_the_level_falls() {
        for level in MIN..FULL {
            assert!(careless(level) > careless(level + 1), "level {level}");
        }
        assert_eq!(careless(FULL), 0.0);
    }
}
