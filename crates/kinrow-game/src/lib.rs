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
mod cell;
pub mod codes;
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
pub use cell::{Cell, Coord, Player};
pub use error::{GameError, GameErrorKind};
pub use lines::{Direction, Geometry, WinLine, WinRule, Window, DIRECTIONS};
pub use moves::{Move, Piece};
pub use notation::{format_board, is_column_digits, parse_board, parse_board_string};
pub use opening::{centre, distance, Opening, OpeningStep, Role};
pub use renju::{forbidden_mark, Forbidden, Stone};
pub use rules::{Hand, Rules, Variant, MAX_PIECES, MAX_SIDE};
pub use symmetry::Symmetry;
pub use zobrist::{cell_key, splitmix64};
