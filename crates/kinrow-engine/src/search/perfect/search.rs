//! The exact search: negamax with alpha-beta over game values.
//!
//! A value is from the side to move's view: `PERFECT_WIN - p` for a win on move number `p`
//! (counted from the root, so faster wins are bigger), `0` for a draw, `-(PERFECT_WIN - p)` for a
//! loss on move `p`. Searching with the window `(-1, 1)` decides win/draw/loss only;
//! a wider window also pins the number of plies.
//!
//! At every node, before any move is tried:
//! - a move that wins now ends the search (`PERFECT_WIN - (ply + 1)`);
//! - two distinct opponent threats (cells where a mark wins for them) lose;
//!   exactly one forces the reply onto that cell (unless the mover can clear pieces);
//! - bounds while nobody holds remove or bomb: Erdős–Selfridge (the opponent's
//!   potential `sum 2^-missing` below 1 means they can never complete a line; one's own
//!   below 1/2 with the move means one never can), also one move ahead (after the mover's
//!   best cell for it: own potential below 1, or the opponent's below 1/2, with the
//!   opponent to move), windows needing more marks than their owner has moves left count
//!   as dead, and the fewest moves any line still needs bounds how soon a win can come;
//! - deadlines: where only a win counts for the mover (alpha at 0 or more), every
//!   result after ply `PERFECT_WIN - alpha - 1` is at most alpha; where the mover only needs
//!   not to lose (beta at 0 or less), every result after ply `PERFECT_WIN + beta - 1` is at
//!   least beta. So a window (of either player) that misses more marks than its owner
//!   can place by then counts as dead for everything above (threats, bounds, pairings,
//!   move order), and the node's result is clamped to its window (a bound at the edge
//!   is all that stays sure). The ply-pinning searches gain most (6,5,4: 79k to 71k
//!   nodes);
//! - a mark that leaves two different winning cells (a "double"), with no threat of
//!   the opponent's to answer, wins on the third ply; without a double, the mover
//!   cannot win before the fifth ply (each threat made is blocked at once), nor the
//!   opponent before the sixth (the fourth if they have a double);
//! - pairing strategies: when the opponent's open windows, after the mover's mark on
//!   one of the cells most of them go through, can each be given a pair of empty cells
//!   inside it, all pairs disjoint, the opponent can never complete a line (the mover
//!   answers one cell of a pair with the other), so the mover does not lose (not tried
//!   when the opponent has as many open windows as empty cells or more);
//!   where only a win counts for the mover (alpha at 0 or more), each of the mover's
//!   marks is first checked that way from the node itself, and a mark the opponent
//!   answers by pairing is not searched at all (its child would only find the same
//!   pairing);
//! - the transposition table, keyed by the canonical (symmetry-reduced) hash.
//!
//! When the opponent has a cell whose mark would leave them two different winning
//! cells, only that cell, those winning cells and the mover's own threat-making moves
//! can avoid a loss: the other moves are not searched.
//!
//! A mark that leaves the opponent exactly one winning cell to block (and them no
//! threat of their own, nor a block piece) is followed at once by that block: the
//! position in between is never a node of its own.
//!
//! Moves are ordered by a line-potential score of their cell: every still-open window
//! through it, for either player, weighted by how full it already is; where only a win
//! counts for the mover (alpha at 0 or more), their own windows weigh as if they held
//! one more mark (6,5,4: 163k to 113k nodes), and the mark that last refuted a node at
//! the same ply (the "killer") counts a quarter more (113k to 79k). Empty cells on no
//! open window ("dead" cells) are all alike, so only one of them is tried.

use crate::core::budget::Budget;
use crate::core::tt::{from_tt, pack_move, to_tt, unpack_move, Bound, TranspositionTable};
use kinrow_game::{Move, Piece};

use super::bits::{cells, Bits};
use super::board::{Layout, State};

mod pairing;
mod quick;
mod scan;

use quick::Quick;

