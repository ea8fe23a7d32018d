//! `kinrow pbrain`: a Gomocup session piped through the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn session(input: &str) -> Vec<String> {
    session_with(&["--engine", "mcts"], input)
}

/// The brain's answers to `input`, without its `MESSAGE` lines.
fn session_with(args: &[&str], input: &str) -> Vec<String> {
    raw_session(args, input)
        .into_iter()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect()
}

/// Every line the brain printed for `input`.
fn raw_session(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .arg("pbrain")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    assert!(child.wait().unwrap().success());
    out
}

fn coords(line: &str) -> (usize, usize) {
    let (x, y) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {line}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn a_whole_session() {
    let out = session(
        "ABOUT\n\
         START 15\n\
         INFO timeout_turn 200\n\
         INFO timeout_match 100000\n\
         INFO time_left 100000\n\
         INFO max_memory 83886080\n\
         INFO rule 0\n\
         BEGIN\n\
         TURN 0,0\n\
         BOARD\n\
         7,7,1\n\
         7,8,2\n\
         8,7,1\n\
         8,8,2\n\
         9,7,1\n\
         9,8,2\n\
         10,7,1\n\
         10,8,2\n\
         DONE\n\
         RESTART\n\
         BOARD\n\
         3,3,2\n\
         4,3,2\n\
         5,3,2\n\
         6,3,2\n\
         0,14,1\n\
         1,14,1\n\
         2,12,1\n\
         DONE\n\
         TURN 20,20\n\
         TURN 0,14\n\
         FROBNICATE\n\
         RECTSTART 20,10\n\
         BEGIN\n\
         START 99\n\
         END\n\
         ABOUT\n",
    );
    assert!(out[0].starts_with("name=\"kinrow\""), "{out:?}");
    assert_eq!(out[1], "OK");
    // BEGIN: a move on the board.
    let (x, y) = coords(&out[2]);
    assert!(x < 15 && y < 15);
    // TURN 0,0: a different empty cell.
    let second = coords(&out[3]);
    assert_ne!(second, (0, 0));
    assert_ne!(second, (x, y));
    // BOARD with own four on row 7 (x = 7..10): the brain completes five.
    let win = coords(&out[4]);
    assert!(win == (6, 7) || win == (11, 7), "{win:?}");
    assert_eq!(out[5], "OK");
    // The opponent has four on row 3 (x = 3..6) with both ends open: the brain
    // (4 opponent stones, 3 own, so it is to move) blocks one end.
    let block = coords(&out[6]);
    assert!(block == (2, 3) || block == (7, 3), "{block:?}");
    assert!(
        out[7].starts_with("ERROR") && out[7].contains("off the"),
        "{}",
        out[7]
    );
    assert!(
        out[8].starts_with("ERROR") && out[8].contains("occupied"),
        "{}",
        out[8]
    );
    assert!(out[9].starts_with("UNKNOWN"), "{}", out[9]);
    assert_eq!(out[10], "OK");
    let (x, y) = coords(&out[11]);
    assert!(x < 20 && y < 10);
    assert!(
        out[12].starts_with("ERROR unsupported board size"),
        "{}",
        out[12]
    );
    // Nothing after END.
    assert_eq!(out.len(), 13, "{out:?}");
}

#[test]
fn unsupported_rules_and_early_commands_get_errors() {
    let out = session("BEGIN\nTURN 1,1\nSTART 15\nINFO rule 12\nINFO timeout_turn soon\nEND\n");
    assert_eq!(out.len(), 5, "{out:?}");
    assert!(out[0].starts_with("ERROR"), "{out:?}");
    assert!(out[1].starts_with("ERROR"), "{out:?}");
    assert_eq!(out[2], "OK");
    assert!(out[3].contains("renju and caro"), "{out:?}");
    assert!(out[4].starts_with("ERROR timeout_turn"), "{out:?}");
}

/// `INFO rule`'s bit mask: 0, 1, 4, 5, 8 and 9 are played silently; renju with caro,
/// unknown bits and renju with k other than 5 get `ERROR`.
#[test]
fn rule_masks_are_mapped_or_refused() {
    let input = "START 15\nINFO rule 0\nINFO rule 1\nINFO rule 4\nINFO rule 5\nINFO rule 8\n\
                 INFO rule 9\nINFO rule 2\nINFO rule 12\nINFO rule 16\nEND\n";
    let out = session(input);
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "OK");
    assert!(out[1].starts_with("ERROR rule 12"), "{out:?}");
    assert!(out[2].starts_with("ERROR rule 16"), "{out:?}");
    let out = session_with(
        &["--engine", "greedy", "--k", "4"],
        "START 15\nINFO rule 4\nEND\n",
    );
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[1].starts_with("ERROR renju"), "{out:?}");
}

