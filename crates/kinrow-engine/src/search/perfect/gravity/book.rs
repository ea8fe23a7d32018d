//! Opening books for gravity boards: the exact score of every position with at most
//! `depth` stones that a game can reach (nobody has won before), keyed like the
//! search's table (the position's key or its mirror image's, whichever is smaller).
//!
//! A book is made level by level: the positions of each number of stones are the
//! children of the level above that do not complete a line; those of the last level
//! are solved one by one by the exact search ([`super::level::LevelSolver`]: one table
//! shared by all, so that neighbouring positions reuse each other's work) or read from a
//! published database (`kinrow book --from-bitbully`), and every shallower level is then
//! backed up by negamax over its children, exact because its children are. The search
//! reads a committed book at every node with few enough stones (so the positions in it
//! are answered at once).
//!
//! In memory a book is one sorted key set and one score array per level, the keys packed
//! by their high bits into buckets (see [`Run`]: 4.6 bytes a position with its
//! score, where plain keys took 9: 42.7 MB for the 9.2 M positions of the 7x6 book of
//! 12 stones, measured by the committed book's test with `Book::bytes`), read
//! by binary search inside a bucket. Reading the binary format enumerates each level in
//! runs of key ranges from the packed level above ([`children_in_runs`]), so that a
//! level's plain keys are never all held at once. Two formats on disk:
//! - text: a header line `kinrow-gravity-book M,N,K depth D`, then one line per
//!   position, `KEY SCORE`, the key in hex and the score as the search's (plies, from
//!   the side to move), sorted by key (what `kinrow book` writes for any board);
//! - binary, for complete books: a header line `kinrow-gravity-book-scores M,N,K depth D
//!   levels C0,C1,...,CD`, then one signed byte per position, level by level, each level
//!   in the order of its sorted keys. The keys are not stored: they are the levels that
//!   [`levels`] enumerates (the header's counts check that), which takes a few seconds
//!   for 12 stones of 7x6 and keeps the committed file at a byte a position.
//!
//! Books are made for boards of 64 bits with their sentinel row (7x6 and smaller).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use super::word::{Frame, Stones, Word};

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

/// The positions of one number of stones: runs of sorted keys, each run's keys above the
/// last run's (a level is read in runs so that its plain keys are never all held at once).
#[derive(Debug, Clone, Default)]
pub(super) struct Level {
    /// `starts[i]`: the first key of `runs[i]`.
    starts: Vec<u64>,
    runs: Vec<Run>,
}

impl Level {
    /// A level of one run.
    pub(super) fn new(keys: &[u64], scores: Vec<i8>) -> Level {
        let mut level = Level::default();
        level.push(keys, scores);
        level
    }

    /// Adds a run of sorted keys, all above the level's.
    pub(super) fn push(&mut self, keys: &[u64], scores: Vec<i8>) {
        if let Some(&first) = keys.first() {
            debug_assert!(self.starts.last().is_none_or(|&s| s < first));
            self.starts.push(first);
            self.runs.push(Run::new(keys, scores));
        }
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<i32> {
        let i = self.starts.partition_point(|&s| s <= key).checked_sub(1)?;
        self.runs[i].get(key)
    }

    pub(super) fn len(&self) -> usize {
        self.runs.iter().map(|r| r.len).sum()
    }

    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.runs.iter().flat_map(Run::keys)
    }

    fn scores(&self) -> impl Iterator<Item = i8> + '_ {
        self.runs.iter().flat_map(|r| r.scores.iter().copied())
    }

    pub(super) fn bytes(&self) -> usize {
        self.starts.len() * 8 + self.runs.iter().map(Run::bytes).sum::<usize>()
    }
}

/// A run of positions: canonical keys sorted, held compactly, and their scores in the same
/// order.
///
/// The keys, less the first (`base`), are split at bit `shift`: the high part picks a
/// bucket, and `offsets[b]` is the index of bucket `b`'s first key (a bucket holds about
/// 16 keys); the low parts are packed at `shift` bits each. A key then costs about
/// `log2(U / n) + 6` bits instead of 64 (`U` the run's span of keys, `n` its keys). A
/// lookup is a binary search inside one bucket.
#[derive(Debug, Clone, Default)]
struct Run {
    base: u64,
    len: usize,
    shift: u32,
    offsets: Vec<u32>,
    lows: Vec<u64>,
    scores: Vec<i8>,
}

