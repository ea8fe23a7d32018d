//! The forcing-sequence searches: VCF (victory by continuous fours) and VCT (victory
//! by continuous threats), over a [`PatternBoard`], with one transposition table each.
//!
//! Roles are fixed for one search: `a` attacks (and is to move at every attacker
//! node), `d = 1 - a` defends. A defender that holds blocks may answer a four with a
//! block as well as with a mark: both replies are searched. The caller makes sure the
//! defender holds no remove or bomb (those could break any line).
//!
//! Renju: x never marks a forbidden cell, attacking or defending. An attacking x skips
//! them; a defending x cannot take a four's completing cell that is forbidden for it, so
//! such a four wins for o, and x's answers to a quiet threat leave them out.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::proof::Proof;
use crate::board::PatternBoard;
use crate::core::budget::Budget;
use kinrow_game::codes::{stone, BLOCK, EMPTY};
use kinrow_game::{Move, Piece};

/// How many fours one VCF may chain at most.
pub const VCF_DEPTH: u32 = 64;
/// At most this many quiet threat moves are tried at one VCT attacker node.
const VCT_WIDTH: usize = 24;

/// The result of a search: proven, refuted within its limits, or out of budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum R {
    Win,
    Fail,
    Abort,
}

/// The tables' keys are Zobrist hashes, already uniformly spread: they are used as
/// their own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type Table = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

#[derive(Copy, Clone, Debug)]
struct Entry {
    win: bool,
    depth: u32,
    best: u16,
}

/// The searching state: the board and the two tables. The budget is the caller's,
/// borrowed by each search.
pub struct Solver {
    pub board: PatternBoard,
    vcf_tt: Table,
    vct_tt: Table,
    pool: Vec<Vec<u16>>,
    /// A VCF gives up (as out of budget) once the budget's node count passes this
    /// (`u64::MAX` but within [`Solver::vcf_within`]).
    node_cap: u64,
}

const ATTACKER_KEY: u64 = 0x2545_F491_4F6C_DD1D;

impl Solver {
    pub fn new(board: PatternBoard) -> Solver {
        Solver {
            board,
            vcf_tt: Table::default(),
            vct_tt: Table::default(),
            pool: Vec::new(),
            node_cap: u64::MAX,
        }
    }

    #[inline]
    fn key(&self, a: usize) -> u64 {
        self.board.hash() ^ if a == 1 { ATTACKER_KEY } else { 0 }
    }

    fn buf(&mut self) -> Vec<u16> {
        self.pool.pop().unwrap_or_default()
    }

    fn give(&mut self, mut v: Vec<u16>) {
        v.clear();
        self.pool.push(v);
    }

    fn store(tt: &mut Table, key: u64, win: bool, depth: u32, best: u16) {
        tt.insert(key, Entry { win, depth, best });
    }

    /// Orders `moves` by how much a mark of `a` builds there, best first.
    fn order(&self, a: usize, moves: &mut [u16]) {
        moves.sort_by_cached_key(|&c| {
            let lines = self.board.lines_through(c as usize);
            let (own, theirs) = (lines[a], lines[1 - a]);
            std::cmp::Reverse(own * 2 + theirs)
        });
    }

    /// The attacker's candidate moves: the one cell that stops the defender's five if
    /// there is one, else `generate`'s list. `None` when the defender has two fives.
    fn candidates(&mut self, a: usize, out: &mut Vec<u16>) -> bool {
        self.board.win_cells(1 - a, out);
        match out.len() {
            0 => false,
            1 => true,
            _ => {
                out.clear();
                true
            }
        }
    }

    /// Plays every defender answer to a four whose completing cell is `w` (a mark, and
    /// a block if the defender holds one), runs `then` after each, and says whether the
    /// attacker wins after all of them.
    fn answers(&mut self, a: usize, w: usize, mut then: impl FnMut(&mut Self) -> R) -> R {
        let d = 1 - a;
        if self.board.forbidden(d, w) {
            // Renju: x may not take the cell, so the four wins.
            return R::Win;
        }
        self.board.put(w, stone(d));
        let r = then(self);
        self.board.take(w);
        if r != R::Win || self.board.blocks(d) == 0 {
            return r;
        }
        self.board.hand_block(d, -1);
        self.board.put(w, BLOCK);
        let r = then(self);
        self.board.take(w);
        self.board.hand_block(d, 1);
        r
    }

    /// [`Solver::vcf`] that gives up after visiting `nodes` nodes: for callers that only
    /// want the wins found quickly.
    pub fn vcf_within(&mut self, budget: &mut Budget, a: usize, fours: u32, nodes: u64) -> R {
        self.node_cap = budget.nodes.saturating_add(nodes);
        let r = self.vcf(budget, a, fours);
        self.node_cap = u64::MAX;
        r
    }

