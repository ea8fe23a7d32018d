//! The books and openings room: the commands that make and check opening sets and books.
//!
//! - [`openings`] (`kinrow openings`): a balanced opening set, each opening judged even
//!   by an external engine (and the judge calls the measuring room shares);
//! - [`opening_table`] (`kinrow opening-table`): the engine's balanced-opening tables;
//! - [`opening_check`] (`kinrow opening-check`): the swap decisions measured;
//! - [`book`] (`kinrow book`) and [`connect`] (`kinrow connect`): Connect Four's book,
//!   with [`bitbully`] reading and checking BitBully's, and [`outcomes`]
//!   (`kinrow book --outcomes`): a win/draw/loss-only book of deeper levels.

pub mod bitbully;
pub mod book;
pub mod connect;
pub mod opening_check;
pub mod opening_table;
pub mod openings;
pub mod outcomes;
