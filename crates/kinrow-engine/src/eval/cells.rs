//! Cell codes: the four line classes of an empty cell for one player, in any order,
//! numbered as one code (the multisets of four of the [`CLASSES`] classes: 1 365 codes
//! for twelve). A code says what a mark there makes along every line at once (a four and
//! a three, two threes, ...), which is what the learned weights and the threat counts
//! are indexed by.

use std::sync::OnceLock;

use super::classes::{LineClass, CLASSES};

/// How many cell codes there are: multisets of four classes.
pub const CODES: usize = CLASSES * (CLASSES + 1) * (CLASSES + 2) * (CLASSES + 3) / 24;

/// The tables of the codes: the code of every ordered quadruple, and the classes of
/// every code (sorted, weakest first).
struct Tables {
    code: Vec<u16>,
    classes: Vec<[LineClass; 4]>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut classes = Vec::with_capacity(CODES);
        let mut number = vec![u16::MAX; CLASSES.pow(4)];
        for a in 0..CLASSES {
            for b in a..CLASSES {
                for c in b..CLASSES {
                    for d in c..CLASSES {
                        number[((a * CLASSES + b) * CLASSES + c) * CLASSES + d] =
                            classes.len() as u16;
                        classes.push([a, b, c, d].map(|i| LineClass::ALL[i]));
                    }
                }
            }
        }
        let mut code = vec![0u16; CLASSES.pow(4)];
        for (i, slot) in code.iter_mut().enumerate() {
            let mut q = [
                i / CLASSES.pow(3),
                i / CLASSES.pow(2) % CLASSES,
                i / CLASSES % CLASSES,
                i % CLASSES,
            ];
            q.sort_unstable();
            *slot = number[((q[0] * CLASSES + q[1]) * CLASSES + q[2]) * CLASSES + q[3]];
        }
        Tables { code, classes }
    })
}

/// The table from an ordered quadruple (`((a * 12 + b) * 12 + c) * 12 + d`) to its code.
pub fn code_table() -> &'static [u16] {
    &tables().code
}

/// The code of four line classes, in any order (the unit tests' way to name a code).
#[cfg(test)]
fn code_of(lines: [LineClass; 4]) -> u16 {
    let [a, b, c, d] = lines.map(|l| l as usize);
    tables().code[((a * CLASSES + b) * CLASSES + c) * CLASSES + d]
}

/// The four classes of `code`, weakest first.
pub fn classes_of(code: u16) -> [LineClass; 4] {
    tables().classes[code as usize]
}

/// What a mark on a cell threatens, from its code: the threat classes the board counts
/// per player (strongest first where a code has several).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing forcing.
    Quiet = 0,
    /// One open three (one more mark there makes a flex four).
    Three,
    /// One blocked four (one cell then completes k).
    Four,
    /// Two or more open threes at once.
    DoubleThree,
    /// A four and an open three at once.
    FourThree,
    /// A flex four, or two fours at once: the opponent cannot stop both cells.
    DoubleFour,
    /// k in a row.
    Five,
}

/// How many threat classes there are.
pub const THREATS: usize = 7;

/// The threat class of a cell code.
pub fn threat_of(code: u16) -> Threat {
    let lines = classes_of(code);
    let count = |f: fn(LineClass) -> bool| lines.iter().filter(|&&l| f(l)).count();
    let fives = count(|l| l == LineClass::Five);
    let flex = count(|l| l == LineClass::Four);
    let fours = count(LineClass::is_four);
    let threes = count(LineClass::is_open_three);
    if fives > 0 {
        Threat::Five
    } else if flex > 0 || fours >= 2 {
        Threat::DoubleFour
    } else if fours == 1 && threes > 0 {
        Threat::FourThree
    } else if threes >= 2 {
        Threat::DoubleThree
    } else if fours == 1 {
        Threat::Four
    } else if threes == 1 {
        Threat::Three
    } else {
        Threat::Quiet
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LineClass::*;

    #[test]
    fn codes_ignore_order_and_number_every_multiset() {
        assert_eq!(CODES, 1365);
        let a = code_of([Three, Dead, Four, One]);
        assert_eq!(a, code_of([Four, One, Dead, Three]));
        assert_eq!(classes_of(a), [Dead, One, Three, Four]);
        let mut seen = vec![false; CODES];
        for &c in code_table() {
            seen[c as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn threats_of_codes() {
        let t = |l| threat_of(code_of(l));
        assert_eq!(t([Five, Dead, Dead, Dead]), Threat::Five);
        assert_eq!(t([Four, Dead, Dead, Dead]), Threat::DoubleFour);
        assert_eq!(t([BlockedFour, BlockedFour, Dead, One]), Threat::DoubleFour);
        assert_eq!(t([BlockedFour, Three, Dead, One]), Threat::FourThree);
        assert_eq!(t([ThreePlus, Three, Dead, One]), Threat::DoubleThree);
        assert_eq!(t([BlockedFour, BlockedThree, Two, One]), Threat::Four);
        assert_eq!(t([Three, BlockedThree, Two, One]), Threat::Three);
        assert_eq!(t([TwoPlus, BlockedThree, Two, One]), Threat::Quiet);
    }
}
