//! The tactics of `auto`'s alpha-beta that the lab switches (issue 58, `auto:verdicts`,
//! `auto:defences`, `auto:mate_safe=on|shallow`, and step 5's depth switches
//! `auto:reply_ext`, `move_count`, `log_lmr`, `futility`, `alpha_reduce`, `razor`):
//! positions from `auto`'s round-5 games against Rapfi where each one changes what the
//! search concludes, read with [`alpha_beta_value`] (the alpha-beta alone, at a fixed
//! depth). Each case fails with the option off, except the last three, which hold the
//! wins the plain search reads against futility, the reduction after alpha and
//! razoring, and the losses and wins razoring must not invent.

use crate::tss::support::plain;
use kinrow_engine::{
    alpha_beta_value, Defences, MateSafe, Quiescence, RootTime, Selectivity, Tactics, PATTERN_MATE,
};
use kinrow_engine::{Tss, Verdict};
use kinrow_fixtures::tactics_positions::{FOUR_THREE, FOUR_THREE_LATER, TWO_THREES};
use kinrow_game::{Player, Position};

const NODES: u64 = 5_000_000;

fn value(p: &Position, t: Tactics, depth: u32) -> i64 {
    alpha_beta_value(p, t, depth, NODES).expect("the search finishes within its nodes")
}

/// Every switch off, whatever the defaults.
fn off() -> Tactics {
    Tactics {
        verdicts: false,
        defences: Defences::Off,
        mate_safe: MateSafe::Off,
        depth: Selectivity::default(),
        quiescence: Quiescence::Off,
        // (The root's shares: no part of the alpha-beta these tests read.)
        root: RootTime::default(),
    }
}

fn with(f: impl FnOnce(&mut Tactics)) -> Tactics {
    let mut t = off();
    f(&mut t);
    t
}

/// o has an open three along a row and one down a column that end next to the same
/// empty cell: a mark there stops both.
const SHARED_DEFENCE: [&str; 15] = [
    "x.............x",
    "...............",
    "...............",
    "...............",
    "........o......",
    "........o......",
    "........o......",
    ".....ooo.......",
    "...............",
    "...............",
    "..x............",
    "...............",
    "...........x...",
    "...............",
    "x.............x",
];

/// o to move: the width cuts x's defences three plies down, and the cut list's losses
/// read as a win for o.
const FALSE_WIN: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    ".....x.........",
    "...............",
    "...............",
    "..........x....",
    "...............",
    "........xxoo...",
    ".........oxxxo.",
    "........oxooo..",
    ".......x.......",
    "...............",
    "...............",
];

#[test]
fn two_threes_with_no_common_defence_lose_at_once() {
    let p = plain(&TWO_THREES);
    assert_eq!(p.to_move(), Player::X);
    let verdicts = with(|t| t.verdicts = true);
    assert!(
        value(&p, verdicts, 0) <= -PATTERN_MATE,
        "the leaf sees the loss"
    );
    assert!(
        value(&p, off(), 0) > -PATTERN_MATE,
        "without the verdict the leaf takes the static value"
    );
    // The searched value agrees: the loss is real.
    assert!(value(&p, off(), 2) <= -PATTERN_MATE);
}

#[test]
fn two_threes_with_a_shared_defence_cell_are_no_loss() {
    let p = plain(&SHARED_DEFENCE);
    assert_eq!(p.to_move(), Player::X);
    // (x can make no four: only a stop of both threes holds.)
    let all = with(|t| {
        t.verdicts = true;
        t.defences = Defences::Only;
        t.mate_safe = MateSafe::On;
    });
    for depth in 0..=2 {
        assert!(value(&p, all, depth) > -PATTERN_MATE, "depth {depth}");
    }
}

#[test]
fn a_four_three_is_answered_by_its_defences_beyond_the_width() {
    for rows in [&FOUR_THREE, &FOUR_THREE_LATER] {
        let p = plain(rows);
        assert_eq!(p.to_move(), Player::X);
        assert!(
            value(&p, off(), 1) <= -PATTERN_MATE,
            "the quiet node's five moves all lose"
        );
        for defences in [Defences::Add, Defences::Only] {
            let t = with(|t| t.defences = defences);
            for depth in 1..=3 {
                assert!(
                    value(&p, t, depth) > -PATTERN_MATE,
                    "{defences:?} at depth {depth} still loses"
                );
            }
        }
    }
}

