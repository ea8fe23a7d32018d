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

    /// A Connect Four move sequence (1-based column digits, as [`Self::from_column_digits`]
    /// reads them) that reaches this board from the empty one with x first and nobody
    /// winning before its last stone; `None` without gravity, past 9 columns, with pieces
    /// other than marks, with the turn not that of the stones' count, or when no order of
    /// the stones does it. Found backwards: the last mover's stone on top of some column
    /// comes off, and no earlier board may hold a line of k that the final one holds (lines
    /// only vanish as stones come off). The board fixes the stones, so a state is the
    /// columns' heights; a state that led nowhere is not tried again.
    pub fn column_digits(&self) -> Option<String> {
        let (m, n, k) = (self.m(), self.n(), self.k() as usize);
        if !self.gravity() || m > 9 || self.has_special_pieces() {
            return None;
        }
        let mut heights = vec![0usize; m];
        let mut stones = 0;
        for (col, height) in heights.iter_mut().enumerate() {
            for h in 0..n {
                match self.cells[(n - 1 - h) * m + col] {
                    Cell::Mark(_) => {
                        *height = h + 1;
                        stones += 1;
                    }
                    Cell::Empty => break,
                    _ => return None,
                }
            }
        }
        let mover = |count: usize| if count % 2 == 1 { Player::X } else { Player::O };
        if mover(stones + 1) != self.to_move() {
            return None;
        }
        let at = |col: usize, h: usize| self.cells[(n - 1 - h) * m + col];
        // The lines of k one player's stones make on the final board, as (column, height).
        let mut lines: Vec<Vec<(usize, usize)>> = Vec::new();
        for (col, &height) in heights.iter().enumerate() {
            for h in 0..height {
                for (dc, dh) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
                    let cells: Vec<(usize, usize)> = (0..k as isize)
                        .map(|i| (col as isize + i * dc, h as isize + i * dh))
                        .filter(|&(c, r)| c >= 0 && r >= 0 && (c as usize) < m && (r as usize) < n)
                        .map(|(c, r)| (c as usize, r as usize))
                        .collect();
                    let first = at(col, h);
                    if cells.len() == k && cells.iter().all(|&(c, r)| at(c, r) == first) {
                        lines.push(cells);
                    }
                }
            }
        }
        let whole = |hs: &[usize]| lines.iter().any(|l| l.iter().all(|&(c, r)| r < hs[c]));
        let mut dead = std::collections::HashSet::new();
        let mut order = Vec::with_capacity(stones);
        fn back(
            hs: &mut Vec<usize>,
            left: usize,
            order: &mut Vec<usize>,
            dead: &mut std::collections::HashSet<Vec<usize>>,
            top: &dyn Fn(usize, usize) -> Cell,
            whole: &dyn Fn(&[usize]) -> bool,
        ) -> bool {
            if left == 0 {
                return true;
            }
            if dead.contains(hs) || dead.len() > 200_000 {
                return false;
            }
            let last = if left % 2 == 1 { Player::X } else { Player::O };
            for col in 0..hs.len() {
                if hs[col] == 0 || top(col, hs[col] - 1) != Cell::Mark(last) {
                    continue;
                }
                hs[col] -= 1;
                if !whole(hs) {
                    order.push(col);
                    if back(hs, left - 1, order, dead, top, whole) {
                        hs[col] += 1;
                        return true;
                    }
                    order.pop();
                }
                hs[col] += 1;
            }
            dead.insert(hs.clone());
            false
        }
        back(&mut heights, stones, &mut order, &mut dead, &at, &whole).then(|| {
            order
                .iter()
                .rev()
                .map(|&c| char::from(b'1' + c as u8))
                .collect()
        })
    }

    /// The playable cells' coordinates under gravity (every empty cell otherwise).
    pub fn playable_cells(&self) -> Vec<Coord> {
        (0..self.cells.len())
            .filter(|&i| self.playable(i))
            .map(|i| self.geo.coord(i))
            .collect()
    }
}
