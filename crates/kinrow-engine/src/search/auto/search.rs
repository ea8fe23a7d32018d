//! The pattern search `auto` plays on boards with k >= 4 and no special pieces:
//! principal-variation alpha-beta over the threat solver's board ([`PatternBoard`]).
//!
//! **Static value.** On gomoku (k = 5, freestyle or exactly five) the learned evaluation
//! the board sums incrementally ([`crate::eval`]), in thousandths of a logit of the side
//! to move's expected result: on freestyle the network over the empty cells' codes
//! ([`crate::eval::network`]), on exactly five the tables (fitted weights of every
//! empty cell's code for each player, plus a table over both threat masks). Under other rules (or
//! when asked for) the window count: every window still open for a player weighs
//! 10^(marks - 1), the mover's total counting half again.
//!
//! **Moves by threat class.** A five is played; a single opposing five is blocked
//! without using up depth (so forcing lines are read to their end: the reply to a four
//! costs no depth); two opposing fives lose. Against an opposing
//! *three* (a cell where the opponent's mark makes a flex four or two fours; read from
//! the board's per-player threat counts where it keeps cell codes) only one's own fours
//! and the cells that can stop it are searched: the empty cells of the opponent's
//! windows missing two marks through one such cell (without cell codes, of all such
//! windows). Otherwise the node is quiet: the table's move is tried alone first, and
//! only if it does not cut are the empty cells near a piece ranked by the fitted
//! ordering ([`super::order`]; the more central first among equals) and the best
//! [`WIDTH`] searched, with every four, killers first, then by score plus history.
//!
//! **Depth.** In a quiet node the moves after the first [`FULL_DEPTH_MOVES`] are
//! searched a ply shallower first, and at full depth only when they beat the best so
//! far. Under the learned evaluation the search is narrower near the leaves
//! ([`NEAR_LEAF_WIDTH`]: move-count pruning) and the latest moves at a large depth are
//! reduced by two plies ([`DEEPER_REDUCTION`]).
//!
//! **Leaves** ([`quiesce`]). With `quiescence=vcf`, where the board keeps cell codes
//! (and no cell is forbidden), a two-sided VCF quiescence with stand-pat: the side to move stands on
//! the static value or plays its fours near its own last move, a single five to stop
//! is blocked at no cost and the blocker reads its own fours in turn (issue 58, step
//! 4). Otherwise a VCF of the side to move is looked
//! for (up to [`LEAF_VCF`] fours and [`LEAF_VCF_NODES`] solver nodes); when the opponent
//! can make no four, a three of the side to move, or a cell where its mark makes two
//! threes (or a four and a three), wins; otherwise the static value is taken.
//!
//! **Threat verdicts and the lab's switches** ([`Tactics`], issue 58). At every node
//! with no five to stop, exact static verdicts from the threat counts end the node (an
//! own flex four wins, an own four-three whose forced block makes no four wins, the
//! opponent's threes that no one cell stops lose: [`threats`]; on by default). The
//! exact defences against threes and four-threes (`defences`) and the refill of a cut
//! list whose kept moves all lost (`mate_safe`: at every depth, or `shallow`, only at a
//! remaining depth of at most 3) are switches, off by default. So is each of Rapfi's
//! depth rows ([`Selectivity`](super::tactics::Selectivity), issue 58 step 5): razoring
//! into the quiescence one or two plies above the leaves (on by default since its SPRT), a forced reply worth 1.3 plies, move-count pruning growing with the depth and refilled where
//! every kept move lost (on by default since its SPRT), logarithmic late-move reductions keyed on threats, child
//! futility (on by default since its SPRT), and a ply off the remaining moves once
//! alpha rises. The leaves' two-sided VCF quiescence (`quiescence=vcf|off`) is on.
//!
//! **Around it.** A transposition table, killer moves and a history table order the
//! moves. Iterative deepening runs until the budget stops; an unfinished iteration
//! still counts where its first moves changed the choice. A search by time keeps its
//! table in the caller's context ([`KeptTable`]) for the next one, so that a game's next
//! move starts from what this one found (docs/strength.md, "Where `auto`'s constants come
//! from"). The iterative deepening runs on one thread or on several that share the
//! table (Lazy SMP, [`smp`]); the table is lock-free ([`table`]). What was tried on top
//! of this and not kept (futility, razoring, logarithmic reductions, extending fours):
//! docs/evaluation.md, "Search on the codes".

