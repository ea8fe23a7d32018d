//! The exact gravity search: negamax with alpha-beta on [`Stones`], scores in plies.
//!
//! A score is absolute: a win for the side to move completed with the board's t-th
//! stone scores `cells + 1 - t`, a loss `-(cells + 1 - t)`, a draw 0, so a position
//! has the same score however it was reached and the table can keep it. Every node
//! first takes a win now, then keeps only the moves that do not hand the opponent a
//! win at once (one forced block, never the cell under an opponent's winning cell),
//! narrows the window to what is still possible, and reads the table's bounds and best
//! move. A move that leaves two wins the opponent cannot both stop (two playable, or
//! one on top of another) scores at once. The others are ordered: the table's best
//! move first, then by the winning cells each creates, those on the mover's rows
//! (odd rows from the bottom for the first player, even for the second) counting
//! twice, centre first on ties; a child whose bound in the table already refutes
//! cuts off before any is searched (enhanced transposition cutoff). The table keeps a
//! lower and an upper bound and the best move per position, keyed by the position or
//! its mirror image, whichever is smaller. [`Solver::solve`] pins the exact score by null-window
//! searches that halve the interval the score is known to lie in.

use crate::core::budget::Budget;

use super::book::Book;
use super::outcomes::OutcomeBook;
use super::word::{Frame, Stones, Word};

/// Bounds kept per position, indexed by a digest of its canonical key: one slot a
/// position holds its key, bounds and best move together ([`Word::to_slot`]: 8 bytes on
/// boards of 64 bits), so that a probe reads one place in memory (the table is far
/// larger than the caches, and probes are most of a node's cost).
pub struct Table<T: Word> {
    slots: Vec<T::Slot>,
    /// The table holds `2^bits` slots; the index is the digest's top bits (its low bits
    /// depend only on the key's low bits, the first columns, and would crowd positions
    /// together).
    bits: u32,
}

/// A slot's `meta`: the lower and upper bound, each plus `2^(SCORE_BITS - 1)` (so never
/// 0: scores are smaller), and the column + 1 (of the canonical orientation) of the
/// move that last cut off or scored best (0: none).
#[inline]
fn meta<T: Word>(lower: i32, upper: i32, best: u8) -> u64 {
    let (w, half) = (T::SCORE_BITS, 1i32 << (T::SCORE_BITS - 1));
    debug_assert!(lower > -half && upper < half && lower <= upper + 2 * half);
    (lower + half) as u64 | ((upper + half) as u64) << w | (best as u64) << (2 * w)
}

/// The bounds and best move of a slot's `meta`.
#[inline]
fn unmeta<T: Word>(meta: u64) -> (i32, i32, u8) {
    let (w, half) = (T::SCORE_BITS, 1i32 << (T::SCORE_BITS - 1));
    let mask = (1u64 << w) - 1;
    (
        (meta & mask) as i32 - half,
        ((meta >> w) & mask) as i32 - half,
        (meta >> (2 * w)) as u8,
    )
}

impl<T: Word> Table<T> {
    /// A table of `2^bits` entries, at least `2^T::MIN_TABLE_BITS` (zeroed memory: cheap
    /// until touched).
    pub fn new(bits: u32) -> Table<T> {
        let bits = bits.max(T::MIN_TABLE_BITS);
        Table {
            slots: vec![T::EMPTY_SLOT; 1usize << bits],
            bits,
        }
    }

    /// Forgets every entry (writes the whole table: the pages are then resident).
    pub fn clear(&mut self) {
        self.slots.fill(T::EMPTY_SLOT);
    }

    /// The memory the table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<T::Slot>()
    }

    #[inline]
    fn index(&self, key: T) -> usize {
        (key.digest() >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, key: T) -> Option<(i32, i32, u8)> {
        key.meta_of(self.slots[self.index(key)], self.bits)
            .map(unmeta::<T>)
    }

    #[inline]
    fn put(&mut self, key: T, lower: i32, upper: i32, best: u8) {
        let i = self.index(key);
        let (mut lo, mut hi) = (lower, upper);
        if let Some((l, h, _)) = key.meta_of(self.slots[i], self.bits).map(unmeta::<T>) {
            lo = lo.max(l);
            hi = hi.min(h);
        }
        self.slots[i] = key.to_slot(self.bits, meta::<T>(lo, hi, best));
    }
}

