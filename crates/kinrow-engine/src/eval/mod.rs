//! How positions are judged without search.
//!
//! - [`window`]: the window potential `minimax` and `greedy` count (every k-window still
//!   open for a player, weighed by its marks);
//! - the learned evaluation of gomoku, fitted by `kinrow tune` to the results of
//!   kinrow's own games: [`classes`] (what a mark makes of one line), [`cells`] (the
//!   four lines of a cell as one code, and the threat it makes) and [`weights`] (what
//!   each code is worth). The board keeps every empty cell's codes up to date as the
//!   search plays ([`crate::board::CellEval`]), so the evaluation of a position
//!   is a sum the board already holds.

pub mod cells;
pub mod classes;
pub mod weights;
pub mod window;

pub use window::{evaluate, potential, potential_through, window_state, window_weight};

/// Which static evaluation `auto`'s pattern search uses: the learned one where the rules
/// have weights (gomoku), else the window count. It is kept in the caller's
/// [`SearchContext`](crate::core::context::SearchContext), where the lab's commands may set
/// another (`auto:eval=window` or `auto:weights=PATH` in `kinrow arena` and `kinrow
/// selfplay`, to measure one against the other; docs/evaluation.md).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// The window count.
    Window,
    /// The weights the build embeds for the rules (the window count where there are none).
    #[default]
    Learned,
    /// LearnedWeights read from a file by a lab command (`auto:weights=PATH` in `kinrow arena`),
    /// to measure a fit before it is committed; loaded once for the process.
    File(&'static weights::LearnedWeights),
}

impl EvalChoice {
    /// The built-in evaluations by the names the lab's commands take: `learned` or
    /// `window`.
    pub fn parse(name: &str) -> Option<EvalChoice> {
        match name {
            "learned" => Some(EvalChoice::Learned),
            "window" => Some(EvalChoice::Window),
            _ => None,
        }
    }

    /// The learned weights this choice evaluates `rules` with, if any.
    pub fn weights(self, rules: &kinrow_game::Rules) -> Option<&'static weights::LearnedWeights> {
        match self {
            EvalChoice::Window => None,
            EvalChoice::Learned => weights::for_rules(rules),
            EvalChoice::File(w) => weights::fits(rules).then_some(w),
        }
    }
}

impl crate::core::context::Kept for EvalChoice {
    fn bytes(&self) -> usize {
        0
    }
}
