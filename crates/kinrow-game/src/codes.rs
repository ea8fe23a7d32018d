//! The cells as the engines' compact boards store them: one byte each, [`EMPTY`], a
//! [`stone`] of a player or a [`BLOCK`]. A fact of the rules the engines read, kept here
//! so that every board (the line-pattern board, the evaluation's line codes, the tables
//! of the learned evaluation) agrees on it, and renju's forbidden-move check reads such
//! cells directly (through [`Stone`]).

use crate::{Cell, Stone};

/// An empty cell.
pub const EMPTY: u8 = 0;
/// A neutral block.
pub const BLOCK: u8 = 3;
/// What a mark of player `p` (0 = x, 1 = o) looks like.
#[inline]
pub fn stone(p: usize) -> u8 {
    p as u8 + 1
}

/// The board's cell content of a position's cell.
#[inline]
pub fn content_of(cell: Cell) -> u8 {
    match cell {
        Cell::Empty => EMPTY,
        Cell::Mark(p) => stone(p.index()),
        Cell::Block => BLOCK,
    }
}

/// The compact cells as renju's forbidden-move check reads them.
impl Stone for u8 {
    const EMPTY: u8 = EMPTY;
    const X: u8 = 1; // stone(0)
    #[inline]
    fn is_x(self) -> bool {
        self == stone(0)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == EMPTY
    }
}
