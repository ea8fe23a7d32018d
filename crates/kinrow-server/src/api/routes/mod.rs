//! The handlers, one file per endpoint: thin, they convert the body, call the game or an
//! engine, convert back. What several of them share is in [`run`]; the engine, limits
//! and seed of a request in [`plan`].

pub mod analyse;
pub mod engines;
pub mod healthz;
pub mod metrics;
pub mod openapi;
pub mod opening;
pub mod plan;
pub mod play;
pub mod readyz;
pub mod review;
pub mod run;
pub mod state;
pub mod suggest;
