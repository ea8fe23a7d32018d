//! Gravity: a mark drops to the lowest empty cell of its column. Row 0 is the top,
//! so each column fills from row `n - 1` upward; the playable cells are the columns'
//! landing cells, and a board with a stone above an empty cell cannot arise.
//!
//! Also the Connect Four move notation: a game as its columns, 1-based digits
//! (`"4453"`: x in column 4, o in column 4 on top of it, x in 5, o in 3).

use super::super::cell::{Cell, Coord, Player};
use super::super::error::GameError;
use super::super::moves::Move;
use super::super::rules::Rules;
use super::Position;

impl Position {
    /// True when marks drop to the lowest empty cell of their column.
    #[inline]
    pub fn gravity(&self) -> bool {
        self.rules.gravity()
    }

    /// The row a mark played in column `col` lands on (the lowest empty cell of the
    /// column, with or without gravity), `None` when the column is full or off the board.
    pub fn landing_row(&self, col: usize) -> Option<usize> {
        let m = self.m();
        if col >= m {
            return None;
        }
        (0..self.n())
            .rev()
            .find(|&r| self.cells[r * m + col] == Cell::Empty)
    }

    /// True when a mark may go on cell index `cell` as far as gravity goes: the cell is
    /// empty and, under gravity, it is the bottom row or the cell below holds a piece.
    #[inline]
    pub fn playable(&self, cell: usize) -> bool {
        let m = self.m();
        self.cells[cell] == Cell::Empty
            && (!self.gravity() || cell + m >= self.cells.len() || self.cells[cell + m].is_piece())
    }

    /// Under gravity: every column's landing cell as a mark, in cell order.
    pub(super) fn landing_cells_into(&self, out: &mut Vec<Move>) {
        out.extend(
            (0..self.cells.len())
                .filter(|&i| self.playable(i))
                .map(Move::mark),
        );
    }

    /// Under gravity, a mark on an empty cell must be its column's landing cell.
    pub(super) fn check_landing(&self, c: Coord, here: Cell) -> Result<(), GameError> {
        if !self.gravity() || here != Cell::Empty {
            return Ok(());
        }
        match self.landing_row(c.col) {
            Some(row) if row != c.row => Err(GameError::illegal(
                "move.row",
                format!(
                    "row {}, column {}: under gravity a stone in column {} lands on row {row}",
                    c.row, c.col, c.col
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The position after the Connect Four move sequence `digits` (1-based columns,
    /// `"4453"`) from the empty board of `rules`, which must have gravity and at most 9
    /// columns. Errors name `field` and the place in the sequence.
    pub fn from_column_digits(
        rules: &Rules,
        digits: &str,
        field: &str,
    ) -> Result<Position, GameError> {
        if !rules.gravity() || rules.m() > 9 {
            return Err(GameError::board(
                field,
                "a move sequence of column digits needs rules.gravity and at most 9 columns",
            ));
        }
        let mut p = Position::empty(rules);
        for (i, ch) in digits.chars().enumerate() {
            let col = ch
                .to_digit(10)
                .map(|d| d as usize)
                .filter(|&d| (1..=rules.m()).contains(&d))
                .ok_or_else(|| {
                    GameError::board(
                        field,
                        format!(
                            "move {}: {ch:?} is not a column; use the digits 1 to {}",
                            i + 1,
                            rules.m()
                        ),
                    )
                })?;
            let bad = |why: String| GameError::board(field, format!("move {}: {why}", i + 1));
            if p.winner().is_some() {
                return Err(bad(format!(
                    "the game is already over: {} has won",
                    p.winner().map_or(Player::X, |w| w)
                )));
            }
            let row = p
                .landing_row(col - 1)
                .ok_or_else(|| bad(format!("column {col} is full")))?;
            p.play_unchecked(Move::mark(row * rules.m() + col - 1));
        }
        p.ply = 0;
        Ok(p)
    }

    /// The playable cells' coordinates under gravity (every empty cell otherwise).
    pub fn playable_cells(&self) -> Vec<Coord> {
        (0..self.cells.len())
            .filter(|&i| self.playable(i))
            .map(|i| self.geo.coord(i))
            .collect()
    }
}
