//! The depth-limited negamax with alpha-beta under the root: make/unmake on the
//! [`Position`], the window potential kept by the shared line board ([`PotentialBoard`]),
//! a transposition table with bounds and best moves, and the move generator with its
//! candidate restriction.
//!
//! Where the time goes, and what keeps it short:
//! - Most nodes are leaves under a node one ply above them (a *frontier* node). The
//!   incremental evaluation also keeps, per cell, the exact change a mark there would
//!   make ([`PotentialBoard::gain`]), so a frontier node values every child mark by a
//!   lookup instead of playing it ([`Searcher::frontier`]), and its value is exact.
//! - Ordering scores come from the same per-cell sums (the gain of a mark for either
//!   side, winning and four-stopping cells first), the table's move goes first, and
//!   moves after the first are tried with a null window (principal variation search).
//! - Candidate cells (empty, within [`RADIUS`] of a piece) are a bitset kept up to
//!   date by make/unmake, and the table grows with its contents (fresh pages cost).

use std::cmp::Reverse;

use crate::board::PotentialBoard;
use crate::core::budget::Budget;
use crate::core::tt::{from_tt, pack_move, to_tt, unpack_move, Bound, TranspositionTable};
use kinrow_game::codes::content_of;
use kinrow_game::{Cell, Move, Piece, Player, Position, Undo};

/// The value of a win on move 0; a win on move `p` scores `MINIMAX_WIN - p`. Far above any
/// potential (the board's `4^marks` is capped at `4^15`, so sums stay below 10^14).
pub const MINIMAX_WIN: i64 = 1_000_000_000_000_000;
/// Values beyond this are wins or losses.
pub const MATE: i64 = MINIMAX_WIN / 2;

/// Boards of at most this many cells are searched full-width: every legal move at
/// every node. Larger boards search only candidates (see [`Searcher::moves`]).
pub const FULL_WIDTH_CELLS: usize = 64;
/// Candidates lie within this many cells (king moves) of a piece.
const RADIUS: isize = 2;
/// Moves picked one at a time at a node before the rest are sorted.
const PICKED: usize = 3;

/// What one move changed: up to 9 cells (a bomb) with their contents before and after.
pub struct Change {
    undo: Undo,
    cells: [(u16, Cell, Cell); 9],
    len: usize,
}

/// The search state: the position, its incremental evaluation, the table and the budget.
pub struct Searcher<'a> {
    pub pos: Position,
    pub board: PotentialBoard,
    pub tt: TranspositionTable,
    pub budget: &'a mut Budget,
    /// True when every legal move is searched (small board): values are then exact
    /// within the depth, and mate scores are proofs.
    pub full_width: bool,
    /// For each cell, how many pieces lie within [`RADIUS`].
    near: Vec<u16>,
    /// For each cell, the cells within [`RADIUS`] (itself included), flat; `zone_at[c]`
    /// is where cell `c`'s run starts.
    zone: Vec<u16>,
    zone_at: Vec<u32>,
    /// One bit per cell: empty and a candidate for a mark (near a piece, or any empty
    /// cell when the search is full-width).
    candidates: Vec<u64>,
    lists: Vec<Vec<(i64, Move)>>,
    pub max_ply: u32,
}

impl<'a> Searcher<'a> {
    pub fn new(position: &Position, tt: TranspositionTable, budget: &'a mut Budget) -> Self {
        let cells = position.cells().len();
        let geo = position.geometry();
        let mut zone = Vec::new();
        let mut zone_at = Vec::with_capacity(cells + 1);
        for cell in 0..cells {
            zone_at.push(zone.len() as u32);
            for dr in -RADIUS..=RADIUS {
                for dc in -RADIUS..=RADIUS {
                    if let Some(c) = geo.offset(cell, dr, dc) {
                        zone.push(c as u16);
                    }
                }
            }
        }
        zone_at.push(zone.len() as u32);
        let mut s = Searcher {
            pos: position.clone(),
            board: PotentialBoard::new(position),
            tt,
            budget,
            full_width: cells <= FULL_WIDTH_CELLS,
            near: vec![0; cells],
            zone,
            zone_at,
            candidates: vec![0; cells.div_ceil(64)],
            lists: Vec::new(),
            max_ply: 0,
        };
        for c in 0..cells {
            s.refresh(c);
            if position.cell(c).is_piece() {
                s.touch(c, 1);
            }
        }
        s
    }

    /// Recomputes the candidate bit of `cell`.
    #[inline]
    fn refresh(&mut self, cell: usize) {
        let on = self.pos.cell(cell) == Cell::Empty && (self.full_width || self.near[cell] > 0);
        let (w, b) = (cell / 64, cell % 64);
        self.candidates[w] = (self.candidates[w] & !(1 << b)) | ((on as u64) << b);
    }

