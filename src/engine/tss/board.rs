//! The threat solver's own board: the cells, and for every k-window how many marks
//! each player has in it and whether a block breaks it. Windows that a player can
//! still complete and that miss only 1 or 2 of their marks are kept in per-player
//! sets (updated on every move), so the solver lists fives and fours without scanning
//! the board; the windows missing 3 (where a mark makes a three) are found by a scan
//! when the threat search asks for them, which is far rarer than a move. A window's
//! counts are one small number, its *state*, that a mark moves by a fixed step; what a
//! state means (the scores, the sets, what the window offers a further mark) is read
//! from a table built with the board, so a move's update has no branches on the counts.

use std::sync::Arc;

use crate::game::splitmix64;
use crate::game::{Cell, Geometry, Player, Position};

/// An empty cell.
pub const EMPTY: u8 = 0;
/// A neutral block.
pub const BLOCK: u8 = 3;
/// No cell (off the board).
const NONE: u16 = u16::MAX;

/// What a mark of `p` looks like in [`ThreatBoard::cells`].
#[inline]
pub fn stone(p: usize) -> u8 {
    p as u8 + 1
}

#[inline]
fn cell_key(cell: usize, content: u8) -> u64 {
    if content == EMPTY {
        0
    } else {
        splitmix64(((cell as u64) << 2) | content as u64)
    }
}

#[inline]
fn blocks_key(p: usize, count: u8) -> u64 {
    splitmix64(0xB10C_0000_0000 | ((p as u64) << 8) | count as u64)
}

/// What a window holding `marks` of a player adds to that player's score:
/// 10^(marks - 1), and nothing while it is empty.
#[inline]
fn weight(marks: usize) -> i64 {
    if marks == 0 {
        0
    } else {
        10i64.pow((marks as u32 - 1).min(12))
    }
}

/// How much `p`'s score grows when `p` marks one more cell of an unblocked k-window
/// holding `count` marks (of `x` and `o`): nothing once the opponent has a mark in it.
#[inline]
pub fn window_gain(k: usize, count: [u8; 2], p: usize) -> i64 {
    if count[1 - p] != 0 {
        return 0;
    }
    let c = count[p] as usize;
    weight((c + 1).min(k)) - weight(c)
}

/// The solver's board. Players are indices (0 = `x`, 1 = `o`).
pub struct ThreatBoard {
    geo: Arc<Geometry>,
    k: usize,
    overline: bool,
    /// Row-major contents: [`EMPTY`], [`stone`]`(p)` or [`BLOCK`].
    pub cells: Vec<u8>,
    /// Blocks each player still holds.
    pub blocks: [u8; 2],
    /// Zobrist hash of cells and block counts.
    pub hash: u64,
    /// The cells of window `w` are `wcells[w * k..(w + 1) * k]`.
    wcells: Vec<u16>,
    /// The cells just before and just after each window along its line (for exactly-k).
    ends: Vec<[u16; 2]>,
    /// Each window's state: an index into `kinds` that stands for its marks of each
    /// player and whether a block breaks it (see [`ThreatBoard::state_of`]).
    state: Vec<u16>,
    /// Blocks in each window.
    blocked: Vec<u8>,
    /// What each window state means (built once per board): the counts, what the
    /// window adds to each score, which set it belongs in, and what it offers. A move
    /// changes a window's state by a fixed step, and everything else is read here.
    kinds: Vec<Kind>,
    /// Position of the window inside its set, per player.
    slot: Vec<[u32; 2]>,
    /// `sets[p][need]`: windows open for `p` that miss exactly `need` marks (1 or 2).
    sets: [[Vec<u32>; 3]; 2],
    /// The windows through each cell: `through[offsets[c]..offsets[c + 1]]` (a copy of
    /// the geometry's lists, read on every move without going through the `Arc`).
    offsets: Vec<u32>,
    through: Vec<u32>,
    /// Scratch stamps to de-duplicate cells in lists.
    seen: Vec<u32>,
    stamp: u32,
    /// Scratch for [`ThreatBoard::has_three`] (called at every leaf of `auto`'s search).
    pairs: Vec<(u16, u16)>,
    /// Each player's summed window weights (10^(marks - 1)) over the windows open for
    /// them.
    pub score: [i64; 2],
}