use std::sync::Arc;

pub use self::table::KeptTable;
use self::table::{from_tt, table_size, to_tt, Entry, Table, EXACT, LOWER, UPPER};
use super::order::order_score;
use super::score::{PATTERN_MATE, PATTERN_WIN};
use super::tactics::{razor_margin, Defences, Quiescence, SearchCounters, Tactics, RAZOR_DEPTH};
use crate::board::{LineCodes, PatternBoard};
use crate::core::budget::Budget;
use crate::core::types::{Bound, Evaluation, MoveEval, Outcome};
use crate::eval::cells::Threat;
use crate::eval::EvalChoice;
use crate::search::tss::search::{Solver, R};
use kinrow_game::codes::{stone, EMPTY};
use kinrow_game::{Geometry, Move, Position};

const MAX_PLY: usize = 96;
const SIDE_KEY: u64 = 0x6A09_E667_F3BC_C909;
/// Moves searched at a quiet inner node (the best by the ordering score, besides every
/// four). 8, 10 and 12 played alike in the arena; 10 is a little ahead over more games
/// (docs/strength.md, "Where `auto`'s constants come from").
const WIDTH: usize = 10;
/// Fours a leaf's VCF may chain. Cheap leaves reach deeper in the crowded positions
/// where games are decided: 4 fours and no answer to the opponent's three played best
/// (docs/strength.md, "Where `auto`'s constants come from").
const LEAF_VCF: u32 = 4;
/// Solver nodes a leaf's VCF may visit before it gives up (no win found). Unbounded,
/// the leaves' VCFs take most of the time in crowded middlegames, where many fours
/// branch, and the search finishes fewer plies; caps of 8 to 30 played alike, better
/// than none (docs/strength.md, "Where `auto`'s constants come from").
const LEAF_VCF_NODES: u64 = 16;
/// How a candidate cell is ranked where the line codes have no table (k > 5): what a
/// mark there adds to the mover's window score, times `BUILD.0 / BUILD.1`, plus what it
/// takes from the opponent's. This was the ordering for every k before the fitted one
/// of [`super::order`], where 8/5 was among the best ratios (docs/strength.md, "Where
/// `auto`'s constants come from").
const BUILD: (i64, i64) = (8, 5);
/// Moves of a quiet inner node searched at full depth; later ones are reduced by a ply
/// first (better than no reduction; other counts, deeper reductions, reductions at the
/// root and a null move did no better: docs/strength.md, "Where `auto`'s constants come
/// from").
const FULL_DEPTH_MOVES: usize = 3;
/// The least remaining depth at which late moves are reduced.
const REDUCE_FROM_DEPTH: i32 = 3;

/// Move-count pruning under the learned evaluation: the quiet moves searched (besides
/// every four) one and two plies above the leaves; higher up [`WIDTH`].
const NEAR_LEAF_WIDTH: [usize; 2] = [5, 7];
/// Under the learned evaluation, moves from this index on, at this remaining depth or
/// more, are first searched two plies shallower instead of one.
const DEEPER_REDUCTION: (usize, i32) = (6, 6);

