//! The rules core: legal-move generation, play+undo, and win detection on 3x3, 7x7
//! and 15x15 middle-game positions. `cargo bench --bench game`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kinrow_game::{Move, Player, Position};

mod support;
use support::{position, MIDDLE_15, MIDDLE_7};

fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("3x3", position(3, 3, 3, "x../.o./...")),
        ("7x7", position(7, 7, 4, MIDDLE_7)),
        ("15x15", position(15, 15, 5, MIDDLE_15)),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, p) in positions() {
        let mut group = c.benchmark_group(format!("game/{name}"));
        let mut moves = Vec::with_capacity(p.cells().len() * 4);
        group.bench_function("legal_moves", |b| {
            b.iter(|| {
                black_box(&p).legal_moves_into(&mut moves);
                black_box(moves.len())
            })
        });
        let mut q = p.clone();
        let all = p.legal_moves();
        group.bench_function("play_undo_all_moves", |b| {
            b.iter(|| {
                for &mv in &all {
                    let u = q.play_unchecked(black_box(mv));
                    q.undo(u);
                }
            })
        });
        let empties: Vec<usize> = all.iter().map(|m: &Move| m.cell()).collect();
        group.bench_function("win_detection_all_empties", |b| {
            b.iter(|| {
                let mut wins = 0;
                for &cell in &empties {
                    wins += p.wins_at(black_box(cell), Player::X) as u32;
                }
                wins
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