/// What a window state means (see `ThreatBoard::kinds`).
#[derive(Copy, Clone, Default)]
struct Kind {
    /// Marks of `x` and `o`.
    count: [u8; 2],
    /// What the window adds to each player's score.
    score: [i64; 2],
    /// For each player: how many marks they still miss if the window is open for them
    /// (no block, no opposing mark), else `None`.
    need: [Option<u8>; 2],
    /// For each player: how many marks they still miss (1 or 2) if the window is open
    /// for them, else 0 (the set it is kept in).
    class: [u8; 2],
    /// What the window offers each player (nothing once it is closed to them).
    growth: [Growth; 2],
}

/// What an open window offers one player: how much a further mark would add to the
/// player's score, and the window's weight in [`ThreatBoard::lines_through`]. A cell's
/// sums read one entry per window through it, without branching on the counts.
#[derive(Copy, Clone, Default)]
struct Growth {
    gain: i64,
    lines: u32,
}

impl ThreatBoard {
    /// The board of `position` (marks, blocks and the blocks each side holds).
    pub fn new(position: &Position) -> ThreatBoard {
        let geo = Arc::clone(position.geometry());
        let k = geo.k as usize;
        let windows = geo.windows();
        let nw = windows.all.len();
        let mut wcells = Vec::with_capacity(nw * k);
        let mut ends = Vec::with_capacity(nw);
        for w in &windows.all {
            wcells.extend_from_slice(&w.cells);
            let (dr, dc) = w.direction.step();
            let first = w.cells[0] as usize;
            let last = w.cells[w.cells.len() - 1] as usize;
            let before = geo.offset(first, -dr, -dc).map_or(NONE, |c| c as u16);
            let after = geo.offset(last, dr, dc).map_or(NONE, |c| c as u16);
            ends.push([before, after]);
        }
        let cells = geo.cells();
        let mut offsets = Vec::with_capacity(cells + 1);
        let mut through = Vec::new();
        offsets.push(0);
        for c in 0..cells {
            through.extend_from_slice(windows.through(c));
            offsets.push(through.len() as u32);
        }
        let mut board = ThreatBoard {
            offsets,
            through,
            geo,
            k,
            overline: position.geometry().overline,
            cells: vec![EMPTY; cells],
            blocks: [
                position.hand(Player::X).block,
                position.hand(Player::O).block,
            ],
            hash: 0,
            wcells,
            ends,
            state: vec![0; nw],
            blocked: vec![0; nw],
            kinds: Vec::new(),
            slot: vec![[0; 2]; nw],
            sets: Default::default(),
            seen: vec![0; cells],
            stamp: 0,
            pairs: Vec::new(),
            score: [0; 2],
        };
        let row = k + 1;
        board.kinds = (0..2 * row * row)
            .map(|i| {
                let count = [(i % (row * row) / row) as u8, (i % row) as u8];
                let open = i < row * row;
                board.kind(count, open)
            })
            .collect();
        for p in 0..2 {
            board.hash ^= blocks_key(p, board.blocks[p]);
            // An empty window is in a set already when k <= 2.
            let class = board.kinds[0].class[p];
            if class != 0 {
                for w in 0..nw {
                    board.move_to_set(w, p, 0, class);
                }
            }
        }
        for (i, &c) in position.cells().iter().enumerate() {
            let content = match c {
                Cell::Empty => continue,
                Cell::Mark(p) => stone(p.index()),
                Cell::Block => BLOCK,
            };
            board.put(i, content);
        }
        board
    }

    /// Marks in a row needed to win.
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// Puts `content` on the empty cell `cell`.
    #[inline]
    pub fn put(&mut self, cell: usize, content: u8) {
        debug_assert_eq!(self.cells[cell], EMPTY);
        self.cells[cell] = content;
        self.hash ^= cell_key(cell, content);
        self.adjust(cell, content, 1);
    }

    /// Empties `cell` again.
    #[inline]
    pub fn take(&mut self, cell: usize) {
        let content = self.cells[cell];
        debug_assert_ne!(content, EMPTY);
        self.cells[cell] = EMPTY;
        self.hash ^= cell_key(cell, content);
        self.adjust(cell, content, -1);
    }