/// `auto:futility` (issue 58 step 5, row 2): the margin per ply of remaining depth, in
/// thousandths of a logit (Rapfi's 63 of its units, five of ours each).
const FUTILITY_MARGIN: i64 = 315;
/// `auto:move_count`: the quiet moves searched at remaining depth `d` on a line whose
/// static value is improving, `1.2 (3 + d^1.32)` (half as many when it is not): 5, 7
/// and 9 at depths 1-3, today's widths there, then 11, 14, 16, 19 ...
fn move_count(depth: i32, improving: bool) -> usize {
    let d = depth.max(1) as f64;
    let n = 1.2 * (3.0 + d.powf(1.32)) / if improving { 1.0 } else { 2.0 };
    (n.round() as usize).max(2)
}
/// `auto:log_lmr`: the reduction of the `count`-th move at remaining depth `depth`
/// before the threat adjustments, `ln d ln count / 2` rounded.
fn log_reduction(depth: i32, count: usize) -> i32 {
    let r = (depth.max(1) as f64).ln() * (count.max(1) as f64).ln() / 2.0;
    r.round() as i32
}
/// No static value kept for the ply (see [`PatternSearch::improving`]).
const NO_EVAL: i64 = i64::MIN;

/// The searcher: board, side to move, neighbourhood counts and table. Each search
/// borrows its budget from the caller, and the leaves' VCFs count in it.
pub struct PatternSearch {
    /// The board lives in the threat solver, which the leaves ask for VCFs.
    solver: Solver,
    side: usize,
    near: Vec<u8>,
    ring: Vec<Vec<u16>>,
    /// The transposition table, shared with the other threads of the search.
    tt: Arc<Table>,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<u32>,
    /// `auto:attack_history`: the history of moves that made a three or four of one's
    /// own, per side (`side * cells + cell`).
    attack_history: Vec<u32>,
    wins: Vec<u16>,
    /// Scratch list of [`PatternSearch::three_defences`].
    defence: Vec<u16>,
    /// Scratch list of the exact threat readings ([`threats`]).
    threat_scratch: Vec<u16>,
    /// Scratch list of [`PatternSearch::refill`].
    refill_scratch: Vec<(i64, u16)>,
    /// The switchable tactics (issue 58), the lab's `auto:` options.
    pub tactics: Tactics,
    /// What this search met, added to the process-wide totals when it is dropped.
    counters: SearchCounters,
    /// Per ply of the current line, the node's static value where a depth switch read
    /// it ([`NO_EVAL`] elsewhere): whether the line is improving for the side to move.
    evals: [i64; MAX_PLY],
    /// Per ply, whether the node's static value improved on its grandparent's (true
    /// where either is unknown): read by the move count of [`PatternSearch::quiet_moves`].
    improving: [bool; MAX_PLY],
    /// Per ply, whether the node had a five to block (the move before it was a four).
    forced_at: [bool; MAX_PLY],
    /// Per ply, the forced replies on the line from the root to the node, itself
    /// included (`reply_ext` extends every third).
    replies: [u32; MAX_PLY],
    /// Each ply's move list, kept between nodes so that it is not allocated anew.
    lists: Vec<Vec<(i64, u16)>>,
    /// Per cell, what orders equally scored moves: its distance from the centre, then
    /// the cell itself, in one number.
    tie: Vec<u32>,
    /// Pieces on the board.
    pieces: usize,
    /// The board sums the learned evaluation ([`crate::eval`]): gomoku.
    learned: bool,
    /// The evaluation asked for (the threads of a search share it).
    eval_choice: EvalChoice,
    /// The moves played from the root, the last last ([`PatternSearch::play`]): the
    /// quiescence searches fours near each side's own last move.
    path: Vec<u16>,
    /// The quiescence's table and neighbourhoods ([`quiesce`]), built when first used.
    quiet: quiesce::QuiescenceState,
    /// One root move was chosen alone (the centre of an empty board), not left alone
    /// because the others lose: its value is searched as deep as the time allows
    /// instead of the few plies a forced move gets.
    pub chosen_root: bool,
}

/// The window count's value of a board with window scores `score` for `side` to move:
/// its own score counts half again, since it moves first (1.5 played better than 1.125:
/// docs/strength.md).
pub fn window_value(score: [i64; 2], side: usize) -> i64 {
    let (me, them) = (score[side], score[side ^ 1]);
    me + me / 2 - them
}

