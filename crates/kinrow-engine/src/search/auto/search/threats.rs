//! The pattern search's exact threat reading (issue 58), from the board's per-player
//! threat counts and cell codes: static verdicts at any node, and the exact defence
//! sets against threes and four-threes.
//!
//! **Verdicts** (side to move `me`, no five on either side): an own *double four*
//! cell (a flex four, or two fours at once) wins on the third ply whatever the
//! opponent's fours, since a five comes before theirs. An own *four-three* cell wins on
//! the fifth ply when the opponent's forced block of the four makes no four of their
//! own (found by putting the mark and reading the four's completing cell), after which
//! the three becomes a flex four; an own *double three* wins on the fifth ply when the
//! opponent can make no four at all (both only where overlines win, as the leaf's rules).
//! And the opponent's threes lose on the fourth ply when no cell stops all of them at
//! once and the side to move has no four to gain time with.
//!
//! **Defences.** A mark stops the opponent's threat at cell `x` only on `x` or in a
//! window through `x` that the threat completes: for a three (a cell making a flex four
//! or two fours) the opponent's windows through `x` that miss two marks; a cell outside
//! all of them leaves `x`'s threat as it was. So the moves that can stop every three at
//! once lie in the intersection of those sets over the opponent's three cells, a sound
//! superset of the true defences. For a four-three at `x`: `x`, the opponent's windows
//! through `x` that miss two marks (the four) or three (the three, whose flex four must
//! use `x`: the opponent has no three elsewhere), and one's own marks that make the
//! forced block at the four's completing cell `f` a four of one's own (the cells of
//! one's windows through `f` that miss three marks), besides one's own fours, which the
//! caller adds. Where `f` is already a four for the defender nothing is restricted.
//! Under renju none of this applies (forbidden cells change what threatens).

use super::PatternSearch;
use crate::eval::cells::Threat;
use crate::search::auto::score::PATTERN_WIN;
use kinrow_game::codes::{stone, EMPTY};

/// True when a mark of `p` on a cell whose threat is `t` makes a four or more: a five
/// threat the opponent must answer.
fn makes_four(t: Threat) -> bool {
    matches!(
        t,
        Threat::Four | Threat::FourThree | Threat::DoubleFour | Threat::Five
    )
}

impl PatternSearch {
    /// True where the board keeps the cell codes the exact readings need (and the
    /// rules forbid no cell).
    #[inline]
    pub(super) fn exact_threats(&self) -> bool {
        self.solver.board.cell_eval().is_some() && !self.solver.board.restricts(0)
    }

    /// The static verdict of a node at `ply` where neither side can make five at once
    /// (see the module's text), if any: a win or a loss in the plies it takes.
    pub(super) fn verdict(&mut self, ply: usize) -> Option<i64> {
        let me = self.side;
        let opp = me ^ 1;
        let eval = self.solver.board.cell_eval()?;
        let ply = ply as i64;
        if eval.threats(me, Threat::DoubleFour) > 0 {
            return Some(PATTERN_WIN - ply - 3);
        }
        let four_three = eval.threats(me, Threat::FourThree) > 0;
        let double_three = eval.threats(me, Threat::DoubleThree) > 0;
        let opp_threes = eval.threats(opp, Threat::DoubleFour);
        let overline = self.solver.board.geometry().overline;
        let opp_four = self.solver.board.may_four(opp);
        if overline && (four_three || double_three) && !opp_four {
            return Some(PATTERN_WIN - ply - 5);
        }
        if overline && four_three && self.four_three_wins() {
            return Some(PATTERN_WIN - ply - 5);
        }
        if opp_threes >= 2 && !self.solver.board.may_four(me) {
            let mut cells = std::mem::take(&mut self.defence);
            cells.clear();
            self.common_three_defences(&mut cells);
            let lost = cells.is_empty();
            self.defence = cells;
            if lost {
                return Some(-(PATTERN_WIN - ply - 4));
            }
        }
        None
    }

    /// The cells where a mark of `p` makes threat `t`, into `out` (cleared first).
    fn threat_cells(&mut self, p: usize, t: Threat, out: &mut Vec<u16>) {
        out.clear();
        self.solver.board.cells_of_class(p, 2, out, true);
        let Some(eval) = self.solver.board.cell_eval() else {
            out.clear();
            return;
        };
        out.retain(|&c| eval.threat_at(c as usize, p) == t);
    }

    /// True when the side to move has a four-three cell whose four's forced block makes
    /// no four for the opponent.
    fn four_three_wins(&mut self) -> bool {
        let me = self.side;
        let mut cells = std::mem::take(&mut self.threat_scratch);
        self.threat_cells(me, Threat::FourThree, &mut cells);
        let mut wins = std::mem::take(&mut self.wins);
        let mut found = false;
        for &x in &cells {
            self.solver.board.put(x as usize, stone(me));
            self.solver
                .board
                .win_cells_through(me, x as usize, &mut wins);
            let block_holds = match wins[..] {
                [f] => self
                    .solver
                    .board
                    .cell_eval()
                    .is_some_and(|e| !makes_four(e.threat_at(f as usize, me ^ 1))),
                _ => false,
            };
            self.solver.board.take(x as usize);
            if block_holds {
                found = true;
                break;
            }
        }
        self.wins = wins;
        self.threat_scratch = cells;
        found
    }

