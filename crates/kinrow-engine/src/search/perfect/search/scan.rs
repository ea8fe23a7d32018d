//! What one pass over the windows of a position tells the exact search: the winning
//! cells, the Erdős–Selfridge potentials, the fewest marks a line still needs, the live
//! cells, the doubles, and (with scores) each player's open windows, which give the
//! per-cell weights the move order uses.

use super::super::bits::{cells, Bits};
use super::super::board::State;
use super::Solver;

/// What one pass over the windows learns about a position.
pub struct Scan<B> {
    /// Cells where a mark of x / o wins now.
    pub threats: [B; 2],
    /// Erdős–Selfridge potential of x / o: sum over open windows of `2^-missing`.
    pub potential: [f64; 2],
    /// The fewest marks x / o still needs in any open window (`u32::MAX` when none).
    pub missing: [u32; 2],
    /// Empty cells on some window that someone can still complete.
    pub live: B,
    /// Whether x / o has a cell whose mark would leave two different winning cells
    /// ("a double"; only worked out by a scan with scores).
    pub doubles: [bool; 2],
}

impl<B: Bits> Solver<'_, B> {
    /// One pass over the windows; with `score`, also the open windows of each player
    /// (with their weights) and the cells that would make a double, the input of the
    /// per-cell weights ([`Solver::cell_weights`], [`Solver::order_scores`]).
    pub fn scan(&mut self, st: &State<B>, score: bool) -> Scan<B> {
        self.scan_within(st, score, [u32::MAX; 2])
    }

    /// [`Solver::scan`] where x / o can place at most `marks[p]` more marks in time
    /// (see [`Solver::deadline_marks`]): their windows that miss more count as dead.
    pub(super) fn scan_within(&mut self, st: &State<B>, score: bool, marks: [u32; 2]) -> Scan<B> {
        let shape = self.shape;
        let k = shape.k;
        let occupied = st.occupied();
        // Marks each side can still place (while no piece can clear cells): a window
        // missing more is dead for its owner.
        let left = if st.can_clear() {
            [u32::MAX; 2]
        } else {
            let empties = (shape.full & !occupied).count();
            let mut l = [empties / 2; 2];
            l[st.side] = empties.div_ceil(2);
            [l[0].min(marks[0]), l[1].min(marks[1])]
        };
        let mut out = Scan {
            threats: [B::default(); 2],
            potential: [0.0; 2],
            missing: [u32::MAX; 2],
            live: B::default(),
            doubles: [false; 2],
        };
        if score {
            self.es_ready = [false; 2];
            for p in 0..2 {
                self.open[p].clear();
                self.open_own[p].clear();
            }
            self.makes.iter_mut().for_each(|m| *m = [B::default(); 2]);
        }
        for line in &shape.lines {
            let mask = line.mask;
            if !(st.blocks & mask).none() {
                continue;
            }
            let (xs, os) = (st.marks[0] & mask, st.marks[1] & mask);
            // Whose window it can still be: both players' while it is empty, else only
            // the one player with marks in it.
            let (owners, own): (&[usize], u32) = match (xs.none(), os.none()) {
                (true, true) => (&[0, 1], 0),
                (false, true) => (&[0], xs.count()),
                (true, false) => (&[1], os.count()),
                (false, false) => continue,
            };
            if own >= k {
                continue;
            }
            let empty = mask & !occupied;
            let missing = k - own;
            for &p in owners {
                if missing > left[p] || (!shape.overline && !(st.marks[p] & line.ext).none()) {
                    continue;
                }
                out.potential[p] += shape.inv_pow[missing as usize];
                out.missing[p] = out.missing[p].min(missing);
                out.live |= empty;
                if missing == 1 {
                    out.threats[p] |= empty;
                }
                if score {
                    self.open[p].push(empty);
                    self.open_own[p].push(own as u8);
                    if missing == 2 {
                        let (a, b) = (empty.first(), empty.rest().first());
                        let (made_a, made_b) = (self.makes[a][p], self.makes[b][p]);
                        out.doubles[p] |=
                            !(made_a & !B::bit(b)).none() || !(made_b & !B::bit(a)).none();
                        self.makes[a][p] = made_a | B::bit(b);
                        self.makes[b][p] = made_b | B::bit(a);
                    }
                }
            }
        }
        out
    }

    /// Fills `es` for player `p` from the open windows of the last scan with scores
    /// (once per scan: only nodes that get this far need it).
    pub(super) fn cell_weights(&mut self, p: usize) {
        if self.es_ready[p] {
            return;
        }
        self.es_ready[p] = true;
        self.es.iter_mut().for_each(|e| e[p] = 0.0);
        let (k, inv_pow) = (self.shape.k, &self.shape.inv_pow);
        for (&w, &own) in self.open[p].iter().zip(&self.open_own[p]) {
            let es = inv_pow[(k - own as u32) as usize];
            for c in cells(w) {
                self.es[c][p] += es;
            }
        }
    }

    /// The most one mark can change player `p`'s potential: the largest per-cell
    /// Erdős–Selfridge weight of the last scan with scores.
    pub(super) fn swing(&mut self, p: usize) -> f64 {
        self.cell_weights(p);
        self.es.iter().fold(0.0, |m, e| m.max(e[p]))
    }

    /// The move-ordering score of every empty cell, from the open windows of the last
    /// scan with scores: every still-open window through it, for either player,
    /// weighted by how full it already is. An `attacker`'s own windows (the side to move
    /// when only a win counts for it) weigh as if they held one more mark. Only nodes
    /// that try moves need it.
    pub fn order_scores(&mut self, attacker: Option<usize>) {
        self.scores.iter_mut().for_each(|s| *s = 0);
        for p in 0..2 {
            let bonus = usize::from(attacker == Some(p));
            for (&w, &own) in self.open[p].iter().zip(&self.open_own[p]) {
                let weight = self.shape.weight[own as usize + bonus];
                for c in cells(w) {
                    self.scores[c] += weight;
                }
            }
        }
    }
}
