//! Threat-space search: every proof is replayed against every defence, the solver's
//! VCF verdicts agree with an exhaustive reference search, and the rules that bound
//! its claims (exactly-k, defenders with blocks, remove or bomb) hold.
use std::time::Duration;

use crate::diagrams::FORCED_ONTO_FORBIDDEN;
use crate::tss::support::{check, plain, position};
use kinrow_engine::Budget;
use kinrow_engine::{Tss, Verdict};
use kinrow_game::{Cell, Hand, Move, Piece, Player, Position, Rules, Variant};

/// The cells where `p` would win at once.
fn win_cells(pos: &Position, p: Player) -> Vec<usize> {
    (0..pos.cells().len())
        .filter(|&c| pos.cell(c) == Cell::Empty && pos.wins_at(c, p))
        .collect()
}

/// An exhaustive VCF search over the rules core, independent of the solver: the
/// attacker tries every empty cell that leaves a winning cell; the defender answers on
/// that cell with a mark (or a block, if held).
fn reference_vcf(pos: &mut Position, a: Player, fours: u32) -> bool {
    if !win_cells(pos, a).is_empty() {
        return true;
    }
    if fours == 0 {
        return false;
    }
    let theirs = win_cells(pos, a.opponent());
    let candidates: Vec<usize> = match theirs.len() {
        0 => (0..pos.cells().len())
            .filter(|&c| pos.cell(c) == Cell::Empty)
            .collect(),
        1 => theirs,
        _ => return false,
    };
    for c in candidates {
        let u = pos.play(Move::mark(c));
        let wins = win_cells(pos, a);
        let won = match wins.len() {
            0 => false,
            1 => {
                let mut answers = vec![Move::mark(wins[0])];
                if pos.hand(a.opponent()).block > 0 {
                    answers.push(Move::new(wins[0], Piece::Block));
                }
                answers.into_iter().all(|r| {
                    let u2 = pos.play(r);
                    let ok = pos.winner().is_none() && reference_vcf(pos, a, fours - 1);
                    pos.undo(u2);
                    ok
                })
            }
            _ => true,
        };
        pos.undo(u);
        if won {
            return true;
        }
    }
    false
}

fn solve_vcf(pos: &Position, attacker: Player) -> Verdict {
    Tss::new(pos).vcf(&mut Budget::with_time(Duration::from_secs(10)), attacker)
}

#[test]
fn every_vcf_proof_wins_against_every_defence() {
    for rows in crate::tss::positions::VCF_WINS {
        let mut pos = plain(rows);
        let proof = solve_vcf(&pos, Player::X)
            .proof()
            .unwrap_or_else(|| panic!("no VCF found in {rows:?}"));
        let longest = check(&mut pos, Player::X, &proof);
        assert_eq!(longest, proof.plies(), "plies must be the longest defence");
        assert!(proof.plies() >= 9);
    }
}

#[test]
fn says_no_proof_where_there_is_no_vcf() {
    for rows in crate::tss::positions::NO_VCF {
        let mut pos = plain(rows);
        assert_eq!(solve_vcf(&pos, Player::X), Verdict::NoProof, "{rows:?}");
        assert!(!reference_vcf(&mut pos, Player::X, 6), "{rows:?}");
    }
}

