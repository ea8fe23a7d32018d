//! The pattern search's leaves: what a node with no depth left and no five to stop reads
//! before it is valued, either a one-sided VCF probe or a two-sided VCF quiescence with
//! stand-pat (issue 58, step 4; `auto:quiescence=off|vcf`).
//!
//! **Probe** (`quiescence=off`, and wherever the board keeps no cell codes or the rules
//! forbid cells): a VCF of the side to move, of up to [`LEAF_VCF`] fours and
//! [`LEAF_VCF_NODES`] solver nodes, its fours from the whole board (a win or no win);
//! when the opponent can make no four, a three of the side to move or a double three
//! wins; otherwise the static value.
//!
//! **Quiescence** (`quiescence=vcf`): values, not win or no win. At a node where the
//! opponent threatens no five, the side to move may stand on the static value (returned
//! at once when it reaches beta; at a null-window node a value more than [`DELTA`]
//! below alpha, hopeless, returns too) or play one of its fours: the empty cells near
//! its own last move (within two king steps, or four steps along one of its lines)
//! where its mark makes a four or more, read from the cell codes. After the first
//! [`PLAIN_FOURS`] fours of the quiescence only fours that also build are played (a
//! four-three, two fours, or a four whose other lines hold an open two or better),
//! unless the side's own last two moves were such fours. A single five to stop is
//! blocked at no cost, and the blocker then has the same choice, its own fours
//! included: the quiescence is two-sided. Mate values come only from proofs: a five to
//! make, two fives to stop, the static verdicts ([`super::threats`]), or a three (or
//! double three) of the side to move when the opponent can make no four. Each side's
//! last move is the search's own ([`PatternSearch::play`] keeps the path); a side whose
//! last move was played before the root takes its fours from the whole board. The cell
//! codes stay live, since the stand-pat reads the evaluation they sum. Values go into a
//! small always-replace table of the searcher's own ([`Q_TABLE`] entries, one search
//! long).

use super::*;
use crate::board::CellEval;
use crate::eval::cells::classes_of;
use crate::eval::classes::LineClass;
use crate::search::auto::tactics::Quiescence;

/// A null-window quiescence node whose static value is this far below alpha returns it
/// without trying its fours: ten logits, about Rapfi's margin in kinrow's units (the
/// research's D4), so only hopeless nodes are cut.
const DELTA: i64 = 10_000;
/// Fours of the quiescence (both sides together) after which only fours that also
/// build are played: Rapfi's first two quiescence plies.
const PLAIN_FOURS: u32 = 2;
/// Entries of the quiescence's table (a power of two).
const Q_TABLE: usize = 1 << 14;
/// No cell: a last move played before the root.
const NONE: u16 = u16::MAX;

/// One quiescence value: the position's key, the value (wins relative to the ply, as in
/// the main table) and its bound.
#[derive(Copy, Clone, Default)]
struct QEntry {
    key: u64,
    value: i64,
    bound: u8,
}

/// What the quiescence keeps between nodes, built when it first runs: its table and,
/// per cell, the cells near it where a side's fours are looked for.
#[derive(Default)]
pub(super) struct QuiescenceState {
    table: Vec<QEntry>,
    area: Vec<Vec<u16>>,
    /// Scratch list of the cells a node's fours are read from.
    cells: Vec<u16>,
}

/// The line of play a quiescence node was reached by, per player index.
#[derive(Copy, Clone, Debug)]
struct QLine {
    /// Each side's last move ([`NONE`]: before the root).
    last: [u16; 2],
    /// Each side's own moves in a row (up to 2) that were fours that also build.
    plus: [u8; 2],
    /// Fours played in the quiescence so far.
    fours: u32,
}

/// True when a mark that makes threat `t` makes a four or more.
#[inline]
fn is_four(t: Threat) -> bool {
    matches!(
        t,
        Threat::Four | Threat::FourThree | Threat::DoubleFour | Threat::Five
    )
}

