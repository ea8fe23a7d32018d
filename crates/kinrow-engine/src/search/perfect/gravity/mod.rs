//! `perfect` under gravity: an exact solver of Connect Four and every gravity board
//! that fits 128 bits with a sentinel row ([`word`]).
//!
//! Every playable column is judged from the mover's side: a win now is exact at once;
//! otherwise the position after the move is searched first for its outcome alone, with
//! the narrowest window that tells win, draw or loss apart from what is known ((-1, 1),
//! or a null window when two remain), and then the plies of each win and loss are
//! pinned by the null-window searches of [`search::Solver::solve`]. Both stages go in
//! rounds over the columns, each search allowed 4 096 nodes in the first round and four
//! times as many in each next one, so that one hard column does not keep the easy ones
//! unproven when the budget runs out. All searches share one table of bounds, which the
//! caller's context keeps for its next answer. A position in the opening book ([`book`])
//! has its score there, which caps every column; before the rounds, each column that may
//! reach it (a win or a draw) is asked in turn by one null window whether it does (which
//! pins the best columns and proves the choice), and the search reads the book at every
//! node of few enough stones.
//! A mirror-symmetric position searches only one of each pair of mirrored columns.
//! When the budget runs out, each column keeps the interval its score was proven to
//! lie in: a proven win or loss with the plies it comes within at most (a bound, not
//! the distance), or `unknown`; the best move found is the one with the highest proven
//! lower bound.

pub mod book;
pub mod level;
pub mod outcomes;
mod search;
mod word;

use crate::core::budget::Budget;
use crate::core::context::{Kept, SearchContext};
use crate::core::types::{Bound, Outcome};
use kinrow_game::{Cell, Move, Position};

use super::verdict::{PvTail, Verdict};
use search::Solver;
pub use search::Table;
use word::{Frame, Stones, Word};

/// True when the gravity solver answers `position`: gravity, marks only, free rules
/// with overlines winning (the bit tests find k or more), and `m*(n+1) <= 128`.
pub fn applies(position: &Position) -> bool {
    position.gravity()
        && !position.has_special_pieces()
        && position.geometry().overline
        && position.m() * (position.n() + 1) <= 128
}

/// Every playable column's verdict (see the top of this file), the line after a move
/// (none beyond it), the plies left on the board, and whether the best verdict is proven
/// the best though some columns are not settled ([`Proven::best_proven`]).
pub(super) fn analyze(
    position: &Position,
    budget: &mut Budget,
    ctx: &mut SearchContext,
) -> (Vec<Verdict>, PvTail, u32, bool) {
    let proven = if position.m() * (position.n() + 1) <= 64 {
        columns::<u64>(position, budget, ctx)
    } else {
        columns::<u128>(position, budget, ctx)
    };
    (
        proven.verdicts,
        Box::new(|_| Vec::new()),
        position.empties(),
        proven.best_proven,
    )
}

/// What the columns' searches proved.
struct Proven {
    verdicts: Vec<Verdict>,
    /// Some column's proven outcome (a win, or an exact draw) is at least what every
    /// other column can still score: the choice is settled even where plies are not.
    best_proven: bool,
}

/// The frame and root stones of `position` in `T`.
pub fn stones_of<T: Word>(position: &Position) -> Option<(Frame<T>, Stones<T>)> {
    let (m, n) = (position.m(), position.n());
    let frame = Frame::<T>::new(m as u32, n as u32, position.k())?;
    let me = position.to_move();
    let (mut mine, mut all) = (T::ZERO, T::ZERO);
    for (i, &c) in position.cells().iter().enumerate() {
        if let Cell::Mark(p) = c {
            let bit = frame.bit((i % m) as u32, (n - 1 - i / m) as u32);
            all = all | bit;
            if p == me {
                mine = mine | bit;
            }
        }
    }
    let count = all.ones();
    Some((frame, Stones { mine, all, count }))
}

/// A table sized for the work the position can take within `time` (a big table costs
/// its pages as the search first touches them: a short budget gets a smaller one).
pub fn table_for<T: Word>(empties: u32, time: std::time::Duration) -> Table<T> {
    Table::new(table_bits(empties, time))
}

