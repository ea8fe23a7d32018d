//! The cell codes the board keeps for the learned evaluation: for every empty cell and
//! player, the code of its four line classes ([`crate::eval::cells`]), with what the
//! learned evaluation sums over the empty cells (the tables' weights, or the network's
//! accumulators: each player's codes' vectors) and, per player, how many empty cells
//! make each threat. [`LineCodes`](super::LineCodes) tells it of every line code
//! a move changes; a cell whose classes stay the same (most cells a few steps away)
//! costs one table read, so a position's evaluation is always at hand. What a put
//! changes is saved, so that the take that undoes it (the search's order) restores it
//! without a table read; a take out of that order recomputes the cells instead.

use std::sync::OnceLock;

use crate::eval::cells::{code_table, threat_of, Threat, CODES, THREATS};
use crate::eval::classes;
use crate::eval::classes::MAX_K;
use crate::eval::network::{Accumulator, Network, CHANNELS};
use crate::eval::weights::threat_mask;
use crate::eval::Learned;
use kinrow_game::WinRule;

/// No code: the cell is occupied.
const OCCUPIED: u16 = u16::MAX;

/// The cell codes of one board and what they add up to.
#[derive(Clone)]
pub struct CellEval {
    /// Per line code, both players' classes in one byte (x's in the low four bits).
    classes: &'static [u8],
    combo: &'static [u16],
    learned: Option<Learned>,
    /// The network's, where it evaluates: both players' accumulators are kept.
    network: Option<&'static Network>,
    /// Per code, its weights and threat in one place (one memory read per code).
    info: Vec<CodeInfo>,
    /// `lines[cell][direction]`: the packed classes of the cell's lines (kept for empty
    /// cells only).
    lines: Vec<[u8; 4]>,
    /// `code[cell][player]`, [`OCCUPIED`] for a piece.
    code: Vec<[u16; 2]>,
    /// `sums[p]`: the summed `own` and `opp` weights of `p`'s codes.
    sums: [[i64; 2]; 2],
    /// `acc[p]`: the sum of the network's vectors of `p`'s codes (zero without one).
    acc: [Accumulator; 2],
    /// `threats[p][t]`: empty cells where a mark of `p` makes threat `t`.
    threats: [[u16; THREATS]; 2],
    /// The cells' lines and codes as they were before the puts not yet taken back.
    saved: Vec<Saved>,
    /// Per put not yet taken back, last on top: where its saved cells begin.
    puts: Vec<Put>,
}

/// What a code is worth to each side and the threat it makes.
#[derive(Clone, Copy)]
struct CodeInfo {
    own: i32,
    opp: i32,
    threat: Threat,
}

/// One cell's state before a put changed it.
#[derive(Clone, Copy)]
struct Saved {
    cell: u32,
    lines: [u8; 4],
    code: [u16; 2],
}

/// One put: its cell, where its saved cells begin, and the totals before it.
#[derive(Clone, Copy)]
struct Put {
    cell: u32,
    from: u32,
    sums: [[i64; 2]; 2],
    acc: [Accumulator; 2],
    threats: [[u16; THREATS]; 2],
}

fn threat_table() -> &'static [Threat] {
    static T: OnceLock<Vec<Threat>> = OnceLock::new();
    T.get_or_init(|| (0..CODES as u16).map(threat_of).collect())
}

fn rule_index(rule: WinRule) -> usize {
    match rule {
        WinRule::Overline => 0,
        WinRule::Exact => 1,
        WinRule::ExactOpen => 2,
    }
}

/// Both players' classes per line code, packed, for k and each player's rule.
fn packed(k: usize, rule: [WinRule; 2]) -> Option<&'static [u8]> {
    static TABLES: [OnceLock<Vec<u8>>; (MAX_K + 1) * 9] =
        [const { OnceLock::new() }; (MAX_K + 1) * 9];
    let (x, o) = (classes::table(k, rule[0])?, classes::table(k, rule[1])?);
    let slot = k * 9 + rule_index(rule[0]) * 3 + rule_index(rule[1]);
    Some(TABLES[slot].get_or_init(|| {
        x.iter()
            .zip(o)
            .map(|(a, b)| a[0] as u8 | (b[1] as u8) << 4)
            .collect()
    }))
}

