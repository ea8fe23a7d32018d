//! The one budget: a `nodes` limit of N is a total for the whole search, whatever its
//! phases (`auto`'s proof attempt, threat-space searches, the alpha-beta after them), and
//! `stats.nodes` reports what was searched.
//!
//! "At most N" holds within one expansion step, the work an engine does between two
//! checks of its budget:
//! - `auto`, `minimax`, `perfect`: one node per ply still on the stack when the budget
//!   stops the search (each level counts the call that finds the budget spent);
//! - `mcts`: none (one node is one playout, checked after each);
//! - `threat`, `priority`, `greedy`: one ply, every legal move (they do not search, and
//!   report the moves they scored).

use std::time::Duration;

use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use kinrow_game::{Hand, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// The plies a tree search may have on its stack when the budget stops it.
const STACK: u64 = 96;

fn board(m: u64, n: u64, k: u64, rows: &[&str]) -> Position {
    Position::new(&Rules::mnk(m, n, k).unwrap(), Some(rows), None).unwrap()
}

/// Positions where every phase of the engines runs: a 15x15 gomoku middle game (threat
/// searches, pattern search), a 7x7x4 middle game (`auto`'s proof attempt runs out, then
/// minimax), 4x4x4 (proofs), and a board with special pieces in hand.
fn positions() -> Vec<Position> {
    let gomoku = board(
        15,
        15,
        5,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "......o........",
            ".....xxo.......",
            "......xo.......",
            ".....ox.x......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    let seven = board(
        7,
        7,
        4,
        &[
            ".......", "..x....", "..oxo..", "...xo..", "...o.x.", ".......", ".......",
        ],
    );
    let four = board(4, 4, 4, &["x...", ".o..", "....", "...."]);
    let hands = [Hand::new(1, 1, 1), Hand::new(1, 1, 1)];
    let pieces = Position::new(
        &Rules::new(9, 9, 4, true, hands).unwrap(),
        Some(&[
            ".........",
            ".........",
            "...x.....",
            "...xo....",
            "....o....",
            ".........",
            ".........",
            ".........",
            ".........",
        ]),
        Some(kinrow_game::Player::X),
    )
    .unwrap();
    vec![gomoku, seven, four, pieces]
}

/// How far past its limit an engine may count: one expansion step (see the top).
fn step(kind: EngineKind, position: &Position) -> u64 {
    match kind {
        EngineKind::Auto | EngineKind::Minimax | EngineKind::Perfect => STACK,
        EngineKind::Mcts => 0,
        EngineKind::Threat | EngineKind::Priority | EngineKind::Greedy => {
            position.legal_moves().len() as u64
        }
    }
}

#[test]
fn a_node_limit_is_a_total_for_every_engine() {
    for position in positions() {
        for &kind in EngineKind::ALL {
            for n in [1, 500, 5_000] {
                let limits = Limits {
                    time: Duration::from_secs(60),
                    nodes: Some(n),
                    ..Limits::default()
                };
                let a = kind
                    .build()
                    .analyze(&position, &limits, &mut StdRng::seed_from_u64(3));
                assert!(
                    a.stats.nodes <= n + step(kind, &position),
                    "{} searched {} nodes with a limit of {n} on {}x{}x{}",
                    kind.name(),
                    a.stats.nodes,
                    position.m(),
                    position.n(),
                    position.k()
                );
            }
        }
    }
}

/// The tree searches spend their budget: with a limit they cannot reach the end under,
/// they report about all of it, not just the last phase's share.
#[test]
fn a_tree_search_reports_every_phase_nodes() {
    let gomoku = &positions()[0];
    for kind in [EngineKind::Auto, EngineKind::Minimax, EngineKind::Mcts] {
        let limits = Limits {
            time: Duration::from_secs(60),
            nodes: Some(20_000),
            ..Limits::default()
        };
        let a = kind
            .build()
            .analyze(gomoku, &limits, &mut StdRng::seed_from_u64(3));
        assert!(
            a.stats.nodes >= 19_000 && a.stats.nodes <= 20_000 + STACK,
            "{}: {} nodes",
            kind.name(),
            a.stats.nodes
        );
    }
}

/// The time manager: with a target, `auto` answers a quiet middle game once its best
/// move is settled past the target, long before its time is up; without one it uses
/// the time. (The bound is loose: a search past its target still finishes the iteration
/// it is in, and one that changed the best move goes on.)
#[test]
fn a_target_lets_auto_answer_before_its_time() {
    let gomoku = &positions()[0];
    let time = Duration::from_secs(4);
    let targeted = Limits {
        target: Some(Duration::from_millis(30)),
        ..Limits::with_time(time)
    };
    let a = EngineKind::Auto
        .build()
        .analyze(gomoku, &targeted, &mut StdRng::seed_from_u64(3));
    assert!(a.stats.elapsed < time / 2, "{:?}", a.stats.elapsed);
    let whole = EngineKind::Auto.build().analyze(
        gomoku,
        &Limits::with_time(Duration::from_millis(600)),
        &mut StdRng::seed_from_u64(3),
    );
    assert!(
        whole.stats.elapsed >= Duration::from_millis(500),
        "{:?}",
        whole.stats.elapsed
    );
}
