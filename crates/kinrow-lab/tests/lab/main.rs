//! The lab crate's tests, one binary: matches in process, the learned evaluation on
//! held-out games, the Gomocup brain's swap2 answers, the benchmark's positions, the
//! value suites' labels and counts.

mod eval_learned;
mod gravity_engines;
mod mcts;
mod pbrain_swap2;
mod threads;
mod value_suite;
