//! The external floor: Gomocup ("pbrain") brains, other programs, run as child
//! processes and spoken to over stdin/stdout. [`protocol`] is the protocol's vocabulary,
//! shared by both its ends (kinrow as the manager here, kinrow as a brain in the lab's
//! `pbrain`); [`manager`] runs a brain for whole games (the lab plays with it); [`spec`]
//! reads a brain's configuration; [`pool`] keeps a configured brain's processes warm and
//! supervised; [`brain`] asks them one position at a time (the server serves them as
//! engines);
//! [`search`] is the [`Engine`](crate::core::analyze::Engine) that asks a brain.
//!
//! The only floor that does I/O: it stands on `core` alone, and nothing below it knows
//! of processes.

pub mod brain;
pub mod manager;
pub mod pool;
pub mod protocol;
pub mod search;
pub mod spec;
