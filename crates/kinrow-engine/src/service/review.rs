//! A game's review: every position of a game searched by an engine, every move
//! classified by how much of the expected result it gave away ([`judge_game`]; `POST
//! /v1/review` and `kinrow review` both run it).
//!
//! The positions `P_0 .. P_n` of a game of `n` moves are searched in turn, each within
//! its share of one time budget ([`spread`]: the time left divided by the positions
//! left, so the whole review ends within the budget). The value of a position is the
//! engine's `value` for its side to move (the common [-1, 1] scale, [`super::value`]); a
//! finished position is worth exactly -1 to the side to move when the other side has
//! won, 0 when drawn. For move `i`, by the player to move in `P_i`:
//!
//! - `value_before` = the value of `P_i`, `best` = the engine's move there and
//!   `best_value` = its value (the same number);
//! - `value_after` = minus the value of `P_{i+1}` (the opponent's value, seen from the
//!   mover), or exactly the outcome the search of `P_i` proved for the played move (a
//!   threat-space search proves a win from the winner's side that the same position
//!   searched from the loser's side often leaves unproven);
//! - `loss` = `best_value - value_after`, at least 0; 0 when the move is `best`;
//! - the class judges only what is known ([`judge`]): `forced` when the position left one
//!   move that does not lose at once ([`forced`]: a single legal move, or every other one
//!   lets the opponent win on the next ply) and that move was played; where both the
//!   position's outcome and the played move's are proven (the move's by the search of
//!   `P_i`, or as the opposite of `P_{i+1}`'s proven outcome), a move that keeps the
//!   outcome is `best` (loss 0) and one that changes it a `blunder`; where both values
//!   are numbers of the same kind (two estimates, or an estimate before and a proof
//!   after) the class by the loss ([`Class::of`]: best <= 0.02 < good <= 0.1 < inaccuracy
//!   <= 0.2 < mistake <= 0.4 < blunder); where they are not comparable (a position or a
//!   move without a value: `perfect`'s unproven ones; or a proof before beside an
//!   estimate after, which a shallower search from the other side often fails to prove
//!   again) nothing is claimed: `good` with loss 0 (`best` when it is the engine's move).
//!   So a mistake or blunder always has a loss above its threshold or a proven change.
//!
//! A review whose time runs out before a position (each search costs more than its
//! share: a large board, a loaded machine) stops there and judges the moves before it
//! only ([`Review::unjudged`]), so that it never overruns its budget by more than one
//! search.
//!
//! A player's accuracy is the mean over their moves of `1 - loss` (at least 0), in
//! percent: 100 for a game of best moves, 0 for a game of moves that each throw away a
//! win (or a draw, and half of one...).

use std::time::{Duration, Instant};

use super::value;
use crate::core::types::{Analysis, Outcome};
use kinrow_game::{Move, Player, Position};

mod forced;
mod verdict;

pub use forced::{final_value, forced, safe_moves};
pub use verdict::{accuracy, judge, opposite, Class, Proofs, Verdict, THRESHOLDS};

/// The time of the next position's search: what is `left` of the review's budget over
/// the `positions` still to search, at most `per_position` (the time asked for each).
pub fn spread(left: Duration, positions: usize, per_position: Duration) -> Duration {
    (left / positions.max(1) as u32)
        .min(per_position)
        .max(Duration::from_millis(1))
}

/// A game to review: every position from the start (the start first) and the move
/// played in each but the last.
#[derive(Clone, Debug)]
pub struct Game {
    /// The positions, one more than the moves.
    pub positions: Vec<Position>,
    /// The moves, in order.
    pub moves: Vec<Move>,
}

/// One judged move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedMove {
    /// Its place in the game's moves, from 0.
    pub index: usize,
    /// Who made it.
    pub player: Player,
    /// The move.
    pub mv: Move,
    /// Its values, the engine's best move there, the loss and the class.
    pub verdict: Verdict,
}

/// A reviewed game: every move judged, each player's accuracy, the values for a graph
/// and what the searches cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every move, judged, in order.
    pub moves: Vec<ReviewedMove>,
    /// Each player's accuracy ([`accuracy`]; a forced move loses nothing), by player
    /// index; `None` for a player who made no move.
    pub accuracy: [Option<f64>; 2],
    /// Every position's value for x (-1 to 1), the start first.
    pub values_for_x: Vec<f64>,
    /// Nodes searched over all the positions.
    pub nodes: u64,
    /// True when every move was judged and every position's search finished rather
    /// than hit a limit.
    pub complete: bool,
    /// Positions whose search the time stopped before it finished (rather than a node
    /// cap; a search that finished late was not stopped).
    pub stopped_by_time: usize,
    /// The moves left unjudged, the last ones of the game: the review's time ran out
    /// before the positions after them were searched (`moves` holds the others).
    pub unjudged: usize,
    /// The time the whole review took.
    pub elapsed: Duration,
}

