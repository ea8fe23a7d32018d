//! kinrow's HTTP JSON service: a thin layer over the engine crate, the only crate that
//! knows actix and utoipa (the lab uses serde too, for its game records and reports).
//!
//! - [`api`]: the HTTP layer: one file per endpoint in [`api::routes`], the request and
//!   answer bodies per resource in [`api::dto`], the one error type, the search pool
//!   that runs engines off the HTTP workers, the metrics, the OpenAPI document;
//! - [`config`]: the server's configuration from the environment and flags;
//! - [`logging`]: a client's broken request logged at INFO, not ERROR;
//! - [`server`]: binds the listener and runs the server ([`server::Application`]), the
//!   one start-up path of the binary and the tests;
//! - the demo page (`static/` in this crate's folder) is embedded by `api`.
//!
//! The server never imports the lab (Cargo holds it: the lab is not a dependency).

mod api;
mod config;
mod logging;
mod server;

// The front door: what the binary (src/main.rs, src/cli.rs), the root tests and the
// benches use, as `kinrow_server::Name` (the layer test checks that nothing reaches past
// it).

// Start-up: the configuration, the one start-up path of the binary and the tests, the
// log filter for clients' broken requests.
pub use config::{external_engines, Config, ServeArgs};
pub use logging::ClientErrorsAsInfo;
pub use server::{serve, Application};

// The HTTP contract without HTTP, for the CLI and the black-box tests: the request and
// answer bodies, the error codes, reading a body as the routes read it, the routes'
// answers as functions, the search pool and its metrics, the OpenAPI document.
pub use api::dto;
pub use api::error::{ApiError, ErrorCode};
pub use api::extract::parse_body;
pub use api::metrics::Metrics;
pub use api::openapi_json;
pub use api::pool::SearchPool;
pub use api::routes::plan::search_plan;
pub use api::routes::play::play_answer;
pub use api::routes::review::review_here;
pub use api::routes::state::state_answer;
pub use api::routes::suggest::prepare_suggest;
