//! The pattern search's move generation: whether a side has a three or a double three
//! (from the board's threat counts where it keeps them), the ranked candidate cells of a
//! quiet node, and the defences to an opposing three.

use super::*;

impl PatternSearch {
    /// True when `p` has a *three*: a cell where a mark of `p` makes a flex four or two
    /// fours. Read from the threat counts where the board keeps them (one table read),
    /// else from the board's windows.
    #[inline]
    pub(super) fn has_three(&mut self, p: usize) -> bool {
        match self.solver.board.cell_eval() {
            Some(cells) => cells.threats(p, Threat::DoubleFour) > 0,
            None => self.solver.board.has_three(p),
        }
    }

    /// How much each player's window score would grow with a mark of theirs on the
    /// empty `cell`.
    #[inline]
    pub(super) fn gains(&self, cell: usize) -> [i64; 2] {
        match self.codes() {
            Some(codes) => codes.gains(cell),
            None => self.solver.board.gains(cell),
        }
    }

    /// True when a mark of `p` on some empty cell near a piece makes threes in two
    /// directions at once (only with overlines allowed, where any k in a row wins). Where
    /// the board keeps threat classes, a four with a three counts too (asked only when
    /// `p` has no three and the opponent can make no four, so either wins), read from the
    /// counts.
    pub(super) fn double_three(&self, p: usize) -> bool {
        let Some(codes) = self.codes() else {
            return false;
        };
        if !self.solver.board.geometry().overline {
            return false;
        }
        if let Some(cells) = self.solver.board.cell_eval() {
            return cells.threats(p, Threat::DoubleThree) + cells.threats(p, Threat::FourThree) > 0;
        }
        let cells = self.solver.board.cells();
        (0..cells.len()).any(|c| cells[c] == EMPTY && self.near[c] != 0 && codes.threes(p, c) >= 2)
    }

    /// The empty cells near a piece (every cell on an empty board), scored for the side
    /// to move, best first and the more central first among equals; only the best
    /// `keep` are kept. True when that cut some.
    pub fn candidates(&mut self, out: &mut Vec<(i64, u16)>, keep: usize) -> bool {
        out.clear();
        let me = self.side;
        let any = self.pieces > 0;
        let restricted = self.solver.board.restricts(me);
        for c in 0..self.solver.board.cells().len() {
            if self.solver.board.cells()[c] != EMPTY || (any && self.near[c] == 0) {
                continue;
            }
            if restricted && self.solver.board.forbidden(me, c) {
                continue;
            }
            let s = match self.codes() {
                Some(codes) => order_score(codes.lines(c), me),
                None => {
                    let g = self.solver.board.gains(c);
                    g[me] * BUILD.0 / BUILD.1 + g[me ^ 1]
                }
            };
            out.push((s, c as u16));
        }
        let tie = &self.tie;
        let order = |a: &(i64, u16), b: &(i64, u16)| {
            b.0.cmp(&a.0)
                .then(tie[a.1 as usize].cmp(&tie[b.1 as usize]))
        };
        let cut = keep < out.len();
        if cut {
            out.select_nth_unstable_by(keep, order);
            out.truncate(keep);
        }
        out.sort_unstable_by(order);
        cut
    }