impl Run {
    /// A run of these sorted, distinct keys and their scores.
    fn new(keys: &[u64], scores: Vec<i8>) -> Run {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let len = keys.len();
        let base = keys.first().copied().unwrap_or(0);
        let top = keys.last().copied().unwrap_or(0) - base;
        // About 16 keys a bucket when the keys spread evenly up to `top`.
        let per_key = (top / (len.max(1) as u64)).max(1);
        let shift = (63 - per_key.leading_zeros() + 4).min(63);
        let buckets = (top >> shift) as usize + 1;
        let mut offsets = vec![0u32; buckets + 1];
        for &key in keys {
            offsets[((key - base) >> shift) as usize + 1] += 1;
        }
        for b in 0..buckets {
            offsets[b + 1] += offsets[b];
        }
        let mut lows = vec![0u64; (len * shift as usize).div_ceil(64) + 1];
        let mask = (1u64 << shift) - 1;
        for (i, &key) in keys.iter().enumerate() {
            put_bits(&mut lows, i * shift as usize, shift, (key - base) & mask);
        }
        Run {
            base,
            len,
            shift,
            offsets,
            lows,
            scores,
        }
    }

    /// The low part of the `i`th key.
    #[inline]
    fn low(&self, i: usize) -> u64 {
        get_bits(&self.lows, i * self.shift as usize, self.shift)
    }

    /// The index of `key`, if the run has it.
    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
        let key = key.checked_sub(self.base)?;
        let b = (key >> self.shift) as usize;
        if b + 1 >= self.offsets.len() {
            return None;
        }
        let low = key & ((1u64 << self.shift) - 1);
        let (mut lo, mut hi) = (self.offsets[b] as usize, self.offsets[b + 1] as usize);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.low(mid).cmp(&low) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    #[inline]
    fn get(&self, key: u64) -> Option<i32> {
        self.find(key).map(|i| self.scores[i] as i32)
    }

    /// The keys in order.
    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.offsets.windows(2).enumerate().flat_map(move |(b, w)| {
            (w[0] as usize..w[1] as usize)
                .map(move |i| self.base + (((b as u64) << self.shift) | self.low(i)))
        })
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.offsets.len() * 4 + self.lows.len() * 8 + self.scores.len()
    }
}

/// Writes the `width` low bits of `value` at bit `at` of `words`.
fn put_bits(words: &mut [u64], at: usize, width: u32, value: u64) {
    if width == 0 {
        return;
    }
    let (w, o) = (at / 64, (at % 64) as u32);
    words[w] |= value << o;
    if o + width > 64 {
        words[w + 1] |= value >> (64 - o);
    }
}

/// The `width` bits at bit `at` of `words`.
#[inline]
fn get_bits(words: &[u64], at: usize, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let (w, o) = (at / 64, (at % 64) as u32);
    let mut v = words[w] >> o;
    if o + width > 64 {
        v |= words[w + 1] << (64 - o);
    }
    v & (u64::MAX >> (64 - width))
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

    /// Reads the binary format (see the top of this file): enumerates the levels and
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

/// The books committed with kinrow (books/ beside this file, each added here with
/// `include_bytes!`, in the binary format, gzipped to stay small in the repository):
/// Connect Four's every position of at most 12 stones, converted from the BitBully
/// databases (books/README.md says how and under which licence).
const COMMITTED: &[&[u8]] = &[include_bytes!("books/connect4-12.book.gz")];

static BOOKS: OnceLock<Vec<Book>> = OnceLock::new();

/// Set while [`warm`]'s thread reads the books.
static WARMING: AtomicBool = AtomicBool::new(false);

/// Set by [`read_on_demand`]: a search that wants a book not yet read starts reading it
/// on a thread of its own and goes on without it.
static ON_DEMAND: AtomicBool = AtomicBool::new(false);

/// The books committed with kinrow, read on first use (about 4 s for Connect Four's in a
/// release build: the levels are enumerated). A caller meanwhile waits.
pub fn committed() -> &'static [Book] {
    BOOKS.get_or_init(|| {
        COMMITTED
            .iter()
            .filter_map(|gz| {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(*gz), &mut bytes)
                    .ok()?;
                Book::parse_binary(&bytes).ok()
            })
            .collect()
    })
}

/// Reads the committed books on a thread of their own (what a server does at start):
/// until they are read, searches go on without them instead of waiting past their
/// budget.
pub fn warm() {
    if BOOKS.get().is_none() && !WARMING.swap(true, Ordering::SeqCst) {
        std::thread::spawn(|| {
            committed();
            WARMING.store(false, Ordering::SeqCst);
        });
    }
}

/// Where the committed books stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BooksState {
    /// Nothing asked for them yet: they take no memory.
    NotRead,
    /// A thread reads them (a few seconds); searches go on without them meanwhile.
    Reading,
    /// Read and in use.
    Read,
}

impl BooksState {
    /// The state's name in the game's answers (`not_read`, `reading`, `read`).
    pub fn name(self) -> &'static str {
        match self {
            BooksState::NotRead => "not_read",
            BooksState::Reading => "reading",
            BooksState::Read => "read",
        }
    }
}

/// Where the committed books stand now.
pub fn state() -> BooksState {
    if BOOKS.get().is_some() {
        BooksState::Read
    } else if WARMING.load(Ordering::SeqCst) {
        BooksState::Reading
    } else {
        BooksState::NotRead
    }
}

