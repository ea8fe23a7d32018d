//! A transposition table: what the search already learned about a position, keyed by
//! its Zobrist hash.
//!
//! Each entry holds a value with its [`Bound`], the remaining depth it was searched to,
//! and the best move found (for move ordering). Win and loss values are stored relative
//! to the node, not to the root ([`to_tt`] / [`from_tt`]), so that "win in N" found
//! through one path stays right when the same position is reached at another ply.
//!
//! The table is a power-of-two array of two-slot buckets: the first slot keeps the
//! deepest entry, the second always takes the newest.

use kinrow_game::{Move, Piece};

/// What a stored value says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's hash.
    pub key: u64,
    /// The stored value.
    pub value: i64,
    /// The depth it was searched to.
    pub depth: u16,
    /// What the value says about the true value.
    pub bound: Bound,
    /// The best move found, packed ([`pack_move`]); `NO_MOVE` when none.
    pub mv: u32,
}

/// The packed form of "no move".
pub const NO_MOVE: u32 = u32::MAX;

/// Packs a move into 32 bits for the table.
#[inline]
pub fn pack_move(mv: Move) -> u32 {
    ((mv.cell as u32) << 2) | mv.piece as u32
}

/// Unpacks a move stored with [`pack_move`].
#[inline]
pub fn unpack_move(packed: u32) -> Option<Move> {
    if packed == NO_MOVE {
        return None;
    }
    let piece = Piece::ALL[(packed & 3) as usize];
    Some(Move::new((packed >> 2) as usize, piece))
}

/// A transposition table: fixed-size ([`TranspositionTable::new`]) or one that starts
/// small and doubles as it fills, up to a cap ([`TranspositionTable::growing`]).
///
/// Slots are stored as three words (key, value, packed rest) so that a new table is
/// zeroed memory the system hands out lazily. Hashing spreads entries over the whole
/// table, though, so a big table soon touches every page: a short search is cheaper
/// with a growing one, which only ever touches a few times the memory its entries need.
pub struct TranspositionTable {
    slots: Vec<[u64; 3]>,
    mask: usize,
    /// The most buckets a growing table may reach (`mask + 1` for a fixed one).
    max_buckets: usize,
    /// Slots holding an entry.
    used: usize,
    /// False while the owner forbids growing (near its deadline).
    may_grow: bool,
}

const VALID: u64 = 1 << 63;

/// The table size, in bits, for a search of `ms` milliseconds on `cells` cells.
pub fn budget_bits(ms: u128, cells: usize) -> u32 {
    let by_time = match ms {
        0..=300 => 18,
        301..=3000 => 20,
        3001..=20000 => 21,
        _ => 22,
    };
    let by_board = (cells as u32 / 2 + 6).clamp(11, 22);
    by_time.min(by_board)
}

impl TranspositionTable {
    /// A table of about `2^bits` entries (at least 2) that never grows (the tests' fixed
    /// tables).
    #[cfg(test)]
    pub fn new(bits: u32) -> TranspositionTable {
        TranspositionTable::growing(bits, bits)
    }

    /// A table of about `2^start_bits` entries that doubles whenever 3/8 of its slots
    /// are taken (3/4 of the buckets' first slots, which take most entries), up to about
    /// `2^max_bits` entries.
    pub fn growing(start_bits: u32, max_bits: u32) -> TranspositionTable {
        let buckets = 1usize << start_bits.clamp(1, 30).saturating_sub(1);
        let max_buckets = (1usize << max_bits.clamp(1, 30).saturating_sub(1)).max(buckets);
        TranspositionTable {
            slots: vec![[0u64; 3]; buckets * 2],
            mask: buckets - 1,
            max_buckets,
            used: 0,
            may_grow: true,
        }
    }

    /// A table for a search of `ms` milliseconds on a board of `cells` cells, starting at
    /// 2^15 entries (768 kB) and growing only as the search fills it, up to the size
    /// [`budget_bits`] gives: bigger budgets and boards get more room (24 bytes an entry;
    /// from 48 kB for tic-tac-toe up to 100 MB). Small problems get small tables: fewer
    /// fresh memory pages to fault in.
    pub fn growing_for_budget(ms: u128, cells: usize) -> TranspositionTable {
        let max = budget_bits(ms, cells);
        TranspositionTable::growing(max.min(15), max)
    }

    /// Allows or forbids growing from now on. Growing re-inserts every entry into fresh
    /// memory: a pause of a few milliseconds for a table of 2^18 entries, tens for one
    /// of 2^20; a search forbids it near its deadline.
    pub fn allow_growth(&mut self, allowed: bool) {
        self.may_grow = allowed;
    }

