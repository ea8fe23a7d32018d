//! The pattern search's lines: the principal variation after a root move, read from the
//! table's best moves, and the progress report after each completed iteration.

use super::{PatternSearch, RootMove};
use crate::core::budget::Budget;
use crate::core::progress::Line;
use crate::core::types::Scale;
use crate::core::types::{Evaluation, Outcome};
use kinrow_game::codes::EMPTY;
use kinrow_game::Move;

impl PatternSearch {
    /// The line that starts with a mark on `first`: the table's best moves after it, up
    /// to `len` moves in all.
    pub fn line(&mut self, first: u16, len: usize) -> Vec<Move> {
        let mut played = vec![first as usize];
        self.play(first as usize);
        while played.len() < len {
            let key = self.key();
            let e = self.tt.read(self.tt.slot(key));
            let c = e.best as usize;
            if e.key != key || c >= self.solver.board.cells().len() {
                break;
            }
            if self.solver.board.cells()[c] != EMPTY {
                break;
            }
            self.play(c);
            played.push(c);
        }
        for &c in played.iter().rev() {
            self.undo(c);
        }
        played.into_iter().map(Move::mark).collect()
    }

    /// Reports `roots` (best first, the `wanted` best as lines) after the completed
    /// `depth` to `budget`'s watch, with every searched root's value, depth and bound
    /// (a late answer lists them as a finished one does).
    pub(super) fn report(
        &mut self,
        budget: &Budget,
        roots: &[RootMove],
        depth: u32,
        wanted: usize,
    ) {
        if !budget.observed() {
            return;
        }
        let lines = roots
            .iter()
            .take(wanted)
            .map(|r| Line {
                mv: Move::mark(r.cell as usize),
                eval: Evaluation {
                    score: r.value as f64,
                    outcome: Outcome::Unknown,
                    plies: None,
                },
                win_rate: None,
                pv: self.line(r.cell, depth as usize),
            })
            .collect();
        let scale = if self.learned {
            Scale::Learned
        } else {
            Scale::Pattern
        };
        let moves = roots
            .iter()
            .filter(|r| r.depth > 0)
            .map(RootMove::move_eval)
            .collect();
        budget.report_moves(depth, scale, lines, moves);
    }
}
