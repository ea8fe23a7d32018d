//! Opening rules in the engines: [`pro`] keeps every engine's root within the pro and long
//! pro rules; [`swap`] takes the decisions of the swap and swap2 opening phases, proposing
//! placements from the balanced openings of [`table`].

pub mod pro;
pub mod swap;
pub mod table;

pub use swap::{decide, Decision, OpeningAnswer, OptionValue, Source};
