//! How positions are judged without search.
//!
//! - [`window`]: the window potential `minimax` and `greedy` count (every k-window still
//!   open for a player, weighed by its marks);
//! - the learned evaluation of gomoku, fitted by `kinrow tune` to the results of
//!   kinrow's own games: [`classes`] (what a mark makes of one line), [`cells`] (the
//!   four lines of a cell as one code, and the threat it makes) and [`weights`] (what
//!   each code is worth). The board keeps every empty cell's codes up to date as the
//!   search plays ([`crate::engine::board::CellEval`]), so the evaluation of a position
//!   is a sum the board already holds.

pub mod cells;
pub mod classes;
pub mod weights;
pub mod window;

pub use window::{evaluate, potential, potential_through, window_state, window_weight};
