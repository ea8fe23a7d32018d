//! Tables of positions with their known status, legality of special pieces, and
//! located parse errors.

use kinrow_game::{
    parse_board_string, Cell, Coord, GameErrorKind, Hand, Move, Piece, Player, Position, Rules,
    Status,
};

fn rules(m: u64, n: u64, k: u64) -> Rules {
    Rules::mnk(m, n, k).unwrap()
}

fn pos(r: &Rules, board: &str, to_move: Option<Player>) -> Position {
    let cells = parse_board_string(board, r.m(), r.n()).unwrap();
    Position::from_cells(r, cells, to_move).unwrap()
}

fn status_name(p: &Position) -> String {
    match p.status() {
        Status::InProgress => "in_progress".into(),
        Status::Draw => "draw".into(),
        Status::Won { winner, .. } => format!("{winner}_wins"),
    }
}

#[test]
fn status_table() {
    // (m, n, k, overline, board, expected status)
    let table: &[(u64, u64, u64, bool, &str, &str)] = &[
        (3, 3, 3, true, ".../.../...", "in_progress"),
        (3, 3, 3, true, "xxx/oo./...", "x_wins"),
        (3, 3, 3, true, "oo./xxx/...", "x_wins"),
        (3, 3, 3, true, "xo./xo./x..", "x_wins"),
        (3, 3, 3, true, "x.o/.xo/..x", "x_wins"),
        (3, 3, 3, true, "x.o/xo./o.x", "o_wins"),
        (3, 3, 3, true, "xox/xoo/oxx", "draw"),
        (3, 3, 3, true, "xxo/oox/xox", "draw"),
        // lines touching every edge
        (4, 4, 4, true, "oo../o.../..../xxxx", "x_wins"),
        (5, 5, 3, true, "..xxx/oo.../...../...../.....", "x_wins"),
        (5, 5, 3, true, "x..../x..../x..../oo.../.....", "x_wins"),
        (5, 5, 3, true, "...../...../..o../.o.xx/o..x.", "o_wins"),
        (5, 5, 3, true, "....o/...o./..o../xx.../x....", "o_wins"),
        // k = 1: any mark wins
        (3, 3, 1, true, "x../.../...", "x_wins"),
        (1, 1, 1, true, ".", "in_progress"),
        // k larger than the board: never won, full board is a draw
        (3, 3, 4, true, "xxx/oox/oo.", "in_progress"),
        (2, 2, 3, true, "xo/ox", "draw"),
        // overline off: six in a row is not five
        (7, 3, 5, false, "xxxxxx./ooooo../o......", "o_wins"),
        (7, 2, 5, true, "xxxxxx./oooo.o.", "x_wins"),
        (7, 2, 5, false, "xxxxxx./oooo..o", "in_progress"),
        (7, 2, 5, false, ".xxxxx./oooo...", "x_wins"),
        // blocks break lines
        (5, 1, 3, true, "xx#xo", "draw"),
        (5, 1, 3, true, "x.#xo", "in_progress"),
    ];
    for &(m, n, k, overline, board, expected) in table {
        let r = Rules::new(m, n, k, overline, [Hand::default(); 2]).unwrap();
        let cells = parse_board_string(board, r.m(), r.n()).unwrap();
        // Give to_move from the winner when the counts cannot tell (blocks on the board).
        let built = Position::from_cells(&r, cells.clone(), None).or_else(|_| {
            let xs = cells
                .iter()
                .filter(|c| **c == Cell::Mark(Player::X))
                .count();
            let os = cells
                .iter()
                .filter(|c| **c == Cell::Mark(Player::O))
                .count();
            let side = if xs > os { Player::O } else { Player::X };
            Position::from_cells(&r, cells.clone(), Some(side))
        });
        match built {
            Ok(p) => assert_eq!(
                status_name(&p),
                expected,
                "{m},{n},{k} overline={overline} {board}"
            ),
            Err(e) => assert_eq!(e.kind, GameErrorKind::InconsistentTurn, "{board}: {e}"),
        }
    }
}

