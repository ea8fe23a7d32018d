//! The one root driver: what turns a search's root results into the [`Analysis`].
//!
//! An engine searches and hands back its [`RootResults`]: an evaluation for the moves it
//! looked at, how the choice among equal moves is made, the line after the chosen move,
//! the depth and the path it took. [`finish`] does the rest the same way for every
//! engine: every cell some legal move targets gets a score (a move the engine did not
//! evaluate ranks below every one it did), the moves are ordered best first (proven
//! wins first and losses last, by the shared [`WinScale`] the engine scores them on),
//! the choice among equals is drawn from the seeded RNG where the engine leaves it
//! open, the principal variation starts with the chosen move, and the statistics come
//! from the [`Budget`] (the nodes of every phase) and the [`SearchPath`].
//!
//! An iterative search's root value leans towards the side that moves at its leaves,
//! so it swings with the parity of the last completed depth. Every unproven move's
//! score is shifted by the same [`Budget::parity_shift`], so that the best reads as the
//! mean of the last two completed iterations: the order of the moves is unchanged, and
//! proven outcomes stay exact.

use rand::rngs::StdRng;

use super::path::SearchPath;
use crate::core::budget::Budget;
use crate::core::types::{
    pick_among_best, score_every_cell, sort_best_first, Analysis, Evaluation, MoveEval, Outcome,
    SearchStats,
};
use kinrow_game::{Move, Piece, Position};

/// How an engine scores a proven win or loss: `win - plies` for a win in `plies`, the
/// negative for a loss, so faster wins and slower losses rank first. Each engine keeps
/// its own scale so that the numbers it answers with stay what its `score_unit` says.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WinScale {
    /// The score of a win in 0 plies.
    pub win: f64,
}

impl WinScale {
    /// `perfect`'s outcome scores.
    pub const OUTCOME: WinScale = WinScale { win: 10_000.0 };
    /// The tree searches' (`minimax`, `auto`'s pattern search and threat-space proofs):
    /// far above any heuristic value.
    pub const SEARCH: WinScale = WinScale { win: 1e15 };

    /// The score of a win (`Outcome::Win`) or a loss (`Outcome::Loss`) in `plies`.
    pub fn proven(self, outcome: Outcome, plies: u32) -> f64 {
        match outcome {
            Outcome::Win => self.win - plies as f64,
            Outcome::Loss => -self.win + plies as f64,
            Outcome::Draw | Outcome::Unknown => 0.0,
        }
    }

    /// The evaluation of a proven win or loss in `plies`.
    pub fn eval(self, outcome: Outcome, plies: u32) -> Evaluation {
        Evaluation {
            score: self.proven(outcome, plies),
            outcome,
            plies: Some(plies),
        }
    }
}

/// How the chosen move is picked among the ordered moves.
pub enum Choice {
    /// Best first by score (then piece and cell); one of those sharing the top score is
    /// drawn from the RNG ([`pick_among_best`]).
    AmongBest,
    /// Best first by score, keeping the engine's own order among equals (a stable sort):
    /// the engine has already ranked equal moves.
    InOrder,
    /// The engine's own order, kept as it is: it has ranked the moves, the moves its
    /// main search compared above those it valued by a shallower search of their own
    /// (whose scores may be higher: a value from a shallower depth is not comparable).
    Ranked,
    /// The engine chose this move (e.g. by visits); the others are ordered by score, and
    /// the analysis' evaluation is the given one.
    Chosen(Move, Evaluation),
}

/// A search's results at the root, for [`finish`].
pub struct RootResults<'a> {
    /// The moves the engine evaluated (at least one).
    pub moves: Vec<MoveEval>,
    /// How to pick the chosen move among them.
    pub choice: Choice,
    /// The line after a move, as far as the search can tell: asked for the chosen move,
    /// and with `multipv` for each of the best moves.
    pub line_after: Box<dyn FnMut(Move) -> Vec<Move> + 'a>,
    /// Deepest completed depth in plies.
    pub depth: u32,
    /// True when the search finished rather than hit a limit.
    pub complete: bool,
    /// Which way the search went, if the engine says.
    pub path: Option<SearchPath>,
}

impl RootResults<'_> {
    /// Results with no line beyond the chosen move, no path, and the engine's order.
    pub fn new(moves: Vec<MoveEval>, depth: u32, complete: bool) -> RootResults<'static> {
        RootResults {
            moves,
            choice: Choice::InOrder,
            line_after: Box::new(|_| Vec::new()),
            depth,
            complete,
            path: None,
        }
    }
}

/// Turns `results` into the answer for `position` (see the top of this file). The
/// statistics' nodes and time are the budget's: every phase of the search counted.
/// Scores at or beyond this are a search's win or loss values (the tree searches'
/// 10^15 less the plies, the pattern search's clamp at 2^49), never a heuristic value.
const WIN_ZONE: f64 = 1e14;

/// Whether the parity shift moves `eval`: an unproven heuristic value. A search's win
/// or loss value that is no proof (a bound of one, or a mate seen by a truncated node)
/// stays where its scale puts it: shifted, it left the engine's unit (minimax answered a
/// raw of -10^15 - 104).
fn shifts(eval: &Evaluation) -> bool {
    eval.outcome == Outcome::Unknown && eval.score.abs() < WIN_ZONE
}

