//! The simulation board of `mcts`: a padded copy of the position built for speed.
//!
//! The board carries a one-cell wall around it, so runs along a line stop at the
//! edge without bounds checks. Besides the cells it keeps, incrementally:
//! - `near`: the empty cells within [`NEAR_RADIUS`] of some piece (every empty cell
//!   on small boards), the candidates for playout moves and tree moves;
//! - `wins[p]`: a superset of the empty cells where a mark of `p` completes a line
//!   (checked again before use), so "take an immediate win, stop an immediate loss"
//!   costs a few cell reads per ply instead of a scan of the board.
//!
//! A search keeps one `Sim` of the root and copies it (reusing buffers) at the start
//! of every iteration; no move is ever undone.

use std::sync::Arc;

use crate::game::{Cell, Hand, Move, Piece, Player, Position};

pub(super) const EMPTY: u8 = 0;
const BLOCK: u8 = 3;
const WALL: u8 = 4;
const NOT_LISTED: u16 = u16::MAX;

/// Playout and tree moves stay within this Chebyshev distance of a piece on large boards.
pub(super) const NEAR_RADIUS: isize = 2;
/// Boards with more cells than this restrict moves to cells near pieces.
pub(super) const RESTRICT_ABOVE_CELLS: usize = 64;

/// The fixed shape shared by every copy: sizes, steps, neighbourhoods.
#[derive(Debug)]
pub(super) struct Shape {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub overline: bool,
    /// Row stride of the padded board (`m + 2`).
    pub w: usize,
    /// The four line steps in padded indices.
    pub steps: [usize; 4],
    /// True when moves are restricted to cells near pieces.
    pub restrict: bool,
    /// For every padded interior cell: the padded cells within `NEAR_RADIUS` (itself excluded).
    near_of: Vec<Vec<u16>>,
    /// For every padded cell: its up-to-8 padded neighbours on the board (the bomb area).
    around: Vec<Vec<u16>>,
    /// `4^own` window weights for the prior.
    pub weight: Vec<f32>,
    /// Every k-window as (padded start cell, step): what the static evaluation counts.
    windows: Vec<(u16, u16)>,
}

impl Shape {
    fn new(m: usize, n: usize, k: usize, overline: bool) -> Shape {
        let w = m + 2;
        let total = w * (n + 2);
        let mut near_of = vec![Vec::new(); total];
        let mut around = vec![Vec::new(); total];
        for r in 0..n as isize {
            for c in 0..m as isize {
                let p = Shape::pad_rc(w, r as usize, c as usize);
                for dr in -NEAR_RADIUS..=NEAR_RADIUS {
                    for dc in -NEAR_RADIUS..=NEAR_RADIUS {
                        let (rr, cc) = (r + dr, c + dc);
                        if (dr, dc) == (0, 0) || rr < 0 || cc < 0 {
                            continue;
                        }
                        if rr as usize >= n || cc as usize >= m {
                            continue;
                        }
                        let q = Shape::pad_rc(w, rr as usize, cc as usize) as u16;
                        near_of[p].push(q);
                        if dr.abs() <= 1 && dc.abs() <= 1 {
                            around[p].push(q);
                        }
                    }
                }
            }
        }
        let mut windows = Vec::new();
        for r in 0..n as isize {
            for c in 0..m as isize {
                for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + dr * (k as isize - 1), c + dc * (k as isize - 1));
                    if er >= 0 && ec >= 0 && (er as usize) < n && (ec as usize) < m && k >= 1 {
                        let step = (dr * w as isize + dc) as u16;
                        windows.push((Shape::pad_rc(w, r as usize, c as usize) as u16, step));
                    }
                }
            }
        }
        Shape {
            windows,
            m,
            n,
            k,
            overline,
            w,
            steps: [1, w, w + 1, w - 1],
            restrict: m * n > RESTRICT_ABOVE_CELLS,
            near_of,
            around,
            weight: (0..=k.max(1))
                .map(|i| 4f32.powi(i.min(20) as i32))
                .collect(),
        }
    }

    #[inline]
    fn pad_rc(w: usize, r: usize, c: usize) -> usize {
        (r + 1) * w + c + 1
    }

    /// The padded index of plain cell index `cell`.
    #[inline]
    pub fn pad(&self, cell: usize) -> usize {
        Shape::pad_rc(self.w, cell / self.m, cell % self.m)
    }

    /// The plain cell index of padded index `p`.
    #[inline]
    pub fn plain(&self, p: usize) -> usize {
        (p / self.w - 1) * self.m + (p % self.w - 1)
    }
}