#[test]
fn winning_line_is_reported() {
    let r = rules(5, 5, 4);
    let p = pos(&r, "...../.x.o./..xo./...xo/....x", None);
    match p.status() {
        Status::Won { winner, line } => {
            assert_eq!(winner, Player::X);
            assert_eq!(
                line,
                vec![
                    Coord::new(1, 1),
                    Coord::new(2, 2),
                    Coord::new(3, 3),
                    Coord::new(4, 4)
                ]
            );
        }
        other => panic!("expected a win, got {other:?}"),
    }
}

#[test]
fn play_detects_wins_in_every_direction() {
    // (board before, move cell as (row, col), expect win)
    let r = rules(4, 4, 3);
    let cases: &[(&str, (usize, usize), bool)] = &[
        ("xx../oo../..../....", (0, 2), true),
        ("x.../xo../.o../....", (2, 0), true),
        ("x.../.x../oo../....", (2, 2), true),
        ("..x./.x../.oo./....", (2, 0), true),
        ("..x./..../x.../oo..", (1, 1), true),
        ("x.x./o.../.o../....", (0, 1), true),
        ("x..x/o.../.o../....", (0, 1), false),
    ];
    for &(board, (row, col), wins) in cases {
        let mut p = pos(&r, board, None);
        assert_eq!(p.to_move(), Player::X);
        p.play(Move::mark(row * 4 + col));
        assert_eq!(
            p.winner() == Some(Player::X),
            wins,
            "{board} + ({row},{col})"
        );
    }
}

#[test]
fn full_board_is_a_draw_unless_a_special_piece_is_held() {
    let plain = rules(3, 3, 3);
    assert_eq!(status_name(&pos(&plain, "xox/xoo/oxx", None)), "draw");
    let with_remove = Rules::new(3, 3, 3, true, [Hand::new(0, 1, 0), Hand::default()]).unwrap();
    let p = pos(&with_remove, "xox/xoo/oxx", Some(Player::X));
    assert_eq!(status_name(&p), "in_progress");
    // Only removes of o's marks are legal.
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 4);
    assert!(moves
        .iter()
        .all(|m| m.piece == Piece::Remove && p.cell(m.cell()) == Cell::Mark(Player::O)));
    // o holds nothing: after x removes, o plays the freed cell.
    let with_bomb_for_o = Rules::new(3, 3, 3, true, [Hand::default(), Hand::new(0, 0, 1)]).unwrap();
    let p = pos(&with_bomb_for_o, "xox/xoo/oxx", Some(Player::O));
    assert_eq!(p.legal_moves().len(), 9);
}

