//! The image of a position under a symmetry of the board.

use super::super::lines::WinLine;
use super::super::setup::full_hash;
use super::super::symmetry::Symmetry;
use super::Position;

impl Position {
    /// The image of this position under `symmetry` (same hands and side to move).
    pub fn transformed(&self, symmetry: Symmetry) -> Position {
        let (m, n) = (self.m(), self.n());
        let mut image = self.clone();
        for (i, &c) in self.cells.iter().enumerate() {
            image.cells[symmetry.map_index(i, m, n)] = c;
        }
        image.hash = full_hash(&image.cells, image.hands, image.to_move);
        // The image of the winning line, not a new scan of the board: a `remove` or `bomb`
        // may have trimmed a longer line to exactly k under `overline: false`, which does
        // not win (only a mark wins), and a scan would take it for one.
        image.win = self.win.map(|w| {
            let cells = w.cells();
            let (first, last) = (cells[0], cells[cells.len() - 1]);
            WinLine::between(
                w.player,
                symmetry.map(first, m, n),
                symmetry.map(last, m, n),
            )
        });
        image
    }
}