/// The value of a win on move 0; a win on move `p` is worth `PERFECT_WIN - p`.
pub const PERFECT_WIN: i32 = 1 << 24;
const MATE: i64 = (PERFECT_WIN / 2) as i64;
/// The exact solver over one board shape.
pub struct Solver<'a, B: Bits> {
    pub shape: &'a Layout<B>,
    pub tt: TranspositionTable,
    pub budget: &'a mut Budget,
    /// Set once the budget stopped the search: every value since is meaningless.
    pub aborted: bool,
    /// The deepest ply reached.
    pub max_ply: u32,
    lists: Vec<Vec<(u64, Move)>>,
    scores: Vec<u32>,
    /// True once `es` holds the last scan's weights for that player.
    es_ready: [bool; 2],
    /// Per cell and player: the Erdős–Selfridge weight (`2^-missing`) of that player's
    /// open windows through the cell: what a mark there adds to their potential, or
    /// takes away from it when the other side plays there.
    es: Vec<[f64; 2]>,
    /// Per player, the empty cells of each window they can still complete (from the
    /// last scan with scores): the input of [`Solver::pairs_after_mark`].
    open: [Vec<B>; 2],
    /// How many marks of its owner each window of `open` already holds.
    open_own: [Vec<u8>; 2],
    /// Per cell and player: the cells where a mark of that player would win once they
    /// have also marked this cell (the other empty cell of each of their open windows
    /// that lacks two marks, one of them here). From the last scan with scores.
    makes: Vec<[B; 2]>,
    /// Per player and cell: how often a mark there refuted a node where it was not
    /// the first move tried (breaks ties of the static ordering).
    history: [Vec<u32>; 2],
    /// Per ply, the cell of the mark that last refuted a node there (a "killer"):
    /// it often refutes its siblings too.
    killers: Vec<usize>,
    /// Per ply, the mover's `makes` at the node there (the children's scans overwrite
    /// the solver's own).
    kept_makes: Vec<Vec<B>>,
    /// Set for a child whose parent already looked for a pairing after it.
    skip_pairing: bool,
    /// Per ply, what the node there keeps to refute its marks by pairing.
    quick: Vec<Quick<B>>,
    /// Per cell, the windows of the pairing search's list that go through it.
    through: Vec<u64>,
}

impl<'a, B: Bits> Solver<'a, B> {
    pub fn new(shape: &'a Layout<B>, tt: TranspositionTable, budget: &'a mut Budget) -> Self {
        Solver {
            shape,
            tt,
            budget,
            aborted: false,
            max_ply: 0,
            lists: Vec::new(),
            scores: vec![0; shape.cells],
            es_ready: [false; 2],
            es: vec![[0.0; 2]; shape.cells],
            open: [Vec::new(), Vec::new()],
            open_own: [Vec::new(), Vec::new()],
            through: vec![0; shape.cells],
            quick: Vec::new(),
            skip_pairing: false,
            kept_makes: Vec::new(),
            history: [vec![0; shape.cells], vec![0; shape.cells]],
            killers: Vec::new(),
            makes: vec![[B::default(); 2]; shape.cells],
        }
    }

    /// The exact value of `st` (from its side to move's view) if it lies inside
    /// `(alpha, beta)`; otherwise a bound on the side of the window it fell out of.
    pub fn search(&mut self, st: &State<B>, ply: u32, alpha: i32, beta: i32) -> i32 {
        let marks = self.deadline_marks(st, ply, alpha, beta);
        let v = self.node(st, ply, alpha, beta, marks);
        if marks == [u32::MAX; 2] {
            v
        } else {
            // Searched without the windows that only fill too late: only a bound at the
            // window's edge is sure.
            v.clamp(alpha, beta)
        }
    }

    /// Per player, how many more marks they can place while the game's result still
    /// matters for the window `(alpha, beta)` (`u32::MAX`: no limit). Where only a win
    /// counts for the mover (alpha at 0 or more), every result after ply
    /// `PERFECT_WIN - alpha - 1` is at most alpha (a later win, a draw, any loss); where the
    /// mover only needs not to lose (beta at 0 or less), every result after ply
    /// `PERFECT_WIN + beta - 1` is at least beta. A window that misses more marks than its
    /// owner can place by then can only end the game too late to matter.
    fn deadline_marks(&self, st: &State<B>, ply: u32, alpha: i32, beta: i32) -> [u32; 2] {
        let mut marks = [u32::MAX; 2];
        let deadline = if alpha >= 0 {
            PERFECT_WIN as i64 - alpha as i64 - 1
        } else if beta <= 0 {
            PERFECT_WIN as i64 + beta as i64 - 1
        } else {
            return marks;
        };
        // Plies left after this node's until the deadline.
        let plies = deadline - ply as i64;
        if st.can_clear() || plies > self.shape.cells as i64 {
            return marks;
        }
        let plies = plies.max(0) as u32;
        // The mover's marks land on the first, third, ... of them; the opponent's on
        // the second, fourth, ...
        marks[st.side] = plies.div_ceil(2);
        marks[st.side ^ 1] = plies / 2;
        marks
    }

