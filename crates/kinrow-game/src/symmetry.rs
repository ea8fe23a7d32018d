//! The symmetries of the board: 8 for a square board, 4 for a rectangle.

use super::cell::Coord;

/// One symmetry of an `m` x `n` board, as a map from a cell to its image.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Every cell to itself.
    Identity,
    /// A quarter turn clockwise (square boards).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise (square boards).
    Rotate270,
    /// The rows in reverse order (top and bottom swap).
    FlipRows,
    /// The columns in reverse order (left and right swap).
    FlipCols,
    /// Rows become columns (square boards).
    Transpose,
    /// The mirror in the other diagonal (square boards).
    AntiTranspose,
}

const SQUARE: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::Rotate90,
    Symmetry::Rotate180,
    Symmetry::Rotate270,
    Symmetry::FlipRows,
    Symmetry::FlipCols,
    Symmetry::Transpose,
    Symmetry::AntiTranspose,
];
const RECTANGLE: [Symmetry; 4] = [
    Symmetry::Identity,
    Symmetry::Rotate180,
    Symmetry::FlipRows,
    Symmetry::FlipCols,
];

impl Symmetry {
    /// Every symmetry of an `m` (columns) x `n` (rows) board, the identity first.
    pub fn all(m: usize, n: usize) -> &'static [Symmetry] {
        if m == n {
            &SQUARE
        } else {
            &RECTANGLE
        }
    }

    /// The image of `c` on an `m` x `n` board. Only defined for the symmetries that
    /// [`Symmetry::all`] lists for that board.
    #[inline]
    pub fn map(self, c: Coord, m: usize, n: usize) -> Coord {
        let (r, k) = (c.row, c.col);
        let (last_row, last_col) = (n - 1, m - 1);
        match self {
            Symmetry::Identity => c,
            Symmetry::Rotate90 => Coord::new(k, last_row - r),
            Symmetry::Rotate180 => Coord::new(last_row - r, last_col - k),
            Symmetry::Rotate270 => Coord::new(last_col - k, r),
            Symmetry::FlipRows => Coord::new(last_row - r, k),
            Symmetry::FlipCols => Coord::new(r, last_col - k),
            Symmetry::Transpose => Coord::new(k, r),
            Symmetry::AntiTranspose => Coord::new(last_col - k, last_row - r),
        }
    }

    /// The image of cell index `cell` (row-major, `m` columns).
    #[inline]
    pub fn map_index(self, cell: usize, m: usize, n: usize) -> usize {
        let c = self.map(Coord::new(cell / m, cell % m), m, n);
        c.row * m + c.col
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}