    /// The moves of a quiet node (no five to stop, no three to answer) at remaining
    /// `depth`: the best [`WIDTH`] by [`PatternSearch::candidates`] (under the learned
    /// evaluation [`NEAR_LEAF_WIDTH`] within two plies of the leaves) and every four, the killers first,
    /// then by score plus history; with `defences=add`, the defences against the
    /// opponent's four-threes too ([`PatternSearch::four_three_defences`]). The table's
    /// move is searched before these are generated (see [`PatternSearch::negamax`]).
    /// True when the width cut candidates.
    pub(super) fn quiet_moves(
        &mut self,
        ply: usize,
        depth: i32,
        moves: &mut Vec<(i64, u16)>,
    ) -> bool {
        let me = self.side;
        let width = match depth {
            _ if self.tactics.depth.move_count => move_count(depth, self.improving[ply]),
            i32::MIN..=2 if self.learned => NEAR_LEAF_WIDTH[(depth.max(1) - 1) as usize],
            _ => WIDTH,
        };
        let cut = self.candidates(moves, width);
        if self.tactics.defences == Defences::Add
            && self.exact_threats()
            && self
                .solver
                .board
                .cell_eval()
                .is_some_and(|e| e.threats(me ^ 1, Threat::FourThree) > 0)
        {
            let mut cells = std::mem::take(&mut self.defence);
            cells.clear();
            self.four_three_defences(&mut cells);
            for &c in &cells {
                if !moves.iter().any(|m| m.1 == c) {
                    moves.push((0, c));
                }
            }
            self.defence = cells;
        }
        // Fours are forcing and cheap to answer: always look at them, so a defence by
        // counter-fours is never pruned away.
        let mut fours = std::mem::take(&mut self.wins);
        self.solver.board.four_moves(me, &mut fours);
        for &c in &fours {
            if !moves.iter().any(|m| m.1 == c) {
                moves.push((0, c));
            }
        }
        self.wins = fours;
        let k = self.killers[ply];
        let cells = self.history.len();
        for m in moves.iter_mut() {
            let c = m.1 as usize;
            // With `attack_history`, a move that makes a three or four of one's own is
            // ordered by the history of such moves.
            let attacking = self.tactics.depth.attack_history
                && self
                    .solver
                    .board
                    .cell_eval()
                    .is_some_and(|e| e.threat_at(c, me) != Threat::Quiet);
            m.0 += if attacking {
                self.attack_history[me * cells + c]
            } else {
                self.history[c]
            } as i64;
            if m.1 == k[0] || m.1 == k[1] {
                m.0 = m.0.saturating_add(1 << 40);
            }
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        self.drop_forbidden(moves);
        cut
    }

    /// Appends to `moves` every candidate not in it yet (every empty cell near a piece,
    /// by the ordering): the rest of a quiet node whose kept moves all lost.
    pub(super) fn refill(&mut self, moves: &mut Vec<(i64, u16)>) {
        let mut rest = std::mem::take(&mut self.refill_scratch);
        self.candidates(&mut rest, usize::MAX);
        for &(s, c) in &rest {
            if !moves.iter().any(|m| m.1 == c) {
                moves.push((s, c));
            }
        }
        self.refill_scratch = rest;
    }

    /// Fills `moves` with `cells` (the answers to a threat), scored by what a mark
    /// there builds for either side plus history, the table's move first and the
    /// killers next, best first.
    pub(super) fn score_answers(
        &mut self,
        ply: usize,
        tt_move: u16,
        cells: &[u16],
        moves: &mut Vec<(i64, u16)>,
    ) {
        let me = self.side;
        let k = self.killers[ply];
        for &c in cells {
            let g = self.gains(c as usize);
            let mut score = g[me] + g[me ^ 1] + self.history[c as usize] as i64;
            if c == tt_move {
                score = i64::MAX;
            } else if c == k[0] || c == k[1] {
                score = score.saturating_add(1 << 40);
            }
            moves.push((score, c));
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    }

    /// Appends to `cells` (the mover's fours) the cells that can stop the opponent's
    /// three: one cell `x` where the opponent's mark would make a flex four or two fours,
    /// and the empty cells of the opponent's windows through `x` that miss two marks (a
    /// mark anywhere else leaves `x`'s threat as it is). False where the board keeps no
    /// threat classes or no such cell was found.
    pub(super) fn three_defences(&mut self, cells: &mut Vec<u16>) -> bool {
        let opp = self.side ^ 1;
        if self.solver.board.cell_eval().is_none() {
            return false;
        }
        let mut class = std::mem::take(&mut self.defence);
        class.clear();
        self.solver.board.cells_of_class(opp, 2, &mut class, true);
        let x = self.solver.board.cell_eval().and_then(|eval| {
            class
                .iter()
                .copied()
                .find(|&c| eval.threat_at(c as usize, opp) == Threat::DoubleFour)
        });
        let Some(x) = x else {
            // (Not expected: a flex four's cell lies in a window missing two marks.)
            for &c in &class {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            self.defence = class;
            return true;
        };
        self.defence = class;
        let k = self.solver.board.k();
        let board = &self.solver.board;
        let mut add = |c: u16| {
            if board.cells()[c as usize] == EMPTY && !cells.contains(&c) {
                cells.push(c);
            }
        };
        add(x);
        board.open_windows_through(opp, x as usize, |window, marks| {
            if marks + 2 == k {
                for &c in window {
                    add(c);
                }
            }
        });
        true
    }
}
