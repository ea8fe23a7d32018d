//! Building threat-space test positions and replaying proofs, shared by
//! `crates/kinrow-engine/tests/engine/threat_space.rs` and `crates/kinrow-engine/tests/engine/mates.rs`.

#![allow(dead_code)]

use kinrow_engine::Proof;
use kinrow_game::{Hand, Player, Position, Rules};

/// The position drawn by `rows` (`x`, `o`, `.`) with k = 5.
pub fn position(
    rows: &[&str],
    overline: bool,
    hands: [Hand; 2],
    to_move: Option<Player>,
) -> Position {
    let rules = Rules::new(rows[0].len() as u64, rows.len() as u64, 5, overline, hands).unwrap();
    Position::new(&rules, Some(rows), to_move).unwrap()
}

/// Free-style gomoku (overline wins), no special pieces, the side to move from the counts.
pub fn plain(rows: &[&str]) -> Position {
    position(rows, true, [Hand::default(); 2], None)
}

/// Replays `proof` for `attacker` (to move) against every legal defender reply at
/// every step, and checks that the attacker wins every line. Returns the longest line.
pub fn check(pos: &mut Position, attacker: Player, proof: &Proof) -> u32 {
    assert_eq!(pos.to_move(), attacker);
    let mv = proof.first_move();
    assert!(pos.is_legal(mv), "the proof plays an illegal move {mv:?}");
    let undo = pos.play(mv);
    let plies = match proof {
        Proof::Five { .. } => {
            assert_eq!(pos.winner(), Some(attacker), "a five that does not win");
            1
        }
        Proof::Threat {
            replies, otherwise, ..
        } => {
            assert_eq!(pos.winner(), None);
            let mut longest = 0;
            for reply in pos.legal_moves() {
                let u = pos.play(reply);
                assert_eq!(pos.winner(), None, "the defender wins with {reply:?}");
                let next = replies
                    .iter()
                    .find(|(m, _)| *m == reply)
                    .map_or(&**otherwise, |(_, p)| p);
                longest = longest.max(check(pos, attacker, next));
                pos.undo(u);
            }
            2 + longest
        }
    };
    pos.undo(undo);
    plies
}
