//! Threat-space search at the root of a game-tree search: does the side to move win
//! by force, or must it stop the opponent's forced win, and with which moves?

use crate::core::budget::Budget;
use kinrow_game::{Cell, Move, Position};

use super::proof::{Proof, Verdict};
use super::searcher::{unsupported, Tss};

/// What the threat searches say about the position for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub enum RootPlan {
    /// The side to move wins by force: play the proof's first move.
    Win(Proof),
    /// The opponent would win by continuous fours if the side to move passed. Only
    /// `moves` may still hold; each move in `lost` loses in the given plies (the
    /// opponent's VCF after it), and every other move loses in `threat_plies`.
    Defend {
        /// The moves that may still hold.
        moves: Vec<Move>,
        /// Moves that lose, each with its plies to the loss.
        lost: Vec<(Move, u32)>,
        /// The plies to the loss after any other move.
        threat_plies: u32,
    },
    /// Nothing forcing was found (or proofs do not apply here).
    Quiet,
}

/// Runs the root searches within `budget` (which counts their nodes): the mover's VCF,
/// the opponent's VCF (and which of the mover's moves survive it), then the mover's VCT
/// up to `vct_depth` quiet threats.
pub fn plan(position: &Position, budget: &mut Budget, vct_depth: u32) -> RootPlan {
    let me = position.to_move();
    let opp = me.opponent();
    // A five wins whatever anyone holds.
    if let Some(c) = (0..position.cells().len())
        .find(|&c| position.cell(c) == Cell::Empty && position.wins_at(c, me))
    {
        return RootPlan::Win(Proof::Five { cell: c as u16 });
    }
    let mut tss = Tss::new(position);
    if let Verdict::Win(p) = tss.vcf(budget, me) {
        return RootPlan::Win(p);
    }
    let mut defend = None;
    if unsupported(position, opp).is_none() {
        if let Verdict::Win(threat) = tss.vcf(budget, opp) {
            let mut moves = Vec::new();
            let mut lost = Vec::new();
            for mv in tss.defences(opp, &threat) {
                match tss.vcf_after(budget, mv) {
                    Verdict::Win(p) => lost.push((mv, p.plies() + 1)),
                    _ => moves.push(mv),
                }
            }
            defend = Some(RootPlan::Defend {
                moves,
                lost,
                threat_plies: threat.plies() + 1,
            });
        }
    }
    // The mover's VCT, one more quiet threat at a time while the budget lasts: the
    // shallow proofs come cheap, and a deep one is searched only when time is left.
    for depth in 1..=vct_depth {
        match tss.vct(budget, me, depth) {
            Verdict::Win(p) => return RootPlan::Win(p),
            Verdict::NoProof => continue,
            _ => break,
        }
    }
    defend.unwrap_or(RootPlan::Quiet)
}
