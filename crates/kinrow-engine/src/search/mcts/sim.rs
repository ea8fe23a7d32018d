//! The simulation board of `mcts`: a padded copy of the position built for speed.
//!
//! The board carries a one-cell wall around it, so runs along a line stop at the
//! edge without bounds checks. Besides the cells it keeps, incrementally:
//! - `near`: the empty cells within [`NEAR_RADIUS`] of some piece (every empty cell
//!   on small boards), the candidates for playout moves and tree moves;
//! - the shared line board ([`PlayoutBoard`], in plain cell indices): its sets of
//!   windows missing one mark answer "take an immediate win, stop an immediate loss"
//!   without a scan of the board, its window counts give the prior of a move, and its
//!   running `4^marks` sums the static value at the end of a playout.
//!
//! [`NEAR_RADIUS`]: super::shape::NEAR_RADIUS
//!
//! A search keeps one `Sim` of the root and copies it (reusing buffers) at the start
//! of every iteration; no move is ever undone.
//!
//! Renju: x never marks a forbidden cell, in the tree or in a playout (a random pick
//! that is forbidden moves on to the next allowed cell; a five of o that x could only
//! stop on a forbidden cell is left open).

use std::sync::Arc;

use super::shape::{FastRng, Shape};
use crate::board::PlayoutBoard;
use kinrow_game::{Cell, Hand, Move, Piece, Player, Position};

pub(super) const EMPTY: u8 = 0;
const BLOCK: u8 = 3;
const WALL: u8 = 4;
const NOT_LISTED: u16 = u16::MAX;

/// The simulation board.
#[derive(Clone)]
pub(super) struct Sim {
    pub shape: Arc<Shape>,
    cells: Vec<u8>,
    hands: [Hand; 2],
    /// 0 for x, 1 for o.
    to_move: usize,
    empties: u32,
    pieces: u32,
    near: Vec<u16>,
    near_pos: Vec<u16>,
    /// The same cells on the shared board (its blocks in hand are not kept).
    board: PlayoutBoard,
    /// Set once a mark completes a line: the winner's index.
    pub winner: Option<usize>,
    /// Gravity (marks only, free variant): moves are the columns' landing cells.
    gravity: bool,
    /// k and overline, for the win check at a landing cell under gravity.
    gravity_k: usize,
    overline: bool,
}

#[inline]
fn mark_of(player: usize) -> u8 {
    player as u8 + 1
}

impl Sim {
    /// Copies `position` (which may be over) into a simulation board.
    pub fn new(position: &Position) -> Sim {
        let shape = Arc::new(Shape::new(
            position.m(),
            position.n(),
            position.k() as usize,
        ));
        let total = shape.w * (shape.n + 2);
        let mut cells = vec![WALL; total];
        let mut empties = 0;
        for (i, &c) in position.cells().iter().enumerate() {
            cells[shape.pad(i)] = match c {
                Cell::Empty => {
                    empties += 1;
                    EMPTY
                }
                Cell::Mark(p) => mark_of(p.index()),
                Cell::Block => BLOCK,
            };
        }
        let pieces = (shape.m * shape.n) as u32 - empties;
        let mut sim = Sim {
            shape,
            cells,
            hands: [position.hand(Player::X), position.hand(Player::O)],
            to_move: position.to_move().index(),
            empties,
            pieces,
            near: Vec::new(),
            near_pos: vec![NOT_LISTED; total],
            board: PlayoutBoard::new(position),
            winner: position.winner().map(Player::index),
            gravity: position.gravity(),
            gravity_k: position.k() as usize,
            overline: position.geometry().overline,
        };
        sim.rebuild_near();
        sim
    }

    /// Makes `self` a copy of `other`, reusing the buffers.
    pub fn copy_from(&mut self, other: &Sim) {
        self.cells.clone_from(&other.cells);
        self.hands = other.hands;
        self.to_move = other.to_move;
        self.empties = other.empties;
        self.pieces = other.pieces;
        self.near.clone_from(&other.near);
        self.near_pos.clone_from(&other.near_pos);
        self.board.copy_from(&other.board);
        self.winner = other.winner;
    }

    /// The side to move (0 for x, 1 for o).
    #[inline]
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    /// The candidate empty cells (padded indices).
    #[inline]
    pub fn near(&self) -> &[u16] {
        &self.near
    }

