//! The root's guard: the moves the pattern search prefers are checked for a forced win
//! of the opponent that the alpha-beta's horizon hides.
//!
//! The alpha-beta reads a few plies and a short VCF at its leaves; a win by a chain of
//! quiet threats (threes) that starts after the chosen move lies beyond it. The root's
//! threat-space search only asks what the opponent could force if the side to move
//! passed, not after the move it is about to play. So the search and the guard take
//! turns ([`search`]): the search runs on most of what is left of the time, then the
//! guard takes the root moves best first and asks the threat-space search
//! ([`Tss::vct_after`]) whether the opponent has a VCT of up to [`GUARD_DEPTH`] quiet
//! threats after each. A proof (valid against every defence) drops the move; the first
//! move with no proof within its slice of time holds, and the search goes on with the
//! time the guard did not use (its table makes the early depths cheap), until the time
//! runs out. When every root move falls, the last one stands: the opponent may not find
//! the win. A check that runs out of its slice keeps its move unchecked and ends the
//! guard's turn, or with `auto:guard=next` ([`Guard::Next`]) lets the guard go on to
//! the next root move (the unchecked one stays first and is checked again next turn).

use std::time::Instant;

use super::root_counts::RootCounters;
use super::score::PATTERN_MATE;
use super::search::{PatternSearch, RootMove};
use super::tactics::Guard;
use crate::core::budget::Budget;
use crate::search::tss::{Tss, Verdict};
use kinrow_game::{Move, Position};

/// Quiet threats the opponent's VCT after a root move may chain. The root's
/// threat-space search proves wins of up to 8 quiet threats for the side to move; the
/// guard stays a little shorter, since it runs once per move it checks.
pub const GUARD_DEPTH: u32 = 6;
/// The share of what is left of the time that the guard keeps back from each turn of
/// the search.
const GUARD_SHARE: f64 = 0.25;
/// The share of what is left of the guard's time that one move's check may use: the
/// first check gets most of it, and a move that falls leaves time for the next.
const CHECK_SLICE: f64 = 0.6;
/// Root moves checked at most in one turn.
const MAX_CHECKS: usize = 6;
/// Turns of search and guard at most.
const TURNS: usize = 3;

/// What the guard found: the root moves proven lost (cell, plies to the opponent's
/// win counted from the position before the move), in the order found.
#[derive(Debug, Default)]
pub struct Findings {
    pub refuted: Vec<(u16, u32)>,
    /// The deepest iteration the search completed.
    pub completed: u32,
}

/// Runs the pattern search `s` over `roots` (at most `max_depth` plies, on `threads`
/// threads) within `budget`, in turns with the guard (see the module's text). Refuted moves leave
/// `roots`, but for the last one. The nodes of both are charged to `budget`.
pub fn search(
    position: &Position,
    s: &mut PatternSearch,
    roots: &mut Vec<RootMove>,
    (max_depth, threads): (u32, usize),
    budget: &mut Budget,
    counts: &mut RootCounters,
) -> Findings {
    let mut found = Findings::default();
    let mut tss = Tss::new(position);
    let mut held: Vec<u16> = Vec::new();
    let start = budget.remaining();
    let mut changed = false;
    let mode = s.tactics.root.guard;
    for _ in 0..TURNS {
        // A later turn goes on from the depth the last one completed (its table makes
        // that depth cheap again; the refuted moves have left the roots).
        let first = found.completed.max(1);
        let depths = (first, max_depth);
        let (nodes, clock) = (budget.nodes, Instant::now());
        let (completed, _) = {
            let mut rest = budget.rest();
            let mut turn = rest.share(1.0 - GUARD_SHARE);
            s.iterate_threads(&mut turn, position, roots, depths, threads)
        };
        counts.search_nodes += budget.nodes - nodes;
        counts.search_micros += clock.elapsed().as_micros() as u64;
        found.completed = found.completed.max(completed);
        let checks = (&mut held, &mut found.refuted);
        let wins_checked = s.tactics.mate_safe.checks_wins();
        let (nodes, clock) = (budget.nodes, Instant::now());
        changed |= check(
            &mut tss,
            roots,
            checks,
            (wins_checked, mode),
            &mut budget.rest(),
            counts,
        );
        counts.guard_nodes += budget.nodes - nodes;
        counts.guard_micros += clock.elapsed().as_micros() as u64;
        let done = found.completed >= max_depth || budget.expired() || budget.past_target();
        if done || budget.remaining() < start / 8 {
            break;
        }
    }
    counts.guard_changed += u64::from(changed);
    found
}

