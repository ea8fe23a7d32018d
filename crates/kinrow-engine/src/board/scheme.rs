//! Weight schemes: what a k-window that a player can still complete is worth to them,
//! by the marks they already hold in it. The board keeps one running sum per player
//! under its scheme, so each search reads its own score units from the same window
//! counts: the pattern search and the threat solver count `10^(marks - 1)`
//! ([`Pattern`]), `minimax` counts `4^marks` ([`Potential`]) and also keeps, per empty
//! cell, what a mark there would change.

/// How a search weighs the windows a player can still complete.
pub trait WeightScheme {
    /// Whether the board keeps per-cell sums ([`WeightScheme::cell_share`]) for this scheme.
    /// Keeping them costs `k` additions per window whose state a move changes, so the
    /// schemes that do not read them leave them off.
    const CELL_SUMS: bool;

    /// Whether the board keeps the sets of windows missing one or two marks (the
    /// threat queries' source); without them it only counts the windows missing one
    /// ([`LineBoard::fours`](super::LineBoard::fours)).
    const SETS: bool = true;

    /// The weight of a window open for a player holding `marks` of its `k` cells.
    fn window(k: usize, marks: usize) -> i64;

    /// What a window holding `count` marks (of x and o, no block) adds to the per-cell
    /// sum of player `p` on each of its cells.
    fn cell_share(_k: usize, _count: [u8; 2], _p: usize) -> i64 {
        0
    }
}

/// The pattern search's and the threat solver's scheme: `10^(marks - 1)`, nothing for an
/// empty window (capped at `10^12`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Pattern;

impl WeightScheme for Pattern {
    const CELL_SUMS: bool = false;

    #[inline]
    fn window(_k: usize, marks: usize) -> i64 {
        if marks == 0 {
            0
        } else {
            10i64.pow((marks as u32 - 1).min(12))
        }
    }
}

/// How much `p`'s [`Pattern`] score grows when `p` marks one more cell of an unblocked
/// k-window holding `count` marks (of x and o): nothing once the opponent has one there.
#[inline]
pub fn pattern_gain(k: usize, count: [u8; 2], p: usize) -> i64 {
    if count[1 - p] != 0 {
        return 0;
    }
    let c = count[p] as usize;
    Pattern::window(k, (c + 1).min(k)) - Pattern::window(k, c)
}

/// The unit of the completion count packed above the gain in [`Potential`]'s per-cell
/// sums. Gains are never negative and stay below `2^48` (at most `4k` windows of
/// weight at most `4^15`), so the two never mix.
pub const COMPLETES: i64 = 1 << 48;

/// `minimax`'s window potential: `4^marks` for every window a player can still
/// complete, the empty ones included (one more mark is worth more than all the
/// emptier windows around it); flat beyond 15 marks. Per cell and player it keeps the
/// exact change of that player's evaluation (own minus opponent's potential) if they
/// mark the cell, and above it, in units of [`COMPLETES`], the open windows a mark
/// there would complete.
#[derive(Copy, Clone, Debug, Default)]
pub struct Potential;

impl WeightScheme for Potential {
    const CELL_SUMS: bool = true;
    const SETS: bool = false;

    #[inline]
    fn window(_k: usize, marks: usize) -> i64 {
        1i64 << (2 * marks.min(15))
    }

    /// A mark of `p` on an empty cell raises `p`'s weight from `4^a` to `4^(a+1)` when
    /// the window is open for `p`, and takes the opponent's weight away when `p` had no
    /// mark in it.
    fn cell_share(k: usize, count: [u8; 2], p: usize) -> i64 {
        let (a, b) = (count[p] as usize, count[1 - p] as usize);
        let mut s = 0;
        if b == 0 {
            s += Self::window(k, a + 1) - Self::window(k, a) + COMPLETES * (a + 1 == k) as i64;
        }
        if a == 0 {
            s += Self::window(k, b);
        }
        s
    }
}

/// `mcts`'s playout evaluation: `4^marks` for every window a player can still complete
/// and already holds a mark in (flat beyond 20 marks); empty windows count nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct Playout;

impl WeightScheme for Playout {
    const CELL_SUMS: bool = false;

    #[inline]
    fn window(_k: usize, marks: usize) -> i64 {
        if marks == 0 {
            0
        } else {
            1i64 << (2 * marks.min(20))
        }
    }
}
