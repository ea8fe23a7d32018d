//! Positions from the same games as `mates.rs` where the side to move must stop a long
//! forced win of the opponent: Rapfi, asked at 700 ms, saw no forced loss for the side
//! to move, nor, asked again at 2000 ms, after its own move (`!`); after each move
//! marked by a digit (cells next to the stones) it announced the opponent's forced win,
//! asked at 1000 ms after that move.

/// A position whose side to move holds with `!` and loses with every digit.
pub struct Defence {
    /// Rapfi's announced distance to the opponent's win after the move marked `1`,
    /// `2`, ... (in plies, counted from the opponent's first move).
    pub rapfi: &'static [u32],
    /// The board, `x` moving first; a digit or `!` marks an empty cell.
    pub rows: &'static [&'static str],
}

pub const DEFENCES: &[Defence] = &[
    // Game 12, after ply 8: x (auto) to move; Rapfi 17 at 700 ms for the side to move.
    Defence {
        rapfi: &[37, 19, 15, 17],
        rows: &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......1.......",
            ".....!o.3......",
            "....o..x.......",
            "....xo.........",
            "....4.o..x.....",
            ".......x.......",
            ".......2.......",
            "...............",
            "...............",
        ],
    },
    // Game 16, after ply 8: x (auto) to move; Rapfi -56 at 700 ms for the side to move.
    Defence {
        rapfi: &[21, 15, 15, 23],
        rows: &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......ox1x....",
            ".......!ox.4...",
            "........o......",
            ".....3x..o.....",
            ".......2.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
    // Game 16, after ply 6: x (auto) to move; Rapfi -69 at 700 ms for the side to move.
    Defence {
        rapfi: &[19, 17, 17, 17],
        rows: &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "..........x....",
            "........ox.4...",
            "........o.1....",
            ".....2x.!o.....",
            ".......3.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
    // Game 18, after ply 10: x (auto) to move; Rapfi -238 at 700 ms for the side to move. 1 was played in the game.
    Defence {
        rapfi: &[17, 13, 15, 13],
        rows: &[
            "...............",
            "...............",
            "...............",
            "........o......",
            "........ox.....",
            ".....4o3oox....",
            "......!xx.12...",
            "...............",
            "...............",
            "....x..........",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
    // Game 11, after ply 13: o (auto) to move; Rapfi -906 at 700 ms for the side to move.
    Defence {
        rapfi: &[21, 17, 13],
        rows: &[
            "...............",
            "...............",
            "...............",
            "...............",
            ".......o3......",
            "......ox.......",
            ".....o.!oo.....",
            "....x.21x.x....",
            ".......xoxx....",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
    // Game 9, after ply 10: x (Rapfi) to move; Rapfi -92 at 700 ms for the side to move.
    Defence {
        rapfi: &[19, 19],
        rows: &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "........1o.o!..",
            ".....x.x2.xo...",
            ".........xox...",
            "...........o...",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
];