    /// VCF for `a` (to move) with at most `fours` fours, within `budget`.
    pub fn vcf(&mut self, budget: &mut Budget, a: usize, fours: u32) -> R {
        if budget.tick() || budget.nodes > self.node_cap {
            return R::Abort;
        }
        if self.board.has_win(a) {
            return R::Win;
        }
        if fours == 0 {
            return R::Fail;
        }
        let key = self.key(a);
        if let Some(e) = self.vcf_tt.get(&key) {
            if e.win {
                return R::Win;
            }
            if e.depth >= fours {
                return R::Fail;
            }
        }
        let mut moves = self.buf();
        let forced = self.candidates(a, &mut moves);
        if !forced {
            self.board.four_moves(a, &mut moves);
            self.order(a, &mut moves);
        }
        let mut result = R::Fail;
        let mut wins = self.buf();
        let restricted = self.board.restricts(a);
        for &c in moves.iter() {
            let c = c as usize;
            if restricted && self.board.forbidden(a, c) {
                continue;
            }
            self.board.put(c, stone(a));
            self.board.win_cells_through(a, c, &mut wins);
            let r = match wins.len() {
                0 => R::Fail,
                1 => self.answers(a, wins[0] as usize, |s| s.vcf(budget, a, fours - 1)),
                _ => R::Win,
            };
            self.board.take(c);
            if r != R::Fail {
                if r == R::Win {
                    Self::store(&mut self.vcf_tt, key, true, fours, c as u16);
                }
                result = r;
                break;
            }
        }
        if result == R::Fail {
            Self::store(&mut self.vcf_tt, key, false, fours, 0);
        }
        self.give(moves);
        self.give(wins);
        result
    }

    /// VCT for `a` (to move) with at most `depth` quiet threats on any line (fours are free).
    pub fn vct(&mut self, budget: &mut Budget, a: usize, depth: u32) -> R {
        if budget.tick() {
            return R::Abort;
        }
        let r = self.vcf(budget, a, VCF_DEPTH);
        if r != R::Fail || depth == 0 {
            return r;
        }
        let key = self.key(a);
        if let Some(e) = self.vct_tt.get(&key) {
            if e.win {
                return R::Win;
            }
            if e.depth >= depth {
                return R::Fail;
            }
        }
        let mut moves = self.buf();
        let forced = self.candidates(a, &mut moves);
        if !forced {
            self.board.four_moves(a, &mut moves);
            let fours = moves.len();
            self.board.cells_of_class(a, 3, &mut moves, false);
            self.order(a, &mut moves[fours..]);
            moves.truncate(fours + VCT_WIDTH);
        }
        let mut result = R::Fail;
        let mut wins = self.buf();
        let restricted = self.board.restricts(a);
        for &c in moves.iter() {
            let c = c as usize;
            if restricted && self.board.forbidden(a, c) {
                continue;
            }
            self.board.put(c, stone(a));
            self.board.win_cells_through(a, c, &mut wins);
            let r = match wins.len() {
                0 => self.threat(budget, a, depth),
                1 => self.answers(a, wins[0] as usize, |s| s.vct(budget, a, depth)),
                _ => R::Win,
            };
            self.board.take(c);
            if r != R::Fail {
                if r == R::Win {
                    Self::store(&mut self.vct_tt, key, true, depth, c as u16);
                }
                result = r;
                break;
            }
        }
        if result == R::Fail {
            Self::store(&mut self.vct_tt, key, false, depth, 0);
        }
        self.give(moves);
        self.give(wins);
        result
    }

    /// The attacker just made a quiet move; the defender is to move and has no five.
    /// The move threatens when the attacker would have a VCF if the defender passed;
    /// then every defender move that could spoil that VCF is searched.
    fn threat(&mut self, budget: &mut Budget, a: usize, depth: u32) -> R {
        let r = self.vcf(budget, a, VCF_DEPTH);
        if r != R::Win {
            return r;
        }
        let proof = self.vcf_proof(a);
        let (marks, blocks) = self.relevant(a, &proof);
        let d = 1 - a;
        for &c in &marks {
            self.board.put(c as usize, stone(d));
            let r = self.vct(budget, a, depth - 1);
            self.board.take(c as usize);
            if r != R::Win {
                return r;
            }
        }
        for &c in &blocks {
            self.board.hand_block(d, -1);
            self.board.put(c as usize, BLOCK);
            let r = self.vct(budget, a, depth - 1);
            self.board.take(c as usize);
            self.board.hand_block(d, 1);
            if r != R::Win {
                return r;
            }
        }
        R::Win
    }

