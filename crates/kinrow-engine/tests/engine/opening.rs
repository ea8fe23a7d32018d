//! Opening rules in the rules core and the engines: tables of the cells pro and long pro
//! allow at each step on odd and even boards, the rule combinations refused, the steps
//! of swap and swap2, and a property test that every engine's move keeps to pro.

use std::time::Duration;

use kinrow_engine::EngineKind;
use kinrow_engine::Limits;
use kinrow_game::{
    centre, Cell, Forbidden, GameErrorKind, Hand, Move, Opening, OpeningStep, Player, Position,
    Role, Rules, Variant,
};
use proptest::prelude::*;
use rand::SeedableRng;

fn rules(m: u64, n: u64, opening: Opening) -> Rules {
    Rules::mnk(m, n, 5).unwrap().with_opening(opening).unwrap()
}

/// The board `rows` under `opening`, its side to move from the counts.
fn at(m: u64, n: u64, opening: Opening, rows: &[&str]) -> Position {
    let board = (!rows.is_empty()).then_some(rows);
    Position::new(&rules(m, n, opening), board, None).unwrap()
}

fn empty_rows(m: usize, n: usize) -> Vec<String> {
    vec![".".repeat(m); n]
}

/// `rows` with the given cells marked.
fn with(m: usize, n: usize, marks: &[(usize, usize, char)]) -> Vec<String> {
    let mut rows: Vec<Vec<u8>> = empty_rows(m, n).into_iter().map(|r| r.into()).collect();
    for &(r, c, ch) in marks {
        rows[r][c] = ch as u8;
    }
    rows.into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect()
}

#[test]
fn the_centre_is_the_middle_cell_or_the_lower_right_of_the_middle_four() {
    assert_eq!(centre(15, 15), kinrow_game::Coord::new(7, 7));
    assert_eq!(centre(16, 16), kinrow_game::Coord::new(8, 8));
    assert_eq!(centre(20, 19), kinrow_game::Coord::new(9, 10));
}

/// For each board, rule and step: how many cells are allowed, and that they are exactly
/// the centre (first stone) or the cells outside the centre's square (x's second stone).
#[test]
fn pro_and_long_pro_allow_the_centre_then_only_far_cells() {
    let table: [(usize, usize, Opening, usize); 6] = [
        (15, 15, Opening::Pro, 225 - 25),
        (15, 15, Opening::LongPro, 225 - 49),
        (16, 16, Opening::Pro, 256 - 25),
        (16, 16, Opening::LongPro, 256 - 49),
        (9, 9, Opening::Pro, 81 - 25),
        (9, 9, Opening::LongPro, 81 - 49),
    ];
    for (m, n, opening, allowed_third) in table {
        let what = format!("{m}x{n} {}", opening.as_str());
        let mid = centre(m, n);
        let p = at(m as u64, n as u64, opening, &[]);
        let legal = p.legal_moves();
        assert_eq!(legal, vec![Move::mark(mid.row * m + mid.col)], "{what}");
        assert_eq!(p.forbidden_cells().len(), m * n - 1, "{what}");
        assert_eq!(p.forbidden(0), Some(Forbidden::OffCentre), "{what}");
        // x on the centre, o right next to it: o may go anywhere.
        let two = with(m, n, &[(mid.row, mid.col, 'x')]);
        let p = at(
            m as u64,
            n as u64,
            opening,
            &two.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        );
        assert_eq!(p.legal_moves().len(), m * n - 1, "{what}: o is free");
        assert!(p.forbidden_cells().is_empty(), "{what}");
        let three = with(
            m,
            n,
            &[(mid.row, mid.col, 'x'), (mid.row, mid.col + 1, 'o')],
        );
        let rows: Vec<&str> = three.iter().map(|s| s.as_str()).collect();
        let p = at(m as u64, n as u64, opening, &rows);
        assert_eq!(
            p.legal_moves().len(),
            allowed_third,
            "{what}: x's second stone"
        );
        let d = opening.distance().unwrap();
        for cell in 0..m * n {
            let (r, c) = (cell / m, cell % m);
            let far = r.abs_diff(mid.row).max(c.abs_diff(mid.col)) >= d;
            let empty = p.cell(cell) == Cell::Empty;
            let expected = (empty && !far).then_some(Forbidden::NearCentre);
            assert_eq!(p.forbidden(cell), expected, "{what}: row {r} col {c}");
            let mut after = p.clone();
            match after.try_play(Move::mark(cell)) {
                Ok(_) => assert!(empty && far, "{what}: row {r} col {c} played"),
                Err(e) if empty => {
                    assert_eq!(e.kind, GameErrorKind::ForbiddenMove, "{what}");
                    assert!(e.message.contains("near_centre"), "{}", e.message);
                    assert!(e.message.contains(opening.as_str()), "{}", e.message);
                }
                Err(_) => {}
            }
        }
        // Past x's second stone, every empty cell is free again.
        let four = with(
            m,
            n,
            &[
                (mid.row, mid.col, 'x'),
                (mid.row, mid.col + 1, 'o'),
                (mid.row - d, mid.col, 'x'),
            ],
        );
        let rows: Vec<&str> = four.iter().map(|s| s.as_str()).collect();
        let p = at(m as u64, n as u64, opening, &rows);
        assert_eq!(p.legal_moves().len(), m * n - 3, "{what}: o's second");
    }
}

