//! The house's layers, read from the code: every module of every crate is a room, every
//! path it names into another room an arrow (a `use` tree, a path in an expression or a
//! type, a path in a string such as `deserialize_with = "super::forms::never"`). Paths
//! are read with `syn` from the module tree each crate's `lib.rs` declares; a module
//! under `#[cfg(test)]` is left out (it may reach anywhere in its crate). A name a
//! module only re-exports (`pub use`) counts for the room that defines it.
//!
//! The arrows must not close a circle, and inside the engine crate they must not run
//! up its floors (core < eval < board < search < external < registry < service) except where
//! [`AGAINST_THE_FLOORS`] names them. Between crates Cargo holds the order (game <
//! engine < server, lab < the binary): a crate cannot name one it does not depend on.
//!
//! Each crate has a front door: the names its `lib.rs` re-exports. Outside a crate (the
//! crates above it, the binary, the root tests, the benches, test code included), a path
//! into it names one of those names and goes no deeper than the room that name stands
//! for: `kinrow_engine::Limits`, `kinrow_engine::value::values`, never
//! `kinrow_engine::core::types::Limits` or `kinrow_engine::gravity::book::Book`.
//!
//! A crate embeds (`include_str!`, `include_bytes!`) only files in its own folder, and
//! no module is read from elsewhere with `#[path]`: shared test data lives in
//! `kinrow-fixtures`.
//!
//! `cargo test -p kinrow-engine --test engine layers -- --nocapture` prints the rooms
//! by floor with their arrows out.
//!
//! The rooms are read in `source.rs`; `floors.rs` checks the circles, the engine's
//! floors and the crates' order, `doors.rs` the front doors, `embeds.rs` the embedded
//! files and `#[path]` modules.

mod doors;
mod embeds;
mod floors;
mod source;
