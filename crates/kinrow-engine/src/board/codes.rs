//! Line codes: for every cell and direction, the contents of the `2(k - 1)` cells
//! around it along that direction (the cells every k-window through it covers), two
//! bits each, kept up to date as the search marks and clears cells. A table indexed
//! by the code holds what a mark on the cell would add to each player's window score
//! along that line, so a cell's [`LineBoard::gains`] is four table reads instead of
//! a pass over the `4k` windows through it. The search scores every empty cell near
//! a piece at each of its quiet nodes, which made that pass its largest cost. The
//! table also holds the [`Shape`] a mark makes of the line for each player (a four, an
//! open three, ...), which the move ordering and the leaves' double threes read.
//!
//! [`LineBoard::gains`]: super::LineBoard::gains

use std::sync::OnceLock;

use super::cells::CellEval;
use super::pattern_gain;
use crate::eval::Learned;
use kinrow_game::codes::{BLOCK, EMPTY};
use kinrow_game::WinRule;
use kinrow_game::{Geometry, DIRECTIONS};

/// The largest k with a table: 4^(2k - 2) entries, 65 536 for k = 5.
const MAX_K: usize = 5;

/// What a code says of a cell off the board: like a block, no window crosses it.
const OFF: u32 = BLOCK as u32;

/// The codes of one board, updated move by move.
#[derive(Clone)]
pub struct LineCodes {
    table: &'static [LineReading],
    /// `codes[cell][direction]`.
    codes: Vec<[u32; 4]>,
    /// For each cell, the codes a mark there changes: `(cell, direction, shift)`.
    touched: Vec<Vec<(u16, u8, u8)>>,
    /// The cells' codes of line classes, when the board keeps them.
    cells: Option<CellEval>,
}

impl LineCodes {
    /// The codes of `cells` (a [`LineBoard`]'s contents) on `geo`, or `None` when k is
    /// beyond the tables (k > 5) or below 2.
    ///
    /// [`LineBoard`]: super::LineBoard
    pub fn new(geo: &Geometry, cells: &[u8]) -> Option<LineCodes> {
        let k = geo.k as usize;
        let table = gain_table(k)?;
        let reach = k as isize - 1;
        let mut codes = vec![[0u32; 4]; geo.cells()];
        let mut touched = vec![Vec::new(); geo.cells()];
        for (c, code) in codes.iter_mut().enumerate() {
            for (d, dir) in DIRECTIONS.iter().enumerate() {
                let (dr, dc) = dir.step();
                for o in (-reach..=reach).filter(|&o| o != 0) {
                    let shift = shift_of(o, reach);
                    let state = match geo.offset(c, o * dr, o * dc) {
                        None => OFF,
                        Some(n) => {
                            // A mark on `n` changes this code (by `shift`).
                            touched[n].push((c as u16, d as u8, shift));
                            cells[n] as u32
                        }
                    };
                    code[d] |= state << shift;
                }
            }
        }
        Some(LineCodes {
            table,
            codes,
            touched,
            cells: None,
        })
    }

    /// Keeps every empty cell's codes of line classes from now on, with the sums of
    /// the `learned` evaluation over them ([`CellEval`]); `cells` are the board's contents.
    pub fn keep_cells(
        &mut self,
        k: usize,
        rule: [WinRule; 2],
        learned: Option<Learned>,
        cells: &[u8],
    ) {
        self.cells = CellEval::new(k, rule, learned, &self.codes, cells);
    }

    /// The cells' codes of line classes, when kept.
    #[inline]
    pub fn cells(&self) -> Option<&CellEval> {
        self.cells.as_ref()
    }

    /// `content` (a stone) goes on `cell`.
    #[inline]
    pub fn put(&mut self, cell: usize, content: u8) {
        if let Some(eval) = &mut self.cells {
            eval.putting(cell);
        }
        for &(c, d, shift) in &self.touched[cell] {
            let code = &mut self.codes[c as usize][d as usize];
            *code += (content as u32) << shift;
            if let Some(eval) = &mut self.cells {
                eval.line_changed(c as usize, d as usize, *code);
            }
        }
        if let Some(eval) = &mut self.cells {
            eval.filled(cell);
        }
    }

