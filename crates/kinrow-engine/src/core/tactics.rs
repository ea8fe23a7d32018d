//! The tactics a player of some strength never overlooks, for any k: a win now, the
//! block of the opponent's win now ("fives"), and from a stronger level on, the moves
//! that win by force in a few plies and their blocks ("fours": a move that leaves two
//! winning cells, as an open four or a double four does, and a four that after its
//! forced block leaves such a move, as a four-three does).
//!
//! [`must_play`] answers the set of moves a player who sees these tactics chooses
//! among, or `None` when the position asks for nothing in particular. Levels use it to
//! keep a weakened engine from throwing a game away in a way no person of that strength
//! would ([`crate::service::level`]).
//!
//! The checks read only the lines through the cells involved: a mark can make new
//! winning cells only in the k-windows that contain it. With special pieces in play a
//! four can be answered by a removal or a bomb, so only the fives are checked then.
//! Under gravity a winning cell is a win now only where a mark can drop on it
//! ([`wins_now`]); one with an empty cell below is a threat for later, and two wins are
//! sure only when both can be taken now, or when one sits right above the other.

use super::patterns::{winning_cells, wins_now};
use kinrow_game::{Cell, Move, Player, Position, DIRECTIONS};

/// What a player sees.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sight {
    /// Wins now and the blocks of the opponent's win now.
    Fives,
    /// Also the forced wins by an open four, a double four or a four-three, and the
    /// moves that stop the opponent's.
    Fours,
}

/// The moves a player with `sight` chooses among in `position` (whose side to move is
/// the player), best kind first: every win now; else every move that leaves the
/// opponent no win now; with [`Sight::Fours`], else every move that makes two winning
/// cells, else every four-three, else every move that leaves the opponent none of
/// these. `None` when nothing is forced, or nothing helps (every move loses anyway).
pub fn must_play(position: &Position, sight: Sight) -> Option<Vec<Move>> {
    if position.is_over() {
        return None;
    }
    let me = position.to_move();
    let wins: Vec<Move> = wins_now(position, me)
        .into_iter()
        .map(Move::mark)
        .filter(|&mv| position.is_legal(mv))
        .collect();
    if !wins.is_empty() {
        return Some(wins);
    }
    let mut pos = position.clone();
    if !wins_now(position, me.opponent()).is_empty() {
        let saving: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|&mv| {
                let undo = pos.play_unchecked(mv);
                let safe = !pos.is_over() && wins_now(&pos, me.opponent()).is_empty();
                pos.undo(undo);
                safe
            })
            .collect();
        return (!saving.is_empty()).then_some(saving);
    }
    if sight < Sight::Fours || position.has_special_pieces() {
        return None;
    }
    let doubles = double_threats(&mut pos);
    if !doubles.is_empty() {
        return Some(doubles);
    }
    let four_threes = four_threes(&mut pos);
    if !four_threes.is_empty() {
        return Some(four_threes);
    }
    defences(&mut pos)
}

/// The marks of the side to move that are sure wins in three plies: they leave two
/// winning cells and the opponent no win now, with no special pieces in play (a removal
/// could undo a threat) and free rules (under caro or renju a mark can spoil a line's
/// ends or be forbidden).
pub fn sure_double_threats(position: &Position) -> Vec<Move> {
    if position.is_over()
        || position.has_special_pieces()
        || !position.rules().variant().plain_lines()
        || !wins_now(position, position.to_move().opponent()).is_empty()
    {
        return Vec::new();
    }
    double_threats(&mut position.clone())
}

/// The empty cells where a mark of `p` would lie in a k-window holding at least `need`
/// marks of `p` and nothing else: the only cells where a mark can make a four or more.
fn strong_cells(position: &Position, p: Player, need: u32) -> Vec<usize> {
    let geo = position.geometry();
    let windows = geo.windows();
    let own = Cell::Mark(p);
    (0..position.cells().len())
        .filter(|&c| position.cell(c) == Cell::Empty)
        .filter(|&c| {
            windows.through(c).iter().any(|&w| {
                let cells = &windows.all[w as usize].cells;
                let mut count = 0;
                for &x in cells.iter() {
                    match position.cell(x as usize) {
                        Cell::Empty => {}
                        cell if cell == own => count += 1,
                        _ => return false,
                    }
                }
                count >= need
            })
        })
        .collect()
}

