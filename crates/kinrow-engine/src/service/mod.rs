//! What is built on the registry of engines:
//!
//! - [`plan`]: the one [`SearchPlan`](plan::SearchPlan) of a search, from a request to the
//!   engine;
//! - [`level`]: difficulty levels and mistakes at the root, for every engine;
//! - [`value`]: every engine's answer on one value scale;
//! - [`review`]: a game's review, every position searched and every move judged;
//! - [`opening`]: the decisions of the swap and swap2 opening phases.

pub mod level;
pub mod opening;
pub mod plan;
pub mod review;
pub mod value;
