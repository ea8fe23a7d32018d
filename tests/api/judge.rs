//! `kinrow judge` through the real binary, with a fake Gomocup judge: a shell script
//! that always answers 0,0 and evaluates a board holding a stone on 0,0 at -100 for
//! the side to move (0 otherwise), so every move but 0,0 loses exactly 100.

use std::path::PathBuf;

use crate::support::marks;

fn temp_file(name: &str, text: &str) -> PathBuf {
    crate::support::temp_file("judge", name, text)
}

const FAKE_JUDGE: &str = r#"#!/bin/sh
corner=0
while read line; do
  case "$line" in
    START*) echo OK;;
    BOARD*) corner=0;;
    0,0,*) corner=1;;
    DONE*)
      if [ $corner = 1 ]; then echo "MESSAGE Depth 3 | Eval -100 | Time 1ms"; else echo "MESSAGE Depth 3 | Eval 0 | Time 1ms"; fi
      echo 0,0;;
    END*) exit 0;;
  esac
done
"#;

#[test]
fn the_judge_reports_the_mean_loss_per_contestant() {
    let script = temp_file("fake", FAKE_JUDGE);
    crate::support::make_executable(&script);
    // Quiet throughout: x ("a") has two marks in a row, o ("b") plays far away.
    let game = format!(
        r#"{{"rules":{{"m":15,"n":15,"k":5,"overline":true}},"x":"a","o":"b","opening":[{}],"moves":[{}],"result":"draw"}}"#,
        marks(&[(7, 7), (8, 8), (7, 8)]),
        marks(&[(2, 2), (12, 12), (2, 12), (12, 4)])
    );
    let games = temp_file("games", &format!("{game}\n{game}\n"));
    let out = temp_file("out", "");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .arg("judge")
        .arg("--judge")
        .arg(format!("pbrain:{}", script.display()))
        .arg("--games")
        .arg(&games)
        .args(["--time-ms", "50", "--positions", "3", "--threads", "2"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let written = std::fs::read_to_string(&out).unwrap_or_default();
    for f in [&script, &games, &out] {
        std::fs::remove_file(f).ok();
    }
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Two games with two quiet turns each per contestant, three drawn per contestant.
    for label in ["a", "b"] {
        let want = format!(
            "{label}: 3 positions, mean eval loss 100.0 ± 0.0, mean win-probability loss 12.25% ± 0.00%, the judge's own move in 0"
        );
        assert!(text.contains(&want), "{text}");
    }
    assert!(!text.contains("dropped"), "{text}");
    assert_eq!(written.lines().count(), 6, "{written}");
    let first: serde_json::Value = serde_json::from_str(written.lines().next().unwrap()).unwrap();
    assert_eq!(first["best"], "0,0");
    assert_eq!(first["after_best"], -100);
    assert_eq!(first["loss"], 100);
}

#[test]
fn the_judge_rejects_what_it_cannot_use() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
            .arg("judge")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, err) = run(&["--judge", "rapfi", "--games", "/nonexistent"]);
    assert!(!ok && err.contains("is not pbrain:PATH"), "{err}");
    let (ok, err) = run(&["--judge", "pbrain:/bin/true", "--games", "/nonexistent"]);
    assert!(!ok && err.contains("--games: cannot read"), "{err}");
}
