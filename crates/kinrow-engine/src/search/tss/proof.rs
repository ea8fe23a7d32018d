//! What a threat-space search proves: a [`Proof`] (the forced win's tree of threats and
//! answers) and the [`Verdict`] of one search.

use kinrow_game::{Move, Piece};

/// A forced win for the attacker, who is to move at its root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The attacker completes a winning line at `cell`.
    Five {
        /// The winning cell.
        cell: u16,
    },
    /// The attacker marks `cell`; each listed defender reply is answered by its own
    /// proof, and every other reply by `otherwise`.
    Threat {
        /// The attacker's cell.
        cell: u16,
        /// Defender replies with their own proof.
        replies: Vec<(Move, Proof)>,
        /// The proof against every other reply.
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
    pub(super) fn collect(&self, used: &mut Vec<u16>, replies: &mut Vec<u16>) {
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
