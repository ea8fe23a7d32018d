//! The protocol vocabulary's tests: every message written by one end reads back at the
//! other, and a brain's `MESSAGE` lines in Rapfi's and Yixin's shapes are read.

use super::*;

#[test]
fn a_rapfi_style_message_gives_depth_eval_and_line() {
    let t = Thinking::in_message("MESSAGE depth 11-17 ev 42 n 120k pv h8 i9 g7", 15, 15);
    assert_eq!(t.depth, Some(11));
    assert_eq!(
        t.pv,
        vec![Coord::new(7, 7), Coord::new(8, 8), Coord::new(6, 6)]
    );
    let t = Thinking::in_message("MESSAGE Depth:9 | Eval -118 | pv 7,7 8,7 zz", 15, 15);
    assert_eq!(t.depth, Some(9));
    assert_eq!(t.eval, Some(Eval::Score(-118)));
    assert_eq!(t.pv, vec![Coord::new(7, 7), Coord::new(7, 8)]);
}

#[test]
fn rapfi_lines_give_mate_plies_and_the_per_depth_line() {
    let t = Thinking::in_message(
        "MESSAGE Speed 167K | Depth 10-9 | Eval +M15 | Node 2183 | Time 13ms",
        15,
        15,
    );
    assert_eq!(t.eval, Some(Eval::Mate { win: true }));
    assert_eq!(t.plies, Some(15));
    assert!(t.pv.is_empty());
    let t = Thinking::in_message("MESSAGE Depth 12-20 | Eval -M8 | Time 40ms", 15, 15);
    assert_eq!(
        (t.eval, t.plies),
        (Some(Eval::Mate { win: false }), Some(8))
    );
    let t = Thinking::in_message("MESSAGE Depth 3 | Eval +M* | Time 1ms", 15, 15);
    assert_eq!((t.eval, t.plies), (Some(Eval::Mate { win: true }), None));
    let t = Thinking::in_message("MESSAGE Depth 4 | Eval -114 | Time 9ms", 15, 15);
    assert_eq!((t.eval, t.plies), (Some(Eval::Score(-114)), None));
    // message_mode = "normal": the best line after the last '|', without a keyword.
    let t = Thinking::in_message(
        "MESSAGE Depth 10-9 | Eval -114 | Time 13ms | I8 I7 H7",
        15,
        15,
    );
    assert_eq!(t.depth, Some(10));
    assert_eq!(
        t.pv,
        vec![Coord::new(7, 8), Coord::new(6, 8), Coord::new(6, 7)]
    );
    // Not without a depth, nor when the tail holds anything but cells.
    let t = Thinking::in_message("MESSAGE Load config | I8 I7", 15, 15);
    assert!(t.pv.is_empty());
    let t = Thinking::in_message("MESSAGE Depth 5 | Eval 3 | Time 9ms", 15, 15);
    assert!(t.pv.is_empty());
}

#[test]
fn a_message_without_search_words_says_nothing() {
    assert_eq!(
        Thinking::in_message("MESSAGE hello from the brain", 15, 15),
        Thinking::default()
    );
    // A line off the board ends the line.
    let t = Thinking::in_message("MESSAGE pv 3,3 20,20 4,4", 15, 15);
    assert_eq!(t.pv, vec![Coord::new(3, 3)]);
}

#[test]
fn every_command_reads_back_as_written() {
    let commands = [
        Command::start(15, 15),
        Command::start(20, 15),
        Command::Restart,
        Command::Begin,
        Command::Turn(7, 8),
        Command::Takeback(0, 14),
        Command::Board,
        Command::Swap2Board,
        Command::Info(Info::TimeoutTurn(5000)),
        Command::Info(Info::TimeoutMatch(180_000)),
        Command::Info(Info::TimeLeft(0)),
        Command::Info(Info::ThreadNum(4)),
        Command::Info(Info::Rule(4)),
        Command::Info(Info::MaxMemory(268_435_456)),
        Command::Info(Info::MaxNode(5000)),
        Command::Info(Info::MaxDepth(12)),
        Command::Info(Info::Other {
            key: "folder".into(),
            value: "/tmp/x y".into(),
        }),
        Command::About,
        Command::End,
        Command::Unknown("PLAY".into()),
    ];
    for command in commands {
        let line = command.to_string();
        assert_eq!(Command::parse(&line), Ok(command), "{line}");
    }
    assert_eq!(Command::start(15, 15).to_string(), "START 15");
    assert_eq!(start_command(20, 15), "RECTSTART 20,15");
    assert_eq!(Command::parse("turn 3, 4"), Ok(Command::Turn(3, 4)));
}

