//! Line classes: what a mark on an empty cell makes of one of the four lines through it,
//! for one player, in the recursive terms strong gomoku engines use. With `k` in a row
//! winning, on the `2k - 1` cells of the line centred on the cell:
//!
//! - `Five`: the mark completes k in a row (under the player's [`WinRule`]);
//! - `Four` (flex four): two or more empty cells would then complete one; `BlockedFour`:
//!   exactly one;
//! - `ThreePlus` (two cells each make a flex four: an open three with room on both
//!   sides), `Three` (one cell does), `BlockedThree` (some cell makes a four);
//! - `TwoPlus` (some cell makes a `ThreePlus`), `Two` (some cell makes a `Three`),
//!   `BlockedTwo` (some cell makes a blocked three);
//! - `One` (some cell makes a two), `BlockedOne` (the line is still open: a k-window
//!   through the cell holds none of the opponent's marks and no block);
//! - `Dead`: no k-window through the cell is open for the player.
//!
//! Each class is defined by the classes one more mark can reach, so the table is built
//! bottom-up over the line codes that [`LineCodes`](crate::board::LineCodes)
//! keeps (the `2(k - 1)` cells around the centre, two bits each). Under "exactly k" a
//! line that would run past k is not a five; where its end lies beyond the coded cells
//! it is taken as not the player's (the code sees k - 1 cells each side).

use std::sync::OnceLock;

use kinrow_game::codes::EMPTY;
use kinrow_game::WinRule;

/// The largest k with a class table (the line codes' own limit).
pub const MAX_K: usize = 5;

/// What a mark makes of one line, weakest first (see the module's text).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LineClass {
    /// No k-window through the cell is open for the player.
    Dead = 0,
    /// The line is still open.
    BlockedOne,
    /// Some cell makes a two.
    One,
    /// Some cell makes a blocked three.
    BlockedTwo,
    /// Some cell makes a `Three`.
    Two,
    /// Some cell makes a `ThreePlus`.
    TwoPlus,
    /// Some cell makes a four.
    BlockedThree,
    /// One cell makes a flex four.
    Three,
    /// Two cells each make a flex four: an open three.
    ThreePlus,
    /// Exactly one empty cell would complete k.
    BlockedFour,
    /// A flex four: two or more empty cells would complete k.
    Four,
    /// The mark completes k in a row.
    Five,
}

/// How many classes there are.
pub const CLASSES: usize = 12;

impl LineClass {
    /// Every class, weakest first.
    pub const ALL: [LineClass; CLASSES] = [
        LineClass::Dead,
        LineClass::BlockedOne,
        LineClass::One,
        LineClass::BlockedTwo,
        LineClass::Two,
        LineClass::TwoPlus,
        LineClass::BlockedThree,
        LineClass::Three,
        LineClass::ThreePlus,
        LineClass::BlockedFour,
        LineClass::Four,
        LineClass::Five,
    ];

    /// A short name (`F5`, `F4`, `B4`, `F3P`, ...), as in the weights file.
    pub fn short(self) -> &'static str {
        [
            "D", "B1", "F1", "B2", "F2", "F2P", "B3", "F3", "F3P", "B4", "F4", "F5",
        ][self as usize]
    }

    /// A flex three or better short of a four: one more mark makes a flex four.
    pub fn is_open_three(self) -> bool {
        matches!(self, LineClass::Three | LineClass::ThreePlus)
    }

    /// A four of either kind.
    pub fn is_four(self) -> bool {
        matches!(self, LineClass::BlockedFour | LineClass::Four)
    }
}

/// The class table of one k and one win rule: `[class of x, class of o]` per line code.
pub fn table(k: usize, rule: WinRule) -> Option<&'static [[LineClass; 2]]> {
    const RULES: usize = 3;
    static TABLES: [OnceLock<Vec<[LineClass; 2]>>; (MAX_K + 1) * RULES] =
        [const { OnceLock::new() }; (MAX_K + 1) * RULES];
    if !(2..=MAX_K).contains(&k) {
        return None;
    }
    let r = match rule {
        WinRule::Overline => 0,
        WinRule::Exact => 1,
        WinRule::ExactOpen => 2,
    };
    Some(TABLES[k * RULES + r].get_or_init(|| build(k, rule)))
}

