//! kinrow's commands that measure and train engines, built on the engine and rules
//! crates (never on the server), in rooms; each command lives in the file of its name:
//!
//! - [`training`]: `kinrow selfplay` makes the games the learned evaluation is fitted
//!   on, `label` has a stronger engine value positions, `tune` fits the tables and `fit`
//!   the network, `calibrate` fits each engine's value mapping;
//! - [`measuring`]: `kinrow arena` (engines against each other or external ones, SPRTs,
//!   swap2), `judge` (recorded games' quiet moves against an external judge), `bench`
//!   (node rates and search digests, `--replay`), `value-suite`, `turning-suite`,
//!   `steadiness`;
//! - [`books`]: openings and books: `kinrow openings` (a balanced set by an external
//!   judge), `opening-table`, `opening-check`, and Connect Four's `book` and `connect`;
//! - [`pbrain`]: kinrow as a Gomocup brain (`kinrow pbrain`), on the engine's protocol
//!   vocabulary (`kinrow_engine::gomocup`); kinrow as the manager is the arena's external
//!   engines;
//! - shared by the rooms: [`record`], the one JSON-lines game record every command
//!   writing or reading games uses, and [`output`], the progress lines and JSON-lines
//!   results every long command writes.

pub mod books;
pub mod measuring;
pub mod output;
pub mod pbrain;
pub mod record;
pub mod training;

// Connect Four's `books/book.rs` names the solver's converter as `crate::bitbully`.
use books::bitbully;
