//! How positions are judged without search.
//!
//! - [`window`]: the window potential `minimax` and `greedy` count (every k-window still
//!   open for a player, weighed by its marks);
//! - the learned evaluations of gomoku, over [`classes`] (what a mark makes of one line)
//!   and [`cells`] (the four lines of a cell as one code, and the threat it makes):
//!   [`weights`], a table of what each code is worth (`kinrow tune`), and [`network`],
//!   a small network over the codes' vectors (`kinrow fit`), both fitted to positions a
//!   stronger engine valued. The board keeps every empty cell's codes up to date as
//!   the search plays ([`crate::board::CellEval`]), so the evaluation of a position
//!   starts from sums the board already holds.

pub mod cells;
pub mod classes;
pub mod network;
pub mod weights;
pub mod window;

pub use window::{potential, potential_through, window_state, window_weight};

/// A learned evaluation the board sums as it plays.
#[derive(Copy, Clone, Debug)]
pub enum Learned {
    /// A table of what each cell code is worth.
    Tables(&'static weights::LearnedWeights),
    /// The network over the codes' vectors.
    Network(&'static network::Network),
}

/// Which static evaluation `auto`'s pattern search uses: the learned one where the rules
/// have one (freestyle gomoku: the network; exactly five: the tables), else the window
/// count. It is kept in the caller's
/// [`SearchContext`](crate::core::context::SearchContext), where the lab's commands may set
/// another (`auto:eval=window|tables|network`, `auto:weights=PATH` or
/// `auto:network=PATH` in `kinrow arena` and `kinrow selfplay`, to measure one against
/// the other; docs/evaluation.md).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub enum EvalChoice {
    /// The window count.
    Window,
    /// The learned evaluation the build embeds for the rules and serves by default
    /// (the window count where there is none).
    #[default]
    Learned,
    /// The embedded tables, even where the network is embedded too.
    Tables,
    /// The embedded network (the window count where there is none).
    Network,
    /// Tables read from a file by a lab command (`auto:weights=PATH` in `kinrow arena`),
    /// to measure a fit before it is committed; loaded once for the process.
    File(&'static weights::LearnedWeights),
    /// A network read from a file by a lab command (`auto:network=PATH`).
    NetworkFile(&'static network::Network),
}

impl EvalChoice {
    /// The built-in evaluations by the names the lab's commands take: `learned`,
    /// `tables`, `network` or `window`.
    pub fn parse(name: &str) -> Option<EvalChoice> {
        match name {
            "learned" => Some(EvalChoice::Learned),
            "tables" => Some(EvalChoice::Tables),
            "network" => Some(EvalChoice::Network),
            "window" => Some(EvalChoice::Window),
            _ => None,
        }
    }

    /// The learned evaluation this choice judges `rules` with, if any.
    pub fn learned(self, rules: &kinrow_game::Rules) -> Option<Learned> {
        let fits = weights::fits(rules);
        match self {
            EvalChoice::Window => None,
            // The network where the build has one for the rules (it passed its SPRT
            // against the tables: docs/strength.md), else the tables.
            EvalChoice::Learned => network::for_rules(rules)
                .map(Learned::Network)
                .or_else(|| weights::for_rules(rules).map(Learned::Tables)),
            EvalChoice::Tables => weights::for_rules(rules).map(Learned::Tables),
            EvalChoice::Network => network::for_rules(rules).map(Learned::Network),
            EvalChoice::File(w) => fits.then_some(Learned::Tables(w)),
            EvalChoice::NetworkFile(n) => fits.then_some(Learned::Network(n)),
        }
    }
}

impl crate::core::context::Kept for EvalChoice {
    fn bytes(&self) -> usize {
        0
    }
}
