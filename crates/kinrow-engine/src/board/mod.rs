//! The line-pattern board every heuristic search shares (`minimax`, the threat solver,
//! `auto`'s pattern search): the cells, and for every k-window how many marks each
//! player holds in it and whether a block breaks it, kept up to date on every
//! [`LineBoard::put`] and [`LineBoard::take`], with the Zobrist key.
//!
//! A window's counts are one small number, its *state*, that a mark moves by a fixed
//! step; what a state means is read from a table built with the board, so a move's
//! update has no branches on the counts. The table says, per player:
//! - the window's weight under the board's [`WeightScheme`] scheme, summed into
//!   [`LineBoard::score`] (each search reads its own score units from the same counts);
//! - whether the window is open for the player and misses only 1 or 2 of their marks:
//!   such windows are kept in per-player sets, so "win now", "must block" and the fours
//!   are listed without scanning the board (see `threats.rs`);
//! - what a further mark in it would add, for the per-cell sums of the schemes that
//!   keep them ([`Potential`]) and for [`LineBoard::gains`].
//!
//! On request the board also keeps [`LineCodes`]: per cell and direction the contents
//! of the cells around it, which a table turns into the shapes and gains of a mark there.
//!
//! Rule variants: when k in a row wins is a [`WinRule`] per player, from the game's
//! [`Variant`] (renju: x exactly five, o five or more; caro: exactly k and not shut by
//! the opponent at both ends), checked in one place ([`LineBoard::completes_line`])
//! that every "win" query goes through. Which cells a player may not mark (renju's
//! forbidden moves for x) the rules core decides; [`LineBoard::forbidden`] asks it on
//! the board's own cells (`renju.rs`), at the cost of one comparison when the game is
//! not renju.

mod cells;
mod codes;
mod renju;
mod scheme;
mod table;
mod threats;

#[cfg(test)]
mod tests;

use std::marker::PhantomData;
use std::sync::Arc;

pub use cells::CellEval;
pub use codes::{LineCodes, LineReading, Shape};
pub use scheme::{pattern_gain, Pattern, Playout, Potential, WeightScheme, COMPLETES};
use table::{kind, Growth, Kind};

use kinrow_game::cell_key as game_cell_key;
use kinrow_game::codes::{content_of, stone, BLOCK, EMPTY};
use kinrow_game::WinRule;
use kinrow_game::{splitmix64, Cell, Geometry, Player, Position};

/// No cell (off the board).
const NONE: u16 = u16::MAX;

/// The Zobrist key of `cell` holding `content`: the game's own key, so the board's key of
/// the cells equals [`Position`]'s.
#[inline]
fn cell_key(cell: usize, content: u8) -> u64 {
    game_cell_key(
        cell,
        match content {
            EMPTY => Cell::Empty,
            BLOCK => Cell::Block,
            s => Cell::Mark(Player::BOTH[s as usize - 1]),
        },
    )
}

#[inline]
fn blocks_key(p: usize, count: u8) -> u64 {
    splitmix64(0xB10C_0000_0000 | ((p as u64) << 8) | count as u64)
}

/// The board under weight scheme `W`. Players are indices (0 = `x`, 1 = `o`).
#[derive(Clone)]
pub struct LineBoard<W: WeightScheme> {
    geo: Arc<Geometry>,
    k: usize,
    rule: [WinRule; 2],
    /// Row-major contents: [`EMPTY`], [`stone`]`(p)` or [`BLOCK`].
    cells: Vec<u8>,
    /// Blocks each player still holds.
    blocks: [u8; 2],
    /// Zobrist key of the cells and the blocks in hand.
    hash: u64,
    /// The cells of window `w` are `wcells[w * k..(w + 1) * k]`.
    wcells: Vec<u16>,
    /// The cells just before and just after each window along its line (for exactly-k).
    ends: Vec<[u16; 2]>,
    /// Each window's state: an index into `kinds` (see [`LineBoard::state_of`]).
    state: Vec<u16>,
    /// Blocks in each window.
    blocked: Vec<u8>,
    /// What each window state means (built once per board).
    kinds: Vec<Kind>,
    /// Position of the window inside its set, per player.
    slot: Vec<[u32; 2]>,
    /// `sets[p][need]`: windows open for `p` that miss exactly `need` marks (1 or 2),
    /// when the scheme keeps them (`W::SETS`).
    sets: [[Vec<u32>; 3]; 2],
    /// Windows open for each player that miss exactly one mark.
    ones: [u32; 2],
    /// The windows through each cell: `through[offsets[c]..offsets[c + 1]]` (a copy of
    /// the geometry's lists, read on every move without going through the `Arc`).
    offsets: Vec<u32>,
    through: Vec<u32>,
    /// Scratch stamps to de-duplicate cells in lists.
    seen: Vec<u32>,
    stamp: u32,
    /// Scratch for [`LineBoard::has_three`] (called at every leaf of `auto`'s search).
    pairs: Vec<(u16, u16)>,
    /// Each player's summed window weights over the windows open for them.
    score: [i64; 2],
    /// Per cell and player, the summed [`WeightScheme::cell_share`] of the windows through
    /// it (empty unless `W::CELL_SUMS`; meaningless for occupied cells).
    sums: Vec<[i64; 2]>,
    codes: Option<LineCodes>,
    weights: PhantomData<W>,
}