#[test]
fn boards_that_broke_the_pro_rule_are_refused() {
    let r = rules(15, 15, Opening::Pro);
    let off = with(15, 15, &[(0, 0, 'x')]);
    let e = Position::new(&r, Some(&off), Some(Player::O)).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_str()),
        (GameErrorKind::InvalidBoard, "board")
    );
    let near = with(15, 15, &[(7, 7, 'x'), (7, 8, 'o'), (6, 6, 'x')]);
    let e = Position::new(&r, Some(&near), None).unwrap_err();
    assert!(e.message.contains("at least 3"), "{}", e.message);
    // Long pro's distance is 4: a stone 3 away is refused there, kept under pro.
    let three_away = with(15, 15, &[(7, 7, 'x'), (7, 8, 'o'), (4, 7, 'x')]);
    assert!(Position::new(&r, Some(&three_away), None).is_ok());
    let long = rules(15, 15, Opening::LongPro);
    assert!(Position::new(&long, Some(&three_away), None).is_err());
}

#[test]
fn opening_rules_refuse_what_makes_no_sense() {
    let base = || Rules::mnk(15, 15, 5).unwrap();
    let field = |r: Result<Rules, kinrow_game::GameError>| {
        let e = r.unwrap_err();
        assert_eq!(e.kind, GameErrorKind::InvalidRules);
        e.field
    };
    // Too small for the distance: a 7x7 board's corner is 3 from the centre.
    assert!(Rules::mnk(7, 7, 5)
        .unwrap()
        .with_opening(Opening::Pro)
        .is_ok());
    let small = Rules::mnk(7, 7, 5).unwrap().with_opening(Opening::LongPro);
    assert_eq!(field(small), "rules.opening");
    let gravity = base()
        .with_gravity(true)
        .unwrap()
        .with_opening(Opening::Swap2);
    assert_eq!(field(gravity), "rules.opening");
    let then_gravity = base()
        .with_opening(Opening::Pro)
        .unwrap()
        .with_gravity(true);
    assert_eq!(field(then_gravity), "rules.opening");
    let hands = [Hand::new(1, 0, 0), Hand::default()];
    let pieces = Rules::new(15, 15, 5, true, hands)
        .unwrap()
        .with_opening(Opening::Pro);
    assert_eq!(field(pieces), "rules.opening");
    let short = Rules::mnk(15, 15, 3).unwrap().with_opening(Opening::Swap);
    assert_eq!(field(short), "rules.opening");
    // Renju and caro take every opening rule.
    for opening in Opening::ALL {
        let r = base()
            .with_variant(Variant::Renju)
            .unwrap()
            .with_opening(opening);
        assert!(r.is_ok(), "{}", opening.as_str());
    }
}

