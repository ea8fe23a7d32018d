//! A table of solved small positions, kept between calls on each thread.
//!
//! A game frontend on a small board (tic-tac-toe, 4x4) asks about the same few thousand
//! positions again and again, and every exact answer is a pure function of the position:
//! the outcome and plies of every move and the line after each best move. Only the choice
//! among equally good moves depends on the request's seed, and it is made after the lookup
//! ([`super::finish`]), so a remembered answer is the same answer, seed for seed, as a
//! fresh search. Only complete solves (every move proven, the clock never stopped) of
//! boards with at most [`MAX_CELLS`] cells and no mistakes are kept; the table holds at
//! most [`CAPACITY`] positions per thread and starts over when full.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::Verdict;
use crate::game::{Cell, Hand, Move, Player, Position};

/// The largest board (in cells) whose solved positions are remembered.
pub const MAX_CELLS: usize = 16;
/// Positions remembered per thread.
pub const CAPACITY: usize = 1 << 13;

/// Everything the exact answer depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    m: usize,
    n: usize,
    k: u32,
    overline: bool,
    hands: [Hand; 2],
    to_move: Player,
    cells: Vec<Cell>,
}

impl Key {
    fn of(position: &Position) -> Key {
        Key {
            m: position.m(),
            n: position.n(),
            k: position.k(),
            overline: position.geometry().overline,
            hands: [position.hand(Player::X), position.hand(Player::O)],
            to_move: position.to_move(),
            cells: position.cells().to_vec(),
        }
    }
}

/// A solved position: every root move's verdict, the depth the search reached, and the
/// line after each of the best moves.
#[derive(Debug)]
pub struct Solved {
    pub verdicts: Vec<Verdict>,
    pub depth: u32,
    pub lines: Vec<(Move, Vec<Move>)>,
}

impl Solved {
    /// The line after `mv` (empty for a move that is not among the best).
    pub fn line_after(&self, mv: Move) -> Vec<Move> {
        self.lines
            .iter()
            .find(|(m, _)| *m == mv)
            .map(|(_, line)| line.clone())
            .unwrap_or_default()
    }
}

thread_local! {
    static TABLE: RefCell<HashMap<Key, Rc<Solved>>> = RefCell::new(HashMap::new());
}

/// Forgets every position this thread solved, so that the next call searches (benches
/// that measure the search itself call this before each call).
pub fn forget() {
    TABLE.with(|t| t.borrow_mut().clear());
}

/// True when answers for `position` are remembered.
pub fn applies(position: &Position) -> bool {
    position.cells().len() <= MAX_CELLS
}

/// The remembered answer for `position`, if this thread solved it before.
pub fn recall(position: &Position) -> Option<Rc<Solved>> {
    TABLE.with(|t| t.borrow().get(&Key::of(position)).cloned())
}

/// Remembers the complete answer for `position`.
pub fn remember(position: &Position, solved: Solved) -> Rc<Solved> {
    let solved = Rc::new(solved);
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() >= CAPACITY {
            t.clear();
        }
        t.insert(Key::of(position), Rc::clone(&solved));
    });
    solved
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use crate::engine::perfect::Perfect;
    use crate::engine::{Engine, Limits};
    use crate::game::{parse_board_string, Position, Rules};

    fn position(m: u64, n: u64, k: u64, board: &str) -> Position {
        let rules = Rules::mnk(m, n, k).unwrap();
        let cells = parse_board_string(board, rules.m(), rules.n()).unwrap();
        Position::from_cells(&rules, cells, None).unwrap()
    }

    fn answer(p: &Position, seed: u64) -> crate::engine::Analysis {
        Perfect.analyze(p, &Limits::default(), &mut StdRng::seed_from_u64(seed))
    }

    #[test]
    fn a_remembered_answer_is_the_searched_answer() {
        let p = position(3, 3, 3, "x../.o./...");
        let first = answer(&p, 5);
        assert!(first.stats.nodes > 0, "the first call searches");
        assert!(first.stats.complete);
        for seed in [5, 6, 7, 8] {
            let fresh = answer(&p, seed);
            assert_eq!(
                fresh.stats.nodes, 0,
                "later calls are answered from the table"
            );
            let searched = {
                // The same position under another thread's (empty) table: a real search.
                let p = p.clone();
                std::thread::spawn(move || answer(&p, seed)).join().unwrap()
            };
            assert!(searched.stats.nodes > 0);
            assert_eq!(fresh.best, searched.best);
            assert_eq!(fresh.moves, searched.moves);
            assert_eq!(fresh.pv, searched.pv);
            assert_eq!(fresh.evaluation, searched.evaluation);
        }
    }

    #[test]
    fn positions_that_differ_only_in_the_rules_are_told_apart() {
        use crate::engine::Outcome;
        // The same cells: a draw for every move with k = 3, an immediate win with k = 2.
        let k3 = position(3, 3, 3, "x../.o./...");
        let k2 = position(3, 3, 2, "x../.o./...");
        for _ in 0..2 {
            let a = answer(&k3, 1);
            assert!(a.moves.iter().all(|e| e.eval.outcome == Outcome::Draw));
            let b = answer(&k2, 1);
            assert_eq!(b.evaluation.outcome, Outcome::Win);
            assert_eq!(b.evaluation.plies, Some(1));
        }
    }
}
