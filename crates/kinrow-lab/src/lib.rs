//! kinrow's commands that measure and train engines, built on the engine and rules
//! crates (never on the server):
//!
//! - matches: [`arena`] (engines against each other or external ones, openings, swap2,
//!   the judge of recorded games), [`bench`] (node rates and search digests),
//!   [`replay`], [`calibrate`] (the value fits), [`value_suite`] (per-move values
//!   against an external judge's forced results), [`turning_suite`] (the tactical turns
//!   of lost games: avoided, and the loss seen after them);
//! - training: [`selfplay`] makes the games the learned evaluation is fitted on,
//!   [`label`] has a stronger engine value positions, [`tune`] fits the tables
//!   and [`fit`] the network, [`steady`] counts how often values reverse in self-play;
//! - [`record`]: the one JSON-lines game record that every command writing or reading
//!   games uses (arena, judge, replay, selfplay, tune, steadiness);
//! - openings: [`opening_table`] makes the balanced-opening tables, [`opening_check`]
//!   measures the swap decisions; [`book`] and [`connect`] serve Connect Four's book;
//! - the Gomocup protocol both ways: [`pbrain`] (kinrow as a brain) and the external
//!   engines of [`arena`] (kinrow as a manager);
//! - [`output`]: the progress lines and JSON-lines results every long command writes.

pub mod arena;
pub mod bench;
pub mod bitbully;
pub mod book;
pub mod book_outcomes;
pub mod calibrate;
pub mod connect;
pub mod fit;
pub mod label;
pub mod opening_check;
pub mod opening_table;
pub mod output;
pub mod pbrain;
pub mod record;
pub mod replay;
pub mod selfplay;
pub mod steady;
pub mod tune;
pub mod turning_suite;
pub mod value_suite;