/// What a line cell holds in a code: [`EMPTY`], a stone (1 or 2), or [`BLOCK`] (also
/// the board's edge).
fn cell_of(code: u32, i: usize) -> u32 {
    (code >> (2 * i)) & 3
}

fn build(k: usize, rule: WinRule) -> Vec<[LineClass; 2]> {
    let size = 1usize << (4 * (k - 1));
    let mut out = vec![[LineClass::Dead; 2]; size];
    for own in 1..=2u32 {
        let mut memo = vec![u8::MAX; size];
        for code in 0..size as u32 {
            let c = classify(code, k, own, rule, &mut memo);
            out[code as usize][own as usize - 1] = c;
        }
    }
    out
}

/// The line of a code: `2k - 1` cells, the centre (index k - 1) holding `own`.
fn line_of(code: u32, k: usize, own: u32) -> Vec<u32> {
    let mut line = Vec::with_capacity(2 * k - 1);
    for i in 0..2 * (k - 1) {
        if i == k - 1 {
            line.push(own);
        }
        line.push(cell_of(code, i));
    }
    line
}

/// The class of the line of `code` for `own` (memoised: a class is defined by the
/// classes of the codes with one more of `own`'s marks).
fn classify(code: u32, k: usize, own: u32, rule: WinRule, memo: &mut [u8]) -> LineClass {
    if memo[code as usize] != u8::MAX {
        return LineClass::ALL[memo[code as usize] as usize];
    }
    let line = line_of(code, k, own);
    let class = if !(0..k).any(|s| open(&line[s..s + k], own)) {
        LineClass::Dead
    } else if (0..k).any(|s| is_five(&line, s, k, own, rule)) {
        LineClass::Five
    } else {
        match completing(&line, k, own, rule) {
            0 => {
                let mut count = [0u32; CLASSES];
                for i in 0..2 * (k - 1) {
                    if cell_of(code, i) == EMPTY as u32 {
                        let next = classify(code | (own << (2 * i)), k, own, rule, memo);
                        count[next as usize] += 1;
                    }
                }
                from_children(&count)
            }
            1 => LineClass::BlockedFour,
            _ => LineClass::Four,
        }
    };
    memo[code as usize] = class as u8;
    class
}

/// A class from how many single marks reach each class.
fn from_children(count: &[u32; CLASSES]) -> LineClass {
    use LineClass::*;
    let n = |c: LineClass| count[c as usize];
    if n(Four) >= 2 {
        ThreePlus
    } else if n(Four) == 1 {
        Three
    } else if n(BlockedFour) > 0 {
        BlockedThree
    } else if n(ThreePlus) > 0 {
        TwoPlus
    } else if n(Three) > 0 {
        Two
    } else if n(BlockedThree) > 0 {
        BlockedTwo
    } else if n(Two) + n(TwoPlus) > 0 {
        One
    } else {
        BlockedOne
    }
}

/// No opposing mark or block in `window`.
fn open(window: &[u32], own: u32) -> bool {
    window.iter().all(|&c| c == own || c == EMPTY as u32)
}

/// The window of `line` starting at `s` is full of `own` and wins under `rule`.
fn is_five(line: &[u32], s: usize, k: usize, own: u32, rule: WinRule) -> bool {
    line[s..s + k].iter().all(|&c| c == own) && ends_allow(line, s, k, own, rule)
}

/// The cells just outside the window at `s` let a full window win under `rule` (a cell
/// beyond the line counts as empty).
fn ends_allow(line: &[u32], s: usize, k: usize, own: u32, rule: WinRule) -> bool {
    let before = if s > 0 { line[s - 1] } else { EMPTY as u32 };
    let after = line.get(s + k).copied().unwrap_or(EMPTY as u32);
    let other = 3 - own;
    match rule {
        WinRule::Overline => true,
        WinRule::Exact => before != own && after != own,
        WinRule::ExactOpen => before != own && after != own && !(before == other && after == other),
    }
}

