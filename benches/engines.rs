//! Every engine of the registry on a 7x7 k=4 and a 15x15 k=5 middle-game position, with
//! a small fixed budget per call (2000 nodes, depth 4, at most 20 ms), so the numbers
//! compare the engines' cost per answer. `cargo bench --bench engines`; the offline
//! throughput table over more boards is `kinrow bench`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use rand::rngs::StdRng;
use rand::SeedableRng;

mod support;
use support::{position, MIDDLE_7};

fn engines(c: &mut Criterion) {
    let positions = [
        ("7x7x4", position(7, 7, 4, MIDDLE_7)),
        (
            "15x15x5",
            position(
                15,
                15,
                5,
                &[
                    "...............",
                    "...............",
                    "...............",
                    "...............",
                    ".....o.........",
                    "......xo.......",
                    "......oxx......",
                    ".....xoxo......",
                    "........x......",
                    "...............",
                    "...............",
                    "...............",
                    "...............",
                    "...............",
                    "...............",
                ]
                .join("/"),
            ),
        ),
    ];
    let limits = Limits {
        time: Duration::from_millis(20),
        depth: Some(4),
        nodes: Some(2000),
        mistake_probability: 0.0,
        threads: 1,
        target: None,
    };
    for (name, p) in &positions {
        let mut group = c.benchmark_group(*name);
        group.sample_size(10);
        for &kind in EngineKind::ALL {
            let engine = kind.build();
            let mut rng = StdRng::seed_from_u64(1);
            group.bench_function(kind.name(), |b| {
                b.iter(|| black_box(engine.analyze(black_box(p), &limits, &mut rng)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
