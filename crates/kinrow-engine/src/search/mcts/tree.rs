//! The tree's steps: expanding a node (only the winning move, or only the answers to an
//! immediate threat, where there is one), proving results MCTS-solver style, selecting
//! a child by PUCT, backing up a playout's result, and picking the best child.

use super::sim::Sim;
use super::{Node, Proof, Tree};
use kinrow_game::{Move, Piece};

impl Tree {
    /// The player who made the move of the node at depth `depth` (the root is depth 0).
    pub(super) fn mover(&self, depth: usize) -> usize {
        if depth % 2 == 1 {
            self.root_player
        } else {
            1 - self.root_player
        }
    }

    /// Room for `more` nodes: the array doubles, but never past `max_nodes` (unless one
    /// expansion needs more), where a Vec's own doubling would overshoot the cap by up
    /// to twice.
    pub(super) fn reserve(&mut self, more: usize) {
        let (len, cap) = (self.nodes.len(), self.nodes.capacity());
        if len + more > cap {
            let target = (cap * 2).min(self.max_nodes).max(len + more);
            self.nodes.reserve_exact(target - len);
        }
    }

    /// Creates the children of `node` for the position `sim`; may prove things.
    pub(super) fn expand(&mut self, node: usize, sim: &mut Sim) {
        let me = sim.to_move();
        self.nodes[node].expanded = true;
        if !sim.has_legal_move() {
            let n = &mut self.nodes[node];
            n.proof = Proof::Draw;
            n.plies = 1;
            return;
        }
        let mut moves = std::mem::take(&mut self.scratch_moves);
        let mut threats = std::mem::take(&mut self.scratch_cells);
        moves.clear();
        let mut complete = !sim.shape.restrict;
        let mut winning = false;
        if let Some(p) = sim.winning_cell(me) {
            moves.push(Move::mark(sim.shape.plain(p)));
            winning = true;
            complete = true;
        } else {
            sim.winning_cells(1 - me, &mut threats);
            if threats.is_empty() {
                sim.tree_moves(&mut moves);
            } else {
                let hand = sim.hand();
                for &p in &threats {
                    moves.push(Move::mark(sim.shape.plain(p as usize)));
                }
                if hand.block > 0 {
                    for &p in &threats {
                        moves.push(Move::new(sim.shape.plain(p as usize), Piece::Block));
                    }
                }
                sim.special_moves(hand, &mut moves);
                complete = true;
            }
        }
        if sim.restricted() && !sim.keep_allowed(&mut moves) {
            // Renju: x has no allowed cell, a draw by the rules.
            (self.nodes[node].proof, self.nodes[node].plies) = (Proof::Draw, 1);
            (self.scratch_moves, self.scratch_cells) = (moves, threats);
            return;
        }
        self.reserve(moves.len());
        let first = self.nodes.len();
        let mut total = 0.0f32;
        for &mv in &moves {
            let s = if winning {
                1.0
            } else {
                sim.prior_score(mv).powf(self.prior_power)
            };
            total += s;
            self.nodes.push(Node::new(mv, s));
        }
        let count = moves.len();
        for child in &mut self.nodes[first..] {
            child.prior = 0.9 * child.prior / total + 0.1 / count as f32;
        }
        if winning {
            let child = &mut self.nodes[first];
            child.proof = Proof::Win;
            child.plies = 1;
        }
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.n_children = count as u32;
        n.complete = complete;
        self.scratch_moves = moves;
        self.scratch_cells = threats;
        self.update_proof(node);
    }

