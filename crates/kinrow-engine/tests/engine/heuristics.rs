//! The one-ply heuristic engines `greedy`, `threat` and `priority`: tactics every one
//! of them must get right, what each does with special pieces, and the contract of
//! `Analysis` (every legal target scored, best first, seeded).

use std::collections::BTreeSet;

use kinrow_engine::EngineKind;
use kinrow_engine::{Action, Analysis, Limits, Outcome};
use kinrow_game::{Coord, Hand, Move, Piece, Player, Position, Rules, Symmetry};
use rand::rngs::StdRng;
use rand::SeedableRng;

const HEURISTICS: &[EngineKind] = &[EngineKind::Greedy, EngineKind::Threat, EngineKind::Priority];

/// A position from rows joined by `/`, with both players' hands and the side to move.
fn pos(m: u64, n: u64, k: u64, board: &str, hands: [Hand; 2], to_move: Option<Player>) -> Position {
    let rules = Rules::new(m, n, k, true, hands).unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    Position::new(&rules, Some(&rows), to_move).unwrap()
}

fn plain(m: u64, n: u64, k: u64, board: &str) -> Position {
    pos(m, n, k, board, [Hand::default(); 2], None)
}

fn run(kind: EngineKind, p: &Position, seed: u64) -> Analysis {
    let a = kind
        .build()
        .analyze(p, &Limits::default(), &mut StdRng::seed_from_u64(seed));
    check_contract(kind, p, &a);
    a
}

fn at(p: &Position, row: usize, col: usize) -> usize {
    row * p.m() + col
}

/// The contract every engine's analysis keeps: the best move is legal and first, the
/// moves are best first, and every cell some legal move targets is scored.
fn check_contract(kind: EngineKind, p: &Position, a: &Analysis) {
    let name = kind.name();
    assert!(
        p.is_legal(a.best),
        "{name}: best move {:?} is illegal",
        a.best
    );
    assert_eq!(a.moves[0].mv, a.best, "{name}: best move is not first");
    assert_eq!(a.pv, vec![a.best], "{name}: pv");
    assert_eq!(a.evaluation, a.moves[0].eval, "{name}: evaluation");
    for w in a.moves.windows(2) {
        assert!(
            w[0].eval.score >= w[1].eval.score,
            "{name}: moves not best first"
        );
    }
    for e in &a.moves {
        assert!(
            p.is_legal(e.mv),
            "{name}: scored an illegal move {:?}",
            e.mv
        );
        assert!(e.eval.score.is_finite(), "{name}: score not finite");
    }
    let targets: BTreeSet<u16> = p.legal_moves().iter().map(|m| m.cell).collect();
    let scored: BTreeSet<u16> = a.moves.iter().map(|e| e.mv.cell).collect();
    assert_eq!(
        targets, scored,
        "{name}: scored cells differ from legal targets"
    );
    assert_eq!(a.stats.depth, 1);
    assert!(a.stats.complete);
    assert!(a.stats.nodes >= 1);
}

#[test]
fn every_heuristic_takes_an_immediate_win() {
    let cases = [
        (3, 3, 3, "xx./oo./...", (0, 2)),
        (3, 3, 3, "o.x/ox./...", (2, 0)),
        (
            15,
            15,
            5,
            concat!(
                "...............//...............//...............//",
                "....xxxx.......//....oooo.......//...............//",
                "...............//...............//...............//...............//",
                "...............//...............//...............//...............//",
                "..............."
            ),
            (3, 8),
        ),
    ];
    for kind in HEURISTICS {
        for (m, n, k, board, (r, c)) in cases {
            let board = board.replace("//", "/");
            let p = plain(m, n, k, &board);
            let a = run(*kind, &p, 1);
            // (3, 3) also wins on the 15x15 board; either end is right.
            let wins = a.best.piece == Piece::Mark && p.wins_at(a.best.cell(), p.to_move());
            assert!(wins, "{}: {board} best {:?}", kind.name(), a.best);
            if m == 3 {
                assert_eq!(a.best, Move::mark(at(&p, r, c)), "{}: {board}", kind.name());
            }
            assert_eq!(a.evaluation.outcome, Outcome::Win, "{}", kind.name());
        }
    }
}