/// Checks `roots` best first, within `budget`: a move refuted goes to `refuted` and
/// leaves `roots` (but for the last one). Stops at the first move already decided (it
/// held before: `held`, or it is the last one, already refuted), at the first move that
/// holds (no proof within its slice), at a move the search values as a loss (the
/// guard adds nothing there) or as a win (unless `wins_checked`: with `mate_safe=on` a
/// win of the alpha-beta is checked like any move, since it is no threat-space proof),
/// after [`MAX_CHECKS`] moves, or when the budget runs out. A check out of its slice
/// ends the turn too under [`Guard::On`]; under [`Guard::Next`] the check goes on with
/// the next root move (the unchecked one keeps its place and is not held). Returns
/// whether it took the search's first choice from the roots (it changed the move).
fn check(
    tss: &mut Tss,
    roots: &mut Vec<RootMove>,
    (held, refuted): (&mut Vec<u16>, &mut Vec<(u16, u32)>),
    (wins_checked, mode): (bool, Guard),
    budget: &mut Budget,
    counts: &mut RootCounters,
) -> bool {
    let mut changed = false;
    // The root move checked next: the first, or under `next` the first after those
    // whose checks ran out of time.
    let mut i = 0;
    for _ in 0..MAX_CHECKS {
        let Some(&r) = roots.get(i) else {
            return changed;
        };
        let decided = held.contains(&r.cell) || refuted.iter().any(|&(c, _)| c == r.cell);
        let win = r.value >= PATTERN_MATE && !wins_checked;
        if decided || win || r.value <= -PATTERN_MATE || budget.expired() {
            return changed;
        }
        let mv = Move::mark(r.cell as usize);
        let verdict = tss.vct_after(&mut budget.rest().share(CHECK_SLICE), mv, GUARD_DEPTH);
        counts.guard_checks += 1;
        match verdict {
            Verdict::Win(proof) => {
                counts.guard_refuted += 1;
                refuted.push((r.cell, proof.plies() + 1));
                if roots.len() == 1 {
                    return changed;
                }
                roots.remove(i);
                changed |= i == 0;
            }
            Verdict::OutOfTime => {
                counts.guard_out_of_time += 1;
                if mode != Guard::Next {
                    return changed;
                }
                i += 1;
            }
            _ => {
                counts.guard_held += 1;
                held.push(r.cell);
                return changed;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use kinrow_game::{parse_board, Hand, Rules};
    use std::time::Duration;

    fn root(cell: usize) -> RootMove {
        RootMove::new(cell as u16)
    }

    /// o to move; x has a broken three on row 7 (cols 5, 6, 8): after a move far away,
    /// x makes an open four; the mark between its stones stops it for good.
    fn position() -> Position {
        let rows = [
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".....xx.x......",
            "...............",
            "......o.o......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ];
        let rules = Rules::new(15, 15, 5, true, [Hand::new(0, 0, 0); 2]).unwrap();
        Position::from_cells(&rules, parse_board(&rows, 15, 15).unwrap(), None).unwrap()
    }

    /// Runs [`check`] over `roots` with `time`: the refuted moves, the roots left, and
    /// the moves that held.
    fn run(roots: &[RootMove], time: Duration) -> (Vec<(u16, u32)>, Vec<u16>, Vec<u16>) {
        let p = position();
        let mut tss = Tss::new(&p);
        let mut roots = roots.to_vec();
        let (mut held, mut refuted) = (Vec::new(), Vec::new());
        let mut budget = Budget::with_time(time);
        check(
            &mut tss,
            &mut roots,
            (&mut held, &mut refuted),
            (false, Guard::On),
            &mut budget,
            &mut RootCounters::default(),
        );
        let left = roots.iter().map(|r| r.cell).collect();
        (refuted, left, held)
    }

    const FAR: usize = 14 * 15 + 14;
    const BLOCK: usize = 7 * 15 + 7;

    #[test]
    fn a_move_that_allows_a_forced_win_is_dropped_and_the_next_that_holds_is_kept() {
        let (refuted, left, held) = run(&[root(FAR), root(BLOCK), root(0)], Duration::from_secs(5));
        assert_eq!(refuted.len(), 1, "{refuted:?}");
        assert_eq!(refuted[0].0 as usize, FAR);
        // x's open four, o's reply, x's five: three plies after o's move.
        assert_eq!(refuted[0].1, 4);
        assert_eq!(left, [BLOCK as u16, 0]);
        assert_eq!(held, [BLOCK as u16]);
    }

    #[test]
    fn a_holding_first_move_ends_the_check() {
        let (refuted, left, held) = run(&[root(BLOCK), root(FAR)], Duration::from_secs(5));
        assert!(refuted.is_empty(), "{refuted:?}");
        assert_eq!(left, [BLOCK as u16, FAR as u16]);
        assert_eq!(held, [BLOCK as u16]);
    }

    #[test]
    fn the_last_move_stays_even_when_it_falls() {
        let (refuted, left, _) = run(&[root(FAR)], Duration::from_secs(5));
        assert_eq!(refuted.len(), 1);
        assert_eq!(left, [FAR as u16]);
    }

    /// The last move, refuted and kept, is not checked again in a later turn.
    #[test]
    fn a_kept_refuted_move_is_not_checked_again() {
        let p = position();
        let time = Duration::from_secs(5);
        let mut tss = Tss::new(&p);
        let mut roots = vec![root(FAR)];
        let (mut held, mut refuted) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            let mut budget = Budget::with_time(time);
            check(
                &mut tss,
                &mut roots,
                (&mut held, &mut refuted),
                (false, Guard::On),
                &mut budget,
                &mut RootCounters::default(),
            );
        }
        assert_eq!(refuted.len(), 1, "{refuted:?}");
        assert_eq!(roots.len(), 1);
    }

    #[test]
    fn without_time_nothing_is_checked() {
        let (refuted, left, held) = run(&[root(FAR), root(0)], Duration::ZERO);
        assert!(refuted.is_empty() && held.is_empty());
        assert_eq!(left.len(), 2);
    }

    #[test]
    fn a_move_the_search_values_as_a_win_is_not_checked() {
        let win = RootMove {
            value: PATTERN_MATE + 3,
            ..RootMove::new(FAR as u16)
        };
        let (refuted, _, held) = run(&[win, root(0)], Duration::from_secs(5));
        assert!(refuted.is_empty() && held.is_empty());
    }
}
