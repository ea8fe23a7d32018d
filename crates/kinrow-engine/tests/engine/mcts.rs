//! `mcts`: tactics (take a win, stop a loss), proofs, determinism, special pieces and
//! the completeness of `moves`.

use std::collections::HashSet;
use std::time::Duration;

use kinrow_engine::balanced;
use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::Mcts;
use kinrow_engine::SearchContext;
use kinrow_engine::{Limits, Outcome};
use kinrow_game::{parse_board_string, Coord, Hand, Move, Piece, Player, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn pos(rules: &Rules, board: &str, to_move: Option<Player>) -> Position {
    let cells = parse_board_string(board, rules.m(), rules.n()).unwrap();
    Position::from_cells(rules, cells, to_move).unwrap()
}

fn mnk(m: u64, n: u64, k: u64) -> Rules {
    Rules::mnk(m, n, k).unwrap()
}

fn playouts(n: u64) -> Limits {
    Limits {
        time: Duration::from_secs(20),
        nodes: Some(n),
        ..Limits::default()
    }
}

fn best(position: &Position, limits: &Limits, seed: u64) -> kinrow_engine::Analysis {
    Mcts::default().analyze(position, limits, &mut StdRng::seed_from_u64(seed))
}

fn at(position: &Position, row: usize, col: usize) -> usize {
    row * position.m() + col
}

#[test]
fn registered() {
    assert_eq!(EngineKind::parse("mcts"), Some(EngineKind::Mcts));
    assert!(EngineKind::ALL.contains(&EngineKind::Mcts));
}

#[test]
fn takes_an_immediate_win_and_proves_it() {
    // 15x15: x and o both have four in a row; x to move wins first.
    let r = mnk(15, 15, 5);
    let mut rows = vec!["...............".to_string(); 15];
    rows[7] = "....xxxx.......".into();
    rows[8] = "....oooo.......".into();
    let p = pos(&r, &rows.join("/"), None);
    let a = best(&p, &playouts(2000), 1);
    assert!(
        a.best == Move::mark(at(&p, 7, 3)) || a.best == Move::mark(at(&p, 7, 8)),
        "{:?}",
        a.best
    );
    assert_eq!(a.evaluation.outcome, Outcome::Win);
    assert_eq!(a.evaluation.plies, Some(1));
    assert_eq!(a.moves[0].mv, a.best);
}

#[test]
fn stops_an_immediate_loss() {
    // o to move; x threatens to complete four on 7x7 k=4 at (3,4) only (left end is blocked).
    let r = mnk(7, 7, 4);
    let p = pos(
        &r,
        "......./......./......./.oxxx../......o/......./.......",
        None,
    );
    assert_eq!(p.to_move(), Player::O);
    let a = best(&p, &playouts(3000), 2);
    assert_eq!(a.best, Move::mark(at(&p, 3, 5)));
    // Every other mark loses in two plies, and says so.
    for e in &a.moves {
        if e.mv != a.best {
            assert_eq!(e.eval.outcome, Outcome::Loss, "{:?}", e);
            assert_eq!(e.eval.plies, Some(2));
        }
    }
}

#[test]
fn finds_a_double_threat_win() {
    // 9x9 k=4: x to move makes an open three that o cannot stop on both ends:
    // x at (4,2),(4,3); playing (4,4) gives .xxx. with both ends open -> win in 3.
    let r = mnk(9, 9, 4);
    let p = pos(
        &r,
        "........./........./........./........./..xx...../........./..o..o.../........./.........",
        None,
    );
    let a = best(&p, &playouts(20000), 3);
    let row4: HashSet<usize> = [1, 4].iter().map(|&c| at(&p, 4, c)).collect();
    assert!(row4.contains(&a.best.cell()), "best {:?}", a.best.coord(9));
    // Every reply of o leaves x an immediate win, so the proof is exact even on a
    // board where the tree only looks near the pieces.
    assert_eq!(a.evaluation.outcome, Outcome::Win);
    assert_eq!(a.evaluation.plies, Some(3));
}

#[test]
fn tic_tac_toe_is_a_proven_draw_from_the_centre_reply() {
    // 3x3: after x in a corner, o must take the centre; mcts proves it all.
    let r = mnk(3, 3, 3);
    let p = pos(&r, "x../.../...", None);
    let a = best(&p, &playouts(200_000), 4);
    assert_eq!(a.best, Move::mark(4), "{:?}", a.moves);
    assert_eq!(a.evaluation.outcome, Outcome::Draw);
    assert!(a.stats.complete);
    for e in &a.moves {
        if e.mv != a.best {
            assert_eq!(e.eval.outcome, Outcome::Loss, "{e:?}");
        }
    }
}

#[test]
fn same_seed_and_node_limit_give_the_same_answer() {
    let r = mnk(15, 15, 5);
    let p = pos(
        &r,
        "...............\
/...............\
/...............\
/...............\
/.....o.........\
/......xo.......\
/......oxx......\
/.....xoxo......\
/...............\
/...............\
/...............\
/...............\
/...............\
/...............\
/...............",
        None,
    );
    let a = best(&p, &playouts(1500), 7);
    let b = best(&p, &playouts(1500), 7);
    assert_eq!(a.best, b.best);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.pv, b.pv);
    assert_eq!(a.stats.nodes, 1500);
}

