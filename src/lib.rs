pub mod api;
pub mod cli;
pub mod config;
pub mod engine;
pub mod game;
pub mod server;
