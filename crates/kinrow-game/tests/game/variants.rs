//! Renju and caro in the rules core: tables of positions for every forbidden shape and
//! its exceptions, caro's blocked lines, and property tests that legality, the
//! forbidden list and `try_play` agree.

use kinrow_game::{Forbidden, GameErrorKind, Hand, Move, Player, Position, Rules, Variant};
use proptest::prelude::*;

use crate::diagrams::{board, rules, CARO_LINES, FORBIDDEN_SHAPES};

#[test]
fn renju_forbidden_shapes_and_their_exceptions() {
    for (what, diagram, expected) in FORBIDDEN_SHAPES {
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
    // x's overline on a given board could only come from a move renju forbids x: the
    // board is refused, naming where the line starts (issue 54 item 9).
    let mut rows = vec![".........".to_string(); 9];
    rows[2] = ".xxxxxx..".to_string();
    rows[4] = "oooo.o...".to_string();
    let e = Position::new(&rules(9, 5, Variant::Renju), Some(&rows), Some(Player::O)).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::InvalidBoard);
    assert_eq!(e.field, "board[2]");
    assert!(e.message.contains("x has 6 in a row"), "{}", e.message);
    // Five is x's win, as ever.
    rows[2] = ".xxxxx...".to_string();
    rows[4] = "oooo.....".to_string();
    let five = Position::new(&rules(9, 5, Variant::Renju), Some(&rows), Some(Player::O));
    assert_eq!(five.unwrap().winner(), Some(Player::X));
    // A block under renju or gravity: only special pieces place them, and neither has any.
    rows[6] = "....#....".to_string();
    let e = Position::new(&rules(9, 5, Variant::Renju), Some(&rows), Some(Player::O)).unwrap_err();
    assert_eq!(e.field, "board[6]");
    assert!(e.message.contains("marks only"), "{}", e.message);
    let gravity = Rules::mnk(7, 6, 4).unwrap().with_gravity(true).unwrap();
    let rows = [
        ".......", ".......", ".......", ".......", ".......", "...#...",
    ];
    let e = Position::new(&gravity, Some(&rows), Some(Player::X)).unwrap_err();
    assert_eq!(e.field, "board[5]");
    assert!(e.message.contains("gravity"), "{}", e.message);
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
    for (what, diagram, wins) in CARO_LINES {
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

/// Every variant answers every rule question `Variant` owns, and `Variant::ALL` lists
/// them all: the match below has no wildcard, so a new variant fails to compile here
/// until it is given its place (and its answers in rules.rs, whose matches have none
/// either); see "Adding a rule variant" in kinrow-game's rules.rs.
#[test]
fn every_variant_answers_every_rule_question() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        // Its place, whose marks may be forbidden (x, o), whether a line blocked at both
        // ends wins, whether it plays on plain lines as freestyle does.
        let (place, forbidden, blocked_wins, plain) = match v {
            Variant::Free => (0, [false, false], true, true),
            Variant::Renju => (1, [true, false], true, false),
            Variant::Caro => (2, [false, false], false, false),
        };
        assert_eq!(place, i, "{v:?}: its place in Variant::ALL");
        for (p, expected) in Player::BOTH.into_iter().zip(forbidden) {
            assert_eq!(
                v.has_forbidden_cells(p),
                expected,
                "{v:?}: {p:?}'s forbidden cells"
            );
            // The board agrees: an overline through the cell is refused exactly where the
            // variant forbids the player's marks.
            // (o's row comes with six scattered marks of x, so that o moves next.)
            let rows: &[&str] = if p == Player::X {
                &["xxx*xx"]
            } else {
                &["ooo*oo", "", "x.x.x.x.x.x"]
            };
            let (position, cell) = board(v, rows, p);
            assert_eq!(
                position.forbidden(cell).is_some(),
                expected,
                "{v:?}: {p:?}'s overline on the board"
            );
        }
        assert_eq!(v.blocked_line_wins(), blocked_wins, "{v:?}: a blocked line");
        // The board agrees: x completes five with o at both ends.
        let (mut position, cell) = board(v, &["oxxxx*o"], Player::X);
        position.play(Move::mark(cell));
        assert_eq!(
            position.winner() == Some(Player::X),
            blocked_wins,
            "{v:?}: five blocked at both ends on the board"
        );
        assert_eq!(v.plain_lines(), plain, "{v:?}: plain lines");
        assert_eq!(
            plain,
            forbidden == [false, false] && blocked_wins,
            "{v:?}: plain lines are those with no forbidden cell and blocked lines that win"
        );
        assert_eq!(Variant::parse(v.as_str()), Some(v), "{v:?}: its API name");
        for overline in [true, false] {
            let mask = v.gomocup_rule(overline);
            let (back, exact) = Variant::from_gomocup_rule(mask).expect("a known mask");
            assert_eq!(back, v, "{v:?}: its Gomocup rule mask {mask}");
            assert_eq!(
                exact,
                v == Variant::Free && !overline,
                "{v:?}: exactly five"
            );
        }
    }
    assert_eq!(
        Variant::gomocup_rule(Variant::Free, true),
        0,
        "freestyle is rule 0"
    );
    assert!(
        Variant::from_gomocup_rule(4 | 8).is_err(),
        "renju and caro at once"
    );
    assert!(Variant::from_gomocup_rule(16).is_err(), "an unknown bit");
    for v in Variant::ALL {
        // The fixed line length is the one `Rules::with_variant` accepts.
        for k in 3..=7 {
            let accepted = Rules::mnk(15, 15, k).unwrap().with_variant(v).is_ok();
            assert_eq!(
                accepted,
                v.fixed_k().is_none_or(|f| u64::from(f) == k),
                "{v:?}: k = {k}"
            );
        }
        for overline in [true, false] {
            if let Some(name) = v.gomocup_name(overline) {
                let (back, exact) = Variant::from_gomocup_name(name).expect("a known name");
                assert_eq!(back, v, "{v:?}: its Gomocup rule name {name}");
                assert_eq!(
                    exact,
                    v == Variant::Free && !overline,
                    "{name}: exactly five"
                );
            }
        }
    }
    assert_eq!(Variant::from_gomocup_name("Caro"), None);
}
