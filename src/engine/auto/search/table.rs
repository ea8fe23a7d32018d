//! The pattern search's transposition table: its entries (value, bound, depth, best
//! move, keyed by the whole position), win scores kept relative to the ply, and the
//! table a search by time leaves in the caller's context for the next one.

use super::MATE;
use crate::engine::context::Kept;

/// Bounds of an entry's value: exact, at least, at most.
pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;

/// One position's entry.
#[derive(Copy, Clone, Default)]
pub(super) struct Entry {
    pub key: u64,
    pub value: i64,
    pub depth: i16,
    pub bound: u8,
    pub best: u16,
}

/// The table of the last search by time, with the rules it was filled under, kept in
/// the caller's [`SearchContext`](crate::engine::SearchContext) for the next one (see
/// [`PatternSearch::keeping_table`](super::PatternSearch::keeping_table)): 2^18 entries
/// of 32 bytes, 8 MiB.
#[derive(Default)]
pub struct KeptTable(pub(super) Option<(u64, Vec<Entry>)>);

impl Kept for KeptTable {
    fn bytes(&self) -> usize {
        self.0
            .as_ref()
            .map_or(0, |(_, t)| t.len() * std::mem::size_of::<Entry>())
    }
}

pub(super) fn table_size(entries: usize) -> usize {
    entries.next_power_of_two().max(1024)
}

pub(super) fn to_tt(v: i64, ply: usize) -> i64 {
    if v >= MATE {
        v + ply as i64
    } else if v <= -MATE {
        v - ply as i64
    } else {
        v
    }
}

pub(super) fn from_tt(v: i64, ply: usize) -> i64 {
    if v >= MATE {
        v - ply as i64
    } else if v <= -MATE {
        v + ply as i64
    } else {
        v
    }
}