/// The simulation board.
#[derive(Clone, Debug)]
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
    wins: [Vec<u16>; 2],
    /// Set once a mark completes a line: the winner's index.
    pub winner: Option<usize>,
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
            position.geometry().overline,
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
            wins: [Vec::new(), Vec::new()],
            winner: position.winner().map(Player::index),
        };
        sim.rebuild_near();
        sim.rescan_wins();
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
        self.wins[0].clone_from(&other.wins[0]);
        self.wins[1].clone_from(&other.wins[1]);
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

    /// The run of `who`'s marks from `p` (exclusive) along `step`, forwards or backwards.
    #[inline]
    fn run(&self, p: usize, step: usize, forward: bool, who: u8, limit: usize) -> usize {
        let mut len = 0;
        let mut at = p;
        while len < limit {
            at = if forward { at + step } else { at - step };
            if self.cells[at] != who {
                break;
            }
            len += 1;
        }
        len
    }

    /// True when a mark of `player` on the empty padded cell `p` completes a line.
    #[inline]
    pub fn wins_at(&self, p: usize, player: usize) -> bool {
        let who = mark_of(player);
        let k = self.shape.k;
        let limit = if self.shape.overline { k } else { k + 1 };
        self.shape.steps.iter().any(|&s| {
            let len = self.run(p, s, false, who, limit) + 1 + self.run(p, s, true, who, limit);
            if self.shape.overline {
                len >= k
            } else {
                len == k
            }
        })
    }

    /// The first cell where `player` wins at once, dropping stale candidates on the way.
    pub fn winning_cell(&mut self, player: usize) -> Option<usize> {
        while let Some(&p) = self.wins[player].last() {
            let p = p as usize;
            if self.cells[p] == EMPTY && self.wins_at(p, player) {
                return Some(p);
            }
            self.wins[player].pop();
        }
        None
    }

    /// Every distinct cell where `player` wins at once (stale candidates dropped).
    pub fn winning_cells(&mut self, player: usize, out: &mut Vec<u16>) {
        out.clear();
        let mut list = std::mem::take(&mut self.wins[player]);
        list.retain(|&p| self.cells[p as usize] == EMPTY && self.wins_at(p as usize, player));
        list.sort_unstable();
        list.dedup();
        out.extend_from_slice(&list);
        self.wins[player] = list;
    }

    fn rescan_wins(&mut self) {
        self.wins[0].clear();
        self.wins[1].clear();
        for p in 0..self.cells.len() {
            if self.cells[p] == EMPTY {
                for player in 0..2 {
                    if self.wins_at(p, player) {
                        self.wins[player].push(p as u16);
                    }
                }
            }
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
    }

    /// Plays a mark of the side to move on the empty padded cell `p`.
    pub fn play_mark(&mut self, p: usize) {
        let me = self.to_move;
        let who = mark_of(me);
        if self.wins_at(p, me) {
            self.winner = Some(me);
        }
        let was_empty_board = self.pieces == 0;
        self.set(p, who);
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
        // New winning cells of `me` lie just past the ends of the run through `p`.
        let limit = shape.k + 1;
        for &s in &shape.steps {
            let back = self.run(p, s, false, who, limit);
            let fwd = self.run(p, s, true, who, limit);
            for end in [p - (back + 1) * s, p + (fwd + 1) * s] {
                if self.cells[end] == EMPTY && self.wins_at(end, me) {
                    self.wins[me].push(end as u16);
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
        self.rescan_wins();
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

    /// (attack, defence) of a mark of `me` at `p` (whatever `p` holds now).
    fn window_values(&self, p: usize, me: u8, opp: u8) -> (f32, f32) {
        let k = self.shape.k;
        let span = 2 * k - 1;
        let mut line = [WALL; 2 * 64 + 1];
        let (mut attack, mut defence) = (0.0, 0.0);
        for &s in &self.shape.steps {
            // line[k-1] is p; fill outwards until a wall.
            line[k - 1] = EMPTY;
            let mut at = p;
            for j in 1..k {
                at -= s;
                let c = self.cells[at];
                line[k - 1 - j] = c;
                if c == WALL {
                    for slot in line.iter_mut().take(k - 1 - j) {
                        *slot = WALL;
                    }
                    break;
                }
            }
            at = p;
            for j in 1..k {
                at += s;
                let c = self.cells[at];
                line[k - 1 + j] = c;
                if c == WALL {
                    for slot in line.iter_mut().take(span).skip(k + j) {
                        *slot = WALL;
                    }
                    break;
                }
            }
            for start in 0..k {
                let (mut own, mut theirs, mut dead) = (0, 0, false);
                for &c in &line[start..start + k] {
                    if c == me {
                        own += 1;
                    } else if c == opp {
                        theirs += 1;
                    } else if c != EMPTY {
                        dead = true;
                        break;
                    }
                }
                if dead {
                    continue;
                }
                if theirs == 0 {
                    attack += self.shape.weight[own];
                }
                if own == 0 {
                    defence += self.shape.weight[theirs];
                }
            }
        }
        (attack, defence)
    }

    /// The static value of the position for the side to move, in `0..1`: a logistic
    /// of the difference of the two players' window potentials (`4^marks` per open window).
    pub fn evaluate(&self, scale: f32) -> f32 {
        let me = mark_of(self.to_move);
        let opp = mark_of(1 - self.to_move);
        let k = self.shape.k;
        let (mut mine, mut theirs) = (0.0f32, 0.0f32);
        for &(start, step) in &self.shape.windows {
            let (mut a, mut b, mut dead) = (0usize, 0usize, false);
            let mut at = start as usize;
            for _ in 0..k {
                let c = self.cells[at];
                if c == me {
                    a += 1;
                } else if c == opp {
                    b += 1;
                } else if c != EMPTY {
                    dead = true;
                    break;
                }
                at += step as usize;
            }
            if dead || (a > 0 && b > 0) {
                continue;
            }
            if b == 0 && a > 0 {
                mine += self.shape.weight[a];
            } else if a == 0 && b > 0 {
                theirs += self.shape.weight[b];
            }
        }
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
            } else if let Some(p) = self.winning_cell(1 - me) {
                p
            } else if plies >= max_plies {
                let v = self.evaluate(scale);
                return if me == 0 { v } else { 1.0 - v };
            } else if !self.near.is_empty() {
                self.near[rng.below(self.near.len())] as usize
            } else {
                self.any_empty(rng)
            };
            self.play_mark(p);
            plies += 1;
        }
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

/// A small, fast generator (xorshift64*) for playouts, seeded from the search's RNG.
#[derive(Clone, Debug)]
pub(super) struct FastRng(u64);

impl FastRng {
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed | 1)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}
