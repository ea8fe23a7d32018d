//! The [`Engine`] trait every engine implements: a position, limits, a budget, the
//! caller's context and a seeded RNG in, an [`Analysis`] out.

use rand::rngs::StdRng;

use super::budget::Budget;
use super::context::SearchContext;
use super::types::{Analysis, Limits};
use kinrow_game::Position;

/// A move-suggesting AI.
pub trait Engine: Send + Sync {
    /// Analyses `position`, which must be in progress (`!position.is_over()`), within
    /// `budget` (its time and nodes; `limits` gives the rest: depth, mistakes), counting
    /// every node it visits in `budget.nodes`, keeping what it keeps between calls in
    /// `ctx`, and drawing any randomness from `rng` so that the same seed gives the same
    /// answer. A composite engine hands its parts shares of `budget`.
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis;

    /// Gives the moves `analysis` (this engine's answer for `position`) lists without a
    /// value a value of their own by a short search of each, within `budget`, keeping
    /// the chosen move first: for a caller that cut the search short (a level's node
    /// cap) and still owes every cell a value. The engines that value every move as
    /// they search need nothing here (the default).
    fn value_unsearched(
        &self,
        _position: &Position,
        _analysis: &mut Analysis,
        _budget: &mut Budget,
        _ctx: &mut SearchContext,
    ) {
    }

    /// True when this engine's searches gave no answer of their own (an external brain
    /// that failed): the analyses it returned are void stand-ins, the caller answers
    /// with the failure and must not count them as answered. Kinrow's engines always
    /// answer (the default).
    fn failed(&self) -> bool {
        false
    }

    /// [`Engine::analyze_in`] with a budget of `limits` and the state kept in `ctx`.
    fn analyze_with(
        &self,
        position: &Position,
        limits: &Limits,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        self.analyze_in(position, limits, &mut Budget::new(limits), ctx, rng)
    }

    /// [`Engine::analyze_with`] a new context: nothing kept from earlier searches.
    fn analyze(&self, position: &Position, limits: &Limits, rng: &mut StdRng) -> Analysis {
        self.analyze_with(position, limits, &mut SearchContext::new(), rng)
    }
}
