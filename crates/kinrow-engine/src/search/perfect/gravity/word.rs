//! The gravity board as bits: column `c` holds bits `c*(n+1) .. c*(n+1)+n-1`, the
//! bottom row first, and one empty sentinel bit on top so that no line test wraps from
//! one column into the next. `u64` serves boards with `m*(n+1) <= 64` (7x6), `u128`
//! those up to 128 bits.

use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Sub};

/// An unsigned integer used as a set of board bits.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Default
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Send
    + Sync
    + 'static
{
    const BITS: u32;
    const ZERO: Self;
    const ONE: Self;
    /// `self >> t`, empty once `t` reaches the width.
    fn down(self, t: u32) -> Self;
    /// `self << t`, empty once `t` reaches the width.
    fn up(self, t: u32) -> Self;
    fn ones(self) -> u32;
    /// A 64-bit digest for the table's index (Fibonacci hashing: its top bits mix all
    /// of the key's bits).
    fn digest(self) -> u64;
    /// As a `u128` (book keys are written that wide whatever the board).
    fn wide(self) -> u128;
    /// From a `u128` that fits.
    fn narrow(v: u128) -> Self;

    /// The table's entry for positions of this width ([`super::search::Table`]): a key
    /// and its `meta` (bounds and best move, never 0 once written), all zero when empty.
    type Slot: Copy + Send + Sync + 'static;
    const EMPTY_SLOT: Self::Slot;
    /// The bits a score takes in `meta` (a board of `BITS` bits has scores below
    /// `2^(SCORE_BITS - 1)` in size).
    const SCORE_BITS: u32;
    /// The smallest table (as a power of two) [`Word::to_slot`] can key.
    const MIN_TABLE_BITS: u32;
    /// The entry of key `self` with `meta` in a table of `2^bits` entries, at index
    /// `self.digest() >> (64 - bits)`.
    fn to_slot(self, bits: u32, meta: u64) -> Self::Slot;
    /// The `meta` of `slot` when it holds key `self` (in a table of `2^bits` entries).
    fn meta_of(self, slot: Self::Slot, bits: u32) -> Option<u64>;
}

/// The methods both widths share.
macro_rules! word_common {
    ($t:ty) => {
        const BITS: u32 = <$t>::BITS;
        const ZERO: Self = 0;
        const ONE: Self = 1;
        #[inline]
        fn down(self, t: u32) -> Self {
            self.checked_shr(t).unwrap_or(0)
        }
        #[inline]
        fn up(self, t: u32) -> Self {
            self.checked_shl(t).unwrap_or(0)
        }
        #[inline]
        fn ones(self) -> u32 {
            self.count_ones()
        }
        fn wide(self) -> u128 {
            self as u128
        }
        fn narrow(v: u128) -> Self {
            v as $t
        }
        #[inline]
        fn digest(self) -> u64 {
            let folded = (self as u128 as u64) ^ ((self as u128 >> 64) as u64);
            folded.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }
    };
}

/// A 64-bit key keeps only the digest's bits below the index, with `meta` above them in
/// one `u64`: the digest multiplies the key by an odd number, which loses nothing, so
/// the index and those bits give back the key. 8 bytes an entry, one read a probe.
impl Word for u64 {
    word_common!(u64);
    type Slot = u64;
    const EMPTY_SLOT: u64 = 0;
    const SCORE_BITS: u32 = 7;
    /// `meta` takes 20 bits (two scores and a column of 6 bits): the index must take
    /// at least as many of the digest's 64.
    const MIN_TABLE_BITS: u32 = 20;
    #[inline]
    fn to_slot(self, bits: u32, meta: u64) -> u64 {
        let low = 64 - bits;
        (self.digest() & ((1 << low) - 1)) | (meta << low)
    }
    #[inline]
    fn meta_of(self, slot: u64, bits: u32) -> Option<u64> {
        let low = 64 - bits;
        let mask = (1 << low) - 1;
        (slot != 0 && slot & mask == self.digest() & mask).then_some(slot >> low)
    }
}

/// A 128-bit key is kept whole (its digest folds it), `meta` beside it: 20 bytes.
impl Word for u128 {
    word_common!(u128);
    type Slot = [u32; 5];
    const EMPTY_SLOT: [u32; 5] = [0; 5];
    const SCORE_BITS: u32 = 8;
    const MIN_TABLE_BITS: u32 = 1;
    #[inline]
    fn to_slot(self, _bits: u32, meta: u64) -> [u32; 5] {
        let k = |i: u32| (self >> (32 * i)) as u32;
        [k(0), k(1), k(2), k(3), meta as u32]
    }
    #[inline]
    fn meta_of(self, slot: [u32; 5], _bits: u32) -> Option<u64> {
        let key = (0..4).fold(0u128, |key, i| key | (slot[i] as u128) << (32 * i));
        (slot[4] != 0 && key == self).then_some(slot[4] as u64)
    }
}

/// The fixed shape of a gravity board: size, k, the masks the moves use.
#[derive(Clone, Debug)]
pub struct Frame<T: Word> {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    /// Bits per column: `n` cells and the sentinel.
    pub h1: u32,
    /// Every cell's bit (no sentinels).
    pub cells: T,
    /// The bottom cell of every column.
    pub bottom: T,
    /// The cells of the odd rows counted from the bottom (1st, 3rd, ...): where the first
    /// player's threats count, the second player's being on the even rows.
    pub odd: T,
    /// The columns in search order: the centre first, then outwards.
    pub order: Vec<u32>,
}