    /// [`Solver::search`] with every window that misses more than `marks[p]` marks of
    /// its owner `p` counted as dead.
    ///
    /// Longer than the house limit on purpose: this is the solver's hot path, and its
    /// stages (the cut-offs and bounds, the forced answers, move generation, the move
    /// loop) share one scan, one table probe and one move list on the stack, which
    /// separate functions would have to pass along at every node.
    fn node(&mut self, st: &State<B>, ply: u32, alpha: i32, beta: i32, marks: [u32; 2]) -> i32 {
        let skip_pairing = std::mem::take(&mut self.skip_pairing);
        if self.budget.tick() {
            self.aborted = true;
            return 0;
        }
        self.max_ply = self.max_ply.max(ply);
        let shape = self.shape;
        let ply_i = ply as i32;
        // Nobody can win before their own next move.
        let mut lb = -(PERFECT_WIN - (ply_i + 2));
        let mut ub = PERFECT_WIN - (ply_i + 1);

        let (key, sym) = shape.canonical(st);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            let v = from_tt(e.value, ply as i64, MATE) as i32;
            match e.bound {
                Bound::Exact => return v,
                Bound::Lower => lb = lb.max(v),
                Bound::Upper => ub = ub.min(v),
            }
            if lb >= beta || lb >= ub {
                return lb;
            }
            if ub <= alpha {
                return ub;
            }
            tt_move = unpack_move(e.mv).map(|mv| {
                let back = &shape.maps[shape.inverse[sym]];
                Move::new(back[mv.cell()] as usize, mv.piece)
            });
        }

        let me = st.side;
        let opp = me ^ 1;
        let scan = self.scan_within(st, true, marks);
        if !scan.threats[me].none() {
            return PERFECT_WIN - (ply_i + 1);
        }
        if !st.has_move(shape.full) {
            return 0;
        }
        let hand = st.hands[me];
        let i_can_clear = hand.remove > 0 || hand.bomb > 0;
        let threats = scan.threats[opp];
        if !i_can_clear && threats.count() >= 2 {
            return -(PERFECT_WIN - (ply_i + 2));
        }
        let empties = shape.full & !st.occupied();
        let clearing = st.can_clear();
        // Who has a mark that would leave two different winning cells ("a double")?
        let knows_doubles = !clearing && shape.overline;
        let (my_double, their_double) = if knows_doubles {
            (scan.doubles[me], scan.doubles[opp])
        } else {
            (true, true)
        };
        if threats.none() && knows_doubles && my_double {
            // A mark that leaves two different winning cells wins on the third ply: the
            // opponent has no threat to answer with and can block only one of them.
            return PERFECT_WIN - (ply_i + 3);
        }
        if knows_doubles {
            // Without a double, a mark leaves at most one winning cell, which the other
            // side blocks at once: I cannot win before the fifth ply. And the opponent
            // (with one threat at most, which I block) cannot win before the sixth ply,
            // or the fourth if they have a double. (Marks only ever take windows away
            // from the other side, so neither gains a double it does not have now.)
            if !my_double {
                ub = ub.min(PERFECT_WIN - (ply_i + 5));
            }
            lb = lb.max(-(PERFECT_WIN - (ply_i + if their_double { 4 } else { 6 })));
        }
        // (Without a double of the opponent's, every move is an answer.)
        let answers = if threats.none() && knows_doubles && their_double {
            self.answers_to_doubles(me, empties)
        } else {
            None
        };
        if answers.is_some_and(|a| a.none()) {
            // Nothing stops the opponent's double threat, and they have no way to win
            // sooner: they make it on the second ply and win on the fourth.
            return -(PERFECT_WIN - (ply_i + 4));
        }
        if !clearing {
            let left = empties.count();
            let (mine_left, theirs_left) = (left.div_ceil(2), left / 2);
            // Erdős–Selfridge now, and one move ahead: after my mark on the best cell
            // for it, my potential must reach 1 with them to move for me to have a
            // chance, and theirs must stay at 1/2 or more with them to move for them.
            // (A bound that cannot cut nor narrow the window is not worked out: no
            // per-cell weights for "I cannot win" when beta is 0 or less, nor for "they
            // cannot win" when alpha is 0 or more.)
            let (mine, theirs) = (scan.potential[me], scan.potential[opp]);
            let i_can_win = mine >= 0.5
                && scan.missing[me] <= mine_left
                && (mine >= 1.0 || beta <= 0 || mine + self.swing(me) >= 1.0);
            let they_can_win = theirs >= 1.0
                && scan.missing[opp] <= theirs_left
                && (alpha >= 0 || theirs - self.swing(opp) >= 0.5);
            ub = ub.min(if i_can_win {
                PERFECT_WIN - (ply_i + 2 * scan.missing[me] as i32 - 1)
            } else {
                0
            });
            lb = lb.max(if they_can_win {
                -(PERFECT_WIN - (ply_i + 2 * scan.missing[opp] as i32))
            } else {
                0
            });
        }
        if !clearing {
            // Pairing strategies: a side whose open windows hold disjoint pairs of
            // empty cells, one inside each, can never complete a line.
            if lb < 0 && alpha < 0 && !skip_pairing && self.pairs_after_mark(me, threats, empties) {
                lb = 0;
            }
        }
        if lb >= beta || lb >= ub {
            return lb;
        }
        if ub <= alpha {
            return ub;
        }
        let (a0, b0) = (alpha, beta);
        let mut alpha = alpha.max(lb);
        let beta = beta.min(ub);

