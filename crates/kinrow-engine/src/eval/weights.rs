//! The learned weights: for every cell code, what an empty cell with that code is worth
//! to the side to move when the code is its own (`own`) and when it is the opponent's
//! (`opp`), in thousandths of a logit ([`UNIT`] per logit). A position's score is the
//! sum over its empty cells, and `σ(score / UNIT)` is the side to move's expected result.
//!
//! The weights are written by `kinrow tune` as a small text file, one line per code
//! with its classes spelled out, and the build embeds the committed file
//! (`weights/gomoku.txt`).

use std::sync::OnceLock;

use super::cells::{classes_of, Threat, CODES};
use super::classes::{LineClass, CLASSES};
use kinrow_game::Rules;

/// Score units per logit.
pub const UNIT: f64 = 1000.0;

/// The first line of a weights file.
const MAGIC: &str = "kinrow-eval 1";

/// A set of learned weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedWeights {
    /// What the weights are for and where they came from (free text, one line).
    pub name: String,
    /// Per code: its worth as the side to move's own code.
    pub own: Vec<i32>,
    /// Per code: its worth as the opponent's code (to the side to move).
    pub opp: Vec<i32>,
    /// Per threat mask ([`threat_mask`]): what the threats either side can make at once
    /// are worth together, to the side to move.
    pub masks: Vec<i32>,
}

/// The threats of a mask, in bit order: the side to move's, then (shifted by
/// [`MASK_THREATS`]) the opponent's.
pub const MASK_ORDER: [Threat; 5] = [
    Threat::Three,
    Threat::Four,
    Threat::DoubleThree,
    Threat::FourThree,
    Threat::DoubleFour,
];
/// Threats per side in a mask.
pub const MASK_THREATS: usize = MASK_ORDER.len();
/// Threat masks.
pub const MASKS: usize = 1 << (2 * MASK_THREATS);

/// The threat mask of a position from `has(side, threat)`: bit `i` says the side to move
/// has a cell that makes `MASK_ORDER[i]`, bit `MASK_THREATS + i` the opponent.
#[inline]
pub fn threat_mask(has: impl Fn(usize, Threat) -> bool) -> usize {
    let mut mask = 0;
    for side in 0..2 {
        for (i, &t) in MASK_ORDER.iter().enumerate() {
            if has(side, t) {
                mask |= 1 << (side * MASK_THREATS + i);
            }
        }
    }
    mask
}

/// A mask's name in the weights file: the side to move's threats, `/`, the opponent's,
/// each by its bits in [`MASK_ORDER`] as `T4DFX` letters or `-`.
fn mask_name(mask: usize) -> String {
    let side = |s: usize| -> String {
        (0..MASK_THREATS)
            .map(|i| {
                if mask >> (s * MASK_THREATS + i) & 1 == 1 {
                    MASK_LETTERS[i]
                } else {
                    '-'
                }
            })
            .collect()
    };
    format!("mask:{}/{}", side(0), side(1))
}

/// The letters of [`MASK_ORDER`]'s threats in a mask's name.
const MASK_LETTERS: [char; MASK_THREATS] = ['T', '4', 'D', 'F', 'X'];

/// Reads [`mask_name`]'s notation back.
fn parse_mask(name: &str) -> Option<usize> {
    let (mover, opponent) = name.strip_prefix("mask:")?.split_once('/')?;
    let mut mask = 0;
    for (s, part) in [mover, opponent].into_iter().enumerate() {
        let chars: Vec<char> = part.chars().collect();
        if chars.len() != MASK_THREATS {
            return None;
        }
        for (i, &c) in chars.iter().enumerate() {
            match c {
                '-' => {}
                c if c == MASK_LETTERS[i] => mask |= 1 << (s * MASK_THREATS + i),
                _ => return None,
            }
        }
    }
    Some(mask)
}