pub fn finish(
    position: &Position,
    mut results: RootResults<'_>,
    budget: &Budget,
    rng: &mut StdRng,
) -> Analysis {
    if position.marks_restricted() {
        // Renju, x to move: a search may have scored a forbidden cell; it is no move.
        results
            .moves
            .retain(|e| e.mv.piece != Piece::Mark || position.forbidden(e.mv.cell()).is_none());
    }
    if position.gravity() {
        // Under gravity only the columns' landing cells are moves.
        results.moves.retain(|e| position.playable(e.mv.cell()));
    }
    let shift = budget.parity_shift();
    if shift != 0.0 {
        // The shift evens out the parity of the last completed depth. It moves every
        // unproven value alike (those of shallower searches too), so that it never
        // reorders moves the engine ranked by score.
        for e in results.moves.iter_mut() {
            if shifts(&e.eval) {
                e.eval.score += shift;
            }
        }
    }
    // An evaluated move was read at least its own ply: a proof an engine found before
    // its first iteration (a line completed at once) says its plies, else 1.
    for e in results
        .moves
        .iter_mut()
        .filter(|e| e.evaluated && e.depth == 0)
    {
        e.depth = e.eval.plies.unwrap_or(1).max(1);
    }
    score_every_cell(position, &mut results.moves);
    let moves = &mut results.moves;
    let evaluation = match results.choice {
        Choice::AmongBest => {
            pick_among_best(moves, rng);
            moves[0].eval.clone()
        }
        Choice::InOrder => {
            moves.sort_by(|a, b| b.eval.score.total_cmp(&a.eval.score));
            moves[0].eval.clone()
        }
        Choice::Ranked => moves[0].eval.clone(),
        Choice::Chosen(mv, mut eval) => {
            if shifts(&eval) {
                eval.score += shift;
            }
            sort_best_first(moves);
            match moves.iter().position(|e| e.mv == mv) {
                Some(i) => {
                    moves[..=i].rotate_right(1);
                    eval
                }
                // The chosen move was a forbidden cell: the best of the rest.
                None => moves[0].eval.clone(),
            }
        }
    };
    let best = moves[0].mv;
    let mut pv = vec![best];
    pv.extend((results.line_after)(best));
    let mut lines = Vec::new();
    if budget.lines() > 1 {
        lines.push(pv.clone());
        for e in moves.iter().take(budget.lines()).skip(1) {
            let mut line = vec![e.mv];
            line.extend((results.line_after)(e.mv));
            lines.push(line);
        }
    }
    Analysis {
        best,
        evaluation,
        moves: results.moves,
        pv,
        win_rates: Vec::new(),
        lines,
        stats: SearchStats {
            nodes: budget.nodes,
            depth: results.depth,
            elapsed: budget.elapsed(),
            complete: results.complete,
            exact: false,
            best_proven: false,
            path: results.path,
            threads: 1,
            parity_shift: shift,
        },
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::path::{Note, Route};
    use kinrow_game::Rules;

    fn eval(score: f64, outcome: Outcome) -> MoveEval {
        let eval = Evaluation {
            score,
            outcome,
            plies: None,
        };
        MoveEval::searched(Move::mark(0), eval, 2)
    }

    #[test]
    fn paths_read_as_the_api_has_always_shown_them() {
        let path = |route, notes: &[Note]| SearchPath {
            route,
            notes: notes.to_vec(),
        };
        assert_eq!(path(Some(Route::Perfect), &[]).to_string(), "perfect");
        assert_eq!(
            path(
                Some(Route::PatternSearch),
                &[Note::PerfectRanOut, Note::ThreatSpaceDefenceVct]
            )
            .to_string(),
            "pattern search: perfect ran out, threat-space defence (vct)"
        );
        assert_eq!(
            path(None, &[Note::ThreatSpaceWin]).to_string(),
            "threat-space win"
        );
        assert_eq!(
            path(Some(Route::Minimax), &[Note::SafetyCheck]).to_string(),
            "minimax: safety check"
        );
    }

    #[test]
    fn proven_scores_put_fast_wins_first_and_slow_losses_last() {
        for scale in [WinScale::OUTCOME, WinScale::SEARCH] {
            let win3 = scale.proven(Outcome::Win, 3);
            let win5 = scale.proven(Outcome::Win, 5);
            let loss2 = scale.proven(Outcome::Loss, 2);
            let loss6 = scale.proven(Outcome::Loss, 6);
            assert!(win3 > win5 && win5 > 0.0 && 0.0 > loss6 && loss6 > loss2);
        }
        assert_eq!(WinScale::OUTCOME.proven(Outcome::Win, 3), 9997.0);
        assert_eq!(WinScale::SEARCH.proven(Outcome::Loss, 4), -1e15 + 4.0);
    }

    /// On tic-tac-toe after `x` in the centre, an engine that evaluated two corners gets
    /// every other empty cell scored below them; the PV starts with the chosen move.
    #[test]
    fn every_cell_gets_a_score_below_the_evaluated_ones() {
        let mut p = Position::empty(&Rules::mnk(3, 3, 3).unwrap());
        p.play(Move::mark(4));
        let mut a = eval(5.0, Outcome::Unknown);
        a.mv = Move::mark(0);
        let mut b = eval(-2.0, Outcome::Unknown);
        b.mv = Move::mark(8);
        let results = RootResults {
            line_after: Box::new(|_| vec![Move::mark(2)]),
            ..RootResults::new(vec![b, a], 2, false)
        };
        let budget = Budget::with_time(std::time::Duration::from_secs(1));
        let analysis = finish(&p, results, &budget, &mut StdRng::seed_from_u64(1));
        assert_eq!(analysis.best, Move::mark(0));
        assert_eq!(analysis.pv, vec![Move::mark(0), Move::mark(2)]);
        assert_eq!(analysis.moves.len(), 8);
        assert!(analysis.moves[2..].iter().all(|e| e.eval.score < -2.0));
        assert!(analysis
            .moves
            .windows(2)
            .all(|w| w[0].eval.score >= w[1].eval.score));
    }
}
