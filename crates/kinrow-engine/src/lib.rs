//! The move-suggesting AIs of kinrow. Every engine implements [`Engine`]: given a
//! position that is still in progress, [`Limits`], a [`Budget`] and a seeded RNG, it
//! returns an [`Analysis`] with the chosen move, every evaluated move with its score (and
//! outcome where proven), the principal variation and the search's statistics. Start at
//! [`EngineKind`], the one table of engines.
//!
//! The crates above (the server, the lab, the binary, the benches, the root tests) and
//! the engine's own test binary see only the front door (every module is private): the
//! names re-exported at the bottom of this file, in named groups (positions and answers;
//! the engines and their registry; the search plan and the services; external engines;
//! what the lab trains and measures). A test (`layers::no_crate_reaches_past_a_front_door`)
//! fails when one of them names a path below it; a new use is a new line here.
//!
//! The crate is built in floors, each using only those below it (a test reads every
//! `use` path and fails on an import against them, or on a circle):
//!
//! - [`core`]: the ground floor every engine shares: the types, the search path, the
//!   `Engine` trait, the budget and its progress reports, the root driver, the caller's
//!   context, the transposition table, the time manager, the tactical helpers;
//! - [`eval`]: how positions are judged without search: the window count and the
//!   learned evaluations of gomoku (line classes, cell codes, the embedded tables and
//!   network);
//! - [`board`]: the line-pattern board the heuristic searches share, which keeps eval's
//!   codes up to date as a search plays;
//! - [`search`]: the engines, one folder or file each (`perfect`, `minimax`, `mcts`, the
//!   threat-space search, `auto`, the one-ply engines, the pro rule's root);
//! - [`external`]: Gomocup brains, other programs run as child processes: the
//!   protocol's client, a pool of a brain's processes, the engine that asks one;
//! - [`registry`]: the one table of engines, which alone names them all;
//! - [`service`]: what is built on the registry: levels, the value scale, game reviews,
//!   the search plan, and the opening rules' decisions.
//!
//! Pure like the rules crate it builds on, but for the `external` floor (child
//! processes and their pipes): no other I/O, no web crate; the server, the lab's
//! commands, the benches and the tests call the same functions.

// The floors, all private: the crates above and the engine's own test binary
// (crates/kinrow-engine/tests/engine) name the engine only through the face below (the
// layer test `layers::doors` checks both).
mod board;
mod core;
mod eval;
mod external;
mod registry;
mod search;
mod service;

// The front door: everything the server, the lab, the binary, the benches, the root
// tests and the engine's own tests use, as `kinrow_engine::Name` (a module below is re-exported where its functions
// read best by their module's name: `value::values`, `level::FULL`, `swap::decide`).

// Positions in, answers out: the limits of a search, its budget and progress reports,
// the caller's reusable tables, and what an engine answers.
pub use crate::core::budget::Budget;
pub use crate::core::context::{ContextPool, SearchContext};
pub use crate::core::path::{Note, Route, SearchPath};
pub use crate::core::patterns::winning_cells;
pub use crate::core::progress::{Line, Progress, Watch, MAX_LINES};
pub use crate::core::root::WinScale;
pub use crate::core::timeman;
pub use crate::core::types::{
    cores, Action, Analysis, Bound, Evaluation, Limits, MoveEval, Outcome, Scale, SearchStats,
    MAX_THREADS,
};

// The engines and their registry.
pub use crate::core::analyze::Engine;
pub use crate::registry::{Cost, EngineKind, Parameter};
pub use crate::search::auto::{
    cell_pass, warm_up, window_value, CellValues, Defences, Guard, MateSafe, Quiescence,
    RootCounters, RootTime, RootVct, SearchCounters, Selectivity, Tactics,
};
pub use crate::search::mcts::Mcts;
pub use crate::search::minimax::Minimax;
pub use crate::search::perfect::gravity;
pub use crate::search::perfect::gravity::book as gravity_book;
pub use crate::search::perfect::gravity::level::LevelSolver;
pub use crate::search::perfect::gravity::outcomes as gravity_outcomes;
pub use crate::search::perfect::Perfect;
// The threat-space search: its proofs, its root plan, and why it does not apply somewhere.
pub use crate::search::tss::{
    plan as threat_plan, unsupported as threats_unsupported, Proof, RootPlan, Tss, Verdict,
};

// Reading single positions the way `auto` searches them (the lab's and the tests' look at
// what the alpha-beta sees where): its value at a fixed depth and the scale of that value.
pub use crate::search::auto::{alpha_beta_value, PATTERN_MATE, PATTERN_WIN};

// The search plan (which engine, which limits, for a request) and the services built
// on the registry: levels, the value scale, game reviews, the opening rules' decisions.
pub use crate::service::opening::balanced;
pub use crate::service::opening::swap;
pub use crate::service::opening::table as opening_table;
pub use crate::service::plan::{EngineChoice, SearchPlan};
pub use crate::service::{level, review, value};

// External engines: Gomocup brains run as child processes.
pub use crate::external::brain::ExternalBrain;
pub use crate::external::manager::{ExternalEngine, ExternalSpec, StepAnswer, GRACE};
pub use crate::external::pool::Failure as BrainFailure;
pub use crate::external::protocol as gomocup;
pub use crate::external::protocol::{parse_stones, Eval, Thinking};
pub use crate::external::search::Run as BrainRun;
pub use crate::external::spec::BrainSpec;

// What the lab needs to train and measure the evaluations: the pattern board, the cell
// codes and line classes, the learned tables and network.
pub use crate::board::PatternBoard;
pub use crate::eval::cells::{classes_of, Threat, CODES};
pub use crate::eval::classes::CLASSES;
pub use crate::eval::{network, potential, weights, EvalChoice};
