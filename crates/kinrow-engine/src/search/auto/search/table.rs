//! The pattern search's transposition table: its entries (value, bound, depth, best
//! move, keyed by the whole position), win scores kept relative to the ply, and the
//! table a search by time leaves in the caller's context for the next one.
//!
//! The table is shared by every thread of a search ([`super::smp`]) without a lock: an
//! entry is three `AtomicU64` words, the value, the packed depth, bound and move, and the
//! key xor-ed with both ("lockless hashing"). A reader takes the key as the xor of the
//! three words, so an entry that two threads wrote at once (one word from each) reads as
//! another position's entry, a miss, never as a wrong entry of this position. One thread
//! reads and writes it exactly as a plain array of entries: an empty slot reads as key 0,
//! value 0, depth 0, exact, move 0, and the last write of a slot wins.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use crate::core::context::Kept;
use crate::search::auto::score::PATTERN_MATE;

/// Bounds of an entry's value: exact, at least, at most.
pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;

/// One position's entry, as read from or written to the [`Table`].
#[derive(Copy, Clone, Default)]
pub(super) struct Entry {
    pub key: u64,
    pub value: i64,
    pub depth: i16,
    pub bound: u8,
    pub best: u16,
}

impl Entry {
    /// The depth, bound and move in one word.
    fn packed(&self) -> u64 {
        u64::from(self.depth as u16) | u64::from(self.bound) << 16 | u64::from(self.best) << 32
    }
}

/// One slot: the key xor-ed with the other two words, the value, and the packed rest.
#[derive(Default)]
struct Slot([AtomicU64; 3]);

/// The lock-free table of a fixed power-of-two size (see the module docs).
pub(super) struct Table {
    slots: Box<[Slot]>,
}

impl Table {
    /// A table of `entries` rounded up to a power of two (at least 1024), empty.
    pub fn new(entries: usize) -> Table {
        let slots = std::iter::repeat_with(Slot::default)
            .take(table_size(entries))
            .collect();
        Table { slots }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The slot of `key`.
    #[inline]
    pub fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry in `slot`, whatever position it belongs to (compare its key).
    #[inline]
    pub fn read(&self, slot: usize) -> Entry {
        let [k, v, p] = &self.slots[slot].0;
        let (k, v, p) = (k.load(Relaxed), v.load(Relaxed), p.load(Relaxed));
        Entry {
            key: k ^ v ^ p,
            value: v as i64,
            depth: p as u16 as i16,
            bound: (p >> 16) as u8,
            best: (p >> 32) as u16,
        }
    }

    /// Writes `e` to `slot`, replacing what was there.
    #[inline]
    pub fn write(&self, slot: usize, e: Entry) {
        let (v, p) = (e.value as u64, e.packed());
        let [kw, vw, pw] = &self.slots[slot].0;
        kw.store(e.key ^ v ^ p, Relaxed);
        vw.store(v, Relaxed);
        pw.store(p, Relaxed);
    }

    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }
}

/// The table of the last search by time, with the rules it was filled under, kept in
/// the caller's [`SearchContext`](crate::core::context::SearchContext) for the next one (see
/// [`PatternSearch::keeping_table`](super::PatternSearch::keeping_table)): 2^18 entries
/// of 24 bytes, 6 MiB, shared with the threads of the search that uses it.
#[derive(Default)]
pub struct KeptTable(pub(super) Option<(u64, Arc<Table>)>);

impl Kept for KeptTable {
    fn bytes(&self) -> usize {
        self.0.as_ref().map_or(0, |(_, t)| t.bytes())
    }
}

pub(super) fn table_size(entries: usize) -> usize {
    entries.next_power_of_two().max(1024)
}

pub(super) fn to_tt(v: i64, ply: usize) -> i64 {
    if v >= PATTERN_MATE {
        v + ply as i64
    } else if v <= -PATTERN_MATE {
        v - ply as i64
    } else {
        v
    }
}

pub(super) fn from_tt(v: i64, ply: usize) -> i64 {
    if v >= PATTERN_MATE {
        v - ply as i64
    } else if v <= -PATTERN_MATE {
        v + ply as i64
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry reads back as written (negative values and depths, every field's extreme),
    /// an empty slot reads as the default entry, and a slot whose words come from two
    /// different writes (a torn write) reads as another key: a miss.
    #[test]
    fn entries_read_back_and_a_torn_write_is_a_miss() {
        let t = Table::new(1000);
        assert_eq!(t.len(), 1024);
        let e = t.read(5);
        assert_eq!(
            (e.key, e.value, e.depth, e.bound, e.best),
            (0, 0, 0, EXACT, 0)
        );
        let a = Entry {
            key: 0xDEAD_BEEF_0123_4567,
            value: -(1 << 50) + 7,
            depth: -3,
            bound: UPPER,
            best: u16::MAX,
        };
        let slot = t.slot(a.key);
        t.write(slot, a);
        let r = t.read(slot);
        assert_eq!(
            (r.key, r.value, r.depth, r.bound, r.best),
            (a.key, a.value, -3, UPPER, u16::MAX)
        );
        let b = Entry {
            key: a.key ^ (1 << 40),
            value: 12,
            depth: 9,
            bound: LOWER,
            best: 100,
        };
        t.write(slot, b);
        // A torn write: b's key word with a's value word.
        t.slots[slot].0[1].store(a.value as u64, Relaxed);
        let torn = t.read(slot);
        assert_ne!(torn.key, a.key);
        assert_ne!(torn.key, b.key);
    }
}
