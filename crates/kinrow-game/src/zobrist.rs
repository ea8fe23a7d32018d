//! Zobrist keys for incremental hashing of positions.
//!
//! Instead of random tables, every key is a SplitMix64 scramble of a unique id, so
//! keys are the same in every process (hashes are reproducible) and no table has to
//! be allocated for boards up to 64x64.

use super::cell::{Cell, Player};

/// The SplitMix64 scramble: a fixed, well-mixed 64-bit key for any id. Engines that
/// keep their own board representation derive their Zobrist keys from it too.
#[inline]
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of `cell` (an index) holding `content`; 0 for an empty cell.
#[inline]
pub fn cell_key(cell: usize, content: Cell) -> u64 {
    let tag = match content {
        Cell::Empty => return 0,
        Cell::Mark(Player::X) => 1,
        Cell::Mark(Player::O) => 2,
        Cell::Block => 3,
    };
    splitmix64(((cell as u64) << 2) | tag)
}

/// The key of `player` holding `count` pieces of special kind `kind` (0 block, 1 remove, 2 bomb).
#[inline]
pub fn hand_key(player: Player, kind: usize, count: u8) -> u64 {
    if count == 0 {
        return 0;
    }
    splitmix64(
        0x1_0000_0000 | ((player.index() as u64) << 16) | ((kind as u64) << 8) | count as u64,
    )
}

/// Xored in when `o` is to move.
pub const SIDE_KEY: u64 = 0x5DEE_CE66_D1CE_4E5B;
