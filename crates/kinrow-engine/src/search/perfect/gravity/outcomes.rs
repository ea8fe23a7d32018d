//! Outcome books for gravity boards: win, draw or loss (for the side to move) of every
//! position of `from..=to` stones that a game can reach, two bits a position, made for
//! the levels just past the exact book ([`super::book`]) where exact scores would cost a
//! full solve each (Connect Four's 13 and 14 stones).
//!
//! Only the last level is searched: each of its positions by one null-window search with
//! the window (-1, 1) ([`super::level::LevelSolver::outcome`]); every shallower level
//! of the book is backed up from it (a win when some move wins at once or leaves the
//! opponent a loss, else a draw when some move leaves a draw or the board is full, else
//! a loss), exact because its children are.
//!
//! On disk: a header line `kinrow-gravity-outcomes M,N,K stones FROM-TO levels
//! C_FROM,...,C_TO`, then two bits a position (0 loss, 1 draw, 2 win; four a byte, the
//! first in the low bits), level by level, each level in the order of its sorted
//! canonical keys. The keys are not stored: reading enumerates the levels from the empty
//! board in runs ([`super::book`]'s packed levels), as the exact book's binary format
//! does, and the header's counts check that.
//!
//! The search reads an installed outcome book at every node whose stone count it covers:
//! a draw is the score 0, a win at least 1, a loss at most -1, which settles every
//! win/draw/loss window at once and narrows the null windows that pin distances.

use std::sync::OnceLock;

use super::book::{canonical, children_in_runs, frame, Level};
use super::word::{Frame, Stones, Word};

/// Win, draw or loss of every reachable position of `from..=to` stones, by canonical key.
#[derive(Debug, Clone)]
pub struct OutcomeBook {
    /// Columns.
    pub m: u32,
    /// Rows.
    pub n: u32,
    /// The line length that wins.
    pub k: u32,
    /// The fewest stones of a position in the book.
    pub from: u32,
    /// The most stones of a position in the book.
    pub to: u32,
    /// `levels[s - from]`: the positions of `s` stones, their outcome as -1, 0 or 1.
    levels: Vec<Level>,
}

/// The header's first word.
const MAGIC: &str = "kinrow-gravity-outcomes";

impl OutcomeBook {
    /// The outcome (-1 loss, 0 draw, 1 win for its side to move) of the position `st`,
    /// when the book covers its stone count and holds it.
    #[inline]
    pub fn outcome<T: Word>(&self, frame: &Frame<T>, st: &Stones<T>) -> Option<i32> {
        let i = st.count.checked_sub(self.from)? as usize;
        let level = self.levels.get(i)?;
        let key = st.key(frame);
        level.get(key.min(frame.mirror(key)).wide() as u64)
    }

    /// The outcome of the position with this canonical key, if the book holds it.
    pub fn get(&self, key: u64) -> Option<i32> {
        let f = frame(self.m, self.n, self.k).ok()?;
        let st = Stones::from_key(&f, key);
        self.outcome(&f, &st)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.levels.iter().map(Level::len).sum()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the book holds in memory (its packed keys and a byte an outcome).
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(Level::bytes).sum()
    }

    /// Reads the format at the top of this file.
    pub fn parse(bytes: &[u8]) -> Result<OutcomeBook, String> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("no header line")?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| "bad header")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        let [Some(&MAGIC), Some(rules), Some(&"stones"), Some(span), Some(&"levels"), Some(counts)] =
            [0, 1, 2, 3, 4, 5].map(|i| words.get(i))
        else {
            return Err(format!("bad header {header:?}"));
        };
        let [m, n, k] = numbers::<3>(rules, ',').ok_or(format!("bad rules {rules:?}"))?;
        let [from, to] = numbers::<2>(span, '-').ok_or(format!("bad stones {span:?}"))?;
        let counts: Vec<usize> = counts
            .split(',')
            .map(|c| c.parse().map_err(|_| format!("bad level count {c:?}")))
            .collect::<Result<_, _>>()?;
        if from == 0 || from > to || counts.len() != (to - from + 1) as usize {
            return Err(format!("levels {counts:?} for stones {from}-{to}"));
        }
        let body = &bytes[end + 1..];
        let total: usize = counts.iter().sum();
        if body.len() != total.div_ceil(4) {
            return Err(format!(
                "{} bytes of outcomes for {total} positions",
                body.len()
            ));
        }
        let f = frame(m, n, k)?;
        let mut at = 0usize;
        let mut levels: Vec<Level> = Vec::new();
        let mut above = Level::new(&[f.bottom], vec![0]);
        for s in 1..=to {
            let mut level = Level::default();
            let keep = s >= from;
            let parents = if s > from {
                levels.last().expect("kept")
            } else {
                &above
            };
            children_in_runs(&f, parents, &mut |keys| {
                if keep && at + keys.len() > total {
                    return Err(format!("level {s}: more positions than the header counts"));
                }
                let scores = if keep {
                    let scores = (at..at + keys.len())
                        .map(|i| decode((body[i / 4] >> (2 * (i % 4))) & 3))
                        .collect::<Option<Vec<i8>>>()
                        .ok_or(format!("level {s}: a code that is no outcome"))?;
                    at += keys.len();
                    scores
                } else {
                    vec![0; keys.len()]
                };
                level.push(keys, scores);
                Ok(())
            })?;
            if keep {
                let want = counts[(s - from) as usize];
                if level.len() != want {
                    return Err(format!(
                        "level {s}: {} positions, the book has {want}",
                        level.len()
                    ));
                }
                levels.push(level);
            } else {
                above = level;
            }
        }
        Ok(OutcomeBook {
            m,
            n,
            k,
            from,
            to,
            levels,
        })
    }
}

