//! The board's threat queries, read from the per-player sets of windows that miss
//! only one or two marks (kept on every move): the cells that win at once ("win now",
//! and the opponent's: "must block"), the cells that make a four, threes, and for the
//! threat solver the cells of windows missing a given number of marks.

use super::{LineBoard, Potential, WeightScheme, COMPLETES};
use kinrow_game::codes::EMPTY;

/// The queries read the sets, which every scheme but [`Potential`] keeps.
impl<W: WeightScheme> LineBoard<W> {
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Adds the empty cell of window `w` (one that misses a single mark) to `out`,
    /// unless this query (`stamp`) already added it.
    #[inline]
    fn push_gap(&mut self, w: usize, stamp: u32, out: &mut Vec<u16>) {
        let gap = self
            .window(w)
            .iter()
            .copied()
            .find(|&c| self.cells[c as usize] == EMPTY);
        if let Some(e) = gap {
            if self.seen[e as usize] != stamp {
                self.seen[e as usize] = stamp;
                out.push(e);
            }
        }
    }

    /// The empty cells where a mark of `p` wins at once, into `out` (cleared first).
    pub fn win_cells(&mut self, p: usize, out: &mut Vec<u16>) {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        out.clear();
        if self.sets[p][1].is_empty() {
            return;
        }
        let stamp = self.next_stamp();
        for i in 0..self.sets[p][1].len() {
            let w = self.sets[p][1][i] as usize;
            if !self.completes_line(w, p) {
                continue;
            }
            self.push_gap(w, stamp, out);
        }
    }

    /// True when `p` has a window missing only two marks (a four can be made there).
    #[inline]
    pub fn may_four(&self, p: usize) -> bool {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        !self.sets[p][2].is_empty()
    }

