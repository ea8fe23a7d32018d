//! Correctness of the search engines `perfect` and `minimax`: known game values,
//! tactics (win now, stop a win, see a double threat coming), a perfect player that
//! never loses tic-tac-toe, special pieces, seeds, and the score grid. Every root move
//! against brute force: `crates/kinrow-engine/tests/engine/reference.rs`.

use std::time::Duration;

use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::Minimax;
use kinrow_engine::Perfect;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_game::{parse_board_string, Hand, Move, Piece, Player, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn pos(m: u64, n: u64, k: u64, board: &str) -> Position {
    let rules = Rules::mnk(m, n, k).unwrap();
    let cells = parse_board_string(board, rules.m(), rules.n()).unwrap();
    Position::from_cells(&rules, cells, None).unwrap()
}

fn empty(m: u64, n: u64, k: u64) -> Position {
    Position::empty(&Rules::mnk(m, n, k).unwrap())
}

fn limits(ms: u64) -> Limits {
    Limits::with_time(Duration::from_millis(ms))
}

fn run(engine: &dyn Engine, p: &Position, l: &Limits, seed: u64) -> Analysis {
    engine.analyze(p, l, &mut StdRng::seed_from_u64(seed))
}

fn cell(p: &Position, row: usize, col: usize) -> usize {
    row * p.m() + col
}

// ----- perfect: known values -----

#[test]
fn perfect_empty_board_values() {
    let table = [
        (3, 3, 3, Outcome::Draw),
        (4, 3, 3, Outcome::Win),
        (4, 4, 3, Outcome::Win),
        (4, 4, 4, Outcome::Draw),
        (5, 4, 4, Outcome::Draw),
    ];
    for (m, n, k, want) in table {
        let a = run(&Perfect, &empty(m, n, k), &limits(20_000), 7);
        assert!(a.stats.complete, "{m},{n},{k}");
        assert_eq!(a.evaluation.outcome, want, "{m},{n},{k}");
        assert!(a.moves.iter().all(|e| e.eval.outcome != Outcome::Unknown));
        assert_eq!(a.pv[0], a.best);
    }
}

#[test]
fn perfect_every_first_move_of_tic_tac_toe_draws() {
    let a = run(&Perfect, &empty(3, 3, 3), &limits(5_000), 3);
    assert_eq!(a.moves.len(), 9);
    for e in &a.moves {
        assert_eq!(e.eval.outcome, Outcome::Draw);
        assert_eq!(e.eval.plies, Some(9));
    }
}

#[test]
fn perfect_known_replies() {
    // x to move can win now at the top right; everything else loses to o's row.
    let p = pos(3, 3, 3, "xx./oo./...");
    let a = run(&Perfect, &p, &limits(1000), 1);
    assert_eq!(a.best, Move::mark(2));
    assert_eq!(
        (a.evaluation.outcome, a.evaluation.plies),
        (Outcome::Win, Some(1))
    );
    // o to move after x's corner and o's edge reply: x threatens; o must block
    let p = pos(3, 3, 3, "xx./.o./...");
    let a = run(&Perfect, &p, &limits(1000), 1);
    assert_eq!(a.best, Move::mark(2));
    for e in &a.moves {
        if e.mv.cell != 2 {
            assert_eq!((e.eval.outcome, e.eval.plies), (Outcome::Loss, Some(2)));
        }
    }
    // after an opening corner, the only drawing reply is the centre
    let p = pos(3, 3, 3, "x../.../...");
    let a = run(&Perfect, &p, &limits(1000), 1);
    for e in &a.moves {
        let want = if e.mv.cell == 4 {
            Outcome::Draw
        } else {
            Outcome::Loss
        };
        assert_eq!(e.eval.outcome, want, "{:?}", e.mv);
    }
}

/// Plays every sequence of replies against `perfect`; it must never lose.
fn never_loses(p: &mut Position, engine_side: Player, games: &mut u32) {
    if p.is_over() {
        *games += 1;
        assert_ne!(
            p.winner(),
            Some(engine_side.opponent()),
            "perfect lost: {:?}",
            p.to_rows()
        );
        return;
    }
    if p.to_move() == engine_side {
        let a = run(&Perfect, p, &limits(1000), *games as u64);
        let undo = p.play(a.best);
        never_loses(p, engine_side, games);
        p.undo(undo);
    } else {
        for mv in p.legal_moves() {
            let undo = p.play(mv);
            never_loses(p, engine_side, games);
            p.undo(undo);
        }
    }
}

#[test]
fn perfect_never_loses_tic_tac_toe() {
    for side in Player::BOTH {
        let mut games = 0;
        never_loses(&mut empty(3, 3, 3), side, &mut games);
        assert!(games > 50);
    }
}

// ----- both engines: tactics -----

fn engines() -> Vec<(&'static str, Box<dyn Engine>, Limits)> {
    vec![
        ("perfect", Box::new(Perfect), limits(2000)),
        (
            "minimax",
            Box::new(Minimax),
            Limits {
                depth: Some(4),
                ..limits(5000)
            },
        ),
    ]
}

#[test]
fn both_take_an_immediate_win() {
    // 6x6, k = 4: x completes the row at (2,4)
    let p = pos(6, 6, 4, "....../....../oxxx.o/.o..../....../......");
    for (name, e, l) in engines() {
        let a = run(e.as_ref(), &p, &l, 1);
        assert_eq!(a.best, Move::mark(cell(&p, 2, 4)), "{name}");
        assert_eq!(a.evaluation.outcome, Outcome::Win, "{name}");
        assert_eq!(a.evaluation.plies, Some(1), "{name}");
    }
    let p = big(
        "x",
        &[(7, 5), (7, 6), (7, 7), (7, 8)],
        &[(8, 5), (8, 6), (8, 7), (6, 9)],
    );
    let a = run(
        &Minimax,
        &p,
        &Limits {
            depth: Some(3),
            ..limits(5000)
        },
        1,
    );
    assert!([cell(&p, 7, 4), cell(&p, 7, 9)].contains(&(a.best.cell as usize)));
}

#[test]
fn both_block_an_immediate_loss() {
    // x to move; o has three in a column with the end open at (4,1)
    let p = pos(6, 6, 4, ".x..../.o.x../.o..../.o..../.....x/......");
    for (name, e, l) in engines() {
        let a = run(e.as_ref(), &p, &l, 1);
        assert_eq!(a.best, Move::mark(cell(&p, 4, 1)), "{name}");
    }
    // gomoku: o has four; x must take the one open end
    let p = big(
        "x",
        &[(3, 3), (5, 5), (9, 9), (7, 8)],
        &[(7, 4), (7, 5), (7, 6), (7, 7)],
    );
    let a = run(
        &Minimax,
        &p,
        &Limits {
            depth: Some(3),
            ..limits(5000)
        },
        1,
    );
    assert_eq!(a.best, Move::mark(cell(&p, 7, 3)));
}

#[test]
fn both_see_a_double_threat_one_move_ahead() {
    // 5x5, k = 4: x's pair on row 2; x to move makes an open three (two winning
    // cells) at (2,3) and wins on its next move.
    let p = pos(5, 5, 4, "...../...../.xx../...../o...o");
    for (name, e, l) in engines() {
        let a = run(e.as_ref(), &p, &l, 1);
        assert_eq!(a.best, Move::mark(cell(&p, 2, 3)), "{name}");
        assert_eq!(a.evaluation.outcome, Outcome::Win, "{name}");
        assert_eq!(a.evaluation.plies, Some(3), "{name}");
    }
    // gomoku: x's open three becomes an open four; minimax at depth 3 sees it
    let p = big(
        "x",
        &[(7, 5), (7, 6), (7, 7), (2, 2)],
        &[(10, 10), (11, 3), (3, 11), (12, 12)],
    );
    let a = run(
        &Minimax,
        &p,
        &Limits {
            depth: Some(3),
            ..limits(10_000)
        },
        1,
    );
    assert!(
        [cell(&p, 7, 4), cell(&p, 7, 8)].contains(&(a.best.cell as usize)),
        "{:?}",
        a.best
    );
    assert!(a.evaluation.score >= 1e14, "{:?}", a.evaluation);
}

/// A 15x15, k = 5 board with x's and o's marks at the given places.
fn big(_to_move: &str, xs: &[(usize, usize)], os: &[(usize, usize)]) -> Position {
    let mut rows = vec![vec!['.'; 15]; 15];
    for &(r, c) in xs {
        rows[r][c] = 'x';
    }
    for &(r, c) in os {
        rows[r][c] = 'o';
    }
    let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    pos(15, 15, 5, &board.join("/"))
}

// ----- special pieces -----

#[test]
fn perfect_uses_a_remove_against_a_double_threat() {
    // o threatens (0,2) and (2,0) through the shared mark at (0,0); x holds a remove.
    let hands = [Hand::new(0, 1, 0), Hand::default()];
    let rules = Rules::new(4, 4, 3, true, hands).unwrap();
    let cells = parse_board_string("oo../o.x./...x/.x..", 4, 4).unwrap();
    let p = Position::from_cells(&rules, cells, Some(Player::X)).unwrap();
    let a = run(&Perfect, &p, &limits(5000), 1);
    assert!(a.stats.complete);
    let saving = Move::new(0, Piece::Remove);
    assert_eq!(a.best, saving);
    for e in &a.moves {
        if e.mv == saving {
            assert_ne!(e.eval.plies, Some(2));
        } else {
            assert_eq!(
                (e.eval.outcome, e.eval.plies),
                (Outcome::Loss, Some(2)),
                "{:?}",
                e.mv
            );
        }
    }
}

// ----- seeds, mistakes, grid -----

#[test]
fn same_seed_same_answer_and_seeds_vary_among_equals() {
    let p = empty(3, 3, 3);
    for (_, e, l) in engines() {
        assert_eq!(
            run(e.as_ref(), &p, &l, 5).best,
            run(e.as_ref(), &p, &l, 5).best
        );
    }
    let bests: std::collections::HashSet<u16> = (0..20)
        .map(|s| run(&Perfect, &p, &limits(1000), s).best.cell)
        .collect();
    assert!(bests.len() > 3, "{bests:?}");
    // the four centre cells of 4,4,3 are alike: minimax varies among them too
    let p = empty(4, 4, 3);
    let l = Limits {
        depth: Some(2),
        ..limits(2000)
    };
    let bests: std::collections::HashSet<u16> = (0..20)
        .map(|s| run(&Minimax, &p, &l, s).best.cell)
        .collect();
    assert!(bests.len() > 1, "{bests:?}");
}

#[test]
fn mistakes_make_perfect_overlook_branches() {
    let p = empty(3, 3, 3);
    let all = Limits {
        mistake_probability: 1.0,
        ..limits(1000)
    };
    let a = run(&Perfect, &p, &all, 1);
    assert!(a.moves.iter().all(|e| e.eval.outcome == Outcome::Unknown));
    let some = Limits {
        mistake_probability: 0.3,
        ..limits(1000)
    };
    let a = run(&Perfect, &p, &some, 9);
    let b = run(&Perfect, &p, &some, 9);
    assert_eq!((a.best, a.moves), (b.best, b.moves));
    let outcomes: Vec<Outcome> = (0..10)
        .flat_map(|s| {
            run(&Perfect, &p, &some, s)
                .moves
                .into_iter()
                .map(|e| e.eval.outcome)
        })
        .collect();
    assert!(outcomes.contains(&Outcome::Unknown));
    assert!(outcomes.iter().any(|&o| o != Outcome::Unknown));
    // a win now is still taken when it is not overlooked
    let p = pos(3, 3, 3, "xx./oo./...");
    let small = Limits {
        mistake_probability: 0.01,
        ..limits(1000)
    };
    assert_eq!(run(&Perfect, &p, &small, 1).best, Move::mark(2));
}

#[test]
fn every_legal_target_gets_a_score() {
    let hands = [Hand::new(1, 1, 1), Hand::new(0, 1, 0)];
    let rules = Rules::new(15, 15, 5, true, hands).unwrap();
    let cells = parse_board_string(
        &big("x", &[(7, 7), (7, 8), (8, 8)], &[(6, 6), (9, 9), (6, 7)])
            .to_rows()
            .join("/"),
        15,
        15,
    )
    .unwrap();
    let gomoku = Position::from_cells(&rules, cells, Some(Player::X)).unwrap();
    let small = pos(4, 4, 3, "x.../.o../..../....");
    for p in [gomoku, small] {
        for kind in [EngineKind::Perfect, EngineKind::Minimax] {
            let a = run(kind.build().as_ref(), &p, &limits(300), 1);
            let grid = a.score_grid(p.m(), p.n());
            let mut targets = vec![false; p.cells().len()];
            for mv in p.legal_moves() {
                targets[mv.cell()] = true;
            }
            for (i, &t) in targets.iter().enumerate() {
                assert_eq!(
                    grid[i / p.m()][i % p.m()].is_some(),
                    t,
                    "{} cell {i}",
                    kind.name()
                );
            }
            assert_eq!(a.moves.len(), p.legal_moves().len(), "{}", kind.name());
            assert_eq!(a.pv[0], a.best);
            assert!(
                a.stats.elapsed < Duration::from_millis(400),
                "{}",
                kind.name()
            );
        }
    }
}

#[test]
fn budgets_are_kept() {
    // 7,7,5 is far too big for 100 ms: unknowns, not a late answer
    let a = run(&Perfect, &empty(7, 7, 5), &limits(100), 1);
    assert!(a.stats.elapsed < Duration::from_millis(150));
    assert!(!a.stats.complete);
    assert_eq!(a.moves.len(), 49);
    let a = run(&Perfect, &empty(20, 20, 5), &limits(100), 1);
    assert!(a.stats.elapsed < Duration::from_millis(150));
    let a = run(&Minimax, &empty(15, 15, 5), &limits(100), 1);
    assert!(a.stats.elapsed < Duration::from_millis(150));
    assert_eq!(a.best, Move::mark(7 * 15 + 7));
}

#[test]
fn minimax_answers_on_a_full_board_with_only_special_moves() {
    // 15x15 filled without a five; x holds a remove that no strong line calls for
    let mut rows = Vec::new();
    for r in 0..15 {
        let row: String = (0..15)
            .map(|c| if ((c / 2) + r) % 2 == 0 { 'x' } else { 'o' })
            .collect();
        rows.push(row);
    }
    let rules = Rules::new(15, 15, 5, true, [Hand::new(0, 1, 0), Hand::default()]).unwrap();
    let cells = parse_board_string(&rows.join("/"), 15, 15).unwrap();
    let p = Position::from_cells(&rules, cells, Some(Player::X)).unwrap();
    assert!(!p.is_over());
    let a = run(&Minimax, &p, &limits(300), 1);
    assert_eq!(a.moves.len(), p.legal_moves().len());
    assert_eq!(a.best.piece, Piece::Remove);
}