/// True when `p`'s mark on `cell` (threat `t`) is a four that also builds: a
/// four-three, two fours (or a flex four), or a four whose other lines hold an open two
/// or better after the mark.
#[inline]
fn four_plus(eval: &CellEval, cell: usize, p: usize, t: Threat) -> bool {
    match t {
        Threat::FourThree | Threat::DoubleFour | Threat::Five => true,
        Threat::Four => eval.code(cell, p).is_some_and(|code| {
            classes_of(code)
                .iter()
                .any(|&l| !l.is_four() && l >= LineClass::Two)
        }),
        _ => false,
    }
}

/// The cells within two king steps of `cell`, or three or four steps along one of its
/// lines (Rapfi's "square 2, line 4").
fn area(geo: &Geometry, cell: usize) -> Vec<u16> {
    let mut v = Vec::with_capacity(40);
    for dr in -4isize..=4 {
        for dc in -4isize..=4 {
            let (r, c) = (dr.abs(), dc.abs());
            let on_line = dr == 0 || dc == 0 || r == c;
            if (dr, dc) == (0, 0) || (r.max(c) > 2 && !on_line) {
                continue;
            }
            if let Some(x) = geo.offset(cell, dr, dc) {
                v.push(x as u16);
            }
        }
    }
    v
}

impl PatternSearch {
    /// The value of a leaf at `ply` (no depth left, no five to stop, the verdicts
    /// already read) within the window `alpha`..`beta` (see the module's text).
    pub(super) fn leaf(&mut self, budget: &mut Budget, ply: usize, alpha: i64, beta: i64) -> i64 {
        if self.tactics.quiescence == Quiescence::Vcf && self.exact_threats() {
            if self.quiet.table.is_empty() {
                let geo = Arc::clone(self.solver.board.geometry());
                self.quiet.table = vec![QEntry::default(); Q_TABLE];
                self.quiet.area = (0..geo.cells()).map(|c| area(&geo, c)).collect();
            }
            let me = self.side;
            let n = self.path.len();
            let mut last = [NONE; 2];
            if n >= 1 {
                last[me ^ 1] = self.path[n - 1];
            }
            if n >= 2 {
                last[me] = self.path[n - 2];
            }
            let line = QLine {
                last,
                plus: [0; 2],
                fours: 0,
            };
            return self.stand_or_four(budget, ply, alpha, beta, line);
        }
        self.probe(budget, ply)
    }

    /// The probe's leaf value (see the module's text).
    fn probe(&mut self, budget: &mut Budget, ply: usize) -> i64 {
        let me = self.side;
        if self.solver.board.may_four(me) {
            // The VCF's fours are all taken back: the line codes need not follow.
            let codes = self.solver.board.set_codes_aside();
            let vcf = self.solver.vcf_within(budget, me, LEAF_VCF, LEAF_VCF_NODES);
            self.solver.board.restore_codes(codes);
            if vcf == R::Win {
                return PATTERN_WIN - ply as i64 - 3;
            }
            if vcf == R::Abort && !budget.stopped() {
                self.counters.leaf_vcf_aborts += 1;
            }
        }
        if !self.solver.board.may_four(me ^ 1) {
            // (Not for x under renju: the open four may need a forbidden cell.)
            if self.has_three(me) && !self.solver.board.restricts(me) {
                // An open four (or two fours) next, and the opponent has no four to
                // answer with: a win on the third ply from here.
                return PATTERN_WIN - ply as i64 - 3;
            }
            if self.double_three(me) {
                // Two threes at once: one of them becomes an open four.
                return PATTERN_WIN - ply as i64 - 5;
            }
        }
        self.eval()
    }

    /// A quiescence node after a four or a block: a five to make wins, a five to stop
    /// is blocked at no cost (two lose), the verdicts are read, and then the side to
    /// move stands or plays its fours ([`PatternSearch::stand_or_four`]).
    fn quiesce(
        &mut self,
        budget: &mut Budget,
        ply: usize,
        alpha: i64,
        beta: i64,
        line: QLine,
    ) -> i64 {
        let forced = match self.enter(budget, ply) {
            Enter::Over(v) => return v,
            Enter::Open(forced) => forced.map(usize::from),
        };
        if let Some(f) = forced {
            // The block costs nothing; the blocker then reads its own fours.
            let next = self.after(&line, f, false);
            self.play(f);
            let v = -self.quiesce(budget, ply + 1, -beta, -alpha, next);
            self.undo(f);
            return v;
        }
        if self.tactics.verdicts {
            if let Some(v) = self.verdict(ply) {
                self.counters.verdicts += 1;
                return v;
            }
        }
        self.stand_or_four(budget, ply, alpha, beta, line)
    }