    fn rebuild_near(&mut self) {
        for &p in &self.near {
            self.near_pos[p as usize] = NOT_LISTED;
        }
        self.near.clear();
        let shape = Arc::clone(&self.shape);
        let total = self.cells.len();
        if !shape.restrict {
            for p in 0..total {
                if self.cells[p] == EMPTY {
                    self.add_near(p);
                }
            }
            return;
        }
        if self.pieces == 0 {
            // The empty board: the cells around the centre.
            let centre = Shape::pad_rc(shape.w, shape.n / 2, shape.m / 2);
            self.add_near(centre);
            for &q in &shape.near_of[centre] {
                self.add_near(q as usize);
            }
            return;
        }
        for p in 0..total {
            let c = self.cells[p];
            if c != EMPTY && c != WALL {
                for &q in &shape.near_of[p] {
                    if self.cells[q as usize] == EMPTY {
                        self.add_near(q as usize);
                    }
                }
            }
        }
    }

    #[inline]
    fn add_near(&mut self, p: usize) {
        if self.near_pos[p] == NOT_LISTED {
            self.near_pos[p] = self.near.len() as u16;
            self.near.push(p as u16);
        }
    }

    #[inline]
    fn drop_near(&mut self, p: usize) {
        let at = self.near_pos[p];
        if at == NOT_LISTED {
            return;
        }
        let last = self.near.pop().expect("listed cell");
        if last as usize != p {
            self.near[at as usize] = last;
            self.near_pos[last as usize] = at;
        }
        self.near_pos[p] = NOT_LISTED;
    }

    /// A cell where `player` wins at once (padded), if there is one: the last in row
    /// order, as the search has always taken (it decides which of two winning moves
    /// the root plays).
    pub fn winning_cell(&self, player: usize) -> Option<usize> {
        if self.gravity {
            return self.gravity_wins(player).last().copied();
        }
        self.board.win_cell(player).map(|c| self.shape.pad(c))
    }

    /// Every distinct cell where `player` wins at once (padded, in increasing order).
    pub fn winning_cells(&mut self, player: usize, out: &mut Vec<u16>) {
        if self.gravity {
            out.clear();
            out.extend(self.gravity_wins(player).into_iter().map(|p| p as u16));
            return;
        }
        self.board.win_cells(player, out);
        out.sort_unstable();
        for c in out.iter_mut() {
            *c = self.shape.pad(*c as usize) as u16;
        }
    }

    #[inline]
    fn set(&mut self, p: usize, content: u8) {
        let old = self.cells[p];
        if old == content {
            return;
        }
        if old == EMPTY {
            self.empties -= 1;
            self.pieces += 1;
            self.drop_near(p);
        }
        if content == EMPTY {
            self.empties += 1;
            self.pieces -= 1;
            self.add_near(p);
        }
        self.cells[p] = content;
        self.board.set(self.shape.plain(p), content);
    }

    /// Plays a mark of the side to move on the empty padded cell `p`.
    pub fn play_mark(&mut self, p: usize) {
        let me = self.to_move;
        let was_empty_board = self.pieces == 0;
        self.set(p, mark_of(me));
        if self.board.wins_through(me, self.shape.plain(p)) {
            self.winner = Some(me);
        }
        let shape = Arc::clone(&self.shape);
        if shape.restrict {
            if was_empty_board {
                self.rebuild_near();
            } else {
                for &q in &shape.near_of[p] {
                    if self.cells[q as usize] == EMPTY {
                        self.add_near(q as usize);
                    }
                }
            }
        }
        self.to_move = 1 - me;
    }

    /// Plays any legal move of the side to move (`mv` in plain cell indices).
    pub fn play(&mut self, mv: Move) {
        let p = self.shape.pad(mv.cell());
        if mv.piece == Piece::Mark {
            self.play_mark(p);
            return;
        }
        let me = self.to_move;
        let hand = &mut self.hands[me];
        match mv.piece {
            Piece::Block => {
                hand.block -= 1;
                self.set(p, BLOCK);
            }
            Piece::Remove => {
                hand.remove -= 1;
                self.set(p, EMPTY);
            }
            Piece::Bomb => {
                hand.bomb -= 1;
                self.set(p, EMPTY);
                let shape = Arc::clone(&self.shape);
                for &q in &shape.around[p] {
                    self.set(q as usize, EMPTY);
                }
            }
            Piece::Mark => unreachable!(),
        }
        self.rebuild_near();
        self.to_move = 1 - me;
    }

