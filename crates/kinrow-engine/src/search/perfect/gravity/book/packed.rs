//! The in-memory form of a gravity book's levels: each level a list of runs of sorted
//! canonical keys, each run's keys packed by their high bits into buckets (about 16 keys
//! a bucket) and their low bits at a fixed width, read by binary search inside a bucket.

/// The positions of one number of stones: runs of sorted keys, each run's keys above the
/// last run's (a level is read in runs so that its plain keys are never all held at once).
#[derive(Debug, Clone, Default)]
pub(crate) struct Level {
    /// `starts[i]`: the first key of `runs[i]`.
    starts: Vec<u64>,
    runs: Vec<Run>,
}

impl Level {
    /// A level of one run.
    pub(crate) fn new(keys: &[u64], scores: Vec<i8>) -> Level {
        let mut level = Level::default();
        level.push(keys, scores);
        level
    }

    /// Adds a run of sorted keys, all above the level's.
    pub(crate) fn push(&mut self, keys: &[u64], scores: Vec<i8>) {
        if let Some(&first) = keys.first() {
            debug_assert!(self.starts.last().is_none_or(|&s| s < first));
            self.starts.push(first);
            self.runs.push(Run::new(keys, scores));
        }
    }

    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<i32> {
        let i = self.starts.partition_point(|&s| s <= key).checked_sub(1)?;
        self.runs[i].get(key)
    }

    pub(crate) fn len(&self) -> usize {
        self.runs.iter().map(|r| r.len).sum()
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.runs.iter().flat_map(Run::keys)
    }

    pub(crate) fn scores(&self) -> impl Iterator<Item = i8> + '_ {
        self.runs.iter().flat_map(|r| r.scores.iter().copied())
    }

    pub(crate) fn bytes(&self) -> usize {
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
