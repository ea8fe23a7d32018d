//! The two-sided VCF quiescence at `auto`'s leaves (issue 58, step 4,
//! `auto:quiescence=vcf`): positions from `auto`'s round-5 games against Rapfi (the
//! turning suite's games, data/suites/turning-15x15.jsonl) where a leaf must read a
//! forced win by fours that the old probe (4 fours, 16 solver nodes) misses, read with
//! [`alpha_beta_value`] at depth 0 (the leaf alone, after any forced replies). Each
//! fails with the option off; each win is also proven by the threat-space search, so
//! that the quiescence's mate is no invention.

use std::time::Duration;

use crate::tss::positions::NO_VCF;
use crate::tss::support::plain;
use kinrow_engine::Budget;
use kinrow_engine::{alpha_beta_value, Quiescence, Tactics, PATTERN_MATE, PATTERN_WIN};
use kinrow_engine::{Tss, Verdict};
use kinrow_game::{Cell, Move, Player, Position};

const NODES: u64 = 5_000_000;

fn value(p: &Position, quiescence: Quiescence) -> i64 {
    let t = Tactics {
        quiescence,
        ..Tactics::default()
    };
    alpha_beta_value(p, t, 0, NODES).expect("the search finishes within its nodes")
}

/// The empty cell where `player` completes five, if any.
fn five_at(p: &Position, player: Player) -> Option<usize> {
    (0..p.cells().len()).find(|&c| p.cell(c) == Cell::Empty && p.wins_at(c, player))
}

/// The plies of the side to move's proven VCF here, by the threat-space search.
fn vcf_plies(p: &Position) -> u32 {
    let mut budget = Budget::with_time(Duration::from_secs(20));
    match Tss::new(p).vcf(&mut budget, p.to_move()) {
        Verdict::Win(proof) => proof.plies(),
        other => panic!("no VCF proven: {other:?}"),
    }
}

/// The side to move wins by five fours (a win on the eleventh ply); the probe's 16
/// solver nodes run out first.
const FIVE_FOURS: [&str; 15] = [
    "..........o....",
    ".........x.....",
    ".........o.....",
    "....o...o......",
    "....x.xo.......",
    ".....xxo.......",
    ".....o.oo......",
    ".....xoxx......",
    "....x..xo......",
    "........x......",
    ".........xo....",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn a_leaf_reads_a_vcf_of_five_fours_the_probe_misses() {
    let p = plain(&FIVE_FOURS);
    assert!(vcf_plies(&p) >= 9, "a VCF of at least five fours");
    let on = value(&p, Quiescence::Vcf);
    assert!(on > PATTERN_MATE, "the quiescence reads the win: {on}");
    assert!(
        PATTERN_WIN - on >= 11,
        "a win of five fours, not sooner: {}",
        PATTERN_WIN - on
    );
    let off = value(&p, Quiescence::Off);
    assert!(off < PATTERN_MATE, "the probe finds it too: {off}");
}

/// x has just made a four down the sixth column; o's forced block at its foot makes
/// o a four on the diagonal, x must block that, and then o, the blocker, wins by a VCF
/// of its own (a win on the seventeenth ply from here).
const BLOCK_MAKES_FOUR: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".....ox........",
    ".....xoxoxxx...",
    ".....xooo......",
    ".....xxox......",
    ".....xooo......",
    "...............",
    "...............",
    "...............",
];

#[test]
fn a_leaf_reads_the_blockers_own_vcf_after_its_block_makes_a_four() {
    let p = plain(&BLOCK_MAKES_FOUR);
    let (o, x) = (Player::O, Player::X);
    assert_eq!(p.to_move(), o);
    // The exchange: o blocks x's five, which makes o a four; x blocks that.
    let block = five_at(&p, x).expect("x threatens five");
    let mut after = p.clone();
    after.play(Move::mark(block));
    let counter = five_at(&after, o).expect("o's block makes a four");
    assert!(five_at(&after, x).is_none(), "x has no other five");
    after.play(Move::mark(counter));
    assert!(
        vcf_plies(&after) >= 11,
        "o's own VCF takes at least six fours"
    );
    let on = value(&p, Quiescence::Vcf);
    assert!(on > PATTERN_MATE, "the quiescence reads o's win: {on}");
    let off = value(&p, Quiescence::Off);
    assert!(off < PATTERN_MATE, "the probe finds it too: {off}");
}

#[test]
fn the_quiescence_claims_no_win_without_a_vcf() {
    for (i, rows) in NO_VCF.iter().enumerate() {
        let p = plain(rows);
        let on = value(&p, Quiescence::Vcf);
        let off = value(&p, Quiescence::Off);
        assert!(
            on < PATTERN_MATE || off > PATTERN_MATE,
            "position {i}: a win by fours where there is none ({on}, the probe {off})"
        );
    }
}
