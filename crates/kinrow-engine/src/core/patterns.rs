//! Small tactical helpers shared by the one-ply heuristic engines (`greedy`, `threat`,
//! `priority`): where a player wins at once, and whether a move leaves the opponent
//! such a win.

use rand::rngs::StdRng;

use super::root::{self, RootResults};
use crate::core::budget::Budget;
use crate::core::types::{Analysis, MoveEval};
use kinrow_game::{Cell, Move, Piece, Player, Position, DIRECTIONS};

/// The cells where `player` would win with their next mark: [`winning_cells`] that a mark
/// can go on now. Under gravity a winning cell with an empty cell below it is a threat
/// for later, not a win now.
pub fn wins_now(position: &Position, player: Player) -> Vec<usize> {
    let mut cells = winning_cells(position, player);
    if position.gravity() {
        cells.retain(|&c| position.playable(c));
    }
    cells
}

/// The empty cells where a mark of `player` would complete a winning line now.
/// For `k >= 2` such a cell touches one of `player`'s marks, so only those are tried.
pub fn winning_cells(position: &Position, player: Player) -> Vec<usize> {
    let wins = |c: usize| position.cell(c) == Cell::Empty && position.wins_at(c, player);
    let geo = position.geometry();
    if geo.k <= 1 {
        return (0..position.cells().len()).filter(|&c| wins(c)).collect();
    }
    let own = Cell::Mark(player);
    let mut seen = vec![false; position.cells().len()];
    let mut out = Vec::new();
    for (c, &cell) in position.cells().iter().enumerate() {
        if cell != own {
            continue;
        }
        for &nb in geo.neighbours(c) {
            let nb = nb as usize;
            if !seen[nb] {
                seen[nb] = true;
                if wins(nb) {
                    out.push(nb);
                }
            }
        }
    }
    out.sort_unstable();
    out
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

/// After a move that changed `changed` (a removal or a bomb: they only clear cells), can
/// `player` win with their next mark? `before` are the cells where `player` could win
/// before the move ([`winning_cells`]). Clearing a cell cannot lengthen a run of marks,
/// so the only new winning cells are the cleared cells themselves, except with overline
/// off when a cleared cell held one of `player`'s marks (`reopened`): a run that was too
/// long may now be exactly `k`, so the cells on the lines within `k + 1` are tried too.
/// [`reopened`] says whether that can happen.
pub fn can_win_after(
    position: &Position,
    player: Player,
    before: &[usize],
    changed: &[usize],
    reopened: bool,
) -> bool {
    let wins = |c: usize| position.cell(c) == Cell::Empty && position.wins_at(c, player);
    if before.iter().any(|&c| wins(c)) || changed.iter().any(|&c| wins(c)) {
        return true;
    }
    if !reopened {
        return false;
    }
    let geo = position.geometry();
    let reach = geo.k as isize + 1;
    for &ch in changed {
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

/// Whether clearing `changed` (before the move) can make new winning cells for
/// `player` beyond the cleared cells: only with overline off, when one held their mark.
pub fn reopened(position: &Position, player: Player, changed: &[usize]) -> bool {
    !position.geometry().overline
        && changed
            .iter()
            .any(|&c| position.cell(c) == Cell::Mark(player))
}

/// Sorts `(move, random key)` pairs best first, ties to the highest key, and has the
/// root driver build the one-ply analysis around the first (`nodes` moves scored).
/// Shared by the one-ply engines.
pub fn finish(
    position: &Position,
    scored: Vec<(MoveEval, u64)>,
    nodes: u64,
    budget: &mut Budget,
    rng: &mut StdRng,
) -> Analysis {
    // Sort compact integer keys (the score's bits in total order, then the random key),
    // then move the entries: much faster than sorting the entries themselves.
    let total = |f: f64| {
        // `+ 0.0` makes -0.0 equal to 0.0.
        let b = (f + 0.0).to_bits();
        if b >> 63 == 1 {
            !b
        } else {
            b | 1 << 63
        }
    };
    let mut order: Vec<(u64, u64, u32)> = scored
        .iter()
        .enumerate()
        .map(|(i, (m, key))| (!total(m.eval.score), !key, i as u32))
        .collect();
    order.sort_unstable();
    let mut slots: Vec<Option<MoveEval>> = scored.into_iter().map(|(m, _)| Some(m)).collect();
    let moves: Vec<MoveEval> = order
        .iter()
        .map(|&(_, _, i)| slots[i as usize].take().expect("each index once"))
        .collect();
    budget.count(nodes);
    root::finish(position, RootResults::new(moves, 1, true), budget, rng)
}
