//! The verdict on one move of a review: its class by the value it gave away
//! ([`Class::of`] and its [`THRESHOLDS`]), or by a proven change of the outcome
//! ([`judge`]: what review.rs's description says is claimed where), and a player's
//! accuracy over their moves.

use super::super::value;
use crate::core::types::Outcome;
use kinrow_game::Move;

/// The largest loss of each class, in order; a larger loss is a blunder.
pub const THRESHOLDS: [(Class, f64); 4] = [
    (Class::Best, 0.02),
    (Class::Good, 0.1),
    (Class::Inaccuracy, 0.2),
    (Class::Mistake, 0.4),
];

/// How good a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Lost at most 0.02 of value: as good as the engine's choice.
    Best,
    /// Lost at most 0.1.
    Good,
    /// Lost at most 0.2.
    Inaccuracy,
    /// Lost at most 0.4, or turned a position that was not lost into a proven loss.
    Mistake,
    /// Lost more than 0.4.
    Blunder,
    /// The only move that did not lose at once.
    Forced,
}

impl Class {
    /// Every class, in the order of the summary.
    pub const ALL: [Class; 6] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
        Class::Forced,
    ];

    /// The class of a move that lost `loss` of the value ([`THRESHOLDS`]).
    pub fn of(loss: f64) -> Class {
        THRESHOLDS
            .iter()
            .find(|&&(_, most)| loss <= most)
            .map_or(Class::Blunder, |&(class, _)| class)
    }

    /// The API name.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
            Class::Forced => "forced",
        }
    }
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The value of the position before the move, for the mover.
    pub value_before: f64,
    /// The value after the move, for the mover.
    pub value_after: f64,
    /// The engine's best move there.
    pub best: Move,
    /// The value after the best move, for the mover.
    pub best_value: f64,
    /// `best_value - value_after`, at least 0.
    pub loss: f64,
    /// The move's class by its loss.
    pub class: Class,
}

/// What is known of a move's position and of the move, for the mover.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Proofs {
    /// The position's own outcome for the mover (`Loss`: every move loses).
    pub position: Outcome,
    /// The outcome proven for the played move, `Unknown` where none was.
    pub played: Outcome,
    /// Whether the position's value is a number on the scale: a proof or an engine's
    /// estimate (false where the engine has no value for it: `perfect` unproven).
    pub before_known: bool,
    /// Whether the value after the move is such a number.
    pub after_known: bool,
}

impl Proofs {
    /// Nothing proven, both values estimates.
    pub const NONE: Proofs = Proofs {
        position: Outcome::Unknown,
        played: Outcome::Unknown,
        before_known: true,
        after_known: true,
    };
}

/// The outcome for the other side.
pub fn opposite(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        o => o,
    }
}

fn rank(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Loss => 0,
        Outcome::Draw => 1,
        Outcome::Win => 2,
        Outcome::Unknown => 1,
    }
}

/// The verdict on `played` in a position worth `before` (the engine's `best` there),
/// after which the opponent's value is `next` (`forced`: the only safe move, if any;
/// `proofs`: what is known of the position and the move). See the top of review.rs.
pub fn judge(
    played: Move,
    (best, before): (Move, f64),
    next: f64,
    forced: Option<Move>,
    proofs: Proofs,
) -> Verdict {
    let before = before + 0.0; // (no -0.0)
    let after = value::proven(proofs.played).unwrap_or(0.0 - next) + 0.0;
    let proven = |o: Outcome| o != Outcome::Unknown;
    let both_proven = proven(proofs.position) && proven(proofs.played);
    // Two numbers of the same kind: two estimates, or an estimate before and a proof
    // after (a proof after is exact; a proof before beside an estimate after is not:
    // the opponent's shallower search often fails to prove the same win again).
    let comparable = proofs.before_known
        && proofs.after_known
        && (proven(proofs.played) || !proven(proofs.position));
    let (loss, class) = if played == best {
        (0.0, Class::Best)
    } else if both_proven {
        if rank(proofs.played) < rank(proofs.position) {
            ((before - after).max(0.0), Class::Blunder)
        } else {
            (0.0, Class::Best)
        }
    } else if comparable {
        let loss = (before - after).max(0.0);
        (loss, Class::of(loss))
    } else {
        (0.0, Class::Good)
    };
    let class = if forced == Some(played) {
        Class::Forced
    } else {
        class
    };
    Verdict {
        value_before: before,
        value_after: after,
        best,
        best_value: before,
        loss,
        class,
    }
}

/// The accuracy of a player's moves (their losses), in percent; `None` without moves.
pub fn accuracy(losses: &[f64]) -> Option<f64> {
    if losses.is_empty() {
        return None;
    }
    let sum: f64 = losses.iter().map(|l| (1.0 - l).max(0.0)).sum();
    Some(100.0 * sum / losses.len() as f64)
}
