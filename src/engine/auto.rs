//! `auto`, the default engine: the strongest choice for the position.
//!
//! 1. **Prove** with `perfect` when the position looks provable within the budget:
//!    boards `perfect` solves exactly (at most 128 cells) that are small or far enough
//!    into the game (few empty cells). It gets part of the budget; its answer is taken
//!    when it completed, or when it proved a win anyway.
//! 2. Otherwise **search** with `minimax` (alpha-beta over the window potential, with
//!    threat-space search at its root: a forced win is played, the opponent's is
//!    stopped) on the rest of the budget. Moves `perfect` proved lost are avoided.
//! 3. A last **safety check**: a win now is always taken, and an immediate loss is
//!    always stopped when any move can stop it.
//!
//! `stats.path` says which way the answer came: `perfect`, or `minimax` followed by
//! notes: `perfect ran out` (a proof was tried first), `threat-space win` / `threat-space
//! defence` (what decided minimax's root), `safety check` (the check changed the move),
//! e.g. `minimax: perfect ran out, threat-space defence`.

use std::time::Duration;

use rand::rngs::StdRng;

use crate::engine::minimax::Minimax;
use crate::engine::perfect::Perfect;
use crate::engine::{Analysis, Clock, Engine, Evaluation, Limits, MoveEval, Outcome};
use crate::game::{Cell, Move, Piece, Player, Position};

/// The default engine.
#[derive(Clone, Debug, Default)]
pub struct Auto;

/// `perfect` solves exactly only boards of at most this many cells.
const PERFECT_MAX_CELLS: usize = 128;
/// Up to this many empty cells a proof is tried (whatever the board).
const PROVE_EMPTIES: u32 = 30;
/// The share of the budget a proof attempt may use.
const PROVE_SHARE: f64 = 0.5;

/// Whether `perfect` is worth trying here, judged from the empty cells and board size.
pub fn worth_proving(position: &Position) -> bool {
    let cells = position.cells().len();
    cells <= PERFECT_MAX_CELLS && (cells <= 36 || position.empties() <= PROVE_EMPTIES)
}

fn share(limits: &Limits, time: Duration, fraction: f64) -> Limits {
    Limits {
        time,
        depth: limits.depth,
        nodes: limits.nodes.map(|n| ((n as f64) * fraction) as u64),
        mistake_probability: 0.0,
    }
}

impl Engine for Auto {
    fn analyze(&self, position: &Position, limits: &Limits, rng: &mut StdRng) -> Analysis {
        let clock = Clock::start(limits);
        let mut spent_nodes = 0;
        let mut lost = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        if worth_proving(position) {
            let attempt = share(limits, limits.time.mul_f64(PROVE_SHARE), PROVE_SHARE);
            let mut proof = Perfect.analyze(position, &attempt, rng);
            if proof.stats.complete || proof.evaluation.outcome == Outcome::Win {
                proof.stats.path = Some("perfect".into());
                proof.stats.elapsed = clock.elapsed();
                return proof;
            }
            spent_nodes = proof.stats.nodes;
            lost = proof
                .moves
                .iter()
                .filter(|e| e.eval.outcome == Outcome::Loss)
                .map(|e| e.mv)
                .collect();
            notes.push("perfect ran out".into());
        }
        let rest = share(limits, clock.remaining(), 1.0);
        let mut analysis = Minimax.analyze(position, &rest, rng);
        if !lost.is_empty() && lost.contains(&analysis.best) {
            if let Some(i) = analysis.moves.iter().position(|e| !lost.contains(&e.mv)) {
                promote(&mut analysis, i);
            }
        }
        if let Some(p) = analysis.stats.path.take() {
            notes.push(p);
        }
        if safety(position, &mut analysis) {
            notes.push("safety check".into());
        }
        let path = if notes.is_empty() {
            "minimax".to_string()
        } else {
            format!("minimax: {}", notes.join(", "))
        };
        analysis.stats.nodes += spent_nodes;
        analysis.stats.elapsed = clock.elapsed();
        analysis.stats.path = Some(path);
        analysis
    }
}

/// Makes `analysis.moves[i]` the chosen move (first in the list, in the PV).
fn promote(analysis: &mut Analysis, i: usize) {
    let chosen = analysis.moves.remove(i);
    analysis.best = chosen.mv;
    analysis.evaluation = chosen.eval.clone();
    analysis.pv = vec![chosen.mv];
    analysis.moves.insert(0, chosen);
}

/// The empty cells where a mark of `p` wins at once.
fn win_cells(position: &Position, p: Player) -> Vec<usize> {
    (0..position.cells().len())
        .filter(|&c| position.cell(c) == Cell::Empty && position.wins_at(c, p))
        .collect()
}

/// Takes a win now and stops an immediate loss, whatever the search chose. Returns
/// true when it changed the move.
pub fn safety(position: &Position, analysis: &mut Analysis) -> bool {
    let me = position.to_move();
    let opp = me.opponent();
    if let Some(&c) = win_cells(position, me).first() {
        let win = Move::mark(c);
        if analysis.best == win {
            return false;
        }
        let mut after = position.clone();
        after.play(analysis.best);
        if after.winner() == Some(me) {
            return false;
        }
        let eval = Evaluation {
            score: analysis
                .moves
                .first()
                .map_or(0.0, |e| e.eval.score.max(0.0))
                + 1.0,
            outcome: Outcome::Win,
            plies: Some(1),
        };
        let i = match analysis.moves.iter().position(|e| e.mv == win) {
            Some(i) => i,
            None => {
                analysis.moves.push(MoveEval {
                    mv: win,
                    eval: eval.clone(),
                    action: None,
                });
                analysis.moves.len() - 1
            }
        };
        analysis.moves[i].eval = eval;
        promote(analysis, i);
        return true;
    }
    let threats = win_cells(position, opp);
    if threats.is_empty() {
        return false;
    }
    // The opponent's winning cells left after `mv`.
    let left = |mv: Move| {
        let mut after = position.clone();
        after.play(mv);
        win_cells(&after, opp).len()
    };
    let now = left(analysis.best);
    if now == 0 {
        return false;
    }
    // Only a mark or block on a threat cell, a remove or a bomb can stop a five. When
    // none stops them all, stop as many as possible: the opponent may still miss one.
    let could = |mv: Move| match mv.piece {
        Piece::Mark | Piece::Block => threats.contains(&mv.cell()),
        Piece::Remove | Piece::Bomb => true,
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, e) in analysis.moves.iter().enumerate() {
        if !could(e.mv) || !position.is_legal(e.mv) {
            continue;
        }
        let l = left(e.mv);
        if best.is_none_or(|(_, b)| l < b) {
            best = Some((i, l));
        }
        if l == 0 {
            break;
        }
    }
    match best {
        Some((i, l)) if l < now => {
            promote(analysis, i);
            true
        }
        _ => false,
    }
}