    /// The defender moves that could spoil `proof` (a win for `a` from here, the
    /// defender to move): marks and blocks on the cells the proof uses, and marks that
    /// could give the defender a five somewhere along the proof. Against any other
    /// defender move the proof stands as it is.
    pub fn relevant(&mut self, a: usize, proof: &Proof) -> (Vec<u16>, Vec<u16>) {
        let d = 1 - a;
        let mut used = Vec::new();
        let mut replies = Vec::new();
        proof.collect(&mut used, &mut replies);
        let mut marks = self.buf();
        // Cells of windows where the defender misses one or two marks now.
        self.board.cells_of_class(d, 1, &mut marks, true);
        self.board.cells_of_class(d, 2, &mut marks, false);
        let mut extra = Vec::new();
        let k = self.board.k();
        for &r in &replies {
            self.board
                .open_windows_through(d, r as usize, |cells, own| {
                    let later = cells.iter().filter(|c| replies.contains(c)).count();
                    if own + later + 1 >= k - 1 {
                        extra.extend(cells.iter().copied());
                    }
                });
        }
        let mut out: Vec<u16> = used.iter().chain(&marks).chain(&extra).copied().collect();
        out.retain(|&c| self.board.cells()[c as usize] == EMPTY);
        if self.board.restricts(d) {
            out.retain(|&c| !self.board.forbidden(d, c as usize));
        }
        out.sort_unstable();
        out.dedup();
        self.order(d, &mut out);
        self.give(marks);
        let blocks = if self.board.blocks(d) > 0 {
            let mut b: Vec<u16> = used
                .into_iter()
                .filter(|&c| self.board.cells()[c as usize] == EMPTY)
                .collect();
            b.sort_unstable();
            b.dedup();
            b
        } else {
            Vec::new()
        };
        (out, blocks)
    }

    /// The defender's answers to a four completing at `w`, as moves (none when the
    /// defender is x under renju and `w` is forbidden for it).
    fn answer_moves(&mut self, a: usize, w: u16) -> Vec<Move> {
        if self.board.forbidden(1 - a, w as usize) {
            return Vec::new();
        }
        let mut v = vec![Move::mark(w as usize)];
        if self.board.blocks(1 - a) > 0 {
            v.push(Move::new(w as usize, Piece::Block));
        }
        v
    }

    fn play_answer(&mut self, a: usize, mv: Move) {
        if mv.piece == Piece::Block {
            self.board.hand_block(1 - a, -1);
            self.board.put(mv.cell(), BLOCK);
        } else {
            self.board.put(mv.cell(), stone(1 - a));
        }
    }

    fn take_answer(&mut self, a: usize, mv: Move) {
        self.board.take(mv.cell());
        if mv.piece == Piece::Block {
            self.board.hand_block(1 - a, 1);
        }
    }

    /// The proof tree for a position `vcf` has proven for `a` (read back from the table).
    pub fn vcf_proof(&mut self, a: usize) -> Proof {
        self.proof(a, false)
    }

    /// The proof tree for a position `vct` has proven for `a`.
    pub fn vct_proof(&mut self, a: usize) -> Proof {
        self.proof(a, true)
    }

    fn proof(&mut self, a: usize, vct: bool) -> Proof {
        let mut wins = Vec::new();
        self.board.win_cells(a, &mut wins);
        if let Some(&w) = wins.first() {
            return Proof::Five { cell: w };
        }
        let key = self.key(a);
        let by_vcf = self.vcf_tt.get(&key).filter(|e| e.win).copied();
        let entry = match (by_vcf, vct) {
            (Some(e), _) => e,
            (None, true) => self.vct_tt[&key],
            (None, false) => panic!("vcf_proof on a position without a proven VCF"),
        };
        let vct = vct && by_vcf.is_none();
        debug_assert!(entry.win);
        let c = entry.best;
        self.board.put(c as usize, stone(a));
        self.board.win_cells_through(a, c as usize, &mut wins);
        let proof = match wins.len() {
            0 => {
                let threat = self.vcf_proof(a);
                let (marks, blocks) = self.relevant(a, &threat);
                let mut replies = Vec::new();
                let moves = marks
                    .iter()
                    .map(|&c| Move::mark(c as usize))
                    .chain(blocks.iter().map(|&c| Move::new(c as usize, Piece::Block)));
                for mv in moves {
                    self.play_answer(a, mv);
                    replies.push((mv, self.proof(a, true)));
                    self.take_answer(a, mv);
                }
                Proof::Threat {
                    cell: c,
                    replies,
                    otherwise: Box::new(threat),
                }
            }
            1 => {
                let w = wins[0];
                let mut replies = Vec::new();
                for mv in self.answer_moves(a, w) {
                    self.play_answer(a, mv);
                    replies.push((mv, self.proof(a, vct)));
                    self.take_answer(a, mv);
                }
                Proof::Threat {
                    cell: c,
                    replies,
                    otherwise: Box::new(Proof::Five { cell: w }),
                }
            }
            _ => {
                let (w0, w1) = (wins[0], wins[1]);
                let replies = self
                    .answer_moves(a, w0)
                    .into_iter()
                    .map(|mv| (mv, Proof::Five { cell: w1 }))
                    .collect();
                Proof::Threat {
                    cell: c,
                    replies,
                    otherwise: Box::new(Proof::Five { cell: w0 }),
                }
            }
        };
        self.board.take(c as usize);
        proof
    }
}
