//! The command line's own answers are the API's: `kinrow state` prints what `POST
//! /v1/state` answers, and `kinrow review` what `POST /v1/review` answers, without a
//! server; a bad request is the API's error body on stderr with exit code 2.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use crate::support::spawn;

fn kinrow(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kinrow runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("written");
    }
    child.wait_with_output().expect("kinrow ends")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn kinrow_state_prints_the_state_answer() {
    let server = spawn();
    for (args, body) in [
        (
            vec!["--rules", "3,3,3", "--board", "xxx/oo./..."],
            json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["xxx", "oo.", "..."]}),
        ),
        (
            vec!["--rules", "7,6,4", "--gravity", "--board", "4453"],
            json!({"rules": {"m": 7, "n": 6, "k": 4, "gravity": true}, "board": "4453"}),
        ),
    ] {
        let mut all = vec!["state"];
        all.extend(args);
        let out = kinrow(&all, None);
        assert!(out.status.success(), "{out:?}");
        let (status, answer) = server.call("/v1/state", &body);
        assert_eq!(status, 200, "{answer}");
        assert_eq!(json_of(&out), answer);
    }
}

#[test]
fn kinrow_review_prints_the_review_answer() {
    let server = spawn();
    // o answers the centre on an edge and loses: the exact solver judges every move, so
    // the classes and values repeat on any machine.
    let request = json!({
        "rules": {"m": 3, "n": 3, "k": 3},
        "moves": [{"row": 1, "col": 1}, {"row": 0, "col": 1}, {"row": 0, "col": 0},
                  {"row": 2, "col": 2}, {"row": 0, "col": 2}],
        "engine": {"name": "perfect", "seed": 7}
    });
    let out = kinrow(&["review", "-"], Some(&request.to_string()));
    assert!(out.status.success(), "{out:?}");
    let offline = json_of(&out);
    let (status, answer) = server.call("/v1/review", &request);
    assert_eq!(status, 200, "{answer}");
    for key in ["moves", "summary", "values"] {
        assert_eq!(offline[key], answer[key], "{key}");
    }
    assert_eq!(offline["moves"][1]["class"], "blunder");
    assert_eq!(offline["stats"]["engine"], "perfect");
}

#[test]
fn kinrow_review_refuses_a_bad_game_with_the_api_error() {
    let request = json!({
        "rules": {"m": 3, "n": 3, "k": 3},
        "moves": [{"row": 1, "col": 1}, {"row": 1, "col": 1}]
    });
    let out = kinrow(&["review", "-"], Some(&request.to_string()));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let body: Value = serde_json::from_str(err.trim().trim_start_matches("kinrow review: "))
        .unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(body["error"]["code"], "illegal_move");
    assert_eq!(body["error"]["field"], "moves[1]");
    let missing = kinrow(&["review", "/no/such/file.json"], None);
    assert_eq!(missing.status.code(), Some(2));
}

/// `kinrow fit` on a committed labelled file: it writes a network file and a summary in
/// which the held-out positions are predicted better than by a constant (a few epochs
/// on 198 games).
#[test]
fn kinrow_fit_writes_a_network_that_beats_a_constant_on_held_out_positions() {
    let out = std::env::temp_dir().join(format!("kinrow-fit-test-{}.txt", std::process::id()));
    let ran = kinrow(
        &[
            "fit",
            "--games",
            "data/labelled/kinrow-gen2-rapfi5k.jsonl.gz",
            "--epochs",
            "3",
            "--holdout",
            "5",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let summary = json_of(&ran);
    let held = &summary["held_out_target_loss"];
    assert!(
        held["network"].as_f64().unwrap() < held["constant"].as_f64().unwrap(),
        "{summary}"
    );
    assert!(held["floor"].as_f64().unwrap() < held["network"].as_f64().unwrap());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("kinrow-network 1\n"), "{}", &text[..40]);
    let _ = std::fs::remove_file(&out);
}
