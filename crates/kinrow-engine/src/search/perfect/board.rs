//! The solver's own board: bit sets of marks and blocks, both hands, the side to move
//! and one Zobrist hash per symmetry of the board (so the canonical key of a position
//! is the smallest of them), built once from a [`Position`] and then copied on every move.

use kinrow_game::splitmix64;
use kinrow_game::{Cell, Geometry, Hand, Move, Piece, Player, Position, Symmetry};

use super::bits::{cells, Bits};

/// One k-window as a bit set, with the cells just before and after it on its line
/// (with overline off, an own mark there turns a full window into an overline).
#[derive(Copy, Clone, Debug)]
pub struct WindowMask<B> {
    pub mask: B,
    pub ext: B,
}

/// Everything about the board that never changes during a search.
pub struct Layout<B> {
    pub cells: usize,
    pub k: u32,
    pub overline: bool,
    pub lines: Vec<WindowMask<B>>,
    /// For each cell, the cell and its up-to-8 neighbours: what a bomb there clears.
    pub area: Vec<B>,
    /// Every cell of the board.
    pub full: B,
    /// For each symmetry (identity first), the image of every cell.
    pub maps: Vec<Vec<u16>>,
    /// For each symmetry, the index of its inverse.
    pub inverse: Vec<usize>,
    /// Zobrist keys per symmetry: `keys[(s * 3 + tag) * cells + cell]` is the key of
    /// `cell`'s image under symmetry `s` holding content `tag` (0 x, 1 o, 2 block).
    keys: Vec<u64>,
    /// `2^-missing` for the Erdős–Selfridge potential.
    pub inv_pow: Vec<f64>,
    /// Move-ordering weight of a window by the marks already in it.
    pub weight: Vec<u32>,
}

const SIDE_KEY: u64 = 0x2545_F491_4F6C_DD1D;

fn hand_hash(hands: &[Hand; 2]) -> u64 {
    let mut h = 0;
    for (p, hand) in hands.iter().enumerate() {
        for (kind, count) in [hand.block, hand.remove, hand.bomb].into_iter().enumerate() {
            if count > 0 {
                h ^= splitmix64(
                    0xABCD_0000_0000 | ((p as u64) << 16) | ((kind as u64) << 8) | count as u64,
                );
            }
        }
    }
    h
}

impl<B: Bits> Layout<B> {
    /// The shape of `geo`'s board; `None` when it has more cells than `B` holds.
    pub fn new(geo: &Geometry) -> Option<Layout<B>> {
        let (m, n) = (geo.m, geo.n);
        let cells = m * n;
        if cells > B::CAPACITY {
            return None;
        }
        let k = geo.k;
        let mut lines = Vec::new();
        for w in &geo.windows().all {
            let mut mask = B::default();
            for &c in w.cells.iter() {
                mask |= B::bit(c as usize);
            }
            let (dr, dc) = w.direction.step();
            let first = w.cells[0] as usize;
            let last = w.cells[w.cells.len() - 1] as usize;
            let mut ext = B::default();
            if let Some(c) = geo.offset(first, -dr, -dc) {
                ext |= B::bit(c);
            }
            if let Some(c) = geo.offset(last, dr, dc) {
                ext |= B::bit(c);
            }
            lines.push(WindowMask { mask, ext });
        }
        let area = (0..cells)
            .map(|c| {
                geo.neighbours(c)
                    .iter()
                    .fold(B::bit(c), |a, &nb| a | B::bit(nb as usize))
            })
            .collect();
        let full = (0..cells).fold(B::default(), |a, c| a | B::bit(c));
        let syms = Symmetry::all(m, n);
        let maps: Vec<Vec<u16>> = syms
            .iter()
            .map(|s| (0..cells).map(|c| s.map_index(c, m, n) as u16).collect())
            .collect();
        let inverse = syms
            .iter()
            .map(|s| syms.iter().position(|t| *t == s.inverse()).unwrap_or(0))
            .collect();
        let mut keys = vec![0u64; syms.len() * 3 * cells];
        for (s, map) in maps.iter().enumerate() {
            for tag in 0..3 {
                for c in 0..cells {
                    let image = map[c] as u64;
                    keys[(s * 3 + tag) * cells + c] = splitmix64((image << 2) | (tag as u64 + 1));
                }
            }
        }
        let inv_pow = (0..=k.min(1100) + 1)
            .map(|i| 0.5f64.powi(i as i32))
            .collect();
        let weight = (0..=k + 1).map(|i| 1u32 << (2 * i).min(24)).collect();
        Some(Layout {
            cells,
            k,
            overline: geo.overline,
            lines,
            area,
            full,
            maps,
            inverse,
            keys,
            inv_pow,
            weight,
        })
    }

    /// The number of symmetries tracked.
    #[inline]
    pub fn symmetries(&self) -> usize {
        self.maps.len()
    }

