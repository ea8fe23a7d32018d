//! `kinrow value-suite`: the judge's labels (forced wins, losing and holding moves),
//! the candidate cells, the suite lines, and the counts of the check, on hand-made
//! evaluations and positions without an external judge; and `auto`'s values as the
//! check reads them on a hand-made position.

use kinrow_engine::Eval;
use kinrow_engine::Outcome;
use kinrow_game::{Move, Position, Rules};
use kinrow_lab::measuring::value_suite::check::{answer, engines};
use kinrow_lab::measuring::value_suite::{
    above_every, candidates, cell_move, defence, forced_win, read_suite, Fate, Shown, Suite, Tally,
};

fn rules() -> Rules {
    Rules::new(15, 15, 5, true, Default::default()).unwrap()
}

fn at(col: usize, row: usize) -> Move {
    Move::mark(row * 15 + col)
}

const LOST: Option<Eval> = Some(Eval::Mate { win: true });
const WON: Option<Eval> = Some(Eval::Mate { win: false });

fn score(s: i64) -> Option<Eval> {
    Some(Eval::Score(s))
}

#[test]
fn a_forced_win_counts_only_within_the_plies_the_judge_counted() {
    let win = Eval::Mate { win: true };
    assert!(forced_win(win, Some(15), 20));
    assert!(forced_win(win, Some(20), 20));
    assert!(!forced_win(win, Some(21), 20));
    assert!(!forced_win(win, None, 20), "+M* has no plies");
    assert!(!forced_win(Eval::Mate { win: false }, Some(4), 20));
    assert!(!forced_win(Eval::Score(900), Some(4), 20));
}

#[test]
fn a_move_loses_only_to_the_opponents_forced_win() {
    assert_eq!(Fate::of(LOST), Fate::Losing);
    assert_eq!(Fate::of(WON), Fate::Holding);
    assert_eq!(Fate::of(score(-900)), Fate::Holding);
    assert_eq!(Fate::of(None), Fate::Unjudged);
}

#[test]
fn the_holding_move_is_the_judges_own_where_it_holds_else_its_best_holder() {
    let (a, b, c, d, e) = (at(1, 1), at(2, 2), at(3, 3), at(4, 4), at(5, 5));
    let judged = [
        (a, score(-30)),
        (b, LOST),
        (c, None),
        (d, score(40)),
        (e, LOST),
    ];
    let labels = defence(d, &judged).unwrap();
    assert_eq!(labels.hold, d, "the judge's own move holds: it is the one");
    assert_eq!(labels.losing, vec![b, e]);
    assert_eq!(labels.holding, vec![a, d]);
    assert_eq!(labels.unjudged, 1);
    // The judge's move loses after all: the holder best for the mover is a (the
    // opponent's -30 beats its 40).
    assert_eq!(defence(b, &judged).unwrap().hold, a);
    // A forced loss of the opponent is the best of all.
    let judged = [(a, score(-500)), (b, LOST), (c, WON)];
    assert_eq!(defence(at(9, 9), &judged).unwrap().hold, c);
    // Equals: the first.
    let judged = [(a, score(10)), (b, LOST), (c, score(10))];
    assert_eq!(defence(b, &judged).unwrap().hold, a);
    // Nothing loses, or nothing holds: no defence position.
    assert_eq!(defence(a, &[(a, score(0)), (b, score(10))]), None);
    assert_eq!(defence(a, &[(a, LOST), (b, LOST), (c, None)]), None);
}

#[test]
fn the_candidates_are_the_most_crowded_empty_cells_near_the_stones() {
    let mut p = Position::empty(&rules());
    p.play(at(7, 7));
    let all = candidates(&p, 100);
    // The 24 cells within two of the one stone: the 8 next to it first, by cell.
    assert_eq!(all.len(), 24);
    let near = [
        at(6, 6),
        at(7, 6),
        at(8, 6),
        at(6, 7),
        at(8, 7),
        at(6, 8),
        at(7, 8),
        at(8, 8),
    ];
    assert_eq!(all[..8], near);
    assert!(!all.contains(&at(7, 7)));
    assert!(!all.contains(&at(10, 7)), "three away is not near");
    assert_eq!(candidates(&p, 10)[..8], near);
    assert_eq!(candidates(&p, 10).len(), 10);
    // The cells next to two stones outrank those beside one.
    p.play(at(9, 7));
    assert_eq!(candidates(&p, 3), vec![at(8, 6), at(8, 7), at(8, 8)]);
}

#[test]
fn a_suite_line_gives_back_its_position_and_moves() {
    let text = r##"# kinrow value-suite build --games g.jsonl --judge pbrain:rapfi
{"suite":"winning","game":"g.jsonl:3","ply":3,"order":17,"rules":"15,15,5","variant":"free","moves":"7,7 8,8 7,8","to_move":"o","move":"7,9","plies":11}
{"suite":"defence","game":"g.jsonl:4","ply":2,"order":20,"rules":"15,15,5","variant":"free","moves":"7,7 8,8","to_move":"x","move":"9,9","eval":-40,"losing":["0,0","14,14"],"holding":["9,9"]}
"##;
    let (comments, lines) = read_suite(text).unwrap();
    assert_eq!(
        comments,
        vec!["kinrow value-suite build --games g.jsonl --judge pbrain:rapfi"]
    );
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].suite, Suite::Winning);
    let (p, moves) = lines[0].position().unwrap();
    assert_eq!(moves, vec![at(7, 7), at(8, 8), at(7, 8)]);
    assert_eq!(p.to_move().as_char(), 'o');
    assert_eq!(lines[0].plies, Some(11));
    assert_eq!(
        lines[1].cells(&lines[1].losing).unwrap(),
        vec![at(0, 0), at(14, 14)]
    );
    // The line survives a round trip.
    let again = serde_json::to_string(&lines[1]).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&again).unwrap()["move"],
        "9,9"
    );
    // A side to move that is not the position's, an occupied cell, a cell off the board.
    let mut wrong = lines[0].clone();
    wrong.to_move = "x".into();
    assert!(wrong.position().is_err());
    wrong = lines[0].clone();
    wrong.moves = "7,7 7,7".into();
    assert!(wrong.position().is_err());
    assert!(cell_move("15,0", &rules()).is_err());
    assert!(cell_move("3;4", &rules()).is_err());
    assert_eq!(cell_move("3,4", &rules()).unwrap(), at(3, 4));
}