#[test]
fn special_piece_legality_and_effect() {
    let hands = [Hand::new(1, 1, 1), Hand::new(1, 1, 1)];
    let r = Rules::new(5, 5, 4, true, hands).unwrap();
    let mut p = pos(&r, "x..../.o.../..#../...../.....", Some(Player::X));
    let at = |r: usize, c: usize| r * 5 + c;
    // block: empty cells only
    assert!(p.is_legal(Move::new(at(4, 4), Piece::Block)));
    assert!(!p.is_legal(Move::new(at(0, 0), Piece::Block)));
    // remove: opponent mark or block, never own mark or empty
    assert!(p.is_legal(Move::new(at(1, 1), Piece::Remove)));
    assert!(p.is_legal(Move::new(at(2, 2), Piece::Remove)));
    assert!(!p.is_legal(Move::new(at(0, 0), Piece::Remove)));
    assert!(!p.is_legal(Move::new(at(3, 3), Piece::Remove)));
    // bomb: where its 3x3 area holds a piece
    assert!(p.is_legal(Move::new(at(3, 3), Piece::Bomb)));
    assert!(!p.is_legal(Move::new(at(4, 4), Piece::Bomb)));
    assert!(!p.is_legal(Move::new(at(0, 4), Piece::Bomb)));
    // a bomb at (1,1) clears x, o and the block, and spends x's bomb
    let before = p.hash();
    let undo = p.play(Move::new(at(1, 1), Piece::Bomb));
    assert_eq!(
        p.to_rows(),
        vec![".....", ".....", ".....", ".....", "....."]
    );
    assert_eq!(p.hand(Player::X), Hand::new(1, 1, 0));
    assert_eq!(p.to_move(), Player::O);
    p.undo(undo);
    assert_eq!(
        p.to_rows(),
        vec!["x....", ".o...", "..#..", ".....", "....."]
    );
    assert_eq!(p.hash(), before);
    // remove spends a remove and clears the cell
    p.play(Move::new(at(1, 1), Piece::Remove));
    assert_eq!(p.cell(at(1, 1)), Cell::Empty);
    assert_eq!(p.hand(Player::X).remove, 0);
    // o blocks; the block is neutral
    p.play(Move::new(at(0, 1), Piece::Block));
    assert_eq!(p.cell(at(0, 1)), Cell::Block);
    assert_eq!(p.hand(Player::O).block, 0);
    // x no longer holds a remove
    let err = p.try_play(Move::new(at(2, 2), Piece::Remove)).unwrap_err();
    assert_eq!(err.kind, GameErrorKind::IllegalMove);
    assert_eq!(err.field, "move.piece");
}

#[test]
fn side_to_move_rules() {
    let r = rules(3, 3, 3);
    let cells = |b: &str| parse_board_string(b, 3, 3).unwrap();
    assert_eq!(
        Position::from_cells(&r, cells("x../.../..."), None)
            .unwrap()
            .to_move(),
        Player::O
    );
    assert_eq!(
        Position::from_cells(&r, cells("x../.o./..."), None)
            .unwrap()
            .to_move(),
        Player::X
    );
    let e = Position::from_cells(&r, cells("xx./.../..."), None).unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_str()),
        (GameErrorKind::InconsistentTurn, "to_move")
    );
    let e = Position::from_cells(&r, cells("o../.../..."), None).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::InconsistentTurn);
    let e = Position::from_cells(&r, cells("x../.../..."), Some(Player::X)).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::InconsistentTurn);
    // special pieces held: to_move is required, and any value is taken
    let special = Rules::new(3, 3, 3, true, [Hand::new(1, 0, 0), Hand::default()]).unwrap();
    let e = Position::from_cells(&special, cells("xx./.../..."), None).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::InconsistentTurn);
    assert!(e.message.contains("required"), "{}", e.message);
    assert_eq!(
        Position::from_cells(&special, cells("xx./.../..."), Some(Player::X))
            .unwrap()
            .to_move(),
        Player::X
    );
    // the winner must have moved last
    let e = Position::from_cells(&r, cells("xxx/oo./o.."), None).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::InconsistentTurn);
    // both players with a line is impossible
    let e = Position::from_cells(&r, cells("xxx/ooo/..."), Some(Player::O)).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::InvalidBoard);
}

#[test]
fn rules_are_validated_with_the_field() {
    let cases: &[(u64, u64, u64, Hand, &str)] = &[
        (0, 3, 3, Hand::default(), "rules.m"),
        (65, 3, 3, Hand::default(), "rules.m"),
        (3, 0, 3, Hand::default(), "rules.n"),
        (3, 65, 3, Hand::default(), "rules.n"),
        (3, 3, 0, Hand::default(), "rules.k"),
        (3, 3, 3, Hand::new(65, 0, 0), "rules.pieces.x.block"),
        (3, 3, 3, Hand::new(0, 0, 200), "rules.pieces.x.bomb"),
    ];
    for &(m, n, k, hand, field) in cases {
        let e = Rules::new(m, n, k, true, [hand, Hand::default()]).unwrap_err();
        assert_eq!(e.kind, GameErrorKind::InvalidRules);
        assert_eq!(e.field, field, "{m},{n},{k}: {}", e.message);
    }
    assert!(Rules::new(64, 64, 1_000_000, true, [Hand::new(64, 64, 64); 2]).is_ok());
}

