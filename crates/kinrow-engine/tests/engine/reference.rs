//! The exact engines against brute force (a plain negamax over the whole tree):
//! `perfect`'s outcome and plies for every root move, on hand-picked and seeded random
//! small positions (overlines on and off, blocks in hand), and `minimax` searching
//! tic-tac-toe to the end never choosing a worse move than the best.

use std::collections::HashMap;
use std::time::Duration;

use kinrow_engine::Engine;
use kinrow_engine::Minimax;
use kinrow_engine::Perfect;
use kinrow_engine::{Limits, Outcome};
use kinrow_game::{parse_board_string, Hand, Move, Player, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn pos(m: u64, n: u64, k: u64, board: &str) -> Position {
    let rules = Rules::mnk(m, n, k).unwrap();
    let cells = parse_board_string(board, rules.m(), rules.n()).unwrap();
    Position::from_cells(&rules, cells, None).unwrap()
}

/// Plain negamax over the whole tree: the exact outcome and plies to the end of
/// every position (best play: fastest win, slowest loss), remembered by hash.
fn reference(p: &mut Position, memo: &mut HashMap<u64, (Outcome, u32)>) -> (Outcome, u32) {
    if let Some(&v) = memo.get(&p.hash()) {
        return v;
    }
    let mut best: Option<(Outcome, u32)> = None;
    for mv in p.legal_moves() {
        let v = move_value(p, mv, memo);
        if best.is_none_or(|b| rank(v) > rank(b)) {
            best = Some(v);
        }
    }
    let v = best.unwrap_or((Outcome::Draw, 0));
    memo.insert(p.hash(), v);
    v
}

fn move_value(
    p: &mut Position,
    mv: Move,
    memo: &mut HashMap<u64, (Outcome, u32)>,
) -> (Outcome, u32) {
    let undo = p.play(mv);
    let v = if p.winner().is_some() {
        (Outcome::Win, 1)
    } else {
        let (o, plies) = reference(p, memo);
        let flipped = match o {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            other => other,
        };
        (flipped, plies + 1)
    };
    p.undo(undo);
    v
}

fn rank(v: (Outcome, u32)) -> i64 {
    match v.0 {
        Outcome::Win => 2000 - v.1 as i64,
        Outcome::Draw => 0,
        Outcome::Loss => -2000 + v.1 as i64,
        Outcome::Unknown => unreachable!(),
    }
}

/// Checks every root move of `perfect` against the brute-force reference.
fn check_against_reference(p: &Position) {
    let a = Perfect.analyze(
        p,
        &Limits::with_time(Duration::from_secs(20)),
        &mut StdRng::seed_from_u64(1),
    );
    assert!(a.stats.complete, "{:?}", p.to_rows());
    let mut memo = HashMap::new();
    let mut q = p.clone();
    for e in &a.moves {
        let (o, plies) = move_value(&mut q, e.mv, &mut memo);
        assert_eq!(
            (e.eval.outcome, e.eval.plies),
            (o, Some(plies)),
            "move {:?} in {:?}",
            e.mv,
            p.to_rows()
        );
    }
    let best = a
        .moves
        .iter()
        .map(|e| rank((e.eval.outcome, e.eval.plies.unwrap())))
        .max();
    assert_eq!(
        Some(rank((a.evaluation.outcome, a.evaluation.plies.unwrap()))),
        best
    );
}

#[test]
fn perfect_matches_brute_force_on_small_positions() {
    for (m, n, k, board) in [
        (3, 3, 3, "x../.o./..."),
        (3, 3, 3, "x../.../..."),
        (3, 3, 3, ".x./.../..."),
        (3, 3, 3, "x../.../..o"),
        (3, 3, 3, "xo./.../..."),
        (3, 3, 3, "x.o/.x./..."),
        (4, 3, 3, "..../..../...."),
        (4, 4, 3, "x.../.o../..../...."),
        (4, 4, 4, "x.../.o../..x./...."),
        (4, 4, 4, "xo../.xo./..../...."),
    ] {
        check_against_reference(&pos(m, n, k, board));
    }
}

/// Random positions (a seeded generator) with 9 to 12 empty cells and no winner yet,
/// on boards where pairing strategies, double threats and dead cells all come up.
fn random_positions(rules: &Rules, count: usize, seed: u64) -> Vec<Position> {
    use rand::RngExt;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::empty(rules);
        let cells = (rules.m() * rules.n()) as i64;
        let marks = (cells - rng.random_range(9..=12)).max(1);
        for _ in 0..marks {
            let moves = p.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            p.play(mv);
            if p.is_over() {
                break;
            }
        }
        if !p.is_over() {
            out.push(p);
        }
    }
    out
}