    /// Adds `delta` to the piece counts around `cell` (whose content just changed).
    #[inline]
    fn touch(&mut self, cell: usize, delta: i32) {
        let (from, to) = (self.zone_at[cell] as usize, self.zone_at[cell + 1] as usize);
        for i in from..to {
            let c = self.zone[i] as usize;
            let near = self.near[c] as i32 + delta;
            self.near[c] = near as u16;
            // another cell's bit changes only when its count leaves or reaches zero
            if near == (delta > 0) as i32 {
                self.refresh(c);
            }
        }
        self.refresh(cell);
    }

    /// Calls `f` on every candidate cell for a mark, in increasing order.
    #[inline]
    fn for_each_candidate(&self, mut f: impl FnMut(usize)) {
        for (w, &word) in self.candidates.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// Plays `mv` (legal) and updates the evaluation and the neighbourhood counts.
    pub fn make(&mut self, mv: Move) -> Change {
        let cell = mv.cell();
        // What the move may change: the target, and for a bomb its neighbours.
        let mut cells = [(0u16, Cell::Empty, Cell::Empty); 9];
        cells[0] = (cell as u16, self.pos.cell(cell), Cell::Empty);
        let mut n = 1;
        if mv.piece == Piece::Bomb {
            for &nb in self.pos.geometry().neighbours(cell) {
                cells[n] = (nb, self.pos.cell(nb as usize), Cell::Empty);
                n += 1;
            }
        }
        let undo = self.pos.play_unchecked(mv);
        let mut len = 0;
        for i in 0..n {
            let (c, old, _) = cells[i];
            let new = self.pos.cell(c as usize);
            if old != new {
                cells[len] = (c, old, new);
                len += 1;
            }
        }
        for &(c, _, new) in &cells[..len] {
            self.board.set(c as usize, content_of(new));
            self.touch(c as usize, if new.is_piece() { 1 } else { -1 });
        }
        Change { undo, cells, len }
    }

    /// Takes back the move that returned `ch`.
    pub fn unmake(&mut self, ch: Change) {
        self.pos.undo(ch.undo);
        for i in 0..ch.len {
            let (c, old, new) = ch.cells[i];
            self.board.set(c as usize, content_of(old));
            self.touch(c as usize, if new.is_piece() { -1 } else { 1 });
        }
    }

    /// The static value for the side to move, at a leaf (under gravity, with what gravity
    /// makes of the threats: [`Searcher::gravity_leaf`]).
    #[inline]
    pub fn leaf(&self, ply: u32) -> i64 {
        if self.pos.gravity() {
            return self.gravity_leaf(ply);
        }
        let me = self.pos.to_move();
        if self.pos.geometry().overline && self.board.fours(me.index()) > 0 {
            // a window missing one mark with no obstacle: a mark there wins now
            return MINIMAX_WIN - (ply as i64 + 1);
        }
        self.board.evaluate(me.index())
    }

    /// The static value of the legal move `mv` for the side to move: the leaf value
    /// after it, from the mover's side (a mark's by lookup, as in [`Searcher::frontier`]).
    pub fn static_value(&mut self, mv: Move) -> i64 {
        if mv.piece == Piece::Mark && self.pos.empties() >= 2 {
            let me = self.pos.to_move();
            let opp = me.opponent();
            let c = mv.cell();
            if self.pos.geometry().overline
                && self.board.fours(opp.index()) > self.board.completes(opp.index(), c)
            {
                -(MINIMAX_WIN - 2)
            } else {
                self.board.evaluate(me.index()) + self.board.gain(me.index(), c)
            }
        } else {
            let ch = self.make(mv);
            let v = -self.leaf(1);
            self.unmake(ch);
            v
        }
    }

    /// The ordering score of a mark (or block) on `cell`: what a mark there gains the
    /// side to move plus what it would gain the opponent (every open window through it,
    /// weighted by how full it is); completing or stopping a line first.
    #[inline]
    fn cell_score(&self, cell: usize, me: Player) -> i64 {
        let opp = me.opponent();
        let mut s = self.board.gain(me.index(), cell) + self.board.gain(opp.index(), cell);
        if self.board.completes(me.index(), cell) > 0 {
            s += 1 << 54;
        }
        if self.board.completes(opp.index(), cell) > 0 {
            s += 1 << 52;
        }
        s
    }

    /// The moves to search here, with ordering scores, into `out`. Full-width on small
    /// boards; otherwise marks on empty cells near a piece (the centre on an empty
    /// board), blocks on cells of the opponent's strong windows, removes of their marks
    /// in those windows and of blocks in one's own, bombs next to such marks.
    pub fn moves(&mut self, out: &mut Vec<(i64, Move)>) {
        out.clear();
        let me = self.pos.to_move();
        let cells = self.pos.cells().len();
        let any_piece = self.pos.empties() < cells as u32;
        if self.pos.gravity() {
            // Gravity (marks only): every column's landing cell, at most m moves.
            for c in (0..cells).filter(|&c| self.pos.playable(c)) {
                out.push((self.cell_score(c, me), Move::mark(c)));
            }
            return;
        }
        self.for_each_candidate(|c| out.push((self.cell_score(c, me), Move::mark(c))));
        if !any_piece && !self.full_width {
            // empty large board: the centre
            out.clear();
            out.push((0, Move::mark(self.centre())));
        }
        if self.board.restricts(me.index()) {
            // Renju, x to move: its forbidden cells are no moves (variants are marks only).
            let board = &mut self.board;
            out.retain(|&(_, mv)| !board.forbidden(0, mv.cell()));
        }
        let pos = &self.pos;
        let hand = pos.hand(me);
        let k = pos.k();
        if hand.is_empty() {
            return;
        }
        // Cells of strong windows: opponent's (to stop) and own blocked ones (to reopen).
        let strong = k.saturating_sub(2).max(1) as u8;
        let windows = pos.geometry().windows();
        let (mi, oi) = (me.index(), me.opponent().index());
        let mut hot = vec![false; cells];
        let mut reopen = vec![false; cells];
        for (wi, w) in windows.all.iter().enumerate() {
            let c = self.board.counts(wi);
            if c[2] == 0 && c[mi] == 0 && c[oi] >= strong {
                for &cell in w.cells.iter() {
                    hot[cell as usize] = true;
                }
            }
            if c[oi] == 0 && c[2] > 0 && c[mi] >= strong {
                for &cell in w.cells.iter() {
                    reopen[cell as usize] = true;
                }
            }
        }
        let opp_mark = Cell::Mark(me.opponent());
        for c in 0..cells {
            let here = pos.cell(c);
            let wide = self.full_width;
            if hand.block > 0 && here == Cell::Empty && (wide || hot[c]) {
                out.push((self.cell_score(c, me) / 2, Move::new(c, Piece::Block)));
            }
            if hand.remove > 0
                && ((here == opp_mark && (wide || hot[c]))
                    || (here == Cell::Block && (wide || reopen[c])))
            {
                out.push((1, Move::new(c, Piece::Remove)));
            }
            if hand.bomb > 0 {
                let geo = pos.geometry();
                let area_hot = hot[c] && here == opp_mark
                    || geo
                        .neighbours(c)
                        .iter()
                        .any(|&nb| hot[nb as usize] && pos.cell(nb as usize) == opp_mark);
                let legal = here.is_piece()
                    || geo
                        .neighbours(c)
                        .iter()
                        .any(|&nb| pos.cell(nb as usize).is_piece());
                if legal && (wide || area_hot) {
                    out.push((0, Move::new(c, Piece::Bomb)));
                }
            }
        }
    }

    /// Negamax with alpha-beta to `depth` plies; fail-soft. Returns 0 once the budget
    /// has stopped (the caller throws such results away).
    pub fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i64, beta: i64) -> i64 {
        if self.budget.tick() {
            return 0;
        }
        self.max_ply = self.max_ply.max(ply);
        let ply_i = ply as i64;
        if self.pos.winner().is_some() {
            // the previous move won
            return -(MINIMAX_WIN - ply_i);
        }
        if !self.pos.has_legal_move() {
            return 0;
        }
        if depth == 0 {
            return self.leaf(ply);
        }
        if depth >= 3 {
            // the table grows only in the first three quarters of the budget: a late
            // growth could overrun the deadline (these nodes are few, so the check is cheap)
            let late = self.budget.remaining() * 3 < self.budget.elapsed();
            self.tt.allow_growth(!late);
        }
        let key = self.pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = unpack_move(e.mv);
            if e.depth as u32 >= depth {
                let v = from_tt(e.value, ply_i, MATE);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        // (Not under gravity: the frontier values every empty cell, landing or not.)
        if depth == 1 && self.pos.empties() >= 2 && !self.pos.gravity() {
            return self.frontier(ply, key);
        }
        let a0 = alpha;
        let mut list = std::mem::take(self.list(ply));
        self.moves(&mut list);
        if let Some(tm) = tt_move {
            if let Some(e) = list.iter_mut().find(|e| e.1 == tm) {
                e.0 = i64::MAX;
            }
        }
        if list.is_empty() {
            // no candidate (a full large board where no special move aims at a strong
            // line): the static value
            *self.list(ply) = list;
            return self.leaf(ply);
        }
        let mut best = i64::MIN;
        let mut best_move = None;
        for i in 0..list.len() {
            // best first: the first few picked one by one (a cut often comes at once),
            // the rest sorted when the node turns out to need them
            if i < PICKED {
                let mut top = i;
                for j in i + 1..list.len() {
                    if list[j].0 > list[top].0 {
                        top = j;
                    }
                }
                list.swap(i, top);
            } else if i == PICKED {
                list[i..].sort_unstable_by_key(|e| Reverse(e.0));
            }
            let mv = list[i].1;
            let ch = self.make(mv);
            // principal variation search: the first move with the full window, the
            // others first with a null window (can they beat alpha at all?)
            let mut v;
            if i == 0 || beta - alpha <= 1 {
                v = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
            } else {
                v = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.budget.stopped() {
                    v = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
                }
            }
            self.unmake(ch);
            if self.budget.stopped() {
                *self.list(ply) = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        *self.list(ply) = list;
        let bound = if best <= a0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(
            key,
            to_tt(best, ply_i, MATE),
            depth as u16,
            bound,
            best_move.map(pack_move).unwrap_or(crate::core::tt::NO_MOVE),
        );
        best
    }

    /// A node one ply above the leaves (with at least two empty cells): every child's
    /// value without playing the marks. A mark's leaf value is the evaluation now plus
    /// its gain ([`PotentialBoard::gain`]); a mark that completes a line wins; with
    /// overline allowed, a mark that leaves the opponent an open window missing one
    /// mark loses at their next move, as [`Searcher::leaf`] says. Special-piece moves
    /// are played and evaluated. Every child is valued, so the result is exact: the
    /// same value as a full-window search of the node, found without ordering moves.
    /// The marks valued here are not positions visited: the node counts once towards
    /// `stats.nodes` and the node limit (special-piece moves, played, count too).
    fn frontier(&mut self, ply: u32, key: u64) -> i64 {
        let ply_i = ply as i64;
        let me = self.pos.to_move();
        let opp = me.opponent();
        let base = self.board.evaluate(me.index());
        let opp_fours = self.board.fours(opp.index());
        let overline = self.pos.geometry().overline;
        let cells = self.pos.cells().len();
        let any_piece = self.pos.empties() < cells as u32;
        let win_now = MINIMAX_WIN - (ply_i + 1);
        let mut best = i64::MIN;
        let mut best_move = None;
        let centre_only = !any_piece && !self.full_width;
        let restricted = self.board.restricts(me.index());
        'scan: for w in 0..self.candidates.len() {
            let mut bits = self.candidates[w];
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if centre_only && c != self.centre() {
                    continue;
                }
                if restricted && self.board.forbidden(me.index(), c) {
                    continue;
                }
                let v = if self.board.completes(me.index(), c) > 0 && self.pos.wins_at(c, me) {
                    win_now
                } else if overline && opp_fours > self.board.completes(opp.index(), c) {
                    -(MINIMAX_WIN - (ply_i + 2))
                } else {
                    base + self.board.gain(me.index(), c)
                };
                if v > best {
                    best = v;
                    best_move = Some(Move::mark(c));
                    if v == win_now {
                        break 'scan;
                    }
                }
            }
        }
        if best < win_now && !self.pos.hand(me).is_empty() {
            let mut list = std::mem::take(self.list(ply));
            self.moves(&mut list);
            for &(_, mv) in list.iter() {
                if mv.piece == Piece::Mark {
                    continue;
                }
                let ch = self.make(mv);
                let v = -self.negamax(0, ply + 1, -MINIMAX_WIN - 1, MINIMAX_WIN + 1);
                self.unmake(ch);
                if self.budget.stopped() {
                    *self.list(ply) = list;
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = Some(mv);
                }
            }
            *self.list(ply) = list;
        }
        if best_move.is_none() {
            // no candidate at all (cannot happen with two empty cells)
            return self.leaf(ply);
        }
        self.tt.store(
            key,
            to_tt(best, ply_i, MATE),
            1,
            Bound::Exact,
            best_move.map(pack_move).unwrap_or(crate::core::tt::NO_MOVE),
        );
        best
    }

    /// The centre cell: the only candidate on an empty large board.
    fn centre(&self) -> usize {
        (self.pos.n() / 2) * self.pos.m() + self.pos.m() / 2
    }

    fn list(&mut self, ply: u32) -> &mut Vec<(i64, Move)> {
        let i = ply as usize;
        while self.lists.len() <= i {
            self.lists.push(Vec::new());
        }
        &mut self.lists[i]
    }

    /// The table's best move for the current position, if it is legal here.
    pub fn stored_move(&self) -> Option<Move> {
        let e = self.tt.probe(self.pos.hash())?;
        unpack_move(e.mv).filter(|&mv| self.pos.is_legal(mv))
    }
}

#[cfg(test)]
mod tests;