/// How a review spreads its time over the positions it searches.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Spread {
    /// The whole review's time.
    pub budget: Duration,
    /// Each position's most ([`spread`]: what is left divided by the positions left, at
    /// most this); `None`: each may use what is left but `reserve` for each later one.
    pub per_position: Option<Duration>,
    /// With `per_position` `None`, the time kept for each later position.
    pub reserve: Duration,
}

impl Spread {
    /// The time of the next position's search, with `unspent` of the review's time left
    /// and `left` positions to search (this one included).
    fn time(&self, unspent: Duration, left: usize) -> Duration {
        match self.per_position {
            Some(most) => spread(unspent, left, most),
            None => unspent
                .saturating_sub(self.reserve * left.saturating_sub(1) as u32)
                .max(Duration::from_millis(1)),
        }
    }
}

/// Reviews `game`: searches every position not yet over in turn with `run` (a position
/// and its time give the engine's analysis and the position's value for its side to
/// move), within `spread`, and judges every move as soon as the position after it is
/// searched, handing each to `on_move` then (a stream shows the review as it goes).
pub fn judge_game(
    game: &Game,
    spread_by: Spread,
    mut run: impl FnMut(&Position, Duration) -> (Analysis, f64),
    mut on_move: impl FnMut(&ReviewedMove),
) -> Review {
    let start = Instant::now();
    let mut left = game.positions.iter().filter(|p| !p.is_over()).count();
    let mut review = Review {
        moves: Vec::with_capacity(game.moves.len()),
        accuracy: [None, None],
        values_for_x: Vec::new(),
        nodes: 0,
        complete: true,
        stopped_by_time: 0,
        unjudged: 0,
        elapsed: Duration::ZERO,
    };
    // Each position's value for its side to move, the engine's move there and what its
    // search proved.
    let mut values: Vec<f64> = Vec::with_capacity(game.positions.len());
    let mut bests: Vec<Option<Move>> = Vec::with_capacity(game.positions.len());
    let mut proofs: Vec<Proofs> = Vec::with_capacity(game.positions.len());
    // Each position's proven outcome for its side to move (a finished one's result).
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(game.positions.len());
    // Each judged move's outcome for its mover, as far as it is proven.
    let mut resolved: Vec<Outcome> = Vec::with_capacity(game.moves.len());
    let mut losses: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (i, p) in game.positions.iter().enumerate() {
        if p.is_over() {
            values.push(final_value(p));
            bests.push(None);
            proofs.push(Proofs::NONE);
            outcomes.push(final_outcome(p));
        } else {
            let unspent = spread_by.budget.saturating_sub(start.elapsed());
            if unspent.is_zero() {
                // The review's time is spent (each search costs more than its share on
                // a large board, or a loaded machine): answer what is judged rather
                // than overrun the budget.
                review.unjudged = game.moves.len() - review.moves.len();
                review.complete = false;
                break;
            }
            let time = spread_by.time(unspent, left);
            left -= 1;
            let (analysis, v) = run(p, time);
            review.nodes += analysis.stats.nodes;
            review.complete &= analysis.stats.complete;
            if !analysis.stats.complete && analysis.stats.elapsed >= time {
                review.stopped_by_time += 1;
            }
            values.push(v);
            bests.push(Some(analysis.best));
            let searched = proved(&analysis, game.moves.get(i).copied());
            proofs.push(searched);
            outcomes.push(searched.position);
        }
        // The move that led here can be judged now.
        let Some(j) = i.checked_sub(1) else { continue };
        let known = known_of_move(j, &proofs, &outcomes, &resolved, &mut values);
        resolved.push(known.played);
        let judged = judged_move(game, j, bests[j], (values[j], values[i]), known);
        let verdict = &judged.verdict;
        losses[judged.player.index()].push(if verdict.class == Class::Forced {
            0.0
        } else {
            verdict.loss
        });
        on_move(&judged);
        review.moves.push(judged);
    }
    review.accuracy = [accuracy(&losses[0]), accuracy(&losses[1])];
    review.values_for_x = for_x(&game.positions, &values);
    review.elapsed = start.elapsed();
    review
}