#[test]
fn every_heuristic_stops_a_single_threat() {
    // o to move in the 15x15 case: x threatens five at (7, 9) only (the other end is o).
    let cases = [
        (3, 3, 3, "xx./o../...", (0, 2)),
        (4, 4, 3, "o.../.x../..x./....", (3, 3)),
        (
            15,
            15,
            5,
            concat!(
                "...............//...............//...............//...............//",
                "...............//...............//.......o.......//....oxxxx......//",
                "........o......//...............//...............//...............//",
                "...............//...............//..............."
            ),
            (7, 9),
        ),
    ];
    for kind in HEURISTICS {
        for (m, n, k, board, (r, c)) in cases {
            let board = board.replace("//", "/");
            let p = plain(m, n, k, &board);
            let a = run(*kind, &p, 7);
            assert_eq!(a.best, Move::mark(at(&p, r, c)), "{}: {board}", kind.name());
        }
    }
}

#[test]
fn greedy_removes_the_mark_that_holds_a_double_threat() {
    // o threatens (0, 2) and (2, 0); a mark or block stops one, removing (0, 0) both.
    let hands = [Hand::new(1, 1, 0), Hand::default()];
    let p = pos(3, 3, 3, "oo./o../..x", hands, Some(Player::X));
    let a = run(EngineKind::Greedy, &p, 3);
    assert_eq!(a.best, Move::new(0, Piece::Remove));
    assert_ne!(a.evaluation.outcome, Outcome::Loss);
    // Every other move loses at once and says so.
    assert!(a.moves[1..].iter().all(|e| e.eval.outcome == Outcome::Loss));
}

#[test]
fn greedy_bombs_when_only_a_bomb_saves_it() {
    // o threatens (0, 3) and (3, 0) on 4x4, k = 4, from (0,0..2) and (1..2,0); x holds
    // one bomb: a bomb at (1, 1) clears (0,0), (0,1), (0,2), (1,0), (2,0) and both
    // threats with them. Bombs elsewhere leave one of them.
    let hands = [Hand::new(0, 0, 1), Hand::default()];
    let p = pos(4, 4, 4, "ooo./o.../o.../...x", hands, Some(Player::X));
    let a = run(EngineKind::Greedy, &p, 3);
    assert_eq!(a.best.piece, Piece::Bomb);
    assert_ne!(a.evaluation.outcome, Outcome::Loss, "best {:?}", a.best);
}

#[test]
fn same_seed_same_answer_other_seeds_vary_among_equals() {
    let p = Position::empty(&Rules::mnk(15, 15, 5).unwrap());
    for kind in HEURISTICS {
        let a = run(*kind, &p, 42);
        let b = run(*kind, &p, 42);
        assert_eq!(a, {
            let mut b = b;
            b.stats.elapsed = a.stats.elapsed;
            b
        });
        let bests: BTreeSet<Move> = (0..16).map(|s| run(*kind, &p, s).best).collect();
        assert!(bests.len() > 1, "{}: always {:?}", kind.name(), bests);
    }
}

#[test]
fn every_heuristic_answers_on_big_full_and_tiny_boards() {
    let big = Position::empty(&Rules::mnk(64, 64, 5).unwrap());
    // A full 4x4 board but one cell, no line of 4 (k = 4): o to move.
    let full = plain(4, 4, 4, "xxoo/ooxx/xxoo/xox.");
    let one = Position::empty(&Rules::mnk(1, 1, 1).unwrap());
    let long = Position::empty(&Rules::mnk(3, 2, 9).unwrap());
    let special = pos(
        5,
        5,
        3,
        "x#o../.o.../..x../...../.....",
        [Hand::new(2, 2, 2), Hand::new(1, 1, 1)],
        Some(Player::O),
    );
    for kind in HEURISTICS {
        let a = run(*kind, &big, 5);
        if *kind != EngineKind::Priority {
            // Priority gives every cell of an empty board 0: any cell will do.
            let c = Coord::new(a.best.cell() / 64, a.best.cell() % 64);
            assert!(c.row > 0 && c.row < 63 && c.col > 0 && c.col < 63, "{c:?}");
        }
        let a = run(*kind, &full, 5);
        assert_eq!(a.best, Move::mark(15));
        let a = run(*kind, &one, 5);
        assert_eq!(a.best, Move::mark(0));
        assert_eq!(a.evaluation.outcome, Outcome::Win);
        run(*kind, &long, 5);
        run(*kind, &special, 5);
    }
}

/// A 15x15 board with `x` and `o` marks at the given (row, col) places.
fn board15(xs: &[(usize, usize)], os: &[(usize, usize)]) -> Position {
    let mut rows = vec![vec!['.'; 15]; 15];
    for &(r, c) in xs {
        rows[r][c] = 'x';
    }
    for &(r, c) in os {
        rows[r][c] = 'o';
    }
    let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    plain(15, 15, 5, &board.join("/"))
}