/// The table size [`table_for`] picks, as a power of two.
fn table_bits(empties: u32, time: std::time::Duration) -> u32 {
    let by_work = match empties {
        0..=10 => 12,
        11..=16 => 18,
        17..=24 => 21,
        _ => 23,
    };
    let by_time = match time.as_millis() {
        0..500 => 18,
        500..5000 => 21,
        _ => 23,
    };
    by_work.min(by_time)
}

/// The size (a power of two) of the table a context keeps from one answer to the
/// next: 2^22 entries, 32 MiB for boards of 64 bits, 80 MiB for wider ones, touched only
/// as searches reach them. A score is the position's own (absolute, see [`search`]),
/// and a stopped search stores nothing, so what one answer proved stays true for the
/// next on the same board shape; a fresh table would cost a request its page faults
/// (a fault per new page touched, most of a short answer's time).
const KEPT_BITS: u32 = 22;

/// The tables `perfect` keeps between answers on gravity boards, in the caller's
/// [`SearchContext`] (one per word size; a context serves one board shape, so at most
/// one of them is ever made): what one answer proved stays true for the next on the
/// same board shape, and a fresh table would cost a request its page faults.
#[derive(Default)]
pub struct KeptTables {
    narrow: Option<ShapedTable<u64>>,
    wide: Option<ShapedTable<u128>>,
}

/// A table and the board shape (m, n, k) it was made for.
type ShapedTable<T> = ((u32, u32, u32), Table<T>);

impl Kept for KeptTables {
    fn bytes(&self) -> usize {
        self.narrow.as_ref().map_or(0, |(_, t)| t.bytes())
            + self.wide.as_ref().map_or(0, |(_, t)| t.bytes())
    }
}

/// A word size with its slot in [`KeptTables`].
trait KeptWord: Word {
    fn slot(kept: &mut KeptTables) -> &mut Option<ShapedTable<Self>>;
}

impl KeptWord for u64 {
    fn slot(kept: &mut KeptTables) -> &mut Option<ShapedTable<u64>> {
        &mut kept.narrow
    }
}

impl KeptWord for u128 {
    fn slot(kept: &mut KeptTables) -> &mut Option<ShapedTable<u128>> {
        &mut kept.wide
    }
}

/// What is proven about one root column: its score lies in `[lo, hi]`.
struct Column<T: Word> {
    col: u32,
    cell: T,
    lo: i32,
    hi: i32,
}

impl<T: Word> Column<T> {
    /// Whether its outcome (win, draw or loss) is proven.
    fn outcome_known(&self) -> bool {
        self.lo > 0 || self.hi < 0 || (self.lo == 0 && self.hi == 0)
    }

    /// Whether its score is pinned.
    fn pinned(&self) -> bool {
        self.lo == self.hi
    }

    /// One search of the position after the column with the narrowest window that
    /// tells its outcome from what is known of its score: (-1, 1) when it may be a win,
    /// a draw or a loss, a null window when only two remain.
    fn ask_outcome(&mut self, solver: &mut Solver<'_, T>, st: &Stones<T>) {
        let (a, b) = (-self.hi.min(1), -self.lo.max(-1));
        let r = solver.negamax(&st.play(self.cell), a, b);
        if solver.halted() {
            return;
        }
        // The child's value r is an upper bound at or below a, a lower one at or above b.
        if r <= a {
            self.lo = self.lo.max(-r);
        } else if r >= b {
            self.hi = self.hi.min(-r);
        } else {
            (self.lo, self.hi) = (-r, -r);
        }
    }

    /// Narrows its score: where the root's exact score `booked` is known and the
    /// column may reach it, one null window asks whether it does (which pins a best
    /// column at once); otherwise null windows halving the interval.
    fn ask_score(&mut self, solver: &mut Solver<'_, T>, st: &Stones<T>, booked: Option<i32>) {
        let child = st.play(self.cell);
        if let Some(v) = booked.filter(|&v| self.lo < v && v <= self.hi) {
            let r = solver.negamax(&child, -v, -v + 1);
            if solver.halted() {
                return;
            }
            if r <= -v {
                self.lo = v;
            } else {
                self.hi = self.hi.min(-r);
            }
            return;
        }
        let (clo, chi) = solver.solve(&child, -self.hi, -self.lo);
        self.lo = self.lo.max(-chi);
        self.hi = self.hi.min(-clo);
    }
}

