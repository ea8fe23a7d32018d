//! The moves of a position that do not lose at once: the safe moves (after which the
//! opponent has no winning mark), the one forced move where there is exactly one, and the
//! value of a finished position for its side to move.

use kinrow_game::{Cell, Move, Position};

/// The moves of `position` (in progress) that do not let the opponent win on the next
/// ply: a move that wins at once, or after which the opponent has no winning mark.
pub fn safe_moves(position: &Position) -> Vec<Move> {
    let me = position.to_move();
    let opp = me.opponent();
    position
        .legal_moves()
        .into_iter()
        .filter(|&mv| {
            let mut after = position.clone();
            after.play(mv);
            after.winner() == Some(me)
                || after.is_over()
                || !(0..after.cells().len())
                    .any(|c| after.cell(c) == Cell::Empty && after.wins_at(c, opp))
        })
        .collect()
}

/// The most (legal moves x cells) [`forced`] tries one by one, with special pieces in
/// hand; past it a position is not judged forced.
const FORCED_WORK: usize = 1 << 20;

/// The one move that does not lose at once, when `position` has exactly one (a single
/// legal move counts too).
///
/// Without special pieces a move cannot give the opponent a new win: the safe moves are
/// the marks that win now, and a mark on the opponent's winning cell when there is only
/// one. With special pieces (a remove or a bomb can open a line) every legal move is
/// tried, up to [`FORCED_WORK`].
pub fn forced(position: &Position) -> Option<Move> {
    let legal = position.legal_moves();
    if legal.len() == 1 {
        return Some(legal[0]);
    }
    let me = position.to_move();
    let wins = |p| -> Vec<usize> {
        (0..position.cells().len())
            .filter(|&c| position.cell(c) == Cell::Empty && position.wins_at(c, p))
            .collect()
    };
    if position.has_special_pieces() {
        if legal.len() * position.cells().len() > FORCED_WORK {
            return None;
        }
        return match safe_moves(position).as_slice() {
            [only] => Some(*only),
            _ => None,
        };
    }
    let threats = wins(me.opponent());
    if threats.is_empty() {
        return None;
    }
    let mut safe = wins(me);
    if let [only] = threats.as_slice() {
        if !safe.contains(only) {
            safe.push(*only);
        }
    }
    match safe.as_slice() {
        [only] => Some(Move::mark(*only)),
        _ => None,
    }
}

/// The value of a finished position for its side to move: -1 when the other side won,
/// 0 for a draw.
pub fn final_value(position: &Position) -> f64 {
    match position.winner() {
        Some(w) if w == position.to_move() => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}