#[test]
fn agrees_with_the_reference_search_for_both_sides() {
    for rows in crate::tss::positions::VCF_WINS
        .iter()
        .chain(crate::tss::positions::NO_VCF)
    {
        for attacker in Player::BOTH {
            // The attacker holds a block only so that either side may be to move.
            let mut hands = [Hand::default(); 2];
            hands[attacker.index()].block = 1;
            let mut pos = position(rows, true, hands, Some(attacker));
            match solve_vcf(&pos, attacker) {
                Verdict::Win(proof) => {
                    check(&mut pos, attacker, &proof);
                    if proof.plies() <= 7 {
                        assert!(reference_vcf(&mut pos, attacker, 3), "{attacker} {rows:?}");
                    }
                }
                Verdict::NoProof => {
                    assert!(!reference_vcf(&mut pos, attacker, 3), "{attacker} {rows:?}")
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

/// Row 7 holds `xx.x.x` (columns 3..=8): with overline, x at column 5 leaves two winning
/// cells (2 and 7); with exactly five, column 7 would make six, so it is a single four.
const OVERLINE_ROWS: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "..........o....",
    "...........o...",
    "...xx.x.x......",
    "........o......",
    ".........o.....",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn exactly_k_is_respected() {
    let mut free = position(&OVERLINE_ROWS, true, [Hand::default(); 2], None);
    let proof = solve_vcf(&free, Player::X)
        .proof()
        .expect("a double four with overline");
    assert_eq!(check(&mut free, Player::X, &proof), 3);
    let mut exact = position(&OVERLINE_ROWS, false, [Hand::default(); 2], None);
    assert_eq!(solve_vcf(&exact, Player::X), Verdict::NoProof);
    assert!(!reference_vcf(&mut exact, Player::X, 4));
}

#[test]
fn a_defender_with_blocks_is_answered_both_ways() {
    let hands = [Hand::default(), Hand::new(2, 0, 0)];
    for rows in crate::tss::positions::VCF_WINS {
        let mut pos = position(rows, true, hands, Some(Player::X));
        if let Verdict::Win(proof) = solve_vcf(&pos, Player::X) {
            check(&mut pos, Player::X, &proof);
        } else {
            assert!(!reference_vcf(&mut pos, Player::X, 3), "{rows:?}");
        }
    }
}

#[test]
fn no_proof_is_claimed_against_remove_or_bomb() {
    for hand in [Hand::new(0, 1, 0), Hand::new(0, 0, 1)] {
        let pos = position(
            crate::tss::positions::VCF_WINS[0],
            true,
            [Hand::default(), hand],
            Some(Player::X),
        );
        assert!(matches!(
            solve_vcf(&pos, Player::X),
            Verdict::Unsupported(_)
        ));
    }
    // The attacker's own special pieces do not matter.
    let pos = position(
        crate::tss::positions::VCF_WINS[0],
        true,
        [Hand::new(1, 1, 1), Hand::default()],
        Some(Player::X),
    );
    assert!(matches!(solve_vcf(&pos, Player::X), Verdict::Win(_)));
}

/// The position of `rows` with the colours swapped: o holds x's attack, and x (to move,
/// one mark more) must defend.
fn swapped(rows: &[&str]) -> Position {
    let swapped: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'x' => 'o',
                    'o' => 'x',
                    c => c,
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = swapped.iter().map(String::as_str).collect();
    position(&rows, true, [Hand::default(); 2], Some(Player::X))
}

#[test]
fn the_opponents_threat_is_found_and_every_other_move_loses_to_it() {
    // x to move, but o has a VCF if x passes; x's only hope is among the defences.
    for rows in crate::tss::positions::VCF_WINS {
        let mut pos = swapped(rows);
        let mut tss = Tss::new(&pos);
        let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(10));
        let proof = tss.vcf(&mut budget, Player::O).proof().expect("o's VCF");
        let defences = tss.defences(Player::O, &proof);
        assert!(!defences.is_empty() && defences.len() < 60);
        // Every x move outside the defences loses to o's proof.
        for mv in pos.legal_moves() {
            if defences.contains(&mv) || pos.wins_at(mv.cell(), Player::X) {
                continue;
            }
            let u = pos.play(mv);
            check(&mut pos, Player::O, &proof);
            pos.undo(u);
        }
    }
}

#[test]
fn vct_proofs_hold_against_every_defence() {
    for rows in crate::tss::positions::VCT_WINS {
        let mut pos = plain(rows);
        let mut tss = Tss::new(&pos);
        let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(10));
        assert_eq!(
            tss.vcf(&mut budget, Player::X),
            Verdict::NoProof,
            "{rows:?}"
        );
        let proof = tss.vct(&mut budget, Player::X, 3).proof().expect("a VCT");
        assert!(proof.size() > 1);
        assert_eq!(check(&mut pos, Player::X, &proof), proof.plies());
    }
}

#[test]
fn the_root_plan_wins_or_defends() {
    use kinrow_engine::{threat_plan, RootPlan};

    let clock = || Budget::with_time(Duration::from_secs(10));
    for rows in crate::tss::positions::VCF_WINS {
        let mut pos = plain(rows);
        match threat_plan(&pos, &mut clock(), 0) {
            RootPlan::Win(proof) => {
                check(&mut pos, Player::X, &proof);
            }
            other => panic!("expected a win, got {other:?}"),
        }
        // The same position with o to move: o must defend against x's VCF.
        let hands = [Hand::new(1, 0, 0), Hand::default()];
        let pos = position(rows, true, hands, Some(Player::O));
        match threat_plan(&pos, &mut clock(), 0) {
            RootPlan::Win(proof) => {
                // o may have a forced win of its own; it must hold.
                let mut pos = pos.clone();
                check(&mut pos, Player::O, &proof);
            }
            RootPlan::Defend {
                moves,
                lost,
                threat_plies,
            } => {
                assert!(threat_plies >= 4);
                for (mv, plies) in &lost {
                    assert!(!moves.contains(mv) && *plies >= 2);
                }
                // A surviving defence really leaves x without a VCF.
                for mv in moves {
                    let mut after = pos.clone();
                    after.play(mv);
                    assert_eq!(solve_vcf(&after, Player::X), Verdict::NoProof);
                }
            }
            RootPlan::Quiet => panic!("x's VCF was not seen"),
        }
    }
}

/// How many k-windows hold exactly `marks` of `p`'s marks and nothing else.
fn windows_with(pos: &Position, p: Player, marks: usize) -> usize {
    let geo = pos.geometry();
    geo.windows()
        .all
        .iter()
        .filter(|w| {
            let own = w
                .cells
                .iter()
                .filter(|&&c| pos.cell(c as usize) == Cell::Mark(p));
            let empty = w
                .cells
                .iter()
                .filter(|&&c| pos.cell(c as usize) == Cell::Empty);
            own.count() == marks && empty.count() == w.cells.len() - marks
        })
        .count()
}

#[test]
fn the_vct_defences_add_the_defenders_threes() {
    // x to move, but o would win by threats if x passed. Besides the moves that touch
    // o's proof or make a four of x's, a defence against a VCT may be a three of x's
    // (a four later, against one of o's quiet threats): `vct_defences` adds those.
    for rows in crate::tss::positions::VCT_WINS {
        let mut pos = swapped(rows);
        let mut tss = Tss::new(&pos);
        let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(10));
        let proof = tss.vct(&mut budget, Player::O, 3).proof().expect("o's VCT");
        let defences = tss.defences(Player::O, &proof);
        let vct_defences = tss.vct_defences(Player::O, &proof);
        assert!(defences.iter().all(|mv| vct_defences.contains(mv)));
        let k = pos.k() as usize;
        let threes = windows_with(&pos, Player::X, k - 2);
        for mv in pos.legal_moves() {
            let u = pos.play(mv);
            let makes_three = windows_with(&pos, Player::X, k - 2) > threes;
            pos.undo(u);
            assert_eq!(
                vct_defences.contains(&mv),
                defences.contains(&mv) || makes_three,
                "{mv:?} in {rows:?}"
            );
        }
    }
}

/// `rows` under renju (x moves first and has the forbidden cells), `to_move` as given.
fn renju(rows: &[&str], to_move: Option<Player>) -> Position {
    let rules = Rules::new(
        rows[0].len() as u64,
        rows.len() as u64,
        5,
        false,
        [Hand::default(); 2],
    )
    .and_then(|r| r.with_variant(Variant::Renju))
    .unwrap();
    Position::new(&rules, Some(rows), to_move).unwrap()
}

/// Under renju the proofs of both attackers hold against every legal defence: an
/// attacking x never plays a forbidden cell (`check` asserts every move is legal), and a
/// defending x is answered on every cell it may play.
#[test]
fn renju_proofs_hold_against_every_defence() {
    let mut proofs = [0, 0];
    for rows in crate::tss::positions::VCF_WINS
        .iter()
        .chain(crate::tss::positions::VCT_WINS)
    {
        let as_x = renju(rows, None);
        let swapped_rows: Vec<String> = swapped(rows).to_rows();
        let rows_o: Vec<&str> = swapped_rows.iter().map(String::as_str).collect();
        // o attacks on the swapped board once x has spent its move in a corner.
        let mut as_o = renju(&rows_o, None);
        let corner = [0, as_o.cells().len() - 1]
            .into_iter()
            .find(|&c| as_o.is_legal(Move::mark(c)))
            .unwrap();
        as_o.play(Move::mark(corner));
        for (mut pos, attacker) in [(as_x, Player::X), (as_o, Player::O)] {
            if pos.is_over() || pos.to_move() != attacker {
                continue;
            }
            let mut tss = Tss::new(&pos);
            let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(10));
            if let Verdict::Win(proof) = tss.vct(&mut budget, attacker, 2) {
                assert_eq!(check(&mut pos, attacker, &proof), proof.plies());
                proofs[attacker.index()] += 1;
            }
        }
    }
    assert!(proofs[0] > 0 && proofs[1] > 0, "proofs found: {proofs:?}");
}

/// o's four whose only completion is a cell forbidden for x (here an overline of x's
/// row) cannot be stopped under renju; under free exact-five rules x blocks it.
#[test]
fn renju_a_four_completing_on_a_forbidden_cell_wins_for_o() {
    let rows = FORCED_ONTO_FORBIDDEN;
    let mut pos = renju(rows, None);
    let mut tss = Tss::new(&pos);
    let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(10));
    let proof = tss
        .vcf(&mut budget, Player::O)
        .proof()
        .expect("o's VCF under renju");
    assert_eq!(proof.first_move(), Move::mark(3 * 15 + 5));
    assert_eq!(check(&mut pos, Player::O, &proof), 3);
    let free = position(rows, false, [Hand::default(); 2], None);
    let mut tss = Tss::new(&free);
    let mut budget = kinrow_engine::Budget::with_time(Duration::from_secs(10));
    assert_eq!(tss.vcf(&mut budget, Player::O), Verdict::NoProof);
}