/// The nodes a column's search may take in the first round of [`in_rounds`].
const FIRST_ALLOWANCE: u64 = 1 << 12;
const GROWTH: u64 = 4;

/// Asks `ask` of every column not yet `done`, in rounds: each search may take
/// [`FIRST_ALLOWANCE`] nodes in the first round and four times as many in each next one,
/// so that one hard column does not keep the easy ones after it unproven when the budget
/// runs out (a halted search keeps what its finished subtrees stored: the next round
/// starts from there). Ends when every column is done or the budget ran out.
fn in_rounds<T: Word>(
    solver: &mut Solver<'_, T>,
    cols: &mut [&mut Column<T>],
    done: fn(&Column<T>) -> bool,
    mut ask: impl FnMut(&mut Solver<'_, T>, &mut Column<T>),
) {
    let mut allowance = FIRST_ALLOWANCE;
    loop {
        let mut open = false;
        for col in cols.iter_mut() {
            while !done(col) {
                if !solver.cap(Some(allowance)) {
                    return;
                }
                ask(solver, col);
                if solver.halted() {
                    open = true;
                    break;
                }
            }
        }
        if !open {
            break;
        }
        allowance = allowance.saturating_mul(GROWTH);
    }
    solver.cap(None);
}

/// [`columns_in`] over the context's kept table of the board shape (a new one when the
/// last answer was on another shape). A search limited by nodes starts from a fresh
/// table, so that its answer does not depend on what ran before it
/// ([`crate::core::context`]).
fn columns<T: KeptWord>(
    position: &Position,
    budget: &mut Budget,
    ctx: &mut SearchContext,
) -> Proven {
    if budget.node_limit().is_some() {
        let mut fresh = Table::<T>::new(KEPT_BITS);
        return columns_in(position, budget, &mut fresh);
    }
    columns_in(position, budget, kept_table::<T>(position, ctx))
}

/// The table the context keeps for the board shape of `position`, made now when it keeps
/// none (or one of another shape).
fn kept_table<'c, T: KeptWord>(
    position: &Position,
    ctx: &'c mut SearchContext,
) -> &'c mut Table<T> {
    let shape = (position.m() as u32, position.n() as u32, position.k());
    let slot = T::slot(ctx.kept::<KeptTables>());
    if slot.as_ref().map(|k| k.0) != Some(shape) {
        *slot = Some((shape, Table::new(KEPT_BITS)));
    }
    &mut slot.as_mut().expect("just set").1
}

/// Makes in `ctx` the table `perfect` keeps for the board shape of `position` (a gravity
/// board it solves) and writes it whole, so that the first search there does not pay for
/// its memory: the allocator may zero all of it when it makes it (mimalloc zeroes memory
/// it reuses), and fresh pages cost a fault and a clear each on first write, tens of
/// milliseconds for the 32 MiB of 7x6, hundreds on a loaded machine.
pub fn prepare(position: &Position, ctx: &mut SearchContext) {
    if !applies(position) {
        return;
    }
    if position.m() * (position.n() + 1) <= 64 {
        kept_table::<u64>(position, ctx).clear();
    } else {
        kept_table::<u128>(position, ctx).clear();
    }
}