    /// `content` leaves `cell` again.
    #[inline]
    pub fn take(&mut self, cell: usize, content: u8) {
        // Undoing the last put restores the cell codes as they were; any other take
        // recomputes the cells whose lines change.
        let restored = self.cells.as_mut().is_some_and(|eval| eval.taking(cell));
        for &(c, d, shift) in &self.touched[cell] {
            let code = &mut self.codes[c as usize][d as usize];
            *code -= (content as u32) << shift;
            if !restored {
                if let Some(eval) = &mut self.cells {
                    eval.line_changed(c as usize, d as usize, *code);
                }
            }
        }
        if !restored {
            if let Some(eval) = &mut self.cells {
                eval.emptied(cell, &self.codes[cell]);
            }
        }
    }

    /// How much each player's window score would grow with a mark of theirs on the
    /// empty `cell` (the same sums as [`LineBoard::gains`] under [`Pattern`]).
    ///
    /// [`LineBoard::gains`]: super::LineBoard::gains
    /// [`Pattern`]: super::Pattern
    #[inline]
    pub fn gains(&self, cell: usize) -> [i64; 2] {
        let mut sum = [0i64; 2];
        for &code in &self.codes[cell] {
            let [x, o] = self.table[code as usize].gain;
            sum[0] += x as i64;
            sum[1] += o as i64;
        }
        sum
    }

    /// In how many directions a mark of `p` on the empty `cell` makes a three (a line
    /// that one more mark turns into two cells that complete k, within the k - 1 cells
    /// either side) without making a four.
    #[inline]
    pub fn threes(&self, p: usize, cell: usize) -> u32 {
        self.codes[cell]
            .iter()
            .filter(|&&code| self.table[code as usize].shape[p] == Shape::OpenThree)
            .count() as u32
    }

    /// What the four lines through the empty `cell` say of a mark there.
    #[inline]
    pub fn lines(&self, cell: usize) -> [&LineReading; 4] {
        self.codes[cell].map(|code| &self.table[code as usize])
    }
}

/// What a mark on a line's centre makes of that line for its player, from the best
/// follow-up within the `2(k - 1)` cells around it ("completes" means an empty cell
/// whose mark would put k in a row in one window).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Shape {
    /// Nothing within two more marks.
    #[default]
    Nothing = 0,
    /// Two more marks make a four.
    Two = 1,
    /// Two more marks make an open four.
    OpenTwo = 2,
    /// One more mark makes a four.
    Three = 3,
    /// One more mark makes an open four (two cells that complete): a threat.
    OpenThree = 4,
    /// One cell completes.
    Four = 5,
    /// Two or more cells complete.
    OpenFour = 6,
    /// k in a row.
    Five = 7,
}

/// What one line's code says about a mark on its centre.
#[derive(Copy, Clone, Default)]
pub struct LineReading {
    /// What it adds to each player's window score (at most 45 000 for k = 5: five
    /// windows that each go from four marks to five). The table is read at random for
    /// every candidate cell, so it is kept small (6 bytes an entry).
    pub gain: [u16; 2],
    /// What a mark of each player makes of this line.
    pub shape: [Shape; 2],
}

/// Where the cell `o` steps from the centre sits in a code (the centre has no bits).
fn shift_of(o: isize, reach: isize) -> u8 {
    let i = if o < 0 { o + reach } else { o + reach - 1 };
    2 * i as u8
}

/// The table for `k` (built once per k): for each code, what a mark on the centre adds
/// to each player's score over the k-windows through it along that line.
fn gain_table(k: usize) -> Option<&'static [LineReading]> {
    static TABLES: [OnceLock<Vec<LineReading>>; MAX_K + 1] = [const { OnceLock::new() }; MAX_K + 1];
    if !(2..=MAX_K).contains(&k) {
        return None;
    }
    Some(TABLES[k].get_or_init(|| build_table(k)))
}

