//! Difficulty: `level` 1..=10 for every engine, and `mistake_probability` at the root
//! for the one-ply engines.
//!
//! A level weakens an engine the way people are weaker:
//! - **shallower reading**: below 10 the search gets a node cap, [`nodes_per_second`] of
//!   the engine times the request's time budget, divided by 4 per level below 10 (level
//!   9 a quarter, level 8 a sixteenth, ...); the time budget stays as a cap, and a
//!   request's own node limit is divided the same way. Being a node cap, a level's search
//!   is reproducible with a seed.
//! - **choosing among the top candidates** ([`humanize`]): the move is drawn from the
//!   [`breadth`] best evaluated moves, each weighted by `exp(-loss / temperature)` where
//!   the loss is what its value gives up against the best one's (plus a small step per
//!   rank), the temperature growing as the level falls (the idea of Stockfish's skill
//!   level): a near-equal move is often played, a clearly worse one rarely.
//! - **what it never overlooks** ([`sight`], [`tactics`]): from level 3 up a win now and
//!   the block of the opponent's; from level 6 up also an open four, a double four or a
//!   four-three, and their blocks. The choice is made among those moves when the position
//!   asks for one.
//!
//! `mistake_probability` p keeps its meaning, each branch overlooked with probability p:
//! `perfect` overlooks branches inside its search; for the one-ply engines (`threat`,
//! `priority`, `greedy`) every branch is a root move, so each root move is overlooked
//! with probability p and the best move not overlooked is played ([`overlook_root`]);
//! at p = 1 every engine that accepts it plays a random legal move; the other tree
//! engines refuse the field ([`honours_mistakes`]).
//!
//! Level 10 with no mistakes is the engine itself, untouched: same moves, same RNG draws.
//! The ladder these constants make is measured with `kinrow arena` in docs/strength.md.

use rand::rngs::StdRng;
use rand::RngExt;

use super::value;
use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::tactics;
use crate::core::tactics::Sight;
use crate::core::types::Outcome;
use crate::core::types::{Analysis, Evaluation, Limits, MoveEval};
use crate::registry::EngineKind;
use kinrow_game::{Move, Position};

/// Full strength: the default.
pub const FULL: u8 = 10;
/// The weakest level.
pub const MIN: u8 = 1;

/// The temperature of a level's choice, in value units (0 at level 10: always the best).
pub fn temperature(level: u8) -> f64 {
    match level {
        0 | 1 => 0.6,
        2 => 0.45,
        3 => 0.32,
        4 => 0.24,
        5 => 0.17,
        6 => 0.12,
        7 => 0.08,
        8 => 0.05,
        9 => 0.025,
        _ => 0.0,
    }
}

/// How many of the best evaluated moves a level chooses among (1 at level 10).
pub fn breadth(level: u8) -> usize {
    1 + usize::from(FULL.saturating_sub(level.max(MIN)))
}

/// The loss added per place in the engine's order: equal values still favour the move
/// the engine put first.
const RANK_STEP: f64 = 0.1;

/// What a level never overlooks: nothing at levels 1 and 2, fives from 3, fours from 6.
pub fn sight(level: u8) -> Option<Sight> {
    match level {
        0..=2 => None,
        3..=5 => Some(Sight::Fives),
        _ => Some(Sight::Fours),
    }
}

/// A conservative node rate of `kind` (its registry row's): a level's node cap is this
/// times the time budget. Engines that do not count nodes in their strength (the
/// one-ply ones) have none.
pub fn nodes_per_second(kind: EngineKind) -> Option<f64> {
    kind.row().nodes_per_second
}

/// True for the engines whose every branch is a root move: they look one ply.
pub fn one_ply(kind: EngineKind) -> bool {
    kind.row().one_ply
}

/// True when `kind` honours `mistake_probability`: `perfect` inside its search, the
/// one-ply engines at the root. The others refuse it rather than ignore it.
pub fn honours_mistakes(kind: EngineKind) -> bool {
    kind.row().mistakes
}

