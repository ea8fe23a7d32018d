//! [`Tss`], the threat-space searcher of one position, and which attackers it can
//! judge ([`unsupported`]).

use super::proof::{Proof, Verdict};
use super::search::{Solver, R, VCF_DEPTH};
use crate::board::PatternBoard;
use crate::core::budget::Budget;
use kinrow_game::codes::{stone, BLOCK, EMPTY};
use kinrow_game::{Move, Piece, Player, Position};

/// Why threat-space search cannot prove a win for `attacker` here, if it cannot.
pub fn unsupported(position: &Position, attacker: Player) -> Option<&'static str> {
    let defender = position.hand(attacker.opponent());
    if position.k() < 4 {
        Some("threat-space search needs k >= 4")
    } else if position.winner().is_some() {
        Some("the game is over")
    } else if defender.remove > 0 || defender.bomb > 0 {
        Some("the defender holds remove or bomb, which can break any line")
    } else {
        None
    }
}

/// A threat-space searcher for one position. Either player may attack: when the
/// attacker is not the side to move, the search asks what the attacker could force
/// if the side to move passed (a threat the side to move must answer).
pub struct Tss {
    solver: Solver,
    to_move: Player,
    unsupported: [Option<&'static str>; 2],
}

impl Tss {
    /// A searcher for `position`. Each search runs within the budget it is given and
    /// counts its nodes there; the tables are kept between searches.
    pub fn new(position: &Position) -> Tss {
        Tss {
            solver: Solver::new(PatternBoard::new(position)),
            to_move: position.to_move(),
            unsupported: Player::BOTH.map(|p| unsupported(position, p)),
        }
    }

    fn finish(&mut self, a: usize, r: R, vct: bool) -> Verdict {
        match r {
            R::Win if vct => Verdict::Win(self.solver.vct_proof(a)),
            R::Win => Verdict::Win(self.solver.vcf_proof(a)),
            R::Fail => Verdict::NoProof,
            R::Abort => Verdict::OutOfTime,
        }
    }

    /// Searches for a VCF of `attacker` within `budget`.
    pub fn vcf(&mut self, budget: &mut Budget, attacker: Player) -> Verdict {
        if let Some(why) = self.unsupported[attacker.index()] {
            return Verdict::Unsupported(why);
        }
        let a = attacker.index();
        let r = self.solver.vcf(budget, a, VCF_DEPTH);
        self.finish(a, r, false)
    }

    /// Searches for a VCT of `attacker` with up to `depth` quiet threats on a line,
    /// deepening one threat at a time (a VCF is found first when there is one), within
    /// `budget`.
    pub fn vct(&mut self, budget: &mut Budget, attacker: Player, depth: u32) -> Verdict {
        if let Some(why) = self.unsupported[attacker.index()] {
            return Verdict::Unsupported(why);
        }
        let a = attacker.index();
        let mut r = R::Fail;
        for d in 0..=depth {
            r = self.solver.vct(budget, a, d);
            if r != R::Fail {
                break;
            }
        }
        self.finish(a, r, true)
    }

    /// Plays `mv` (a mark or a block of the side to move of the position this searcher
    /// was built for) and searches the opponent's VCF after it.
    pub fn vcf_after(&mut self, budget: &mut Budget, mv: Move) -> Verdict {
        self.after(mv, |t, opp| t.vcf(budget, opp))
    }

    /// Plays `mv` like [`Tss::vcf_after`] and searches the opponent's VCT (up to `depth`
    /// quiet threats) after it.
    pub fn vct_after(&mut self, budget: &mut Budget, mv: Move, depth: u32) -> Verdict {
        self.after(mv, |t, opp| t.vct(budget, opp, depth))
    }

    fn after(&mut self, mv: Move, search: impl FnOnce(&mut Tss, Player) -> Verdict) -> Verdict {
        let me = self.to_move.index();
        let opp = self.to_move.opponent();
        if let Some(why) = self.unsupported[opp.index()] {
            return Verdict::Unsupported(why);
        }
        let board = &mut self.solver.board;
        if board.cells()[mv.cell()] != EMPTY
            || !matches!(mv.piece, Piece::Mark | Piece::Block)
            || (mv.piece == Piece::Block && board.blocks(me) == 0)
        {
            return Verdict::Unsupported("only a mark or a block on an empty cell");
        }
        if mv.piece == Piece::Block {
            board.hand_block(me, -1);
            board.put(mv.cell(), BLOCK);
        } else {
            board.put(mv.cell(), stone(me));
        }
        let verdict = search(self, opp);
        let board = &mut self.solver.board;
        board.take(mv.cell());
        if mv.piece == Piece::Block {
            board.hand_block(me, 1);
        }
        verdict
    }

    /// The moves of the side to move that could stop `proof`, a forced win by threats
    /// of the other player (found with [`Tss::vct`] for them): [`Tss::defences`], and
    /// the marks that bring an open window of the side to move to `k - 2` marks. Such a
    /// mark lets it answer a later quiet threat with a four of its own, which the proof,
    /// built without that mark, did not have to meet.
    pub fn vct_defences(&mut self, attacker: Player, proof: &Proof) -> Vec<Move> {
        let mut moves = self.defences(attacker, proof);
        let mut cells = Vec::new();
        let d = 1 - attacker.index();
        let board = &mut self.solver.board;
        board.cells_of_class(d, 3, &mut cells, true);
        for c in cells {
            let mv = Move::mark(c as usize);
            if !moves.contains(&mv) && !board.forbidden(d, c as usize) {
                moves.push(mv);
            }
        }
        moves
    }

    /// The moves of the side to move that could stop `proof`, a forced win of the
    /// other player (found with [`Tss::vcf`] or [`Tss::vct`] for them): marks (and
    /// blocks, if held) on the cells the proof uses, and marks that build a four or
    /// five of one's own along it. Every other move loses to `proof` as it stands.
    /// Removes and bombs are not considered (with those the proof claims nothing).
    pub fn defences(&mut self, attacker: Player, proof: &Proof) -> Vec<Move> {
        let (marks, blocks) = self.solver.relevant(attacker.index(), proof);
        marks
            .into_iter()
            .map(|c| Move::mark(c as usize))
            .chain(
                blocks
                    .into_iter()
                    .map(|c| Move::new(c as usize, Piece::Block)),
            )
            .collect()
    }
}
