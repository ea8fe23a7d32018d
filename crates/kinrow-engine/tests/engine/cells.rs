//! Per-cell values a player can read (issue 51): no bound of a null window shown as a
//! value unless marked, every legal cell near the stones valued by a search of its own,
//! the empty board valued by a real search, and a level's evaluation the value of the
//! move it played.

use std::time::Duration;

use kinrow_engine::level::Leveled;
use kinrow_engine::timeman::FORCED_DEPTH;
use kinrow_engine::value;
use kinrow_engine::Budget;
use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::SearchContext;
use kinrow_engine::Watch;
use kinrow_engine::{Analysis, Bound, Limits};
use kinrow_game::{Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::levels::pos15;

/// A quiet middlegame: ten stones around the centre, x to move.
fn midgame() -> Position {
    pos15(&[
        (5, "........x"),
        (6, "......o.x"),
        (7, ".....x.o"),
        (8, "......xo"),
        (9, ".....o..x"),
        (10, "....o"),
    ])
}

/// The position: o at (6,6), x at (7,7) and (8,8), o to move.
fn opening() -> Position {
    pos15(&[(6, "......o"), (7, ".......x"), (8, "........x")])
}

fn auto(p: &Position, ms: u64) -> Analysis {
    EngineKind::Auto.build().analyze(
        p,
        &Limits::with_time(Duration::from_millis(ms)),
        &mut StdRng::seed_from_u64(1),
    )
}

/// The cells within two steps (king moves) of a stone that are empty.
fn near_stones(p: &Position) -> Vec<usize> {
    let (m, n) = (p.m() as i64, p.n() as i64);
    (0..p.cells().len())
        .filter(|&c| p.cell(c) == kinrow_game::Cell::Empty)
        .filter(|&c| {
            let (r, col) = ((c as i64) / m, (c as i64) % m);
            (-2..=2).any(|dr| {
                (-2..=2).any(|dc| {
                    let (rr, cc) = (r + dr, col + dc);
                    (0..n).contains(&rr)
                        && (0..m).contains(&cc)
                        && p.cell((rr * m + cc) as usize) != kinrow_game::Cell::Empty
                })
            })
        })
        .collect()
}

/// In quiet positions at the default budget every legal cell near the stones carries a
/// value of its own, with the depth it was searched to; a move whose number is only a
/// null window's bound says so, and none of the ten best is a bound where the time
/// allowed its own search.
#[test]
fn every_cell_near_the_stones_is_valued_and_bounds_are_marked() {
    for p in [opening(), midgame()] {
        let a = auto(&p, 300);
        let near = near_stones(&p);
        for &c in &near {
            let e = a.moves.iter().find(|e| e.mv.cell() == c).unwrap();
            assert!(e.evaluated, "cell {c} not valued: {:?}", a.stats);
            assert!(e.depth >= 1, "cell {c} valued at depth 0");
        }
        for e in &a.moves {
            assert_eq!(e.evaluated, e.depth > 0, "{e:?}");
        }
        assert_eq!(
            a.moves[0].bound,
            Bound::Exact,
            "the chosen move's value is exact"
        );
        let top_bounds = a.moves[..10]
            .iter()
            .filter(|e| e.bound != Bound::Exact)
            .count();
        assert!(
            top_bounds <= 2,
            "{top_bounds} of the ten best are bounds: {:?}",
            &a.moves[..10]
        );
    }
}

/// Two open threes for x, x to move: the root proves one open four a win and plays it
/// at once, and the time left proves the others too (the other end of the same three,
/// both ends of the other): every cell that makes an open four is shown a proven win,
/// not its one-ply value.
#[test]
fn after_a_proof_at_the_root_the_other_winning_cells_are_proven_too() {
    let p = pos15(&[
        (0, "o.............o"),
        (2, "..x"),
        (3, "..x"),
        (4, "..x"),
        (7, ".....xxx"),
        (12, "............o"),
        (13, "...o"),
        (14, "o.............o"),
    ]);
    let a = auto(&p, 300);
    let cell = |r: usize, c: usize| r * 15 + c;
    for c in [cell(7, 4), cell(7, 8), cell(1, 2), cell(5, 2)] {
        let e = a.moves.iter().find(|e| e.mv.cell() == c).unwrap();
        assert_eq!(
            e.eval.outcome,
            kinrow_engine::Outcome::Win,
            "cell {c} makes an open four: {e:?}"
        );
    }
    assert_eq!(a.moves[0].mv, a.best);
    let wins = a
        .moves
        .iter()
        .take_while(|e| e.eval.outcome == kinrow_engine::Outcome::Win)
        .count();
    assert!(wins >= 4, "the wins come first: {:?}", &a.moves[..6]);
}

/// A caller that shows only the chosen move (`Watch::showing_cells(false)`: an API answer
/// trimmed to neither `scores` nor `moves`, the Gomocup brain) gets no values for the
/// cells the main search did not value: its whole budget went to the move. The same
/// search shown in full values every cell near the stones.
#[test]
fn a_caller_that_shows_only_the_move_gets_no_cell_pass() {
    let p = midgame();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::with_time(Duration::from_secs(30))
    };
    let run = |shown: bool| {
        let watch = std::sync::Arc::new(Watch::new(1).showing_cells(shown));
        let mut budget = Budget::new(&limits).watched(watch);
        let mut ctx = SearchContext::new();
        EngineKind::Auto.build().analyze_in(
            &p,
            &limits,
            &mut budget,
            &mut ctx,
            &mut StdRng::seed_from_u64(1),
        )
    };
    let (all, only) = (run(true), run(false));
    let valued = |a: &Analysis| a.moves.iter().filter(|e| e.evaluated).count();
    let near = near_stones(&p);
    assert!(
        near.iter()
            .all(|&c| all.moves.iter().any(|e| e.mv.cell() == c && e.evaluated)),
        "shown in full, every cell near the stones is valued"
    );
    assert!(
        valued(&only) < near.len() / 2,
        "{} of {} cells valued for a move-only caller",
        valued(&only),
        near.len()
    );
    assert!(only.moves[0].evaluated && only.moves[0].mv == only.best);
}