/// How many empty cells of `line` would complete a winning window of `own`.
fn completing(line: &[u32], k: usize, own: u32, rule: WinRule) -> u32 {
    let mut cells = 0u32;
    for s in 0..line.len() + 1 - k {
        let window = &line[s..s + k];
        let gaps: Vec<usize> = (0..k).filter(|&i| window[i] == EMPTY as u32).collect();
        if gaps.len() == 1 && window.iter().all(|&c| c == own || c == EMPTY as u32) {
            let g = s + gaps[0];
            if ends_allow(line, s, k, own, rule) {
                cells |= 1 << g;
            }
        }
    }
    cells.count_ones()
}

/// The code of a line written as text (`x`, `o`, `.`, `#` for a block or the edge; the
/// centre `?`), for tests.
#[cfg(test)]
pub fn code_of(text: &str) -> u32 {
    let mut code = 0;
    let mut i = 0;
    for ch in text.chars() {
        let v = match ch {
            '?' => continue,
            'x' => 1,
            'o' => 2,
            '#' => kinrow_game::codes::BLOCK as u32,
            _ => EMPTY as u32,
        };
        code |= v << (2 * i);
        i += 1;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::LineClass::*;
    use super::*;

    /// The class a mark of x on the centre `?` makes of a nine-cell line (k = 5), and
    /// the same line seen by o with the marks swapped.
    #[test]
    fn classes_of_lines() {
        let cases = [
            ("xxxx?....", Five),
            (".xxx?....", Four),
            ("x.xx?.x..", Four),
            ("oxxx?....", BlockedFour),
            ("..xx?....", ThreePlus),
            ("#.xx?...#", Three),
            ("..x.?x...", Three),
            (".x.x?....", Three),
            ("#xx.?....", BlockedThree),
            ("oxx.?o...", Dead),
            ("...x?....", TwoPlus),
            ("..x.?....", TwoPlus),
            ("#..x?..#.", Two),
            ("...o?o...", Dead),
            ("....?....", One),
            ("oooo?oooo", Dead),
            ("o...?....", One),
            ("..o.?...o", BlockedOne),
            ("ox..?...#", BlockedTwo),
        ];
        for (text, expected) in cases {
            let t = table(5, WinRule::Overline).unwrap();
            assert_eq!(t[code_of(text) as usize][0], expected, "x on {text}");
            let swapped: String = text
                .chars()
                .map(|c| match c {
                    'x' => 'o',
                    'o' => 'x',
                    c => c,
                })
                .collect();
            assert_eq!(t[code_of(&swapped) as usize][1], expected, "o on {swapped}");
        }
    }

    /// Under "exactly five" a six is not a five, and a four that can only grow into a
    /// six is no four.
    #[test]
    fn exact_five() {
        let exact = table(5, WinRule::Exact).unwrap();
        let free = table(5, WinRule::Overline).unwrap();
        assert_eq!(free[code_of("xxxx?x...") as usize][0], Five);
        assert_ne!(exact[code_of("xxxx?x...") as usize][0], Five);
        assert_eq!(exact[code_of(".xxxx?...") as usize][0], Five);
        assert_eq!(free[code_of("x.xx?....") as usize][0], BlockedFour);
        assert_eq!(exact[code_of("x.xx?.x..") as usize][0], Four);
        // The only cell that completes makes six.
        assert_eq!(free[code_of("xxx.?x...") as usize][0], BlockedFour);
        assert!(exact[code_of("xxx.?x...") as usize][0] < BlockedFour);
    }

    /// Every class is reached by some line, and classes only grow with more own marks.
    #[test]
    fn classes_grow_with_marks() {
        let t = table(5, WinRule::Overline).unwrap();
        let mut seen = [false; CLASSES];
        for code in 0..t.len() as u32 {
            let c = t[code as usize][0];
            seen[c as usize] = true;
            for i in 0..8 {
                if cell_of(code, i) == EMPTY as u32 {
                    let more = t[(code | (1 << (2 * i))) as usize][0];
                    assert!(more >= c || c == Five, "{code:x} + {i}: {c:?} -> {more:?}");
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "{seen:?}");
    }
}
