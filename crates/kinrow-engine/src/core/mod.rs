//! The ground floor of the engines: what every search shares, and nothing that names
//! an engine.
//!
//! - [`types`] and [`path`]: [`Limits`](types::Limits), [`Analysis`](types::Analysis),
//!   [`SearchPath`](path::SearchPath) and the other types every engine shares;
//!   [`analyze`]: the [`Engine`](analyze::Engine) trait;
//! - [`budget`]: the one [`Budget`](budget::Budget) (time and nodes) a search runs on; a
//!   search's phases take child shares of it that add up; [`progress`]: watching a search
//!   while it runs; [`timeman`]: how long a move may take on a match clock;
//! - [`context`]: the [`SearchContext`](context::SearchContext) the caller owns and
//!   passes in, holding what engines keep between searches (no `thread_local!`), and the
//!   server's [`ContextPool`](context::ContextPool); [`tt`]: the transposition table;
//! - [`root`]: the one root driver that turns an engine's root results into the
//!   `Analysis`, and the [`WinScale`](root::WinScale)s of proven wins and losses;
//! - [`patterns`] and [`tactics`]: the small tactical facts (a win now, the one block)
//!   that engines and levels share.

pub mod analyze;
pub mod budget;
pub mod context;
pub mod path;
pub mod patterns;
pub mod progress;
pub mod root;
pub mod tactics;
pub mod timeman;
pub mod tt;
pub mod types;