/// One exact search over a frame, its table and a budget.
pub struct Solver<'a, T: Word> {
    pub frame: &'a Frame<T>,
    pub table: &'a mut Table<T>,
    pub budget: &'a mut Budget,
    /// Set once the budget ran out: every value since is meaningless.
    pub stopped: bool,
    /// Nodes the current search may still take before it halts ([`Solver::cap`]):
    /// `u64::MAX` when only the budget limits it.
    allowance: u64,
    /// Set when the budget ran out or the current search used its allowance: the
    /// search unwinds and its value is meaningless (what it stored stays true).
    halted: bool,
    /// Cells on the board.
    total: i32,
    /// The committed opening book of this board, if any.
    pub book: Option<&'static Book>,
    /// The installed outcome book of this board, if any ([`super::outcomes`]).
    pub outcomes: Option<&'static OutcomeBook>,
}

impl<'a, T: Word> Solver<'a, T> {
    pub fn new(frame: &'a Frame<T>, table: &'a mut Table<T>, budget: &'a mut Budget) -> Self {
        let total = (frame.m * frame.n) as i32;
        Solver {
            frame,
            table,
            budget,
            stopped: false,
            allowance: u64::MAX,
            halted: false,
            total,
            book: super::book::find(frame.m, frame.n, frame.k),
            outcomes: super::outcomes::find(frame.m, frame.n, frame.k),
        }
    }

    /// The score of a win for the side to move of `st` with its next stone.
    #[inline]
    pub fn win_now(&self, st: &Stones<T>) -> i32 {
        self.total - st.count as i32
    }

    /// The moves that do not let the opponent win at once; empty when every move does.
    #[inline]
    fn safe_moves(&self, st: &Stones<T>) -> T {
        let f = self.frame;
        let landing = st.landing(f);
        let theirs = st.their_wins(f);
        let mut moves = landing;
        let forced = landing & theirs;
        if forced != T::ZERO {
            if forced & (forced - T::ONE) != T::ZERO {
                return T::ZERO;
            }
            moves = forced;
        }
        moves & !theirs.down(1)
    }

    /// The table's key of `st` (the smaller of its key and its mirror image's), and
    /// whether it is the mirror image's.
    #[inline]
    fn key(&self, st: &Stones<T>) -> (T, bool) {
        let key = st.key(self.frame);
        let mirror = self.frame.mirror(key);
        if mirror < key {
            (mirror, true)
        } else {
            (key, false)
        }
    }

