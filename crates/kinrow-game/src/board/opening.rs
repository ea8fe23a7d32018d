//! The opening rules as the position applies them: the cells pro and long pro forbid
//! now, and the swap / swap2 step a board is at (the rules themselves are in
//! `crates/kinrow-game/src/opening.rs`).

use super::Position;
use crate::cell::{Cell, Coord, Player};
use crate::error::GameError;
use crate::moves::Move;
use crate::opening::{centre, distance, Opening, OpeningStep};
use crate::renju::Forbidden;

impl Position {
    /// Whether a search may play `mv` here: a legal move, or any move where the pro rule
    /// restricts x, since the engines keep to that rule at their root only
    /// (`crates/kinrow-engine/src/search/pro.rs`) and may look past it below.
    pub(crate) fn searchable(&self, mv: Move) -> bool {
        self.is_legal(mv) || self.opening_restricted()
    }

    /// The opening rule.
    #[inline]
    pub fn opening(&self) -> Opening {
        self.rules.opening()
    }

    /// Pro / long pro, x to move at the first stone or at its second (the third stone of
    /// the game): the moves the rule restricts now.
    #[inline]
    pub fn opening_restricted(&self) -> bool {
        if self.to_move() != Player::X || self.opening().distance().is_none() {
            return false;
        }
        let stones = self.marks(Player::X) + self.marks(Player::O);
        stones == 0 || (stones == 2 && self.marks(Player::X) == 1)
    }

    /// Why the pro rule forbids a mark on `cell` now, or `None`.
    pub(crate) fn opening_forbidden(&self, cell: usize) -> Option<Forbidden> {
        if !self.opening_restricted() || self.cell(cell) != Cell::Empty {
            return None;
        }
        let mid = centre(self.m(), self.n());
        let here = Coord::new(cell / self.m(), cell % self.m());
        if self.marks(Player::X) == 0 {
            (here != mid).then_some(Forbidden::OffCentre)
        } else {
            let d = self.opening().distance()?;
            (distance(here, mid) < d).then_some(Forbidden::NearCentre)
        }
    }
}

impl OpeningStep {
    /// The step a board of the opening phase is at, from the rule and the stone counts;
    /// an error naming `board` when the counts fit no step (a board past the opening
    /// included) or someone already has a line, and naming `rules.opening` for a rule
    /// without an opening phase.
    pub fn of(position: &Position) -> Result<OpeningStep, GameError> {
        let opening = position.opening();
        if !opening.has_phase() {
            return Err(GameError::rules(
                "rules.opening",
                format!(
                    "{} has no opening phase of decisions (only swap and swap2 do); play it with /v1/suggest and /v1/play",
                    opening.as_str()
                ),
            ));
        }
        let (x, o) = (position.marks(Player::X), position.marks(Player::O));
        if position.blocks() > 0 {
            return Err(GameError::board(
                "board",
                "an opening phase is played with marks only, but the board holds blocks",
            ));
        }
        if let Some(w) = position.winner() {
            return Err(GameError::board(
                "board",
                format!("{} already has a line: the opening phase is over", w),
            ));
        }
        let step = match (opening, x, o) {
            (_, 0, 0) => OpeningStep::Place3,
            (Opening::Swap, 2, 1) => OpeningStep::Choose,
            (_, 2, 1) => OpeningStep::Place2OrChoose,
            (Opening::Swap2, 3, 2) => OpeningStep::ChooseAfter5,
            _ => {
                let steps = match opening {
                    Opening::Swap => "0 stones (place3) or 3: two x and one o (choose)",
                    _ => "0 stones (place3), 3: two x and one o (place2_or_choose), or 5: three x and two o (choose_after_5)",
                };
                let past = x + o > 3;
                return Err(GameError::board(
                    "board",
                    format!(
                        "the board holds {x} x and {o} o; {}'s opening steps come at {steps}{}",
                        opening.as_str(),
                        if past {
                            "; a game past its opening goes on with /v1/suggest and /v1/play"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        };
        Ok(step)
    }
}
