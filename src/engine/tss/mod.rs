//! Threat-space search: proofs of forced wins for k >= 4.
//!
//! A *four* is a mark after which its player completes `k` at one cell next move:
//! the opponent must take that cell (or win at once). **VCF** (victory by continuous
//! fours) chains fours until one leaves two completing cells or a five. **VCT**
//! (victory by continuous threats) also allows quiet threats, moves after which the
//! attacker would have a VCF if the defender passed; it then searches every defender
//! move that could spoil that VCF (the cells the VCF uses, and the cells where the
//! defender could build a four or five along it; every other move leaves the VCF
//! standing). Fives, fours and threes come from per-window counts kept in sets
//! (the shared [`LineBoard`]), so nothing scans the board; both searches keep a transposition table.
//!
//! Exactly-k is respected (with overline off a line that would grow past `k` is no
//! four), and so are the variants: the board's win rule decides what a five is (caro's
//! shut lines are none), and under renju x never marks a forbidden cell, so o's four
//! whose completion is forbidden for x cannot be stopped. A defender holding blocks may
//! answer a four with a block: both answers are searched. A defender holding `remove`
//! or `bomb` can break any line, so no proof is claimed then ([`Verdict::Unsupported`]).
//!
//! A [`Proof`] is a strategy tree: the attacker's move, the defender replies that need
//! their own continuation, and one continuation that wins against every other reply.
//!
//! [`LineBoard`]: crate::engine::board::LineBoard

mod root;
pub(crate) mod search;

use crate::engine::board::{stone, PatternBoard, BLOCK, EMPTY};
use crate::engine::Budget;
use crate::game::{Move, Piece, Player, Position};

pub use root::{plan, RootPlan};

use search::{Solver, R, VCF_DEPTH};

/// A forced win for the attacker, who is to move at its root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The attacker completes a winning line at `cell`.
    Five { cell: u16 },
    /// The attacker marks `cell`; each listed defender reply is answered by its own
    /// proof, and every other reply by `otherwise`.
    Threat {
        cell: u16,
        replies: Vec<(Move, Proof)>,
        otherwise: Box<Proof>,
    },
}

impl Proof {
    /// The cell of the attacker's first mark.
    pub fn cell(&self) -> usize {
        match self {
            Proof::Five { cell } | Proof::Threat { cell, .. } => *cell as usize,
        }
    }

    /// The attacker's first move.
    pub fn first_move(&self) -> Move {
        Move::mark(self.cell())
    }

    /// Plies until the win against the longest defence (1 for a five).
    pub fn plies(&self) -> u32 {
        match self {
            Proof::Five { .. } => 1,
            Proof::Threat {
                replies, otherwise, ..
            } => {
                2 + replies
                    .iter()
                    .map(|(_, p)| p.plies())
                    .chain(std::iter::once(otherwise.plies()))
                    .max()
                    .unwrap_or(0)
            }
        }
    }

    /// Attacker moves in the tree (its size).
    pub fn size(&self) -> usize {
        match self {
            Proof::Five { .. } => 1,
            Proof::Threat {
                replies, otherwise, ..
            } => 1 + otherwise.size() + replies.iter().map(|(_, p)| p.size()).sum::<usize>(),
        }
    }

    /// The main line: the attacker's moves and, after each, the first listed defender
    /// reply (the forced block of a four), ending with the five.
    pub fn main_line(&self) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = self;
        loop {
            line.push(at.first_move());
            match at {
                Proof::Five { .. } => return line,
                Proof::Threat {
                    replies, otherwise, ..
                } => match replies.first() {
                    Some((mv, next)) => {
                        line.push(*mv);
                        at = next;
                    }
                    None => at = otherwise,
                },
            }
        }
    }

    /// Every cell the tree marks or answers on (into `used`) and the cells of the
    /// defender's mark replies (into `replies`).
    fn collect(&self, used: &mut Vec<u16>, replies: &mut Vec<u16>) {
        match self {
            Proof::Five { cell } => used.push(*cell),
            Proof::Threat {
                cell,
                replies: rs,
                otherwise,
            } => {
                used.push(*cell);
                for (mv, p) in rs {
                    used.push(mv.cell);
                    if mv.piece == Piece::Mark {
                        replies.push(mv.cell);
                    }
                    p.collect(used, replies);
                }
                otherwise.collect(used, replies);
            }
        }
    }
}

/// What a threat search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win, valid against every defence.
    Win(Proof),
    /// The search finished without a proof (within its depth; not a proof of no win).
    NoProof,
    /// The time or node budget ran out first.
    OutOfTime,
    /// Threat-space proofs do not apply here; the reason says why.
    Unsupported(&'static str),
}

impl Verdict {
    /// The proof, if one was found.
    pub fn proof(self) -> Option<Proof> {
        match self {
            Verdict::Win(p) => Some(p),
            _ => None,
        }
    }
}

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
