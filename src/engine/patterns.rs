//! Small tactical helpers shared by the one-ply heuristic engines (`greedy`, `threat`,
//! `priority`): where a player wins at once, and whether a move leaves the opponent
//! such a win.

use std::time::Instant;

use super::{Analysis, MoveEval, SearchStats};
use crate::game::{Cell, Move, Piece, Player, Position, DIRECTIONS};

/// The empty cells where a mark of `player` would complete a winning line now.
pub fn winning_cells(position: &Position, player: Player) -> Vec<usize> {
    (0..position.cells().len())
        .filter(|&c| position.cell(c) == Cell::Empty && position.wins_at(c, player))
        .collect()
}

/// The cells a move changes: its target, plus the neighbours a bomb clears.
pub fn changed_cells(position: &Position, mv: Move) -> ([usize; 9], usize) {
    let mut out = [mv.cell(); 9];
    let mut len = 1;
    if mv.piece == Piece::Bomb {
        for &nb in position.geometry().neighbours(mv.cell()) {
            out[len] = nb as usize;
            len += 1;
        }
    }
    (out, len)
}

/// After a move that changed `changed`, can `player` win with their next mark?
/// `before` are the cells where `player` could win before the move
/// ([`winning_cells`]). Only those and the cells on a line within `k + 1` of a changed
/// cell can be winning cells now: a mark, block, removal or bomb elsewhere cannot
/// create or spoil a line (overline included).
pub fn can_win_after(
    position: &Position,
    player: Player,
    before: &[usize],
    changed: &[usize],
) -> bool {
    let wins = |c: usize| position.cell(c) == Cell::Empty && position.wins_at(c, player);
    if before.iter().any(|&c| wins(c)) {
        return true;
    }
    let geo = position.geometry();
    let reach = geo.k as isize + 1;
    for &ch in changed {
        if wins(ch) {
            return true;
        }
        for d in DIRECTIONS {
            let (dr, dc) = d.step();
            for sign in [-1, 1] {
                for step in 1..=reach {
                    match geo.offset(ch, sign * step * dr, sign * step * dc) {
                        Some(c) if wins(c) => return true,
                        Some(_) => {}
                        None => break,
                    }
                }
            }
        }
    }
    false
}

/// Sorts `(move, random key)` pairs best first, ties to the highest key, and builds
/// the one-ply analysis around the first. Shared by the one-ply engines.
pub fn finish(mut scored: Vec<(MoveEval, u64)>, nodes: u64, start: Instant) -> Analysis {
    scored.sort_by(|a, b| {
        b.0.eval
            .score
            .total_cmp(&a.0.eval.score)
            .then(b.1.cmp(&a.1))
    });
    let moves: Vec<MoveEval> = scored.into_iter().map(|(m, _)| m).collect();
    let first = moves
        .first()
        .expect("the position is in progress, so there is a legal move");
    Analysis {
        best: first.mv,
        evaluation: first.eval.clone(),
        pv: vec![first.mv],
        stats: SearchStats {
            nodes,
            depth: 1,
            elapsed: start.elapsed(),
            complete: true,
            path: None,
        },
        moves,
    }
}