/// How a node goes on after [`PatternSearch::enter`].
enum Enter {
    /// The node is decided (or the budget stopped): its value.
    Over(i64),
    /// The node is searched; the opponent's single five cell, the block to play, if any.
    Open(Option<u16>),
}

/// One root move with its value from the last completed iteration.
#[derive(Copy, Clone, Debug)]
pub struct RootMove {
    pub cell: u16,
    pub value: i64,
    /// The depth `value` was searched to (0: not searched yet).
    pub depth: u32,
    /// Whether `value` is the move's value at `depth` or only a bound of it (a move
    /// refuted by the null window of the principal-variation search: at most `value`).
    pub bound: Bound,
}

impl RootMove {
    /// A mark on `cell`, not searched yet.
    pub fn new(cell: u16) -> RootMove {
        RootMove {
            cell,
            value: 0,
            depth: 0,
            bound: Bound::Exact,
        }
    }

    /// The move valued as an answer shows it: at its depth (at least 1), with its bound,
    /// its outcome unknown and its score held inside the mate scores (search values near
    /// a win are not proofs: inner nodes see only the best moves).
    pub fn move_eval(&self) -> MoveEval {
        let eval = Evaluation {
            score: self.value.clamp(-PATTERN_MATE, PATTERN_MATE) as f64,
            outcome: Outcome::Unknown,
            plies: None,
        };
        MoveEval {
            bound: self.bound,
            ..MoveEval::searched(Move::mark(self.cell as usize), eval, self.depth.max(1))
        }
    }
}

impl PatternSearch {
    /// A searcher for `position` (which must hold no special pieces in hand), over the
    /// window count.
    pub fn new(position: &Position, tt_entries: usize) -> PatternSearch {
        PatternSearch::evaluating(position, tt_entries, EvalChoice::Window)
    }

    /// [`PatternSearch::new`] with the static evaluation `eval`.
    pub fn evaluating(position: &Position, tt_entries: usize, eval: EvalChoice) -> PatternSearch {
        PatternSearch::with_table(position, Arc::new(Table::new(tt_entries)), eval)
    }

    fn with_table(position: &Position, tt: Arc<Table>, eval: EvalChoice) -> PatternSearch {
        let learned = eval.learned(&position.rules());
        let b = match learned {
            Some(l) => PatternBoard::new(position).with_cells(Some(l)),
            None => PatternBoard::new(position).with_codes(),
        };
        let geo = Arc::clone(b.geometry());
        let ring = rings(&geo);
        let mut near = vec![0u8; geo.cells()];
        for (c, around) in ring.iter().enumerate() {
            if b.cells()[c] != EMPTY {
                for &r in around {
                    near[r as usize] += 1;
                }
            }
        }
        // The distance from the centre is twice the larger of the row and column offsets.
        let tie = (0..geo.cells())
            .map(|c| {
                let (row, col) = (c / geo.m, c % geo.m);
                let rows = (2 * row).abs_diff(geo.n - 1);
                let cols = (2 * col).abs_diff(geo.m - 1);
                ((rows.max(cols) as u32) << 16) | c as u32
            })
            .collect();
        let pieces = b.cells().iter().filter(|&&c| c != EMPTY).count();
        PatternSearch {
            tie,
            pieces,
            lists: vec![Vec::new(); MAX_PLY],
            side: position.to_move().index(),
            history: vec![0; geo.cells()],
            attack_history: vec![0; 2 * geo.cells()],
            solver: Solver::new(b),
            near,
            ring,
            tt,
            killers: [[u16::MAX; 2]; MAX_PLY],
            wins: Vec::new(),
            defence: Vec::new(),
            threat_scratch: Vec::new(),
            refill_scratch: Vec::new(),
            tactics: Tactics::default(),
            counters: SearchCounters::default(),
            evals: [NO_EVAL; MAX_PLY],
            improving: [true; MAX_PLY],
            forced_at: [false; MAX_PLY],
            replies: [0; MAX_PLY],
            learned: learned.is_some(),
            eval_choice: eval,
            chosen_root: false,
            path: Vec::with_capacity(MAX_PLY),
            quiet: Default::default(),
        }
    }

