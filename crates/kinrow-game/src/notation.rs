//! The board notation of the API: one string per row, `.` (or `-`, `_`) empty,
//! `x`/`X`, `o`/`O` marks, `#` a block. Answers use the canonical lowercase form.

use super::cell::{Cell, Player};
use super::error::GameError;

/// Parses `rows` into row-major cells for an `m` x `n` board. Errors name the row
/// (`board[3]`) and say which column and character are wrong.
pub fn parse_board<S: AsRef<str>>(rows: &[S], m: usize, n: usize) -> Result<Vec<Cell>, GameError> {
    if rows.len() != n {
        return Err(GameError::board(
            "board",
            format!("board has {} rows, expected {n} (rules.n)", rows.len()),
        ));
    }
    let mut cells = Vec::with_capacity(m * n);
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        let len = row.chars().count();
        if len != m {
            return Err(GameError::board(
                format!("board[{r}]"),
                format!("row {r} has {len} cells, expected {m} (rules.m)"),
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            cells.push(parse_cell(ch).ok_or_else(|| {
                GameError::board(
                    format!("board[{r}]"),
                    format!(
                        "row {r}, column {c}: unexpected character {ch:?}; use '.', '-' or '_' for empty, 'x', 'o' or '#' (block)"
                    ),
                )
            })?);
        }
    }
    Ok(cells)
}

/// Parses the one-string form used by the CLI and tests: rows separated by `/`
/// (`"x../.o./..."`). The rows are then checked as by [`parse_board`].
pub fn parse_board_string(s: &str, m: usize, n: usize) -> Result<Vec<Cell>, GameError> {
    let rows: Vec<&str> = s.split('/').collect();
    parse_board(&rows, m, n)
}

fn parse_cell(ch: char) -> Option<Cell> {
    match ch {
        '.' | '-' | '_' => Some(Cell::Empty),
        '#' => Some(Cell::Block),
        _ => Player::from_char(ch).map(Cell::Mark),
    }
}

/// Formats row-major `cells` of a board with `m` columns in canonical notation.
pub fn format_board(cells: &[Cell], m: usize) -> Vec<String> {
    cells
        .chunks(m)
        .map(|row| row.iter().map(|c| c.as_char()).collect())
        .collect()
}

/// True for a non-empty string of digits: a Connect Four move sequence (`"4453"`),
/// read by [`super::Position::from_column_digits`] under gravity.
pub fn is_column_digits(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}
