//! One move's own value: a search of a single root move with an open window, for the
//! moves the main search did not value exactly (the cells it never searched, and the
//! moves its null windows only bounded).

use super::PatternSearch;
use crate::core::budget::Budget;
use crate::search::auto::score::PATTERN_WIN;

impl PatternSearch {
    /// The value for the side to move of a mark on `cell`, searched `depth` plies deep
    /// (at least 1: the move, then the opponent's node with its forced replies, the
    /// leaf's threat checks and the static evaluation) with an open window, so that it
    /// is exact at that depth; `None` when `budget` stopped before it was done.
    pub fn value_of(&mut self, budget: &mut Budget, cell: u16, depth: u32) -> Option<i64> {
        let depth = depth.max(1) as i32;
        self.play(cell as usize);
        let v = -self.negamax(budget, depth - 1, 1, -PATTERN_WIN - 1, PATTERN_WIN + 1);
        self.undo(cell as usize);
        (!budget.stopped()).then_some(v)
    }
}
