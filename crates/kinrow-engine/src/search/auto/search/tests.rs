//! The pattern search's ordering and leaf evaluation on small boards: ASCII positions with
//! the rank or value they must get.

use super::*;
use crate::search::auto::score::PATTERN_MATE;
use kinrow_game::{parse_board, Hand, Player, Rules};

/// A searcher for `rows` on an 11x9 board, k = 5, x to move.
fn searcher(rows: &[&str], overline: bool) -> PatternSearch {
    let rules = Rules::new(11, 9, 5, overline, [Hand::new(0, 0, 0); 2]).unwrap();
    let cells = parse_board(rows, 11, 9).unwrap();
    let p = Position::from_cells(&rules, cells, Some(Player::X)).unwrap();
    PatternSearch::new(&p, 1024)
}

fn leaf_value(rows: &[&str], overline: bool) -> i64 {
    let mut budget = Budget::with_time(std::time::Duration::from_secs(10));
    searcher(rows, overline).negamax(&mut budget, 0, 0, -PATTERN_WIN - 1, PATTERN_WIN + 1)
}

/// The candidate where x's mark makes a four along the row and an open three down
/// the column comes first; one that only makes an open three comes before one that
/// only adds to a single mark.
#[test]
fn the_ordering_puts_a_four_three_first() {
    let rows = [
        "o..........",
        "...........",
        ".....x.....",
        ".....x.....",
        ".oxxx......",
        "...........",
        "......o....",
        ".......o...",
        "..........o",
    ];
    let mut scored = Vec::new();
    searcher(&rows, true).candidates(&mut scored, usize::MAX);
    let rank = |row: usize, col: usize| {
        scored
            .iter()
            .position(|m| m.1 as usize == row * 11 + col)
            .expect("a candidate")
    };
    assert_eq!(rank(4, 5), 0, "{scored:?}");
    // (1, 5) makes an open three down the column; (2, 7) only a two with (2, 5).
    assert!(rank(1, 5) < rank(2, 7), "{scored:?}");
}

/// A leaf where x can make two threes at once (at the cell where the lines of
/// `x x .` along the row and down the column meet) is a win when o has no four
/// to answer with, and only then; with exactly k winning, no claim is made.
#[test]
fn a_double_three_at_a_leaf_wins_when_nothing_answers_it() {
    let double = [
        "...........",
        "...........",
        "......x....",
        "......x....",
        "...xx......",
        "...........",
        ".o.....o...",
        "o.....o....",
        "...........",
    ];
    assert_eq!(leaf_value(&double, true), PATTERN_WIN - 5);
    assert!(leaf_value(&double, false) < PATTERN_MATE);
    // o holds three in an open window: a four answers every threat.
    let mut answered = double;
    answered[0] = "..........o";
    answered[6] = "...........";
    answered[7] = "ooo........";
    assert!(leaf_value(&answered, true) < PATTERN_MATE);
    // One three only: no claim.
    let mut single = double;
    single[0] = "x..........";
    single[2] = "...........";
    assert!(leaf_value(&single, true) < PATTERN_MATE);
}