const CORNERS: [(usize, usize); 4] = [(0, 0), (0, 14), (14, 0), (14, 14)];

#[test]
fn threat_makes_its_own_double_threat() {
    // Two x twos cross at (7, 7): a mark there makes two open threes at once.
    let p = board15(&[(7, 5), (7, 6), (5, 7), (6, 7)], &CORNERS);
    let a = run(EngineKind::Threat, &p, 11);
    assert_eq!(a.best, Move::mark(at(&p, 7, 7)));
}

#[test]
fn threat_blocks_the_opponents_double_threat() {
    let p = board15(&CORNERS, &[(7, 5), (7, 6), (5, 7), (6, 7)]);
    assert_eq!(p.to_move(), Player::X);
    let a = run(EngineKind::Threat, &p, 11);
    assert_eq!(a.best, Move::mark(at(&p, 7, 7)));
}

#[test]
fn threat_prefers_its_own_double_threat_to_blocking_one() {
    let p = board15(
        &[(3, 2), (3, 3), (1, 4), (2, 4)],
        &[(10, 9), (10, 10), (8, 11), (9, 11)],
    );
    let a = run(EngineKind::Threat, &p, 11);
    assert_eq!(a.best, Move::mark(at(&p, 3, 4)));
    let block = a
        .moves
        .iter()
        .find(|e| e.mv == Move::mark(at(&p, 10, 11)))
        .unwrap();
    assert!(
        block.eval.score > a.moves[2].eval.score,
        "blocking is second best"
    );
}

#[test]
fn threat_removes_the_mark_that_holds_a_double_threat() {
    let hands = [Hand::new(1, 1, 0), Hand::default()];
    let p = pos(3, 3, 3, "oo./o../..x", hands, Some(Player::X));
    let a = run(EngineKind::Threat, &p, 3);
    assert_eq!(a.best, Move::new(0, Piece::Remove));
}

#[test]
fn threat_weighs_symmetric_cells_alike() {
    let positions = [
        // Symmetric under the left-right mirror.
        board15(&[(7, 7), (8, 6), (8, 8)], &[(6, 7), (9, 5), (9, 9)]),
        // Symmetric under all eight.
        Position::empty(&Rules::mnk(15, 15, 5).unwrap()),
        // Symmetric under the half turn.
        plain(6, 4, 3, "x...../..o.../...o../.....x"),
    ];
    for p in positions {
        let (m, n) = (p.m(), p.n());
        let a = run(EngineKind::Threat, &p, 1);
        let grid = a.score_grid(m, n);
        let mut checked = 0;
        for &s in Symmetry::all(m, n) {
            if p.transformed(s).cells() != p.cells() {
                continue;
            }
            checked += 1;
            for c in 0..m * n {
                let d = s.map_index(c, m, n);
                let (x, y) = (grid[c / m][c % m], grid[d / m][d % m]);
                match (x, y) {
                    (Some(x), Some(y)) => assert!(
                        (x - y).abs() <= 1e-9 * x.abs().max(1.0),
                        "{s:?}: cell {c} {x} vs {d} {y}"
                    ),
                    (None, None) => {}
                    _ => panic!("{s:?}: cell {c} and {d} differ in being scored"),
                }
            }
        }
        assert!(checked >= 2, "the test position should have a symmetry");
    }
}

#[test]
fn priority_destroys_a_line_the_opponent_could_reopen() {
    // o has three of k = 4 and a block on row 0; o holds a remove, so x destroys one of
    // those marks. Nothing else on the board rates above 75.
    let hands = [Hand::new(0, 1, 0), Hand::new(0, 1, 0)];
    let p = pos(
        5,
        5,
        4,
        "oo#o./...../..x../...../.....",
        hands,
        Some(Player::X),
    );
    let a = run(EngineKind::Priority, &p, 2);
    assert_eq!(a.best.piece, Piece::Remove);
    assert!([0, 1, 3].contains(&a.best.cell()), "{:?}", a.best);
    assert_eq!(a.moves[0].action, Some(Action::Destroy));
    assert_eq!(a.evaluation.score, 90.0);
    // The block is a legal target of the remove, but no rule picks it.
    let block = a.moves.iter().find(|e| e.mv.cell() == 2).unwrap();
    assert_eq!((block.action, block.eval.score), (None, -1.0));
    // Without a remove or bomb of its own, x falls back to the next best cell.
    let hands = [Hand::default(), Hand::new(0, 1, 0)];
    let p = pos(
        5,
        5,
        4,
        "oo#o./...../..x../...../.....",
        hands,
        Some(Player::X),
    );
    let a = run(EngineKind::Priority, &p, 2);
    assert_eq!(a.best.piece, Piece::Mark);
    assert!(a.moves.iter().all(|e| e.action != Some(Action::Destroy)));
    // And when o cannot clear the block, the line is dead: no destroy either.
    let hands = [Hand::new(0, 1, 0), Hand::default()];
    let p = pos(
        5,
        5,
        4,
        "oo#o./...../..x../...../.....",
        hands,
        Some(Player::X),
    );
    let a = run(EngineKind::Priority, &p, 2);
    assert_ne!(a.moves[0].action, Some(Action::Destroy));
}