/// Line codes set aside (see [`LineBoard::set_codes_aside`]), with the key of the
/// cells they were left on.
pub struct CodesAside {
    codes: Option<LineCodes>,
    hash: u64,
}

/// The board the threat solver and the pattern search share.
pub type PatternBoard = LineBoard<Pattern>;
/// The board of `minimax`'s evaluation.
pub type PotentialBoard = LineBoard<Potential>;
/// The board of `mcts`'s playouts.
pub type PlayoutBoard = LineBoard<Playout>;

impl<W: WeightScheme> LineBoard<W> {
    /// The board of `position` (marks, blocks and the blocks each side holds).
    pub fn new(position: &Position) -> LineBoard<W> {
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
        let rule = WinRule::of(&geo);
        let row = k + 1;
        let kinds = (0..2 * row * row)
            .map(|i| {
                let count = [(i % (row * row) / row) as u8, (i % row) as u8];
                kind::<W>(k, count, i < row * row)
            })
            .collect();
        let mut board = LineBoard {
            offsets,
            through,
            geo,
            k,
            rule,
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
            kinds,
            slot: vec![[0; 2]; nw],
            sets: Default::default(),
            ones: [0; 2],
            seen: vec![0; cells],
            stamp: 0,
            pairs: Vec::new(),
            score: [0; 2],
            sums: if W::CELL_SUMS {
                vec![[0; 2]; cells]
            } else {
                Vec::new()
            },
            codes: None,
            weights: PhantomData,
        };
        // Every window starts empty: its weight and share, and its set when k <= 2.
        let empty = board.kinds[0];
        for w in 0..nw {
            for p in 0..2 {
                board.score[p] += empty.score[p];
                board.ones[p] += (empty.class[p] == 1) as u32;
                if W::SETS && empty.class[p] != 0 {
                    board.move_to_set(w, p, 0, empty.class[p]);
                }
            }
            if W::CELL_SUMS {
                for j in 0..k {
                    let c = board.wcells[w * k + j] as usize;
                    board.sums[c][0] += empty.cell[0];
                    board.sums[c][1] += empty.cell[1];
                }
            }
        }
        for p in 0..2 {
            board.hash ^= blocks_key(p, board.blocks[p]);
        }
        for (i, &c) in position.cells().iter().enumerate() {
            if c != Cell::Empty {
                board.put(i, content_of(c));
            }
        }
        board
    }

    /// The same board, keeping [`LineCodes`] from now on (when k has a code table).
    pub fn with_codes(mut self) -> LineBoard<W> {
        self.codes = LineCodes::new(&self.geo, &self.cells);
        self
    }

    /// The same board keeping [`LineCodes`] and every empty cell's codes of line classes
    /// ([`CellEval`]), summed for the `learned` evaluation when given (when k has a code
    /// table).
    pub fn with_cells(self, learned: Option<crate::eval::Learned>) -> LineBoard<W> {
        let mut board = self.with_codes();
        if let Some(codes) = &mut board.codes {
            codes.keep_cells(board.k, board.rule, learned, &board.cells);
        }
        board
    }

    /// The cells' codes of line classes, when kept ([`LineBoard::with_cells`]).
    #[inline]
    pub fn cell_eval(&self) -> Option<&CellEval> {
        self.codes.as_ref().and_then(LineCodes::cells)
    }