    /// True when `p` has a *three*: an empty cell where a mark of `p` would leave two
    /// or more cells that complete a line (an open four, or two fours at once), so
    /// that only a five could stop `p` after it. Found from the windows `p` misses two
    /// marks in: marking one of their empty cells makes the other a winning cell.
    pub fn has_three(&mut self, p: usize) -> bool {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        let set = &self.sets[p][2];
        if set.len() < 2 {
            return false;
        }
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for &w in set {
            let w = w as usize;
            if !self.completes_line(w, p) {
                continue;
            }
            let mut empty = self
                .window(w)
                .iter()
                .filter(|&&c| self.cells[c as usize] == EMPTY);
            if let (Some(&a), Some(&b)) = (empty.next(), empty.next()) {
                pairs.push((a, b));
                pairs.push((b, a));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let three = pairs.windows(2).any(|x| x[0].0 == x[1].0);
        self.pairs = pairs;
        three
    }

    /// The last cell (in row-major order) where a mark of `p` wins at once, if any.
    pub fn win_cell(&self, p: usize) -> Option<usize> {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        self.sets[p][1]
            .iter()
            .filter(|&&w| self.completes_line(w as usize, p))
            .filter_map(|&w| {
                let window = self.window(w as usize);
                window.iter().find(|&&c| self.cells[c as usize] == EMPTY)
            })
            .max()
            .map(|&c| c as usize)
    }

    /// True when `p`'s marks make a winning line through `cell` (after `p` marked it).
    pub fn wins_through(&self, p: usize, cell: usize) -> bool {
        self.through(cell).iter().any(|&w| {
            self.kind_of(w as usize).count[p] as usize == self.k
                && self.completes_line(w as usize, p)
        })
    }

    /// True when `p` has a cell that wins at once.
    pub fn has_win(&self, p: usize) -> bool {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        self.sets[p][1]
            .iter()
            .any(|&w| self.completes_line(w as usize, p))
    }

    /// The win cells of `p` in windows through `cell` (after `p` marked `cell`).
    pub fn win_cells_through(&mut self, p: usize, cell: usize, out: &mut Vec<u16>) {
        out.clear();
        let stamp = self.next_stamp();
        for i in self.through_range(cell) {
            let w = self.through[i] as usize;
            if self.kind_of(w).class[p] != 1 || !self.completes_line(w, p) {
                continue;
            }
            self.push_gap(w, stamp, out);
        }
    }

    /// The cells where a mark of `p` makes a four (leaves a cell that then wins), each once.
    pub fn four_moves(&mut self, p: usize, out: &mut Vec<u16>) {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        out.clear();
        let stamp = self.next_stamp();
        for i in 0..self.sets[p][2].len() {
            let w = self.sets[p][2][i] as usize;
            if !self.completes_line(w, p) {
                continue;
            }
            for j in 0..self.k {
                let c = self.wcells[w * self.k + j] as usize;
                if self.cells[c] == EMPTY && self.seen[c] != stamp {
                    self.seen[c] = stamp;
                    out.push(c as u16);
                }
            }
        }
    }

    /// The empty cells of the windows `p` misses `need` marks in (1..=3), each once,
    /// appended to `out` (from the sets for 1 and 2, by a scan of the windows for 3).
    pub fn cells_of_class(&mut self, p: usize, need: usize, out: &mut Vec<u16>, fresh: bool) {
        debug_assert!(W::SETS, "this scheme keeps no window sets");
        let stamp = if fresh { self.next_stamp() } else { self.stamp };
        let scanned: Vec<u32>;
        let windows: &[u32] = if need < 3 {
            &self.sets[p][need]
        } else {
            scanned = (0..self.state.len() as u32)
                .filter(|&w| self.need(w as usize, p) == Some(need))
                .collect();
            &scanned
        };
        for &w in windows {
            let w = w as usize;
            for j in 0..self.k {
                let c = self.wcells[w * self.k + j] as usize;
                if self.cells[c] == EMPTY && self.seen[c] != stamp {
                    self.seen[c] = stamp;
                    out.push(c as u16);
                }
            }
        }
    }

    /// How many marks `p` still misses in window `w`, if it is open for `p`.
    #[inline]
    pub(super) fn need(&self, w: usize, p: usize) -> Option<usize> {
        self.kind_of(w).need[p].map(usize::from)
    }

    /// For each player, the windows open for them through `cell`, weighted by how few
    /// marks they miss: a cheap measure of how much a mark there builds (for move
    /// ordering).
    pub fn lines_through(&self, cell: usize) -> [u32; 2] {
        self.offered(cell, |g| g.lines)
    }

    /// Calls `f(window_cells, own_marks)` for every window through `cell` that is open for `p`.
    pub fn open_windows_through(&self, p: usize, cell: usize, mut f: impl FnMut(&[u16], usize)) {
        for &w in self.through(cell) {
            let w = w as usize;
            let kind = self.kind_of(w);
            if kind.need[p].is_some() {
                f(self.window(w), kind.count[p] as usize);
            }
        }
    }

    /// Open windows in which `p` misses only one mark (a win next move, overline aside).
    #[inline]
    pub fn fours(&self, p: usize) -> u32 {
        self.ones[p]
    }
}

/// `minimax`'s reads of its [`Potential`] sums.
impl LineBoard<Potential> {
    /// The potential of `p`: `4^marks` summed over every window they can still complete.
    #[inline]
    pub fn potential(&self, p: usize) -> i64 {
        self.score[p]
    }

    /// Own potential minus the opponent's, for `p`.
    #[inline]
    pub fn evaluate(&self, p: usize) -> i64 {
        self.score[p] - self.score[1 - p]
    }

    /// How much [`LineBoard::evaluate`] for `p` grows if `p` marks the empty `cell`
    /// (meaningless for an occupied cell).
    #[inline]
    pub fn gain(&self, p: usize, cell: usize) -> i64 {
        self.sums[cell][p] & (COMPLETES - 1)
    }

    /// How many of `p`'s open windows a mark of theirs on the empty `cell` would complete
    /// (meaningless for an occupied cell). Each such window is one of [`LineBoard::fours`].
    #[inline]
    pub fn completes(&self, p: usize, cell: usize) -> u32 {
        (self.sums[cell][p] / COMPLETES) as u32
    }
}
