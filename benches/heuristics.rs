//! The one-ply heuristic engines `greedy`, `threat` and `priority`: one `analyze` call
//! on a 3x3, a 15x15 (k = 5) middle game and 64x64 (k = 5) boards, empty and in a
//! middle game. `cargo bench --bench heuristics`.
//!
//! The position is built once, so its k-windows (built on first use and shared by
//! clones) are ready; the `fresh` rows build the position from scratch on every call,
//! as a server request does.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use kinrow_game::{Cell, Player, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

mod support;
use support::{position, MIDDLE_15};

/// The 15x15 middle game placed in the middle of a 64x64 board.
fn middle_64() -> Position {
    let rules = Rules::mnk(64, 64, 5).unwrap();
    let small = position(15, 15, 5, MIDDLE_15);
    let mut cells = vec![Cell::Empty; 64 * 64];
    for (i, &c) in small.cells().iter().enumerate() {
        cells[(i / 15 + 25) * 64 + i % 15 + 25] = c;
    }
    Position::from_cells(&rules, cells, Some(Player::X)).unwrap()
}

fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("3x3", position(3, 3, 3, "x../.o./...")),
        ("15x15", position(15, 15, 5, MIDDLE_15)),
        (
            "64x64-empty",
            Position::empty(&Rules::mnk(64, 64, 5).unwrap()),
        ),
        ("64x64-middle", middle_64()),
    ]
}

fn bench(c: &mut Criterion) {
    let limits = Limits::default();
    for kind in [EngineKind::Greedy, EngineKind::Threat, EngineKind::Priority] {
        let engine = kind.build();
        let mut group = c.benchmark_group(kind.name());
        for (name, p) in positions() {
            let mut rng = StdRng::seed_from_u64(1);
            group.bench_function(name, |b| {
                b.iter(|| engine.analyze(black_box(&p), &limits, &mut rng).best)
            });
        }
        let rules = Rules::mnk(64, 64, 5).unwrap();
        let cells = middle_64().cells().to_vec();
        let mut rng = StdRng::seed_from_u64(1);
        group.bench_function("64x64-middle-fresh", |b| {
            b.iter(|| {
                let p = Position::from_cells(&rules, cells.clone(), Some(Player::X)).unwrap();
                engine.analyze(black_box(&p), &limits, &mut rng).best
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