    /// Player `p` spends (`delta = -1`) or takes back (`+1`) a block from their hand.
    #[inline]
    pub fn hand_block(&mut self, p: usize, delta: i8) {
        self.hash ^= blocks_key(p, self.blocks[p]);
        self.blocks[p] = (self.blocks[p] as i8 + delta) as u8;
        self.hash ^= blocks_key(p, self.blocks[p]);
    }

    fn adjust(&mut self, cell: usize, content: u8, delta: i8) {
        if content == BLOCK {
            for i in self.through_range(cell) {
                let w = self.through[i] as usize;
                self.blocked[w] = (self.blocked[w] as i8 + delta) as u8;
                self.set_state(w, self.state_of(self.count(w), self.blocked[w] != 0));
            }
            return;
        }
        // A mark of `x` moves a window's state by k + 1, one of `o` by 1.
        let step = if content == stone(0) {
            self.k as u16 + 1
        } else {
            1
        };
        for i in self.through_range(cell) {
            let w = self.through[i] as usize;
            let after = if delta > 0 {
                self.state[w] + step
            } else {
                self.state[w] - step
            };
            self.set_state(w, after);
        }
    }

    /// The state of a window holding `count` marks, broken by a block or not.
    fn state_of(&self, count: [u8; 2], blocked: bool) -> u16 {
        let row = self.k + 1;
        let open = count[0] as usize * row + count[1] as usize;
        (if blocked { open + row * row } else { open }) as u16
    }

    /// What a window holding `count` marks means, `open` when no block breaks it.
    fn kind(&self, count: [u8; 2], open: bool) -> Kind {
        const LINES: [u32; 4] = [1, 64, 16, 4];
        let mut kind = Kind {
            count,
            ..Kind::default()
        };
        if !open {
            return kind;
        }
        for p in 0..2 {
            if count[1 - p] != 0 {
                continue;
            }
            let c = count[p] as usize;
            kind.score[p] = weight(c);
            let need = self.k - c;
            kind.need[p] = Some(need as u8);
            if (1..=2).contains(&need) {
                kind.class[p] = need as u8;
            }
            kind.growth[p] = Growth {
                gain: window_gain(self.k, count, p),
                lines: LINES.get(need).copied().unwrap_or(1),
            };
        }
        kind
    }

    /// Window `w` takes state `after`: the scores and sets follow. Always inlined: it
    /// runs for every window through a changed cell, and as a call it left `auto`'s
    /// search 16% slower (the same tree, replayed).
    #[inline(always)]
    fn set_state(&mut self, w: usize, after: u16) {
        let before = &self.kinds[self.state[w] as usize];
        let now = &self.kinds[after as usize];
        self.score[0] += now.score[0] - before.score[0];
        self.score[1] += now.score[1] - before.score[1];
        let (old, class) = (before.class, now.class);
        self.state[w] = after;
        if old != class {
            for p in 0..2 {
                if old[p] != class[p] {
                    self.move_to_set(w, p, old[p], class[p]);
                }
            }
        }
    }

    /// What window `w` means now.
    #[inline]
    fn kind_of(&self, w: usize) -> &Kind {
        &self.kinds[self.state[w] as usize]
    }

    /// Marks of each player in window `w`.
    #[inline]
    fn count(&self, w: usize) -> [u8; 2] {
        self.kind_of(w).count
    }

    /// How much each player's score would grow with a mark of theirs on the empty
    /// `cell` (one pass over the windows through it).
    pub fn gains(&self, cell: usize) -> [i64; 2] {
        self.offered(cell, |g| g.gain)
    }

    /// For each player, `part` of what the windows through `cell` offer them, summed.
    #[inline]
    fn offered<T: Default + std::ops::AddAssign>(
        &self,
        cell: usize,
        part: impl Fn(&Growth) -> T,
    ) -> [T; 2] {
        let mut sum = [T::default(), T::default()];
        for &w in self.through(cell) {
            let [g0, g1] = self.kind_of(w as usize).growth;
            sum[0] += part(&g0);
            sum[1] += part(&g1);
        }
        sum
    }

