//! What `perfect` knows about each root move, the ground floor of the solver's files:
//! the exact search, the careless search, the table of solved positions
//! and the gravity solver all speak it.

use crate::core::types::{Bound, Outcome};
use kinrow_game::Move;

/// What the engine knows about one root move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Verdict {
    pub mv: Move,
    pub outcome: Outcome,
    pub plies: Option<u32>,
    /// `Exact`, or `Upper` where the outcome is proven but the budget ran out before
    /// the distance was pinned: the win or loss comes within at most `plies`.
    pub plies_bound: Bound,
}

impl Verdict {
    pub(super) fn unknown(mv: Move) -> Verdict {
        Verdict {
            mv,
            outcome: Outcome::Unknown,
            plies: None,
            plies_bound: Bound::Exact,
        }
    }
}

/// The principal variation after a root move, as far as the search can tell.
pub(crate) type PvTail = Box<dyn Fn(Move) -> Vec<Move>>;