fn shown(value: f64, outcome: Outcome) -> Shown {
    Shown {
        value: Some(value),
        outcome,
    }
}

const NONE: Shown = Shown {
    value: None,
    outcome: Outcome::Unknown,
};

#[test]
fn a_win_is_shown_strictly_as_a_proof_and_loosely_from_a_half() {
    let u = Outcome::Unknown;
    assert!(shown(1.0, Outcome::Win).won() && shown(1.0, Outcome::Win).winning());
    assert!(!shown(0.9, u).won() && shown(0.9, u).winning());
    assert!(shown(0.5, u).winning());
    assert!(!shown(0.49, u).winning());
    // A move without a value shows nothing, whatever its outcome says.
    let unvalued = Shown {
        value: None,
        outcome: Outcome::Win,
    };
    assert!(!unvalued.won() && !unvalued.winning() && !unvalued.lost());
    assert!(shown(-0.5, u).lost() && shown(-1.0, Outcome::Loss).lost());
    assert!(!shown(-0.49, u).lost());
}

#[test]
fn the_holding_move_must_be_strictly_above_every_losing_one() {
    let u = Outcome::Unknown;
    let hold = shown(0.1, u);
    assert!(above_every(hold, &[shown(-0.6, u), shown(0.0, u)]));
    assert!(
        !above_every(hold, &[shown(-0.6, u), shown(0.1, u)]),
        "equal is not above"
    );
    assert!(!above_every(hold, &[shown(-0.6, u), NONE]));
    assert!(!above_every(NONE, &[shown(-0.6, u)]));
    assert!(above_every(hold, &[]));
}

#[test]
fn the_tally_counts_both_suites() {
    let u = Outcome::Unknown;
    let mut t = Tally::default();
    let win = shown(1.0, Outcome::Win);
    t.add_winning(win, win);
    t.add_winning(shown(0.7, u), win);
    t.add_winning(shown(0.2, u), shown(0.99, u));
    t.add_winning(NONE, shown(0.99, u));
    t.add_defence(
        shown(0.0, u),
        &[shown(-1.0, Outcome::Loss), shown(-0.3, u)],
        false,
    );
    t.add_defence(
        shown(-0.2, u),
        &[shown(-0.8, u), shown(-0.5, u), NONE],
        true,
    );
    t.add_defence(shown(-0.9, u), &[shown(-0.6, u)], false);
    let want = Tally {
        winning: 4,
        won: 1,
        won_loosely: 2,
        own_won: 2,
        defence: 3,
        losing: 6,
        shown_lost: 4,
        held_above: 1,
        own_losing: 1,
        unvalued: 2,
    };
    assert_eq!(t, want);
    assert!((t.lost_share() - 4.0 / 6.0).abs() < 1e-12);
    assert_eq!(Tally::default().lost_share(), 0.0);
    let json = t.json();
    assert_eq!(json["winning_shown_won"], 1);
    assert_eq!(json["winning_shown_at_least_half"], 2);
    assert_eq!(json["hold_above_every_losing"], 1);
    assert_eq!(json["winning_own_move_shown_won"], 2);
    assert_eq!(json["own_move_losing"], 1);
    assert_eq!(json["losing_shown_at_most_minus_half"], 4);
}

#[test]
fn auto_is_checked_with_every_cell_valued_and_shows_a_made_four_won() {
    // auto:cells=off in the spec is overridden: the check measures the values shown.
    let specs = engines("auto:cells=off,minimax", Some(3_000)).unwrap();
    assert!(specs[0].cells.0);
    assert_eq!(specs[0].nodes, Some(3_000));
    assert_eq!(specs[1].nodes, Some(3_000));
    assert!(engines("nonsense", None).is_err());
    // x to move with an open three on row 7: either end makes an open four.
    let mut p = Position::empty(&rules());
    for (x, o) in [((6, 7), (0, 0)), ((7, 7), (14, 0)), ((8, 7), (0, 14))] {
        p.play(at(x.0, x.1));
        p.play(at(o.0, o.1));
    }
    let spec = &specs[0];
    let limits = spec.limits(std::time::Duration::from_secs(5));
    let (analysis, values) = answer(spec, &limits, &p, 1);
    let four = Shown::of(&analysis, &values, at(5, 7));
    assert_eq!(four.outcome, Outcome::Win);
    assert_eq!(four.value, Some(1.0));
    // Every empty cell is valued, and an occupied one not at all.
    let far = Shown::of(&analysis, &values, at(14, 14));
    assert!(far.value.is_some_and(|v| v < 1.0));
    assert_eq!(Shown::of(&analysis, &values, at(7, 7)), NONE);
}