#[test]
fn parse_errors_name_their_place() {
    let e = parse_board_string("x../.o./..", 3, 3).unwrap_err();
    assert_eq!(e.field, "board[2]");
    assert!(
        e.message.contains("row 2 has 2 cells, expected 3"),
        "{}",
        e.message
    );
    let e = parse_board_string("x../.o./", 3, 2).unwrap_err();
    assert_eq!(e.field, "board");
    assert!(e.message.contains("3 rows, expected 2"), "{}", e.message);
    let e = parse_board_string("x../.o.", 3, 3).unwrap_err();
    assert_eq!(e.field, "board");
    assert!(e.message.contains("2 rows, expected 3"), "{}", e.message);
    let e = parse_board_string("x../.oz/...", 3, 3).unwrap_err();
    assert_eq!(e.field, "board[1]");
    assert!(
        e.message.contains("column 2") && e.message.contains("'z'"),
        "{}",
        e.message
    );
    // accepted spellings, canonical output
    let cells = parse_board_string("X-_/.O#/...", 3, 3).unwrap();
    let r = rules(3, 3, 3);
    let p = Position::from_cells(&r, cells, Some(Player::X)).unwrap();
    assert_eq!(p.to_rows(), vec!["x..", ".o#", "..."]);
}

#[test]
fn illegal_moves_say_why() {
    let r = rules(3, 3, 3);
    let mut p = pos(&r, "x../.../...", None);
    let e = p.try_play(Move::mark(0)).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::IllegalMove);
    assert!(e.message.contains("row 0, column 0"), "{}", e.message);
    let e = p.try_play(Move::mark(9)).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::IllegalMove);
    let e = p.try_play(Move::new(1, Piece::Block)).unwrap_err();
    assert_eq!(e.field, "move.piece");
    let mut won = pos(&r, "xxx/oo./...", None);
    let e = won.try_play(Move::mark(8)).unwrap_err();
    assert_eq!(e.kind, GameErrorKind::GameOver);
}

#[test]
fn a_line_trimmed_to_k_by_a_removal_does_not_win_and_survives_symmetries() {
    use kinrow_game::Symmetry;
    // 7x1, k = 2, exactly two: x makes three in a row (no win), o removes one end, leaving
    // x exactly two that no mark of x's made (only a mark wins), then o wins with a mark.
    let hands = [Hand::default(), Hand::new(0, 1, 0)];
    let r = Rules::new(7, 1, 2, false, hands).unwrap();
    let mut p = Position::empty(&r);
    for mv in [
        Move::mark(0),
        Move::mark(6),
        Move::mark(2),
        Move::mark(4),
        Move::mark(1),
        Move::new(0, Piece::Remove),
    ] {
        p.play(mv);
    }
    assert_eq!(p.to_rows(), vec![".xx.o.o".to_string()]);
    assert_eq!(status_name(&p), "in_progress");
    p.play(Move::mark(5));
    p.play(Move::mark(3));
    assert_eq!(p.to_rows(), vec![".xxooxo".to_string()]);
    assert_eq!(status_name(&p), "o_wins");
    for &s in Symmetry::all(7, 1) {
        let image = p.transformed(s);
        let Status::Won { winner, line } = image.status() else {
            panic!("{s:?}: the image is not won");
        };
        assert_eq!(winner, Player::O);
        let mut expected: Vec<Coord> = [3, 4].map(|c| s.map(Coord::new(0, c), 7, 1)).to_vec();
        expected.sort_by_key(|c| c.col);
        assert_eq!(line, expected, "{s:?}");
        assert_eq!(image.transformed(s.inverse()).to_rows(), p.to_rows());
    }
}
