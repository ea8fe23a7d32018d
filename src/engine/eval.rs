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
///
/// Alongside, for every cell and player, what a mark of that player there would do:
/// the exact change of their evaluation ([`Incremental::gain`]) and how many of their
/// open windows it would complete ([`Incremental::completes`]). A window's share of
/// these depends only on its counts, so a change of counts updates the `k` cells of
/// the window; the values of occupied cells are kept too but mean nothing. With them
/// the value of every child of a node is a lookup, without playing the move.
#[derive(Clone, Debug)]
pub struct Incremental {
    k: usize,
    /// Per window: x marks, o marks, blocks.
    counts: Vec<[u8; 3]>,
    /// The cells of every window, `k` per window, flat.
    window_cells: Vec<u16>,
    /// What a window adds to the sums, by its counts ([`Incremental::state`]).
    table: Vec<WindowShare>,
    potential: [i64; 2],
    /// Per player: open windows missing only one mark (a win next move, overline aside).
    fours: [i64; 2],
    /// Per cell, per player: the change of that player's evaluation if they mark it
    /// (low bits) and the open windows through it missing only their mark
    /// (times [`COMPLETES`]).
    marks: Vec<[i64; 2]>,
}

/// The unit of the completion count packed above the gain in [`Incremental`]'s
/// per-cell sums. Gains are never negative and stay below `2^48` (at most `4k`
/// windows of weight at most `4^15`), so the two never mix.
const COMPLETES: i64 = 1 << 48;

/// What one window adds to [`Incremental`]'s sums, per player: its weight in the
/// potential, whether it is one of the fours, and its share of a mark's gain and
/// completions on each of its empty cells.
#[derive(Copy, Clone, Debug, Default)]
struct WindowShare {
    potential: [i64; 2],
    fours: [i64; 2],
    marks: [i64; 2],
}

impl WindowShare {
    /// The share of a window holding `own[p]` marks of each player and no block. A
    /// mark of `p` on one of its empty cells raises `p`'s weight from `4^a` to
    /// `4^(a+1)` when the window is open for `p`, and takes the opponent's weight away
    /// when `p` had no mark in it.
    fn of(own: [u32; 2], k: u32) -> WindowShare {
        let mut s = WindowShare::default();
        for p in 0..2 {
            let (a, b) = (own[p], own[1 - p]);
            if b == 0 {
                s.potential[p] = window_weight_int(a);
                s.fours[p] = (a + 1 == k) as i64;
                s.marks[p] += window_weight_int(a + 1) - window_weight_int(a)
                    + COMPLETES * (a + 1 == k) as i64;
            }
            if a == 0 {
                s.marks[p] += window_weight_int(b);
            }
        }
        s
    }
}

impl Incremental {
    /// The counts of `position`, computed once from scratch.
    pub fn new(position: &Position) -> Incremental {
        let windows = position.geometry().windows();
        let k = position.k() as usize;
        let cells = position.cells().len();
        // the table: index own[x] * (k + 1) + own[o] for open windows, and one past the
        // end (all zero) for windows with a block
        let mut table = Vec::with_capacity((k + 1) * (k + 1) + 1);
        for x in 0..=k as u32 {
            for o in 0..=k as u32 {
                table.push(WindowShare::of([x, o], k as u32));
            }
        }
        table.push(WindowShare::default());
        let mut inc = Incremental {
            k,
            counts: vec![[0; 3]; windows.all.len()],
            window_cells: Vec::with_capacity(windows.all.len() * k),
            table,
            potential: [0; 2],
            fours: [0; 2],
            marks: vec![[0; 2]; cells],
        };
        for (i, w) in windows.all.iter().enumerate() {
            debug_assert_eq!(w.cells.len(), k);
            inc.window_cells.extend_from_slice(&w.cells);
            let mut c = [0u8; 3];
            for &cell in w.cells.iter() {
                match position.cell(cell as usize) {
                    Cell::Empty => {}
                    Cell::Mark(p) => c[p.index()] += 1,
                    Cell::Block => c[2] += 1,
                }
            }
            inc.counts[i] = c;
            let share = inc.table[inc.state(c)];
            for p in 0..2 {
                inc.potential[p] += share.potential[p];
                inc.fours[p] += share.fours[p];
            }
            for &cell in w.cells.iter() {
                let m = &mut inc.marks[cell as usize];
                m[0] += share.marks[0];
                m[1] += share.marks[1];
            }
        }
        inc
    }

    /// The index into the share table of a window with counts `c`.
    #[inline]
    fn state(&self, c: [u8; 3]) -> usize {
        if c[2] > 0 {
            self.table.len() - 1
        } else {
            c[0] as usize * (self.k + 1) + c[1] as usize
        }
    }

