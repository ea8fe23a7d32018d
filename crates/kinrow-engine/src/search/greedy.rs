//! `greedy`: every piece in hand on every legal target, one ply deep.
//!
//! After a card-and-token game's AI (4 tokens x 36 cells = 144 combinations tried):
//! each legal move — a mark, and whatever the player holds of block, remove and bomb,
//! on every cell where that piece may go — is scored by the change it makes to the
//! window potential of [`crate::eval`] (the one `minimax` uses): the mover's gain plus
//! the opponent's loss, counted over the windows through the cells the move touches.
//! A move that completes the mover's line scores above everything ([`win_score`]);
//! a move after which the opponent can complete a line at once scores below every
//! move that does not.
//!
//! Every move draws a random number first; among equal scores the highest number wins,
//! so equal moves vary with the seed and the same seed gives the same answer.
//!
//! Blind spots (it looks one ply and no further):
//! - it does not ask what the move does to its own next turns, nor to the opponent's
//!   beyond their immediate win: an opponent's open `k - 2` run that becomes an
//!   unstoppable double threat next turn goes unseen;
//! - it does not see its own forks: two threats at once score as the sum of two
//!   window gains, not as the win they are;
//! - a removal or a bomb is worth what it clears now; that the cleared cells are open
//!   to the opponent's next mark is not weighed;
//! - spending a special piece costs nothing, so it uses them as soon as the potential
//!   says so rather than saving them for a moment that needs them.

use rand::rngs::StdRng;
use rand::RngExt;

use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::patterns::{can_win_after, changed_cells, finish, reopened, winning_cells};
use crate::core::types::{Analysis, Bound, Evaluation, Limits, MoveEval, Outcome};
use crate::eval::{potential_through, window_state, window_weight};
use kinrow_game::{Move, Piece, Player, Position};

/// The `greedy` engine. Stateless: build it once and share it.
#[derive(Clone, Debug, Default)]
pub struct Greedy;

/// The score of a winning move for line length `k`: above any change of potential a
/// move can make (at most 9 cells, each in at most `4k` windows, each window worth at
/// most `4^k` to each player).
pub fn win_score(k: u32) -> f64 {
    100.0 * k as f64 * window_weight(k)
}

impl Engine for Greedy {
    fn analyze_in(
        &self,
        position: &Position,
        _limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let me = position.to_move();
        let win = win_score(position.k());
        let mut pos = position.clone();
        let mut legal = Vec::new();
        pos.legal_moves_into(&mut legal);
        // The write-up's random order: one random number per move, drawn before scoring.
        let keys: Vec<u64> = legal.iter().map(|_| rng.random::<u64>()).collect();
        let their_wins = winning_cells(&pos, me.opponent());
        let mut windows = Vec::new();
        let mut scored: Vec<(MoveEval, u64)> = Vec::with_capacity(legal.len());
        for (&mv, &key) in legal.iter().zip(&keys) {
            let (delta, won, lost) = score_move(&mut pos, mv, &their_wins, &mut windows);
            let eval = if won {
                Evaluation {
                    score: win,
                    outcome: Outcome::Win,
                    plies: Some(1),
                }
            } else if lost {
                Evaluation {
                    score: delta - win,
                    outcome: Outcome::Loss,
                    plies: Some(2),
                }
            } else {
                Evaluation {
                    score: delta,
                    outcome: Outcome::Unknown,
                    plies: None,
                }
            };
            scored.push((
                MoveEval {
                    mv,
                    eval,
                    action: None,
                    evaluated: true,
                    depth: 1,
                    bound: Bound::Exact,
                },
                key,
            ));
        }
        finish(position, scored, legal.len() as u64, budget, rng)
    }
}

/// Plays `mv` on `pos` and takes it back: the change of the mover's evaluation
/// (own potential minus the opponent's), whether the move wins, and whether it leaves
/// the opponent an immediate win.
fn score_move(
    pos: &mut Position,
    mv: Move,
    their_wins: &[usize],
    windows: &mut Vec<u32>,
) -> (f64, bool, bool) {
    let me = pos.to_move();
    let (changed, len) = changed_cells(pos, mv);
    let changed = &changed[..len];
    let reopens = mv.piece != Piece::Mark && reopened(pos, me.opponent(), changed);
    let before;
    let after;
    let undo;
    if len == 1 {
        before = potential_through(pos, mv.cell());
        undo = pos.play_unchecked(mv);
        after = potential_through(pos, mv.cell());
    } else {
        // A bomb: count every window touching the cleared area once.
        windows.clear();
        let all = pos.geometry().windows();
        for &c in changed {
            windows.extend_from_slice(all.through(c));
        }
        windows.sort_unstable();
        windows.dedup();
        before = potential_over(pos, windows);
        undo = pos.play_unchecked(mv);
        after = potential_over(pos, windows);
    }
    let won = pos.winner() == Some(me);
    let lost = !won
        && match mv.piece {
            Piece::Mark | Piece::Block => their_wins.iter().any(|&c| c != mv.cell()),
            Piece::Remove | Piece::Bomb => {
                can_win_after(pos, me.opponent(), their_wins, changed, reopens)
            }
        };
    pos.undo(undo);
    let (i, o) = (me.index(), me.opponent().index());
    let delta = (after[i] - before[i]) - (after[o] - before[o]);
    (delta, won, lost)
}

/// Both players' potentials (`[x, o]`) over the windows with indices `windows`.
fn potential_over(pos: &Position, windows: &[u32]) -> [f64; 2] {
    let all = &pos.geometry().windows().all;
    let mut out = [0.0; 2];
    for &wi in windows {
        let cells = &all[wi as usize].cells;
        for p in Player::BOTH {
            if let Some(own) = window_state(pos, cells, p) {
                out[p.index()] += window_weight(own);
            }
        }
    }
    out
}
