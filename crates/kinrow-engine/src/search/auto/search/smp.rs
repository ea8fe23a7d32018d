//! Iterative deepening at the root of the pattern search, on one thread or on several
//! (Lazy SMP).
//!
//! On one thread, [`PatternSearch::iterate_from`] deepens one ply at a time over the root
//! moves until its budget stops. On N threads ([`PatternSearch::iterate_threads`]) the
//! caller's searcher is the main thread, and N - 1 helpers search the same root at the
//! same time, each with its own board, killers and history but all with the one
//! lock-free transposition table ([`super::table`]): what a helper stores (values,
//! bounds, best moves) cuts and orders the main search's nodes. The helpers differ from
//! the main search and from each other, so that they do not all search the same nodes
//! in the same order: the odd ones iterate one ply deeper than the main search (their
//! entries are there before the main search asks), and the others from the second on
//! start with the root moves rotated. The main search's answer is the result: when it
//! ends (the budget, the depth limit, or the caller's stop) it raises the helpers' stop
//! flag and waits for them. The deadline is the same for all; a node limit is a total
//! ([`Budget::pool_nodes`]), and the helpers' nodes are added to the count.
//!
//! One thread runs exactly the search without threads: no helper, no pool, the same
//! table reads and writes.

use std::sync::Arc;

use super::{PatternSearch, RootMove};
use crate::core::budget::Budget;
use crate::core::progress::Watch;
use crate::core::timeman;
use crate::core::types::Bound;
use crate::search::auto::score::{PATTERN_MATE, PATTERN_WIN};
use kinrow_game::Position;