/// The empty cells on the lines through `cell`, within k - 1 of it, where a mark of `p`
/// wins now: after a mark on `cell`, the winning cells it made.
fn wins_through(position: &Position, cell: usize, p: Player) -> Vec<usize> {
    let geo = position.geometry();
    let reach = geo.k as isize;
    let mut out = Vec::new();
    for d in DIRECTIONS {
        let (dr, dc) = d.step();
        for sign in [-1, 1] {
            for step in 1..reach {
                match geo.offset(cell, sign * step * dr, sign * step * dc) {
                    Some(c) if position.cell(c) == Cell::Empty => {
                        if position.wins_at(c, p) && !out.contains(&c) {
                            out.push(c);
                        }
                    }
                    Some(_) => {}
                    None => break,
                }
            }
        }
    }
    out
}

/// The candidate marks of the side to move that can make a four: legal, on a cell of a
/// window holding k - 2 of its marks and nothing else.
fn four_makers(pos: &Position) -> Vec<Move> {
    let me = pos.to_move();
    let need = pos.k().saturating_sub(2).max(1);
    strong_cells(pos, me, need)
        .into_iter()
        .map(Move::mark)
        .filter(|&mv| pos.is_legal(mv))
        .collect()
}

/// [`wins_through`] that `p` could take with their next mark (under gravity, those with
/// no empty cell below): after a mark on `cell`, the wins now it made.
fn threats_through(position: &Position, cell: usize, p: Player) -> Vec<usize> {
    let mut wins = wins_through(position, cell, p);
    if position.gravity() {
        wins.retain(|&c| position.playable(c));
    }
    wins
}

/// True when, after `p`'s mark on `cell`, the opponent cannot stop `p` winning with
/// `p`'s next mark: two wins now on the lines through the mark, or under gravity two
/// wins now anywhere (the mark may uncover one above it) or a win now with another of
/// `p`'s winning cells right above it (the block uncovers the second).
fn leaves_two_wins(position: &Position, cell: usize, p: Player) -> bool {
    if !position.gravity() {
        return wins_through(position, cell, p).len() >= 2;
    }
    let all = winning_cells(position, p);
    let now: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&c| position.playable(c))
        .collect();
    let m = position.m();
    now.len() >= 2 || now.iter().any(|&c| c >= m && all.contains(&(c - m)))
}

/// The marks of the side to move that leave it two or more winning cells (the
/// opponent having no win now to answer with).
fn double_threats(pos: &mut Position) -> Vec<Move> {
    let me = pos.to_move();
    four_makers(pos)
        .into_iter()
        .filter(|&mv| {
            let undo = pos.play_unchecked(mv);
            let double = !pos.is_over()
                && leaves_two_wins(pos, mv.cell(), me)
                && wins_now(pos, me.opponent()).is_empty();
            pos.undo(undo);
            double
        })
        .collect()
}

/// The fours of the side to move after whose only block it has a double threat
/// ([`double_threats`]), the block giving the opponent no win now.
fn four_threes(pos: &mut Position) -> Vec<Move> {
    let me = pos.to_move();
    four_makers(pos)
        .into_iter()
        .filter(|&mv| {
            let undo = pos.play_unchecked(mv);
            let mut found = false;
            let wins = threats_through(pos, mv.cell(), me);
            if !pos.is_over() && wins.len() == 1 && wins_now(pos, me.opponent()).is_empty() {
                let block = Move::mark(wins[0]);
                if pos.is_legal(block) {
                    let undo_block = pos.play_unchecked(block);
                    found = !pos.is_over()
                        && wins_now(pos, me.opponent()).is_empty()
                        && !double_threats(pos).is_empty();
                    pos.undo(undo_block);
                }
            }
            pos.undo(undo);
            found
        })
        .collect()
}

/// True when, with the opponent to move in `pos`, the opponent has a double threat or a
/// four-three.
fn opponent_attacks(pos: &mut Position) -> bool {
    !double_threats(pos).is_empty() || !four_threes(pos).is_empty()
}

