//! Every engine, at full strength and at a low level, plays gravity legally: on random
//! gravity positions its chosen move is a landing cell (`try_play` accepts it) and
//! every move it scores is one.

use std::time::Duration;

use kinrow::engine::level::Leveled;
use kinrow::engine::{Engine, EngineKind, Limits};
use kinrow::game::{Position, Rules};
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
