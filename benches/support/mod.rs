//! Positions the benches share: built once from board strings, so every bench measures
//! the same games. Each bench includes this module with `mod support;` and uses what it
//! needs of it.
#![allow(dead_code)]

use kinrow_game::{parse_board_string, Position, Rules};

/// The 15x15 (k = 5) middle game the benches search, x to move.
pub const MIDDLE_15: &str = "...............\
/...............\
/...............\
/...............\
/.....o.........\
/......xo.......\
/......oxx......\
/.....xoxo......\
/......o.x......\
/.......o.x.....\
/...............\
/...............\
/...............\
/...............\
/...............";

/// A 7x7 (k = 4) middle game, x to move.
pub const MIDDLE_7: &str = "......./..x..../..oxo../...xo../...o.x./......./.......";

/// The position of `board` under the rules `m,n,k` (side to move inferred).
pub fn position(m: u64, n: u64, k: u64, board: &str) -> Position {
    let rules = Rules::mnk(m, n, k).unwrap();
    let cells = parse_board_string(board, rules.m(), rules.n()).unwrap();
    Position::from_cells(&rules, cells, None).unwrap()
}
