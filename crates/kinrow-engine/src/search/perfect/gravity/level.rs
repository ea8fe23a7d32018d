//! Making a book's last level: its positions solved one by one by the exact search over
//! one shared table, so that neighbouring positions reuse each other's work (exact
//! scores for an opening book, win/draw/loss alone for an outcome book).

use crate::core::budget::Budget;

use super::book::{find, frame, Book};
use super::outcomes::OutcomeBook;
use super::search::{Solver, Table};
use super::word::{Frame, Stones};

/// Solves positions of a book's last level one by one over one shared table.
pub struct LevelSolver {
    frame: Frame<u64>,
    table: Table<u64>,
    book: Option<&'static Book>,
    /// An outcome book the searches read (none unless [`Self::with_outcomes`] gives one).
    outcomes: Option<&'static OutcomeBook>,
}

impl LevelSolver {
    /// A solver with a table of `2^bits` entries.
    pub fn new(m: u32, n: u32, k: u32, bits: u32) -> Result<LevelSolver, String> {
        Ok(LevelSolver {
            frame: frame(m, n, k)?,
            table: Table::new(bits),
            book: find(m, n, k),
            outcomes: None,
        })
    }

    /// The same solver reading `book` instead of the committed one.
    pub fn with_book(mut self, book: &'static Book) -> LevelSolver {
        self.book = Some(book);
        self
    }

    /// The same solver reading the outcome book `book` too.
    pub fn with_outcomes(mut self, book: &'static OutcomeBook) -> LevelSolver {
        self.outcomes = Some(book);
        self
    }

    /// The same solver reading no book (to check a book against the search alone).
    pub fn without_book(mut self) -> LevelSolver {
        self.book = None;
        self
    }

    /// The exact score of the position of `key` (not over), or `None` when `clock` ran
    /// out first.
    pub fn solve(&mut self, key: u128, clock: &mut Budget) -> Option<i32> {
        let st = Stones::from_key(&self.frame, key as u64);
        let mut solver = Solver::new(&self.frame, &mut self.table, clock);
        solver.book = self.book;
        solver.outcomes = self.outcomes;
        let now = solver.win_now(&st);
        if st.my_wins(&self.frame) & st.landing(&self.frame) != 0 {
            return Some(now);
        }
        if st.count >= self.frame.m * self.frame.n {
            return Some(0);
        }
        let (lo, hi) = solver.bounds(&st);
        let (lo, hi) = solver.solve(&st, lo, hi);
        (lo == hi).then_some(lo)
    }

    /// The outcome of the position of `key` (not over) for its side to move: 1 a win,
    /// 0 a draw, -1 a loss, by one search with the window (-1, 1) (an outcome book's
    /// last level); `None` when `clock` ran out first.
    pub fn outcome(&mut self, key: u128, clock: &mut Budget) -> Option<i32> {
        let st = Stones::from_key(&self.frame, key as u64);
        let mut solver = Solver::new(&self.frame, &mut self.table, clock);
        solver.book = self.book;
        solver.outcomes = self.outcomes;
        if st.my_wins(&self.frame) & st.landing(&self.frame) != 0 {
            return Some(1);
        }
        if st.count >= self.frame.m * self.frame.n {
            return Some(0);
        }
        let v = solver.negamax(&st, -1, 1);
        (!solver.stopped).then_some(v.signum())
    }
}
