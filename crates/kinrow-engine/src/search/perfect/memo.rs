//! A table of solved small positions, kept between calls in the caller's
//! [`SearchContext`](crate::core::context::SearchContext).
//!
//! A game frontend on a small board (tic-tac-toe, 4x4) asks about the same few thousand
//! positions again and again, and every exact answer is a pure function of the position:
//! the outcome and plies of every move and the line after each best move. Only the choice
//! among equally good moves depends on the request's seed, and it is made after the lookup
//! ([`super::finish`]), so a remembered answer is the same answer, seed for seed, as a
//! fresh search. Only complete solves (every move proven, the budget never stopped) of
//! boards with at most [`MAX_CELLS`] cells and no mistakes are kept; the table holds at
//! most [`CAPACITY`] positions per context and starts over when full.

use std::collections::HashMap;
use std::sync::Arc;

use super::verdict::Verdict;
use crate::core::context::Kept;
use kinrow_game::{Cell, Hand, Move, Player, Position};

/// The largest board (in cells) whose solved positions are remembered.
pub const MAX_CELLS: usize = 16;
/// Positions remembered per context.
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

/// The solved positions a context keeps.
#[derive(Default)]
pub struct SolvedPositions {
    table: HashMap<Key, Arc<Solved>>,
}

impl Kept for SolvedPositions {
    fn bytes(&self) -> usize {
        // Each entry: the key's cells, the verdicts and lines, and the map's own slot.
        self.table
            .iter()
            .map(|(k, s)| {
                k.cells.len()
                    + s.verdicts.len() * std::mem::size_of::<Verdict>()
                    + s.lines.iter().map(|(_, l)| 16 + l.len() * 8).sum::<usize>()
                    + 160
            })
            .sum()
    }
}

/// True when answers for `position` are remembered.
pub fn applies(position: &Position) -> bool {
    position.cells().len() <= MAX_CELLS
}

impl SolvedPositions {
    /// The remembered answer for `position`, if it was solved before.
    pub fn recall(&self, position: &Position) -> Option<Arc<Solved>> {
        self.table.get(&Key::of(position)).cloned()
    }

    /// Remembers the complete answer for `position`.
    pub fn remember(&mut self, position: &Position, solved: Solved) -> Arc<Solved> {
        let solved = Arc::new(solved);
        if self.table.len() >= CAPACITY {
            self.table.clear();
        }
        self.table.insert(Key::of(position), Arc::clone(&solved));
        solved
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use crate::core::analyze::Engine;
    use crate::core::context::SearchContext;
    use crate::core::types::Limits;
    use crate::search::perfect::Perfect;
    use kinrow_game::{parse_board_string, Position, Rules};

    fn position(m: u64, n: u64, k: u64, board: &str) -> Position {
        let rules = Rules::mnk(m, n, k).unwrap();
        let cells = parse_board_string(board, rules.m(), rules.n()).unwrap();
        Position::from_cells(&rules, cells, None).unwrap()
    }

    fn answer(p: &Position, seed: u64, ctx: &mut SearchContext) -> crate::core::types::Analysis {
        Perfect.analyze_with(p, &Limits::default(), ctx, &mut StdRng::seed_from_u64(seed))
    }

    #[test]
    fn a_remembered_answer_is_the_searched_answer() {
        let p = position(3, 3, 3, "x../.o./...");
        let mut ctx = SearchContext::new();
        let first = answer(&p, 5, &mut ctx);
        assert!(first.stats.nodes > 0, "the first call searches");
        assert!(first.stats.complete);
        for seed in [5, 6, 7, 8] {
            let fresh = answer(&p, seed, &mut ctx);
            assert_eq!(
                fresh.stats.nodes, 0,
                "later calls are answered from the table"
            );
            // The same position with a new (empty) context: a real search.
            let searched = answer(&p, seed, &mut SearchContext::new());
            assert!(searched.stats.nodes > 0);
            assert_eq!(fresh.best, searched.best);
            assert_eq!(fresh.moves, searched.moves);
            assert_eq!(fresh.pv, searched.pv);
            assert_eq!(fresh.evaluation, searched.evaluation);
        }
    }

    /// A search limited by nodes neither reads the table nor depends on it: the same
    /// answer, node count included, whatever the context saw before.
    #[test]
    fn a_node_limited_search_ignores_what_the_context_kept() {
        let p = position(3, 3, 3, "x../.o./...");
        let limits = Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let mut used = SearchContext::new();
        answer(&p, 5, &mut used);
        let run = |ctx: &mut SearchContext| {
            Perfect.analyze_with(&p, &limits, ctx, &mut StdRng::seed_from_u64(5))
        };
        let after = run(&mut used);
        let fresh = run(&mut SearchContext::new());
        assert!(after.stats.nodes > 0);
        assert_eq!(after.stats.nodes, fresh.stats.nodes);
        assert_eq!(after.moves, fresh.moves);
    }

    #[test]
    fn positions_that_differ_only_in_the_rules_are_told_apart() {
        use crate::core::types::Outcome;
        // The same cells: a draw for every move with k = 3, an immediate win with k = 2.
        let k3 = position(3, 3, 3, "x../.o./...");
        let k2 = position(3, 3, 2, "x../.o./...");
        let mut ctx = SearchContext::new();
        for _ in 0..2 {
            let a = answer(&k3, 1, &mut ctx);
            assert!(a.moves.iter().all(|e| e.eval.outcome == Outcome::Draw));
            let b = answer(&k2, 1, &mut ctx);
            assert_eq!(b.evaluation.outcome, Outcome::Win);
            assert_eq!(b.evaluation.plies, Some(1));
        }
    }
}