/// `N` numbers separated by `sep`.
fn numbers<const N: usize>(s: &str, sep: char) -> Option<[u32; N]> {
    let v: Vec<u32> = s
        .split(sep)
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    v.try_into().ok()
}

/// The outcome of a two-bit code.
fn decode(code: u8) -> Option<i8> {
    match code {
        0 => Some(-1),
        1 => Some(0),
        2 => Some(1),
        _ => None,
    }
}

/// The plain sorted canonical keys of the levels `from..=to` of an `m` x `n` board with
/// `k` in a row (the positions games reach, nobody having won), enumerated from the
/// empty board with the shallower levels held packed. For making a book: a level of
/// Connect Four's 14 stones takes 8 bytes a key here.
pub fn level_keys(m: u32, n: u32, k: u32, from: u32, to: u32) -> Result<Vec<Vec<u64>>, String> {
    let f = frame(m, n, k)?;
    if from == 0 || from > to || to > m * n {
        return Err(format!(
            "stones {from}-{to} on {m}x{n}: from 1 to the cells"
        ));
    }
    let mut out = Vec::new();
    let mut parents = Level::new(&[f.bottom], vec![0]);
    for s in 1..=to {
        let mut level = Level::default();
        let mut plain = Vec::new();
        children_in_runs(&f, &parents, &mut |keys| {
            if s >= from {
                plain.extend_from_slice(keys);
            }
            level.push(keys, vec![0; keys.len()]);
            Ok(())
        })?;
        if s >= from {
            out.push(plain);
        }
        parents = level;
    }
    Ok(out)
}

/// The outcomes of every level of `levels` (plain sorted keys of consecutive stone
/// counts, as [`level_keys`] gives them) from those of the last level, `last` (-1, 0, 1,
/// in its key order): each shallower position backed up over its children.
pub fn back_up(
    m: u32,
    n: u32,
    k: u32,
    levels: &[Vec<u64>],
    last: Vec<i8>,
) -> Result<Vec<Vec<i8>>, String> {
    let f = frame(m, n, k)?;
    let mut out = vec![last];
    for (i, level) in levels.iter().enumerate().rev().skip(1) {
        let below = &levels[i + 1];
        let known = out.last().expect("the last level");
        let mut outcomes = Vec::with_capacity(level.len());
        for &key in level {
            let st = Stones::from_key(&f, key);
            let landing = st.landing(&f);
            let mut best = if landing == 0 { 0 } else { -1 };
            if st.my_wins(&f) & landing != 0 {
                best = 1;
            }
            for c in 0..m {
                let cell = landing & f.column(c);
                if best == 1 || cell == 0 {
                    continue;
                }
                let child = canonical(&f, &st.play(cell));
                let j = below
                    .binary_search(&child)
                    .map_err(|_| format!("no outcome for {child:x}"))?;
                best = best.max(-known[j]);
            }
            outcomes.push(best);
        }
        out.push(outcomes);
    }
    out.reverse();
    Ok(out)
}

/// The format at the top of this file for the levels `from..` (`outcomes[i]` in the key
/// order of level `from + i`).
pub fn write(m: u32, n: u32, k: u32, from: u32, outcomes: &[Vec<i8>]) -> Result<Vec<u8>, String> {
    let to = from + outcomes.len() as u32 - 1;
    let counts: Vec<String> = outcomes.iter().map(|l| l.len().to_string()).collect();
    let mut out = format!(
        "{MAGIC} {m},{n},{k} stones {from}-{to} levels {}\n",
        counts.join(",")
    )
    .into_bytes();
    let total: usize = outcomes.iter().map(Vec::len).sum();
    let start = out.len();
    out.resize(start + total.div_ceil(4), 0);
    for (i, &o) in outcomes.iter().flatten().enumerate() {
        let code = match o {
            -1 => 0u8,
            0 => 1,
            1 => 2,
            _ => return Err(format!("{o} is no outcome")),
        };
        out[start + i / 4] |= code << (2 * (i % 4));
    }
    Ok(out)
}

static INSTALLED: OnceLock<OutcomeBook> = OnceLock::new();

/// Makes `book` the outcome book every later search of its board reads (once per
/// process: a server installs the one it was given at start). Returns false when one is
/// installed already.
pub fn install(book: OutcomeBook) -> bool {
    INSTALLED.set(book).is_ok()
}

/// The installed outcome book of an `m` x `n` board with `k` in a row, if any.
#[inline]
pub fn find(m: u32, n: u32, k: u32) -> Option<&'static OutcomeBook> {
    INSTALLED
        .get()
        .filter(|b| (b.m, b.n, b.k) == (m, n, k) && !b.is_empty())
}
