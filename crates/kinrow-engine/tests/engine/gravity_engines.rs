//! Every engine, at full strength and at a low level, plays gravity legally: on random
//! gravity positions its chosen move is a landing cell (`try_play` accepts it) and
//! every move it scores is one.

use std::time::Duration;

use kinrow_engine::balanced;
use kinrow_engine::level::Leveled;
use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use kinrow_game::{Position, Rules};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn random_gravity_position(m: u64, n: u64, k: u64, stones: usize, seed: u64) -> Option<Position> {
    let rules = Rules::mnk(m, n, k)
        .and_then(|r| r.with_gravity(true))
        .ok()?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut p = Position::empty(&rules);
    for _ in 0..stones {
        let moves = p.legal_moves();
        if p.is_over() || moves.is_empty() {
            break;
        }
        p.play(moves[rng.random_range(0..moves.len())]);
    }
    (!p.is_over()).then(|| Position::from_cells(&rules, p.cells().to_vec(), None).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn every_engine_plays_on_landing_cells(
        shape in prop::sample::select(vec![(7u64, 6u64, 4u64), (5, 4, 3), (9, 7, 5), (12, 12, 5)]),
        stones in 0usize..30,
        seed in any::<u64>(),
        level in prop::sample::select(vec![2u8, 10]),
    ) {
        let (m, n, k) = shape;
        let Some(position) = random_gravity_position(m, n, k, stones, seed) else {
            return Ok(());
        };
        for &kind in EngineKind::ALL {
            let limits = Limits { nodes: Some(3000), ..Limits::with_time(Duration::from_millis(200)) };
            let engine = Leveled::new(kind, level);
            let a = engine.analyze(&position, &limits, &mut StdRng::seed_from_u64(seed));
            prop_assert!(position.clone().try_play(a.best).is_ok(), "{}: {:?} on {:?}", kind.name(), a.best, position.to_rows());
            for e in &a.moves {
                prop_assert!(position.playable(e.mv.cell()), "{} scored {:?}", kind.name(), e.mv);
            }
        }
    }
}

/// A line one stone short whose completing cells float (nothing under them yet) is no
/// win for `minimax` under gravity: neither a win now at a leaf nor a loss for the side
/// to move, who cannot stop what the opponent cannot play either.
#[test]
fn minimax_does_not_count_floating_threats_as_wins() {
    use kinrow_engine::Minimax;
    use kinrow_engine::Outcome;
    let rules = Rules::mnk(12, 12, 5).unwrap().with_gravity(true).unwrap();
    // Bottom rows (row 11 is the bottom): x's four on row 9, columns 1-4; columns 0 and 5
    // are empty, so both cells that would make five float. o to move.
    let mut rows = vec![".".repeat(12); 9];
    rows.push(".xxxx.......".into());
    rows.push(".xoxo.......".into());
    rows.push(".oxox...oo.o".into());
    let board = rows.join("/");
    let cells = kinrow_game::parse_board_string(&board, 12, 12).unwrap();
    let position = Position::from_cells(&rules, cells, None).unwrap();
    let limits = Limits {
        depth: Some(3),
        ..Limits::with_time(Duration::from_secs(5))
    };
    let a = Minimax.analyze(&position, &limits, &mut StdRng::seed_from_u64(1));
    assert_ne!(a.evaluation.outcome, Outcome::Loss, "{:?}", a.evaluation);
    // (A lost position scores near -10^15 in minimax's units; the potential stays far
    // below 10^9 on this board.)
    assert!(a.evaluation.score > -1e9, "{:?}", a.evaluation);
}

/// The arena's random openings under gravity are games: every stone lands (before, the
/// central square held no landing cell of an empty board and no opening could be drawn).
#[test]
fn arena_openings_under_gravity_are_legal() {
    let rules = Rules::mnk(7, 6, 4).unwrap().with_gravity(true).unwrap();
    for pair in 0..4 {
        let moves = balanced::opening_judged(&rules, 4, 11, pair, balanced::Judge::Quick);
        assert_eq!(moves.len(), 4, "pair {pair}");
        let mut p = Position::empty(&rules);
        for mv in moves {
            assert!(p.try_play(mv).is_ok(), "pair {pair}: {mv:?}");
        }
    }
}
