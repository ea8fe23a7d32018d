//! The move-suggesting AIs of kinrow. Every engine implements
//! [`Engine`](core::analyze::Engine): given a position that is still in progress,
//! [`Limits`](core::types::Limits), a [`Budget`](core::budget::Budget) and a seeded RNG,
//! it returns an [`Analysis`](core::types::Analysis) with the chosen move, every
//! evaluated move with its score (and outcome where proven), the principal variation and
//! the search's statistics. Start at [`registry::EngineKind`], the one table of engines.
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

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod core;
pub mod eval;
pub mod external;
pub mod registry;
pub mod search;
pub mod service;