    /// The line after the side to move marks `cell`, which is one of its fours when
    /// `four` (the block of a five is not).
    fn after(&self, line: &QLine, cell: usize, four: bool) -> QLine {
        let me = self.side;
        let plus = self.solver.board.cell_eval().is_some_and(|e| {
            let t = e.threat_at(cell, me);
            is_four(t) && four_plus(e, cell, me, t)
        });
        let mut next = *line;
        next.last[me] = cell as u16;
        next.plus[me] = if plus { (line.plus[me] + 1).min(2) } else { 0 };
        next.fours += u32::from(four);
        next
    }

    /// The side to move, with no five to stop, stands on the static value or plays one
    /// of its fours (see the module's text).
    fn stand_or_four(
        &mut self,
        budget: &mut Budget,
        ply: usize,
        mut alpha: i64,
        beta: i64,
        line: QLine,
    ) -> i64 {
        let me = self.side;
        if !self.solver.board.may_four(me ^ 1) {
            if self.has_three(me) {
                // An open four (or two fours) next, and no four to answer it.
                return PATTERN_WIN - ply as i64 - 3;
            }
            if self.double_three(me) {
                return PATTERN_WIN - ply as i64 - 5;
            }
        }
        let key = self.key();
        let slot = key as usize & (Q_TABLE - 1);
        let e = self.quiet.table[slot];
        if e.key == key {
            let v = from_tt(e.value, ply);
            let cut = match e.bound {
                EXACT => true,
                LOWER => v >= beta,
                _ => v <= alpha,
            };
            if cut {
                return v;
            }
        }
        let stand = self.eval();
        if stand >= beta {
            return stand;
        }
        if beta - alpha == 1 && stand + DELTA < alpha {
            return stand;
        }
        let alpha0 = alpha;
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut moves = std::mem::take(&mut self.lists[ply]);
        self.fours_near(&line, &mut moves);
        for i in 0..moves.len() {
            let c = moves[i].1 as usize;
            let next = self.after(&line, c, true);
            self.play(c);
            let v = -self.quiesce(budget, ply + 1, -beta, -alpha, next);
            self.undo(c);
            if budget.stopped() {
                self.lists[ply] = moves;
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = moves;
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.quiet.table[slot] = QEntry {
            key,
            value: to_tt(best, ply),
            bound,
        };
        best
    }

    /// The fours the side to move may play at a quiescence node reached by `line`, into
    /// `out` (cleared first), the strongest threat first, then by what the mark builds.
    fn fours_near(&mut self, line: &QLine, out: &mut Vec<(i64, u16)>) {
        out.clear();
        let me = self.side;
        let plain = line.fours < PLAIN_FOURS || line.plus[me] >= 2;
        let mut cells = std::mem::take(&mut self.quiet.cells);
        let last = line.last[me];
        if last == NONE {
            self.solver.board.four_moves(me, &mut cells);
        } else {
            cells.clear();
            let board = self.solver.board.cells();
            cells.extend(
                self.quiet.area[last as usize]
                    .iter()
                    .filter(|&&c| board[c as usize] == EMPTY),
            );
        }
        let Some(eval) = self.solver.board.cell_eval() else {
            self.quiet.cells = cells;
            return;
        };
        for &c in &cells {
            let t = eval.threat_at(c as usize, me);
            if !is_four(t) || !(plain || four_plus(eval, c as usize, me, t)) {
                continue;
            }
            let lines = self.solver.board.lines_through(c as usize);
            let score = ((t as i64) << 40) + 2 * lines[me] as i64 + lines[me ^ 1] as i64;
            out.push((score, c));
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        self.quiet.cells = cells;
    }
}
