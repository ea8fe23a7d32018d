//! Positions where the opponent's threats decide (issue 58's tactics in the search): the
//! engine's unit tests of the threat defences and its tactics tests read the same boards.

/// x to move, no four of its own; o has threes on two lines that no one cell stops.
pub const TWO_THREES: [&str; 15] = [
    "...............",
    "...............",
    ".......x.......",
    ".......o..o....",
    "......ox.x.....",
    ".....xoxx......",
    ".oxxxxox.o.....",
    "....o.xo..x....",
    ".....ooo.......",
    "....ooox.......",
    "....x..........",
    "...............",
    "...............",
    "...............",
    "...............",
];

/// x to move; o holds a four-three cell, and x's defences rank outside the five moves a
/// node one ply above the leaves keeps.
pub const FOUR_THREE: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    ".....x.........",
    "...............",
    "...............",
    "..........x....",
    ".............o.",
    "........xxoo...",
    ".........oxxxo.",
    "........oxooo..",
    ".......x.......",
    "...............",
    "...............",
];

/// As [`FOUR_THREE`], a few moves on in the same game.
pub const FOUR_THREE_LATER: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    ".....x.........",
    "...............",
    "...............",
    "........x.x....",
    ".............o.",
    "......xoxxoo.x.",
    ".......o.oxxxo.",
    "........oxooo..",
    ".......x.o.....",
    "...............",
    "...............",
];
