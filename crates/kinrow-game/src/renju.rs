//! Renju's forbidden moves: the marks x (the first player) may not play.
//!
//! A mark of x is **forbidden** when, without making exactly five, it makes an
//! *overline* (six or more in a row), two or more *fours*, or two or more *open threes*.
//! Exactly five always wins, whatever else the mark makes. The shapes, seen along one
//! line through the mark:
//! - a **four** is four marks of x in a run of five cells whose fifth cell, once
//!   marked, makes exactly five. Two runs with the same four marks are one four (the
//!   open four `.xxxx.`); two runs with different marks are two fours, even on one line
//!   (`x.xxx.x`: the middle mark makes two).
//! - an **open four** (straight four) is four in a row with an empty cell at both ends,
//!   each of which makes exactly five.
//! - an **open three** is a line where one more mark of x, on a cell that is not itself
//!   forbidden, makes an open four through the new mark. Whether that cell is forbidden
//!   is the same question one mark deeper: the definition is recursive.
//!
//! A line along which the mark makes a four does not count as a three as well (four-three
//! is allowed). The recursion is cut at [`MAX_DEPTH`] marks deep (beyond it a cell
//! counts as allowed); real games never come near it.

use super::board::Position;
use super::cell::{Cell, Player};
use super::lines::{Geometry, DIRECTIONS};

/// Why a mark of x is forbidden: renju's shapes, or the pro / long pro opening's places
/// ([`super::Opening`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two or more fours with one mark.
    DoubleFour,
    /// Two or more open threes with one mark.
    DoubleThree,
    /// Pro / long pro: the first stone goes on the centre.
    OffCentre,
    /// Pro / long pro: x's second stone lies at least 3 / 4 cells from the centre.
    NearCentre,
}

impl Forbidden {
    /// The API name: `overline`, `double_four`, `double_three`.
    pub fn as_str(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double_four",
            Forbidden::DoubleThree => "double_three",
            Forbidden::OffCentre => "off_centre",
            Forbidden::NearCentre => "near_centre",
        }
    }

    /// A few words for a person: "it makes an overline", "the first stone goes on the
    /// centre".
    pub fn describe(self) -> &'static str {
        match self {
            Forbidden::Overline => "it makes an overline (six or more in a row)",
            Forbidden::DoubleFour => "it makes two fours at once",
            Forbidden::DoubleThree => "it makes two open threes at once",
            Forbidden::OffCentre => "the first stone goes on the centre",
            Forbidden::NearCentre => {
                "x's second stone goes at least 3 (pro) or 4 (long pro) cells from the centre in rows or columns"
            }
        }
    }

    /// True for the reasons of an opening rule (pro, long pro) rather than renju's.
    pub fn opening_rule(self) -> bool {
        matches!(self, Forbidden::OffCentre | Forbidden::NearCentre)
    }
}

/// How deep the open-three check follows its recursive definition.
pub const MAX_DEPTH: u32 = 4;

/// What a cell on a line holds, seen from x.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Slot {
    X,
    Empty,
    /// An o mark, a block, or off the board: nothing x can use.
    Wall,
}

/// A board's cell content as the forbidden-move check reads it: x's mark, empty, or
/// anything else (which x cannot use). Implemented by the game's [`Cell`] and by the
/// engines' compact boards, so one check serves the rules and every search.
pub trait Stone: Copy {
    /// An empty cell.
    const EMPTY: Self;
    /// A mark of x.
    const X: Self;
    /// True for a mark of x.
    fn is_x(self) -> bool;
    /// True for an empty cell.
    fn is_empty(self) -> bool;
}

impl Stone for Cell {
    const EMPTY: Cell = Cell::Empty;
    const X: Cell = Cell::Mark(Player::X);
    #[inline]
    fn is_x(self) -> bool {
        self == Cell::Mark(Player::X)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == Cell::Empty
    }
}

/// The cells from 5 before `cell` to 5 after it along one direction: index 5 is `cell`.
type Line = [Slot; 11];

fn line<S: Stone>(geo: &Geometry, cells: &[S], cell: usize, (dr, dc): (isize, isize)) -> Line {
    let (r, c) = ((cell / geo.m) as isize, (cell % geo.m) as isize);
    let mut out = [Slot::Wall; 11];
    for (i, slot) in out.iter_mut().enumerate() {
        let d = i as isize - 5;
        let (rr, cc) = (r + dr * d, c + dc * d);
        if rr >= 0 && cc >= 0 && rr < geo.n as isize && cc < geo.m as isize {
            let here = cells[rr as usize * geo.m + cc as usize];
            *slot = if here.is_x() {
                Slot::X
            } else if here.is_empty() {
                Slot::Empty
            } else {
                Slot::Wall
            };
        }
    }
    out
}

/// The run of x marks through index 5.
fn run(line: &Line) -> usize {
    let back = (0..5).rev().take_while(|&i| line[i] == Slot::X).count();
    let fwd = (6..11).take_while(|&i| line[i] == Slot::X).count();
    back + 1 + fwd
}

/// The fours through index 5: distinct sets of four x marks that one more mark turns
/// into exactly five (as bit masks of line indices).
fn fours(line: &Line) -> u32 {
    let mut found: [u16; 5] = [0; 5];
    let mut count = 0;
    for start in 1..=5 {
        let window = &line[start..start + 5];
        let marks = window.iter().filter(|&&s| s == Slot::X).count();
        let empties = window.iter().filter(|&&s| s == Slot::Empty).count();
        // Exactly five once filled: no x mark just outside the window.
        let exact = line[start - 1] != Slot::X && line[start + 5] != Slot::X;
        if marks == 4 && empties == 1 && exact {
            let mask = (start..start + 5)
                .filter(|&i| line[i] == Slot::X)
                .fold(0u16, |m, i| m | 1 << i);
            if !found[..count].contains(&mask) {
                found[count] = mask;
                count += 1;
            }
        }
    }
    count as u32
}