/// What a position's search proved (`analysis`) of the position and of the move
/// `played` there (the game's last position has none), for its side to move; the value
/// after the move is taken as known until the next position is searched.
fn proved(analysis: &Analysis, played: Option<Move>) -> Proofs {
    let played = played.and_then(|mv| {
        analysis
            .moves
            .iter()
            .find(|e| e.mv == mv)
            .map(|e| e.eval.outcome)
    });
    // A value the engine has: a proof, or the chosen move's estimate (an
    // unproven move `perfect` lists without one has none).
    let known = analysis.evaluation.outcome != Outcome::Unknown
        || analysis.moves.is_empty()
        || analysis
            .moves
            .iter()
            .any(|e| e.mv == analysis.best && e.evaluated);
    // The position's outcome is the chosen move's where nothing may be better:
    // a win, or a search that says no other move can do better (every move
    // proven, or `stats.best_proven`).
    let settled = analysis.evaluation.outcome == Outcome::Win
        || analysis.stats.best_proven
        || (!analysis.moves.is_empty()
            && analysis
                .moves
                .iter()
                .all(|e| e.eval.outcome != Outcome::Unknown));
    let position = if settled {
        analysis.evaluation.outcome
    } else {
        Outcome::Unknown
    };
    Proofs {
        position,
        played: played.unwrap_or(Outcome::Unknown),
        before_known: known,
        after_known: true,
    }
}

/// Move `j` of `game` judged: the engine's `best` move before it (the played move where
/// the position was not searched), the `values` before and after it for the mover's and
/// the opponent's side, and what is `known` of it.
fn judged_move(
    game: &Game,
    j: usize,
    best: Option<Move>,
    (before, next): (f64, f64),
    known: Proofs,
) -> ReviewedMove {
    let position = &game.positions[j];
    let played = game.moves[j];
    let best = best.unwrap_or(played);
    let verdict = judge(played, (best, before), next, forced(position), known);
    ReviewedMove {
        index: j,
        player: position.to_move(),
        mv: played,
        verdict,
    }
}

/// The values of `positions` for their sides to move (as far as they were searched),
/// each turned into x's.
fn for_x(positions: &[Position], values: &[f64]) -> Vec<f64> {
    positions
        .iter()
        .zip(values)
        .map(|(p, &v)| if p.to_move() == Player::X { v } else { 0.0 - v })
        .collect()
}

