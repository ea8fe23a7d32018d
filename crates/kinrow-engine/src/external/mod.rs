//! The external floor: Gomocup ("pbrain") brains, other programs, run as child
//! processes and spoken to over stdin/stdout. [`protocol`] is the protocol's client (the
//! lab plays whole games with it); [`spec`] reads a brain's configuration; [`pool`] keeps
//! its processes warm and supervised; [`brain`] asks them one position at a time (the server serves them
//! as engines);
//! [`search`] is the [`Engine`](crate::core::analyze::Engine) that asks a brain.
//!
//! The only floor that does I/O: it stands on `core` alone, and nothing below it knows
//! of processes.

pub mod brain;
pub mod pool;
pub mod protocol;
pub mod search;
pub mod spec;
