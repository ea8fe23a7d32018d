//! The negamax against a plain search of every move, and the board's evaluation against
//! one built afresh.

use super::*;
use kinrow_game::{splitmix64, Hand, Rules};

/// Plain negamax over the same move generator: no pruning, no table, every child
/// played and evaluated.
fn reference(s: &mut Searcher, depth: u32, ply: u32) -> i64 {
    if s.pos.winner().is_some() {
        return -(MINIMAX_WIN - ply as i64);
    }
    if !s.pos.has_legal_move() {
        return 0;
    }
    if depth == 0 {
        return s.leaf(ply);
    }
    let mut list = Vec::new();
    s.moves(&mut list);
    if list.is_empty() {
        return s.leaf(ply);
    }
    let mut best = i64::MIN;
    for (_, mv) in list {
        let ch = s.make(mv);
        let v = -reference(s, depth - 1, ply + 1);
        s.unmake(ch);
        best = best.max(v);
    }
    best
}

/// Alpha-beta with its table and its frontier lookups gives, with a full window,
/// exactly the value of a plain negamax over the same moves; the incremental state
/// is back where it started afterwards.
#[test]
fn alpha_beta_with_table_and_frontier_equals_plain_negamax() {
    let none = Hand::default();
    let some = Hand::new(1, 1, 1);
    let cases = [
        // m, n, k, overline, hand, depth, positions
        (9, 9, 4, true, none, 3, 4),
        (9, 9, 5, false, some, 2, 4),
        (10, 8, 4, false, none, 3, 3),
        (4, 4, 3, true, none, 3, 4),
        (5, 4, 4, false, some, 2, 4),
    ];
    let mut seed = 11u64;
    let mut checked = 0;
    for (m, n, k, overline, hand, depth, count) in cases {
        let rules = Rules::new(m, n, k, overline, [hand, hand]).unwrap();
        for _ in 0..count {
            let mut pos = Position::empty(&rules);
            seed = splitmix64(seed);
            let plies = 3 + seed % 10;
            for _ in 0..plies {
                if pos.is_over() {
                    break;
                }
                let legal = pos.legal_moves();
                seed = splitmix64(seed);
                pos.play_unchecked(legal[(seed % legal.len() as u64) as usize]);
            }
            if pos.is_over() {
                continue;
            }
            let mut budget = Budget::with_time(std::time::Duration::from_secs(600));
            let mut s = Searcher::new(&pos, TranspositionTable::new(16), &mut budget);
            let expected = reference(&mut s, depth, 0);
            for mv in pos.legal_moves() {
                let ch = s.make(mv);
                let v = -s.leaf(1);
                s.unmake(ch);
                assert_eq!(s.static_value(mv), v, "static value of {mv:?}");
            }
            let got = s.negamax(depth, 0, -MINIMAX_WIN - 1, MINIMAX_WIN + 1);
            assert_eq!(
                got,
                expected,
                "{m}x{n} k={k} depth {depth}: {:?}",
                pos.to_rows()
            );
            // and again with the table warm
            assert_eq!(
                s.negamax(depth, 0, -MINIMAX_WIN - 1, MINIMAX_WIN + 1),
                expected
            );
            let fresh = PotentialBoard::new(&pos);
            for p in kinrow_game::Player::BOTH {
                assert_eq!(s.board.potential(p.index()), fresh.potential(p.index()));
            }
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} positions checked");
}