    /// A searcher that starts from the table the last search by time left in `kept` (a
    /// game's previous move most often) when it was filled under the same rules. Entries
    /// are keyed by the whole position, so an old entry is still right; it only saves
    /// searching that subtree again. [`PatternSearch::leave_table`] puts it back.
    pub fn keeping_table(
        position: &Position,
        tt_entries: usize,
        kept: &mut KeptTable,
        eval: EvalChoice,
    ) -> PatternSearch {
        let key = position.geometry().key();
        let size = table_size(tt_entries);
        let tt = kept
            .0
            .take()
            .filter(|(k, t)| *k == key && t.len() == size)
            .map(|(_, t)| t)
            .unwrap_or_else(|| Arc::new(Table::new(size)));
        PatternSearch::with_table(position, tt, eval)
    }

    /// The static evaluation this searcher uses.
    pub fn eval_choice(&self) -> EvalChoice {
        self.eval_choice
    }

    /// Leaves this search's table in `kept` for the next search.
    pub fn leave_table(&mut self, kept: &mut KeptTable) {
        let key = self.solver.board.geometry().key();
        kept.0 = Some((key, Arc::clone(&self.tt)));
    }

    fn play(&mut self, c: usize) {
        self.solver.board.put(c, stone(self.side));
        self.path.push(c as u16);
        self.pieces += 1;
        for i in 0..self.ring[c].len() {
            self.near[self.ring[c][i] as usize] += 1;
        }
        self.side ^= 1;
    }

    fn undo(&mut self, c: usize) {
        self.side ^= 1;
        self.solver.board.take(c);
        self.path.pop();
        self.pieces -= 1;
        for i in 0..self.ring[c].len() {
            self.near[self.ring[c][i] as usize] -= 1;
        }
    }

    /// The line codes the board keeps (k <= 5; else the board's own pass over the
    /// windows scores cells).
    #[inline]
    fn codes(&self) -> Option<&LineCodes> {
        self.solver.board.codes()
    }

    /// The static value for the side to move: the learned evaluation where the board
    /// sums one (thousandths of a logit of the side to move's expected result), else the
    /// window scores, the side to move's counting half again since it moves first.
    pub fn eval(&self) -> i64 {
        if self.learned {
            if let Some(cells) = self.solver.board.cell_eval() {
                return cells.eval(self.side);
            }
        }
        window_value(self.solver.board.score(), self.side)
    }

    fn key(&self) -> u64 {
        self.solver.board.hash() ^ if self.side == 1 { SIDE_KEY } else { 0 }
    }

    /// What every node of the alpha-beta and of the quiescence reads first: the
    /// budget's tick (0 once it stopped), the node count, a five of the side to move's
    /// own on the board (a win), the ply cap (the static value), and the cells where the
    /// opponent makes five: two or more lose, one is the forced block.
    #[inline(always)]
    fn enter(&mut self, budget: &mut Budget, ply: usize) -> Enter {
        if budget.tick() {
            return Enter::Over(0);
        }
        self.counters.nodes += 1;
        let me = self.side;
        if self.solver.board.has_win(me) {
            return Enter::Over(PATTERN_WIN - ply as i64 - 1);
        }
        if ply >= MAX_PLY - 1 {
            return Enter::Over(self.eval());
        }
        let mut wins = std::mem::take(&mut self.wins);
        self.solver.board.win_cells(me ^ 1, &mut wins);
        let node = match wins[..] {
            [] => Enter::Open(None),
            [f] => Enter::Open(Some(f)),
            _ => Enter::Over(-(PATTERN_WIN - ply as i64 - 2)),
        };
        self.wins = wins;
        node
    }

