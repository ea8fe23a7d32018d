//! The time manager: how long a move may take on a match clock, and when an iterative
//! search that has a good move stops before its deadline.
//!
//! A player on a match clock ([`move_time`]) gives a move a target, a twentieth of the
//! time left, and a limit, up to three times the target (at most a seventh of the time
//! left, and never more than the turn allows less a margin for the protocol's round
//! trip). The target travels in [`Limits::target`](crate::core::types::Limits::target) into the
//! search's [`Budget`], which shares it with its parts ([`Budget::past_target`]; a part
//! under threat drops it with [`Budget::untarget`]).
//!
//! An iterative search asks [`iteration_ends`] after each completed iteration: a forced
//! move (one root move left, the others lost) needs no deep search (a move chosen
//! alone, the centre of an empty board, does: its value is the position's), and past
//! the target an iteration
//! that kept the best move where it was ends the search; an iteration that changed it
//! goes on, up to [`EXTENSION`] times the target (and never past the deadline).

use std::time::Duration;

use super::budget::Budget;

/// Time kept in reserve on every move for the protocol round trip.
pub const MARGIN: Duration = Duration::from_millis(30);

/// How far past its target a search whose best move keeps changing may go: this many
/// times the target (the deadline still holds). Without it a position whose best move
/// changes at every depth used the whole turn.
pub const EXTENSION: u32 = 3;

/// Iterations searched when only one root move is left (a forced move): its value
/// needs no more, and the time is better kept.
pub const FORCED_DEPTH: i32 = 4;

/// The time of a move with `turn` the most one move may take (zero: not given, 100 ms)
/// and, on a match clock, `left` on it (`timeout_match` zero with `left` under an hour
/// reads as no match clock): the most it may take, and the time it aims to answer by.
pub fn move_time(
    turn: Duration,
    left: Option<Duration>,
    timeout_match: Duration,
) -> (Duration, Option<Duration>) {
    let turn = if turn.is_zero() {
        Duration::from_millis(100)
    } else {
        turn
    };
    let cap = turn.saturating_sub(MARGIN.max(turn / 10));
    let one = Duration::from_millis(1);
    match left {
        Some(left) if !timeout_match.is_zero() || left < Duration::from_secs(3600) => {
            let target = cap.min(left / 20).max(one);
            let most = cap.min(left / 7).min(target * 3).max(target);
            (most, (most > target).then_some(target))
        }
        _ => (cap.max(one), None),
    }
}

/// True when an iterative search ends after completing `depth`, `forced` when one root
/// move is left because the others lose (not because one was chosen alone), `kept` when
/// the iteration left its best move where it was (see the module).
pub fn iteration_ends(budget: &Budget, forced: bool, depth: i32, kept: bool) -> bool {
    let forced = forced && depth >= FORCED_DEPTH;
    let settled = kept || budget.past_target_times(EXTENSION);
    forced || (budget.past_target() && settled && depth > 1)
}