#[test]
fn a_loss_is_claimed_only_from_a_complete_move_list() {
    // The four-three positions: every kept move lost, the cut ones hold.
    for rows in [&FOUR_THREE, &FOUR_THREE_LATER] {
        let p = plain(rows);
        let safe = with(|t| t.mate_safe = MateSafe::On);
        assert!(value(&p, off(), 1) <= -PATTERN_MATE);
        for depth in 1..=3 {
            assert!(value(&p, safe, depth) > -PATTERN_MATE, "depth {depth}");
        }
    }
    // Here the defences against a four-three do not help: x's losing nodes are quiet.
    let p = plain(&FALSE_WIN);
    assert_eq!(p.to_move(), Player::O);
    let safe = with(|t| t.mate_safe = MateSafe::On);
    let add = with(|t| t.defences = Defences::Add);
    assert!(
        value(&p, off(), 4) >= PATTERN_MATE,
        "the cut list's false win"
    );
    assert!(value(&p, add, 4) >= PATTERN_MATE);
    assert!(value(&p, safe, 4) < PATTERN_MATE, "a complete list holds");
    // And the threat-space search finds no forced win for o either.
    let mut tss = Tss::new(&p);
    let mut budget = kinrow_engine::Budget::with_time(std::time::Duration::from_secs(20));
    assert!(!matches!(
        tss.vct(&mut budget, Player::O, 6),
        Verdict::Win(_)
    ));
}

#[test]
fn a_shallow_refill_claims_no_loss_from_a_cut_list_near_the_leaves() {
    let shallow = with(|t| t.mate_safe = MateSafe::Shallow);
    // The four-three positions: the quiet node whose kept moves all lose is the root,
    // at a depth within the cap.
    for rows in [&FOUR_THREE, &FOUR_THREE_LATER] {
        let p = plain(rows);
        assert!(value(&p, off(), 1) <= -PATTERN_MATE);
        for depth in 1..=MateSafe::SHALLOW_DEPTH as u32 {
            assert!(value(&p, shallow, depth) > -PATTERN_MATE, "depth {depth}");
        }
    }
    // o's false win at depth 4: x's cut quiet nodes lie at depths 3 and 1, within
    // the cap, so refilling there alone already removes it.
    let p = plain(&FALSE_WIN);
    assert_eq!(p.to_move(), Player::O);
    assert!(
        value(&p, off(), 4) >= PATTERN_MATE,
        "the cut list's false win"
    );
    assert!(
        value(&p, shallow, 4) < PATTERN_MATE,
        "refilled near the leaves"
    );
}

#[test]
fn a_shallow_refill_stops_at_its_depth_cap() {
    let t = |m| with(|t| t.mate_safe = m);
    assert!(MateSafe::Shallow.refills(MateSafe::SHALLOW_DEPTH));
    assert!(!MateSafe::Shallow.refills(MateSafe::SHALLOW_DEPTH + 1));
    assert!(MateSafe::On.refills(MateSafe::SHALLOW_DEPTH + 1));
    assert!(!MateSafe::Off.refills(1));
    // Only `on` sends the guard after the alpha-beta's wins.
    assert!(t(MateSafe::On).mate_safe.checks_wins());
    assert!(!t(MateSafe::Shallow).mate_safe.checks_wins());
}

/// The first depth (up to `max`) at which the alpha-beta with `t` (and the verdicts)
/// values [`MATES`](crate::tss::mates::MATES)' position `i` as a win.
fn first_mate_depth(i: usize, f: impl Fn(&mut Tactics), max: u32) -> Option<u32> {
    let p = plain(crate::tss::mates::MATES[i].rows);
    let t = with(|t| {
        t.verdicts = true;
        f(t)
    });
    (1..=max).find(|&d| alpha_beta_value(&p, t, d, NODES).is_some_and(|v| v >= PATTERN_MATE))
}

#[test]
fn the_forced_reply_extension_reads_a_win_a_ply_earlier() {
    // Rapfi's +M13 and +M11 (4 and 3 quiet threats): the blocks of the fours on the
    // line gain a ply every third, and depth 3 reaches the win depth 4 needs without.
    for i in [12, 13] {
        assert_eq!(first_mate_depth(i, |_| {}, 4), Some(4), "mate {i}");
        assert_eq!(
            first_mate_depth(i, |t| t.depth.reply_ext = true, 4),
            Some(3),
            "mate {i}"
        );
    }
}

