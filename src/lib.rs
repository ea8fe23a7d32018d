pub mod arena;
pub mod bench;
pub mod cli;
pub mod engine;
pub mod game;
pub mod pbrain;
