//! `kinrow value-suite build` and `check` through the real binary, with a fake Gomocup
//! judge: a shell script that always answers 0,0 and evaluates a board by its last
//! stone: on 0,0 a forced loss for the side to move (`-M2`), on an even column a forced
//! win (`+M3`), else a score of 10. So a position whose last move is on an even column
//! is a confirmed win in three plies with 0,0 as its winning move, and one on an odd
//! column is a defence position whose losing moves are the candidates on even columns.

use std::path::PathBuf;

use crate::support::marks;

fn temp_file(name: &str, text: &str) -> PathBuf {
    crate::support::temp_file("value-suite", name, text)
}

pub(crate) const FAKE_JUDGE: &str = r#"#!/bin/sh
last=""
while read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    START*) echo OK;;
    BOARD*) last="";;
    [0-9]*,[0-9]*,[12]) last="$line";;
    DONE*)
      x=${last%%,*}
      case "$last" in
        0,0,*) echo "MESSAGE Depth 3 | Eval -M2 | Time 1ms";;
        *) if [ $((x % 2)) = 0 ]; then echo "MESSAGE Depth 3 | Eval +M3 | Time 1ms";
           else echo "MESSAGE Depth 3 | Eval 10 | Time 1ms"; fi;;
      esac
      echo 0,0;;
    END*) exit 0;;
  esac
done
"#;

fn kinrow(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .arg("value-suite")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn column(cell: &serde_json::Value) -> usize {
    cell.as_str()
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn the_suites_are_built_resumed_and_checked() {
    let script = temp_file("judge", FAKE_JUDGE);
    crate::support::make_executable(&script);
    // The turns' last moves alternate between even columns (8, 12) and odd ones (3, 11).
    let game = format!(
        r#"{{"rules":{{"m":15,"n":15,"k":5,"overline":true}},"x":"a","o":"b","opening":[{}],"moves":[{}],"result":"draw"}}"#,
        marks(&[(7, 7), (8, 8), (7, 8)]),
        marks(&[(2, 3), (12, 12), (2, 11), (12, 4)])
    );
    let games = temp_file("games.jsonl", &format!("{game}\n{game}\n"));
    let suite = temp_file("suite.jsonl", "");
    std::fs::remove_file(&suite).unwrap();
    let out = temp_file("out.jsonl", "");
    let judge = format!("pbrain:{}", script.display());
    let build = |count: &str| {
        kinrow(&[
            "build",
            "--games",
            games.to_str().unwrap(),
            "--judge",
            &judge,
            "--out",
            suite.to_str().unwrap(),
            "--count",
            count,
            "--time-ms",
            "50",
            "--threads",
            "2",
        ])
    };
    let (ok, _, err) = build("3");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&suite).unwrap();
    // Made again by the same command: nothing more is wanted, nothing is added.
    let (ok, _, err) = build("3");
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), text);
    // Another command's file is refused.
    let (ok, _, err) = build("4");
    assert!(!ok && err.contains("was made by another command"), "{err}");
    let (ok, stdout, err) = kinrow(&[
        "check",
        "--suite",
        suite.to_str().unwrap(),
        "--engines",
        "auto",
        "--nodes",
        "2000",
        "--time-ms",
        "5000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let checked = std::fs::read_to_string(&out).unwrap_or_default();
    for f in [&script, &games, &suite, &out] {
        std::fs::remove_file(f).ok();
    }

    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("# kinrow value-suite build --games kinrow-value-suite-games.jsonl")
            && header.contains("--count 3"),
        "{header}"
    );
    let lines: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    let of = |suite: &str| -> Vec<&serde_json::Value> {
        lines.iter().filter(|l| l["suite"] == suite).collect()
    };
    assert_eq!((of("winning").len(), of("defence").len()), (3, 3), "{text}");
    let mut losing = 0;
    for l in of("winning") {
        assert_eq!(l["move"], "0,0");
        assert_eq!(l["plies"], 3);
    }
    for l in of("defence") {
        assert_eq!(l["move"], "0,0", "the judge's own move holds");
        assert_eq!(l["eval"], 10);
        let lost = l["losing"].as_array().unwrap();
        assert!(
            !lost.is_empty() && lost.iter().all(|c| column(c) % 2 == 0),
            "{l}"
        );
        let held = l["holding"].as_array().unwrap();
        assert!(held.iter().all(|c| column(c) % 2 == 1 || c == "0,0"), "{l}");
        assert_eq!(
            lost.len() + held.len(),
            26,
            "25 candidates and the judge's move"
        );
        losing += lost.len();
    }
    // The check answers every position and counts every losing move.
    assert!(ok, "{err}");
    assert_eq!(checked.lines().count(), 6, "{checked}");
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["winning_positions"], 3, "{stdout}");
    assert_eq!(summary["defence_positions"], 3);
    assert_eq!(summary["losing_moves"], losing);
    assert_eq!(summary["unvalued_moves"], 0);
    assert!(stdout.contains("auto values every cell"), "{stdout}");
}
