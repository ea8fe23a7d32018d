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

/// Recorded with `digests(1, 20_000)` from the search before `threads` (main at f10716a,
/// with the root's guard), but for the eighth, a forced move (one root left), which the
/// time manager now stops after a few iterations (with that rule off the eighth is as
/// before). A deliberate change to `auto`'s search changes them: record them anew from
/// the build before the change, with one thread, and check that only what it meant to
/// change changed.
const BEFORE: &[u64] = &[
    0x2e40_bb2d_26d2_e132,
    0x1d5f_6297_ecc0_23ce,
    0x397b_6731_1920_73dd,
    0x581b_6952_faa1_8e25,
    0x9294_544f_8809_f14d,
    0x88a7_6674_829e_6e7c,
    0x5aa9_caca_6931_d537,
    0xf971_7e0b_29ea_001c,
    0xa972_69cc_5d5a_207f,
    0xb5e2_77c7_ae25_cfb4,
    0x7259_a88e_10e6_e91d,
    0x7994_9756_3ff3_835f,
    0xe101_01c8_4e46_e380,
    0xf935_e78f_0ca3_8335,
    0x68cb_4db8_d0e5_0b87,
    0xbd09_27a5_2d30_a609,
    0x1d5e_6354_5f6a_8abf,
    0x339e_a227_4d5f_f397,
    0x2e40_bb2d_26d2_e132,
    0x6980_8879_9161_6d33,
    0xa319_0f67_3f36_d67a,
    0xbcb1_6790_f1b8_d34f,
];

#[test]
fn one_thread_is_the_search_before_threads() {
    let now = digests(1, 20_000);
    println!("{now:#018x?}");
    assert_eq!(now, BEFORE);
}

fn position(rows: &[&str]) -> Position {
    Position::new(&Rules::mnk(15, 15, 5).unwrap(), Some(rows), None).unwrap()
}

/// A 15x15 middle game where no side has a forced win: the pattern search decides.
fn middle_game() -> Position {
    position(&[
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
    ])
}

fn threaded(threads: usize, nodes: Option<u64>, ms: u64) -> Limits {
    Limits {
        time: Duration::from_millis(ms),
        nodes,
        threads,
        ..Limits::default()
    }
}

/// Two threads play a win now, and stop the opponent's five, like one thread.
#[test]
fn two_threads_win_now_and_stop_a_loss_now() {
    // x to move: five at (7,2) or (7,7).
    let win = position(&[
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...xxxx........",
        "...ooo.........",
        ".........o.....",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ]);
    // x to move: o makes five at (7,7) unless x takes it.
    let block = position(&[
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "..xoooo........",
        "...............",
        ".........x.....",
        "..........x....",
        "............x..",
        "...............",
        "...............",
        "...............",
    ]);
    for seed in 0..3 {
        let mut rng = StdRng::seed_from_u64(seed);
        let a = EngineKind::Auto
            .build()
            .analyze(&win, &threaded(2, None, 300), &mut rng);
        assert!(
            [7 * 15 + 2, 7 * 15 + 7].contains(&a.best.cell()),
            "{:?}",
            a.best
        );
        let a = EngineKind::Auto
            .build()
            .analyze(&block, &threaded(2, None, 300), &mut rng);
        assert_eq!(a.best.cell(), 7 * 15 + 7, "{:?}", a.stats.path);
    }
}

/// A node limit is a total for all threads: each may pass it by the plies on its stack
/// when it stops, and they leave at most a chunk each unspent. `stats.threads` says two
/// threads ran, and the path is the pattern search.
#[test]
fn a_node_limit_holds_across_threads() {
    const STACK: u64 = 96;
    for n in [5_000, 40_000] {
        let a = EngineKind::Auto.build().analyze(
            &middle_game(),
            &threaded(2, Some(n), 60_000),
            &mut StdRng::seed_from_u64(3),
        );
        assert_eq!(a.stats.threads, 2);
        assert_eq!(
            a.stats.path.as_ref().and_then(|p| p.route),
            Some(Route::PatternSearch)
        );
        assert!(
            a.stats.nodes <= n + 2 * STACK && a.stats.nodes + 2 * 256 >= n,
            "{} nodes with a limit of {n}",
            a.stats.nodes
        );
    }
}

/// One thread says so; the other engines run on one thread whatever they are given.
#[test]
fn stats_threads_says_what_ran() {
    let p = middle_game();
    let mut rng = StdRng::seed_from_u64(1);
    let one = EngineKind::Auto
        .build()
        .analyze(&p, &threaded(1, Some(5_000), 60_000), &mut rng);
    assert_eq!(one.stats.threads, 1);
    for kind in [EngineKind::Minimax, EngineKind::Mcts, EngineKind::Threat] {
        let a = kind
            .build()
            .analyze(&p, &threaded(2, Some(2_000), 60_000), &mut rng);
        assert_eq!(a.stats.threads, 1, "{}", kind.name());
    }
}
