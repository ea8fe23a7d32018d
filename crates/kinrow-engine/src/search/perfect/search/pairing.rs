//! Pairing strategies for the exact search: when the opponent's open windows can each
//! be given a pair of empty cells inside it, all pairs disjoint, the opponent can never
//! complete a line (the mover answers one cell of a pair with the other), so the mover
//! does not lose. Found by a small backtracking cover ([`cover`]), tried from a node
//! itself and after a mark on the few cells most of the opponent's windows go through;
//! only valid while nobody can clear cells.

use super::super::bits::{cells, Bits};
use super::quick::{Quick, PAIRING_CELLS};
use super::Solver;

/// How many steps the pairing search may take at one node before it gives up. (With
/// the move order of the module doc: 32 steps, 6,5,4 in 67.5k nodes and 665M
/// instructions, 7,7,5 in 472k nodes; 48 steps, 65.3k, 672M, 334k; 64 steps, 64.4k,
/// 680M, 266k.)
const PAIRING_STEPS: u32 = 48;
/// The set of the `n` lowest bits (`n` at most 64).
fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

impl<B: Bits> Solver<'_, B> {
    /// Prepares [`Solver::cover`] for player `p`'s open windows (from the last scan with
    /// scores): for every cell, the set of those windows through it. False when `p`
    /// has more than 64 open windows (the pairing search then does not run).
    pub(super) fn pairing_setup(&mut self, p: usize) -> bool {
        let open = &self.open[p];
        if open.len() > 64 {
            return false;
        }
        self.through.iter_mut().for_each(|t| *t = 0);
        for (i, &w) in open.iter().enumerate() {
            for c in cells(w) {
                self.through[c] |= 1 << i;
            }
        }
        true
    }

    /// True when the opponent of `me` (the side to move) can never complete a line
    /// because `me` has a pairing strategy: the opponent's open windows (from the last
    /// scan with scores) can each be given a pair of empty cells inside it, all pairs
    /// disjoint, so that answering a mark on one cell of a pair with the other cell
    /// keeps every window from filling. Either at once (the extra move cannot hurt) or
    /// after a mark of `me` on one of the few cells most of the opponent's windows go
    /// through (the only cell, if the opponent has a threat), which kills those windows.
    /// Not tried when the opponent has too many open windows for the empty cells
    /// ([`pairing_in_reach`]). Only valid while nobody can clear cells.
    pub(super) fn pairs_after_mark(&mut self, me: usize, threats: B, empties: B) -> bool {
        let opp = me ^ 1;
        if !pairing_in_reach(self.open[opp].len(), empties) || !self.pairing_setup(opp) {
            return false;
        }
        let all = low_bits(self.open[opp].len());
        let mut tries = [usize::MAX; PAIRING_CELLS + 1];
        if !threats.none() {
            // A threat must be blocked first; two cannot be.
            if threats.count() > 1 {
                return false;
            }
            tries[0] = threats.first();
        } else {
            self.cell_weights(opp);
            heaviest(&self.es, opp, empties, &mut tries[1..]);
        }
        tries
            .iter()
            .filter(|&&c| c != usize::MAX)
            .any(|&c| pairing_after(&self.open[opp], &self.through, all, c, B::default()).is_some())
    }

    /// Keeps what [`Solver::refuted_by_pairing`] needs at `ply` about the mover `me`'s
    /// open windows (from the last scan with scores): the children's scans overwrite
    /// the solver's own copy. False when a pairing is out of reach
    /// ([`pairing_in_reach`]).
    pub(super) fn quick_setup(&mut self, ply: usize, me: usize, empties: B) -> bool {
        let n = self.open[me].len();
        if !pairing_in_reach(n, empties) {
            return false;
        }
        while self.quick.len() <= ply {
            self.quick.push(Quick {
                open: Vec::new(),
                through: vec![0; self.shape.cells],
                makes: vec![B::default(); self.shape.cells],
                tries: [usize::MAX; PAIRING_CELLS + 2],
                pairings: [None; PAIRING_CELLS + 2],
            });
        }
        self.cell_weights(me);
        let q = &mut self.quick[ply];
        q.pairings = [None; PAIRING_CELLS + 2];
        q.open.clear();
        q.open.extend_from_slice(&self.open[me]);
        q.through.iter_mut().for_each(|t| *t = 0);
        for (i, &w) in q.open.iter().enumerate() {
            for c in cells(w) {
                q.through[c] |= 1 << i;
            }
        }
        for (c, m) in q.makes.iter_mut().enumerate() {
            *m = self.makes[c][me];
        }
        // The heaviest cells for the mover's potential, one more than the pairing
        // search tries (the mark itself may be one of them).
        heaviest(&self.es, me, empties, &mut q.tries);
        true
    }

    /// True when the mover's mark on `cell` cannot win for them because the opponent,
    /// replying, has a pairing strategy ([`Solver::pairs_after_mark`]), found from what
    /// [`Solver::quick_setup`] kept at `ply`: the child is then not searched at all.
    /// The pairings after the opponent's reply on each of the few tried cells are found
    /// once per node: a mark outside a pairing's cells leaves it whole. Only valid while
    /// nobody can clear cells.
    pub(super) fn refuted_by_pairing(&mut self, ply: usize, cell: usize) -> bool {
        let q = &mut self.quick[ply];
        let all = low_bits(q.open.len());
        let made = q.makes[cell];
        let used = B::bit(cell);
        if !made.none() {
            // The mark makes a threat: the reply must block it; two cannot be blocked.
            if !made.rest().none() {
                return false;
            }
            let t = made.first();
            return q.pairing_after(t, all, used).is_some();
        }
        let mut tried = 0;
        for i in 0..q.tries.len() {
            let t = q.tries[i];
            if t == usize::MAX || tried == PAIRING_CELLS {
                break;
            }
            if t == cell {
                continue;
            }
            tried += 1;
            let found = match q.pairings[i] {
                Some(found) => found,
                None => {
                    let found = q.pairing_after(t, all, B::default());
                    q.pairings[i] = Some(found);
                    found
                }
            };
            match found {
                Some(pairs) if !pairs.has(cell) => return true,
                // The mark takes a cell of that pairing: look for another.
                Some(_) if q.pairing_after(t, all, used).is_some() => return true,
                _ => {}
            }
        }
        false
    }
}