/// The moves after which the opponent has neither a double threat nor a four-three, when
/// the opponent has one now; a four of the side to move counts as such a move (it must
/// be answered first). `None` when the opponent has none, or when no move stops it.
fn defences(pos: &mut Position) -> Option<Vec<Move>> {
    let me = pos.to_move();
    let them = me.opponent();
    let need = pos.k().saturating_sub(2).max(1);
    // Only moves on the opponent's strong windows (or fours of our own) can change the
    // opponent's threats; a move elsewhere stands for passing.
    let mut candidates: Vec<usize> = strong_cells(pos, them, need);
    let threat_windows: Vec<usize> = candidates.clone();
    if threat_windows.is_empty() {
        return None;
    }
    let geo = pos.geometry().clone();
    for &c in &threat_windows {
        for d in DIRECTIONS {
            let (dr, dc) = d.step();
            for sign in [-1, 1] {
                for step in 1..geo.k as isize {
                    if let Some(x) = geo.offset(c, sign * step * dr, sign * step * dc) {
                        if pos.cell(x) == Cell::Empty && !candidates.contains(&x) {
                            candidates.push(x);
                        }
                    }
                }
            }
        }
    }
    for mv in four_makers(pos) {
        if !candidates.contains(&mv.cell()) {
            candidates.push(mv.cell());
        }
    }
    let legal = pos.legal_moves();
    let pass = legal
        .iter()
        .copied()
        .find(|mv| mv.piece == kinrow_game::Piece::Mark && !candidates.contains(&mv.cell()));
    let mut safe = |mv: Move| {
        let undo = pos.play_unchecked(mv);
        let ok = !pos.is_over()
            && (!threats_through(pos, mv.cell(), me).is_empty() || !opponent_attacks(pos));
        pos.undo(undo);
        ok
    };
    if let Some(p) = pass {
        if safe(p) {
            return None;
        }
    }
    let good: Vec<Move> = legal
        .into_iter()
        .filter(|mv| mv.piece == kinrow_game::Piece::Mark && candidates.contains(&mv.cell()))
        .filter(|&mv| safe(mv))
        .collect();
    (!good.is_empty()).then_some(good)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kinrow_game::Rules;

    fn pos(rows: &[&str]) -> Position {
        let m = rows[0].len() as u64;
        let rules = Rules::mnk(m, rows.len() as u64, 5).unwrap();
        Position::new(&rules, Some(rows), None).unwrap()
    }

    fn cells(moves: Option<Vec<Move>>) -> Vec<usize> {
        let mut out: Vec<usize> = moves.unwrap_or_default().iter().map(|m| m.cell()).collect();
        out.sort_unstable();
        out
    }

    const EMPTY9: &str = ".........";

    #[test]
    fn a_five_is_played_and_the_only_block_of_one_is_found() {
        // x to move has four in a row with one open end: the five at (4,5).
        let p = pos(&[
            EMPTY9,
            EMPTY9,
            EMPTY9,
            "ooo......",
            "#xxxx....",
            EMPTY9,
            EMPTY9,
            "o........",
            EMPTY9,
        ]);
        assert_eq!(cells(must_play(&p, Sight::Fives)), vec![4 * 9 + 5]);
        // o to move (x has one more) must block (4,5): o's own three cannot win in time.
        let p = pos(&[
            EMPTY9,
            EMPTY9,
            EMPTY9,
            "oo.......",
            "#xxxx....",
            EMPTY9,
            EMPTY9,
            "o........",
            EMPTY9,
        ]);
        assert_eq!(cells(must_play(&p, Sight::Fives)), vec![4 * 9 + 5]);
    }

    #[test]
    fn an_open_four_is_made_and_an_open_three_is_stopped() {
        // x to move with an open three on row 4: (4,2) or (4,6) make an open four.
        let p = pos(&[
            EMPTY9,
            EMPTY9,
            "o........",
            "o........",
            "...xxx...",
            EMPTY9,
            EMPTY9,
            "o........",
            EMPTY9,
        ]);
        assert_eq!(cells(must_play(&p, Sight::Fives)), Vec::<usize>::new());
        let fours = cells(must_play(&p, Sight::Fours));
        assert!(
            fours.contains(&(4 * 9 + 2)) && fours.contains(&(4 * 9 + 6)),
            "{fours:?}"
        );
        // o to move against that open three: every answer is on row 4 near the three.
        let p = pos(&[
            EMPTY9,
            EMPTY9,
            "o........",
            EMPTY9,
            "...xxx...",
            EMPTY9,
            EMPTY9,
            "o........",
            EMPTY9,
        ]);
        let blocks = cells(must_play(&p, Sight::Fours));
        assert!(!blocks.is_empty());
        assert!(blocks.iter().all(|&c| c / 9 == 4), "{blocks:?}");
        assert!(blocks.contains(&(4 * 9 + 2)) && blocks.contains(&(4 * 9 + 6)));
    }

    #[test]
    fn a_quiet_position_forces_nothing() {
        let p = pos(&[
            EMPTY9,
            EMPTY9,
            EMPTY9,
            EMPTY9,
            "....x....",
            "....o....",
            EMPTY9,
            EMPTY9,
            EMPTY9,
        ]);
        assert_eq!(must_play(&p, Sight::Fours), None);
    }
}
