//! Gravity in the rules core, as tables: where a stone lands, which boards float, what
//! the digit notation gives, and which rule combinations are refused.

use kinrow_game::{GameErrorKind, Hand, Move, Position, Rules, Variant};

fn c4() -> Rules {
    Rules::mnk(7, 6, 4)
        .and_then(|r| r.with_gravity(true))
        .unwrap()
}

#[test]
fn digit_sequences_give_boards_and_landing_rows() {
    // (moves, the board's bottom two rows, each column's landing row)
    let table = [
        ("", [".......", "......."], [5, 5, 5, 5, 5, 5, 5]),
        ("4", [".......", "...x..."], [5, 5, 5, 4, 5, 5, 5]),
        ("4453", ["...o...", "..oxx.."], [5, 5, 4, 3, 4, 5, 5]),
        ("1717", ["x.....o", "x.....o"], [3, 5, 5, 5, 5, 5, 3]),
    ];
    for (moves, bottom, landing) in table {
        let p = Position::from_column_digits(&c4(), moves, "board").unwrap();
        assert_eq!(&p.to_rows()[4..], &bottom, "{moves}");
        let rows: Vec<usize> = (0..7).map(|c| p.landing_row(c).unwrap()).collect();
        assert_eq!(rows, landing, "{moves}");
        assert_eq!(p.legal_moves().len(), 7, "{moves}");
        for (c, &row) in landing.iter().enumerate() {
            assert!(p.is_legal(Move::mark(row * 7 + c)), "{moves}: column {c}");
            if row > 0 {
                let above = Move::mark((row - 1) * 7 + c);
                assert!(!p.is_legal(above), "{moves}: above column {c}");
            }
        }
    }
}

#[test]
fn bad_sequences_and_floating_stones_are_refused_naming_the_place() {
    for (moves, why) in [
        ("48", "not a column"),
        ("0", "not a column"),
        ("444444", ""),
        ("4444444", "column 4 is full"),
        ("1212121", ""), // x wins with the last move: a finished game
        ("12121212", "already over"),
        ("4a", "not a column"),
    ] {
        let r = Position::from_column_digits(&c4(), moves, "board");
        if why.is_empty() {
            assert!(r.is_ok(), "{moves}");
        } else {
            let e = r.unwrap_err();
            assert_eq!(e.kind, GameErrorKind::InvalidBoard, "{moves}");
            assert!(e.message.contains(why), "{moves}: {}", e.message);
        }
    }
    let floating = [
        ".......", ".......", ".......", ".......", "..x....", ".......",
    ];
    let e = Position::new(&c4(), Some(&floating), None).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_str()),
        (GameErrorKind::InvalidBoard, "board[4]")
    );
    assert!(e.message.contains("row 4, column 2"), "{}", e.message);
}

#[test]
fn gravity_refuses_special_pieces_renju_and_caro() {
    let hands = [Hand::new(1, 0, 0), Hand::default()];
    let e = Rules::new(7, 6, 4, true, hands)
        .unwrap()
        .with_gravity(true)
        .unwrap_err();
    assert_eq!(e.field, "rules.gravity");
    let renju = Rules::mnk(15, 15, 5)
        .unwrap()
        .with_variant(Variant::Renju)
        .unwrap();
    assert_eq!(renju.with_gravity(true).unwrap_err().field, "rules.gravity");
    let e = Rules::mnk(15, 15, 5)
        .unwrap()
        .with_gravity(true)
        .unwrap()
        .with_variant(Variant::Caro);
    assert_eq!(e.unwrap_err().field, "rules.variant");
    // Written back by the position's rules.
    assert!(Position::empty(&c4()).rules().gravity());
}

/// `column_digits` finds a sequence that reaches the board: read back, it gives the same
/// board and turn, for seeded random games (won ones included, the winning stone last),
/// and none where no order works or the board is no gravity game.
#[test]
fn column_digits_reach_the_same_board() {
    assert_eq!(Position::empty(&c4()).column_digits().as_deref(), Some(""));
    let p = Position::from_column_digits(&c4(), "4453", "board").unwrap();
    assert_eq!(p.column_digits().as_deref(), Some("4453"));
    // A plain linear congruential generator: the game crate has no rand.
    let mut seed: u64 = 62;
    let mut next = |below: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % below
    };
    let (mut checked, mut won) = (0, 0);
    for _ in 0..300 {
        let mut digits = String::new();
        let mut p = Position::empty(&c4());
        let stones = next(43);
        while digits.len() < stones && p.winner().is_none() {
            let open: Vec<usize> = (0..7).filter(|&c| p.landing_row(c).is_some()).collect();
            if open.is_empty() {
                break;
            }
            let c = open[next(open.len())];
            digits.push(char::from(b'1' + c as u8));
            p = Position::from_column_digits(&c4(), &digits, "board").unwrap();
        }
        let found = p
            .column_digits()
            .unwrap_or_else(|| panic!("{digits}: none found"));
        let again = Position::from_column_digits(&c4(), &found, "board").unwrap();
        assert_eq!(again.to_rows(), p.to_rows(), "{digits} -> {found}");
        assert_eq!(again.to_move(), p.to_move(), "{digits} -> {found}");
        checked += 1;
        won += p.winner().is_some() as u32;
    }
    assert_eq!(checked, 300);
    assert!(won > 0, "no won game among them");
    // x's four in the bottom row, covered (x's only stone on top stands on it): the turn
    // is right (x moved last), but the line was there before any last x stone.
    let rows = [
        ".......", ".......", ".......", ".......", "ooox...", "xxxx..o",
    ];
    let p = Position::new(&c4(), Some(&rows), None).unwrap();
    assert_eq!(p.column_digits(), None);
    // Without gravity there is no column sequence.
    let plain = Rules::mnk(7, 6, 4).unwrap();
    assert_eq!(Position::empty(&plain).column_digits(), None);
}
