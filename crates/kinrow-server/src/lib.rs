//! kinrow's HTTP JSON service: a thin layer over the engine crate, the only crate that
//! knows actix, serde and utoipa.
//!
//! - [`api`]: the HTTP layer: one file per endpoint in [`api::routes`], the request and
//!   answer bodies per resource in [`api::dto`], the one error type, the search pool
//!   that runs engines off the HTTP workers, the metrics, the OpenAPI document;
//! - [`config`]: the server's configuration from the environment and flags;
//! - [`logging`]: a client's broken request logged at INFO, not ERROR;
//! - [`server`]: binds the listener and runs the server ([`server::Application`]), the
//!   one start-up path of the binary and the tests;
//! - the demo page (`static/` at the workspace root) is embedded by [`api`].
//!
//! The server never imports the lab (Cargo holds it: the lab is not a dependency).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod config;
pub mod logging;
pub mod server;
