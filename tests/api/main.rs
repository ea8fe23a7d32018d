//! The black-box tests of the whole service as users meet it, one binary: the real
//! server on port 0 over HTTP (every endpoint, errors, limits, shutdown), and the
//! `kinrow` command line (arena, judge, the Gomocup brain, opening checks, value and
//! turning suites).

mod analysis;
mod anytime;
mod arena;
mod arena_swap2;
mod cells;
mod cli;
use kinrow_fixtures::diagrams;
mod endpoints;
mod errors;
mod external;
mod fuzz;
mod gravity;
mod hang_up;
mod harden_admission;
mod harden_http;
mod judge;
mod one_scale;
mod openapi;
mod opening;
mod opening_check;
mod overload;
mod pbrain;
mod pool;
mod proofs;
mod ready;
mod review;
mod shutdown;
mod support;
mod threads;
mod turning_suite;
mod turns;
mod value;
mod value_suite;
mod variants;