    /// Negamax with alpha-beta (principal variation search) within `budget`; 0 once the
    /// budget stopped.
    ///
    /// Longer than the house limit on purpose: it is the pattern search's hot path, and
    /// its stages (the table probe, the leaf's threat checks, move generation by threat
    /// class, the move loop with its reductions) share the node's locals, which
    /// separate functions would have to pass along at every node.
    pub fn negamax(
        &mut self,
        budget: &mut Budget,
        mut depth: i32,
        ply: usize,
        mut alpha: i64,
        beta: i64,
    ) -> i64 {
        let forced = match self.enter(budget, ply) {
            Enter::Over(v) => return v,
            Enter::Open(forced) => forced,
        };
        let me = self.side;
        self.forced_at[ply] = forced.is_some();
        self.evals[ply] = NO_EVAL;
        let replies = if ply == 0 { 0 } else { self.replies[ply - 1] } + forced.is_some() as u32;
        self.replies[ply] = replies;
        let exact = self.exact_threats();
        if forced.is_none() && exact && self.tactics.verdicts {
            if let Some(v) = self.verdict(ply) {
                self.counters.verdicts += 1;
                return v;
            }
        }
        if forced.is_none() && depth <= 0 {
            return self.leaf(budget, ply, alpha, beta);
        }
        let three = forced.is_none() && self.has_three(me ^ 1);
        // The opponent holds a four-three and no three: a quiet node unless its
        // defences are the only moves (`defences=only`; see [`threats`]).
        let four_three = forced.is_none()
            && !three
            && exact
            && self
                .solver
                .board
                .cell_eval()
                .is_some_and(|e| e.threats(me ^ 1, Threat::FourThree) > 0);
        if four_three {
            self.counters.opponent_four_three += 1;
        }
        if self.pieces == self.solver.board.cells().len() {
            return 0;
        }
        let key = self.key();
        let slot = self.tt.slot(key);
        let e = self.tt.read(slot);
        let mut tt_move = u16::MAX;
        if e.key == key {
            tt_move = e.best;
            if e.depth as i32 >= depth {
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
        }
        let sel = self.tactics.depth;
        // Razoring: a quiet null-window node near the leaves whose static value lies far
        // below alpha reads the quiescence first (its fours and the opponent's blocks)
        // and returns its value where that fails low too. Not against a five, a three
        // or a four-three (the stand-pat would ignore them), not where alpha is a mate
        // bound, and never a mate value (the quiescence's stand-pat gives none here).
        if sel.razor
            && forced.is_none()
            && !three
            && !four_three
            && exact
            && self.learned
            && self.tactics.quiescence == Quiescence::Vcf
            && depth <= RAZOR_DEPTH
            && beta - alpha == 1
            && alpha.abs() < PATTERN_MATE
        {
            let e = self.eval();
            self.evals[ply] = e;
            if e + razor_margin(depth) < alpha {
                let v = self.leaf(budget, ply, alpha, beta);
                if budget.stopped() {
                    return 0;
                }
                if v <= alpha && v > -PATTERN_MATE {
                    return v;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        let mut staged = false;
        // Only the defences against a four-three are searched here.
        let mut guarded = false;
        if four_three && self.tactics.defences == Defences::Only {
            let mut cells = std::mem::take(&mut self.defence);
            cells.clear();
            if self.four_three_defences(&mut cells) {
                guarded = true;
                let mut fours = std::mem::take(&mut self.wins);
                self.solver.board.four_moves(me, &mut fours);
                for &c in &fours {
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
                self.wins = fours;
                self.score_answers(ply, tt_move, &cells, &mut moves);
            }
            self.defence = cells;
        }
        if forced.is_none() && !three && !guarded && (sel.move_count || sel.futility) {
            // (Read already where razoring asked for it.)
            let e = match self.evals[ply] {
                NO_EVAL => self.eval(),
                e => e,
            };
            self.evals[ply] = e;
            let improving = ply < 3 || self.evals[ply - 2] == NO_EVAL || e > self.evals[ply - 2];
            self.improving[ply] = improving;
            // Child futility: far enough above beta that no quiet move is expected to
            // fall below it; never against a threat, never where beta is a mate bound
            // (no unproven win, and a side that is mated has no non-losing move), nor
            // after two own fours in a row (an attack under way).
            if sel.futility
                && self.learned
                && !four_three
                && beta - alpha == 1
                && beta.abs() < PATTERN_MATE
                && !(ply >= 3 && self.forced_at[ply - 1] && self.forced_at[ply - 3])
                && e - FUTILITY_MARGIN * (depth - improving as i32) as i64 >= beta
            {
                self.lists[ply] = moves;
                return e;
            }
        }
        // Whether the quiet list was cut to the width (a loss of every move kept is no
        // proof then).
        let mut truncated = false;
        match forced {
            Some(f) => moves.push((0, f)),
            None if guarded => {}
            None if three => {
                // The opponent threatens an open four: only a four of one's own, or a
                // mark in a window of theirs missing two marks (through one threatened
                // cell where the board keeps threat classes; with `defences` on, the
                // cells common to every threatened cell's windows), can answer it.
                let mut cells = std::mem::take(&mut self.wins);
                self.solver.board.four_moves(me, &mut cells);
                if exact && self.tactics.defences != Defences::Off {
                    let mut common = std::mem::take(&mut self.defence);
                    common.clear();
                    self.common_three_defences(&mut common);
                    for &c in &common {
                        if !cells.contains(&c) {
                            cells.push(c);
                        }
                    }
                    self.defence = common;
                } else if !self.three_defences(&mut cells) {
                    self.solver
                        .board
                        .cells_of_class(me ^ 1, 2, &mut cells, false);
                }
                self.score_answers(ply, tt_move, &cells, &mut moves);
                self.wins = cells;
                if moves.is_empty() {
                    // No cell stops every three and there is no four to play: the
                    // opponent's flex four comes next.
                    self.lists[ply] = moves;
                    return -(PATTERN_WIN - ply as i64 - 4);
                }
            }
            // A quiet node with a move from the table tries that move alone first: when
            // it refutes the node (most often it does) the other moves are never
            // generated, which saves scoring every cell near a piece.
            None if tt_move != u16::MAX && self.solver.board.cells()[tt_move as usize] == EMPTY => {
                moves.push((i64::MAX, tt_move));
                staged = true;
            }
            None => truncated = self.quiet_moves(ply, depth, &mut moves),
        }
        if self.solver.board.restricts(me) {
            if let Some(v) = self.keep_allowed(ply, &mut moves, &mut staged, forced.is_some()) {
                self.lists[ply] = moves;
                return v;
            }
        }
        let alpha0 = alpha;
        let mut best = -PATTERN_WIN;
        let mut best_move = moves[0].1;
        // The block of a five costs no depth; with `reply_ext` every third on the line
        // gains a ply (a forced reply worth 1.3 plies).
        let mut next = match forced {
            Some(_) if sel.reply_ext && replies % 3 == 0 => depth + 1,
            Some(_) => depth,
            None => depth - 1,
        };
        let mut i = 0;
        loop {
            if i == moves.len() && staged {
                // The table's move did not refute the node: the list is refilled with
                // the rest, behind it.
                staged = false;
                truncated = self.quiet_moves(ply, depth, &mut moves);
                moves.retain(|m| m.1 != tt_move);
                moves.insert(0, (i64::MAX, tt_move));
            }
            if i == moves.len() && truncated && best <= -PATTERN_MATE {
                // Every move kept lost, but the width cut others: with `mate_safe`
                // (`shallow`: only near the leaves, where it is cheap) they are
                // searched too before the loss is claimed (and stored).
                truncated = false;
                self.counters.truncated_all_lose += 1;
                if self.tactics.mate_safe.refills(depth) || sel.move_count {
                    self.refill(&mut moves);
                } else {
                    self.counters.false_mates += 1;
                }
            }
            if i == moves.len() {
                break;
            }
            let c = moves[i].1;
            // What the move threatens: -1 where it makes a three or four of one's own
            // (an attack: `log_lmr` reduces it a ply less, `attack_history` counts it
            // apart), 1 where it makes no threat for either side (`log_lmr` reduces it a
            // ply more).
            let attack = match self.solver.board.cell_eval() {
                Some(e) if sel.log_lmr || sel.attack_history => {
                    let own = e.threat_at(c as usize, me);
                    let theirs = e.threat_at(c as usize, me ^ 1);
                    if own != Threat::Quiet {
                        -1
                    } else if theirs == Threat::Quiet {
                        1
                    } else {
                        0
                    }
                }
                _ => 0,
            };
            self.play(c as usize);
            let v = if i == 0 {
                -self.negamax(budget, next, ply + 1, -beta, -alpha)
            } else {
                // Late moves of a quiet node are first searched a ply shallower (two for
                // the latest at a large depth); only one that beats alpha there is
                // searched again at full depth.
                let late = i >= FULL_DEPTH_MOVES
                    && forced.is_none()
                    && !three
                    && !guarded
                    && depth >= REDUCE_FROM_DEPTH
                    && c != tt_move;
                let r = if sel.log_lmr {
                    (log_reduction(depth, i + 1) + attack).clamp(0, next)
                } else if self.learned && i >= DEEPER_REDUCTION.0 && depth >= DEEPER_REDUCTION.1 {
                    2
                } else {
                    1
                };
                let shallow = if late && r > 0 {
                    Some(-self.negamax(budget, next - r, ply + 1, -alpha - 1, -alpha))
                } else {
                    None
                };
                let v = match shallow {
                    Some(v) if v <= alpha => v,
                    _ => -self.negamax(budget, next, ply + 1, -alpha - 1, -alpha),
                };
                if v > alpha && v < beta {
                    -self.negamax(budget, next, ply + 1, -beta, -alpha)
                } else {
                    v
                }
            };
            self.undo(c as usize);
            if budget.stopped() {
                self.lists[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_move = c;
            }
            if v > alpha {
                alpha = v;
                // `alpha_reduce`: a move that raised alpha makes the rest less likely
                // to matter; they are searched a ply shallower.
                if sel.alpha_reduce
                    && v < beta
                    && forced.is_none()
                    && depth > 2
                    && depth < 12
                    && v.abs() < PATTERN_MATE
                {
                    depth -= 1;
                    next -= 1;
                }
            }
            if alpha >= beta {
                if forced.is_none() {
                    let k = &mut self.killers[ply];
                    if k[0] != c {
                        k[1] = k[0];
                        k[0] = c;
                    }
                    let bonus = (depth * depth).max(1) as u32;
                    if sel.attack_history && attack < 0 {
                        self.attack_history[me * self.history.len() + c as usize] += bonus;
                    } else {
                        self.history[c as usize] += bonus;
                    }
                }
                break;
            }
            i += 1;
        }
        self.lists[ply] = moves;
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt.write(
            slot,
            Entry {
                key,
                value: to_tt(best, ply),
                depth: depth as i16,
                bound,
                best: best_move,
            },
        );
        best
    }
}

/// For every cell, the cells within two steps (king moves), itself excluded.
fn rings(geo: &Geometry) -> Vec<Vec<u16>> {
    (0..geo.cells())
        .map(|c| {
            let mut v = Vec::with_capacity(24);
            for dr in -2isize..=2 {
                for dc in -2isize..=2 {
                    if dr == 0 && dc == 0 {
                        continue;
                    }
                    if let Some(x) = geo.offset(c, dr, dc) {
                        v.push(x as u16);
                    }
                }
            }
            v
        })
        .collect()
}

mod cells;
mod lines;
mod moves;
mod quiesce;
mod renju;
mod smp;
mod table;
#[cfg(test)]
mod tests;
mod threats;

impl Drop for PatternSearch {
    fn drop(&mut self) {
        self.counters.flush();
    }
}
