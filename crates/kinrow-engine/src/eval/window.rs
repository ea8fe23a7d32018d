//! The window-potential heuristic shared by `minimax` and `greedy`.
//!
//! A player's potential counts every k-window (a run of `k` cells in a row, column or
//! diagonal) that holds none of the opponent's marks and no block: a line the player
//! can still complete. Each such window weighs more the more of the player's own marks
//! it already holds ([`window_weight`]). The evaluation of a position is the side to
//! move's potential minus the opponent's.
//!
//! These count from scratch (`greedy`, the arena's adjudication, tests); `minimax` keeps
//! the same sums incrementally on the shared board ([`crate::board::Potential`]).

use kinrow_game::{Cell, Player, Position};

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
