//! The one-ply heuristic engines `greedy`, `threat` and `priority`: tactics every one
//! of them must get right, what each does with special pieces, and the contract of
//! `Analysis` (every legal target scored, best first, seeded).

use std::collections::BTreeSet;

use kinrow::engine::{Analysis, EngineKind, Limits, Outcome};
use kinrow::game::{Coord, Hand, Move, Piece, Player, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

const HEURISTICS: &[EngineKind] = &[EngineKind::Greedy];

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
        let c = Coord::new(a.best.cell() / 64, a.best.cell() % 64);
        assert!(c.row > 0 && c.row < 63 && c.col > 0 && c.col < 63, "{c:?}");
        let a = run(*kind, &full, 5);
        assert_eq!(a.best, Move::mark(15));
        let a = run(*kind, &one, 5);
        assert_eq!(a.best, Move::mark(0));
        assert_eq!(a.evaluation.outcome, Outcome::Win);
        run(*kind, &long, 5);
        run(*kind, &special, 5);
    }
}
