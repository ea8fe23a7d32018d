//! The training room: the commands that make the learned evaluation and the value scale.
//!
//! - [`selfplay`] (`kinrow selfplay`): games of an engine against itself from balanced
//!   openings, the material the others learn from;
//! - [`label`] (`kinrow label`): a stronger engine (kinrow's or a Gomocup brain) values
//!   the positions of recorded games;
//! - [`tune`] (`kinrow tune`): fits the learned tables' weights to the games;
//! - [`fit`] (`kinrow fit`): trains the small network on labelled positions;
//! - [`calibrate`] (`kinrow calibrate`): fits each engine's value mapping on self-play.

pub mod calibrate;
pub mod fit;
pub mod label;
pub mod selfplay;
pub mod tune;