#[test]
fn every_legal_target_is_listed_and_shares_sum_to_one() {
    let r = mnk(15, 15, 5);
    let p = pos(
        &r,
        &vec!["..............."; 15].join("/").replacen('.', "x", 1),
        Some(Player::O),
    );
    let a = best(&p, &playouts(800), 5);
    let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
    let listed: HashSet<Move> = a.moves.iter().map(|e| e.mv).collect();
    assert_eq!(legal, listed);
    let total: f64 = a.moves.iter().map(|e| e.eval.score).sum();
    assert!((total - 1.0).abs() < 1e-6, "{total}");
    assert!(a.moves.iter().all(|e| (0.0..=1.0).contains(&e.eval.score)));
    // The far corner is listed with no visits.
    let corner = a
        .moves
        .iter()
        .find(|e| e.mv.coord(15) == Coord::new(14, 14))
        .unwrap();
    assert_eq!(corner.eval.score, 0.0);
    assert!((0.0..=1.0).contains(&a.evaluation.score));
}

#[test]
fn uses_special_pieces_to_survive() {
    // x to move on 5x5 k=4; o has an open-ended three in a row... simpler: o threatens
    // two wins at once (two fours with distinct gaps): only a bomb saves x.
    let hands = [Hand::new(0, 0, 1), Hand::default()];
    let r = Rules::new(5, 5, 4, true, hands).unwrap();
    let p = pos(&r, "ooo../...../ooo../...../x.x.x", Some(Player::X));
    let a = best(&p, &playouts(5000), 6);
    assert_eq!(a.best.piece, Piece::Bomb, "{:?}", a.best);
    // The bomb must clear both threats: its 3x3 area covers rows 0..=2.
    assert_eq!(a.best.coord(5).row, 1);
    let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
    let listed: HashSet<Move> = a.moves.iter().map(|e| e.mv).collect();
    assert_eq!(legal, listed);
}

#[test]
fn blocks_and_removes_are_legal_and_the_game_goes_on() {
    // Play a whole 7x7 k=4 game with special pieces, mcts against itself.
    let hands = [Hand::new(1, 1, 1), Hand::new(1, 1, 1)];
    let r = Rules::new(7, 7, 4, false, hands).unwrap();
    let mut p = Position::empty(&r);
    let mut rng = StdRng::seed_from_u64(9);
    let mut plies = 0;
    while !p.is_over() && plies < 60 {
        let a = Mcts::default().analyze(&p, &playouts(300), &mut rng);
        p.try_play(a.best).expect("mcts plays legal moves");
        plies += 1;
    }
    assert!(plies > 4);
}

#[test]
fn respects_the_time_budget() {
    let r = mnk(15, 15, 5);
    let p = Position::empty(&r);
    let start = std::time::Instant::now();
    let a = best(&p, &Limits::with_time(Duration::from_millis(100)), 8);
    let took = start.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    assert!(a.stats.nodes > 10);
}

/// `mcts`' score from `games` games against `greedy` on `rules`, node-limited so they
/// are the same on every run, set up as the lab's arena sets up a match (each pair from
/// one balanced opening of seed 1, `mcts` x in the even games, the arena's RNG seed per
/// game and engine); a win counts 1, a draw a half.
fn score_against_greedy(rules: &Rules, games: usize, nodes: u64) -> f64 {
    let seed = |game: usize, engine: usize| {
        1u64.wrapping_mul(0xD134_2543_DE82_EF95)
            ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (engine as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
    };
    let limits = [
        Limits {
            nodes: Some(nodes),
            ..Limits::with_time(Duration::from_secs(10))
        },
        Limits::with_time(Duration::from_secs(10)),
    ];
    let mut points = 0.0;
    for game in 0..games {
        let engines = [
            EngineKind::Mcts.build(),
            EngineKind::parse("greedy").unwrap().build(),
        ];
        let mut rngs = [0, 1].map(|e| StdRng::seed_from_u64(seed(game, e)));
        let mut ctxs = [SearchContext::new(), SearchContext::new()];
        let mut p = Position::empty(rules);
        for mv in balanced::opening(rules, 5, 1, game / 2) {
            p.play(mv);
        }
        let mcts_plays = if game % 2 == 0 { Player::X } else { Player::O };
        while !p.is_over() {
            let e = usize::from(p.to_move() != mcts_plays);
            let a = engines[e].analyze_with(&p, &limits[e], &mut ctxs[e], &mut rngs[e]);
            p.try_play(a.best).expect("both engines play legal moves");
        }
        points += match p.winner() {
            Some(side) if side == mcts_plays => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    points / games as f64
}

#[test]
fn beats_greedy_on_9x9_with_a_small_node_budget() {
    let score = score_against_greedy(&mnk(9, 9, 5), 4, 600);
    assert!(score >= 0.75, "{score}");
}

#[test]
fn odd_boards_and_hands() {
    let cases: &[(u64, u64, u64, Hand)] = &[
        (1, 1, 1, Hand::default()),
        (1, 5, 3, Hand::default()),
        (3, 3, 5, Hand::default()),
        (64, 64, 5, Hand::default()),
        (64, 2, 6, Hand::new(2, 2, 2)),
        (4, 4, 3, Hand::new(0, 3, 3)),
    ];
    for &(m, n, k, hand) in cases {
        let r = Rules::new(m, n, k, true, [hand, hand]).unwrap();
        let mut p = Position::empty(&r);
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..6 {
            if p.is_over() {
                break;
            }
            let a = Mcts::default().analyze(&p, &playouts(200), &mut rng);
            let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
            let listed: HashSet<Move> = a.moves.iter().map(|e| e.mv).collect();
            assert_eq!(legal, listed, "{m}x{n}x{k}");
            p.try_play(a.best).unwrap();
        }
    }
}