/// True when `kind` at `level` with `mistake_probability` is the engine itself: full
/// strength, no root mistakes to apply, and not every choice random (p = 1).
pub fn untouched(kind: EngineKind, level: u8, mistake_probability: f64) -> bool {
    level >= FULL && mistake_probability < 1.0 && !(one_ply(kind) && mistake_probability > 0.0)
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
/// and makes the first one kept the chosen move; when every move is overlooked (always
/// at p = 1), a random legal move. Returns true when the choice changed.
pub fn overlook_root(
    position: &Position,
    analysis: &mut Analysis,
    p: f64,
    rng: &mut StdRng,
) -> bool {
    if p <= 0.0 || analysis.moves.is_empty() {
        return false;
    }
    if p >= 1.0 {
        return random_move(position, analysis, rng);
    }
    let kept = analysis
        .moves
        .iter()
        .position(|e| position.is_legal(e.mv) && !rng.random_bool(p));
    match kept {
        Some(i) => promote(analysis, i),
        None => random_move(position, analysis, rng),
    }
}

/// Makes a random legal move the chosen one. Returns true when that changed the choice.
pub fn random_move(position: &Position, analysis: &mut Analysis, rng: &mut StdRng) -> bool {
    let legal = position.legal_moves();
    if legal.is_empty() {
        return false;
    }
    let mv = legal[rng.random_range(0..legal.len())];
    choose(analysis, mv)
}

/// A level's choice (see the top of the file): among the moves [`sight`] says must be
/// played when the position asks for some, else among all, the [`breadth`] first in the
/// engine's order are weighed by `exp(-loss / temperature)` and one is drawn. Returns
/// true when the choice changed.
pub fn humanize(
    kind: EngineKind,
    level: u8,
    position: &Position,
    analysis: &mut Analysis,
    rng: &mut StdRng,
) -> bool {
    if level >= FULL || analysis.moves.is_empty() {
        return false;
    }
    let must = sight(level).and_then(|s| tactics::must_play(position, s));
    let mut probe = analysis.clone();
    let values = value::values(kind, position, &mut probe).moves;
    let pool: Vec<usize> = (0..analysis.moves.len())
        .filter(|&i| {
            let mv = analysis.moves[i].mv;
            position.is_legal(mv) && must.as_ref().is_none_or(|m| m.contains(&mv))
        })
        .take(breadth(level))
        .collect();
    // A move the engine did not search counts as no better than the worst it did.
    let floor = pool
        .iter()
        .filter(|&&i| analysis.moves[i].evaluated)
        .map(|&i| values[i])
        .fold(f64::INFINITY, f64::min);
    let value = |i: usize| {
        if analysis.moves[i].evaluated || !floor.is_finite() {
            values[i]
        } else {
            floor
        }
    };
    if pool.is_empty() {
        // The moves that must be played were not among the evaluated ones.
        return match must.as_deref() {
            Some([mv, ..]) => choose(analysis, *mv),
            _ => false,
        };
    }
    let top = pool
        .iter()
        .map(|&i| value(i))
        .fold(f64::NEG_INFINITY, f64::max);
    let t = temperature(level).max(1e-9);
    let weights: Vec<f64> = pool
        .iter()
        .enumerate()
        .map(|(rank, &i)| (-((top - value(i)).max(0.0) + RANK_STEP * rank as f64) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.random_range(0.0..1.0) * total;
    let mut pick = pool[pool.len() - 1];
    for (w, &i) in weights.iter().zip(&pool) {
        if x < *w {
            pick = i;
            break;
        }
        x -= w;
    }
    promote(analysis, pick)
}

/// Makes `mv` the chosen move, adding it unevaluated when the engine did not list it.
fn choose(analysis: &mut Analysis, mv: Move) -> bool {
    match analysis.moves.iter().position(|e| e.mv == mv) {
        Some(i) => promote(analysis, i),
        None => {
            analysis.moves.push(MoveEval::unsearched(
                mv,
                Evaluation {
                    score: f64::NEG_INFINITY,
                    outcome: Outcome::Unknown,
                    plies: None,
                },
            ));
            promote(analysis, analysis.moves.len() - 1)
        }
    }
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

/// An engine at a level: [`limits`] before the search; after it, a random legal move at
/// `mistake_probability` 1, else [`overlook_root`] with a one-ply engine's
/// `mistake_probability`, then the level's [`humanize`].
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
            self.inner
                .analyze_in(position, &run, &mut budget.within(&run), ctx, rng)
        };
        if given.mistake_probability >= 1.0 {
            random_move(position, &mut analysis, rng);
            return analysis;
        }
        if one_ply(self.kind) {
            overlook_root(position, &mut analysis, given.mistake_probability, rng);
        }
        humanize(self.kind, self.level, position, &mut analysis, rng);
        if self.level < FULL {
            // The level's node cap left moves without a value, perhaps the one played:
            // what the budget has left values them, so that the answer's evaluation
            // is the computed value of the move played.
            self.inner
                .value_unsearched(position, &mut analysis, budget, ctx);
            analysis.stats.nodes = budget.nodes;
            analysis.stats.elapsed = budget.elapsed();
        }
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
    fn choices_widen_as_the_level_falls() {
        for level in MIN..FULL {
            assert!(temperature(level) > temperature(level + 1), "level {level}");
            assert!(breadth(level) > breadth(level + 1), "level {level}");
        }
        assert_eq!(temperature(FULL), 0.0);
        assert_eq!(breadth(FULL), 1);
    }
}
