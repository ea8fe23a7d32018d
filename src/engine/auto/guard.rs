//! The root's guard: a last look at the moves the pattern search prefers, for a forced
//! win of the opponent that the alpha-beta's horizon hides.
//!
//! The alpha-beta reads a few plies and a short VCF at its leaves; a win by a chain of
//! quiet threats (threes) that starts after the chosen move lies beyond it. The root's
//! threat-space search only asks what the opponent could force if the side to move
//! passed, not after the move it is about to play. So, once the search has ranked its
//! root moves, the guard takes them best first and asks the threat-space search
//! ([`Tss::vct_after`]) whether the opponent has a VCT of up to [`GUARD_DEPTH`] quiet
//! threats after each. A proof (valid against every defence) drops the move; the first
//! move with no proof within its slice of time is played. When every move the guard
//! looked at is proven lost, the search's own choice stands: the opponent may not find
//! the win.

use super::search::{RootMove, MATE};
use crate::engine::tss::{Tss, Verdict};
use crate::engine::Budget;
use crate::game::{Move, Position};

/// Quiet threats the opponent's VCT after a root move may chain. The root's
/// threat-space search proves wins of up to 8 quiet threats for the side to move; the
/// guard stays a little shorter, since it runs once per move it checks.
pub const GUARD_DEPTH: u32 = 6;
/// The share of the pattern search's time kept back for the guard.
pub const GUARD_SHARE: f64 = 0.25;
/// The share of what is left of the guard's time that one move's check may use: the
/// first check gets most of it, and a move that falls leaves time for the next.
const CHECK_SLICE: f64 = 0.6;
/// Root moves checked at most.
const MAX_CHECKS: usize = 6;

/// What the guard found: the root moves proven lost (cell, plies to the opponent's
/// win counted from the position before the move), best first by the search's order,
/// and the threat-space nodes it visited.
#[derive(Debug, Default)]
pub struct Findings {
    pub refuted: Vec<(u16, u32)>,
    pub nodes: u64,
}

/// Checks `roots` (best first) after the pattern search on `position`, within `clock`.
/// Stops at the first move that holds (no proof within its slice), at a move the
/// search already values as a win or a loss (the guard adds nothing there), after
/// [`MAX_CHECKS`] moves, or when the clock runs out.
pub fn check(position: &Position, roots: &[RootMove], mut clock: Budget) -> Findings {
    let mut found = Findings::default();
    if roots.len() < 2 {
        return found;
    }
    let mut tss = Tss::new(position, clock.share(0.0));
    for r in roots.iter().take(MAX_CHECKS) {
        if r.value >= MATE || r.value <= -MATE || clock.expired() {
            break;
        }
        let before = tss.nodes();
        let slice = clock.rest().share(CHECK_SLICE);
        tss.set_clock(slice);
        let verdict = tss.vct_after(Move::mark(r.cell as usize), GUARD_DEPTH);
        clock.charge(tss.nodes() - before);
        match verdict {
            Verdict::Win(proof) => found.refuted.push((r.cell, proof.plies() + 1)),
            _ => break,
        }
    }
    found.nodes = tss.nodes();
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{parse_board, Hand, Rules};
    use std::time::Duration;

    fn root(cell: usize) -> RootMove {
        RootMove {
            cell: cell as u16,
            value: 0,
        }
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

    #[test]
    fn a_move_that_allows_a_forced_win_is_dropped_and_the_next_that_holds_is_kept() {
        let p = position();
        let far = 14 * 15 + 14;
        let block = 7 * 15 + 7;
        let found = check(
            &p,
            &[root(far), root(block), root(0)],
            Budget::with_time(Duration::from_secs(5)),
        );
        assert_eq!(found.refuted.len(), 1, "{found:?}");
        assert_eq!(found.refuted[0].0 as usize, far);
        assert!(found.refuted[0].1 >= 3);
        assert!(found.nodes > 0);
    }

    #[test]
    fn a_holding_first_move_ends_the_check() {
        let p = position();
        let block = 7 * 15 + 7;
        let far = 14 * 15 + 14;
        let found = check(
            &p,
            &[root(block), root(far)],
            Budget::with_time(Duration::from_secs(5)),
        );
        assert!(found.refuted.is_empty(), "{found:?}");
    }

    #[test]
    fn without_time_nothing_is_checked() {
        let p = position();
        let far = 14 * 15 + 14;
        let found = check(&p, &[root(far), root(0)], Budget::with_time(Duration::ZERO));
        assert!(found.refuted.is_empty());
    }

    #[test]
    fn a_move_the_search_values_as_a_win_is_not_checked() {
        let p = position();
        let far = 14 * 15 + 14;
        let win = RootMove {
            cell: far as u16,
            value: MATE + 3,
        };
        let found = check(
            &p,
            &[win, root(0)],
            Budget::with_time(Duration::from_secs(5)),
        );
        assert!(found.refuted.is_empty());
    }
}
