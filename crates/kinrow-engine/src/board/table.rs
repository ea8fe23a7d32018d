//! The window-state table: what each state of a k-window (its marks of x and o, and
//! whether a block breaks it) means for each player under a weight scheme, built once
//! per board so that a move's update reads it instead of branching on the counts.

use super::WeightScheme;

/// What a window state means (see `LineBoard::kinds`).
#[derive(Copy, Clone, Default, Debug)]
pub(super) struct Kind {
    /// Marks of `x` and `o`.
    pub count: [u8; 2],
    /// What the window adds to each score.
    pub score: [i64; 2],
    /// For each player: how many marks they still miss if the window is open for them
    /// (no block, no opposing mark), else `None`.
    pub need: [Option<u8>; 2],
    /// For each player: how many marks they still miss (1 or 2) if the window is open
    /// for them, else 0 (the set it is kept in).
    pub class: [u8; 2],
    /// What the window offers each player (nothing once it is closed to them).
    pub growth: [Growth; 2],
    /// Its share of each player's per-cell sums on every cell of it.
    pub cell: [i64; 2],
}

/// What an open window offers one player: how much a further mark would add to the
/// player's score, and the window's weight in
/// [`LineBoard::lines_through`](super::LineBoard::lines_through).
#[derive(Copy, Clone, Default, Debug)]
pub(super) struct Growth {
    pub gain: i64,
    pub lines: u32,
}

/// What a window holding `count` marks means under scheme `W`, `open` when no block
/// breaks it.
pub(super) fn kind<W: WeightScheme>(k: usize, count: [u8; 2], open: bool) -> Kind {
    const LINES: [u32; 4] = [1, 64, 16, 4];
    let mut kind = Kind {
        count,
        ..Kind::default()
    };
    if !open {
        return kind;
    }
    for p in 0..2 {
        if W::CELL_SUMS {
            kind.cell[p] = W::cell_share(k, count, p);
        }
        if count[1 - p] != 0 {
            continue;
        }
        let c = count[p] as usize;
        kind.score[p] = W::window(k, c);
        let need = k.saturating_sub(c);
        kind.need[p] = Some(need as u8);
        if (1..=2).contains(&need) {
            kind.class[p] = need as u8;
        }
        kind.growth[p] = Growth {
            gain: W::window(k, (c + 1).min(k)) - W::window(k, c),
            lines: LINES.get(need).copied().unwrap_or(1),
        };
    }
    kind
}
