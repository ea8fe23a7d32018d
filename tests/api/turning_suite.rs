//! `kinrow judge --turning --out`, `kinrow turning-suite build` and `check` through the
//! real binary, with value_suite.rs's fake judge (it answers 0,0 and reads a board by its
//! last stone: on an even column a forced win in three plies for the side to move, at
//! depth 3; on an odd one a score of 10).
//!
//! The game: x makes an open three on row 7 while o plays away from it; o's second move
//! (col 12, row 12) lets x make an open four and win. The judge sees o's first move
//! hold (column 1) and the second lose at once (column 12): a tactical turn, and a real
//! one, so `auto` avoids it and sees the loss after it.

use std::path::PathBuf;

use crate::support::marks;

fn temp_file(name: &str, text: &str) -> PathBuf {
    crate::support::temp_file("turning-suite", name, text)
}

fn kinrow(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The position before the turning move, as Gomocup `x,y`.
const BEFORE: &str = "7,7 8,8 8,7 1,0 9,7";

#[test]
fn the_turns_are_judged_kept_and_checked() {
    let script = temp_file("judge", crate::value_suite::FAKE_JUDGE);
    crate::support::make_executable(&script);
    let game = format!(
        r#"{{"rules":{{"m":15,"n":15,"k":5,"overline":true}},"x":"a","o":"b","opening":[{}],"moves":[{}],"result":"x"}}"#,
        marks(&[(7, 7), (8, 8), (7, 8)]),
        marks(&[(0, 1), (7, 9), (12, 12), (7, 10), (14, 14), (7, 6)])
    );
    let games = temp_file("games.jsonl", &format!("{game}\n"));
    let turning = temp_file("turning.jsonl", "");
    let suite = temp_file("suite.jsonl", "");
    let summary_file = temp_file("summary.json", "");
    let lines_file = temp_file("lines.jsonl", "");
    let judge = format!("pbrain:{}", script.display());
    let judged = kinrow(&[
        "judge",
        "--turning",
        "--games",
        games.to_str().unwrap(),
        "--judge",
        &judge,
        "--time-ms",
        "50",
        "--out",
        turning.to_str().unwrap(),
    ]);
    let built = kinrow(&[
        "turning-suite",
        "build",
        "--turning",
        turning.to_str().unwrap(),
        "--note",
        "from a fake judge",
        "--out",
        suite.to_str().unwrap(),
    ]);
    let suite_text = std::fs::read_to_string(&suite).unwrap_or_default();
    // A second turn whose "turning move" blocks the three: no loss to see after it.
    let blocked = suite_text
        .lines()
        .nth(1)
        .unwrap_or_default()
        .replace(r#""turning":"12,12""#, r#""turning":"10,7""#);
    let two = temp_file("two.jsonl", &format!("{suite_text}{blocked}\n"));
    let checked = kinrow(&[
        "turning-suite",
        "check",
        "--suite",
        two.to_str().unwrap(),
        "--engine",
        "auto",
        "--nodes",
        "3000",
        "--time-ms",
        "5000",
        "--seeds",
        "1,2",
        "--max-depth",
        "3",
        "--classify-nodes",
        "3000",
        "--vct-ms",
        "50",
        "--out",
        summary_file.to_str().unwrap(),
        "--lines",
        lines_file.to_str().unwrap(),
    ]);
    // A suite whose turning move is taken is refused, naming the field.
    let bad = temp_file(
        "bad.jsonl",
        &suite_text.replace(r#""turning":"12,12""#, r#""turning":"7,7""#),
    );
    let refused = kinrow(&["turning-suite", "check", "--suite", bad.to_str().unwrap()]);
    let judged_text = std::fs::read_to_string(&turning).unwrap_or_default();
    let summary = std::fs::read_to_string(&summary_file).unwrap_or_default();
    let per_turn = std::fs::read_to_string(&lines_file).unwrap_or_default();
    for f in [
        &script,
        &games,
        &turning,
        &suite,
        &two,
        &bad,
        &summary_file,
        &lines_file,
    ] {
        std::fs::remove_file(f).ok();
    }

    // The judge's --out keeps the turn's position, its move, mate distance and depth.
    assert!(judged.0, "{}", judged.2);
    let line: serde_json::Value = serde_json::from_str(judged_text.trim()).unwrap();
    assert_eq!(line["loser"], "b");
    assert_eq!(line["tactical"], true, "{line}");
    assert_eq!(line["turning_move"], "12,12");
    assert_eq!(line["position"], BEFORE);
    assert_eq!(line["judge_move"], "0,0");
    assert_eq!(
        (&line["turning_plies"], &line["turning_depth"]),
        (&3.into(), &3.into())
    );
    let moves = line["moves"].as_array().unwrap();
    assert_eq!(moves[0]["played"], "1,0");
    assert_eq!(
        (&moves[0]["after"], &moves[0]["after_depth"]),
        (&10.into(), &3.into())
    );

    // The suite keeps the one tactical turn under its command.
    assert!(built.0, "{}", built.2);
    let mut kept = suite_text.lines();
    let header = kept.next().unwrap();
    assert!(
        header.starts_with("# kinrow turning-suite build --turning ")
            && header.ends_with("; from a fake judge"),
        "{header}"
    );
    let turn: serde_json::Value = serde_json::from_str(kept.next().unwrap()).unwrap();
    assert!(kept.next().is_none(), "{suite_text}");
    assert_eq!(
        turn["game"],
        "kinrow-turning-suite-games.jsonl-".to_string() + &std::process::id().to_string() + ":1"
    );
    assert_eq!(
        (&turn["ply"], &turn["to_move"], &turn["loser"]),
        (&5.into(), &"o".into(), &"b".into())
    );
    assert_eq!(
        (&turn["moves"], &turn["turning"]),
        (&BEFORE.into(), &"12,12".into())
    );
    assert_eq!((&turn["plies"], &turn["depth"]), (&3.into(), &3.into()));
    // The judge valued the position before at 10 for o: an open turn.
    assert_eq!(
        (&turn["eval_before"], &turn["mate_before"]),
        (&10.into(), &serde_json::Value::Null)
    );

    // The check: the real turning move is avoided and its loss seen, the block's not;
    // each seed answers both turns, and each turn gets a class.
    assert!(checked.0, "{}", checked.2);
    let summary: serde_json::Value = serde_json::from_str(summary.trim()).unwrap();
    assert_eq!(summary["turns"], 2, "{summary}");
    assert_eq!(summary["nodes"], 3000);
    let seeds = summary["seeds"].as_array().unwrap();
    assert_eq!(seeds.len(), 2);
    for s in seeds {
        assert_eq!(s["turns"], 2, "{s}");
        assert_eq!(s["sees_loss_after"], 1, "{s}");
        assert_eq!(s["open_turns"], 2, "{s}");
        assert!(s["avoided"].as_u64().unwrap() >= 1, "{s}");
        assert_eq!(s["first_depths"].as_array().unwrap().len(), 1, "{s}");
    }
    let classes = summary["classes"].as_object().unwrap();
    assert_eq!(
        classes.values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
        2,
        "{summary}"
    );
    let per_turn: Vec<serde_json::Value> = per_turn
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        per_turn.len(),
        2 * 2 + 2,
        "two seeds of two turns, two classes"
    );
    let real = &per_turn[0];
    assert_eq!(
        (&real["turning"], &real["avoided"], &real["sees_loss"]),
        (&"12,12".into(), &true.into(), &true.into()),
        "{real}"
    );
    assert_eq!(per_turn[1]["sees_loss"], false, "{}", per_turn[1]);
    // The opponent's VCT after the real turning move proves the open four's win.
    let class = per_turn.iter().find(|l| l.get("class").is_some()).unwrap();
    assert_eq!(
        (&class["vct"], &class["vct_proved_within_ms"]),
        (&"win".into(), &50.into()),
        "{class}"
    );
    assert!(
        checked.1.contains("turning moves avoided in"),
        "{}",
        checked.1
    );

    assert!(!refused.0);
    assert!(
        refused.2.contains("turning: 7,7 is not legal there"),
        "{}",
        refused.2
    );
}