    /// Appends to `out` the cells that stop every three of the opponent at once: the
    /// intersection over their three cells `x` of `x` and the empty cells of their
    /// windows through `x` that miss two marks (see the module's text). Empty when no
    /// cell stops them all.
    pub(super) fn common_three_defences(&mut self, out: &mut Vec<u16>) {
        let opp = self.side ^ 1;
        let mut threes = std::mem::take(&mut self.threat_scratch);
        self.threat_cells(opp, Threat::DoubleFour, &mut threes);
        let k = self.solver.board.k();
        let from = out.len();
        let board = &self.solver.board;
        for (i, &x) in threes.iter().enumerate() {
            if i == 0 {
                let mut add = |c: u16| {
                    if board.cells()[c as usize] == EMPTY && !out[from..].contains(&c) {
                        out.push(c);
                    }
                };
                add(x);
                board.open_windows_through(opp, x as usize, |window, marks| {
                    if marks + 2 == k {
                        window.iter().for_each(|&c| add(c));
                    }
                });
                continue;
            }
            let mut keep = from;
            for j in from..out.len() {
                let c = out[j];
                let mut stops = c == x;
                if !stops {
                    board.open_windows_through(opp, x as usize, |window, marks| {
                        stops |= marks + 2 == k && window.contains(&c);
                    });
                }
                if stops {
                    out[keep] = c;
                    keep += 1;
                }
            }
            out.truncate(keep);
            if keep == from {
                break;
            }
        }
        self.threat_scratch = threes;
    }

    /// Appends to `out` the cells that may stop the opponent's four-threes (the union
    /// over their four-three cells of the sets in the module's text; one's own fours are
    /// the caller's). False when some four-three's forced block is already a four of the
    /// defender's: then any move may be the answer, and nothing is restricted.
    pub(super) fn four_three_defences(&mut self, out: &mut Vec<u16>) -> bool {
        let me = self.side;
        let opp = me ^ 1;
        let mut cells = std::mem::take(&mut self.threat_scratch);
        self.threat_cells(opp, Threat::FourThree, &mut cells);
        let mut wins = std::mem::take(&mut self.wins);
        let k = self.solver.board.k();
        let mut bounded = true;
        for &x in &cells {
            let board = &mut self.solver.board;
            let add = |out: &mut Vec<u16>, c: u16| {
                if !out.contains(&c) {
                    out.push(c);
                }
            };
            add(out, x);
            board.open_windows_through(opp, x as usize, |window, marks| {
                if marks + 2 == k || marks + 3 == k {
                    for &c in window {
                        if board.cells()[c as usize] == EMPTY {
                            add(out, c);
                        }
                    }
                }
            });
            board.put(x as usize, stone(opp));
            board.win_cells_through(opp, x as usize, &mut wins);
            for &f in &wins {
                if board
                    .cell_eval()
                    .is_some_and(|e| makes_four(e.threat_at(f as usize, me)))
                {
                    bounded = false;
                }
                board.open_windows_through(me, f as usize, |window, marks| {
                    if marks + 3 == k {
                        for &c in window {
                            if c != f && board.cells()[c as usize] == EMPTY {
                                add(out, c);
                            }
                        }
                    }
                });
            }
            board.take(x as usize);
            if !bounded {
                break;
            }
        }
        self.wins = wins;
        self.threat_scratch = cells;
        bounded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::budget::Budget;
    use crate::eval::EvalChoice;
    use crate::search::tss::search::R;
    use kinrow_fixtures::tactics_positions::{FOUR_THREE, FOUR_THREE_LATER, TWO_THREES};
    use kinrow_game::{Player, Position, Rules};

    fn searcher(rows: &[&str]) -> PatternSearch {
        let rules = Rules::mnk(15, 15, 5).unwrap();
        let p = Position::new(&rules, Some(rows), None).unwrap();
        PatternSearch::evaluating(&p, 1 << 10, EvalChoice::Learned)
    }

    /// Every empty cell near a piece outside `set` (and no four of the mover's) leaves
    /// the opponent a win by fours: the set holds every defence.
    fn every_other_move_loses(s: &mut PatternSearch, set: &[u16]) -> usize {
        let me = s.side;
        let mut checked = 0;
        for c in 0..s.solver.board.cells().len() {
            if s.solver.board.cells()[c] != EMPTY || s.near[c] == 0 || set.contains(&(c as u16)) {
                continue;
            }
            s.play(c);
            let mut budget = Budget::with_time(std::time::Duration::from_secs(10));
            let r = s.solver.vcf(&mut budget, me ^ 1, 64);
            s.undo(c);
            assert_eq!(r, R::Win, "cell {c} is left out of the defences but holds");
            checked += 1;
        }
        checked
    }

    #[test]
    fn the_four_three_defences_hold_every_defence() {
        for rows in [FOUR_THREE, FOUR_THREE_LATER] {
            let mut s = searcher(&rows);
            assert_eq!(s.side, Player::X.index());
            let mut set = Vec::new();
            assert!(
                s.four_three_defences(&mut set),
                "the forced block is no four"
            );
            let mut fours = Vec::new();
            s.solver.board.four_moves(s.side, &mut fours);
            set.extend(fours);
            assert!(every_other_move_loses(&mut s, &set) > 20);
        }
    }

    #[test]
    fn the_common_three_defences_hold_every_defence() {
        let mut s = searcher(&TWO_THREES);
        let mut set = Vec::new();
        s.common_three_defences(&mut set);
        assert!(set.is_empty(), "no cell stops both threes");
        assert!(!s.solver.board.may_four(s.side));
        assert!(every_other_move_loses(&mut s, &set) > 20);
    }
}
