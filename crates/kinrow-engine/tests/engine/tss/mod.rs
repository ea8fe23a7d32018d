//! The threat-space search's test data: positions with forced wins, long wins known
//! from Rapfi's games, the defences that stop them, and the helpers that replay proofs.

pub mod defences;
pub mod mates;
pub use kinrow_fixtures::tss_positions as positions;
pub mod support;