/// The principal-variation search's refuted moves are upper bounds: the ten best are
/// searched again with an open window (exact, at most as deep as the search), and the
/// moves beyond them still carry `bound: upper` at the search's depth.
#[test]
fn moves_refuted_by_a_null_window_are_marked_as_upper_bounds() {
    let p = midgame();
    let a = EngineKind::Auto.build().analyze(
        &p,
        &Limits {
            depth: Some(4),
            ..Limits::with_time(Duration::from_secs(5))
        },
        &mut StdRng::seed_from_u64(1),
    );
    assert_eq!(a.moves[0].bound, Bound::Exact);
    assert_eq!(a.moves[0].depth, 4);
    // With the time to spare, the best ten were searched again: exact, at most 4 deep.
    for e in &a.moves[..10] {
        assert_eq!(e.bound, Bound::Exact, "{e:?}");
        assert!(e.depth <= 4 && e.depth >= 1, "{e:?}");
    }
    // Beyond them the bounds stay marked, at the depth of the iteration.
    let marked = a.moves.iter().filter(|e| e.bound == Bound::Upper).count();
    assert!(
        marked > 0,
        "no move after the ten best is marked as a bound"
    );
    assert!(a
        .moves
        .iter()
        .filter(|e| e.bound == Bound::Upper)
        .all(|e| e.depth == 4));
}

/// The empty 15x15 board is searched (not answered by a shortcut: its one root move,
/// the centre, is searched deeper than a forced move's few plies), and x's value is
/// the first player's edge: between 0 and0.6.
#[test]
fn the_empty_board_is_searched_and_favours_the_first_player() {
    let empty = Position::empty(&Rules::mnk(15, 15, 5).unwrap());
    let mut a = auto(&empty, 300);
    let v = value::values(EngineKind::Auto, &empty, &mut a);
    assert_eq!(a.best.coord(15).row, 7);
    assert_eq!(a.best.coord(15).col, 7);
    assert!(
        a.stats.depth > FORCED_DEPTH as u32,
        "depth {}",
        a.stats.depth
    );
    assert!(
        (0.0..=0.6).contains(&v.evaluation),
        "x's value {}",
        v.evaluation
    );
    assert!(a.moves.iter().all(|e| e.evaluated), "every cell valued");
}

