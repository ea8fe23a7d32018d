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
    k: u32,
    /// Per window: x marks, o marks, blocks.
    counts: Vec<[u8; 3]>,
    /// The cells of every window, `k` per window, flat.
    window_cells: Vec<u16>,
    potential: [i64; 2],
    /// Per player: open windows missing only one mark (a win next move, overline aside).
    fours: [u32; 2],
    /// Per player, per cell: the change of that player's evaluation if they mark it.
    gain: [Vec<i64>; 2],
    /// Per player, per cell: open windows through it in which the player misses one mark.
    completes: [Vec<u16>; 2],
}

impl Incremental {
    /// The counts of `position`, computed once from scratch.
    pub fn new(position: &Position) -> Incremental {
        let windows = position.geometry().windows();
        let k = position.k();
        let cells = position.cells().len();
        let mut inc = Incremental {
            k,
            counts: vec![[0; 3]; windows.all.len()],
            window_cells: Vec::with_capacity(windows.all.len() * k as usize),
            potential: [0; 2],
            fours: [0; 2],
            gain: [vec![0; cells], vec![0; cells]],
            completes: [vec![0; cells], vec![0; cells]],
        };
        for (i, w) in windows.all.iter().enumerate() {
            debug_assert_eq!(w.cells.len(), k as usize);
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
            inc.account(c, 1);
            for p in 0..2 {
                let (g, f) = inc.share(c, p);
                for &cell in w.cells.iter() {
                    inc.gain[p][cell as usize] += g;
                    inc.completes[p][cell as usize] += f;
                }
            }
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

    /// A window's share, for player `p`, of the gain and of the completions of a mark
    /// on one of its empty cells: `p`'s weight grows from `4^a` to `4^(a+1)` when the
    /// window is open for `p`, and the opponent's weight is lost when `p` had no mark.
    #[inline]
    fn share(&self, c: [u8; 3], p: usize) -> (i64, u16) {
        if c[2] > 0 {
            return (0, 0);
        }
        let (a, b) = (c[p] as u32, c[1 - p] as u32);
        let mut g = 0;
        let mut f = 0;
        if b == 0 {
            g += window_weight_int(a + 1) - window_weight_int(a);
            f = (a + 1 == self.k) as u16;
        }
        if a == 0 {
            g += window_weight_int(b);
        }
        (g, f)
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
        let k = self.k as usize;
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
            for p in 0..2 {
                let (g0, f0) = self.share(before, p);
                let (g1, f1) = self.share(after, p);
                if (g0, f0) == (g1, f1) {
                    continue;
                }
                let (dg, df) = (g1 - g0, f1.wrapping_sub(f0));
                let gain = &mut self.gain[p];
                let completes = &mut self.completes[p];
                for &c in &self.window_cells[wi * k..(wi + 1) * k] {
                    gain[c as usize] += dg;
                    completes[c as usize] = completes[c as usize].wrapping_add(df);
                }
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
        self.fours[player.index()]
    }

    /// How much [`Incremental::evaluate`] for `player` grows if `player` marks the
    /// empty cell `cell` (meaningless for an occupied cell).
    #[inline]
    pub fn gain(&self, player: Player, cell: usize) -> i64 {
        self.gain[player.index()][cell]
    }

    /// How many of `player`'s open windows a mark of theirs on the empty cell `cell`
    /// would complete (meaningless for an occupied cell). Each such window is one of
    /// [`Incremental::fours`].
    #[inline]
    pub fn completes(&self, player: Player, cell: usize) -> u32 {
        self.completes[player.index()][cell] as u32
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
                let after_eval =
                    potential_with(position, cell, p, p) - potential_with(position, cell, p, p.opponent());
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
