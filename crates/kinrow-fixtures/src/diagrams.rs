//! Renju and caro positions drawn as small diagrams, shared by the rules tests, the
//! engine's tests and the API tests.

use kinrow_game::{Cell, Forbidden, Player, Position, Rules, Variant};

/// The rules of a `size`x`size` board with `k` in a row under `variant`.
pub fn rules(size: u64, k: u64, variant: Variant) -> Rules {
    Rules::mnk(size, size, k)
        .unwrap()
        .with_variant(variant)
        .unwrap()
}

/// A 15x15 position: `diagram` (rows of `.`, `x`, `o` and one `*` for the cell asked
/// about) is drawn with its top-left corner at row 3, column 3; spread-out filler marks
/// on rows 12 to 14 even the counts so that `to_move` moves next.
pub fn board(variant: Variant, diagram: &[&str], to_move: Player) -> (Position, usize) {
    let r = rules(15, 5, variant);
    let mut cells = vec![Cell::Empty; 225];
    let mut target = None;
    for (i, row) in diagram.iter().enumerate() {
        for (j, ch) in row.chars().enumerate() {
            let cell = (i + 3) * 15 + j + 3;
            match ch {
                'x' => cells[cell] = Cell::Mark(Player::X),
                'o' => cells[cell] = Cell::Mark(Player::O),
                '*' => target = Some(cell),
                _ => {}
            }
        }
    }
    let count = |p| cells.iter().filter(|&&c| c == Cell::Mark(p)).count();
    // x to move: equal counts; o to move: x one ahead.
    let want_x = count(Player::O) + usize::from(to_move == Player::O);
    let want_o = count(Player::X) - usize::from(to_move == Player::O);
    let fillers = (0..24).map(|i| (12 + i / 8, (i % 8) * 2));
    let (mut add_x, mut add_o) = (
        want_x.saturating_sub(count(Player::X)),
        want_o.saturating_sub(count(Player::O)),
    );
    for (row, col) in fillers {
        let cell = row * 15 + col;
        // x and o fillers alternate along rows and down columns: never three in a row.
        if (row + col / 2) % 2 == 0 && add_x > 0 {
            cells[cell] = Cell::Mark(Player::X);
            add_x -= 1;
        } else if (row + col / 2) % 2 == 1 && add_o > 0 {
            cells[cell] = Cell::Mark(Player::O);
            add_o -= 1;
        }
    }
    assert_eq!((add_x, add_o), (0, 0), "not enough filler slots");
    let p = Position::from_cells(&r, cells, Some(to_move)).unwrap();
    (
        p,
        target.expect("the diagram marks the cell asked about with *"),
    )
}

/// Renju shapes for x at `*` (x to move): (what, diagram, the verdict).
pub const FORBIDDEN_SHAPES: &[(&str, &[&str], Option<Forbidden>)] = &[
    ("overline", &["xxx*xx"], Some(Forbidden::Overline)),
    ("overline of seven", &["xxx*xxx"], Some(Forbidden::Overline)),
    ("exactly five wins", &["xx*xx"], None),
    (
        "four-four on two lines",
        &["...x", "...x", "...x", "xxx*", "...."],
        Some(Forbidden::DoubleFour),
    ),
    (
        "four-four on one line",
        &["x.x*x.x"],
        Some(Forbidden::DoubleFour),
    ),
    (
        "four-four on one line, the other split",
        &["xx.*x.xx"],
        Some(Forbidden::DoubleFour),
    ),
    ("one open four is one four", &["..xxx*.."], None),
    (
        "one three and a split two",
        &["...", ".x.", "...", "x*x", "...", "...", "..."],
        None,
    ),
    (
        "three-three (open on both lines)",
        &[
            ".......", "...x...", "...x...", ".xx*...", ".......", ".......",
        ],
        Some(Forbidden::DoubleThree),
    ),
    (
        "split three and a straight three",
        &[
            ".......", "..x....", "..x....", ".x*.x..", ".......", ".......",
        ],
        Some(Forbidden::DoubleThree),
    ),
    (
        "four-three is allowed",
        &[
            "...x...", "...x...", "...x...", ".xx*...", ".......", ".......",
        ],
        None,
    ),
    (
        "a three blocked at one end is no open three",
        &[
            ".......", "...x...", "...x...", "oxx*...", ".......", ".......",
        ],
        None,
    ),
    (
        "five together with a double four still wins",
        &["...x.", "...x.", "...x.", "xxx*x", "....."],
        None,
    ),
    (
        "five together with an overline elsewhere still wins",
        &["....x", "....x", "xxxx*", "....x", "....x", "....x"],
        None,
    ),
];

/// Caro lines for x at `*` (x to move): (what, diagram, does the mark win).
pub const CARO_LINES: &[(&str, &[&str], bool)] = &[
    ("open five", &[".xxxx*."], true),
    ("blocked at both ends", &["oxxxx*o"], false),
    ("blocked at one end", &["oxxxx*."], true),
    ("a gap between the block and the line", &["o.xxxx*o"], true),
    ("overline", &["xxx*xx"], false),
    (
        "blocked by both ends diagonally",
        &[
            "o.....", ".x....", "..x...", "...x..", "....x.", ".....*", "......o",
        ],
        false,
    ),
];

/// o to move under renju. x's row 7 `xxx.xx` makes the gap an overline, forbidden for
/// x; o's column 5 needs one mark above (row 3) for a four whose only completion is
/// that gap (x holds rows 2 and 8). Under free exact-five rules x simply blocks there.
pub const FORCED_ONTO_FORBIDDEN: &[&str] = &[
    "...............",
    "...............",
    ".....x.........",
    "...............",
    ".....o.........",
    ".....o.........",
    ".....o.........",
    "..xxx.xx.......",
    ".....x.........",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "o......o......o",
];