/// A finished position's outcome for its side to move.
fn final_outcome(position: &Position) -> Outcome {
    match final_value(position) {
        v if v > 0.0 => Outcome::Win,
        v if v < 0.0 => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// What is known of move `j` (from position `j` to `j + 1`) for its mover, once position
/// `j + 1` is searched: the played move's outcome is what the search before it proved,
/// else the opposite of what the search after it proved; the value after it is known
/// where the position after it has a value. A position the search left unproven is
/// proven by the move that led to it (`resolved`: each judged move's outcome), and its
/// value in `values` becomes that proof's.
fn known_of_move(
    j: usize,
    proofs: &[Proofs],
    outcomes: &[Outcome],
    resolved: &[Outcome],
    values: &mut [f64],
) -> Proofs {
    let i = j + 1;
    let mut known = proofs[j];
    if known.played == Outcome::Unknown {
        known.played = opposite(outcomes[i]);
    }
    // A move's proven outcome is its position's, for the other side.
    if known.position == Outcome::Unknown {
        if let Some(&led) = j.checked_sub(1).and_then(|k| resolved.get(k)) {
            if let Some(v) = value::proven(opposite(led)) {
                known.position = opposite(led);
                known.before_known = true;
                values[j] = v;
            }
        }
    }
    known.after_known = proofs[i].before_known || known.played != Outcome::Unknown;
    known
}

#[cfg(test)]
mod tests {
    use super::*;
    use kinrow_game::{Player, Rules};

    fn position(rows: &str, k: u64) -> Position {
        let rows: Vec<&str> = rows.split('/').collect();
        let rules = Rules::mnk(rows[0].len() as u64, rows.len() as u64, k).unwrap();
        Position::new(&rules, Some(rows.as_slice()), None).unwrap()
    }

    #[test]
    fn classes_follow_the_thresholds() {
        let table = [
            (0.0, Class::Best),
            (0.02, Class::Best),
            (0.05, Class::Good),
            (0.1, Class::Good),
            (0.15, Class::Inaccuracy),
            (0.3, Class::Mistake),
            (0.4, Class::Mistake),
            (0.41, Class::Blunder),
            (2.0, Class::Blunder),
        ];
        for (loss, want) in table {
            assert_eq!(Class::of(loss), want, "loss {loss}");
        }
    }

    #[test]
    fn a_threat_leaves_one_safe_move() {
        // o threatens the top row's right end; x must take it.
        let p = position("oo./x../x..", 3);
        assert_eq!(forced(&p), Some(Move::mark(2)));
        // Nothing threatened: several moves, none forced.
        let q = position(".../.x./...", 3);
        assert_eq!(forced(&q), None);
        // Two threats: every move loses; none is forced.
        let r = position("oo./oxx/.x.", 3);
        assert_eq!(forced(&r), None);
        // A threat, but x wins at once in two ways: nothing forced either.
        let t = position("xx./xo./.oo", 3);
        assert_eq!(forced(&t), None);
        // With special pieces every move is tried: the same single answer.
        let rules = Rules::new(
            3,
            3,
            3,
            true,
            [
                kinrow_game::Hand::new(0, 0, 0),
                kinrow_game::Hand::new(1, 0, 0),
            ],
        )
        .unwrap();
        let rows = ["oo.", "x..", "x.."];
        let p = Position::new(&rules, Some(&rows[..]), Some(Player::X)).unwrap();
        assert_eq!(safe_moves(&p), vec![Move::mark(2)]);
    }

    #[test]
    fn a_best_move_loses_nothing_and_a_thrown_win_is_a_blunder() {
        let best = (Move::mark(4), 0.3);
        let v = judge(Move::mark(4), best, 0.5, None, Proofs::NONE);
        assert_eq!((v.loss, v.class), (0.0, Class::Best));
        let v = judge(Move::mark(0), (Move::mark(4), 1.0), 1.0, None, Proofs::NONE);
        assert_eq!(
            (v.loss, v.value_after, v.class),
            (2.0, -1.0, Class::Blunder)
        );
        let v = judge(
            Move::mark(0),
            (Move::mark(4), 0.0),
            -0.2,
            Some(Move::mark(0)),
            Proofs::NONE,
        );
        assert_eq!(v.class, Class::Forced);
        assert_eq!(accuracy(&[0.0, 0.5, 2.0]), Some(50.0));
        assert_eq!(accuracy(&[]), None);
    }

    #[test]
    fn only_a_proven_change_or_a_comparable_loss_is_a_mistake_or_a_blunder() {
        let proofs = |position, played, before_known, after_known| Proofs {
            position,
            played,
            before_known,
            after_known,
        };
        // From an unproven -0.99 into a loss: 0.01 of value, no proven change.
        let v = judge(
            Move::mark(0),
            (Move::mark(4), -0.99),
            1.0,
            None,
            Proofs::NONE,
        );
        assert_eq!((v.class, v.value_after), (Class::Best, -1.0));
        // Every move lost: a move that keeps the outcome loses nothing.
        let all_lost = proofs(Outcome::Loss, Outcome::Loss, true, true);
        let v = judge(Move::mark(0), (Move::mark(4), -1.0), 1.0, None, all_lost);
        assert_eq!((v.loss, v.class), (0.0, Class::Best));
        // A win the mover's search proved, the opponent's search seeing only -0.86.
        let won = proofs(Outcome::Win, Outcome::Win, true, true);
        let v = judge(Move::mark(0), (Move::mark(4), 1.0), -0.86, None, won);
        assert_eq!((v.loss, v.class), (0.0, Class::Best));
        // A proven win before, only an estimate after: not comparable, nothing claimed.
        let unproven_after = proofs(Outcome::Win, Outcome::Unknown, true, true);
        let v = judge(
            Move::mark(0),
            (Move::mark(4), 1.0),
            0.3,
            None,
            unproven_after,
        );
        assert_eq!((v.loss, v.class), (0.0, Class::Good));
        // A proven draw thrown into a proven loss: the outcome changed.
        let thrown = proofs(Outcome::Draw, Outcome::Loss, true, true);
        let v = judge(Move::mark(0), (Move::mark(4), 0.0), 1.0, None, thrown);
        assert_eq!((v.loss, v.class), (1.0, Class::Blunder));
        // No value before (perfect unproven: 0 is no number): nothing claimed.
        let no_value = proofs(Outcome::Unknown, Outcome::Loss, false, true);
        let v = judge(Move::mark(0), (Move::mark(4), 0.0), 1.0, None, no_value);
        assert_eq!((v.loss, v.class), (0.0, Class::Good));
        // Two estimates: 0.95 down to 0.5 is a loss past the mistake's threshold.
        let v = judge(
            Move::mark(0),
            (Move::mark(4), 0.95),
            -0.5,
            None,
            Proofs::NONE,
        );
        assert_eq!(v.class, Class::Blunder);
        // An estimate before, a proven loss after: comparable.
        let into_loss = proofs(Outcome::Unknown, Outcome::Loss, true, true);
        let v = judge(Move::mark(0), (Move::mark(4), 0.1), 1.0, None, into_loss);
        assert_eq!((v.loss, v.class), (1.1, Class::Blunder));
    }

    #[test]
    fn the_budget_is_spread_over_the_positions_left() {
        let ms = Duration::from_millis;
        assert_eq!(spread(ms(1000), 10, ms(500)), ms(100));
        assert_eq!(spread(ms(1000), 2, ms(300)), ms(300));
        assert_eq!(spread(ms(0), 5, ms(300)), ms(1));
    }

    /// A search of `p` that takes `took` and says `complete`: its first legal move,
    /// valued 0.
    fn searched(p: &Position, took: Duration, complete: bool) -> (Analysis, f64) {
        std::thread::sleep(took);
        let mv = p.legal_moves()[0];
        let evaluation = crate::core::types::Evaluation {
            score: 0.0,
            outcome: Outcome::Unknown,
            plies: None,
        };
        let stats = crate::core::types::SearchStats {
            complete,
            elapsed: took,
            ..Default::default()
        };
        let analysis = Analysis {
            best: mv,
            evaluation,
            moves: Vec::new(),
            pv: vec![mv],
            win_rates: Vec::new(),
            lines: Vec::new(),
            stats,
        };
        (analysis, 0.0)
    }

    /// A game of `n` quiet moves on 9x9 (nobody near five).
    fn quiet_game(n: usize) -> Game {
        let mut p = position(&vec![".".repeat(9); 9].join("/"), 5);
        let mut game = Game {
            positions: vec![p.clone()],
            moves: Vec::new(),
        };
        for i in 0..n {
            let mv = Move::mark((i % 9) * 9 + (i / 9) * 3 + (i % 2) * 2);
            p.try_play(mv).unwrap();
            game.moves.push(mv);
            game.positions.push(p.clone());
        }
        game
    }

    #[test]
    fn a_review_out_of_time_judges_the_moves_before_and_says_so() {
        let game = quiet_game(8);
        let spread = Spread {
            budget: Duration::from_millis(45),
            per_position: Some(Duration::from_millis(1)),
            reserve: Duration::ZERO,
        };
        // Every search takes 20 ms (a share of 1 ms asked): the third one ends the time.
        let start = Instant::now();
        let review = judge_game(
            &game,
            spread,
            |p, _| searched(p, Duration::from_millis(20), true),
            |_| {},
        );
        assert!(start.elapsed() < Duration::from_millis(45 + 20 + 10));
        assert_eq!(review.moves.len(), 2, "positions 0 to 2 searched");
        assert_eq!(review.unjudged, 6);
        assert_eq!(review.values_for_x.len(), 3);
        assert!(!review.complete);
        // The searches finished (late): the time stopped none of them.
        assert_eq!(review.stopped_by_time, 0);
    }

    #[test]
    fn a_review_in_time_judges_every_move_and_counts_the_searches_stopped_by_time() {
        let game = quiet_game(4);
        let spread = Spread {
            budget: Duration::from_secs(10),
            per_position: Some(Duration::from_millis(2)),
            reserve: Duration::ZERO,
        };
        let mut i = 0;
        let review = judge_game(
            &game,
            spread,
            |p, time| {
                i += 1;
                // Every other search is stopped by its time.
                searched(p, time, i % 2 == 0)
            },
            |_| {},
        );
        assert_eq!((review.moves.len(), review.unjudged), (4, 0));
        assert_eq!(review.stopped_by_time, 3, "positions 0, 2 and 4");
        assert!(!review.complete);
    }
}
