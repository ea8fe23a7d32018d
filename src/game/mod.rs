//! The rules of m,n,k-games with special pieces, pure and fast.
//!
//! A game is played on `m` columns by `n` rows; a player wins with `k` of their own
//! marks in an unbroken horizontal, vertical or diagonal line. Besides marks, each
//! player may hold special pieces: `block` (a neutral piece on an empty cell),
//! `remove` (clears an opponent mark or a block) and `bomb` (clears a 3x3 area).
//!
//! Nothing here knows about HTTP, JSON or any engine: the same calls serve the
//! server, the CLI, the engines, the benches and the tests.

mod board;
mod error;
mod lines;
mod moves;
mod notation;
mod opening;
mod renju;
mod rules;
mod setup;
mod symmetry;
mod zobrist;

pub use board::{Position, Status, Undo};
pub use error::{GameError, GameErrorKind};
pub use lines::{Direction, Geometry, WinLine, Window, DIRECTIONS};
pub use moves::{Move, Piece};
pub use notation::{format_board, is_column_digits, parse_board, parse_board_string};
pub use opening::{centre, distance, Opening, OpeningStep, Role};
pub use renju::{forbidden_mark, Forbidden, Stone};
pub use rules::{Hand, Rules, Variant, MAX_PIECES, MAX_SIDE};
pub use symmetry::Symmetry;
pub use zobrist::{cell_key, splitmix64};

/// One of the two players. `X` always moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    X,
    O,
}

impl Player {
    /// Both players, `X` first.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for `X`, 1 for `O`: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter of the player's mark.
    pub fn as_char(self) -> char {
        match self {
            Player::X => 'x',
            Player::O => 'o',
        }
    }

    /// The player's name as used in the notation and the API (`"x"` or `"o"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Player::X => "x",
            Player::O => "o",
        }
    }

    /// Parses `x`/`X` or `o`/`O`.
    pub fn from_char(c: char) -> Option<Player> {
        match c {
            'x' | 'X' => Some(Player::X),
            'o' | 'O' => Some(Player::O),
            _ => None,
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a cell of the board holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    #[default]
    Empty,
    /// A player's own mark.
    Mark(Player),
    /// A neutral block: it belongs to nobody and breaks every line through it.
    Block,
}

impl Cell {
    /// True when the cell holds a mark or a block.
    #[inline]
    pub fn is_piece(self) -> bool {
        self != Cell::Empty
    }

    /// The canonical notation character: `.`, `x`, `o` or `#`.
    pub fn as_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Mark(p) => p.as_char(),
            Cell::Block => '#',
        }
    }
}

/// A cell's place on the board: zero-based row (0 is the first board string) and column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub row: usize,
    pub col: usize,
}

impl Coord {
    pub fn new(row: usize, col: usize) -> Coord {
        Coord { row, col }
    }
}
