//! The lab crate's tests, one binary: the learned evaluation on held-out games, the
//! Gomocup brain's swap2 answers, the value suites' labels and counts. (Tests of the
//! engines themselves live in the engine's binary, crates/kinrow-engine/tests/engine.)

mod eval_learned;
mod pbrain_swap2;
mod value_suite;
