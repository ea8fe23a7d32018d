//! The window-potential heuristic shared by `minimax` and `greedy`.
//!
//! A player's potential counts every k-window (a run of `k` cells in a row, column or
//! diagonal) that holds none of the opponent's marks and no block: a line the player
//! can still complete. Each such window weighs more the more of the player's own marks
//! it already holds ([`window_weight`]). The evaluation of a position is the side to
//! move's potential minus the opponent's.

use crate::game::{Cell, Player, Position};

/// The weight of a window that `player` can still complete and in which they already
/// have `own` of the `k` marks: `4^own`, so one more mark in a window is worth more
/// than all the emptier windows around it.
#[inline]
pub fn window_weight(own: u32) -> f64 {
    (4.0f64).powi(own as i32)
}

/// Counts `player`'s marks in window `w` and whether it is still open for them
/// (no opponent mark, no block).
#[inline]
pub fn window_state(position: &Position, cells: &[u16], player: Player) -> Option<u32> {
    let mut own = 0;
    for &c in cells {
        match position.cell(c as usize) {
            Cell::Empty => {}
            Cell::Mark(p) if p == player => own += 1,
            _ => return None,
        }
    }
    Some(own)
}

/// The potential of `player`: the summed weight of every window they can still complete.
pub fn potential(position: &Position, player: Player) -> f64 {
    let windows = position.geometry().windows();
    windows
        .all
        .iter()
        .filter_map(|w| window_state(position, &w.cells, player))
        .map(window_weight)
        .sum()
}

/// The static evaluation for the side to move: own potential minus the opponent's.
pub fn evaluate(position: &Position) -> f64 {
    let me = position.to_move();
    potential(position, me) - potential(position, me.opponent())
}

/// The potentials of both players (`[x, o]`) counted only over the windows through
/// `cell`: the part of [`potential`] that a change at `cell` can alter.
pub fn potential_through(position: &Position, cell: usize) -> [f64; 2] {
    let windows = position.geometry().windows();
    let mut out = [0.0; 2];
    for &wi in windows.through(cell) {
        let w = &windows.all[wi as usize];
        for p in Player::BOTH {
            if let Some(own) = window_state(position, &w.cells, p) {
                out[p.index()] += window_weight(own);
            }
        }
    }
    out
}

/// [`window_weight`] as an integer, for the searches that keep exact integer sums.
/// The same `4^own` up to `own = 15`, flat beyond (only lines of `k > 16` get there).
#[inline]
pub fn window_weight_int(own: u32) -> i64 {
    1i64 << (2 * own.min(15))
}

/// The window potential of both players kept up to date cell by cell: every k-window's
/// counts of x marks, o marks and blocks, and the summed integer weights
/// ([`window_weight_int`]) of the windows each player can still complete. A change at
/// one cell touches only the windows through it (at most `4k` of them).
#[derive(Clone, Debug)]
pub struct Incremental {
    k: u32,
    /// Per window: x marks, o marks, blocks.
    counts: Vec<[u8; 3]>,
    potential: [i64; 2],
    /// Per player: open windows missing only one mark (a win next move, overline aside).
    fours: [u32; 2],
}

impl Incremental {
    /// The counts of `position`, computed once from scratch.
    pub fn new(position: &Position) -> Incremental {
        let windows = position.geometry().windows();
        let mut inc = Incremental {
            k: position.k(),
            counts: vec![[0; 3]; windows.all.len()],
            potential: [0; 2],
            fours: [0; 2],
        };
        for (i, w) in windows.all.iter().enumerate() {
            let mut c = [0u8; 3];
            for &cell in w.cells.iter() {
                match position.cell(cell as usize) {
                    Cell::Empty => {}
                    Cell::Mark(p) => c[p.index()] += 1,
                    Cell::Block => c[2] += 1,
                }
            }
            inc.counts[i] = c;
            inc.account(c, 1);
        }
        inc
    }

    #[inline]
    fn account(&mut self, c: [u8; 3], sign: i64) {
        if c[2] > 0 {
            return;
        }
        for p in 0..2 {
            if c[1 - p] == 0 {
                let own = c[p] as u32;
                self.potential[p] += sign * window_weight_int(own);
                if own + 1 == self.k {
                    self.fours[p] = (self.fours[p] as i64 + sign) as u32;
                }
            }
        }
    }

    /// Records that `cell` changed from `old` to `new`.
    #[inline]
    pub fn update(&mut self, position: &Position, cell: usize, old: Cell, new: Cell) {
        if old == new {
            return;
        }
        let slot = |c: Cell| match c {
            Cell::Empty => None,
            Cell::Mark(p) => Some(p.index()),
            Cell::Block => Some(2),
        };
        let windows = position.geometry().windows();
        for &wi in windows.through(cell) {
            let wi = wi as usize;
            let before = self.counts[wi];
            let mut after = before;
            if let Some(s) = slot(old) {
                after[s] -= 1;
            }
            if let Some(s) = slot(new) {
                after[s] += 1;
            }
            self.account(before, -1);
            self.account(after, 1);
            self.counts[wi] = after;
        }
    }

    /// The potential of `player`, as an integer (equal to [`potential`] while `k <= 16`).
    #[inline]
    pub fn potential(&self, player: Player) -> i64 {
        self.potential[player.index()]
    }

    /// Own potential minus the opponent's, for `player`.
    #[inline]
    pub fn evaluate(&self, player: Player) -> i64 {
        self.potential[player.index()] - self.potential[player.opponent().index()]
    }

    /// Open windows in which `player` misses only one mark.
    #[inline]
    pub fn fours(&self, player: Player) -> u32 {
        self.fours[player.index()]
    }

    /// The counts (x marks, o marks, blocks) of window `index`.
    #[inline]
    pub fn counts(&self, index: usize) -> [u8; 3] {
        self.counts[index]
    }
}