fn columns_in<T: Word>(position: &Position, budget: &mut Budget, table: &mut Table<T>) -> Proven {
    let Some((frame, st)) = stones_of::<T>(position) else {
        return Proven {
            verdicts: Vec::new(),
            best_proven: false,
        };
    };
    let mut solver = Solver::new(&frame, table, budget);
    let symmetric = frame.mirror(st.key(&frame)) == st.key(&frame);
    let landing = st.landing(&frame);
    let wins = st.my_wins(&frame) & landing;
    let now = solver.win_now(&st);
    let mut cols: Vec<Column<T>> = Vec::new();
    for &c in &frame.order {
        let cell = landing & frame.column(c);
        if cell == T::ZERO {
            continue;
        }
        let (lo, hi) = if wins & cell != T::ZERO {
            (now, now)
        } else {
            let child = st.play(cell);
            if child.my_wins(&frame) & child.landing(&frame) != T::ZERO {
                (-(now - 1), -(now - 1))
            } else if let Some(v) = solver.booked(&child) {
                (-v, -v)
            } else {
                let (clo, chi) = solver.bounds(&child);
                (-chi, -clo)
            }
        };
        cols.push(Column {
            col: c,
            cell,
            lo,
            hi,
        });
    }
    let mirrored = |c: u32| symmetric && frame.m - 1 - c < c;
    // A position the book holds (its last level: shallower ones have their children
    // there) has its exact score v: no column scores above it.
    let booked = solver.booked(&st);
    if let Some(v) = booked {
        for col in cols.iter_mut() {
            col.hi = col.hi.min(v);
        }
    }
    let mut searched: Vec<&mut Column<T>> =
        cols.iter_mut().filter(|col| !mirrored(col.col)).collect();
    // Where the book has the position's score (a win or a draw: under a loss every column
    // is a loss already), each column in turn, centre first, is asked whether it reaches
    // it, before any round: the best columns are pinned and the choice proven at once
    // (what `auto` and the demo need most), and for the others the question (whether
    // they win as fast, or hold the draw) is mostly quick to refute.
    if let Some(v) = booked.filter(|&v| v >= 0) {
        for col in searched.iter_mut() {
            if col.lo < v && v <= col.hi {
                col.ask_score(&mut solver, &st, booked);
            }
            if solver.stopped {
                break;
            }
        }
    }
    // First win, draw or loss for every column, then the plies.
    in_rounds(
        &mut solver,
        &mut searched,
        Column::outcome_known,
        |solver, col| col.ask_outcome(solver, &st),
    );
    in_rounds(&mut solver, &mut searched, Column::pinned, |solver, col| {
        col.ask_score(solver, &st, booked)
    });
    let proven: Vec<(u32, i32, i32)> = cols.iter().map(|c| (c.col, c.lo, c.hi)).collect();
    for col in cols.iter_mut().filter(|col| mirrored(col.col)) {
        let twin = frame.m - 1 - col.col;
        if let Some(&(_, lo, hi)) = proven.iter().find(|p| p.0 == twin) {
            (col.lo, col.hi) = (lo, hi);
        }
    }
    // A win proven (lo > 0) or a draw exact (0, 0), at least every other column's top.
    let best_proven = cols.iter().any(|a| {
        (a.lo > 0 || a.hi == 0 && a.lo == 0) && cols.iter().all(|b| b.col == a.col || b.hi <= a.lo)
    });
    Proven {
        verdicts: cols
            .iter()
            .map(|c| verdict(position, c.col as usize, c.lo, c.hi, now))
            .collect(),
        best_proven,
    }
}

/// The verdict of a column whose score lies in `[lo, hi]`; `now` is the score of a win
/// with the mover's next stone (cells + 1 - the stone's number). A proven win or loss
/// whose score is not pinned gets the plies it comes within at most, as a bound: a win
/// scores at least `lo` (so it comes no later than `lo`'s plies), a loss at most `hi`.
fn verdict(position: &Position, col: usize, lo: i32, hi: i32, now: i32) -> Verdict {
    let row = position.landing_row(col).unwrap_or(0);
    let mv = Move::mark(row * position.m() + col);
    // A win with the next stone is 1 ply away; every point less is one ply more.
    let plies = |v: i32| Some((now - v.abs() + 1) as u32);
    let (outcome, plies, plies_bound) = match (lo, hi) {
        (lo, hi) if lo == hi && lo > 0 => (Outcome::Win, plies(lo), Bound::Exact),
        (lo, hi) if lo == hi && lo < 0 => (Outcome::Loss, plies(lo), Bound::Exact),
        (0, 0) => (Outcome::Draw, Some(position.empties()), Bound::Exact),
        (lo, _) if lo > 0 => (Outcome::Win, plies(lo), Bound::Upper),
        (_, hi) if hi < 0 => (Outcome::Loss, plies(hi), Bound::Upper),
        _ => (Outcome::Unknown, None, Bound::Exact),
    };
    Verdict {
        mv,
        outcome,
        plies,
        plies_bound,
    }
}

