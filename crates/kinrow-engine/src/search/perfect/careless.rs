//! The search with mistakes, as in the perfect-play write-up: depth-first to the end of
//! the game, but at every node each branch is overlooked with probability p, and an
//! overlooked branch counts as `unknown`. Each side prefers win > draw > unknown > loss,
//! so a player facing an unexamined branch treats it as a gamble between draw and loss.
//!
//! There is no pruning beyond stopping at a found win (an overlooked refutation must be
//! able to change the answer); a table remembers each position's result for the rest of
//! the search, so a position that is reached twice is judged the same way twice.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::RngExt;

use crate::core::budget::Budget;
use crate::core::types::Outcome;
use kinrow_game::{Move, Piece, Position};

use super::verdict::{PvTail, Verdict};

/// A result from the side to move's view with the plies to the end where known.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Val(Outcome, u32);

/// Orders results for the side to move: higher is better.
fn rank(v: Val) -> i64 {
    match v.0 {
        Outcome::Win => 3_000_000 - v.1 as i64,
        Outcome::Draw => 2_000_000,
        Outcome::Unknown => 1_000_000,
        Outcome::Loss => v.1 as i64,
    }
}

/// The parent's view of a child result, one ply further from the end.
fn flip(v: Val) -> Val {
    let o = match v.0 {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        other => other,
    };
    Val(o, v.1 + 1)
}

struct Careless<'a> {
    p: f64,
    budget: &'a mut Budget,
    rng: &'a mut StdRng,
    memo: HashMap<u64, Val>,
    max_ply: u32,
}

impl Careless<'_> {
    /// The value of the move `mv` in `pos`, or `None` once the budget is spent.
    fn judge_move(&mut self, pos: &mut Position, mv: Move, ply: u32) -> Option<Val> {
        if self.rng.random_bool(self.p) {
            return Some(Val(Outcome::Unknown, 0));
        }
        if mv.piece == Piece::Mark && pos.wins_at(mv.cell(), pos.to_move()) {
            return Some(Val(Outcome::Win, 1));
        }
        let undo = pos.play_unchecked(mv);
        let child = self.judge(pos, ply + 1);
        pos.undo(undo);
        child.map(flip)
    }

    /// The value of `pos` for its side to move.
    fn judge(&mut self, pos: &mut Position, ply: u32) -> Option<Val> {
        if self.budget.tick() {
            return None;
        }
        self.max_ply = self.max_ply.max(ply);
        if let Some(&v) = self.memo.get(&pos.hash()) {
            return Some(v);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(Val(Outcome::Draw, 0));
        }
        let mut best = Val(Outcome::Loss, 0);
        let mut first = true;
        for mv in moves {
            let v = self.judge_move(pos, mv, ply)?;
            if first || rank(v) > rank(best) {
                best = v;
                first = false;
            }
            if best.0 == Outcome::Win {
                break;
            }
        }
        self.memo.insert(pos.hash(), best);
        Some(best)
    }
}

/// Every root move judged with mistake probability `p`.
pub(super) fn analyze(
    position: &Position,
    p: f64,
    budget: &mut Budget,
    rng: &mut StdRng,
) -> (Vec<Verdict>, PvTail, u32) {
    let mut pos = position.clone();
    let moves = position.legal_moves();
    let mut search = Careless {
        p: p.min(1.0),
        budget,
        rng,
        memo: HashMap::new(),
        max_ply: 0,
    };
    let mut verdicts = Vec::with_capacity(moves.len());
    let mut out_of_time = false;
    for mv in moves {
        let v = if out_of_time {
            None
        } else {
            search.judge_move(&mut pos, mv, 0)
        };
        out_of_time |= v.is_none();
        verdicts.push(match v {
            Some(Val(outcome, plies)) if outcome != Outcome::Unknown => Verdict {
                mv,
                outcome,
                plies: Some(plies),
                plies_bound: crate::core::types::Bound::Exact,
            },
            _ => Verdict::unknown(mv),
        });
    }
    (verdicts, Box::new(|_| Vec::new()), search.max_ply)
}