    /// The windows through `cell`.
    #[inline]
    fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.through_range(cell)]
    }

    /// Where the windows through `cell` lie in `through` (for loops that change the
    /// board while they walk them).
    #[inline]
    fn through_range(&self, cell: usize) -> std::ops::Range<usize> {
        self.offsets[cell] as usize..self.offsets[cell + 1] as usize
    }

    /// The shared geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geo
    }

    /// Moves window `w` from `p`'s set `old` into set `class` (0: in none).
    #[inline]
    fn move_to_set(&mut self, w: usize, p: usize, old: u8, class: u8) {
        if old != 0 {
            let set = &mut self.sets[p][old as usize];
            let at = self.slot[w][p] as usize;
            set.swap_remove(at);
            if at < set.len() {
                let moved = set[at] as usize;
                self.slot[moved][p] = at as u32;
            }
        }
        if class != 0 {
            let set = &mut self.sets[p][class as usize];
            self.slot[w][p] = set.len() as u32;
            set.push(w as u32);
        }
    }

    #[inline]
    fn window(&self, w: usize) -> &[u16] {
        &self.wcells[w * self.k..(w + 1) * self.k]
    }

    /// True when filling window `w` with `p`'s marks makes a winning line: always
    /// with overline, else only when the cells just outside it are not `p`'s.
    #[inline]
    fn exact_ok(&self, w: usize, p: usize) -> bool {
        self.overline
            || self.ends[w]
                .iter()
                .all(|&c| c == NONE || self.cells[c as usize] != stone(p))
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// The empty cells where a mark of `p` wins at once, into `out` (cleared first).
    pub fn win_cells(&mut self, p: usize, out: &mut Vec<u16>) {
        out.clear();
        if self.sets[p][1].is_empty() {
            return;
        }
        let stamp = self.next_stamp();
        for i in 0..self.sets[p][1].len() {
            let w = self.sets[p][1][i] as usize;
            if !self.exact_ok(w, p) {
                continue;
            }
            let e = self
                .window(w)
                .iter()
                .copied()
                .find(|&c| self.cells[c as usize] == EMPTY);
            if let Some(e) = e {
                if self.seen[e as usize] != stamp {
                    self.seen[e as usize] = stamp;
                    out.push(e);
                }
            }
        }
    }

    /// True when `p` has a window missing only two marks (a four can be made there).
    #[inline]
    pub fn may_four(&self, p: usize) -> bool {
        !self.sets[p][2].is_empty()
    }

    /// True when `p` has a *three*: an empty cell where a mark of `p` would leave two
    /// or more cells that complete a line (an open four, or two fours at once), so
    /// that only a five could stop `p` after it. Found from the windows `p` misses two
    /// marks in: marking one of their empty cells makes the other a winning cell.
    pub fn has_three(&mut self, p: usize) -> bool {
        let set = &self.sets[p][2];
        if set.len() < 2 {
            return false;
        }
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for &w in set {
            let w = w as usize;
            if !self.exact_ok(w, p) {
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

    /// True when `p` has a cell that wins at once.
    pub fn has_win(&self, p: usize) -> bool {
        self.sets[p][1]
            .iter()
            .any(|&w| self.exact_ok(w as usize, p))
    }

    /// The win cells of `p` in windows through `cell` (after `p` marked `cell`).
    pub fn win_cells_through(&mut self, p: usize, cell: usize, out: &mut Vec<u16>) {
        out.clear();
        let stamp = self.next_stamp();
        for i in self.through_range(cell) {
            let w = self.through[i] as usize;
            if self.kind_of(w).class[p] != 1 || !self.exact_ok(w, p) {
                continue;
            }
            let e = self
                .window(w)
                .iter()
                .copied()
                .find(|&c| self.cells[c as usize] == EMPTY);
            if let Some(e) = e {
                if self.seen[e as usize] != stamp {
                    self.seen[e as usize] = stamp;
                    out.push(e);
                }
            }
        }
    }

    /// The cells where a mark of `p` makes a four (leaves a cell that then wins), each once.
    pub fn four_moves(&mut self, p: usize, out: &mut Vec<u16>) {
        out.clear();
        let stamp = self.next_stamp();
        for i in 0..self.sets[p][2].len() {
            let w = self.sets[p][2][i] as usize;
            if !self.exact_ok(w, p) {
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
    fn need(&self, w: usize, p: usize) -> Option<usize> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Hand, Rules};

    /// The board after `put`/`take` sequences matches one built from scratch: scores,
    /// window classes and the sets (marks and blocks, k = 4 and 5, with and without
    /// overlines).
    #[test]
    fn incremental_updates_match_a_fresh_board() {
        for (k, overline) in [(5, true), (4, false), (5, false)] {
            let rules = Rules::new(9, 8, k, overline, [Hand::new(3, 0, 0); 2]).unwrap();
            let empty = Position::empty(&rules);
            let mut board = ThreatBoard::new(&empty);
            let mut seed = 7u64 + k;
            let mut placed: Vec<usize> = Vec::new();
            for step in 0..400 {
                seed = splitmix64(seed);
                let cells = board.cells.len();
                if placed.len() > 30 || (!placed.is_empty() && seed % 5 == 0) {
                    let i = (seed >> 8) as usize % placed.len();
                    board.take(placed.swap_remove(i));
                } else {
                    let c = (seed >> 8) as usize % cells;
                    if board.cells[c] == EMPTY {
                        let content = [stone(0), stone(1), BLOCK][(seed >> 40) as usize % 3];
                        board.put(c, content);
                        placed.push(c);
                    }
                }
                // Everything recounted from the cells alone.
                let mut score = [0i64; 2];
                for w in 0..board.state.len() {
                    let window = board.window(w).to_vec();
                    let of = |v: u8| {
                        window
                            .iter()
                            .filter(|&&c| board.cells[c as usize] == v)
                            .count()
                    };
                    let count = [of(stone(0)) as u8, of(stone(1)) as u8];
                    let blocked = of(BLOCK) as u8;
                    assert_eq!(board.count(w), count, "k {k} step {step}");
                    assert_eq!(board.blocked[w], blocked, "k {k} step {step}");
                    for p in 0..2 {
                        let open = blocked == 0 && count[1 - p] == 0;
                        if open {
                            score[p] += weight(count[p] as usize);
                        }
                        let need = k as usize - count[p] as usize;
                        assert_eq!(board.need(w, p), open.then_some(need), "k {k} step {step}");
                        let class = if open && (1..=2).contains(&need) {
                            need as u8
                        } else {
                            0
                        };
                        assert_eq!(board.kind_of(w).class[p], class, "k {k} step {step}");
                        if class != 0 {
                            let set = &board.sets[p][class as usize];
                            assert_eq!(set[board.slot[w][p] as usize], w as u32);
                        }
                    }
                }
                assert_eq!(board.score, score, "k {k} step {step}");
                for p in 0..2 {
                    for need in 1..3 {
                        let members = (0..board.state.len())
                            .filter(|&w| board.kind_of(w).class[p] == need as u8)
                            .count();
                        assert_eq!(board.sets[p][need].len(), members, "k {k} step {step}");
                    }
                }
            }
        }
    }

    fn board(row: &str) -> ThreatBoard {
        let rules = Rules::mnk(12, 3, 5).unwrap();
        let rows = ["............", row, "............"];
        let cells = crate::game::parse_board(&rows, 12, 3).unwrap();
        let mut b = ThreatBoard::new(&Position::empty(&rules));
        for (c, cell) in cells.iter().enumerate() {
            if let Cell::Mark(p) = cell {
                b.put(c, stone(p.index()));
            }
        }
        b
    }

    /// A three is a cell that makes an open four (or two fours): open and split
    /// threes are, a three closed on one side or two loose pairs are not.
    #[test]
    fn threes_are_cells_that_make_two_winning_cells() {
        for (row, three) in [
            ("...xxx......", true),
            ("...xx.x.....", true),
            ("..oxxx......", false),
            ("oxxx........", false),
            ("..xx....xx..", false),
            ("..x.x.x.....", false),
            ("..xxx.o.....", true),
            ("..xxxo......", false),
        ] {
            assert_eq!(board(row).has_three(0), three, "{row}");
            assert!(!board(row).has_three(1), "{row}");
        }
    }
}