    /// Entries the table can hold now.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Doubles the table and re-inserts every entry.
    #[cold]
    fn grow(&mut self) {
        let buckets = (self.mask + 1) * 2;
        let old = std::mem::replace(&mut self.slots, vec![[0u64; 3]; buckets * 2]);
        self.mask = buckets - 1;
        self.used = 0;
        for slot in old {
            if slot[2] & VALID != 0 {
                let e = Self::decode(slot);
                self.place(e.key, e.value, e.depth, e.bound, e.mv);
            }
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * 2
    }

    #[inline]
    fn decode(slot: [u64; 3]) -> Entry {
        let meta = slot[2];
        Entry {
            key: slot[0],
            value: slot[1] as i64,
            mv: meta as u32,
            depth: (meta >> 32) as u16,
            bound: match (meta >> 48) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }

    #[inline]
    fn encode(e: &Entry) -> [u64; 3] {
        let bound = match e.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        [
            e.key,
            e.value as u64,
            VALID | (bound << 48) | ((e.depth as u64) << 32) | e.mv as u64,
        ]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in [self.slots[b], self.slots[b + 1]] {
            if slot[0] == key && slot[2] & VALID != 0 {
                return Some(Self::decode(slot));
            }
        }
        None
    }

    /// Stores a result for `key`: in the first slot of its bucket when that holds the
    /// same position or a shallower one, else in the second.
    #[inline]
    pub fn store(&mut self, key: u64, value: i64, depth: u16, bound: Bound, mv: u32) {
        self.place(key, value, depth, bound, mv);
        if self.mask + 1 < self.max_buckets && self.may_grow && self.used * 8 > self.slots.len() * 3
        {
            self.grow();
        }
    }

    #[inline]
    fn place(&mut self, key: u64, value: i64, depth: u16, bound: Bound, mv: u32) {
        let b = self.bucket(key);
        let first = self.slots[b];
        let first_valid = first[2] & VALID != 0;
        let old = Self::decode(first);
        let slot = if !first_valid || old.key == key || depth >= old.depth {
            b
        } else {
            b + 1
        };
        // keep a known best move when the new result has none
        let mv = if mv == NO_MOVE && slot == b && first_valid && old.key == key {
            old.mv
        } else {
            mv
        };
        if self.slots[slot][2] & VALID == 0 {
            self.used += 1;
        }
        self.slots[slot] = Self::encode(&Entry {
            key,
            value,
            depth,
            bound,
            mv,
        });
    }
}

/// A value as stored: a win or loss (beyond `mate` in absolute value) counted from
/// this node instead of from the root, which is `ply` plies above it.
#[inline]
pub fn to_tt(value: i64, ply: i64, mate: i64) -> i64 {
    if value >= mate {
        value + ply
    } else if value <= -mate {
        value - ply
    } else {
        value
    }
}

/// The inverse of [`to_tt`] at a node `ply` plies below the root.
#[inline]
pub fn from_tt(value: i64, ply: i64, mate: i64) -> i64 {
    if value >= mate {
        value - ply
    } else if value <= -mate {
        value + ply
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        for piece in Piece::ALL {
            let mv = Move::new(4095, piece);
            assert_eq!(unpack_move(pack_move(mv)), Some(mv));
        }
        assert_eq!(unpack_move(NO_MOVE), None);
    }

    #[test]
    fn mate_values_are_relative_to_the_node() {
        let mate = 1000;
        // a win 7 plies from the root, found at ply 3: 4 plies from the node
        let stored = to_tt(2000 - 7, 3, mate);
        assert_eq!(stored, 2000 - 4);
        // reached again at ply 5: 9 plies from the root
        assert_eq!(from_tt(stored, 5, mate), 2000 - 9);
        assert_eq!(from_tt(to_tt(-2000 + 6, 2, mate), 4, mate), -2000 + 8);
        assert_eq!(to_tt(17, 9, mate), 17);
    }

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(4);
        assert!(tt.probe(42).is_none());
        tt.store(42, 5, 3, Bound::Lower, pack_move(Move::mark(7)));
        let e = tt.probe(42).unwrap();
        assert_eq!((e.value, e.depth, e.bound), (5, 3, Bound::Lower));
        assert_eq!(unpack_move(e.mv), Some(Move::mark(7)));
        // a result without a move keeps the known best move
        tt.store(42, 6, 4, Bound::Exact, NO_MOVE);
        assert_eq!(unpack_move(tt.probe(42).unwrap().mv), Some(Move::mark(7)));
    }

    #[test]
    fn a_growing_table_keeps_its_entries() {
        let mut tt = TranspositionTable::growing(4, 13);
        assert_eq!(tt.capacity(), 16);
        // consecutive keys: the table grows before two of them share a bucket, so none
        // is lost
        for key in 0..1000u64 {
            tt.store(
                key,
                key as i64 * 3,
                2000 - key as u16,
                Bound::Exact,
                key as u32,
            );
        }
        assert_eq!(tt.capacity(), 4096);
        for key in 0..1000u64 {
            let e = tt.probe(key).expect("entry kept");
            assert_eq!(
                (e.value, e.depth, e.mv),
                (key as i64 * 3, 2000 - key as u16, key as u32)
            );
        }
        // the cap holds
        for key in 1000..5000u64 {
            tt.store(key, 0, 0, Bound::Upper, NO_MOVE);
        }
        assert_eq!(tt.capacity(), 8192);
        // a fixed table never grows
        let mut fixed = TranspositionTable::new(4);
        for key in 1..=100u64 {
            fixed.store(key, 0, 0, Bound::Exact, NO_MOVE);
        }
        assert_eq!(fixed.capacity(), 16);
        // nor does a growing one while growth is forbidden
        let mut held = TranspositionTable::growing(4, 12);
        held.allow_growth(false);
        for key in 1..=100u64 {
            held.store(key, 0, 0, Bound::Exact, NO_MOVE);
        }
        assert_eq!(held.capacity(), 16);
        held.allow_growth(true);
        held.store(101, 0, 0, Bound::Exact, NO_MOVE);
        assert_eq!(held.capacity(), 32);
    }
}