        // Moves, best first.
        let mut list = std::mem::take(self.list(ply));
        list.clear();
        let killer = self.killer(ply);
        if !threats.none() && !i_can_clear {
            let c = threats.first();
            list.push((2, Move::mark(c)));
            if hand.block > 0 {
                list.push((1, Move::new(c, Piece::Block)));
            }
        } else {
            let targets = if clearing || !shape.overline {
                empties
            } else {
                let dead = empties & !scan.live;
                let one_dead = if dead.none() {
                    B::default()
                } else {
                    B::bit(dead.first())
                };
                let targets = (empties & scan.live) | one_dead;
                answers.map_or(targets, |a| a & targets)
            };
            // Where only a win counts, the mover's own lines come first.
            self.order_scores((alpha >= 0).then_some(me));
            for c in cells(targets) {
                let mut score = self.scores[c] as u64;
                if c == killer {
                    // The killer counts a quarter more.
                    score += score / 4;
                }
                let s = (score << 6)
                    + self.history[me][c].min(63) as u64
                    + if threats.has(c) { 1 << 40 } else { 0 };
                list.push((s, Move::mark(c)));
                if hand.block > 0 {
                    list.push((s / 2, Move::new(c, Piece::Block)));
                }
            }
            if hand.remove > 0 {
                for c in cells(st.marks[opp] | st.blocks) {
                    list.push((0, Move::new(c, Piece::Remove)));
                }
            }
            if hand.bomb > 0 {
                let occupied = st.occupied();
                for c in 0..shape.cells {
                    if !(shape.area[c] & occupied).none() {
                        list.push((0, Move::new(c, Piece::Bomb)));
                    }
                }
            }
            if let Some(tm) = tt_move {
                for e in list.iter_mut() {
                    if e.1 == tm {
                        e.0 = u64::MAX;
                    }
                }
            }
        }

