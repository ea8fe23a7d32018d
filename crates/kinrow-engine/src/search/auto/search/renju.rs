//! The pattern search under renju: x's forbidden cells are no moves.

use super::PatternSearch;
use crate::search::auto::score::PATTERN_WIN;

impl PatternSearch {
    /// Renju, x to move: drops the forbidden cells from `moves` (nothing to do otherwise).
    pub(super) fn drop_forbidden(&mut self, moves: &mut Vec<(i64, u16)>) {
        let board = &mut self.solver.board;
        if board.restricts(self.side) {
            moves.retain(|m| !board.forbidden(self.side, m.1 as usize));
        }
    }

    /// Renju, x to move at a node: keeps the allowed moves of `moves` (a `staged` table
    /// move that is not allowed makes way for the full list). `Some(value)` when none is
    /// left: a loss when a five had to be stopped (`forced`), else the static value.
    pub(super) fn keep_allowed(
        &mut self,
        ply: usize,
        moves: &mut Vec<(i64, u16)>,
        staged: &mut bool,
        forced: bool,
    ) -> Option<i64> {
        self.drop_forbidden(moves);
        if moves.is_empty() && *staged {
            *staged = false;
            self.quiet_moves(ply, i32::MAX, moves);
        }
        if !moves.is_empty() {
            return None;
        }
        Some(if forced {
            -(PATTERN_WIN - ply as i64 - 2)
        } else {
            self.eval()
        })
    }
}