/// From now on no search waits for the books: the first that wants one starts [`warm`]
/// and goes on without it (what a server does: its answers keep their budgets, and a
/// server that never sees Connect Four never reads its book).
pub fn read_on_demand() {
    ON_DEMAND.store(true, Ordering::SeqCst);
}

/// The committed book of an `m` x `n` board with `k` in a row, if there is one. Waits for
/// the books to be read, unless [`warm`] is reading them or [`read_on_demand`] was called
/// (then `None` until they are read).
pub fn find(m: u32, n: u32, k: u32) -> Option<&'static Book> {
    // Only boards with a book wait for the books to be read.
    if !COMMITTED_SHAPES.contains(&(m, n, k)) {
        return None;
    }
    let books = match BOOKS.get() {
        Some(books) => books,
        None if WARMING.load(Ordering::SeqCst) => return None,
        None if ON_DEMAND.load(Ordering::SeqCst) => {
            warm();
            return None;
        }
        None => committed(),
    };
    books
        .iter()
        .find(|b| (b.m, b.n, b.k) == (m, n, k) && !b.is_empty())
}

/// The boards of [`COMMITTED`], in its order.
const COMMITTED_SHAPES: &[(u32, u32, u32)] = &[(7, 6, 4)];

/// The canonical key of a position (the smaller of its key and its mirror image's).
pub(super) fn canonical(f: &Frame<u64>, st: &Stones<u64>) -> u64 {
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
    Ok(levels_u64(m, n, k, depth)?
        .into_iter()
        .map(|l| l.into_iter().map(u128::from).collect())
        .collect())
}

/// [`levels`] as the 64-bit keys they are (each level gathered in a hash set: for the
/// lab's books, which are made once; the server reads its book in runs, see
/// [`children_in_runs`]).
fn levels_u64(m: u32, n: u32, k: u32, depth: u32) -> Result<Vec<Vec<u64>>, String> {
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
    Ok(levels)
}

/// Children at most in one run of [`children_in_runs`] (with their repeats): 32 MB.
const RUN_CHILDREN: usize = 4 << 20;

/// The next level after `parents` (the children that do not complete a line, by
/// canonical key), handed to `each` in runs of sorted distinct keys, in order. The
/// children are counted by their top 16 bits first, and the key ranges cut so that each
/// run gathers at most about [`RUN_CHILDREN`]: the plain keys of a level are never all
/// held at once (the 12-stone level of 7x6 would take 110 MB as a hash set).
pub(super) fn children_in_runs(
    f: &Frame<u64>,
    parents: &Level,
    each: &mut dyn FnMut(&[u64]) -> Result<(), String>,
) -> Result<(), String> {
    let children = |visit: &mut dyn FnMut(u64)| {
        for key in parents.keys() {
            let st = Stones::from_key(f, key);
            let landing = st.landing(f);
            let wins = st.my_wins(f);
            for c in 0..f.m {
                let cell = landing & f.column(c);
                if cell != 0 && cell & wins == 0 {
                    visit(canonical(f, &st.play(cell)));
                }
            }
        }
    };
    let width = 64 - (f.m * (f.n + 1)).min(64);
    let top_bits = |key: u64| ((key << width) >> 48) as usize;
    let mut counts = vec![0usize; 1 << 16];
    children(&mut |key| counts[top_bits(key)] += 1);
    let mut from = 0;
    while from < counts.len() {
        // The bins of this run: at least one, then as many as fit.
        let (mut to, mut total) = (from + 1, counts[from]);
        while to < counts.len() && total + counts[to] <= RUN_CHILDREN {
            total += counts[to];
            to += 1;
        }
        if total > 0 {
            let mut run = Vec::with_capacity(total);
            children(&mut |key| {
                if (from..to).contains(&top_bits(key)) {
                    run.push(key);
                }
            });
            run.sort_unstable();
            run.dedup();
            each(&run)?;
        }
        from = to;
    }
    Ok(())
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

/// The canonical key of the position whose columns (left to right) hold these stones,
/// bottom up, `true` for a stone of the side to move (how a converted database names
/// its positions).
pub fn key_of(m: u32, n: u32, k: u32, columns: &[Vec<bool>]) -> Result<u128, String> {
    let f = frame(m, n, k)?;
    if columns.len() != m as usize || columns.iter().any(|c| c.len() > n as usize) {
        return Err(format!("not a position of {m}x{n}"));
    }
    let (mut mine, mut all, mut count) = (0u64, 0u64, 0);
    for (c, stones) in columns.iter().enumerate() {
        for (h, &own) in stones.iter().enumerate() {
            let bit = f.bit(c as u32, h as u32);
            all |= bit;
            if own {
                mine |= bit;
            }
            count += 1;
        }
    }
    Ok(canonical(&f, &Stones { mine, all, count }) as u128)
}

/// The stones of the position with this key.
pub fn stones_of_key(m: u32, n: u32, k: u32, key: u128) -> u32 {
    frame(m, n, k).map_or(0, |f| Stones::from_key(&f, key as u64).count)
}