impl CellEval {
    /// The codes of a board whose line codes are `lines` (per cell and direction) and
    /// whose cells hold `cells`, under win rules `rule` for k (at most 5).
    pub(super) fn new(
        k: usize,
        rule: [WinRule; 2],
        learned: Option<Learned>,
        lines: &[[u32; 4]],
        cells: &[u8],
    ) -> Option<CellEval> {
        let threat = threat_table();
        let weights = match learned {
            Some(Learned::Tables(w)) => Some(w),
            _ => None,
        };
        let network = match learned {
            Some(Learned::Network(n)) => Some(n),
            _ => None,
        };
        let info = (0..CODES)
            .map(|c| CodeInfo {
                own: weights.map_or(0, |w| w.own[c]),
                opp: weights.map_or(0, |w| w.opp[c]),
                threat: threat[c],
            })
            .collect();
        let mut eval = CellEval {
            classes: packed(k, rule)?,
            combo: code_table(),
            learned,
            network,
            info,
            lines: vec![[0; 4]; cells.len()],
            code: vec![[OCCUPIED; 2]; cells.len()],
            sums: [[0; 2]; 2],
            acc: [[0; CHANNELS]; 2],
            threats: [[0; THREATS]; 2],
            saved: Vec::new(),
            puts: Vec::new(),
        };
        for (c, &content) in cells.iter().enumerate() {
            if content == super::EMPTY {
                eval.emptied(c, &lines[c]);
            }
        }
        Some(eval)
    }

    /// The code of four packed line classes for player `p`.
    #[inline]
    fn combine(&self, lines: [u8; 4], p: usize) -> u16 {
        let [a, b, c, d] = lines.map(|l| ((l >> (4 * p)) & 15) as usize);
        self.combo[((a * 12 + b) * 12 + c) * 12 + d]
    }

    /// A piece is about to go on `cell`: what the put changes is saved from here on.
    #[inline]
    pub(super) fn putting(&mut self, cell: usize) {
        self.puts.push(Put {
            cell: cell as u32,
            from: self.saved.len() as u32,
            sums: self.sums,
            acc: self.acc,
            threats: self.threats,
        });
    }

    /// The piece on `cell` is taken back: true when this undid the last put (the cells
    /// are as before it); false when that put was another cell's, and the caller must
    /// tell of every line that changes (nothing saved is used again).
    #[inline]
    pub(super) fn taking(&mut self, cell: usize) -> bool {
        match self.puts.last() {
            Some(put) if put.cell == cell as u32 => {
                let put = self.puts.pop().expect("just seen");
                for s in self.saved.drain(put.from as usize..).rev() {
                    self.lines[s.cell as usize] = s.lines;
                    self.code[s.cell as usize] = s.code;
                }
                self.sums = put.sums;
                self.acc = put.acc;
                self.threats = put.threats;
                true
            }
            _ => {
                self.puts.clear();
                self.saved.clear();
                false
            }
        }
    }

    #[inline]
    fn save(&mut self, cell: usize) {
        if !self.puts.is_empty() {
            self.saved.push(Saved {
                cell: cell as u32,
                lines: self.lines[cell],
                code: self.code[cell],
            });
        }
    }

    /// `cell` now holds a piece: its codes count no more.
    #[inline]
    pub(super) fn filled(&mut self, cell: usize) {
        self.save(cell);
        let old = self.code[cell];
        for (p, &code) in old.iter().enumerate() {
            self.count(p, code, -1);
        }
        self.code[cell] = [OCCUPIED; 2];
    }