/// True when the line has an open four through both index 5 and `with`: four x marks in
/// a row, empty at both ends, each end making exactly five.
fn open_four_through(line: &Line, with: usize) -> bool {
    (2..=5).any(|s| {
        (s..s + 4).contains(&with)
            && line[s..s + 4].iter().all(|&slot| slot == Slot::X)
            && line[s - 1] == Slot::Empty
            && line[s + 4] == Slot::Empty
            && line[s - 2] != Slot::X
            && line[s + 5] != Slot::X
    })
}

/// Why a mark of x on the empty cell `cell` is forbidden under renju, or `None` when it
/// may be played. `cells` is the board in row-major order under `geo` (a scratch copy or
/// a search's own board: it is changed during the check and restored before returning).
pub fn forbidden_mark<S: Stone>(geo: &Geometry, cells: &mut [S], cell: usize) -> Option<Forbidden> {
    forbidden_at(geo, cells, cell, 0)
}

fn forbidden_at<S: Stone>(
    geo: &Geometry,
    cells: &mut [S],
    cell: usize,
    depth: u32,
) -> Option<Forbidden> {
    debug_assert!(cells[cell].is_empty());
    cells[cell] = S::X;
    let lines = DIRECTIONS.map(|d| line(geo, cells, cell, d.step()));
    let verdict = judge(geo, cells, cell, &lines, depth);
    cells[cell] = S::EMPTY;
    verdict
}

/// The verdict on the mark at `cell` (already placed), from its four `lines`.
fn judge<S: Stone>(
    geo: &Geometry,
    cells: &mut [S],
    cell: usize,
    lines: &[Line; 4],
    depth: u32,
) -> Option<Forbidden> {
    let runs = lines.map(|l| run(&l));
    if runs.contains(&5) {
        return None;
    }
    if runs.iter().any(|&r| r > 5) {
        return Some(Forbidden::Overline);
    }
    let fours_by_line = lines.map(|l| fours(&l));
    if fours_by_line.iter().sum::<u32>() >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    if depth >= MAX_DEPTH {
        return None;
    }
    let mut threes = 0;
    for (d, line) in lines.iter().enumerate() {
        if fours_by_line[d] == 0 && open_three(geo, cells, cell, d, line, depth) {
            threes += 1;
            if threes >= 2 {
                return Some(Forbidden::DoubleThree);
            }
        }
    }
    None
}

/// True when the mark at `cell` (placed) makes an open three along direction `d`: some
/// empty cell within three of it, not itself forbidden, would make an open four
/// through both.
fn open_three<S: Stone>(
    geo: &Geometry,
    cells: &mut [S],
    cell: usize,
    d: usize,
    line: &Line,
    depth: u32,
) -> bool {
    let (dr, dc) = DIRECTIONS[d].step();
    (2..=8).any(|i| {
        if line[i] != Slot::Empty {
            return false;
        }
        let mut with = *line;
        with[i] = Slot::X;
        if !open_four_through(&with, i) {
            return false;
        }
        let off = i as isize - 5;
        let (r, c) = (
            (cell / geo.m) as isize + dr * off,
            (cell % geo.m) as isize + dc * off,
        );
        let target = r as usize * geo.m + c as usize;
        forbidden_at(geo, cells, target, depth + 1).is_none()
    })
}

impl Position {
    /// True when the side to move has forbidden cells to avoid: x under renju, or x at a
    /// step the pro / long pro opening restricts ([`Position::opening_restricted`]).
    #[inline]
    pub fn marks_restricted(&self) -> bool {
        self.renju_restricted() || self.opening_restricted()
    }

    #[inline]
    fn renju_restricted(&self) -> bool {
        self.geometry().variant.has_forbidden_cells(self.to_move())
    }

    /// Why a mark of the side to move on `cell` is forbidden (renju or pro, x to move, an
    /// empty cell, the game not decided), or `None` when it is not.
    pub fn forbidden(&self, cell: usize) -> Option<Forbidden> {
        if !self.marks_restricted() || self.cell(cell) != Cell::Empty || self.winner().is_some() {
            return None;
        }
        if let Some(why) = self.opening_forbidden(cell) {
            return Some(why);
        }
        if !self.renju_restricted() {
            return None;
        }
        forbidden_mark(self.geometry(), &mut self.cells().to_vec(), cell)
    }

    /// Every cell where the side to move may not put a mark, with the reason, in cell order.
    pub fn forbidden_cells(&self) -> Vec<(usize, Forbidden)> {
        if !self.marks_restricted() || self.winner().is_some() {
            return Vec::new();
        }
        let renju = self.renju_restricted();
        let mut scratch = self.cells().to_vec();
        let mut out = Vec::new();
        for c in 0..scratch.len() {
            if scratch[c] != Cell::Empty {
                continue;
            }
            if let Some(why) = self.opening_forbidden(c) {
                out.push((c, why));
            } else if renju {
                if let Some(why) = forbidden_mark(self.geometry(), &mut scratch, c) {
                    out.push((c, why));
                }
            }
        }
        out
    }
}
