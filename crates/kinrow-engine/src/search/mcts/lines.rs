//! The tree's lines: the principal variation under a root move (most visited, proven
//! wins first, as [`Tree::best_child`] picks), and the best root moves with their lines
//! for progress reports and `multipv`.

use super::{Proof, Tree};
use crate::core::progress::Line;
use crate::core::types::{Evaluation, Outcome};
use kinrow_game::Move;

impl Tree {
    /// The line that starts with the move of node `from`: its move, then the best child
    /// of each node as long as it was visited or is proven.
    pub(super) fn line_from(&self, from: usize) -> Vec<Move> {
        let mut pv = vec![self.nodes[from].mv];
        let mut at = from;
        while let Some(next) = self
            .best_child(at)
            .filter(|&c| self.nodes[c].visits > 0 || self.nodes[c].proof != Proof::Unknown)
        {
            pv.push(self.nodes[next].mv);
            at = next;
        }
        pv
    }

    /// The root's `n` best moves: the one [`Tree::best_child`] picks, then the others by
    /// visits; each with its visit share as score, its win rate and its line.
    pub(super) fn root_lines(&self, n: usize) -> Vec<Line> {
        let root = &self.nodes[0];
        let Some(best) = self.best_child(0) else {
            return Vec::new();
        };
        let mut order: Vec<usize> = root.children().filter(|&c| c != best).collect();
        order.sort_by_key(|&c| std::cmp::Reverse(self.nodes[c].visits));
        order.insert(0, best);
        let total = root.visits.max(1) as f64;
        order
            .into_iter()
            .take(n)
            .map(|c| {
                let ch = &self.nodes[c];
                let (outcome, plies) = self.outcome(c);
                Line {
                    mv: ch.mv,
                    eval: Evaluation {
                        score: f64::from(ch.visits) / total,
                        outcome,
                        plies,
                    },
                    win_rate: ch.win_rate(),
                    pv: self.line_from(c),
                }
            })
            .collect()
    }

    /// The proven outcome of node `c` for the player who made its move, as reported.
    pub(super) fn outcome(&self, c: usize) -> (Outcome, Option<u32>) {
        let ch = &self.nodes[c];
        match (ch.proof, ch.soft) {
            (Proof::Unknown, _) | (_, true) => (Outcome::Unknown, None),
            (Proof::Win, _) => (Outcome::Win, Some(u32::from(ch.plies))),
            (Proof::Draw, _) => (Outcome::Draw, Some(u32::from(ch.plies))),
            (Proof::Loss, _) => (Outcome::Loss, Some(u32::from(ch.plies))),
        }
    }
}
