//! The one value scale (`engine::value`) for every engine: values in [-1, 1], proven
//! outcomes exact, a win now worth 1, the grid agreeing with the moves; and difficulty
//! (`engine::level`): level 10 never misses a win now or a block, level 1 does, and
//! `mistake_probability` changes play or is refused, for every engine.

use std::time::Duration;

use kinrow_engine::level;
use kinrow_engine::level::Leveled;
use kinrow_engine::value;
use kinrow_engine::value::UNPROVEN_MAX;
use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_game::{Move, Position, Rules};
use kinrow_server::dto::{EngineName, EngineParams};
use kinrow_server::search_plan;
use kinrow_server::Config;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn pos(m: u64, n: u64, k: u64, board: &str) -> Position {
    let rules = Rules::mnk(m, n, k).unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    Position::new(&rules, Some(&rows), None).unwrap()
}

fn limits() -> Limits {
    Limits {
        time: Duration::from_millis(300),
        nodes: Some(20_000),
        ..Limits::default()
    }
}

fn run(engine: &dyn Engine, p: &Position, limits: &Limits, seed: u64) -> Analysis {
    engine.analyze(p, limits, &mut StdRng::seed_from_u64(seed))
}

/// x to move wins at (1,0) or (1,5).
const WIN_NOW: &str = ".........\
/.xxxx..../.........\
/.ooo...../.........\
/....o..../.........\
/........./.........";

/// x to move must block o's four at (1,5); x has no line of its own.
const BLOCK_NOW: &str = ".........\
/xoooo..../.........\
/........./.x.......\
/........./......x..\
/........./...x.....";

/// Positions in progress of every size: a tic-tac-toe middle game, a 7x7x4 and a 9x9x5
/// opening, a 15x15x5 fight, and the two tactics above.
fn positions() -> Vec<Position> {
    vec![
        pos(3, 3, 3, "x../.o./..."),
        pos(
            7,
            7,
            4,
            "......./......./..x..../...o.../......./......./.......",
        ),
        pos(9, 9, 5, WIN_NOW),
        pos(9, 9, 5, BLOCK_NOW),
        pos(
            15,
            15,
            5,
            "...............\
            /...............\
            /...............\
            /...............\
            /...............\
            /......o........\
            /......xx.......\
            /.....oxo.......\
            /.......x.......\
            /......o........\
            /...............\
            /...............\
            /...............\
            /...............\
            /...............",
        ),
    ]
}

#[test]
fn every_engine_answers_on_the_value_scale() {
    for &kind in EngineKind::ALL {
        for p in positions() {
            let mut a = run(&*kind.build(), &p, &limits(), 7);
            let v = value::values(kind, &p, &mut a);
            let name = kind.name();
            assert_eq!(v.moves.len(), a.moves.len());
            let all = std::iter::once((&a.evaluation, v.evaluation))
                .chain(a.moves.iter().map(|e| &e.eval).zip(v.moves.iter().copied()));
            for (eval, value) in all {
                assert!(
                    (-1.0..=1.0).contains(&value),
                    "{name}: {value} for {eval:?}"
                );
                match eval.outcome {
                    Outcome::Win => assert_eq!(value, 1.0, "{name}: {eval:?}"),
                    Outcome::Draw => assert_eq!(value, 0.0, "{name}: {eval:?}"),
                    Outcome::Loss => assert_eq!(value, -1.0, "{name}: {eval:?}"),
                    Outcome::Unknown => {
                        assert!(value.abs() <= UNPROVEN_MAX, "{name}: {value} unproven")
                    }
                }
            }
            // The chosen move's value is the evaluation's.
            let chosen = a.moves.iter().position(|e| e.mv == a.best).unwrap();
            assert_eq!(v.moves[chosen], v.evaluation, "{name}");
            // The grid: per cell, the best value of the evaluated moves that target it.
            let grid = v.grid(&a, p.m(), p.n());
            for (r, row) in grid.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    let best = a
                        .moves
                        .iter()
                        .zip(&v.moves)
                        .filter(|(e, _)| e.evaluated)
                        .filter(|(e, _)| e.mv.coord(p.m()) == kinrow_game::Coord::new(r, c))
                        .map(|(_, &x)| x)
                        .reduce(f64::max);
                    assert_eq!(*cell, best, "{name}: cell {r},{c}");
                }
            }
        }
    }
}