#[test]
fn log_reductions_read_a_win_the_plain_reductions_read_a_ply_later() {
    // Rapfi's +M19: the attacking threes are reduced less, the quiet moves more.
    assert_eq!(first_mate_depth(3, |_| {}, 7), Some(7));
    assert_eq!(first_mate_depth(3, |t| t.depth.log_lmr = true, 7), Some(6));
}

#[test]
fn the_move_count_claims_no_loss_from_a_cut_list() {
    let counted = with(|t| t.depth.move_count = true);
    // The four-three positions: the root's kept moves all lose, the cut ones hold.
    for rows in [&FOUR_THREE, &FOUR_THREE_LATER] {
        let p = plain(rows);
        assert!(value(&p, off(), 1) <= -PATTERN_MATE);
        for depth in 1..=3 {
            assert!(value(&p, counted, depth) > -PATTERN_MATE, "depth {depth}");
        }
    }
    // o's false win from x's cut nodes further down.
    let p = plain(&FALSE_WIN);
    assert!(
        value(&p, off(), 4) >= PATTERN_MATE,
        "the cut list's false win"
    );
    assert!(value(&p, counted, 4) < PATTERN_MATE);
}

#[test]
fn futility_and_the_reduction_after_alpha_keep_the_short_wins() {
    // The wins the plain search reads within 6 plies: child futility never cuts the
    // attack (it stops before the opponent's threats and after two own fours in a row)
    // and reads each at the same depth; the reduction after alpha at most a ply later.
    for i in [7, 8, 11, 12, 13, 14] {
        let plain_depth = first_mate_depth(i, |_| {}, 6).expect("read without the switches");
        assert_eq!(
            first_mate_depth(i, |t| t.depth.futility = true, 6),
            Some(plain_depth),
            "mate {i}"
        );
        let reduced = first_mate_depth(i, |t| t.depth.alpha_reduce = true, 7);
        assert!(
            reduced.is_some_and(|d| d <= plain_depth + 1),
            "mate {i}: {reduced:?} against {plain_depth}"
        );
    }
}

/// The defaults (the verdicts, the quiescence, futility, the move count) with razoring
/// on or off.
fn defaults_razor(on: bool) -> Tactics {
    let mut t = Tactics::default();
    t.depth.razor = on;
    t
}

#[test]
fn razoring_reads_every_short_win_at_the_same_depth() {
    // Razoring cuts only quiet null-window nodes far below alpha, never against the
    // opponent's threats and never with a mate bound, so each win the default search
    // reads within 7 plies is read as early with it (the default reads 7 of the 15).
    let mut read = 0;
    for (i, mate) in crate::tss::mates::MATES.iter().enumerate() {
        let p = plain(mate.rows);
        let first = |t: Tactics| {
            (1..=7).find(|&d| alpha_beta_value(&p, t, d, NODES).is_some_and(|v| v >= PATTERN_MATE))
        };
        let without = first(defaults_razor(false));
        assert_eq!(first(defaults_razor(true)), without, "mate {i}");
        read += usize::from(without.is_some());
    }
    assert!(
        read >= 5,
        "only {read} wins read within 7 plies: the comparison says little"
    );
}

#[test]
fn razoring_claims_no_loss_and_no_win_the_search_without_it_does_not() {
    let razor = defaults_razor(true);
    // x to move against o's four-three: the move count's refill holds at every depth.
    for rows in [&FOUR_THREE, &FOUR_THREE_LATER] {
        let p = plain(rows);
        for depth in 1..=4 {
            assert!(value(&p, razor, depth) > -PATTERN_MATE, "depth {depth}");
        }
    }
    // o's false win from x's cut nodes: no razored node invents it back.
    let p = plain(&FALSE_WIN);
    for depth in 1..=5 {
        assert!(value(&p, razor, depth) < PATTERN_MATE, "depth {depth}");
    }
    // And two threes with no common defence still lose at once.
    let p = plain(&TWO_THREES);
    for depth in 0..=3 {
        assert!(value(&p, razor, depth) <= -PATTERN_MATE, "depth {depth}");
    }
}
