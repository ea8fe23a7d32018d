//! Bit sets of board cells: `u64` for boards of up to 64 cells, `u128` up to 128.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of cells as the bits of an unsigned integer (bit `i` = cell `i`).
pub trait Bits:
    Copy
    + Eq
    + Default
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// How many cells fit.
    const CAPACITY: usize;
    /// The set holding only `cell`.
    fn bit(cell: usize) -> Self;
    /// The number of cells in the set.
    fn count(self) -> u32;
    /// True for the empty set.
    fn none(self) -> bool;
    /// The lowest cell of a non-empty set.
    fn first(self) -> usize;
    /// The set without its lowest cell (the empty set stays empty).
    fn rest(self) -> Self;
    /// True when `cell` is in the set.
    #[inline]
    fn has(self, cell: usize) -> bool {
        !(self & Self::bit(cell)).none()
    }
}

macro_rules! bits_impl {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            #[inline]
            fn bit(cell: usize) -> Self {
                1 << cell
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn none(self) -> bool {
                self == 0
            }
            #[inline]
            fn first(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn rest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

bits_impl!(u64);
bits_impl!(u128);

/// Iterates the cells of a set, lowest first.
#[inline]
pub fn cells<B: Bits>(mut set: B) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set.none() {
            None
        } else {
            let c = set.first();
            set = set.rest();
            Some(c)
        }
    })
}