#[test]
fn priority_prevents_with_a_block_when_it_holds_one() {
    let hands = [Hand::default(), Hand::new(1, 0, 0)];
    let p = pos(3, 3, 3, "xx./o../...", hands, Some(Player::O));
    let a = run(EngineKind::Priority, &p, 4);
    assert_eq!(a.best, Move::new(2, Piece::Block));
    assert_eq!(a.moves[0].action, Some(Action::Prevent));
    assert_eq!(a.evaluation.score, 95.0);
}

#[test]
fn priority_extends_its_own_runs_before_the_opponents() {
    // k = 4: x's run of two gets 75 at its ends, o's run of two 74.
    let p = plain(
        7,
        7,
        4,
        "......./..xx.../......./......./...oo../......./.......",
    );
    let a = run(EngineKind::Priority, &p, 4);
    assert!(
        [Move::mark(8), Move::mark(11)].contains(&a.best),
        "{:?}",
        a.best
    );
    assert_eq!(a.evaluation.score, 75.0);
    let grid = a.score_grid(7, 7);
    assert_eq!(grid[4][2], Some(74.0));
    assert_eq!(grid[4][5], Some(74.0));
    assert_eq!(grid[2][2], Some(50.0));
    assert_eq!(grid[6][6], Some(0.0));
    assert_eq!(grid[1][2], None, "own marks are nobody's target");
}

#[test]
fn every_heuristic_respects_overline_off() {
    // k = 3, exactly: x filling (0, 2) makes four, no win; o threatens (1, 2).
    let rules = Rules::new(7, 2, 3, false, [Hand::default(); 2]).unwrap();
    let p = Position::new(&rules, Some(&["xx.x...", "oo....o"]), None).unwrap();
    assert!(!p.wins_at(2, Player::X));
    for kind in HEURISTICS {
        let a = run(*kind, &p, 9);
        assert_eq!(a.best, Move::mark(at(&p, 1, 2)), "{}", kind.name());
    }
}

#[test]
fn every_heuristic_answers_with_only_special_pieces_left() {
    // A full board and no line: x can only remove or bomb.
    for hands in [Hand::new(0, 1, 0), Hand::new(0, 0, 1), Hand::new(1, 1, 1)] {
        let p = pos(
            3,
            3,
            3,
            "xox/xoo/oxx",
            [hands, Hand::default()],
            Some(Player::X),
        );
        for kind in HEURISTICS {
            let a = run(*kind, &p, 9);
            assert_ne!(a.best.piece, Piece::Mark, "{}", kind.name());
        }
    }
}

#[test]
fn removing_a_mark_can_reopen_a_line_with_overline_off() {
    // k = 3 exactly: o filling (0, 2) now makes five, no win. Removing (0, 1) or (0, 3)
    // leaves exactly three there: those removals lose at once; (0, 0) and (0, 4) do not.
    let hands = [Hand::new(0, 1, 0), Hand::default()];
    let rules = Rules::new(5, 2, 3, false, hands).unwrap();
    let p = Position::new(&rules, Some(&["oo.oo", "....."]), Some(Player::X)).unwrap();
    for kind in [EngineKind::Greedy, EngineKind::Threat] {
        let a = run(kind, &p, 9);
        let outcome = |cell: usize| {
            a.moves
                .iter()
                .find(|e| e.mv == Move::new(cell, Piece::Remove))
                .unwrap()
                .eval
                .outcome
        };
        assert_eq!(outcome(1), Outcome::Loss, "{}", kind.name());
        assert_eq!(outcome(3), Outcome::Loss, "{}", kind.name());
        assert_ne!(outcome(0), Outcome::Loss, "{}", kind.name());
        assert_ne!(outcome(4), Outcome::Loss, "{}", kind.name());
    }
}