    /// `cell` is empty again, with line codes `lines`.
    #[inline]
    pub(super) fn emptied(&mut self, cell: usize, lines: &[u32; 4]) {
        let packed = lines.map(|l| self.classes[l as usize]);
        self.lines[cell] = packed;
        let new = [self.combine(packed, 0), self.combine(packed, 1)];
        for (p, &code) in new.iter().enumerate() {
            self.count(p, code, 1);
        }
        self.code[cell] = new;
    }

    /// The line code of `cell` along `direction` is `line` now (nothing for a piece).
    #[inline]
    pub(super) fn line_changed(&mut self, cell: usize, direction: usize, line: u32) {
        if self.code[cell][0] == OCCUPIED {
            return;
        }
        let class = self.classes[line as usize];
        if self.lines[cell][direction] == class {
            return;
        }
        self.save(cell);
        let changed = self.lines[cell][direction] ^ class;
        self.lines[cell][direction] = class;
        for p in 0..2 {
            if (changed >> (4 * p)) & 15 != 0 {
                let code = self.combine(self.lines[cell], p);
                self.count(p, self.code[cell][p], -1);
                self.count(p, code, 1);
                self.code[cell][p] = code;
            }
        }
    }

    #[inline]
    fn count(&mut self, p: usize, code: u16, sign: i64) {
        if code == OCCUPIED {
            return;
        }
        let info = self.info[code as usize];
        let t = &mut self.threats[p][info.threat as usize];
        *t = (*t as i64 + sign) as u16;
        self.sums[p][0] += sign * info.own as i64;
        self.sums[p][1] += sign * info.opp as i64;
        if let Some(net) = self.network {
            let v = &net.embed[code as usize];
            for (a, &e) in self.acc[p].iter_mut().zip(v) {
                *a += sign as i32 * e as i32;
            }
        }
    }

    /// The learned evaluation for `side` to move, in thousandths of a logit (0 without
    /// one).
    #[inline]
    pub fn eval(&self, side: usize) -> i64 {
        let mask = || threat_mask(|s, t| self.threats[side ^ s][t as usize] > 0);
        match self.learned {
            None => 0,
            Some(Learned::Tables(w)) => {
                self.sums[side][0] + self.sums[side ^ 1][1] + w.masks[mask()] as i64
            }
            Some(Learned::Network(net)) => net.eval(&self.acc[side], &self.acc[side ^ 1], mask()),
        }
    }

    /// The network's accumulator of player `p` (zero without a network).
    pub fn accumulator(&self, p: usize) -> &Accumulator {
        &self.acc[p]
    }

    /// The code of `cell` for player `p`; `None` for an occupied cell.
    #[inline]
    pub fn code(&self, cell: usize, p: usize) -> Option<u16> {
        let c = self.code[cell][p];
        (c != OCCUPIED).then_some(c)
    }

    /// The threat a mark of `p` on `cell` makes (`Quiet` for an occupied cell).
    #[inline]
    pub fn threat_at(&self, cell: usize, p: usize) -> Threat {
        match self.code(cell, p) {
            Some(c) => self.info[c as usize].threat,
            None => Threat::Quiet,
        }
    }

    /// How many empty cells give player `p` threat `t`.
    #[inline]
    pub fn threats(&self, p: usize, t: Threat) -> u16 {
        self.threats[p][t as usize]
    }

