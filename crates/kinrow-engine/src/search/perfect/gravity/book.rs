//! Opening books for gravity boards: the exact score of every position with at most
//! `depth` stones that a game can reach (nobody has won before), keyed like the
//! search's table (the position's key or its mirror image's, whichever is smaller).
//!
//! A book is made level by level: the positions of each number of stones are the
//! children of the level above that do not complete a line; those of the last level
//! are solved one by one by the exact search ([`super::level::LevelSolver`]: one table
//! shared by all, so that neighbours reuse each other's work), and every shallower
//! level is then backed up by negamax over its children, exact because its children
//! are. `kinrow book` runs this and keeps the work resumable; the search reads a
//! committed book at every node with few enough stones (so the positions in it are
//! answered at once).
//!
//! Text format: a header line `kinrow-gravity-book M,N,K depth D`, then one line per
//! position, `KEY SCORE`, the key in hex and the score as the search's (plies, from
//! the side to move), sorted by key. Books are made for boards of 64 bits with their
//! sentinel row (7x6 and smaller).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use super::word::{Frame, Stones, Word};

/// A book: exact scores by canonical key.
#[derive(Debug, Clone)]
pub struct Book {
    /// Columns.
    pub m: u32,
    /// Rows.
    pub n: u32,
    /// The line length that wins.
    pub k: u32,
    /// The most stones of a position in the book.
    pub depth: u32,
    scores: HashMap<u128, i8>,
}

impl Book {
    /// A book of the given scores.
    pub fn new(m: u32, n: u32, k: u32, depth: u32, scores: HashMap<u128, i8>) -> Book {
        Book {
            m,
            n,
            k,
            depth,
            scores,
        }
    }

    /// Reads the text format (see the top of this file).
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut lines = text.lines();
        let header = lines.next().ok_or("empty book")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        let (Some(&"kinrow-gravity-book"), Some(rules), Some(&"depth"), Some(depth)) =
            (words.first(), words.get(1), words.get(2), words.get(3))
        else {
            return Err(format!("bad header {header:?}"));
        };
        let v: Vec<u32> = rules
            .split(',')
            .map(|s| s.parse().map_err(|_| format!("bad rules {rules:?}")))
            .collect::<Result<_, _>>()?;
        if v.len() != 3 {
            return Err(format!("bad rules {rules:?}"));
        }
        let depth = depth.parse().map_err(|_| format!("bad depth {depth:?}"))?;
        let mut scores = HashMap::new();
        for (i, line) in lines.enumerate() {
            let (key, score) = line
                .split_once(' ')
                .ok_or_else(|| format!("line {}: {line:?}", i + 2))?;
            let key = u128::from_str_radix(key, 16).map_err(|_| format!("line {}", i + 2))?;
            let score = score.parse().map_err(|_| format!("line {}", i + 2))?;
            scores.insert(key, score);
        }
        Ok(Book::new(v[0], v[1], v[2], depth, scores))
    }

    /// The text format, sorted by key.
    pub fn write(&self) -> String {
        let mut keys: Vec<&u128> = self.scores.keys().collect();
        keys.sort();
        let mut out = format!(
            "kinrow-gravity-book {},{},{} depth {}\n",
            self.m, self.n, self.k, self.depth
        );
        for key in keys {
            out.push_str(&format!("{key:x} {}\n", self.scores[key]));
        }
        out
    }

    /// The exact score of the position with this canonical key, if the book has it.
    #[inline]
    pub fn get(&self, key: u128) -> Option<i32> {
        self.scores.get(&key).map(|&s| s as i32)
    }

    /// The book's score of the position `st` of `frame` when the book has it (what the
    /// search asks at every node).
    #[inline]
    pub fn score<T: Word>(&self, frame: &Frame<T>, st: &Stones<T>) -> Option<i32> {
        if st.count > self.depth {
            return None;
        }
        let key = st.key(frame);
        self.get(key.min(frame.mirror(key)).wide())
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }
}

/// The texts of the books committed with kinrow (data/books/, each added here with
/// `include_str!`). None yet: no depth of 7x6 could be finished on the machine this
/// was built on (docs/performance.md gives the cost).
const COMMITTED: &[&str] = &[];

/// The books committed with kinrow, parsed on first use.
pub fn committed() -> &'static [Book] {
    static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();
    BOOKS.get_or_init(|| {
        COMMITTED
            .iter()
            .filter_map(|text| Book::parse(text).ok())
            .collect()
    })
}

/// The committed book of an `m` x `n` board with `k` in a row, if there is one.
pub fn find(m: u32, n: u32, k: u32) -> Option<&'static Book> {
    committed()
        .iter()
        .find(|b| (b.m, b.n, b.k) == (m, n, k) && !b.is_empty())
}

/// The canonical key of a position (the smaller of its key and its mirror image's).
fn canonical(f: &Frame<u64>, st: &Stones<u64>) -> u64 {
    let key = st.key(f);
    key.min(f.mirror(key))
}

/// The frame of a board a book can be made for.
pub(super) fn frame(m: u32, n: u32, k: u32) -> Result<Frame<u64>, String> {
    Frame::<u64>::new(m, n, k)
        .ok_or_else(|| format!("books are made for boards of m*(n+1) <= 64 bits, not {m}x{n}"))
}

/// The canonical keys of the positions of 0, 1, ... `depth` stones that games reach
/// (each level sorted).
pub fn levels(m: u32, n: u32, k: u32, depth: u32) -> Result<Vec<Vec<u128>>, String> {
    let f = frame(m, n, k)?;
    let mut levels: Vec<Vec<u64>> = vec![vec![f.bottom]];
    for _ in 0..depth {
        let mut next = HashSet::new();
        for &key in levels.last().expect("level 0") {
            let st = Stones::from_key(&f, key);
            let landing = st.landing(&f);
            let wins = st.my_wins(&f);
            for c in 0..m {
                let cell = landing & f.column(c);
                if cell != 0 && cell & wins == 0 {
                    next.insert(canonical(&f, &st.play(cell)));
                }
            }
        }
        let mut next: Vec<u64> = next.into_iter().collect();
        next.sort_unstable();
        levels.push(next);
    }
    Ok(levels
        .into_iter()
        .map(|l| l.into_iter().map(u128::from).collect())
        .collect())
}

/// Backs up the scores of every level above the last from `scores`, which holds the
/// last level's (exact scores by negamax over the children).
pub fn back_up(
    m: u32,
    n: u32,
    k: u32,
    levels: &[Vec<u128>],
    scores: &mut HashMap<u128, i8>,
) -> Result<(), String> {
    let f = frame(m, n, k)?;
    let total = (m * n) as i32;
    for level in levels.iter().rev().skip(1) {
        for &key in level {
            let st = Stones::from_key(&f, key as u64);
            let landing = st.landing(&f);
            let wins = st.my_wins(&f);
            let mut best = if landing == 0 { 0 } else { i32::MIN };
            for c in 0..m {
                let cell = landing & f.column(c);
                if cell == 0 {
                    continue;
                }
                let v = if cell & wins != 0 {
                    total - st.count as i32
                } else {
                    let child = canonical(&f, &st.play(cell)) as u128;
                    -(*scores
                        .get(&child)
                        .ok_or_else(|| format!("no score for {child:x}"))?
                        as i32)
                };
                best = best.max(v);
            }
            scores.insert(key, best as i8);
        }
    }
    Ok(())
}
