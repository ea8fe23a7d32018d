//! What `perfect` knows about each root move, the ground floor of the solver's files:
//! the exact search, the careless search, the table of solved positions
//! and the gravity solver all speak it.

use crate::core::types::Outcome;
use kinrow_game::Move;

/// What the engine knows about one root move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Verdict {
    pub mv: Move,
    pub outcome: Outcome,
    pub plies: Option<u32>,
}

impl Verdict {
    pub(super) fn unknown(mv: Move) -> Verdict {
        Verdict {
            mv,
            outcome: Outcome::Unknown,
            plies: None,
        }
    }
}

/// The principal variation after a root move, as far as the search can tell.
pub(crate) type PvTail = Box<dyn Fn(Move) -> Vec<Move>>;