    #[inline]
    fn toggle(&self, st: &mut State<B>, cell: usize, tag: usize) {
        for s in 0..self.maps.len() {
            st.hash[s] ^= self.keys[(s * 3 + tag) * self.cells + cell];
        }
    }

    /// The solver's copy of `position`.
    pub fn state(&self, position: &Position) -> State<B> {
        let mut st = State {
            marks: [B::default(); 2],
            blocks: B::default(),
            hands: [position.hand(Player::X), position.hand(Player::O)],
            side: position.to_move().index(),
            hash: [0; 8],
            hand_hash: 0,
        };
        for (i, &c) in position.cells().iter().enumerate() {
            match c {
                Cell::Empty => {}
                Cell::Mark(p) => {
                    st.marks[p.index()] |= B::bit(i);
                    self.toggle(&mut st, i, p.index());
                }
                Cell::Block => {
                    st.blocks |= B::bit(i);
                    self.toggle(&mut st, i, 2);
                }
            }
        }
        st.hand_hash = hand_hash(&st.hands);
        st
    }

    /// The position after `mv` (which must be legal in `st`).
    #[inline]
    pub fn play(&self, st: &State<B>, mv: Move) -> State<B> {
        let mut s = *st;
        let me = st.side;
        let opp = me ^ 1;
        let cell = mv.cell();
        let bit = B::bit(cell);
        match mv.piece {
            Piece::Mark => {
                s.marks[me] |= bit;
                self.toggle(&mut s, cell, me);
            }
            Piece::Block => {
                s.blocks |= bit;
                self.toggle(&mut s, cell, 2);
                s.hands[me].block -= 1;
            }
            Piece::Remove => {
                if s.marks[opp].has(cell) {
                    s.marks[opp] &= !bit;
                    self.toggle(&mut s, cell, opp);
                } else {
                    s.blocks &= !bit;
                    self.toggle(&mut s, cell, 2);
                }
                s.hands[me].remove -= 1;
            }
            Piece::Bomb => {
                let area = self.area[cell];
                for tag in 0..3 {
                    let set = if tag < 2 { s.marks[tag] } else { s.blocks };
                    for c in cells(set & area) {
                        self.toggle(&mut s, c, tag);
                    }
                }
                s.marks[0] &= !area;
                s.marks[1] &= !area;
                s.blocks &= !area;
                s.hands[me].bomb -= 1;
            }
        }
        if mv.piece != Piece::Mark {
            s.hand_hash = hand_hash(&s.hands);
        }
        s.side = opp;
        s
    }

    /// The symmetry-independent key of `st` and the symmetry that maps `st` onto its
    /// canonical form.
    #[inline]
    pub fn canonical(&self, st: &State<B>) -> (u64, usize) {
        let mut best = (st.hash[0], 0);
        for s in 1..self.maps.len() {
            if st.hash[s] < best.0 {
                best = (st.hash[s], s);
            }
        }
        let side = if st.side == 1 { SIDE_KEY } else { 0 };
        (best.0 ^ st.hand_hash ^ side, best.1)
    }

    /// True when symmetry `s` maps `st` onto itself.
    pub fn fixes(&self, st: &State<B>, s: usize) -> bool {
        let map = &self.maps[s];
        (0..self.cells).all(|c| st.content(c) == st.content(map[c] as usize))
    }
}

/// A position as the solver sees it. Small and `Copy`: moves make a new one.
#[derive(Copy, Clone, Debug)]
pub struct State<B> {
    /// Marks of x (`[0]`) and o (`[1]`).
    pub marks: [B; 2],
    pub blocks: B,
    pub hands: [Hand; 2],
    /// 0 when x is to move, 1 for o.
    pub side: usize,
    hash: [u64; 8],
    hand_hash: u64,
}

impl<B: Bits> State<B> {
    /// Every cell holding a piece.
    #[inline]
    pub fn occupied(&self) -> B {
        self.marks[0] | self.marks[1] | self.blocks
    }

    /// What cell `c` holds: 0 empty, 1 x, 2 o, 3 block.
    #[inline]
    pub fn content(&self, c: usize) -> u8 {
        if self.marks[0].has(c) {
            1
        } else if self.marks[1].has(c) {
            2
        } else if self.blocks.has(c) {
            3
        } else {
            0
        }
    }

    /// True when either hand holds a piece that can clear cells (remove or bomb):
    /// lines can then reopen, and the bounds that assume they cannot are off.
    #[inline]
    pub fn can_clear(&self) -> bool {
        self.hands.iter().any(|h| h.remove > 0 || h.bomb > 0)
    }

    /// True when the side to move has a legal move.
    #[inline]
    pub fn has_move(&self, full: B) -> bool {
        let occupied = self.occupied();
        if !(full & !occupied).none() {
            return true;
        }
        let h = self.hands[self.side];
        (h.remove > 0 && !(self.marks[self.side ^ 1] | self.blocks).none())
            || (h.bomb > 0 && !occupied.none())
    }
}