#[test]
fn a_command_without_its_arguments_is_refused_by_name() {
    for (line, error) in [
        ("START x", "START needs a board size, got \"x\""),
        ("RECTSTART 20", "RECTSTART needs width,height, got \"20\""),
        ("TURN -1,3", "TURN needs x,y, got \"-1,3\""),
        ("TAKEBACK", "TAKEBACK needs x,y, got \"\""),
        ("INFO rule", "INFO needs a key and a value, got \"rule\""),
        (
            "INFO timeout_turn soon",
            "timeout_turn \"soon\" is not milliseconds",
        ),
        ("INFO thread_num 0", "thread_num \"0\" is not at least 1"),
        ("INFO rule renju", "rule \"renju\" is not a number"),
    ] {
        assert_eq!(Command::parse(line), Err(error.to_string()), "{line}");
    }
    // A key the brain ignores keeps a value of any kind.
    assert_eq!(
        Command::parse("INFO MAX_MEMORY lots"),
        Ok(Command::Info(Info::Other {
            key: "max_memory".into(),
            value: "lots".into()
        }))
    );
}

#[test]
fn stones_read_back_as_written() {
    let stones = [
        (Coord::new(7, 7), Field::Own),
        (Coord::new(8, 6), Field::Theirs),
    ];
    let text = stones_command("BOARD", stones);
    assert_eq!(text, "BOARD\n7,7,1\n6,8,2\nDONE");
    let lines: Vec<&str> = text.lines().collect();
    let read: Vec<(Coord, Field)> = lines[1..lines.len() - 1]
        .iter()
        .map(|l| {
            let (x, y, field) = parse_board_line(l).expect("a stone line");
            (Coord::new(y, x), Field::of(field).expect("a field"))
        })
        .collect();
    assert_eq!(read, stones);
    assert_eq!(parse_swap2_line("6,8,2"), Some((6, 8)));
    assert_eq!(parse_swap2_line("6,8"), Some((6, 8)));
    assert_eq!(parse_board_line("6,8"), None);
    assert_eq!(Field::of(3), None);
    let cells = vec![Coord::new(7, 7), Coord::new(0, 14)];
    assert_eq!(stones_text(cells.iter().copied()), "7,7 14,0");
    assert_eq!(
        parse_stones(&stones_text(cells.iter().copied())),
        Some(cells)
    );
    assert_eq!(parse_move(&cell_text(Coord::new(3, 11))), Some((11, 3)));
}

#[test]
fn the_rule_mask_reads_back_for_every_variant() {
    for variant in [Variant::Free, Variant::Renju, Variant::Caro] {
        for overline in [true, false] {
            let Ok(rules) = Rules::new(15, 15, 5, overline, Default::default())
                .and_then(|r| r.with_variant(variant))
            else {
                continue;
            };
            let (read, exact) = rules_of_mask(rule_mask(&rules)).expect("a known mask");
            assert_eq!(read, variant);
            if variant == Variant::Free {
                assert_eq!(exact, !overline);
            }
        }
    }
}

#[test]
fn a_brief_message_reads_back_as_written() {
    for (eval, plies) in [
        (Eval::Score(-118), None),
        (Eval::Score(0), None),
        (Eval::Mate { win: true }, Some(15)),
        (Eval::Mate { win: false }, None),
    ] {
        let brief = Brief {
            depth: 9,
            eval,
            plies,
            nodes: 120_000,
            time: Duration::from_millis(13),
            line: vec![Coord::new(7, 7), Coord::new(8, 6)],
        };
        let t = Thinking::in_message(&brief.to_string(), 15, 15);
        assert_eq!(
            (t.depth, t.eval, t.plies, t.pv),
            (Some(9), Some(eval), plies, brief.line.clone()),
            "{brief}"
        );
    }
}