/// Raises the helpers' stop flag when dropped: when the main search ends, and also if it
/// panics, so that the scope does not wait for helpers that run to the deadline.
struct StopOnDrop(Arc<Watch>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

impl PatternSearch {
    /// [`PatternSearch::iterate_from`] from depth `first` on `threads` threads sharing
    /// this searcher's table (see the module docs): this one is the main search, whose
    /// depth it returns, with the nodes the helpers visited (counted in `budget` too). `position` is the position
    /// this searcher started from. With one thread this is exactly
    /// [`PatternSearch::iterate_from`].
    pub fn iterate_threads(
        &mut self,
        budget: &mut Budget,
        position: &Position,
        roots: &mut [RootMove],
        (first, max_depth): (u32, u32),
        threads: usize,
    ) -> (u32, u64) {
        let first = first.clamp(1, max_depth.max(1));
        if threads <= 1 || roots.is_empty() {
            return (self.iterate_from(budget, roots, first, max_depth), 0);
        }
        let stop = Arc::new(Watch::new(budget.lines()));
        // The helpers' searches (their leaves' VCFs with them) draw from the pool.
        budget.pool_nodes();
        let helper_budget = budget.helper(Arc::clone(&stop));
        let start: Vec<RootMove> = roots.to_vec();
        let table = Arc::clone(&self.tt);
        let (eval, chosen_root, tactics) = (self.eval_choice(), self.chosen_root, self.tactics);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let mut own = helper_budget.clone();
                    let (mut roots, table) = (start.clone(), Arc::clone(&table));
                    scope.spawn(move || {
                        let mut h = PatternSearch::with_table(position, table, eval);
                        h.chosen_root = chosen_root;
                        h.tactics = tactics;
                        let turn = (i / 2) % roots.len();
                        roots.rotate_left(turn);
                        h.iterate_from(&mut own, &mut roots, first + (i % 2) as u32, max_depth);
                        own
                    })
                })
                .collect();
            let guard = StopOnDrop(Arc::clone(&stop));
            let depth = self.iterate_from(budget, roots, first, max_depth);
            drop(guard);
            let mut nodes = 0;
            for h in helpers {
                let own = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                nodes += own.nodes;
                budget.join(own);
            }
            (depth, nodes)
        })
    }

    /// Iterative deepening over `roots` (searched in order, best first after each
    /// iteration) from depth `first` up to `max_depth` or until `budget` stops; a move
    /// of the unfinished last iteration that beat the previous best is kept. Returns the
    /// deepest completed depth.
    pub fn iterate_from(
        &mut self,
        budget: &mut Budget,
        roots: &mut [RootMove],
        first: u32,
        max_depth: u32,
    ) -> u32 {
        let mut completed = 0;
        // With multipv N the N best get exact values: alpha is the N-th best so far.
        let wanted = budget.lines();
        for depth in first as i32..=max_depth as i32 {
            // Each value with what it is: exact, or (refuted by the null window, and
            // fail-soft) an upper bound of the move's value at this depth.
            let mut values: Vec<(i64, Bound)> = Vec::with_capacity(roots.len());
            let mut top: Vec<i64> = Vec::new();
            for r in roots.iter() {
                let false_mates = self.counters.false_mates;
                self.play(r.cell as usize);
                let (v, bound) = if top.len() < wanted {
                    let v = -self.negamax(budget, depth - 1, 1, -PATTERN_WIN - 1, PATTERN_WIN + 1);
                    (v, Bound::Exact)
                } else {
                    let alpha = top[wanted - 1];
                    let v = -self.negamax(budget, depth - 1, 1, -alpha - 1, -alpha);
                    let v = if v > alpha {
                        -self.negamax(budget, depth - 1, 1, -PATTERN_WIN - 1, -alpha)
                    } else {
                        v
                    };
                    (
                        v,
                        if v > alpha {
                            Bound::Exact
                        } else {
                            Bound::Upper
                        },
                    )
                };
                self.undo(r.cell as usize);
                if budget.stopped() {
                    break;
                }
                if v.abs() >= PATTERN_MATE && self.counters.false_mates > false_mates {
                    // The value leans on a loss claimed from a cut move list.
                    self.counters.unproven_root_mates += 1;
                }
                values.push((v, bound));
                top.insert(top.partition_point(|&t| t >= v), v);
            }
            if budget.stopped() {
                // A partial iteration searched the previous best first: a later move
                // that beat it (re-searched with the full window) is better.
                if let Some(&first) = values.first() {
                    let (i, &(v, bound)) = values
                        .iter()
                        .enumerate()
                        .max_by_key(|&(i, &(v, _))| (v, std::cmp::Reverse(i)))
                        .unwrap_or((0, &first));
                    if i > 0 && v > first.0 {
                        roots[i].value = v;
                        roots[i].depth = depth as u32;
                        roots[i].bound = bound;
                        roots.swap(0, i);
                    }
                }
                break;
            }
            let best_before = roots[0].cell;
            for (r, (v, bound)) in roots.iter_mut().zip(values) {
                r.value = v;
                r.depth = depth as u32;
                r.bound = bound;
            }
            roots.sort_by_key(|r| std::cmp::Reverse(r.value));
            completed = depth as u32;
            let best = roots[0].value;
            let unproven =
                (best.abs() < crate::search::auto::score::PATTERN_MATE).then_some(best as f64);
            budget.iteration_done(completed, unproven);
            self.report(budget, roots, completed, wanted);
            let kept = roots[0].cell == best_before;
            let forced = roots.len() == 1 && !self.chosen_root;
            if timeman::iteration_ends(budget, forced, depth, kept) {
                break;
            }
        }
        completed
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::core::budget::Budget;
    use crate::core::budget::POOL_CHUNK;
    use crate::core::types::Limits;
    use kinrow_game::Rules;

    fn position(rows: &[&str]) -> Position {
        Position::new(&Rules::mnk(15, 15, 5).unwrap(), Some(rows), None).unwrap()
    }

    /// The best 24 cells by the ordering, rotated so that `last` (if given) comes last.
    fn roots(p: &Position, last: Option<usize>) -> Vec<RootMove> {
        let mut scored = Vec::new();
        PatternSearch::new(p, 1024).candidates(&mut scored, 24);
        let mut roots: Vec<RootMove> = scored.iter().map(|&(_, c)| RootMove::new(c)).collect();
        if let Some(i) = last.and_then(|c| roots.iter().position(|r| r.cell as usize == c)) {
            let r = roots.remove(i);
            roots.push(r);
        }
        roots
    }

    fn search(p: &Position) -> PatternSearch {
        PatternSearch::new(p, 1 << 16)
    }

    /// Two threads find a win (not the five itself, which the threat-space search plays
    /// before this search runs: a move that leaves two fives to play, a win found on the
    /// third ply) and the block, even when the root order puts them last.
    #[test]
    fn two_threads_find_a_five_and_a_block_ordered_last() {
        let limits = Limits {
            time: Duration::from_secs(60),
            nodes: Some(30_000),
            ..Limits::default()
        };
        let mut rows = vec!["..............."; 15];
        rows[7] = "...xxxx........";
        rows[8] = "...ooo.........";
        rows[9] = ".........o.....";
        let win = position(&rows);
        let mut r = roots(&win, Some(7 * 15 + 8));
        assert_eq!(r.last().unwrap().cell as usize, 7 * 15 + 8);
        let mut budget = Budget::new(&limits);
        let (depth, _) = search(&win).iterate_threads(&mut budget, &win, &mut r, (1, 4), 2);
        assert!(depth >= 1);
        assert!(r[0].value >= PATTERN_WIN / 2, "{}", r[0].value);
        let mut after = win.clone();
        after.play(kinrow_game::Move::mark(r[0].cell as usize));
        let fives = (0..225)
            .filter(|&c| after.cell(c) == kinrow_game::Cell::Empty)
            .filter(|&c| after.wins_at(c, kinrow_game::Player::X))
            .count();
        assert!(after.winner().is_some() || fives >= 2, "{}", r[0].cell);

        let mut rows = vec!["..............."; 15];
        rows[7] = "..xoooo........";
        rows[9] = ".........x.....";
        rows[10] = "..........x....";
        rows[11] = "............x..";
        let block = position(&rows);
        let mut r = roots(&block, Some(7 * 15 + 7));
        assert_eq!(r.last().unwrap().cell as usize, 7 * 15 + 7);
        search(&block).iterate_threads(&mut Budget::new(&limits), &block, &mut r, (1, 4), 2);
        assert_eq!(r[0].cell as usize, 7 * 15 + 7);
    }

    /// Under a node limit the helpers draw from the same pool as the main search: they
    /// search (their nodes are not 0), and all together stay within the limit (each
    /// thread may pass it by the plies on its stack, and leaves at most a chunk).
    #[test]
    fn helpers_search_within_the_one_node_limit() {
        let mut rows = vec!["..............."; 15];
        rows[5] = "......o........";
        rows[6] = ".....xxo.......";
        rows[7] = "......xo.......";
        rows[8] = ".....ox.x......";
        let p = position(&rows);
        let limits = Limits {
            time: Duration::from_secs(60),
            nodes: Some(50_000),
            ..Limits::default()
        };
        for threads in [2, 3] {
            let mut s = search(&p);
            let mut budget = Budget::new(&limits);
            let mut r = roots(&p, None);
            let (depth, helpers) = s.iterate_threads(&mut budget, &p, &mut r, (1, 64), threads);
            let total = budget.nodes;
            assert!(depth >= 2, "{depth}");
            assert!(
                helpers > 5_000,
                "{threads} threads: helpers searched {helpers}"
            );
            assert!(total - helpers > 5_000, "{}", total - helpers);
            let slack = 96 * threads as u64;
            assert!(total <= 50_000 + slack, "{total}");
            assert!(total + POOL_CHUNK * threads as u64 >= 50_000, "{total}");
        }
    }
}