#[test]
fn perfect_matches_brute_force_on_random_positions() {
    for (m, n, k, overline) in [
        (4, 4, 3, true),
        (4, 4, 4, true),
        (5, 4, 4, true),
        (5, 3, 3, true),
        (4, 4, 3, false),
        (5, 4, 4, false),
    ] {
        let rules = Rules::new(m, n, k, overline, [Hand::default(); 2]).unwrap();
        for p in random_positions(&rules, 20, m * 100 + n * 10 + k) {
            check_against_reference(&p);
        }
    }
}

#[test]
fn perfect_with_blocks_matches_brute_force() {
    let hands = [Hand::new(1, 0, 0), Hand::new(1, 0, 0)];
    let rules = Rules::new(3, 3, 3, true, hands).unwrap();
    let cells = parse_board_string("x../.o./...", 3, 3).unwrap();
    let p = Position::from_cells(&rules, cells, Some(Player::X)).unwrap();
    check_against_reference(&p);
}

/// More random positions on the largest boards brute force still solves quickly, with
/// k = 3 and 4, overlines on and off: the forced-reply, pairing and double-threat
/// shortcuts of the solver all fire on these.
#[test]
fn perfect_matches_brute_force_on_more_random_positions() {
    for (m, n, k, overline, seed) in [
        (5, 4, 4, true, 11),
        (4, 5, 4, true, 12),
        (5, 4, 3, true, 13),
        (5, 4, 4, false, 14),
        (5, 4, 3, false, 15),
        (6, 3, 3, true, 16),
    ] {
        let rules = Rules::new(m, n, k, overline, [Hand::default(); 2]).unwrap();
        for p in random_positions(&rules, 40, seed) {
            check_against_reference(&p);
        }
    }
}

/// Minimax searching tic-tac-toe to the end must choose a move whose true outcome is
/// the best available, for every position after one or two marks and several seeds:
/// the random choice among equal moves must never pick a move that only failed low at
/// the same bound as the best.
#[test]
fn minimax_at_full_depth_never_picks_a_worse_move_on_3x3() {
    let start = Position::empty(&Rules::mnk(3, 3, 3).unwrap());
    let mut memo = HashMap::new();
    let mut positions = Vec::new();
    for a in start.legal_moves() {
        let mut p = start.clone();
        p.play(a);
        positions.push(p.clone());
        for b in p.legal_moves() {
            let mut q = p.clone();
            q.play(b);
            positions.push(q);
        }
    }
    for p in &positions {
        let mut q = p.clone();
        let best = q
            .legal_moves()
            .into_iter()
            .map(|mv| move_value(&mut q, mv, &mut memo).0)
            .max_by_key(|o| match o {
                Outcome::Win => 2,
                Outcome::Draw => 1,
                _ => 0,
            })
            .unwrap();
        for seed in 0..4 {
            let a = Minimax.analyze(
                p,
                &Limits::with_time(Duration::from_secs(5)),
                &mut StdRng::seed_from_u64(seed),
            );
            let got = move_value(&mut q, a.best, &mut memo).0;
            let class = |o: Outcome| match o {
                Outcome::Win => 2,
                Outcome::Draw => 1,
                _ => 0,
            };
            assert_eq!(
                class(got),
                class(best),
                "minimax chose {:?} ({got:?}) in {:?} (seed {seed}); the best is a {best:?}",
                a.best,
                p.to_rows()
            );
        }
    }
}
