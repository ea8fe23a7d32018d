//! The engine crate's tests, one binary: every engine through the tactics suite, the
//! exact solvers against independent results, proofs replayed against every defence,
//! budgets, levels and the house's layers.

mod auto;
mod budget;
mod cells;
use kinrow_fixtures::diagrams;
mod gravity_book;
mod gravity_engines;
mod gravity_labels;
mod gravity_outcomes;
mod gravity_solver;
mod heuristics;
mod layers;
mod levels;
mod mates;
mod mcts;
mod opening;
mod proofs;
mod quiescence;
mod reference;
mod search;
mod steady;
mod tactics;
mod threads;
mod threat_space;
mod tss;
mod variants;