#[test]
fn a_win_now_is_worth_exactly_one_for_every_engine() {
    let p = pos(9, 9, 5, WIN_NOW);
    let wins = [Move::mark(9), Move::mark(14)];
    for &kind in EngineKind::ALL {
        let mut a = run(&*kind.build(), &p, &limits(), 3);
        let v = value::values(kind, &p, &mut a);
        assert!(wins.contains(&a.best), "{}: {:?}", kind.name(), a.best);
        assert_eq!(v.evaluation, 1.0, "{}", kind.name());
        for (e, &x) in a.moves.iter().zip(&v.moves) {
            if wins.contains(&e.mv) {
                assert_eq!(x, 1.0, "{}: {:?}", kind.name(), e);
                assert_eq!(e.eval.outcome, Outcome::Win);
            } else if e.eval.outcome != Outcome::Win {
                assert!(x < 1.0, "{}: only a proven win is worth 1", kind.name());
            }
        }
    }
}

#[test]
fn the_fitted_mappings_rise_with_the_score_and_stay_inside_the_proofs() {
    use kinrow_engine::Scale;
    use value::{fit, Family};
    let scales = [
        Scale::Pattern,
        Scale::Minimax,
        Scale::Mcts,
        Scale::Threat,
        Scale::Priority,
        Scale::Greedy,
    ];
    for scale in scales {
        for family in [Family::Small, Family::Medium, Family::Large] {
            let f = fit(scale, family).unwrap();
            let raws = [
                -1e16, -1e9, -1e4, -100.0, -1.0, -0.5, 0.0, 0.5, 1.0, 100.0, 1e4, 1e9, 1e16,
            ];
            let vals: Vec<f64> = raws.iter().map(|&r| f.value(r)).collect();
            assert!(
                vals.windows(2).all(|w| w[0] <= w[1]),
                "{scale:?} {family:?}: {vals:?}"
            );
            assert!(
                vals.iter().all(|v| v.abs() <= UNPROVEN_MAX),
                "{scale:?} {family:?}"
            );
        }
    }
    assert!(fit(Scale::Perfect, Family::Small).is_none());
}

// ----- difficulty -----

fn at_level(kind: EngineKind, level: u8, p: &Position, mistakes: f64, seed: u64) -> Move {
    let l = Limits {
        mistake_probability: mistakes,
        ..limits()
    };
    run(&Leveled::new(kind, level), p, &l, seed).best
}

/// Tactics with their only right answers: (m, n, k, board, right moves).
type Tactic = (u64, u64, u64, &'static str, &'static [usize]);

const TACTICS: &[Tactic] = &[
    (9, 9, 5, WIN_NOW, &[9, 14]),
    (9, 9, 5, BLOCK_NOW, &[14]),
    (5, 5, 4, "xxx../...../.oo../...../..o..", &[3]),
    (5, 5, 4, "xooo./...../x..../...../..x..", &[4]),
];

#[test]
fn level_ten_never_misses_a_win_or_a_block_and_level_one_does() {
    for &kind in EngineKind::ALL {
        let mut missed = 0;
        let mut tries = 0;
        for &(m, n, k, board, right) in TACTICS {
            // `perfect` searches every branch to the end: on 81 cells it proves no
            // move lost within this budget, so it gets the small boards only.
            if kind == EngineKind::Perfect && m * n > 25 {
                continue;
            }
            let p = pos(m, n, k, board);
            let right: Vec<Move> = right.iter().map(|&c| Move::mark(c)).collect();
            for seed in 0..8 {
                let best = at_level(kind, 10, &p, 0.0, seed);
                assert!(
                    right.contains(&best),
                    "{}: {best:?} on {board}",
                    kind.name()
                );
                tries += 1;
                missed += usize::from(!right.contains(&at_level(kind, 1, &p, 0.0, seed)));
            }
        }
        assert!(
            missed > 0,
            "{}: level 1 missed nothing in {tries} tries",
            kind.name()
        );
    }
}

#[test]
fn mistake_probability_changes_play_or_is_refused_for_every_engine() {
    let win = pos(9, 9, 5, WIN_NOW);
    let wins = [Move::mark(9), Move::mark(14)];
    let config = Config::default();
    for &kind in EngineKind::ALL {
        let params = EngineParams {
            name: Some(EngineName(kind.name().into())),
            mistake_probability: Some(0.9),
            ..EngineParams::default()
        };
        let plan = search_plan(&params, &config, "engine");
        if level::honours_mistakes(kind) {
            assert!(plan.is_ok(), "{}", kind.name());
            let missed = (0..12)
                .filter(|&seed| !wins.contains(&at_level(kind, 10, &win, 0.9, seed)))
                .count();
            assert!(
                missed > 0,
                "{}: p = 0.9 never changed the move",
                kind.name()
            );
        } else {
            let e = plan.expect_err("refused");
            let body = serde_json::to_value(e.body()).unwrap();
            assert_eq!(body["error"]["code"], "invalid_limits", "{}", kind.name());
            assert_eq!(body["error"]["field"], "engine.mistake_probability");
        }
    }
}
