//! kinrow: move suggestions for m,n,k-games (tic-tac-toe to gomoku, with special
//! pieces), as a library with a thin HTTP server on top.
//!
//! Start at [`engine::EngineKind`] (the registry of engines) and [`engine::Engine`]:
//! a [`game::Position`] and [`engine::Limits`] in, an [`engine::Analysis`] out. The
//! layers, each using only those below it:
//!
//! - [`game`]: the rules, pure (no serde, actix or tokio): rules, board, moves, wins,
//!   renju's forbidden cells;
//! - [`engine`]: the AIs, pure as well: the shared types ([`engine::types`]), the
//!   budget, the searches (one folder each) and the registry ([`engine::registry`]);
//! - [`config`]: the server's configuration from the environment and flags;
//! - [`api`]: the HTTP layer, the only place that knows actix, serde and utoipa (one
//!   file per endpoint in [`api::routes`], the bodies per resource in [`api::dto`]);
//! - [`server`]: binds the listener and runs the server ([`server::Application`]);
//! - [`arena`], [`bench`], [`calibrate`], [`replay`], [`pbrain`]: the commands that
//!   measure engines and play them against others; [`cli`] ties the commands together.
//!
//! `tests/module_graph.rs` checks that no import runs back up this list, and that no
//! two files import each other, directly or around a circle.

#![warn(missing_docs)]

pub mod api;
pub mod arena;
pub mod bench;
pub mod book;
pub mod calibrate;
pub mod cli;
pub mod config;
pub mod connect;
pub mod engine;
pub mod game;
pub mod lab;
pub mod output;
pub mod pbrain;
pub mod replay;
pub mod server;
