//! The gravity books committed with kinrow: embedded in the binary gzipped, read once on
//! first use (or on a thread of their own, [`warm`]) and shared by every search after.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use super::Book;

/// The books committed with kinrow (books/ beside book.rs, each added here with
/// `include_bytes!`, in the binary format, gzipped to stay small in the repository):
/// Connect Four's every position of at most 12 stones, converted from the BitBully
/// databases (books/README.md says how and under which licence).
const COMMITTED: &[&[u8]] = &[include_bytes!("../books/connect4-12.book.gz")];

static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();

/// Set while [`warm`]'s thread reads the books.
static WARMING: AtomicBool = AtomicBool::new(false);

/// Set by [`read_on_demand`]: a search that wants a book not yet read starts reading it
/// on a thread of its own and goes on without it.
static ON_DEMAND: AtomicBool = AtomicBool::new(false);

/// The books committed with kinrow, read on first use (about 4 s for Connect Four's in a
/// release build: the levels are enumerated). A caller meanwhile waits.
pub fn committed() -> &'static [Book] {
    BOOKS.get_or_init(|| {
        COMMITTED
            .iter()
            .filter_map(|gz| {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(*gz), &mut bytes)
                    .ok()?;
                Book::parse_binary(&bytes).ok()
            })
            .collect()
    })
}

/// Reads the committed books on a thread of their own (what a server does at start):
/// until they are read, searches go on without them instead of waiting past their
/// budget.
pub fn warm() {
    if BOOKS.get().is_none() && !WARMING.swap(true, Ordering::SeqCst) {
        std::thread::spawn(|| {
            committed();
            WARMING.store(false, Ordering::SeqCst);
        });
    }
}

/// Where the committed books stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BooksState {
    /// Nothing asked for them yet: they take no memory.
    NotRead,
    /// A thread reads them (a few seconds); searches go on without them meanwhile.
    Reading,
    /// Read and in use.
    Read,
}

impl BooksState {
    /// The state's name in the game's answers (`not_read`, `reading`, `read`).
    pub fn name(self) -> &'static str {
        match self {
            BooksState::NotRead => "not_read",
            BooksState::Reading => "reading",
            BooksState::Read => "read",
        }
    }
}

/// Where the committed books stand now.
pub fn state() -> BooksState {
    if BOOKS.get().is_some() {
        BooksState::Read
    } else if WARMING.load(Ordering::SeqCst) {
        BooksState::Reading
    } else {
        BooksState::NotRead
    }
}

/// From now on no search waits for the books: the first that wants one starts [`warm`]
/// and goes on without it (what a server does: its answers keep their budgets, and a
/// server that never sees Connect Four never reads its book).
pub fn read_on_demand() {
    ON_DEMAND.store(true, Ordering::SeqCst);
}

/// The committed book of an `m` x `n` board with `k` in a row, if there is one. Waits for
/// the books to be read, unless [`warm`] is reading them or [`read_on_demand`] was called
/// (then `None` until they are read).
pub fn find(m: u32, n: u32, k: u32) -> Option<&'static Book> {
    // Only boards with a book wait for the books to be read.
    if !COMMITTED_SHAPES.contains(&(m, n, k)) {
        return None;
    }
    let books = match BOOKS.get() {
        Some(books) => books,
        None if WARMING.load(Ordering::SeqCst) => return None,
        None if ON_DEMAND.load(Ordering::SeqCst) => {
            warm();
            return None;
        }
        None => committed(),
    };
    books
        .iter()
        .find(|b| (b.m, b.n, b.k) == (m, n, k) && !b.is_empty())
}

/// The boards of [`COMMITTED`], in its order.
const COMMITTED_SHAPES: &[(u32, u32, u32)] = &[(7, 6, 4)];
