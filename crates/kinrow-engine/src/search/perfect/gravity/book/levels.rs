//! The positions of a gravity book, level by level: the canonical keys of every position
//! of 0, 1, ... `depth` stones that a game reaches (children of the level above that do
//! not complete a line), enumerated whole or in runs of key ranges, and the negamax that
//! backs the last level's scores up to the first.

use std::collections::{HashMap, HashSet};

use super::super::word::{Frame, Stones};
use super::packed::Level;

/// The canonical key of a position (the smaller of its key and its mirror image's).
pub(crate) fn canonical(f: &Frame<u64>, st: &Stones<u64>) -> u64 {
    let key = st.key(f);
    key.min(f.mirror(key))
}

/// The frame of a board a book can be made for.
pub(crate) fn frame(m: u32, n: u32, k: u32) -> Result<Frame<u64>, String> {
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
pub(super) fn levels_u64(m: u32, n: u32, k: u32, depth: u32) -> Result<Vec<Vec<u64>>, String> {
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
pub(crate) fn children_in_runs(
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
