//! Gravity on the simulation board: only each column's landing cell is a move, and a
//! win now counts only there. The padded board's bottom wall row holds every column up.

use super::Sim;
use kinrow_game::codes::EMPTY;

impl Sim {
    /// The padded landing cell of every column that is not full, in row order (bottom
    /// rows last, as the padded indices grow).
    pub(super) fn landing_cells(&self) -> Vec<usize> {
        let s = &self.shape;
        let mut out: Vec<usize> = (0..s.m)
            .filter_map(|c| {
                (0..s.n)
                    .rev()
                    .map(|r| s.pad(r * s.m + c))
                    .find(|&p| self.cells[p] == EMPTY)
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// True when a mark of `player` on the empty padded cell `p` completes a line.
    fn wins_at(&self, p: usize, player: usize) -> bool {
        let mark = super::mark_of(player);
        let w = self.shape.w as isize;
        let k = self.gravity_k;
        [1, w, w + 1, w - 1].into_iter().any(|d| {
            let run = |step: isize| {
                let mut q = p as isize + step;
                let mut len = 0;
                while self.cells[q as usize] == mark {
                    len += 1;
                    q += step;
                }
                len
            };
            let len = 1 + run(d) + run(-d);
            len == k || (self.overline && len > k)
        })
    }

    /// Under gravity: the landing cells where `player` wins at once, in row order.
    pub(super) fn gravity_wins(&self, player: usize) -> Vec<usize> {
        self.landing_cells()
            .into_iter()
            .filter(|&p| self.wins_at(p, player))
            .collect()
    }
}
