//! The search engines on their target positions: `perfect`'s whole answer (every root
//! move's exact outcome) from the empty board of 4,4,4, 5,5,4, 6,5,4 and 6,6,5, and
//! `minimax` to depth 4 on a 15x15, k = 5 middle game; `auto`'s cell pass (every empty
//! cell valued one ply deep before the main search, issue 51) on that middle game and on
//! the empty board. Single thread, release build.
//!
//! `cargo bench --bench search -- --warm-up-time 1 --measurement-time 3`
//! (6,5,4 takes seconds per run: add `perfect/empty` to the filter only when you mean it).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kinrow_engine::cell_pass;
use kinrow_engine::Budget;
use kinrow_engine::Engine;
use kinrow_engine::Limits;
use kinrow_engine::Minimax;
use kinrow_engine::Perfect;
use kinrow_game::{Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

mod support;
use support::{position, MIDDLE_15};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perfect/empty");
    group.sample_size(10);
    for (m, n, k) in [(4, 4, 4), (5, 5, 4), (6, 6, 5), (6, 5, 4)] {
        let p = Position::empty(&Rules::mnk(m, n, k).unwrap());
        let limits = Limits::with_time(Duration::from_secs(60));
        group.bench_function(format!("{m},{n},{k}"), |b| {
            b.iter(|| {
                let a = Perfect.analyze(black_box(&p), &limits, &mut StdRng::seed_from_u64(1));
                assert!(a.stats.complete);
                a.best
            })
        });
    }
    group.finish();

    let p = position(15, 15, 5, MIDDLE_15);
    let limits = Limits {
        depth: Some(4),
        ..Limits::with_time(Duration::from_secs(10))
    };
    c.bench_function("minimax/15x15k5_middle_game_depth4", |b| {
        b.iter(|| {
            let a = Minimax.analyze(black_box(&p), &limits, &mut StdRng::seed_from_u64(1));
            assert_eq!(a.stats.depth, 4);
            a.best
        })
    });

    // The cell pass: its time only (the searcher is built before the clock starts, as
    // the main search's is), every empty cell valued within a 1 s budget.
    let empty = Position::empty(&Rules::mnk(15, 15, 5).unwrap());
    for (name, p) in [("15x15k5_middle_game", &p), ("15x15k5_empty", &empty)] {
        let mut budget = Budget::with_time(Duration::from_secs(1));
        let (valued, took) = cell_pass(p, &mut budget);
        eprintln!(
            "auto/cell_pass/{name}: {valued} cells valued, {} nodes, {took:?} (one run)",
            budget.nodes
        );
        c.bench_function(&format!("auto/cell_pass/{name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut budget = Budget::with_time(Duration::from_secs(1));
                    let (valued, took) = cell_pass(black_box(p), &mut budget);
                    assert_eq!(valued, p.empties() as usize);
                    total += took;
                }
                total
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
