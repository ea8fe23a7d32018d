//! The move-suggesting AIs. Every engine implements [`Engine`]: given a position that
//! is still in progress, limits and a seeded RNG, it returns an [`Analysis`] with the
//! chosen move, every evaluated move with its score (and outcome where proven), the
//! principal variation and search statistics.
//!
//! What every engine shares:
//! - [`budget`]: the one [`Budget`] (time and nodes) a search runs on; a search's phases
//!   take child shares of it that add up, so `nodes` is a total and `stats.nodes` is
//!   what was searched;
//! - [`context`]: the [`SearchContext`] the caller owns and passes in, holding what
//!   engines keep between searches (no `thread_local!`), and the server's [`ContextPool`];
//! - [`root`]: the one root driver that turns an engine's root results into the
//!   [`Analysis`] (every cell scored, order, seeded choice, PV, stats, the typed
//!   [`SearchPath`]), and the [`WinScale`]s of proven wins and losses.
//!
//! - [`types`] and [`path`] (the ground floor): [`Limits`], [`Analysis`], [`SearchPath`]
//!   and the other types every engine shares; [`analyze`]: the [`Engine`] trait;
//! - [`registry`] (the top floor): [`EngineKind`], the one table of engines, which alone
//!   imports them; [`plan`]: the [`SearchPlan`] a request hands to the engine. This file declares the modules and re-exports; it imports no engine.

pub mod analyze;
pub mod auto;
pub mod board;
pub mod budget;
pub mod context;
pub mod eval;
pub mod greedy;
pub mod level;
pub mod mcts;
pub mod minimax;
pub mod opening;
pub mod path;
pub mod patterns;
pub mod perfect;
pub mod plan;
pub mod priority;
pub mod progress;
pub mod registry;
pub mod review;
pub mod root;
pub mod tactics;
pub mod threat;
pub mod timeman;
pub mod tss;
pub mod tt;
pub mod types;
pub mod value;

pub use analyze::Engine;
pub use budget::Budget;
pub use context::{ContextPool, SearchContext};
pub use path::{Note, Route, SearchPath};
pub use plan::SearchPlan;
pub use registry::{EngineKind, Parameter};
pub use root::WinScale;
pub use types::{
    pick_among_best, sort_best_first, Action, Analysis, Evaluation, Limits, MoveEval, Outcome,
    Scale, SearchStats, MAX_THREADS,
};
