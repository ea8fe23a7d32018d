//! The commands that measure and train, built on `engine` and `game` (never on `api`):
//! `kinrow selfplay` makes the games the learned evaluation is fitted on, and `kinrow
//! tune` fits it; `kinrow steadiness` counts how often the values reverse in self-play.

pub mod opening_check;
pub mod opening_table;
pub mod record;
pub mod selfplay;
pub mod steady;
pub mod tune;
