//! Renju's forbidden cells on the board's own cells: the rules core's check
//! ([`forbidden_mark`]) reads the board's contents through [`Stone`](kinrow_game::Stone), so a search asks
//! it without building a position.

use super::{LineBoard, WeightScheme};
use kinrow_game::{forbidden_mark, Player};

impl<W: WeightScheme> LineBoard<W> {
    /// True when the variant restricts player `p`'s marks: x under renju (the game's
    /// `has_forbidden_cells` answers).
    #[inline]
    pub fn restricts(&self, p: usize) -> bool {
        self.geo.variant.has_forbidden_cells(Player::BOTH[p])
    }

    /// True when player `p` may not mark the empty `cell`: renju's forbidden moves of x
    /// (an overline, two fours or two open threes without a five). Always false for o
    /// and under the other variants, where it costs one comparison.
    #[inline]
    pub fn forbidden(&mut self, p: usize, cell: usize) -> bool {
        self.restricts(p) && forbidden_mark(&self.geo, &mut self.cells, cell).is_some()
    }
}
