//! The test fixtures that more than one test binary reads, in one place instead of
//! `#[path]` includes across crates: a dev-dependency of the game's, the engine's and the
//! root's tests and of the benches. Plain data and the small helpers that set it up.
//!
//! - [`diagrams`]: renju and caro positions drawn as small diagrams (the rules tests, the
//!   engine's tests, the API tests);
//! - [`tss_positions`]: threat-space search positions with forced wins and refuted ones
//!   (the engine's tests, `benches/tss.rs`);
//! - [`tactics_positions`]: four-threes and threes no one cell stops (the engine's unit
//!   tests of the threat defences and its tactics tests).

pub mod diagrams;
pub mod tactics_positions;
pub mod tss_positions;