        // A mark the opponent can always answer by pairing cannot win: when nothing short
        // of a win counts (alpha at 0 or more, from the start or once a move has reached
        // 0), such marks are refuted right here.
        let quick =
            !clearing && beta > 0 && list.len() > 1 && self.quick_setup(ply as usize, me, empties);
        // A mark that leaves the opponent exactly one winning cell to block, with no
        // threat of their own and no block piece to do it with, forces their reply: the
        // search goes straight to the position after both (see [`Solver::forced_reply`]).
        let compress = !clearing && shape.overline && st.hands[opp].block == 0;
        if compress {
            self.keep_makes(ply as usize, me);
        }
        let mut best = i32::MIN;
        let mut best_move = list[0].1;
        // Best first, picked one at a time: most nodes cut off after a move or two.
        for i in 0..list.len() {
            let mut top = i;
            for j in i + 1..list.len() {
                if list[j].0 > list[top].0 {
                    top = j;
                }
            }
            list.swap(i, top);
            let mv = list[i].1;
            let v = if quick
                && alpha >= 0
                && mv.piece == Piece::Mark
                && self.refuted_by_pairing(ply as usize, mv.cell())
            {
                0
            } else {
                let child = shape.play(st, mv);
                let reply = if compress && mv.piece == Piece::Mark {
                    self.forced_reply(ply as usize, mv.cell(), threats)
                } else {
                    None
                };
                if let Some(t) = reply {
                    let after = shape.play(&child, Move::mark(t));
                    self.search(&after, ply + 2, alpha, beta)
                } else {
                    // The child need not look for that pairing again.
                    self.skip_pairing = quick && alpha >= 0 && mv.piece == Piece::Mark;
                    -self.search(&child, ply + 1, -beta, -alpha)
                }
            };
            if self.aborted {
                *self.list(ply) = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        if mv.piece == Piece::Mark {
                            if i > 0 {
                                self.history[me][mv.cell()] += 1;
                            }
                            self.killers[ply as usize] = mv.cell();
                        }
                        break;
                    }
                }
            }
        }
        *self.list(ply) = list;

        let mut result = best.clamp(lb, ub);
        if marks != [u32::MAX; 2] {
            result = result.clamp(a0, b0);
        }
        let bound = if result <= a0 {
            Bound::Upper
        } else if result >= b0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let canonical_move = Move::new(shape.maps[sym][best_move.cell()] as usize, best_move.piece);
        self.tt.store(
            key,
            to_tt(result as i64, ply as i64, MATE),
            empties.count() as u16,
            bound,
            pack_move(canonical_move),
        );
        result
    }

    /// The cells where a move does not lose at once to a double threat, from the last
    /// scan with scores (`None`: all of them; only valid when nobody can clear cells,
    /// overlines count and the opponent has no threat now). When the opponent has a
    /// cell whose mark would leave them two different winning cells, the mover must
    /// take that cell now, or, if it would leave exactly two, one of those two; any
    /// other move lets the opponent play there and win on a winning cell left open.
    /// Unless the mover makes a threat of their own: those cells are always kept.
    /// An empty set means every move loses, on the fourth ply.
    fn answers_to_doubles(&self, me: usize, empties: B) -> Option<B> {
        let opp = me ^ 1;
        let mut answers = empties;
        let mut doubled = false;
        let mut counters = B::default();
        for c in cells(empties) {
            let made = self.makes[c][opp];
            let second = made.rest();
            if !second.none() {
                // Two winning cells or more.
                doubled = true;
                if second.rest().none() {
                    answers &= B::bit(c) | made;
                } else {
                    answers &= B::bit(c);
                }
            }
            if !self.makes[c][me].none() {
                counters |= B::bit(c);
            }
        }
        doubled.then_some(answers | counters)
    }

    /// Keeps the mover `me`'s `makes` (from the last scan with scores) for
    /// [`Solver::forced_reply`] at `ply`.
    fn keep_makes(&mut self, ply: usize, me: usize) {
        while self.kept_makes.len() <= ply {
            self.kept_makes.push(vec![B::default(); self.shape.cells]);
        }
        let kept = &mut self.kept_makes[ply];
        for (k, m) in kept.iter_mut().zip(&self.makes) {
            *k = m[me];
        }
    }

    /// The opponent's only reply to the mover's mark on `cell` at `ply`, when it is
    /// forced: the mark leaves exactly one winning cell for the mover, and the opponent
    /// has no winning cell of their own left (`threats`, before the mark) to take
    /// instead. The caller checks that nobody can clear cells, that overlines count (the
    /// `makes` are then the whole story) and that the opponent holds no block piece.
    /// Whatever else the opponent plays loses at once, so the position after the mark
    /// has the value of the position after the mark and that reply.
    fn forced_reply(&self, ply: usize, cell: usize, threats: B) -> Option<usize> {
        if !(threats & !B::bit(cell)).none() {
            return None;
        }
        let made = self.kept_makes[ply][cell];
        (!made.none() && made.rest().none()).then(|| made.first())
    }

    /// The killer cell at `ply` (`usize::MAX` while there is none); from then on a
    /// killer can be stored there.
    fn killer(&mut self, ply: u32) -> usize {
        let i = ply as usize;
        if self.killers.len() <= i {
            self.killers.resize(i + 1, usize::MAX);
        }
        self.killers[i]
    }

    fn list(&mut self, ply: u32) -> &mut Vec<(u64, Move)> {
        let i = ply as usize;
        while self.lists.len() <= i {
            self.lists.push(Vec::with_capacity(self.shape.cells));
        }
        &mut self.lists[i]
    }

    /// The move-ordering score of `cell` from the last [`Solver::order_scores`].
    pub fn score_of(&self, cell: usize) -> u32 {
        self.scores[cell]
    }

    /// The best move stored for `st`, if any (for the principal variation).
    pub fn stored_move(&self, st: &State<B>) -> Option<Move> {
        let (key, sym) = self.shape.canonical(st);
        let e = self.tt.probe(key)?;
        let mv = unpack_move(e.mv)?;
        let back = &self.shape.maps[self.shape.inverse[sym]];
        Some(Move::new(back[mv.cell()] as usize, mv.piece))
    }
}
