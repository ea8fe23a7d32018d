//! Threat-space search on the 15x15 test positions: each forced win (VCF) solved from
//! scratch (board set-up included), the no-VCF positions refuted, and the VCT wins.
//! `cargo bench --bench tss -- --warm-up-time 1 --measurement-time 3`.

use kinrow_fixtures::tss_positions as positions;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kinrow_engine::{Tss, Verdict};
use kinrow_game::{Player, Position, Rules};

fn position(rows: &[&str]) -> Position {
    let rules = Rules::mnk(rows[0].len() as u64, rows.len() as u64, 5).unwrap();
    Position::new(&rules, Some(rows), None).unwrap()
}

fn bench(c: &mut Criterion) {
    let sets: [(&str, &[&[&str]], bool); 3] = [
        ("vcf_win", positions::VCF_WINS, false),
        ("vcf_none", positions::NO_VCF, false),
        ("vct_win", positions::VCT_WINS, true),
    ];
    for (name, set, vct) in sets {
        for (i, rows) in set.iter().enumerate() {
            let pos = position(rows);
            c.bench_function(&format!("{name}/{i}"), |b| {
                b.iter(|| {
                    let mut tss = Tss::new(black_box(&pos));
                    let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(5));
                    let v = if vct {
                        tss.vct(&mut budget, Player::X, 3)
                    } else {
                        tss.vcf(&mut budget, Player::X)
                    };
                    assert!(!matches!(v, Verdict::OutOfTime | Verdict::Unsupported(_)));
                    v
                })
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