    /// The score of `st` within `(alpha, beta)` (fail-soft outside it). The side to move
    /// must not have a win now (the caller checks).
    pub fn negamax(&mut self, st: &Stones<T>, mut alpha: i32, mut beta: i32) -> i32 {
        if self.budget.tick() {
            self.stopped = true;
            self.halted = true;
            return 0;
        }
        if self.allowance == 0 {
            self.halted = true;
            return 0;
        }
        self.allowance -= 1;
        let s = st.count as i32;
        if s >= self.total {
            return 0;
        }
        if let Some(v) = self.booked(st) {
            return v;
        }
        let moves = self.safe_moves(st);
        if moves == T::ZERO {
            // Every move hands the opponent a win with stone s + 2.
            return -(self.total - s - 1);
        }
        // The opponent cannot win with stone s + 2 any more, nor we with s + 1.
        let min = if s + 4 <= self.total {
            -(self.total - s - 3)
        } else {
            0
        };
        let max = if s + 3 <= self.total {
            self.total - s - 2
        } else {
            0
        };
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // An outcome book's win, draw or loss bounds the score by 1 or -1 (or is it).
        if let Some(o) = self.outcomes.and_then(|b| b.outcome(self.frame, st)) {
            match o {
                0 => return 0,
                1 if alpha < 1 => {
                    alpha = 1;
                    if alpha >= beta {
                        return alpha;
                    }
                }
                -1 if beta > -1 => {
                    beta = -1;
                    if alpha >= beta {
                        return beta;
                    }
                }
                _ => {}
            }
        }
        let (key, mirrored) = self.key(st);
        // The table's best move, as a column of this orientation.
        let mut hint = None;
        if let Some((lo, hi, best)) = self.table.get(key) {
            if best > 0 {
                let c = best as u32 - 1;
                hint = Some(if mirrored { self.frame.m - 1 - c } else { c });
            }
            if lo > alpha {
                alpha = lo;
                if alpha >= beta {
                    return alpha;
                }
            }
            if hi < beta {
                beta = hi;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        let (list, len) = self.ordered(st, moves, hint);
        if len == usize::MAX {
            // A move leaves two wins the opponent cannot both stop: win with stone s + 3.
            return max;
        }
        // Enhanced transposition cutoff: a child whose table bound already refutes.
        for &(cell, _) in &list[..len] {
            let child = st.play(cell);
            if let Some((_, hi, _)) = self.table.get(self.key(&child).0) {
                if -hi >= beta {
                    return -hi;
                }
            }
        }
        let stored = |col: u32| {
            (if mirrored {
                self.frame.m - 1 - col
            } else {
                col
            }) as u8
                + 1
        };
        let alpha0 = alpha;
        let mut best = (i32::MIN, 0);
        for &(cell, col) in &list[..len] {
            let child = st.play(cell);
            let v = -self.negamax(&child, -beta, -alpha);
            if self.halted {
                return 0;
            }
            if v >= beta {
                let b = stored(col);
                self.table.put(key, v, max, b);
                return v;
            }
            if v > best.0 {
                best = (v, col);
            }
            if v > alpha {
                alpha = v;
            }
        }
        let b = stored(best.1);
        if alpha > alpha0 {
            self.table.put(key, alpha, alpha, b);
        } else {
            self.table.put(key, min, alpha, b);
        }
        alpha
    }

    /// The moves of `moves` with their columns: the table's move first, then by the
    /// winning cells each creates for the mover, most first, the centre first among
    /// equals (a stable insertion sort). The length is `usize::MAX` when a move wins by
    /// force with the mover's stone after next.
    fn ordered(&self, st: &Stones<T>, moves: T, hint: Option<u32>) -> ([(T, u32); 64], usize) {
        let f = self.frame;
        let mut list = [(T::ZERO, 0u32); 64];
        let mut score = [0u32; 64];
        let mut len = 0;
        let good = if st.count & 1 == 0 {
            f.odd
        } else {
            f.cells & !f.odd
        };
        for &c in &f.order {
            let cell = moves & f.column(c);
            if cell == T::ZERO {
                continue;
            }
            let mine = st.mine | cell;
            let all = st.all | cell;
            let t = f.wins(mine) & !all;
            // Two wins at once, or one on top of another: the opponent stops only one.
            let now = t & (all + f.bottom) & f.cells;
            if now != T::ZERO && (now & (now - T::ONE) != T::ZERO || t & now.up(1) != T::ZERO) {
                return (list, usize::MAX);
            }
            let s = if hint == Some(c) {
                u32::MAX
            } else {
                // Threats on the mover's rows (odd rows for the first player) count twice.
                2 * t.ones() + (t & good).ones()
            };
            let mut i = len;
            while i > 0 && score[i - 1] < s {
                list[i] = list[i - 1];
                score[i] = score[i - 1];
                i -= 1;
            }
            list[i] = (cell, c);
            score[i] = s;
            len += 1;
        }
        (list, len)
    }

    /// Narrows `[lo, hi]`, an interval known to hold the score of `st` (whose side to
    /// move has no win now), by null-window searches until it is one score or the
    /// budget runs out; returns what was proven.
    pub fn solve(&mut self, st: &Stones<T>, mut lo: i32, mut hi: i32) -> (i32, i32) {
        while lo < hi && !self.halted {
            let mut med = lo + (hi - lo) / 2;
            // Ask near zero first: whether it is a win or a loss is the cheap question.
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let r = self.negamax(st, med, med + 1);
            if self.halted {
                break;
            }
            if r <= med {
                hi = r;
            } else {
                lo = r;
            }
        }
        (lo, hi)
    }

    /// Lets the searches that follow take at most `nodes` nodes in all (`None`: as many
    /// as the budget gives) and clears a halt the last allowance caused. Returns
    /// whether they may run: false once the budget ran out.
    pub fn cap(&mut self, nodes: Option<u64>) -> bool {
        self.allowance = nodes.unwrap_or(u64::MAX);
        self.halted = self.stopped;
        !self.stopped
    }

    /// Whether the last search was cut short (by the budget or its allowance).
    pub fn halted(&self) -> bool {
        self.halted
    }

    /// The widest interval the score of `st` can lie in (no win now for its mover).
    pub fn bounds(&self, st: &Stones<T>) -> (i32, i32) {
        let s = st.count as i32;
        let lo = -(self.total - s - 1).max(0);
        let hi = (self.total - s - 2).max(0);
        (lo, hi)
    }
}

impl<T: Word> Solver<'_, T> {
    /// The book's score of `st` when the book has it.
    #[inline]
    pub fn booked(&self, st: &Stones<T>) -> Option<i32> {
        self.book?.score(self.frame, st)
    }
}
