//! Moves: a piece from the mover's hand played on one cell.

use super::cell::Coord;

/// What a move puts on (or takes off) the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// The mover's own mark on an empty cell. Always available, never counted.
    Mark,
    /// A neutral block on an empty cell.
    Block,
    /// Clears one cell holding an opponent mark or a block.
    Remove,
    /// Clears the target and its up-to-8 neighbours, whatever they hold; legal only
    /// where that 3x3 area holds at least one piece.
    Bomb,
}

impl Piece {
    /// All four pieces.
    pub const ALL: [Piece; 4] = [Piece::Mark, Piece::Block, Piece::Remove, Piece::Bomb];
    /// The three counted special pieces.
    pub const SPECIAL: [Piece; 3] = [Piece::Block, Piece::Remove, Piece::Bomb];

    /// The piece's name in the API (`"mark"`, `"block"`, `"remove"`, `"bomb"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Piece::Mark => "mark",
            Piece::Block => "block",
            Piece::Remove => "remove",
            Piece::Bomb => "bomb",
        }
    }

    /// Parses a piece name.
    pub fn parse(s: &str) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move: `piece` played on the cell with row-major index `cell`.
/// Four bytes, `Copy`: move lists are cheap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The target cell's row-major index (`row * m + col`).
    pub cell: u16,
    /// What the mover plays there.
    pub piece: Piece,
}

impl Move {
    /// A move of `piece` on cell index `cell`.
    #[inline]
    pub fn new(cell: usize, piece: Piece) -> Move {
        Move {
            cell: cell as u16,
            piece,
        }
    }

    /// A plain mark on cell index `cell`.
    #[inline]
    pub fn mark(cell: usize) -> Move {
        Move::new(cell, Piece::Mark)
    }

    /// The cell index as `usize`.
    #[inline]
    pub fn cell(self) -> usize {
        self.cell as usize
    }

    /// The move's row and column on a board of `m` columns.
    pub fn coord(self, m: usize) -> Coord {
        Coord::new(self.cell() / m, self.cell() % m)
    }
}