/// Own stones `x.x.x.x` on row 7 (columns 4 to 10): the middle gap makes two fours,
/// which wins under freestyle and is forbidden for the first player under renju.
#[test]
fn under_renju_the_brain_never_plays_a_forbidden_cell() {
    let board = "BOARD\n4,7,1\n0,0,2\n6,7,1\n14,0,2\n8,7,1\n0,14,2\n10,7,1\n14,14,2\nDONE\n";
    let play = |rule: u32| {
        let input = format!("START 15\nINFO timeout_turn 300\nINFO rule {rule}\n{board}END\n");
        let out = session_with(&["--engine", "auto"], &input);
        assert_eq!(out.len(), 2, "{out:?}");
        coords(&out[1])
    };
    assert_eq!(play(0), (7, 7), "freestyle takes the double four");
    for rule in [4, 5] {
        assert_ne!(play(rule), (7, 7), "rule {rule}");
    }
}

/// `INFO thread_num` sets the threads of the next search, cut to `--max-threads`; a
/// count below 1 or not a number is an error; a threaded brain still plays.
#[test]
fn thread_num_is_honoured_up_to_the_cap() {
    use kinrow_engine::EngineKind;
    use kinrow_lab::pbrain::Brain;
    let mut brain = Brain::new(EngineKind::Auto, 5, 1).with_max_threads(2);
    assert_eq!(brain.threads(), 1);
    assert!(brain.handle("INFO thread_num 8").is_empty());
    assert_eq!(brain.threads(), 2);
    assert!(brain.handle("INFO thread_num 1").is_empty());
    assert_eq!(brain.threads(), 1);
    for bad in ["0", "-2", "x"] {
        let answer = brain.handle(&format!("INFO thread_num {bad}"));
        assert!(answer[0].starts_with("ERROR"), "{bad}: {answer:?}");
    }
    assert_eq!(brain.threads(), 1);
    let out = session_with(
        &["--engine", "auto", "--max-threads", "2"],
        "START 15\nINFO timeout_turn 300\nINFO thread_num 2\nTURN 7,7\nTURN 0,0\nEND\n",
    );
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "OK");
    for line in &out[1..] {
        let (x, y) = coords(line);
        assert!(x < 15 && y < 15, "{line}");
    }
}

/// Every move comes after one `MESSAGE` line that the external-engine client reads as
/// Rapfi's: the depth, the eval through the unit 200 (kinrow's value for the side to
/// move) or a mate with its plies, and a best line that starts with the move.
#[test]
fn every_move_says_its_depth_eval_and_best_line_first() {
    use kinrow_engine::{Eval, Thinking};
    // Own four on row 7 (x = 7..10): the brain completes five, a proven win in one ply.
    let out = raw_session(
        &["--engine", "auto"],
        "START 15\nINFO timeout_turn 300\nBOARD\n7,7,1\n7,8,2\n8,7,1\n8,8,2\n9,7,1\n9,8,2\n\
         10,7,1\n0,0,2\nDONE\nBOARD\n7,7,2\n7,8,1\n8,7,2\nDONE\nEND\n",
    );
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(out[0], "OK");
    let win = Thinking::in_message(&out[1], 15, 15);
    assert_eq!(win.eval, Some(Eval::Mate { win: true }), "{out:?}");
    assert_eq!(win.plies, Some(1), "{out:?}");
    let (x, y) = coords(&out[2]);
    assert!((x, y) == (6, 7) || (x, y) == (11, 7), "{out:?}");
    assert_eq!(
        win.pv.first().map(|c| (c.col, c.row)),
        Some((x, y)),
        "{out:?}"
    );
    // An open position: a score (not a mate), a depth of at least 1, the move first.
    let open = Thinking::in_message(&out[3], 15, 15);
    let Some(Eval::Score(e)) = open.eval else {
        panic!("no score: {out:?}")
    };
    assert!(e.abs() < 1400, "{out:?}");
    assert!(open.depth.is_some_and(|d| d >= 1), "{out:?}");
    let (x, y) = coords(&out[4]);
    assert_eq!(
        open.pv.first().map(|c| (c.col, c.row)),
        Some((x, y)),
        "{out:?}"
    );
}