    /// True when the side to move has a legal move (nobody has won yet).
    pub fn has_legal_move(&self) -> bool {
        if self.empties > 0 {
            return true;
        }
        let hand = self.hands[self.to_move];
        let theirs = mark_of(1 - self.to_move);
        let opponent_pieces = self.cells.iter().any(|&c| c == theirs || c == BLOCK);
        (hand.remove > 0 && opponent_pieces) || hand.bomb > 0
    }

    /// The moves the tree considers here: marks (and blocks, if held) on the candidate
    /// cells, removes and bombs on every legal target. Sorted for determinism.
    pub fn tree_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let shape = &self.shape;
        if self.gravity {
            let landing = self.landing_cells();
            out.extend(landing.into_iter().map(|p| Move::mark(shape.plain(p))));
            return;
        }
        let mut cells: Vec<u16> = self.near.clone();
        cells.sort_unstable();
        let hand = self.hands[self.to_move];
        for &p in &cells {
            out.push(Move::mark(shape.plain(p as usize)));
        }
        if hand.block > 0 {
            for &p in &cells {
                out.push(Move::new(shape.plain(p as usize), Piece::Block));
            }
        }
        self.special_moves(hand, out);
    }

    /// Removes and bombs the side to move can play.
    pub fn special_moves(&self, hand: Hand, out: &mut Vec<Move>) {
        let shape = &self.shape;
        let theirs = mark_of(1 - self.to_move);
        if hand.remove > 0 {
            for p in 0..self.cells.len() {
                let c = self.cells[p];
                if c == theirs || c == BLOCK {
                    out.push(Move::new(shape.plain(p), Piece::Remove));
                }
            }
        }
        if hand.bomb > 0 && self.pieces > 0 {
            for p in 0..self.cells.len() {
                if self.cells[p] == WALL {
                    continue;
                }
                let hit =
                    self.is_piece(p) || shape.around[p].iter().any(|&q| self.is_piece(q as usize));
                if hit {
                    out.push(Move::new(shape.plain(p), Piece::Bomb));
                }
            }
        }
    }

    /// The side to move's hand.
    pub fn hand(&self) -> Hand {
        self.hands[self.to_move]
    }

    #[inline]
    fn is_piece(&self, p: usize) -> bool {
        let c = self.cells[p];
        c != EMPTY && c != WALL
    }

    /// The cheap prior of `mv` for the side to move: the k-windows through its cell that
    /// it advances for the mover (attack) and spoils for the opponent (defence), each
    /// weighing `4^marks`. Special pieces get the defence part only.
    pub fn prior_score(&self, mv: Move) -> f32 {
        let p = self.shape.pad(mv.cell());
        let me = mark_of(self.to_move);
        let opp = mark_of(1 - self.to_move);
        match mv.piece {
            Piece::Mark => {
                let (a, d) = self.window_values(p, me, opp);
                a + d + 1.0
            }
            Piece::Block => {
                let (_, d) = self.window_values(p, me, opp);
                0.5 * d + 0.5
            }
            Piece::Remove | Piece::Bomb => {
                let mut value = 0.5;
                let targets = std::iter::once(p).chain(if mv.piece == Piece::Bomb {
                    self.shape.around[p]
                        .iter()
                        .map(|&q| q as usize)
                        .collect::<Vec<_>>()
                } else {
                    Vec::new()
                });
                for q in targets {
                    let c = self.cells[q];
                    if c == opp {
                        value += self.window_values(q, opp, me).0;
                    } else if c == me {
                        value -= 0.5 * self.window_values(q, me, opp).0;
                    }
                }
                value.max(0.1)
            }
        }
    }

    /// (attack, defence) of a mark of `me` at `p` (whatever `p` holds now): over the
    /// k-windows through `p` that no block breaks, with `p` counted as empty, `4^own`
    /// for those without an opposing mark and `4^theirs` for those without an own one.
    fn window_values(&self, p: usize, me: u8, opp: u8) -> (f32, f32) {
        let (mi, oi) = (me as usize - 1, opp as usize - 1);
        let here = self.cells[p];
        let (mut attack, mut defence) = (0.0, 0.0);
        for &w in self.board.through(self.shape.plain(p)) {
            let mut count = self.board.counts(w as usize);
            match here {
                EMPTY => {}
                BLOCK => count[2] -= 1,
                mark => count[mark as usize - 1] -= 1,
            }
            if count[2] > 0 {
                continue;
            }
            if count[oi] == 0 {
                attack += self.shape.weight[count[mi] as usize];
            }
            if count[mi] == 0 {
                defence += self.shape.weight[count[oi] as usize];
            }
        }
        (attack, defence)
    }

    /// The static value of the position for the side to move, in `0..1`: a logistic
    /// of the difference of the two players' window potentials (`4^marks` per open
    /// window holding a mark, kept by the board).
    pub fn evaluate(&self, scale: f32) -> f32 {
        let score = self.board.score();
        let mine = score[self.to_move] as f32;
        let theirs = score[1 - self.to_move] as f32;
        // The side to move gets the tempo: its potential counts a little more.
        let diff = 1.5 * mine - theirs;
        1.0 / (1.0 + (-diff / scale).exp())
    }

    /// Plays random moves (taking an immediate win, else stopping the opponent's) until
    /// the game ends or `max_plies` are played, then evaluates; returns the value for x
    /// (1 x wins, 0 o wins, 0.5 a draw). Special pieces are not used here: once the
    /// board is full the playout counts as a draw.
    pub fn playout(&mut self, rng: &mut FastRng, max_plies: u32, scale: f32) -> f32 {
        let mut plies = 0;
        // Renju: x's picks are checked against its forbidden cells (never under the others).
        let renju = self.board.restricts(0);
        loop {
            if let Some(w) = self.winner {
                return if w == 0 { 1.0 } else { 0.0 };
            }
            if self.empties == 0 {
                return 0.5;
            }
            let me = self.to_move;
            let p = if let Some(p) = self.winning_cell(me) {
                p
            } else if let Some(p) = self
                .winning_cell(1 - me)
                .filter(|&p| !(renju && me == 0 && self.forbidden(p)))
            {
                p
            } else if plies >= max_plies {
                let v = self.evaluate(scale);
                return if me == 0 { v } else { 1.0 - v };
            } else if self.gravity {
                let landing = self.landing_cells();
                landing[rng.below(landing.len())]
            } else if !self.near.is_empty() {
                self.near[rng.below(self.near.len())] as usize
            } else {
                self.any_empty(rng)
            };
            let p = match renju && me == 0 {
                false => p,
                true => match self.allowed_near(p) {
                    Some(p) => p,
                    // x has no allowed cell left, which the rules count as a draw.
                    None => return 0.5,
                },
            };
            self.play_mark(p);
            plies += 1;
        }
    }

    /// True when the side to move has forbidden cells to avoid: x under renju.
    #[inline]
    pub fn restricted(&self) -> bool {
        self.board.restricts(self.to_move)
    }

    /// True when the side to move may not mark the empty padded cell `p`: x's
    /// forbidden cells under renju (one comparison under the other variants).
    #[inline]
    pub fn forbidden(&mut self, p: usize) -> bool {
        let plain = self.shape.plain(p);
        self.board.forbidden(self.to_move, plain)
    }

    /// Renju, x to move: drops the marks on forbidden cells from the tree's `moves`;
    /// when every one was (every block of a five forbidden), every allowed tree move
    /// instead (each loses to the five). False when no move is left at all.
    pub fn keep_allowed(&mut self, moves: &mut Vec<Move>) -> bool {
        moves.retain(|mv| mv.piece != Piece::Mark || !self.forbidden(self.shape.pad(mv.cell())));
        if moves.is_empty() {
            self.tree_moves(moves);
            moves.retain(|mv| !self.forbidden(self.shape.pad(mv.cell())));
        }
        !moves.is_empty()
    }

    /// `p` when the side to move may mark it; else (renju, x to move) the first allowed
    /// empty cell after it in reading order, wrapping around; `None` when there is none.
    fn allowed_near(&mut self, p: usize) -> Option<usize> {
        if !self.forbidden(p) {
            return Some(p);
        }
        let total = self.cells.len();
        (1..total)
            .map(|i| (p + i) % total)
            .find(|&q| self.cells[q] == EMPTY && !self.forbidden(q))
    }

    fn any_empty(&self, rng: &mut FastRng) -> usize {
        let target = rng.below(self.empties as usize);
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == EMPTY)
            .nth(target)
            .map(|(p, _)| p)
            .expect("an empty cell")
    }
}

mod gravity;
#[cfg(test)]
mod tests;
