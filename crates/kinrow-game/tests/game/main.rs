//! The rules crate's tests, one binary: tables of positions with their known results
//! (`rules`, `variants` with renju's and caro's diagrams, `gravity`) and property tests
//! (`props`).

use kinrow_fixtures::diagrams;
mod gravity;
mod props;
mod rules;
mod variants;