/// Finds disjoint pairs of cells outside `used`, one inside each of the windows of
/// `open` in `uncovered` (bits of the list; `through[c]` holds the windows through cell
/// `c`): a small backtracking search, the window with the fewest free cells first, that
/// gives up (answers `None`) after `steps` steps. Found: `used` with every pair's cells.
fn cover<B: Bits>(
    open: &[B],
    through: &[u64],
    uncovered: u64,
    used: B,
    steps: &mut u32,
) -> Option<B> {
    if uncovered == 0 {
        return Some(used);
    }
    if *steps == 0 {
        return None;
    }
    *steps -= 1;
    let mut pick = B::default();
    let mut fewest = u32::MAX;
    let mut rest = uncovered;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let free = open[i] & !used;
        // The number of free cells, without a full count for the common small cases.
        let second = free.rest();
        if free.none() || second.none() {
            return None;
        }
        let third = second.rest();
        let n = if third.none() {
            2
        } else if third.rest().none() {
            3
        } else if fewest <= 4 {
            // Four free cells or more: not fewer than the fewest so far.
            continue;
        } else {
            let more = third.rest().rest();
            if more.none() {
                4
            } else {
                4 + more.count()
            }
        };
        if n < fewest {
            fewest = n;
            pick = free;
            if n == 2 {
                break;
            }
        }
    }
    let mut firsts = pick;
    while !firsts.none() {
        let a = firsts.first();
        firsts = firsts.rest();
        for b in cells(firsts) {
            let covered = through[a] & through[b];
            let pair = B::bit(a) | B::bit(b);
            let found = cover(open, through, uncovered & !covered, used | pair, steps);
            if found.is_some() || *steps == 0 {
                return found;
            }
        }
    }
    None
}

/// True when a pairing search for `windows` open windows among `empties` is worth
/// trying: at most 64 windows (the search's bit sets), and fewer than the empty
/// cells. With more, a pairing is rarely found (on 6,5,4, tried with more than 24
/// windows: under one in a hundred), and the failed searches cost the most. (6,5,4
/// with the move order of the module doc: 672M instructions with the bound at the
/// number of empty cells, 665M at one fewer, 672M at two fewer, 685M at three fewer;
/// the 7,7,5 nodes about the same.)
fn pairing_in_reach<B: Bits>(windows: usize, empties: B) -> bool {
    windows <= 64 && windows < empties.count() as usize
}

impl<B: Bits> Quick<B> {
    /// The cells of a pairing of the open windows (of `all`) after the opponent's mark
    /// on `t`, which takes the windows through `t` and uses no cell of `used`; the
    /// pairing includes `t` itself and `used`. `None` when none is found within
    /// [`PAIRING_STEPS`].
    pub(super) fn pairing_after(&self, t: usize, all: u64, used: B) -> Option<B> {
        pairing_after(&self.open, &self.through, all, t, used)
    }
}

/// The cells of a pairing of the windows of `open` (the bits of `all`; `through[c]`
/// holds the windows through cell `c`) after the opponent's mark on `t`, which takes
/// the windows through `t`, using no cell of `used`; the pairing includes `t` itself
/// and `used`. `None` when none is found within [`PAIRING_STEPS`].
fn pairing_after<B: Bits>(open: &[B], through: &[u64], all: u64, t: usize, used: B) -> Option<B> {
    let mut steps = PAIRING_STEPS;
    cover(
        open,
        through,
        all & !through[t],
        used | B::bit(t),
        &mut steps,
    )
}

/// Fills `out` with the empty cells of `empties` of the largest Erdős–Selfridge weight
/// `es[c][p]` for player `p`, heaviest first (the earlier cell first among equals);
/// cells of no weight are left out, and unused places hold `usize::MAX`.
pub(super) fn heaviest<B: Bits>(es: &[[f64; 2]], p: usize, empties: B, out: &mut [usize]) {
    let n = out.len();
    out.fill(usize::MAX);
    let mut weights = [0.0f64; PAIRING_CELLS + 2];
    let weights = &mut weights[..n];
    for c in cells(empties) {
        let w = es[c][p];
        let mut i = n - 1;
        if w <= weights[i] {
            continue;
        }
        while i > 0 && weights[i - 1] < w {
            weights[i] = weights[i - 1];
            out[i] = out[i - 1];
            i -= 1;
        }
        weights[i] = w;
        out[i] = c;
    }
}