fn build_table(k: usize) -> Vec<LineReading> {
    let reach = k as isize - 1;
    let span = 2 * k - 1;
    (0..1u32 << (4 * (k - 1)))
        .map(|code| {
            // The line's cells, the centre (empty) at index k - 1.
            let mut line = vec![EMPTY as u32; span];
            for o in (-reach..=reach).filter(|&o| o != 0) {
                line[(o + reach) as usize] = (code >> shift_of(o, reach)) & 3;
            }
            let mut sum = [0i64; 2];
            for window in line.windows(k) {
                if window.contains(&OFF) {
                    continue;
                }
                let count = [1u32, 2].map(|s| window.iter().filter(|&&c| c == s).count() as u8);
                for (p, total) in sum.iter_mut().enumerate() {
                    *total += pattern_gain(k, count, p);
                }
            }
            LineReading {
                gain: sum.map(|v| u16::try_from(v).expect("a line's gain fits 16 bits")),
                shape: [1, 2].map(|own| shape_of(&mut line, k, own)),
            }
        })
        .collect()
}

/// What a mark of `own` on the centre of `line` (empty, index k - 1) makes of it.
fn shape_of(line: &mut [u32], k: usize, own: u32) -> Shape {
    // No window through the centre free of the other player and of blocks: nothing.
    let centre = k - 1;
    let open = |line: &[u32], start: usize| {
        line[start..start + k]
            .iter()
            .all(|&c| c == own || c == EMPTY as u32)
    };
    if !(0..k).any(|start| open(line, start)) {
        return Shape::Nothing;
    }
    line[centre] = own;
    let shape = if line.windows(k).any(|w| w.iter().all(|&c| c == own)) {
        Shape::Five
    } else {
        match completing(line, k, own).count_ones() {
            0 => {
                // The best one more mark can do, then two more.
                let empties: Vec<usize> = (0..line.len())
                    .filter(|&e| line[e] == EMPTY as u32)
                    .collect();
                let mut best = Shape::Nothing;
                for &e in &empties {
                    line[e] = own;
                    let next = match completing(line, k, own).count_ones() {
                        0 if best < Shape::OpenTwo => {
                            let mut two = Shape::Nothing;
                            for &f in empties.iter().filter(|&&f| f != e) {
                                line[f] = own;
                                two = two.max(match completing(line, k, own).count_ones() {
                                    0 => Shape::Nothing,
                                    1 => Shape::Two,
                                    _ => Shape::OpenTwo,
                                });
                                line[f] = EMPTY as u32;
                            }
                            two
                        }
                        0 => Shape::Nothing,
                        1 => Shape::Three,
                        _ => Shape::OpenThree,
                    };
                    line[e] = EMPTY as u32;
                    best = best.max(next);
                }
                best
            }
            1 => Shape::Four,
            _ => Shape::OpenFour,
        }
    };
    line[centre] = EMPTY as u32;
    shape
}