impl<T: Word> Frame<T> {
    /// The frame of an `m` x `n` board with `k` in a row, if it fits `T`.
    pub fn new(m: u32, n: u32, k: u32) -> Option<Frame<T>> {
        let h1 = n + 1;
        if m * h1 > T::BITS {
            return None;
        }
        let (mut cells, mut bottom, mut odd) = (T::ZERO, T::ZERO, T::ZERO);
        for c in 0..m {
            let col = (T::ONE.up(n) - T::ONE).up(c * h1);
            cells = cells | col;
            bottom = bottom | T::ONE.up(c * h1);
            for h in (0..n).step_by(2) {
                odd = odd | T::ONE.up(c * h1 + h);
            }
        }
        let mut order: Vec<u32> = (0..m).collect();
        // Centre first: by distance from the middle, the left one first on ties.
        order.sort_by_key(|&c| ((2 * c as i32 + 1 - m as i32).abs(), c));
        Some(Frame {
            m,
            n,
            k,
            h1,
            cells,
            bottom,
            odd,
            order,
        })
    }

    /// The bits of column `c` (no sentinel).
    #[inline]
    pub fn column(&self, c: u32) -> T {
        (T::ONE.up(self.n) - T::ONE).up(c * self.h1)
    }

    /// The bit of the cell in column `c`, `h` cells above the bottom.
    #[inline]
    pub fn bit(&self, c: u32, h: u32) -> T {
        T::ONE.up(c * self.h1 + h)
    }

    /// The cells that would complete `k` in a row for the stones `s` (occupied or not).
    #[inline]
    pub fn wins(&self, s: T) -> T {
        if self.k == 4 {
            return self.wins4(s);
        }
        let k = self.k;
        let mut out = T::ZERO;
        for d in [1, self.h1, self.h1 - 1, self.h1 + 1] {
            // The new cell is the j-th of a window of k cells along d; vertically only
            // the top one (j = k - 1) can be empty.
            let first = if d == 1 { k - 1 } else { 0 };
            for j in first..k {
                let mut acc = !T::ZERO;
                for i in 0..k {
                    if i == j {
                        continue;
                    }
                    acc = if i > j {
                        acc & s.down((i - j) * d)
                    } else {
                        acc & s.up((j - i) * d)
                    };
                }
                out = out | acc;
            }
        }
        out & self.cells
    }

    /// [`Frame::wins`] for four in a row: per direction, the three stones on either side
    /// of the cell as shifted pairs (the same answer, a quarter of the shifts).
    #[inline]
    fn wins4(&self, s: T) -> T {
        // Vertically only the cell above three stones.
        let mut out = s.up(1) & s.up(2) & s.up(3);
        for d in [self.h1, self.h1 - 1, self.h1 + 1] {
            let before = s.up(d) & s.up(2 * d);
            out = out | (before & s.up(3 * d)) | (before & s.down(d));
            let after = s.down(d) & s.down(2 * d);
            out = out | (after & s.down(3 * d)) | (after & s.up(d));
        }
        out & self.cells
    }

    /// The key mirrored left to right (columns reversed).
    #[inline]
    pub fn mirror(&self, key: T) -> T {
        let col = T::ONE.up(self.h1) - T::ONE;
        let mut out = T::ZERO;
        for c in 0..self.m {
            out = out | (key.down(c * self.h1) & col).up((self.m - 1 - c) * self.h1);
        }
        out
    }
}

/// A gravity position: the side to move's stones and all stones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stones<T: Word> {
    pub mine: T,
    pub all: T,
    /// Stones on the board.
    pub count: u32,
}

impl<T: Word> Stones<T> {
    /// The landing cells of the columns that are not full.
    #[inline]
    pub fn landing(&self, f: &Frame<T>) -> T {
        (self.all + f.bottom) & f.cells
    }

    /// The position after the side to move drops a stone on `cell` (a landing bit).
    #[inline]
    pub fn play(&self, cell: T) -> Stones<T> {
        Stones {
            mine: self.mine ^ self.all,
            all: self.all | cell,
            count: self.count + 1,
        }
    }

    /// The empty cells where the side to move would complete a line.
    #[inline]
    pub fn my_wins(&self, f: &Frame<T>) -> T {
        f.wins(self.mine) & !self.all
    }

    /// The empty cells where the opponent would complete a line.
    #[inline]
    pub fn their_wins(&self, f: &Frame<T>) -> T {
        f.wins(self.mine ^ self.all) & !self.all
    }

    /// A key unique to the position (per column, stones plus a height marker).
    #[inline]
    pub fn key(&self, f: &Frame<T>) -> T {
        self.mine + self.all + f.bottom
    }

    /// The position of a key (the inverse of [`Stones::key`]): in each column the
    /// highest set bit marks the height, the bits below it are the mover's stones.
    pub fn from_key(f: &Frame<T>, key: T) -> Stones<T> {
        let col = T::ONE.up(f.h1) - T::ONE;
        let (mut mine, mut all, mut count) = (T::ZERO, T::ZERO, 0);
        for c in 0..f.m {
            let bits = key.down(c * f.h1) & col;
            let height = 127 - bits.wide().leading_zeros();
            let filled = T::ONE.up(height) - T::ONE;
            all = all | filled.up(c * f.h1);
            mine = mine | (bits & filled).up(c * f.h1);
            count += height;
        }
        Stones { mine, all, count }
    }
}