/// The exact score of `position` alone (not per column), as the published Connect Four
/// benchmarks measure a solver: `Some(plies to the end, the mover's outcome)` when
/// solved within `budget`, and the nodes it took are counted in `budget`.
pub fn solve_position(position: &Position, budget: &mut Budget) -> Option<(u32, Outcome)> {
    if !applies(position) || position.is_over() {
        return None;
    }
    if position.m() * (position.n() + 1) <= 64 {
        score::<u64>(position, budget)
    } else {
        score::<u128>(position, budget)
    }
}

/// The outcome of `position` alone (win, draw or loss for its mover, not the plies): the
/// weak solve of the published benchmarks, one search with the window (-1, 1); `None`
/// when `budget` ran out first.
pub fn outcome_of_position(position: &Position, budget: &mut Budget) -> Option<Outcome> {
    if !applies(position) || position.is_over() {
        return None;
    }
    if position.m() * (position.n() + 1) <= 64 {
        weak::<u64>(position, budget)
    } else {
        weak::<u128>(position, budget)
    }
}

fn weak<T: Word>(position: &Position, budget: &mut Budget) -> Option<Outcome> {
    let mut table = table_for::<T>(position.empties(), budget.time());
    weak_in(position, budget, &mut table)
}

fn weak_in<T: Word>(
    position: &Position,
    budget: &mut Budget,
    table: &mut Table<T>,
) -> Option<Outcome> {
    let (frame, st) = stones_of::<T>(position)?;
    let mut solver = Solver::new(&frame, table, budget);
    if st.my_wins(&frame) & st.landing(&frame) != T::ZERO {
        return Some(Outcome::Win);
    }
    let v = solver.negamax(&st, -1, 1);
    if solver.stopped {
        return None;
    }
    Some(match v.signum() {
        0 => Outcome::Draw,
        1 => Outcome::Win,
        _ => Outcome::Loss,
    })
}

fn score<T: Word>(position: &Position, budget: &mut Budget) -> Option<(u32, Outcome)> {
    let mut table = table_for::<T>(position.empties(), budget.time());
    score_in(position, budget, &mut table)
}

/// [`solve_position`] (with `weak`, [`outcome_of_position`]'s search, the plies then
/// those of a full board) over `table`, on boards of at most 64 bits with the sentinel
/// row: a benchmark clears one table between positions outside its clock, as the
/// published solver's harness does, instead of timing the making of a fresh one.
pub fn solve_position_in(
    position: &Position,
    budget: &mut Budget,
    table: &mut Table<u64>,
    weak: bool,
) -> Option<(u32, Outcome)> {
    if !applies(position) || position.is_over() || position.m() * (position.n() + 1) > 64 {
        return None;
    }
    if weak {
        return weak_in(position, budget, table).map(|o| (position.empties(), o));
    }
    score_in(position, budget, table)
}

fn score_in<T: Word>(
    position: &Position,
    budget: &mut Budget,
    table: &mut Table<T>,
) -> Option<(u32, Outcome)> {
    let (frame, st) = stones_of::<T>(position)?;
    let mut solver = Solver::new(&frame, table, budget);
    let now = solver.win_now(&st);
    let v = if st.my_wins(&frame) & st.landing(&frame) != T::ZERO {
        now
    } else {
        let (lo, hi) = solver.bounds(&st);
        let (lo, hi) = solver.solve(&st, lo, hi);
        if lo != hi {
            return None;
        }
        lo
    };
    Some(match v {
        0 => (position.empties(), Outcome::Draw),
        v if v > 0 => ((now - v + 1) as u32, Outcome::Win),
        v => ((now + v + 1) as u32, Outcome::Loss),
    })
}
