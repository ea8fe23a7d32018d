//! A gravity book's scores: [`Book`], one packed level of canonical keys and their exact
//! scores per number of stones, and its two formats on disk (text and binary, described
//! atop book.rs).

use std::collections::HashMap;

use super::super::word::{Frame, Stones, Word};
use super::levels::{children_in_runs, frame, levels_u64};
use super::packed::Level;

/// A book: exact scores by canonical key, one sorted level per number of stones.
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
    /// `levels[s]`: the positions of `s` stones.
    levels: Vec<Level>,
}

impl Book {
    /// A book of the given scores (canonical keys of positions of at most `depth`
    /// stones).
    pub fn new(m: u32, n: u32, k: u32, depth: u32, scores: HashMap<u128, i8>) -> Book {
        let mut by_level: Vec<Vec<(u64, i8)>> = vec![Vec::new(); depth as usize + 1];
        if let Ok(f) = frame(m, n, k) {
            for (&key, &score) in &scores {
                let stones = Stones::from_key(&f, key as u64).count as usize;
                if let Some(level) = by_level.get_mut(stones) {
                    level.push((key as u64, score));
                }
            }
        }
        let levels = by_level
            .into_iter()
            .map(|mut l| {
                l.sort_unstable();
                let keys: Vec<u64> = l.iter().map(|e| e.0).collect();
                Level::new(&keys, l.iter().map(|e| e.1).collect())
            })
            .collect();
        Book {
            m,
            n,
            k,
            depth,
            levels,
        }
    }

    /// Reads the text format (see the top of book.rs).
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut lines = text.lines();
        let header = lines.next().ok_or("empty book")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        let (Some(&"kinrow-gravity-book"), Some(rules), Some(&"depth"), Some(depth)) =
            (words.first(), words.get(1), words.get(2), words.get(3))
        else {
            return Err(format!("bad header {header:?}"));
        };
        let [m, n, k] = rules_of(rules)?;
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
        Ok(Book::new(m, n, k, depth, scores))
    }

    /// The text format, sorted by key.
    pub fn write(&self) -> String {
        let mut all: Vec<(u64, i8)> = self
            .levels
            .iter()
            .flat_map(|l| l.keys().zip(l.scores()))
            .collect();
        all.sort_unstable();
        let mut out = format!(
            "kinrow-gravity-book {},{},{} depth {}\n",
            self.m, self.n, self.k, self.depth
        );
        for (key, score) in all {
            out.push_str(&format!("{key:x} {score}\n"));
        }
        out
    }

    /// Reads the binary format (see the top of book.rs): enumerates the levels and
    /// gives each position its byte.
    pub fn parse_binary(bytes: &[u8]) -> Result<Book, String> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("no header line")?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| "bad header")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        let [Some(&"kinrow-gravity-book-scores"), Some(rules), Some(&"depth"), Some(depth), Some(&"levels"), Some(counts)] =
            [0, 1, 2, 3, 4, 5].map(|i| words.get(i))
        else {
            return Err(format!("bad header {header:?}"));
        };
        let [m, n, k] = rules_of(rules)?;
        let depth: u32 = depth.parse().map_err(|_| format!("bad depth {depth:?}"))?;
        let counts: Vec<usize> = counts
            .split(',')
            .map(|c| c.parse().map_err(|_| format!("bad level count {c:?}")))
            .collect::<Result<_, _>>()?;
        let body = &bytes[end + 1..];
        if counts.len() != depth as usize + 1 || counts.iter().sum::<usize>() != body.len() {
            return Err(format!(
                "{} scores for levels {counts:?} of depth {depth}",
                body.len()
            ));
        }
        let f = frame(m, n, k)?;
        let mut at = 0;
        let mut levels: Vec<Level> = Vec::new();
        for (s, &count) in counts.iter().enumerate() {
            let mut level = Level::default();
            let mut run = |keys: &[u64]| -> Result<(), String> {
                let scores = body.get(at..at + keys.len()).ok_or_else(|| {
                    format!("level {s}: more than the {count} positions of its count")
                })?;
                at += keys.len();
                level.push(keys, scores.iter().map(|&b| b as i8).collect());
                Ok(())
            };
            match levels.last() {
                None => run(&[f.bottom])?,
                Some(parents) => children_in_runs(&f, parents, &mut run)?,
            }
            if level.len() != count {
                return Err(format!(
                    "level {s}: {} positions, the book has {count}",
                    level.len()
                ));
            }
            levels.push(level);
        }
        Ok(Book {
            m,
            n,
            k,
            depth,
            levels,
        })
    }

    /// The binary format; an error unless the book holds every position of every level.
    pub fn write_binary(&self) -> Result<Vec<u8>, String> {
        let all = levels_u64(self.m, self.n, self.k, self.depth)?;
        for (s, keys) in all.iter().enumerate() {
            if !self
                .levels
                .get(s)
                .is_some_and(|l| l.len() == keys.len() && l.keys().eq(keys.iter().copied()))
            {
                return Err(format!("level {s} is not complete"));
            }
        }
        let counts: Vec<String> = all.iter().map(|l| l.len().to_string()).collect();
        let mut out = format!(
            "kinrow-gravity-book-scores {},{},{} depth {} levels {}\n",
            self.m,
            self.n,
            self.k,
            self.depth,
            counts.join(",")
        )
        .into_bytes();
        for level in &self.levels {
            out.extend(level.scores().map(|s| s as u8));
        }
        Ok(out)
    }

    /// The exact score of the position with this canonical key, if the book has it.
    pub fn get(&self, key: u128) -> Option<i32> {
        let f = frame(self.m, self.n, self.k).ok()?;
        let stones = Stones::from_key(&f, key as u64).count as usize;
        self.levels.get(stones)?.get(key as u64)
    }

    /// The book's score of the position `st` of `frame` when the book has it (what the
    /// search asks at every node).
    #[inline]
    pub fn score<T: Word>(&self, frame: &Frame<T>, st: &Stones<T>) -> Option<i32> {
        let level = self.levels.get(st.count as usize)?;
        let key = st.key(frame);
        level.get(key.min(frame.mirror(key)).wide() as u64)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.levels.iter().map(Level::len).sum()
    }

    /// Bytes the book holds in memory.
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(Level::bytes).sum()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every position of the book with its score, level by level, each sorted by key.
    pub fn entries(&self) -> impl Iterator<Item = (u128, i32)> + '_ {
        self.levels
            .iter()
            .flat_map(|l| l.keys().zip(l.scores()).map(|(k, s)| (k as u128, s as i32)))
    }
}

/// `M,N,K` of a header.
fn rules_of(rules: &str) -> Result<[u32; 3], String> {
    let v: Vec<u32> = rules
        .split(',')
        .map(|s| s.parse().map_err(|_| format!("bad rules {rules:?}")))
        .collect::<Result<_, _>>()?;
    v.try_into().map_err(|_| format!("bad rules {rules:?}"))
}