    /// True when a learned evaluation is summed.
    pub fn weighted(&self) -> bool {
        self.learned.is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::board::PatternBoard;
    use crate::eval::cells::{Threat, CODES};
    use crate::eval::network::{Network, CHANNELS};
    use crate::eval::weights::{threat_mask, LearnedWeights};
    use crate::eval::Learned;
    use kinrow_game::codes::{stone, BLOCK, EMPTY};
    use kinrow_game::{splitmix64, Hand, Position, Rules, Variant};

    fn weights() -> &'static LearnedWeights {
        static W: std::sync::OnceLock<LearnedWeights> = std::sync::OnceLock::new();
        W.get_or_init(|| {
            let mut w = LearnedWeights::zero("test");
            for i in 0..CODES {
                w.own[i] = (splitmix64(i as u64) % 2001) as i32 - 1000;
                w.opp[i] = (splitmix64(i as u64 + 99_999) % 2001) as i32 - 1000;
            }
            for (m, v) in w.masks.iter_mut().enumerate() {
                *v = (splitmix64(m as u64 + 7_777) % 2001) as i32 - 1000;
            }
            w
        })
    }

    /// One random step of a board under test: past `most` pieces, or one time in
    /// `take_one_in`, a piece comes off (the last put in `last_of_32` of 32 cases, as a
    /// search takes back and the put's saved cells restore; else another, which
    /// recomputes); otherwise one of `contents` goes on a random cell if it is empty.
    fn random_step(
        board: &mut PatternBoard,
        placed: &mut Vec<usize>,
        seed: u64,
        (most, take_one_in, last_of_32): (usize, u64, u64),
        contents: &[u8],
    ) {
        if placed.len() > most || (!placed.is_empty() && seed % take_one_in == 0) {
            let i = if seed % 32 < last_of_32 {
                placed.len() - 1
            } else {
                (seed >> 8) as usize % placed.len()
            };
            board.take(placed.swap_remove(i));
        } else {
            let c = (seed >> 8) as usize % board.cells().len();
            if board.cells()[c] == EMPTY {
                board.put(c, contents[(seed >> 40) as usize % contents.len()]);
                placed.push(c);
            }
        }
    }

    /// A board built afresh from `empty` with the pieces of `board`, summing `learned`.
    fn afresh(board: &PatternBoard, empty: &Position, learned: Option<Learned>) -> PatternBoard {
        let mut fresh = PatternBoard::new(empty).with_cells(learned);
        for (c, &content) in board.cells().iter().enumerate() {
            if content != EMPTY {
                fresh.put(c, content);
            }
        }
        fresh
    }

    /// Codes, threat counts and sums kept move by move equal those of a board built
    /// afresh on the same cells, on random boards with marks and blocks, as cells are
    /// marked and cleared (mostly the last marked first, sometimes another), under every
    /// win rule.
    #[test]
    fn kept_codes_equal_fresh_ones() {
        let cases = [
            (Rules::mnk(15, 15, 5).unwrap(), Variant::Free),
            (
                Rules::new(11, 9, 5, false, [Hand::new(3, 0, 0); 2]).unwrap(),
                Variant::Free,
            ),
            (Rules::mnk(13, 13, 5).unwrap(), Variant::Renju),
            (Rules::mnk(10, 12, 4).unwrap(), Variant::Caro),
        ];
        for (rules, variant) in cases {
            let rules = rules.with_variant(variant).unwrap();
            let empty = Position::empty(&rules);
            let mut board = PatternBoard::new(&empty).with_cells(Some(Learned::Tables(weights())));
            let mut seed = 5 + rules.m() as u64;
            let mut placed: Vec<usize> = Vec::new();
            let blocks = rules.has_special_pieces();
            for step in 0..250 {
                seed = splitmix64(seed);
                let cells = board.cells().len();
                let kinds = if blocks { 3 } else { 2 };
                let contents = &[stone(0), stone(1), BLOCK][..kinds];
                random_step(&mut board, &mut placed, seed, (50, 4, 24), contents);
                let kept = board.cell_eval().unwrap();
                let fresh = afresh(&board, &empty, Some(Learned::Tables(weights())));
                let fresh = fresh.cell_eval().unwrap();
                for c in 0..cells {
                    for p in 0..2 {
                        assert_eq!(
                            kept.code(c, p),
                            fresh.code(c, p),
                            "{variant:?} step {step} cell {c}"
                        );
                    }
                }
                for p in 0..2 {
                    assert_eq!(kept.eval(p), fresh.eval(p), "{variant:?} step {step}");
                    assert_eq!(
                        kept.threats(p, Threat::Five),
                        fresh.threats(p, Threat::Five)
                    );
                }
                // The sum is the weights of the codes of the empty cells and of the
                // threat mask.
                let mask = threat_mask(|s, t| kept.threats(s, t) > 0);
                let direct: i64 = (0..cells)
                    .filter_map(|c| Some((kept.code(c, 0)?, kept.code(c, 1)?)))
                    .map(|(x, o)| {
                        weights().own[x as usize] as i64 + weights().opp[o as usize] as i64
                    })
                    .sum::<i64>()
                    + weights().masks[mask] as i64;
                assert_eq!(kept.eval(0), direct);
            }
        }
    }

