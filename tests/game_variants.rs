//! Renju and caro in the rules core: tables of positions for every forbidden shape and
//! its exceptions, caro's blocked lines, and property tests that legality, the
//! forbidden list and `try_play` agree.

use kinrow::game::{
    Cell, Forbidden, GameErrorKind, Hand, Move, Player, Position, Rules, Status, Variant,
};
use proptest::prelude::*;

fn rules(size: u64, k: u64, variant: Variant) -> Rules {
    Rules::mnk(size, size, k)
        .unwrap()
        .with_variant(variant)
        .unwrap()
}

/// A 15x15 position: `diagram` (rows of `.`, `x`, `o` and one `*` for the cell asked
/// about) is drawn with its top-left corner at row 3, column 3; spread-out filler marks
/// on rows 12 to 14 even the counts so that `to_move` moves next.
fn board(variant: Variant, diagram: &[&str], to_move: Player) -> (Position, usize) {
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

#[test]
fn renju_forbidden_shapes_and_their_exceptions() {
    use Forbidden::*;
    // (what, diagram, expected verdict for x at *)
    let table: &[(&str, &[&str], Option<Forbidden>)] = &[
        ("overline", &["xxx*xx"], Some(Overline)),
        ("overline of seven", &["xxx*xxx"], Some(Overline)),
        ("exactly five wins", &["xx*xx"], None),
        (
            "four-four on two lines",
            &["...x", "...x", "...x", "xxx*", "...."],
            Some(DoubleFour),
        ),
        ("four-four on one line", &["x.x*x.x"], Some(DoubleFour)),
        (
            "four-four on one line, the other split",
            &["xx.*x.xx"],
            Some(DoubleFour),
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
            Some(DoubleThree),
        ),
        (
            "split three and a straight three",
            &[
                ".......", "..x....", "..x....", ".x*.x..", ".......", ".......",
            ],
            Some(DoubleThree),
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
    for (what, diagram, expected) in table {
        let (p, cell) = board(Variant::Renju, diagram, Player::X);
        assert_eq!(p.forbidden(cell), *expected, "{what}");
        let legal = p.legal_moves().contains(&Move::mark(cell));
        assert_eq!(legal, expected.is_none(), "{what}: legal list");
        let mut after = p.clone();
        match (after.try_play(Move::mark(cell)), expected) {
            (Ok(_), None) => {}
            (Err(e), Some(why)) => {
                assert_eq!(e.kind, GameErrorKind::ForbiddenMove, "{what}");
                assert!(e.message.contains(why.as_str()), "{what}: {}", e.message);
            }
            (got, _) => panic!("{what}: try_play gave {got:?}"),
        }
    }
}

/// A three whose only completion to an open four is itself forbidden (here an
/// overline) is no three: the same mark is a double three without the overline marks.
#[test]
fn a_three_whose_completion_is_forbidden_does_not_count() {
    // * makes a vertical open three and the split three `.x*.x.`, whose only completion
    // is the gap to its right.
    let plain = [
        ".......", ".......", "..x....", ".x*.x..", "..x....", ".......",
    ];
    let (p, cell) = board(Variant::Renju, &plain, Player::X);
    assert_eq!(p.forbidden(cell), Some(Forbidden::DoubleThree));
    // The same, with marks above and below the gap that make it an overline for x.
    let with_overline = [
        ".......", "...x...", "..xx...", ".x*.x..", "..xx...", "...x...", "...x...",
    ];
    let (p, cell) = board(Variant::Renju, &with_overline, Player::X);
    let gap = cell + 1;
    let mut scratch = p.clone();
    scratch.play(Move::mark(cell));
    scratch.play(Move::mark(0)); // o answers far away
    assert_eq!(scratch.forbidden(gap), Some(Forbidden::Overline));
    assert_eq!(p.forbidden(cell), None);
}

#[test]
fn renju_lets_o_win_with_an_overline_and_restricts_only_x() {
    let (p, cell) = board(Variant::Renju, &["ooo*oo", "x.x.x.x"], Player::O);
    assert_eq!(p.forbidden(cell), None, "o has no forbidden cells");
    assert!(p.forbidden_cells().is_empty());
    let mut after = p.clone();
    after.play(Move::mark(cell));
    assert_eq!(after.winner(), Some(Player::O));
    assert_eq!(after.win_line().unwrap().len, 6);
    // x's overline on a given board is no win (and the board is still in progress).
    let (p, _) = board(Variant::Renju, &["xxxxxx*", "oooo.o."], Player::X);
    assert_eq!(p.status(), Status::InProgress);
}

#[test]
fn forbidden_cells_lists_every_forbidden_cell_with_its_reason() {
    let (p, cell) = board(Variant::Renju, &["x.x*x.x"], Player::X);
    let list = p.forbidden_cells();
    assert!(list.contains(&(cell, Forbidden::DoubleFour)), "{list:?}");
    for (c, why) in &list {
        assert_eq!(p.forbidden(*c), Some(*why));
    }
    // The same board under free rules has none.
    let (free, _) = board(Variant::Free, &["x.x*x.x"], Player::X);
    assert!(free.forbidden_cells().is_empty());
    assert_eq!(free.forbidden(cell), None);
}

#[test]
fn caro_needs_exactly_k_not_blocked_at_both_ends() {
    // (what, diagram, does x win by playing *)
    let table: &[(&str, &[&str], bool)] = &[
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
    for (what, diagram, wins) in table {
        let (p, cell) = board(Variant::Caro, diagram, Player::X);
        assert_eq!(p.wins_at(cell, Player::X), *wins, "{what}: wins_at");
        let mut after = p.clone();
        after.play(Move::mark(cell));
        assert_eq!(after.winner() == Some(Player::X), *wins, "{what}");
    }
}

/// The board's edge does not block a caro line: five from the edge against an o mark wins.
#[test]
fn caro_lines_at_the_edge_win() {
    let r = Rules::new(7, 3, 5, true, [Hand::default(); 2])
        .unwrap()
        .with_variant(Variant::Caro)
        .unwrap();
    let mut p = Position::new(&r, Some(&[".xxxxo.", "ooo....", "......."]), None).unwrap();
    p.play(Move::mark(0));
    assert_eq!(
        p.winner(),
        Some(Player::X),
        "edge at one end, o at the other"
    );
}

#[test]
fn variants_are_checked_against_k_and_special_pieces() {
    let bad_k = Rules::mnk(15, 15, 4).unwrap().with_variant(Variant::Renju);
    assert_eq!(bad_k.unwrap_err().field, "rules.variant");
    let pieces = Rules::new(15, 15, 5, true, [Hand::new(1, 0, 0), Hand::default()]).unwrap();
    for v in [Variant::Renju, Variant::Caro] {
        let e = pieces.clone().with_variant(v).unwrap_err();
        assert_eq!(e.kind, GameErrorKind::InvalidRules);
        assert!(e.message.contains("marks only"), "{}", e.message);
    }
    assert!(pieces.with_variant(Variant::Free).is_ok());
    let caro = Rules::mnk(9, 9, 4)
        .unwrap()
        .with_variant(Variant::Caro)
        .unwrap();
    assert_eq!(caro.variant(), Variant::Caro);
    assert!(!caro.overline_wins(Player::X));
    for v in Variant::ALL {
        assert_eq!(Variant::parse(v.as_str()), Some(v));
    }
    assert_eq!(Variant::parse("RENJU"), Some(Variant::Renju));
    assert_eq!(Variant::parse("gomoku"), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random renju games on 9x9: every mark is in the legal list exactly when
    /// `try_play` takes it, and exactly the cells `forbidden_cells` lists are refused
    /// as forbidden.
    #[test]
    fn renju_legality_agrees_everywhere(choices in prop::collection::vec(0usize..1000, 10..50)) {
        let r = rules(9, 5, Variant::Renju);
        let mut p = Position::empty(&r);
        for choice in choices {
            if p.is_over() {
                break;
            }
            let legal = p.legal_moves();
            let forbidden = p.forbidden_cells();
            for cell in 0..81 {
                let mv = Move::mark(cell);
                let tried = p.clone().try_play(mv);
                prop_assert_eq!(legal.contains(&mv), tried.is_ok());
                let refused_as_forbidden =
                    matches!(&tried, Err(e) if e.kind == GameErrorKind::ForbiddenMove);
                prop_assert_eq!(forbidden.iter().any(|&(c, _)| c == cell), refused_as_forbidden);
            }
            prop_assert!(forbidden.iter().all(|&(c, _)| !legal.contains(&Move::mark(c))));
            p.play(legal[choice % legal.len()]);
        }
    }
}
