//! Long forced wins known from outside the project: positions from games of kinrow's
//! `auto` against Rapfi where Rapfi announced a forced win (`Eval +M<n>`). The
//! threat-space search must prove each win, and every proof is replayed against every
//! defence. Where the side to move must stop such a win, the search must see that the
//! moves Rapfi calls lost lose, and must not call Rapfi's own defence lost.
use std::time::Duration;

use crate::tss::defences::DEFENCES;
use crate::tss::mates::MATES;
use crate::tss::support::{check, plain};
use kinrow_engine::{Tss, Verdict};
use kinrow_game::{Move, Position};

/// A budget far above what any of these searches takes (about a second at most on the
/// shared 2-core machine), so that a slower machine does not turn a proof into `OutOfTime`.
const BUDGET: Duration = Duration::from_secs(20);

/// The fixed depth (quiet threats on a line) of the searches after a defence: enough
/// for every lost move of the table.
const DEFENCE_DEPTH: u32 = 6;

#[test]
fn rapfis_long_wins_are_proven_with_the_recorded_threats() {
    for (i, mate) in MATES.iter().enumerate() {
        let mut pos = plain(mate.rows);
        let attacker = pos.to_move();
        let mut tss = Tss::new(&pos);
        let mut budget = kinrow_engine::Budget::with_time(BUDGET);
        // The recorded number of quiet threats is the fewest that prove the win.
        if mate.threats > 0 {
            assert_eq!(
                tss.vct(&mut budget, attacker, mate.threats - 1),
                Verdict::NoProof,
                "mate {i} (Rapfi +M{}) proven with fewer threats than recorded",
                mate.rapfi
            );
        }
        let proof = tss
            .vct(&mut budget, attacker, mate.threats)
            .proof()
            .unwrap_or_else(|| panic!("mate {i} (Rapfi +M{}) not proven", mate.rapfi));
        let longest = check(&mut pos, attacker, &proof);
        assert_eq!(
            longest,
            proof.plies(),
            "mate {i}: plies must be the longest defence"
        );
    }
}

/// The position of `rows` with the cells marked by a digit (moves Rapfi calls lost) or
/// `!` (Rapfi's own move, which holds) read off and left empty.
fn marked(rows: &[&str]) -> (Position, Vec<(char, Move)>) {
    let mut moves = Vec::new();
    let clean: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.chars()
                .enumerate()
                .map(|(c, ch)| match ch {
                    'x' | 'o' | '.' => ch,
                    _ => {
                        moves.push((ch, Move::mark(r * row.len() + c)));
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let clean: Vec<&str> = clean.iter().map(String::as_str).collect();
    moves.sort_by_key(|&(ch, _)| ch);
    (plain(&clean), moves)
}

#[test]
fn the_moves_rapfi_calls_lost_lose_and_its_defence_holds() {
    for (i, defence) in DEFENCES.iter().enumerate() {
        let (pos, moves) = marked(defence.rows);
        let (me, them) = (pos.to_move(), pos.to_move().opponent());
        let depth = DEFENCE_DEPTH;
        let hold = moves
            .iter()
            .find(|(ch, _)| *ch == '!')
            .expect("a `!` cell")
            .1;
        let lost: Vec<Move> = moves
            .iter()
            .filter(|(ch, _)| *ch != '!')
            .map(|m| m.1)
            .collect();
        assert_eq!(
            lost.len(),
            defence.rapfi.len(),
            "defence {i}: one distance a lost move"
        );
        let mut tss = Tss::new(&pos);
        let mut budget = kinrow_engine::Budget::with_time(BUDGET);
        // Were the side to move to pass, the opponent would win by threats, and Rapfi's
        // defence is one of the moves that could stop that proof.
        let threat = tss
            .vct(&mut budget, them, depth)
            .proof()
            .expect("the opponent's threat");
        assert!(
            tss.vct_defences(them, &threat).contains(&hold),
            "defence {i}"
        );
        for (mv, rapfi) in lost.iter().zip(defence.rapfi) {
            let proof = tss
                .vct_after(&mut budget, *mv, depth)
                .proof()
                .unwrap_or_else(|| panic!("defence {i}: {mv:?} (Rapfi +M{rapfi}) not proven lost"));
            let mut after = pos.clone();
            after.play(*mv);
            assert_eq!(
                check(&mut after, them, &proof),
                proof.plies(),
                "defence {i}"
            );
        }
        assert_eq!(
            tss.vct_after(&mut budget, hold, depth),
            Verdict::NoProof,
            "defence {i}: {me} holds"
        );
    }
}