    /// Makes `self` a copy of `other` (a board of the same geometry), reusing its
    /// buffers: what a search that restarts from a root many times does.
    pub fn copy_from(&mut self, other: &LineBoard<W>) {
        debug_assert!(Arc::ptr_eq(&self.geo, &other.geo));
        self.cells.clone_from(&other.cells);
        self.blocks = other.blocks;
        self.hash = other.hash;
        self.state.clone_from(&other.state);
        self.blocked.clone_from(&other.blocked);
        self.slot.clone_from(&other.slot);
        for (mine, theirs) in self.sets.iter_mut().zip(&other.sets) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                a.clone_from(b);
            }
        }
        self.score = other.score;
        self.ones = other.ones;
        self.sums.clone_from(&other.sums);
        self.codes.clone_from(&other.codes);
    }

    /// Sets the line codes aside, for trial moves that are all taken back before the
    /// codes are read again (the threat solver's fours at the pattern search's leaves):
    /// they then cost those moves nothing. [`LineBoard::restore_codes`] puts them back.
    pub fn set_codes_aside(&mut self) -> CodesAside {
        CodesAside {
            codes: self.codes.take(),
            hash: self.hash,
        }
    }

    /// Puts back the codes [`LineBoard::set_codes_aside`] took, on the same cells.
    pub fn restore_codes(&mut self, aside: CodesAside) {
        debug_assert_eq!(
            aside.hash, self.hash,
            "the cells changed while the codes were aside"
        );
        self.codes = aside.codes;
    }

    /// Marks in a row needed to win.
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// The contents of every cell: [`EMPTY`], [`stone`]`(p)` or [`BLOCK`].
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The Zobrist key of the cells (the same as the position's keys of its cells) and
    /// of the blocks each player holds.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The blocks player `p` still holds.
    #[inline]
    pub fn blocks(&self, p: usize) -> u8 {
        self.blocks[p]
    }

    /// Each player's summed window weights over the windows they can still complete.
    #[inline]
    pub fn score(&self) -> [i64; 2] {
        self.score
    }

    /// The line codes, when the board keeps them.
    #[inline]
    pub fn codes(&self) -> Option<&LineCodes> {
        self.codes.as_ref()
    }

    /// The shared geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geo
    }

    /// Puts `content` on the empty cell `cell`.
    #[inline]
    pub fn put(&mut self, cell: usize, content: u8) {
        debug_assert_eq!(self.cells[cell], EMPTY);
        self.cells[cell] = content;
        self.hash ^= cell_key(cell, content);
        if let Some(codes) = &mut self.codes {
            codes.put(cell, content);
        }
        self.adjust(cell, content, 1);
    }

    /// Empties `cell` again.
    #[inline]
    pub fn take(&mut self, cell: usize) {
        let content = self.cells[cell];
        debug_assert_ne!(content, EMPTY);
        self.cells[cell] = EMPTY;
        self.hash ^= cell_key(cell, content);
        if let Some(codes) = &mut self.codes {
            codes.take(cell, content);
        }
        self.adjust(cell, content, -1);
    }

    /// Sets `cell` to `content`, whatever it holds now.
    #[inline]
    pub fn set(&mut self, cell: usize, content: u8) {
        if self.cells[cell] == content {
            return;
        }
        if self.cells[cell] != EMPTY {
            self.take(cell);
        }
        if content != EMPTY {
            self.put(cell, content);
        }
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

    /// Window `w` takes state `after`: the scores, sets and cell sums follow. Always
    /// inlined: it runs for every window through a changed cell, and as a call it slows
    /// `auto`'s search down measurably (docs/strength.md).
    #[inline(always)]
    fn set_state(&mut self, w: usize, after: u16) {
        let before = &self.kinds[self.state[w] as usize];
        let now = &self.kinds[after as usize];
        self.score[0] += now.score[0] - before.score[0];
        self.score[1] += now.score[1] - before.score[1];
        let (old, class) = (before.class, now.class);
        let d = if W::CELL_SUMS {
            [now.cell[0] - before.cell[0], now.cell[1] - before.cell[1]]
        } else {
            [0, 0]
        };
        self.state[w] = after;
        if old != class {
            for p in 0..2 {
                self.ones[p] = self.ones[p] + (class[p] == 1) as u32 - (old[p] == 1) as u32;
                if W::SETS && old[p] != class[p] {
                    self.move_to_set(w, p, old[p], class[p]);
                }
            }
        }
        if W::CELL_SUMS && d != [0, 0] {
            let k = self.k;
            for &c in &self.wcells[w * k..(w + 1) * k] {
                let s = &mut self.sums[c as usize];
                s[0] += d[0];
                s[1] += d[1];
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

    /// The counts of window `w` (an index into the geometry's windows): x marks, o
    /// marks, blocks.
    #[inline]
    pub fn counts(&self, w: usize) -> [u8; 3] {
        let [x, o] = self.count(w);
        [x, o, self.blocked[w]]
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

    /// The windows through `cell` (indices into the geometry's windows).
    #[inline]
    pub fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.through_range(cell)]
    }

    /// Where the windows through `cell` lie in `through` (for loops that change the
    /// board while they walk them).
    #[inline]
    fn through_range(&self, cell: usize) -> std::ops::Range<usize> {
        self.offsets[cell] as usize..self.offsets[cell + 1] as usize
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

    /// True when filling window `w` with `p`'s marks makes a winning line under `p`'s
    /// [`WinRule`]: always with overlines, else only when the cells just outside it are
    /// not `p`'s (and under caro not both the opponent's).
    #[inline]
    fn completes_line(&self, w: usize, p: usize) -> bool {
        let end = |i: usize| {
            let c = self.ends[w][i];
            if c == NONE {
                EMPTY
            } else {
                self.cells[c as usize]
            }
        };
        match self.rule[p] {
            WinRule::Overline => true,
            WinRule::Exact => end(0) != stone(p) && end(1) != stone(p),
            WinRule::ExactOpen => {
                let (a, b) = (end(0), end(1));
                a != stone(p) && b != stone(p) && !(a == stone(1 - p) && b == stone(1 - p))
            }
        }
    }
}