    /// Records that `cell` changed from `old` to `new`.
    #[inline]
    pub fn update(&mut self, position: &Position, cell: usize, old: Cell, new: Cell) {
        if old == new {
            return;
        }
        let slot = |c: Cell| match c {
            Cell::Empty => 3,
            Cell::Mark(p) => p.index(),
            Cell::Block => 2,
        };
        // what one window's counts change by
        let mut delta = [0i8; 4];
        delta[slot(old)] -= 1;
        delta[slot(new)] += 1;
        let k = self.k;
        let windows = position.geometry().windows();
        for &wi in windows.through(cell) {
            let wi = wi as usize;
            let before = self.counts[wi];
            let after = [
                before[0].wrapping_add_signed(delta[0]),
                before[1].wrapping_add_signed(delta[1]),
                before[2].wrapping_add_signed(delta[2]),
            ];
            self.counts[wi] = after;
            let (s0, s1) = (self.state(before), self.state(after));
            if s0 == s1 {
                continue;
            }
            let (b, a) = (&self.table[s0], &self.table[s1]);
            for p in 0..2 {
                self.potential[p] += a.potential[p] - b.potential[p];
                self.fours[p] += a.fours[p] - b.fours[p];
            }
            let d = [a.marks[0] - b.marks[0], a.marks[1] - b.marks[1]];
            for &c in &self.window_cells[wi * k..(wi + 1) * k] {
                let m = &mut self.marks[c as usize];
                m[0] += d[0];
                m[1] += d[1];
            }
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
        self.fours[player.index()] as u32
    }

    /// How much [`Incremental::evaluate`] for `player` grows if `player` marks the
    /// empty cell `cell` (meaningless for an occupied cell).
    #[inline]
    pub fn gain(&self, player: Player, cell: usize) -> i64 {
        self.marks[cell][player.index()] & (COMPLETES - 1)
    }

    /// How many of `player`'s open windows a mark of theirs on the empty cell `cell`
    /// would complete (meaningless for an occupied cell). Each such window is one of
    /// [`Incremental::fours`].
    #[inline]
    pub fn completes(&self, player: Player, cell: usize) -> u32 {
        (self.marks[cell][player.index()] / COMPLETES) as u32
    }

    /// The counts (x marks, o marks, blocks) of window `index`.
    #[inline]
    pub fn counts(&self, index: usize) -> [u8; 3] {
        self.counts[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{splitmix64, Hand, Move, Rules};

    /// `player`'s potential, counted from scratch, once `mover` has marked `cell`.
    fn potential_with(position: &Position, cell: usize, mover: Player, player: Player) -> i64 {
        let windows = position.geometry().windows();
        let mut sum = 0;
        'windows: for w in &windows.all {
            let mut own = 0;
            for &c in w.cells.iter() {
                let here = if c as usize == cell {
                    Cell::Mark(mover)
                } else {
                    position.cell(c as usize)
                };
                match here {
                    Cell::Empty => {}
                    Cell::Mark(q) if q == player => own += 1,
                    _ => continue 'windows,
                }
            }
            sum += window_weight_int(own);
        }
        sum
    }

    /// Recomputes from scratch what `inc` keeps: potentials, fours, and for every
    /// empty cell and player the evaluation change and the completions of a mark there.
    fn check(position: &Position, inc: &Incremental) {
        let fresh = Incremental::new(position);
        for p in Player::BOTH {
            assert_eq!(inc.potential(p), fresh.potential(p));
            assert_eq!(inc.potential(p) as f64, potential(position, p));
            assert_eq!(inc.fours(p), fresh.fours(p));
        }
        let k = position.k();
        let windows = position.geometry().windows();
        for cell in 0..position.cells().len() {
            if position.cell(cell) != Cell::Empty {
                continue;
            }
            for p in Player::BOTH {
                let before_eval = inc.potential(p) - inc.potential(p.opponent());
                let after_eval = potential_with(position, cell, p, p)
                    - potential_with(position, cell, p, p.opponent());
                assert_eq!(inc.gain(p, cell), after_eval - before_eval, "gain");
                let completing = windows
                    .through(cell)
                    .iter()
                    .filter(|&&wi| {
                        let w = &windows.all[wi as usize];
                        window_state(position, &w.cells, p) == Some(k - 1)
                    })
                    .count();
                assert_eq!(inc.completes(p, cell) as usize, completing, "completes");
            }
        }
    }

    #[test]
    fn the_incremental_counts_follow_every_kind_of_change() {
        let hand = Hand::new(3, 3, 2);
        for (m, n, k, overline) in [(7, 6, 4, true), (6, 6, 3, false), (5, 5, 5, true)] {
            let rules = Rules::new(m, n, k, overline, [hand, hand]).unwrap();
            let mut seed = 7u64;
            for _game in 0..6 {
                let mut pos = Position::empty(&rules);
                let mut inc = Incremental::new(&pos);
                while !pos.is_over() {
                    let legal = pos.legal_moves();
                    seed = splitmix64(seed);
                    let mv: Move = legal[(seed % legal.len() as u64) as usize];
                    let before = pos.cells().to_vec();
                    pos.play_unchecked(mv);
                    for (c, &old) in before.iter().enumerate() {
                        inc.update(&pos, c, old, pos.cell(c));
                    }
                    check(&pos, &inc);
                }
            }
        }
    }
}
