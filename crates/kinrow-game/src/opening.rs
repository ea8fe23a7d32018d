//! Opening rules: how the first stones of a game are placed.
//!
//! - [`Opening::Pro`] / [`Opening::LongPro`]: x's first stone goes on the centre, and x's
//!   second stone (the third stone of the game) at least 3 / 4 cells from the centre in
//!   rows or columns, i.e. outside the centre's 5x5 / 7x7 square. Other moves are free.
//!   These restrict moves, so they live in the position's legality ([`crate::Position::forbidden`]),
//!   next to renju's forbidden cells.
//! - [`Opening::Swap`] / [`Opening::Swap2`]: the first player places three stones (2 x,
//!   1 o); under swap the second player then picks a side; under swap2 the second player
//!   picks a side or places one more x and one more o, after which the first player picks
//!   a side. The game goes on with o to move after three stones and after five. These are
//!   decisions rather than moves: [`OpeningStep::of`] names the step a board is at.
//!
//! The centre of a side of length `s` is index `s / 2`: the middle cell of an odd side,
//! the lower (or right) of the two middle cells of an even side (row 8, column 8 on
//! 16x16; 10, 10 on 20x20, as Gomocup managers count).

use super::cell::{Cell, Coord, Player};
use super::error::GameError;

/// The opening rule of a game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Opening {
    /// No opening rule: every move is free from the first.
    #[default]
    Free,
    /// First stone on the centre; x's second stone at least 3 cells from it.
    Pro,
    /// First stone on the centre; x's second stone at least 4 cells from it.
    LongPro,
    /// Three stones placed by the first player, then the second player picks a side.
    Swap,
    /// Three stones; the second player picks a side or places two more (one each), in
    /// which case the first player picks a side.
    Swap2,
}

impl Opening {
    /// Every opening rule, the default first.
    pub const ALL: [Opening; 5] = [
        Opening::Free,
        Opening::Pro,
        Opening::LongPro,
        Opening::Swap,
        Opening::Swap2,
    ];

    /// The API name: `free`, `pro`, `long_pro`, `swap`, `swap2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Opening::Free => "free",
            Opening::Pro => "pro",
            Opening::LongPro => "long_pro",
            Opening::Swap => "swap",
            Opening::Swap2 => "swap2",
        }
    }

    /// Finds an opening rule by its API name (any case).
    pub fn parse(name: &str) -> Option<Opening> {
        Opening::ALL
            .into_iter()
            .find(|o| o.as_str().eq_ignore_ascii_case(name))
    }

    /// Pro and long pro: how far (in rows or columns) x's second stone must lie from the
    /// centre; `None` for the other rules.
    pub fn distance(self) -> Option<usize> {
        match self {
            Opening::Pro => Some(3),
            Opening::LongPro => Some(4),
            _ => None,
        }
    }

    /// True for the rules with an opening phase of decisions (swap, swap2).
    pub fn has_phase(self) -> bool {
        matches!(self, Opening::Swap | Opening::Swap2)
    }

    /// Swap and swap2: the stones on the board when the opening is done (3 or 5 at most;
    /// swap2 may end at 3 too). 0 for the others.
    pub fn phase_stones(self) -> usize {
        match self {
            Opening::Swap => 3,
            Opening::Swap2 => 5,
            _ => 0,
        }
    }
}

/// The centre cell of an `m` x `n` board: row `n / 2`, column `m / 2`.
pub fn centre(m: usize, n: usize) -> Coord {
    Coord::new(n / 2, m / 2)
}

/// How far `c` lies from `centre` in rows or columns (the larger of the two).
pub fn distance(c: Coord, centre: Coord) -> usize {
    c.row.abs_diff(centre.row).max(c.col.abs_diff(centre.col))
}

/// Checks a board against a pro / long pro opening: once x has a stone, one is on the
/// centre; once x has two, one of the others lies far enough from it.
pub(super) fn check_board(
    opening: Opening,
    m: usize,
    n: usize,
    cells: &[Cell],
) -> Result<(), GameError> {
    let Some(d) = opening.distance() else {
        return Ok(());
    };
    let mid = centre(m, n);
    let xs: Vec<Coord> = (0..cells.len())
        .filter(|&i| cells[i] == Cell::Mark(Player::X))
        .map(|i| Coord::new(i / m, i % m))
        .collect();
    if xs.is_empty() {
        return Ok(());
    }
    if !xs.contains(&mid) {
        return Err(GameError::board(
            "board",
            format!(
                "under {} x's first stone is on the centre (row {}, column {}), but that cell holds no x",
                opening.as_str(),
                mid.row,
                mid.col
            ),
        ));
    }
    if xs.len() >= 2 && !xs.iter().any(|&c| distance(c, mid) >= d) {
        return Err(GameError::board(
            "board",
            format!(
                "under {} x's second stone lies at least {d} cells from the centre in rows or columns, but no x does",
                opening.as_str()
            ),
        ));
    }
    Ok(())
}

/// Who takes a decision of the opening phase: the first player (who places the first
/// three stones) or the second.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The first player (who places the first three stones).
    First,
    /// The second player.
    Second,
}

impl Role {
    /// The API name: `first`, `second`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::First => "first",
            Role::Second => "second",
        }
    }
}

/// A decision of the swap / swap2 opening phase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpeningStep {
    /// The first player places two x and one o (empty board).
    Place3,
    /// Swap, three stones: the second player picks x or o.
    Choose,
    /// Swap2, three stones: the second player picks x or o, or places one x and one o.
    Place2OrChoose,
    /// Swap2, five stones: the first player picks x or o.
    ChooseAfter5,
}

impl OpeningStep {
    /// The API name: `place3`, `choose`, `place2_or_choose`, `choose_after_5`.
    pub fn as_str(self) -> &'static str {
        match self {
            OpeningStep::Place3 => "place3",
            OpeningStep::Choose => "choose",
            OpeningStep::Place2OrChoose => "place2_or_choose",
            OpeningStep::ChooseAfter5 => "choose_after_5",
        }
    }

    /// Who decides at this step.
    pub fn decides(self) -> Role {
        match self {
            OpeningStep::Place3 | OpeningStep::ChooseAfter5 => Role::First,
            OpeningStep::Choose | OpeningStep::Place2OrChoose => Role::Second,
        }
    }

    /// The step after the stones of this one are placed (`Place3` and the `place2` half
    /// of `Place2OrChoose`); `None` after a choice, which ends the opening.
    pub fn after_placing(self, opening: Opening) -> Option<OpeningStep> {
        match (self, opening) {
            (OpeningStep::Place3, Opening::Swap) => Some(OpeningStep::Choose),
            (OpeningStep::Place3, _) => Some(OpeningStep::Place2OrChoose),
            (OpeningStep::Place2OrChoose, _) => Some(OpeningStep::ChooseAfter5),
            _ => None,
        }
    }
}