/// At levels 1, 4 and 7 the reply's evaluation is the computed value of the move
/// played: the played move is valued (not a placeholder), and the evaluation is its.
#[test]
fn a_levels_evaluation_is_the_value_of_the_move_it_played() {
    let p = midgame();
    for level in [1u8, 4, 7] {
        for seed in 1..4 {
            let mut a = Leveled::new(EngineKind::Auto, level).analyze(
                &p,
                &Limits::with_time(Duration::from_millis(300)),
                &mut StdRng::seed_from_u64(seed),
            );
            let v = value::values(EngineKind::Auto, &p, &mut a);
            let i = a.moves.iter().position(|e| e.mv == a.best).unwrap();
            assert!(
                a.moves[i].evaluated && a.moves[i].depth >= 1,
                "level {level}: {:?}",
                a.moves[i]
            );
            assert_eq!(v.evaluation, v.moves[i], "level {level} seed {seed}");
            assert!(
                v.evaluation != 0.0,
                "level {level}: a zero value in an uneven position"
            );
        }
    }
}

/// No evaluated move says it was searched 0 plies deep, whatever the engine, also where
/// every cell completes a line at once (k = 1: the roots are proven before any
/// iteration, and the values mark the wins the engine did not value; schemathesis found
/// depth 0 there).
#[test]
fn every_evaluated_move_was_searched_at_least_one_ply() {
    let boards = [
        Position::empty(&Rules::mnk(46, 6, 1).unwrap()),
        Position::empty(&Rules::mnk(3, 3, 3).unwrap()),
        // No line of five fits: every move a proven draw.
        Position::empty(&Rules::mnk(4, 3, 5).unwrap()),
        midgame(),
    ];
    for p in &boards {
        for &kind in EngineKind::ALL {
            let mut a = kind.build().analyze(
                p,
                &Limits::with_time(Duration::from_millis(100)),
                &mut StdRng::seed_from_u64(1),
            );
            // As the API serves it: the values, with the wins now proven on every move.
            value::values(kind, p, &mut a);
            for e in a.moves.iter().filter(|e| e.evaluated) {
                assert!(
                    e.depth >= 1,
                    "{} on {}x{}: {e:?}",
                    kind.name(),
                    p.m(),
                    p.n()
                );
            }
        }
    }
}

/// A search the server stops late answers with its last completed iteration
/// (`Progress::analysis`): that answer lists every empty cell once, values more than the
/// reported line (every root the iteration searched, with its depth and bound), and no
/// other move reads above the chosen one. `auto`'s pattern search on 15x15 and `minimax`
/// on 7x7.
#[test]
fn a_late_answer_values_what_its_last_iteration_searched() {
    let cases = [
        (EngineKind::Auto, midgame()),
        (
            EngineKind::Minimax,
            Position::new(
                &Rules::mnk(7, 7, 4).unwrap(),
                Some(&[
                    ".......", "...x...", "...o...", "..x....", ".......", ".......", ".......",
                ]),
                None,
            )
            .unwrap(),
        ),
    ];
    for (kind, p) in cases {
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::with_time(Duration::from_secs(30))
        };
        let watch = std::sync::Arc::new(Watch::new(1).anytime());
        let mut budget = Budget::new(&limits).watched(std::sync::Arc::clone(&watch));
        kind.build().analyze_in(
            &p,
            &limits,
            &mut budget,
            &mut SearchContext::new(),
            &mut StdRng::seed_from_u64(1),
        );
        let report = watch.last().expect("a completed iteration");
        let late = report.analysis(&p).unwrap();
        let empty = (0..p.cells().len())
            .filter(|&c| p.cell(c) == kinrow_game::Cell::Empty)
            .count();
        let mut cells: Vec<usize> = late.moves.iter().map(|e| e.mv.cell()).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(
            (late.moves.len(), cells.len()),
            (empty, empty),
            "{kind:?}: every empty cell once"
        );
        let valued: Vec<_> = late.moves.iter().filter(|e| e.evaluated).collect();
        assert!(
            valued.len() > 1,
            "{kind:?}: more than the line is valued: {}",
            valued.len()
        );
        assert!(
            valued.iter().all(|e| (1..=report.depth).contains(&e.depth)),
            "{kind:?}: each at its own depth, at most the report's {}",
            report.depth
        );
        assert_eq!(late.moves[0].mv, late.best);
        assert!(
            valued[1..]
                .iter()
                .all(|e| e.eval.score <= late.moves[0].eval.score),
            "{kind:?}: no move reads above the chosen one"
        );
        assert!(late.moves.iter().skip(valued.len()).all(|e| !e.evaluated));
    }
}
