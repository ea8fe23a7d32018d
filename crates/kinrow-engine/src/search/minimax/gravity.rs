//! `minimax`'s static value under gravity: the window potential of every board, plus
//! what gravity makes of the threats (cells where a player's mark would complete a
//! line). A threat counts only as the lowest of its player's in its column (the cells
//! above it are reached only once it is settled), a quarter as much above a lower
//! threat of the opponent's (that one is settled first), and by the row's parity: the
//! first player's threats on odd rows counted from the bottom and the second player's
//! on even rows are the ones the end of the game (zugzwang) tends to let them fill, so
//! they weigh four times the others. A second threat right above the lowest one (a
//! stack: whoever blocks the lower one gives the upper one) weighs more still. A
//! threat on a landing cell is a win now for the side to move, and for the opponent a
//! block the side to move must play (the search sees it; it weighs little here).

use super::search::{Searcher, MINIMAX_WIN};
use kinrow_game::Player;

/// A threat's weight on the row of its player's parity, in the potential's units (a
/// window one mark short of a line weighs `4^(k-1)`, 64 for four in a row).
const GOOD_ROW: i64 = 512;
/// A threat's weight on the other parity.
const BAD_ROW: i64 = 128;
/// The lowest threat with another of its player's right above it.
const STACK: i64 = 1024;
/// The opponent's threat on a landing cell (a forced block).
const FORCED: i64 = 32;

impl Searcher<'_> {
    /// The static value for the side to move at a gravity leaf (see the top of the
    /// file); `MINIMAX_WIN - (ply + 1)` when it can complete a line now.
    pub fn gravity_leaf(&self, ply: u32) -> i64 {
        let pos = &self.pos;
        let (m, n) = (pos.m(), pos.n());
        let me = pos.to_move();
        let overline = pos.geometry().overline;
        let threat = |p: Player, cell: usize| {
            self.board.completes(p.index(), cell) > 0 && (overline || pos.wins_at(cell, p))
        };
        let mut value = self.board.evaluate(me.index());
        for col in 0..m {
            let Some(land) = pos.landing_row(col) else {
                continue;
            };
            // Per player: the height (from the bottom) of the lowest threat, and
            // whether another of theirs is right above it.
            let mut lowest: [Option<(usize, bool)>; 2] = [None, None];
            for row in (0..=land).rev() {
                let h = n - 1 - row;
                for p in Player::BOTH {
                    let i = p.index();
                    match lowest[i] {
                        None if threat(p, row * m + col) => lowest[i] = Some((h, false)),
                        Some((low, false)) if low + 1 == h && threat(p, row * m + col) => {
                            lowest[i] = Some((low, true))
                        }
                        _ => {}
                    }
                }
            }
            let land_h = n - 1 - land;
            if matches!(lowest[me.index()], Some((h, _)) if h == land_h) {
                return MINIMAX_WIN - (ply as i64 + 1);
            }
            for p in Player::BOTH {
                let Some((h, stacked)) = lowest[p.index()] else {
                    continue;
                };
                let other = lowest[p.opponent().index()];
                let mut w = if h == land_h {
                    FORCED
                } else if (h % 2 == 0) == (p == Player::X) {
                    GOOD_ROW
                } else {
                    BAD_ROW
                };
                if stacked && h != land_h {
                    w += STACK;
                }
                if matches!(other, Some((oh, _)) if oh < h) {
                    w /= 4;
                }
                value += if p == me { w } else { -w };
            }
        }
        value
    }
}
