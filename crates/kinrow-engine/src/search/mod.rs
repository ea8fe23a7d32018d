//! The engines, one folder or file each, built on the floors below (core, eval, board):
//!
//! - [`perfect`]: exact game-tree search to the end of the game (with the gravity solver);
//! - [`minimax`]: depth-limited alpha-beta with iterative deepening;
//! - [`mcts`]: Monte Carlo tree search with a heuristic prior and a solver;
//! - [`tss`]: threat-space search, proofs of forced wins for k >= 4;
//! - [`auto`]: the default engine, the strongest choice for the position;
//! - [`greedy`], [`threat`], [`priority`]: the one-ply heuristic engines;
//! - [`pro`]: the root that keeps every engine within the pro and long pro rules.

pub mod auto;
pub mod greedy;
pub mod mcts;
pub mod minimax;
pub mod perfect;
pub mod priority;
pub mod pro;
pub mod threat;
pub mod tss;