#[test]
fn swap_and_swap2_steps_follow_from_the_counts() {
    let x3 = with(15, 15, &[(7, 7, 'x'), (7, 8, 'o'), (8, 8, 'x')]);
    let x5 = with(
        15,
        15,
        &[
            (7, 7, 'x'),
            (7, 8, 'o'),
            (8, 8, 'x'),
            (6, 6, 'o'),
            (9, 9, 'x'),
        ],
    );
    let table: [(Opening, &[String], Option<OpeningStep>); 6] = [
        (Opening::Swap, &[], Some(OpeningStep::Place3)),
        (Opening::Swap, &x3, Some(OpeningStep::Choose)),
        (Opening::Swap, &x5, None),
        (Opening::Swap2, &[], Some(OpeningStep::Place3)),
        (Opening::Swap2, &x3, Some(OpeningStep::Place2OrChoose)),
        (Opening::Swap2, &x5, Some(OpeningStep::ChooseAfter5)),
    ];
    for (opening, rows, expected) in table {
        let board = (!rows.is_empty()).then_some(rows);
        let p = Position::new(&rules(15, 15, opening), board, None).unwrap();
        match (OpeningStep::of(&p), expected) {
            (Ok(step), Some(want)) => assert_eq!(step, want),
            (Err(e), None) => {
                assert_eq!(
                    (e.kind, e.field.as_str()),
                    (GameErrorKind::InvalidBoard, "board")
                );
                assert!(e.message.contains("past its opening"), "{}", e.message);
            }
            (got, want) => panic!("{}: {got:?}, expected {want:?}", opening.as_str()),
        }
    }
    assert_eq!(OpeningStep::Place3.decides(), Role::First);
    assert_eq!(OpeningStep::Place2OrChoose.decides(), Role::Second);
    assert_eq!(OpeningStep::ChooseAfter5.decides(), Role::First);
    // One stone is no step; pro has no phase of decisions.
    let one = with(15, 15, &[(7, 7, 'x')]);
    let p = Position::new(&rules(15, 15, Opening::Swap2), Some(&one), None).unwrap();
    assert_eq!(OpeningStep::of(&p).unwrap_err().field, "board");
    let p = Position::empty(&rules(15, 15, Opening::Pro));
    assert_eq!(OpeningStep::of(&p).unwrap_err().field, "rules.opening");
}

fn limits() -> Limits {
    Limits {
        time: Duration::from_secs(20),
        nodes: Some(3_000),
        ..Limits::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Every engine keeps to pro and long pro: on the empty board it answers the centre,
    /// and after o's first stone (anywhere) x's answer lies outside the centre's square.
    #[test]
    fn every_engine_keeps_to_pro(o_cell in 0usize..81, long in any::<bool>(), seed in any::<u64>()) {
        let opening = if long { Opening::LongPro } else { Opening::Pro };
        let r = Rules::mnk(9, 9, 5).unwrap().with_opening(opening).unwrap();
        prop_assume!(o_cell != 40);
        let mut second = Position::empty(&r);
        second.play(Move::mark(40));
        second.play(Move::mark(o_cell));
        for &kind in EngineKind::ALL {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let engine = kind.build();
            let first = engine.analyze(&Position::empty(&r), &limits(), &mut rng);
            prop_assert_eq!(first.best, Move::mark(40), "{}", kind.name());
            let a = engine.analyze(&second, &limits(), &mut rng);
            prop_assert!(second.is_legal(a.best), "{}: {:?}", kind.name(), a.best);
            prop_assert!(a.moves.iter().all(|e| second.is_legal(e.mv)), "{}", kind.name());
        }
    }
}