/// The empty cells of `line` (as bits) that complete k of `own`'s marks in a window.
fn completing(line: &[u32], k: usize, own: u32) -> u32 {
    let mut cells = 0;
    for (start, window) in line.windows(k).enumerate() {
        let mut gap = None;
        let mut other = false;
        for (i, &c) in window.iter().enumerate() {
            if c == EMPTY as u32 {
                if gap.is_some() {
                    other = true;
                    break;
                }
                gap = Some(start + i);
            } else if c != own {
                other = true;
                break;
            }
        }
        if let (false, Some(g)) = (other, gap) {
            cells |= 1 << g;
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PatternBoard;
    use kinrow_game::codes::stone;
    use kinrow_game::{splitmix64, Hand, Position, Rules};

    /// The codes the board keeps give the same gains as the board's pass over the
    /// windows, on random boards with marks and blocks, as cells are marked and cleared
    /// (k = 4 and 5, boards not square), and equal codes built afresh.
    #[test]
    fn gains_match_the_boards_own() {
        for (m, n, k) in [(9, 7, 5), (8, 11, 4), (15, 15, 5)] {
            let rules = Rules::new(m, n, k, true, [Hand::new(3, 0, 0); 2]).unwrap();
            let empty = Position::empty(&rules);
            let mut board = PatternBoard::new(&empty).with_codes();
            let mut seed = 11 + k;
            let mut placed: Vec<usize> = Vec::new();
            for step in 0..300 {
                seed = splitmix64(seed);
                let cells = board.cells().len();
                if placed.len() > 40 || (!placed.is_empty() && seed % 4 == 0) {
                    board.take(placed.swap_remove((seed >> 8) as usize % placed.len()));
                } else {
                    let c = (seed >> 8) as usize % cells;
                    if board.cells()[c] == EMPTY {
                        let content = [stone(0), stone(1), BLOCK][(seed >> 40) as usize % 3];
                        board.put(c, content);
                        placed.push(c);
                    }
                }
                let codes = board.codes().unwrap();
                for c in (0..cells).filter(|&c| board.cells()[c] == EMPTY) {
                    assert_eq!(
                        codes.gains(c),
                        board.gains(c),
                        "{m}x{n}x{k} step {step} cell {c}"
                    );
                }
                let fresh = LineCodes::new(empty.geometry(), board.cells()).unwrap();
                assert_eq!(fresh.codes, codes.codes, "{m}x{n}x{k} step {step}");
            }
        }
    }

    /// Threes at the cell `?`: open and split threes count, a closed or broken one
    /// does not, nor a four; threes along crossing lines add up.
    #[test]
    fn threes_by_direction() {
        let rules = Rules::mnk(13, 9, 5).unwrap();
        let cases: [(&[&str], u32, u32); 12] = [
            (&["......", "..xx.?"], 1, 0),
            (&[".....", "..x.x?"], 1, 0),
            (&["......", ".oxx.?"], 0, 0),
            (&["......", ".xxx.?"], 0, 0),
            (&["......", "...x.?"], 0, 0),
            (&["....x.", "..xx.?"], 1, 0),
            (&[".....x", "..xx.?"], 1, 0),
            (&["...x.x", "..xx.?"], 1, 0),
            (&["...x..", "....x.", "..xx.?"], 2, 0),
            (&[".....x", ".....x", "..xx.?"], 2, 0),
            (&[".....o", ".....o", "..oo.?"], 0, 2),
            (&[".....o", ".....x", "..oo.?"], 0, 1),
        ];
        for (rows, x, o) in cases {
            let mut cells = vec![EMPTY; 13 * 9];
            let top = 4 - rows.len();
            for (r, row) in rows.iter().enumerate() {
                for (c, ch) in row.chars().enumerate() {
                    cells[(top + r) * 13 + c + 2] = match ch {
                        'x' => stone(0),
                        'o' => stone(1),
                        _ => EMPTY,
                    };
                }
            }
            // The cell `?` in the last row.
            let at = 3 * 13 + 2 + 5;
            let empty = Position::empty(&rules);
            let codes = LineCodes::new(empty.geometry(), &cells).unwrap();
            assert_eq!(
                [codes.threes(0, at), codes.threes(1, at)],
                [x, o],
                "{rows:?}"
            );
        }
    }

    /// The shape a mark of x on the centre `?` makes of a line of nine cells (k = 5;
    /// `#` is a block or the board's edge).
    #[test]
    fn shapes_of_lines() {
        let cases = [
            ("xxxx?....", Shape::Five),
            (".xxx?....", Shape::OpenFour),
            ("x.xx?.x..", Shape::OpenFour),
            ("oxxx?....", Shape::Four),
            ("..x.?.x..", Shape::Three),
            ("..xx?....", Shape::OpenThree),
            ("..x.?x...", Shape::OpenThree),
            ("#xx.?....", Shape::Three),
            ("oxx.?o...", Shape::Nothing),
            ("...x?....", Shape::OpenTwo),
            ("..o.?x..o", Shape::Two),
            ("...o?o...", Shape::Nothing),
            ("....?....", Shape::Nothing),
            ("oooo?oooo", Shape::Nothing),
        ];
        for (text, expected) in cases {
            let mut line: Vec<u32> = text
                .chars()
                .map(|ch| match ch {
                    'x' => 1,
                    'o' => 2,
                    '#' => OFF,
                    _ => EMPTY as u32,
                })
                .collect();
            assert_eq!(shape_of(&mut line, 5, 1), expected, "x on {text}");
            // The same line seen by o, with the marks swapped.
            for c in line.iter_mut() {
                if *c == 1 || *c == 2 {
                    *c = 3 - *c;
                }
            }
            assert_eq!(shape_of(&mut line, 5, 2), expected, "o on {text}");
        }
    }

    #[test]
    fn no_table_beyond_five() {
        let rules = Rules::mnk(15, 15, 6).unwrap();
        let empty = Position::empty(&rules);
        assert!(LineCodes::new(empty.geometry(), &vec![EMPTY; 225]).is_none());
    }
}