impl LearnedWeights {
    /// All zero: every position even.
    pub fn zero(name: &str) -> LearnedWeights {
        LearnedWeights {
            name: name.to_string(),
            own: vec![0; CODES],
            opp: vec![0; CODES],
            masks: vec![0; MASKS],
        }
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{MAGIC}\n# {} cell codes (four line classes each) and their worth to the side to move,\n# in thousandths of a logit: as its own code, as the opponent's. Written by `kinrow tune`.\nname {}\nclasses {}\n",
            CODES,
            self.name,
            LineClass::ALL.map(LineClass::short).join(" ")
        );
        for code in 0..CODES {
            let name = classes_of(code as u16).map(LineClass::short).join(",");
            out += &format!("{name} {} {}\n", self.own[code], self.opp[code]);
        }
        out += &format!(
            "# {MASKS} threat masks (T three, 4 four, D double three, F four-three, X double four;\n# the side to move's, then the opponent's) and their worth to the side to move.\n"
        );
        for mask in 0..MASKS {
            if self.masks[mask] != 0 {
                out += &format!("{} {}\n", mask_name(mask), self.masks[mask]);
            }
        }
        out
    }

    /// Reads a weights file; every code must be there once.
    pub fn parse(text: &str) -> Result<LearnedWeights, String> {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        if lines.next() != Some(MAGIC) {
            return Err(format!(
                "not a weights file: the first line is not {MAGIC:?}"
            ));
        }
        let mut w = LearnedWeights::zero("");
        let mut seen = vec![false; CODES];
        let names = LineClass::ALL.map(LineClass::short);
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                ["name", ..] => w.name = line["name".len()..].trim().to_string(),
                ["classes", rest @ ..] => {
                    if rest != names.as_slice() {
                        return Err(format!("classes {rest:?} are not {names:?}"));
                    }
                }
                [name, value] if name.starts_with("mask:") => {
                    let mask =
                        parse_mask(name).ok_or_else(|| format!("{name:?} is not a threat mask"))?;
                    w.masks[mask] = value
                        .parse()
                        .map_err(|_| format!("{value:?} is not a whole number"))?;
                }
                [code, own, opp] => {
                    let classes: Vec<usize> = code
                        .split(',')
                        .map(|c| names.iter().position(|n| n == &c))
                        .collect::<Option<_>>()
                        .filter(|v: &Vec<usize>| v.len() == 4)
                        .ok_or_else(|| format!("{code:?} is not four classes"))?;
                    let [a, b, c, d] = [classes[0], classes[1], classes[2], classes[3]];
                    let i = super::cells::code_table()
                        [((a * CLASSES + b) * CLASSES + c) * CLASSES + d]
                        as usize;
                    let num = |s: &str| {
                        s.parse::<i32>()
                            .map_err(|_| format!("{s:?} is not a whole number"))
                    };
                    w.own[i] = num(own)?;
                    w.opp[i] = num(opp)?;
                    seen[i] = true;
                }
                _ => return Err(format!("line {line:?} is not `classes own opp`")),
            }
        }
        match seen.iter().position(|&s| !s) {
            Some(i) => Err(format!(
                "code {} is missing",
                classes_of(i as u16).map(LineClass::short).join(",")
            )),
            None => Ok(w),
        }
    }
}

/// The weights the build embeds for `rules`, where there are some: gomoku (k = 5,
/// freestyle or exactly five, marks only).
pub fn for_rules(rules: &Rules) -> Option<&'static LearnedWeights> {
    fits(rules).then(gomoku).flatten()
}

/// True for the rules gomoku weights are fitted for: k = 5, freestyle or exactly five,
/// marks only.
pub fn fits(rules: &Rules) -> bool {
    rules.k() == 5 && rules.variant().plain_lines() && !rules.has_special_pieces()
}

/// The committed gomoku weights.
pub fn gomoku() -> Option<&'static LearnedWeights> {
    static W: OnceLock<Option<LearnedWeights>> = OnceLock::new();
    W.get_or_init(|| LearnedWeights::parse(include_str!("weights/gomoku.txt")).ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_text() {
        let mut w = LearnedWeights::zero("test weights");
        for i in 0..CODES {
            w.own[i] = i as i32 * 3 - 100;
            w.opp[i] = -(i as i32);
        }
        for m in (0..MASKS).step_by(7) {
            w.masks[m] = m as i32 - 500;
        }
        assert_eq!(LearnedWeights::parse(&w.to_text()).unwrap(), w);
        let broken = w.to_text().replace("F5,F5,F5,F5", "F5,F5,F5");
        assert!(LearnedWeights::parse(&broken)
            .unwrap_err()
            .contains("four classes"));
        for bad in ["mask:T4DF/-----", "mask:T4DFX-----", "mask:4T---/-----"] {
            assert_eq!(parse_mask(bad), None, "{bad}");
        }
        for m in 0..MASKS {
            assert_eq!(parse_mask(&mask_name(m)), Some(m));
        }
    }

    #[test]
    fn the_committed_weights_read() {
        let w = gomoku().expect("weights/gomoku.txt reads");
        assert!(w.own.iter().any(|&v| v != 0));
    }
}
