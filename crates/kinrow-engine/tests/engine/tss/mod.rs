//! The threat-space search's test data: positions with forced wins, long wins known
//! from Rapfi's games, the defences that stop them, and the helpers that replay proofs.

pub mod defences;
pub mod mates;
pub mod positions;
pub mod support;
