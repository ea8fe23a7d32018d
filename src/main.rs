//! The `kinrow` binary: parse the command line and run it (the server by default).

mod cli;

use clap::Parser;

/// The allocator of every kinrow binary. The system allocator (glibc) keeps one arena per
/// thread that touched it and hands little back: with the search threads and HTTP workers
/// of a busy server its RSS grew by about 2 MB per round of identical requests; mimalloc
/// stays flat (the soak run of docs/performance.md, `scripts/soak.sh`). The feature
/// `system-allocator` leaves it out (to compare, or for tools that hook malloc).
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = cli::Cli::parse();
    std::process::exit(cli::run(cli));
}
