//! Opening rules in the engines, and the balanced random openings ([`balanced`]) the
//! lab's matches and the engine's tests start from: [`swap`] takes the decisions of the swap and swap2
//! opening phases, proposing placements from the balanced openings of [`table`]. (The
//! pro and long pro rules are kept by every engine's root:
//! [`ProRoot`](crate::search::pro::ProRoot).)

pub mod balanced;
pub mod swap;
pub mod table;
