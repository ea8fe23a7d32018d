//! `engine.threads` for `auto`'s pattern search: one thread is the single-threaded search
//! bit for bit (digests of move, score, nodes and depth recorded from the search before
//! threads existed), two threads play a win now and stop a loss now, and a node limit
//! holds for all threads together.

use std::time::Duration;

use kinrow::bench;
use kinrow::engine::{EngineKind, Limits, Route};
use kinrow::game::{splitmix64, Position, Rules, Variant};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// The positions of the identity check: the benchmark's balanced openings on three
/// boards (and renju), each at a node limit.
fn identity_positions() -> Vec<Position> {
    let mut all = Vec::new();
    let renju = Rules::mnk(15, 15, 5)
        .unwrap()
        .with_variant(Variant::Renju)
        .unwrap();
    for (rules, plies, count) in [
        (Rules::mnk(15, 15, 5).unwrap(), 8, 6),
        (Rules::mnk(15, 15, 5).unwrap(), 14, 4),
        (Rules::mnk(9, 9, 5).unwrap(), 8, 4),
        (Rules::mnk(7, 7, 4).unwrap(), 4, 4),
        (renju, 8, 4),
    ] {
        all.extend(bench::positions(&rules, plies, count));
    }
    all
}

/// Per position, a digest of what `auto` answered at `nodes` nodes with `threads`
/// threads: the move, its raw score, the nodes and the depth.
fn digests(threads: usize, nodes: u64) -> Vec<u64> {
    let limits = Limits {
        time: Duration::from_secs(3600),
        nodes: Some(nodes),
        threads,
        ..Limits::default()
    };
    identity_positions()
        .iter()
        .map(|p| {
            let a = EngineKind::Auto
                .build()
                .analyze(p, &limits, &mut StdRng::seed_from_u64(7));
            let mut d = splitmix64(a.best.cell() as u64);
            d = splitmix64(d ^ a.evaluation.score.to_bits());
            d = splitmix64(d ^ a.stats.nodes);
            splitmix64(d ^ u64::from(a.stats.depth))
        })
        .collect()
}

/// Recorded from the search before `threads` (branch main at 8fb2238) with
/// `digests(1, 20_000)`.
const BEFORE: &[u64] = &[
    0x2e40_bb2d_26d2_e132,
    0xb0af_bd47_2739_6954,
    0x65b8_228c_0e87_5b61,
    0xbbf1_7ec4_a9f0_8246,
    0x822f_3805_94bf_f838,
    0xaaae_87c9_7673_676f,
    0x5aa9_caca_6931_d537,
    0xb4ce_5fac_5984_ee86,
    0xa972_69cc_5d5a_207f,
    0xb5e2_77c7_ae25_cfb4,
    0xb625_677f_d387_f932,
    0x3def_0404_9261_f1b7,
    0xb681_8294_ec3a_478d,
    0x91ca_04d3_7bba_4031,
    0x68cb_4db8_d0e5_0b87,
    0xbd09_27a5_2d30_a609,
    0x1d5e_6354_5f6a_8abf,
    0x339e_a227_4d5f_f397,
    0x2e40_bb2d_26d2_e132,
    0xe62c_dc78_9263_4156,
    0x65b8_228c_0e87_5b61,
    0x87c5_f94d_4134_fc33,
];

#[test]
fn one_thread_is_the_search_before_threads() {
    let now = digests(1, 20_000);
    println!("{now:#018x?}");
    assert_eq!(now, BEFORE);
}