    fn network() -> &'static Network {
        static N: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
        N.get_or_init(crate::eval::network::tests::scrambled)
    }

    /// The network's accumulators, kept put by put and take by take over 10^5 random
    /// steps on 15x15 (mostly the last put taken first, as a search does, sometimes
    /// another), always equal the sums of the vectors of the empty cells' codes, and
    /// the evaluation equals the network run on those sums; every 500 steps the whole
    /// board is also built afresh and must agree.
    #[test]
    fn the_networks_accumulators_follow_every_put_and_take() {
        let rules = Rules::mnk(15, 15, 5).unwrap();
        let empty = Position::empty(&rules);
        let learned = Some(Learned::Network(network()));
        let mut board = PatternBoard::new(&empty).with_cells(learned);
        let mut seed = 99u64;
        let mut placed: Vec<usize> = Vec::new();
        let cells = board.cells().len();
        for step in 0..100_000 {
            seed = splitmix64(seed);
            random_step(
                &mut board,
                &mut placed,
                seed,
                (60, 3, 28),
                &[stone(0), stone(1)],
            );
            let kept = board.cell_eval().unwrap();
            for p in 0..2 {
                let mut direct = [0i32; CHANNELS];
                for c in 0..cells {
                    if let Some(code) = kept.code(c, p) {
                        for (d, &e) in direct.iter_mut().zip(&network().embed[code as usize]) {
                            *d += e as i32;
                        }
                    }
                }
                assert_eq!(kept.accumulator(p), &direct, "step {step} player {p}");
                let mask = threat_mask(|s, t| kept.threats(p ^ s, t) > 0);
                assert_eq!(
                    kept.eval(p),
                    network().eval(&direct, kept.accumulator(p ^ 1), mask),
                    "step {step}"
                );
            }
            if step % 500 == 0 {
                let fresh = afresh(&board, &empty, learned);
                let fresh = fresh.cell_eval().unwrap();
                for p in 0..2 {
                    assert_eq!(fresh.accumulator(p), kept.accumulator(p));
                    assert_eq!(fresh.eval(p), kept.eval(p));
                }
            }
        }
    }

    /// A four on the board shows as one cell where x makes five, and a flex four as two.
    #[test]
    fn threat_counts_follow_the_stones() {
        let rules = Rules::mnk(15, 15, 5).unwrap();
        let mut board = PatternBoard::new(&Position::empty(&rules)).with_cells(None);
        for c in [110, 111, 112] {
            board.put(c, stone(0));
        }
        let cells = board.cell_eval().unwrap();
        assert_eq!(cells.threats(0, Threat::Five), 0);
        assert!(
            cells.threats(0, Threat::DoubleFour) >= 2,
            "an open three: two cells make a flex four"
        );
        board.put(113, stone(0));
        assert_eq!(board.cell_eval().unwrap().threats(0, Threat::Five), 2);
        board.put(114, stone(1));
        assert_eq!(board.cell_eval().unwrap().threats(0, Threat::Five), 1);
        assert_eq!(board.cell_eval().unwrap().threats(1, Threat::Five), 0);
    }
}
