//! The ground floor of the game: the two players, what a cell holds, and a cell's
//! place on the board. Every other file of `game/` builds on these.

/// One of the two players. `X` always moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
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
    /// Nothing: a mark or block may go here.
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
    /// Zero-based row; 0 is the top (the first board string).
    pub row: usize,
    /// Zero-based column.
    pub col: usize,
}

impl Coord {
    /// The cell at `row`, `col`.
    pub fn new(row: usize, col: usize) -> Coord {
        Coord { row, col }
    }
}
