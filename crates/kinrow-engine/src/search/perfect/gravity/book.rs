//! Opening books for gravity boards: the exact score of every position with at most
//! `depth` stones that a game can reach (nobody has won before), keyed like the
//! search's table (the position's key or its mirror image's, whichever is smaller).
//!
//! A book is made level by level: the positions of each number of stones are the
//! children of the level above that do not complete a line; those of the last level
//! are solved one by one by the exact search ([`super::level::LevelSolver`]: one table
//! shared by all, so that neighbouring positions reuse each other's work) or read from a
//! published database (`kinrow book --from-bitbully`), and every shallower level is then
//! backed up by negamax over its children, exact because its children are. The search
//! reads a committed book at every node with few enough stones (so the positions in it
//! are answered at once).
//!
//! In memory a book is one sorted key set and one score array per level, the keys packed
//! by their high bits into buckets (see `packed::Run`: 4.6 bytes a position with its
//! score, where plain keys took 9: 42.7 MB for the 9.2 M positions of the 7x6 book of
//! 12 stones, measured by the committed book's test with `Book::bytes`), read
//! by binary search inside a bucket. Reading the binary format enumerates each level in
//! runs of key ranges from the packed level above (`levels::children_in_runs`), so that a
//! level's plain keys are never all held at once. Two formats on disk:
//! - text: a header line `kinrow-gravity-book M,N,K depth D`, then one line per
//!   position, `KEY SCORE`, the key in hex and the score as the search's (plies, from
//!   the side to move), sorted by key (what `kinrow book` writes for any board);
//! - binary, for complete books: a header line `kinrow-gravity-book-scores M,N,K depth D
//!   levels C0,C1,...,CD`, then one signed byte per position, level by level, each level
//!   in the order of its sorted keys. The keys are not stored: they are the levels that
//!   [`levels`] enumerates (the header's counts check that), which takes a few seconds
//!   for 12 stones of 7x6 and keeps the committed file at a byte a position.
//!
//! Books are made for boards of 64 bits with their sentinel row (7x6 and smaller).
//!
//! Its rooms, this file their face: `scores` holds [`Book`] and its two formats; `packed`
//! the in-memory levels and runs; `levels` the enumeration of the positions a game
//! reaches and the backing up of scores; `committed` the books embedded in the binary and
//! when they are read.

mod committed;
mod levels;
mod packed;
mod scores;

pub use committed::{committed, find, read_on_demand, state, warm, BooksState};
pub use levels::{back_up, key_of, levels, stones_of_key};
pub(super) use levels::{canonical, children_in_runs, frame};
pub(super) use packed::Level;
pub use scores::Book;