    /// Derives `node`'s proof from its children; true when it became proven.
    pub(super) fn update_proof(&mut self, node: usize) -> bool {
        let n = &self.nodes[node];
        if n.proof != Proof::Unknown || !n.expanded || n.n_children == 0 {
            return false;
        }
        let mut fastest_win: Option<(u16, bool)> = None;
        let mut all_proven = true;
        let mut draw: Option<(u16, bool)> = None;
        let mut slowest_loss: (u16, bool) = (0, false);
        for c in n.children() {
            let child = &self.nodes[c];
            match child.proof {
                Proof::Win => {
                    if fastest_win.is_none_or(|(p, _)| child.plies < p) {
                        fastest_win = Some((child.plies, child.soft));
                    }
                }
                Proof::Draw => {
                    if draw.is_none_or(|(p, _)| child.plies > p) {
                        draw = Some((child.plies, child.soft));
                    }
                }
                Proof::Loss => {
                    if child.plies >= slowest_loss.0 {
                        slowest_loss = (child.plies, slowest_loss.1 || child.soft);
                    }
                }
                Proof::Unknown => all_proven = false,
            }
        }
        let restricted = !n.complete;
        let (proof, plies, soft) = if let Some((p, soft)) = fastest_win {
            (Proof::Loss, p, soft)
        } else if !all_proven {
            return false;
        } else if let Some((p, soft)) = draw {
            (Proof::Draw, p, soft || restricted)
        } else {
            (Proof::Win, slowest_loss.0, slowest_loss.1 || restricted)
        };
        let n = &mut self.nodes[node];
        n.proof = proof;
        n.plies = plies.saturating_add(1);
        n.soft = soft;
        true
    }

    /// The child of `node` to descend into.
    pub(super) fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let sqrt_n = (parent.visits.max(1) as f32).sqrt();
        let fpu = if parent.visits > 0 {
            1.0 - parent.value / parent.visits as f32
        } else {
            0.5
        };
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        let mut fallback = parent.first_child as usize;
        for c in parent.children() {
            let child = &self.nodes[c];
            let q = match child.proof {
                Proof::Win => return c,
                Proof::Loss => {
                    if child.plies > self.nodes[fallback].plies {
                        fallback = c;
                    }
                    continue;
                }
                Proof::Draw => 0.5,
                Proof::Unknown if child.visits > 0 => child.value / child.visits as f32,
                Proof::Unknown => fpu,
            };
            let u = self.exploration * child.prior * sqrt_n / (1.0 + child.visits as f32);
            if q + u > best_score {
                best_score = q + u;
                best = Some(c);
            }
        }
        best.unwrap_or(fallback)
    }

    /// The result of a proven node as a value for x (1 x wins, 0 o wins, 0.5 a draw).
    pub(super) fn proven_value(&self, node: usize, depth: usize) -> f32 {
        let mover = self.mover(depth);
        let winner = match self.nodes[node].proof {
            Proof::Win => mover,
            Proof::Loss => 1 - mover,
            _ => return 0.5,
        };
        if winner == 0 {
            1.0
        } else {
            0.0
        }
    }

    /// Credits `x_value` (the result for x) to every node on `path` and moves proofs up.
    pub(super) fn backup(&mut self, path: &[usize], x_value: f32) {
        for (depth, &i) in path.iter().enumerate() {
            let mover = self.mover(depth);
            let n = &mut self.nodes[i];
            n.visits += 1;
            n.value += if mover == 0 { x_value } else { 1.0 - x_value };
        }
        for j in (1..path.len()).rev() {
            if self.nodes[path[j]].proof == Proof::Unknown || !self.update_proof(path[j - 1]) {
                break;
            }
        }
    }

    /// The child of `node` to play: a proven win (fastest), else the most visited
    /// child not proven lost, else the slowest loss.
    pub(super) fn best_child(&self, node: usize) -> Option<usize> {
        let n = &self.nodes[node];
        let key = |c: usize| {
            let ch = &self.nodes[c];
            let class = match ch.proof {
                Proof::Win => 3,
                Proof::Loss => 0,
                Proof::Draw | Proof::Unknown => 1,
            };
            let plies = match ch.proof {
                Proof::Win => -(ch.plies as i64),
                Proof::Loss => ch.plies as i64,
                _ => 0,
            };
            (
                class,
                plies,
                ch.visits,
                ch.win_rate().unwrap_or(0.0),
                ch.prior,
            )
        };
        n.children().max_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0)
                .then(ka.1.cmp(&kb.1))
                .then(ka.2.cmp(&kb.2))
                .then(ka.3.total_cmp(&kb.3))
                .then(ka.4.total_cmp(&kb.4))
                .then(b.cmp(&a))
        })
    }
}
