//! Setting up a position from a board: the side to move, a win already on the board,
//! the hash of the whole position, and (under gravity) no stone floating above an
//! empty cell.

use super::cell::{Cell, Player};
use super::error::GameError;
use super::lines::win_through;
use super::lines::{Geometry, WinLine};
use super::rules::{Hand, Rules, Variant};
use super::zobrist::{cell_key, hand_key, SIDE_KEY};

/// The Zobrist hash of a position computed from scratch.
pub(super) fn full_hash(cells: &[Cell], hands: [Hand; 2], to_move: Player) -> u64 {
    let mut hash = 0;
    for (i, &c) in cells.iter().enumerate() {
        hash ^= cell_key(i, c);
    }
    for p in Player::BOTH {
        let h = hands[p.index()];
        for (kind, count) in [h.block, h.remove, h.bomb].into_iter().enumerate() {
            hash ^= hand_key(p, kind, count);
        }
    }
    if to_move == Player::O {
        hash ^= SIDE_KEY;
    }
    hash
}

pub(super) fn decide_side_to_move(
    rules: &Rules,
    marks: [u32; 2],
    blocks: u32,
    given: Option<Player>,
) -> Result<Player, GameError> {
    let [x, o] = marks;
    let from_counts = if x == o {
        Some(Player::X)
    } else if x == o + 1 {
        Some(Player::O)
    } else {
        None
    };
    let counts_msg = || {
        format!("x has {x} marks and o has {o}; without special pieces x moves first, so x must have as many marks as o or one more")
    };
    if rules.has_special_pieces() {
        return given.ok_or_else(|| {
            GameError::turn("to_move is required when a player holds special pieces: the counts of marks prove nothing then")
        });
    }
    if blocks > 0 {
        if let Some(p) = given {
            return Ok(p);
        }
        return from_counts.ok_or_else(|| {
            GameError::turn(format!(
                "{}; with blocks on the board, give to_move",
                counts_msg()
            ))
        });
    }
    match (from_counts, given) {
        (None, _) => Err(GameError::turn(counts_msg())),
        (Some(p), Some(g)) if p != g => Err(GameError::turn(format!(
            "to_move is {g}, but x has {x} marks and o has {o}, so {p} is to move"
        ))),
        (Some(p), _) => Ok(p),
    }
}

/// Scans the whole board for winning lines; an error when both players have one.
pub(super) fn find_win(geo: &Geometry, cells: &[Cell]) -> Result<Option<WinLine>, GameError> {
    let mut found: [Option<WinLine>; 2] = [None, None];
    for (i, &c) in cells.iter().enumerate() {
        if let Cell::Mark(p) = c {
            if found[p.index()].is_none() {
                found[p.index()] = win_through(geo, cells, i, p);
            }
        }
    }
    match found {
        [Some(_), Some(_)] => Err(GameError::board(
            "board",
            format!(
                "both x and o have {} in a row; only one player can have won",
                geo.k
            ),
        )),
        [x, o] => Ok(x.or(o)),
    }
}

/// Refuses a gravity board with a floating stone, naming the first such cell.
pub(super) fn check_floating(rules: &Rules, cells: &[Cell]) -> Result<(), GameError> {
    if !rules.gravity() {
        return Ok(());
    }
    let m = rules.m();
    for (i, c) in cells.iter().enumerate().take(cells.len().saturating_sub(m)) {
        if c.is_piece() && cells[i + m] == Cell::Empty {
            let (row, col) = (i / m, i % m);
            return Err(GameError::board(
                format!("board[{row}]"),
                format!(
                    "row {row}, column {col}: the stone floats above the empty cell at row {}; under gravity (rules.gravity) stones fill each column from row {} upward",
                    row + 1,
                    rules.n() - 1
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses what only special pieces or a forbidden move could have left: blocks (`#`)
/// where the rules have no special pieces to place them (renju and gravity are played
/// with marks only), and under renju an x line longer than five (an overline, which
/// renju forbids x to make). Names the first such cell.
pub(super) fn check_marks_only(rules: &Rules, cells: &[Cell]) -> Result<(), GameError> {
    let renju = rules.variant() == Variant::Renju;
    if !renju && !rules.gravity() {
        return Ok(());
    }
    let (m, n) = (rules.m() as isize, rules.n() as isize);
    let at = |r: isize, c: isize| {
        (r >= 0 && c >= 0 && r < n && c < m).then(|| cells[(r * m + c) as usize])
    };
    for (i, &cell) in cells.iter().enumerate() {
        let (row, col) = (i as isize / m, i as isize % m);
        if cell == Cell::Block {
            let why = if renju {
                "renju"
            } else {
                "gravity (rules.gravity)"
            };
            return Err(GameError::board(
                format!("board[{row}]"),
                format!(
                    "row {row}, column {col}: a block ('#'), but {why} is played with marks only"
                ),
            ));
        }
        if !renju || cell != Cell::Mark(Player::X) {
            continue;
        }
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            // Count each run once, from its first cell.
            if at(row - dr, col - dc) == Some(Cell::Mark(Player::X)) {
                continue;
            }
            let run = (0..)
                .take_while(|&d| at(row + dr * d, col + dc * d) == Some(Cell::Mark(Player::X)))
                .count();
            if run > 5 {
                return Err(GameError::board(
                    format!("board[{row}]"),
                    format!(
                        "row {row}, column {col}: x has {run} in a row from here, an overline renju forbids x to make, so no game reaches this board"
                    ),
                ));
            }
        }
    }
    Ok(())
}
