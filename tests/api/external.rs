//! External Gomocup engines behind the API (issue 53): kinrow's own `kinrow pbrain` as
//! the brain, and a fake brain (tests/fake_brain.sh) that talks, crashes, hangs, prints
//! garbage or answers an illegal move. No third-party binary.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::analysis::events;
use crate::support::{assert_error, spawn_with, TestServer};
use kinrow_engine::BrainSpec;
use kinrow_server::{external_engines, Config};

/// The fake brain in `mode` as a spec (`NAME=sh tests/fake_brain.sh MODE[;options]`).
fn fake(name: &str, mode: &str, options: &str) -> BrainSpec {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_brain.sh");
    BrainSpec::parse(&format!("{name}=sh {script} {mode}{options}")).expect("spec")
}

/// `kinrow pbrain` (the `threat` engine: it answers at once) as `kp`.
fn kinrow_brain() -> BrainSpec {
    let bin = env!("CARGO_BIN_EXE_kinrow");
    BrainSpec::parse(&format!("kp={bin} pbrain --engine threat;pool=1;unit=200")).expect("spec")
}

fn server(specs: Vec<BrainSpec>) -> TestServer {
    spawn_with(Config {
        external_engines: specs,
        ..Config::for_tests()
    })
}

/// A 15x15 exactly-five position, o to move, with x at 0,0 and 7,8 and o at 8,8... in
/// turn: x 0,0 / o 8,8 / x 7,8: o to move (7,7 is empty).
fn position(engine: Value) -> Value {
    let mut rows = vec![".".repeat(15); 15];
    rows[0].replace_range(0..1, "x");
    rows[8].replace_range(7..9, "xo");
    json!({
        "rules": {"m": 15, "n": 15, "k": 5, "overline": false},
        "board": rows,
        "engine": engine,
    })
}

fn timed(s: &TestServer, path: &str, body: &Value) -> (u16, Value, Duration) {
    let t = Instant::now();
    let (status, body) = s.call(path, body);
    (status, body, t.elapsed())
}

#[test]
fn kinrow_pbrain_is_served_in_suggest_play_analyse_and_review() {
    let s = server(vec![kinrow_brain()]);
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "kp", "time_ms": 300})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["engine"], "kp");
    let (r, c) = (
        body["move"]["row"].as_u64().unwrap(),
        body["move"]["col"].as_u64().unwrap(),
    );
    assert!(
        !(r == 0 && c == 0) && !(r == 8 && (c == 7 || c == 8)),
        "{body}"
    );
    // kinrow pbrain's MESSAGE line: its value through the unit 200 and its depth; the
    // move is the one evaluated cell, nothing else made up.
    let evaluated: Vec<&Value> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["evaluated"] == true)
        .collect();
    assert_eq!(evaluated.len(), 1, "{body}");
    assert_eq!(evaluated[0]["row"], body["move"]["row"], "{body}");
    assert_eq!(evaluated[0]["col"], body["move"]["col"], "{body}");
    assert!(body["stats"]["depth"].as_u64().unwrap() >= 1, "{body}");
    let raw = body["evaluation"]["raw"].as_f64().unwrap();
    let value = body["evaluation"]["value"].as_f64().unwrap();
    assert!((value - (raw / 400.0).tanh()).abs() < 1e-9, "{body}");
    assert_eq!(body["pv"][0]["row"], body["move"]["row"], "{body}");
    assert_eq!(body["pv"][0]["col"], body["move"]["col"], "{body}");
    let mut play = position(Value::Null);
    play.as_object_mut().unwrap().remove("engine");
    play["move"] = json!({"row": 7, "col": 7});
    play["reply"] = json!({"name": "KP", "time_ms": 200});
    play["rules"]["overline"] = json!(true);
    play["board"][8] = json!(".".repeat(15));
    play["board"][0] = json!(".".repeat(15));
    let (status, body) = s.call("/v1/play", &play);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["reply"]["engine"], "kp");

    let r = s.post(
        "/v1/analyse",
        &position(json!({"name": "kp", "time_ms": 200})),
    );
    assert_eq!(r.status(), 200);
    let evs = events(&r.text().unwrap());
    assert_eq!(evs.last().map(|e| e.0.as_str()), Some("result"), "{evs:?}");

    let review = json!({
        "rules": {"m": 15, "n": 15, "k": 5},
        "moves": [{"row": 7, "col": 7}, {"row": 8, "col": 8}, {"row": 7, "col": 8}],
        "engine": {"name": "kp", "time_ms": 100},
    });
    let (status, body) = s.call("/v1/review", &review);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"].as_array().unwrap().len(), 3, "{body}");

    let engines: Value = s.get("/v1/engines").json().unwrap();
    let kp = engines["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "kp")
        .expect("kp listed")
        .clone();
    assert_eq!(kp["kind"], "external");
    assert_eq!(kp["parameters"], json!(["time_ms", "threads"]));
    assert!(engines["engines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] != "kp")
        .all(|e| e["kind"] == "builtin"));
}

#[test]
fn limits_and_boards_it_cannot_take_are_refused_naming_the_field() {
    let s = server(vec![kinrow_brain()]);
    for (engine, field) in [
        (json!({"name": "kp", "level": 5}), "engine.level"),
        (json!({"name": "kp", "nodes": 1000}), "engine.nodes"),
        (json!({"name": "kp", "depth": 4}), "engine.depth"),
        (json!({"name": "kp", "multipv": 2}), "engine.multipv"),
        (
            json!({"name": "kp", "mistake_probability": 0.5}),
            "engine.mistake_probability",
        ),
    ] {
        let (status, body) = s.call("/v1/suggest", &position(engine));
        assert_error(status, &body, 422, "invalid_limits", Some(field));
    }
    let (status, body) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 9, "n": 9, "k": 4}, "engine": "kp"}),
    );
    assert_error(status, &body, 422, "invalid_rules", Some("rules.k"));
    let (status, body) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 7, "n": 6, "k": 5, "gravity": true}, "engine": "kp"}),
    );
    assert_error(status, &body, 422, "invalid_rules", Some("rules.gravity"));
    // `/v1/engines` says which games it plays (what the demo's menus read), and each
    // game outside them is refused naming what is outside.
    let (_, engines) = {
        let r = s.get("/v1/engines");
        (r.status(), r.json::<Value>().unwrap())
    };
    let listed = |name: &str| {
        engines["engines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(listed("auto")["plays"], Value::Null);
    assert_eq!(
        listed("kp")["plays"],
        json!({"k": 5, "pieces": false, "gravity": false, "openings": ["free"]})
    );
    let (status, body) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 15, "n": 15, "k": 5, "pieces": {"x": {"block": 1}, "o": {"block": 1}}},
                "to_move": "x", "engine": "kp"}),
    );
    assert_error(status, &body, 422, "invalid_rules", Some("rules.pieces"));
    let (status, body) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 15, "n": 15, "k": 5, "opening": "pro"}, "engine": "kp"}),
    );
    assert_error(status, &body, 422, "invalid_rules", Some("rules.opening"));
    let (status, _) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 15, "n": 15, "k": 5}, "engine": "kp"}),
    );
    assert_eq!(status, 200, "inside what it plays");
    let (status, body) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 15, "n": 15, "k": 5}, "engine": "nobody"}),
    );
    assert_error(status, &body, 422, "unknown_engine", Some("engine.name"));
    assert!(
        body["error"]["message"].as_str().unwrap().contains("kp"),
        "{body}"
    );
}

#[test]
fn messages_give_evaluation_pv_depth_and_info_events_and_nothing_else() {
    let s = server(vec![fake("talk", "talk", "")]);
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "talk", "time_ms": 500})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["move"], json!({"row": 7, "col": 7, "piece": "mark"}));
    assert_eq!(body["evaluation"]["raw"], 150.0);
    let value = body["evaluation"]["value"].as_f64().unwrap();
    assert!((value - (150.0f64 / 400.0).tanh()).abs() < 1e-9, "{body}");
    assert_eq!(body["stats"]["depth"], 7);
    let pv: Vec<(u64, u64)> = body["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["row"].as_u64().unwrap(), m["col"].as_u64().unwrap()))
        .collect();
    assert_eq!(pv, vec![(7, 7), (9, 9), (6, 6)]);
    let filled: Vec<(usize, usize)> = body["scores"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.as_array()
                .unwrap()
                .iter()
                .enumerate()
                .filter(|(_, v)| !v.is_null())
                .map(move |(c, _)| (r, c))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(filled, vec![(7, 7)], "{body}");
    let evaluated = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["evaluated"] == true)
        .count();
    assert_eq!(evaluated, 1);

    let r = s.post(
        "/v1/analyse",
        &position(json!({"name": "talk", "time_ms": 500})),
    );
    let evs = events(&r.text().unwrap());
    let depths: Vec<u64> = evs
        .iter()
        .filter(|e| e.0 == "info")
        .filter_map(|e| e.1["depth"].as_u64())
        .collect();
    assert!(depths.contains(&7), "{evs:?}");
    // An info event's value comes through the brain's unit too, as the answer's does.
    let at7 = evs
        .iter()
        .find(|e| e.0 == "info" && e.1["depth"] == 7)
        .expect("depth 7");
    let v = at7.1["value"].as_f64().unwrap();
    assert!((v - (150.0f64 / 400.0).tanh()).abs() < 1e-9, "{evs:?}");
}

/// Rapfi's brief lines: a mate `+M7` is a proven win in 7 plies, the `Bestline` the pv.
#[test]
fn a_mate_message_is_a_win_with_its_plies() {
    let s = server(vec![fake("mate", "mate", "")]);
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "mate", "time_ms": 300})),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["evaluation"]["outcome"], "win", "{body}");
    assert_eq!(body["evaluation"]["plies"], 7, "{body}");
    assert_eq!(body["evaluation"]["value"], 1.0, "{body}");
    assert_eq!(body["stats"]["depth"], 9, "{body}");
    assert_eq!(body["pv"][1], json!({"row": 9, "col": 9, "piece": "mark"}));
}

/// A brain that fails answers 503 engine_unavailable within the budget plus the margin,
/// never 500 nor a hang; its process is replaced, and the next request is served.
#[test]
fn crashes_hangs_garbage_and_illegal_moves_are_503_in_time_and_the_next_request_is_served() {
    let marker = std::env::temp_dir().join(format!("kinrow-crash-once-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let s = server(vec![
        fake("crash", "crash", ""),
        fake("hang", "hang", ""),
        fake("garbage", "garbage", ""),
        fake("illegal", "illegal", ""),
        fake(
            "once",
            &format!("crash_once {}", marker.display()),
            ";pool=1",
        ),
    ]);
    // The test configuration's margin is 100 ms; the slack is the test machine's.
    let within = Duration::from_millis(300 + 100 + 400);
    for name in ["crash", "hang", "garbage", "illegal", "hang"] {
        let (status, body, took) = timed(
            &s,
            "/v1/suggest",
            &position(json!({"name": name, "time_ms": 300})),
        );
        assert_error(status, &body, 503, "engine_unavailable", None);
        assert!(took < within, "{name} took {took:?}");
    }
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "once", "time_ms": 300})),
    );
    assert_error(status, &body, 503, "engine_unavailable", None);
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "once", "time_ms": 300})),
    );
    assert_eq!(status, 200, "the restarted brain answers: {body}");
    let _ = std::fs::remove_file(&marker);

    let metrics = s.get("/metrics").text().unwrap();
    // The process that crashed was replaced in the background: "once" was restarted.
    let restarts = |name: &str| {
        metrics
            .lines()
            .find(|l| {
                l.starts_with(&format!(
                    "kinrow_external_restarts_total{{engine=\"{name}\"}}"
                ))
            })
            .and_then(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    assert!(restarts("once") >= 1, "{metrics}");
    assert!(
        metrics.contains("engine=\"hang\",result=\"engine_unavailable\""),
        "{metrics}"
    );
}

/// The value of `kinrow_searches_total` for `engine` and `result` in `metrics` (0 when
/// the line is absent).
fn searches(metrics: &str, engine: &str, result: &str) -> u64 {
    let prefix = format!("kinrow_searches_total{{engine=\"{engine}\",result=\"{result}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&prefix)?.parse().ok())
        .unwrap_or(0)
}

/// A failed search is counted once, as its failure, never also as `ok`: in
/// `/v1/suggest`, `/v1/play`'s reply and `/v1/analyse` alike; a served one is `ok`.
#[test]
fn a_crashed_brain_counts_as_engine_unavailable_and_not_as_ok() {
    let s = server(vec![fake("crash", "crash", ""), fake("talk", "talk", "")]);
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "crash", "time_ms": 300})),
    );
    assert_error(status, &body, 503, "engine_unavailable", None);
    let mut play = position(Value::Null);
    play.as_object_mut().unwrap().remove("engine");
    play["move"] = json!({"row": 7, "col": 7});
    play["reply"] = json!({"name": "crash", "time_ms": 300});
    let (status, body) = s.call("/v1/play", &play);
    assert_error(status, &body, 503, "engine_unavailable", None);
    let r = s.post(
        "/v1/analyse",
        &position(json!({"name": "crash", "time_ms": 300})),
    );
    let evs = events(&r.text().unwrap());
    let last = evs.last().expect("an event");
    assert_eq!(last.0, "error", "{evs:?}");
    assert_eq!(last.1["error"]["code"], "engine_unavailable", "{evs:?}");
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "talk", "time_ms": 300})),
    );
    assert_eq!(status, 200, "{body}");

    let metrics = s.get("/metrics").text().unwrap();
    assert_eq!(
        searches(&metrics, "crash", "engine_unavailable"),
        3,
        "{metrics}"
    );
    assert_eq!(searches(&metrics, "crash", "ok"), 0, "{metrics}");
    assert_eq!(searches(&metrics, "talk", "ok"), 1, "{metrics}");
    assert_eq!(
        searches(&metrics, "talk", "engine_unavailable"),
        0,
        "{metrics}"
    );
}

#[test]
fn a_name_of_a_built_in_engine_or_a_brain_that_does_not_start_stops_the_server() {
    let err = external_engines(&["auto=/bin/cat".to_string()]).unwrap_err();
    assert!(err.contains("built-in"), "{err}");
    let err = external_engines(&["a=/bin/cat".to_string(), "A=/bin/cat".to_string()]).unwrap_err();
    assert!(err.contains("twice"), "{err}");

    // A program that cannot be run at all is a mistake of the configuration. (One that
    // runs and dies at start-up is served as unavailable: the next test.)
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["serve", "--addr", "127.0.0.1:0", "--external-engine"])
        .arg("mute=/nonexistent/pbrain-mute")
        .env_remove("KINROW_EXTERNAL_ENGINES")
        .output()
        .expect("kinrow runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("mute") && stderr.contains("cannot start"),
        "{stderr}"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("KINROW_EXTERNAL_ENGINES", "minimax=/bin/cat")
        .output()
        .expect("kinrow runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("built-in"));
}

/// The line of `name` in `metrics` (`kinrow_external_..{engine="NAME"}`) as a number.
fn metric(metrics: &str, name: &str, engine: &str) -> Option<f64> {
    let prefix = format!("{name}{{engine=\"{engine}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&prefix)?.parse().ok())
}

/// The process ids the `talk_in` brains of `dir` recorded.
fn pids(dir: &std::path::Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

/// Issue 60: every idle process killed between two requests (as an out-of-memory killer
/// would) costs no request: the pool notices each exit when it happens and starts a
/// replacement in the background, so the next request gets its move within budget plus
/// margin, and the pool is back at its size.
#[test]
fn killing_every_idle_process_between_two_requests_costs_no_request() {
    let dir = std::env::temp_dir().join(format!("kinrow-pids-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let s = server(vec![fake(
        "warm",
        &format!("talk_in {}", dir.display()),
        ";pool=2",
    )]);
    let ask = || {
        timed(
            &s,
            "/v1/suggest",
            &position(json!({"name": "warm", "time_ms": 300})),
        )
    };
    let (status, body, _) = ask();
    assert_eq!(status, 200, "{body}");
    let mut killed: Vec<String> = Vec::new();
    for _round in 0..2 {
        let live: Vec<String> = pids(&dir)
            .into_iter()
            .filter(|p| !killed.contains(p))
            .collect();
        assert_eq!(live.len(), 2, "{live:?}");
        let status = std::process::Command::new("kill")
            .arg("-9")
            .args(&live)
            .status()
            .unwrap();
        assert!(status.success());
        killed.extend(live);
        let (status, body, took) = ask();
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["move"], json!({"row": 7, "col": 7, "piece": "mark"}));
        // The test configuration's margin is 100 ms; the slack is the test machine's.
        assert!(took < Duration::from_millis(300 + 100 + 400), "{took:?}");
        // Both replaced: two new processes, whatever the request took.
        let t = Instant::now();
        while pids(&dir).len() < killed.len() + 2 && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(pids(&dir).len(), killed.len() + 2, "{:?}", pids(&dir));
    }
    let engines: Value = s.get("/v1/engines").json().unwrap();
    let warm = engines["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "warm")
        .expect("listed")
        .clone();
    assert_eq!(warm["available"], true, "{warm}");
    assert!(warm.get("unavailable_reason").is_none(), "{warm}");
    let metrics = s.get("/metrics").text().unwrap();
    assert_eq!(
        metric(&metrics, "kinrow_external_restarts_total", "warm"),
        Some(4.0),
        "{metrics}"
    );
    assert_eq!(
        searches(&metrics, "warm", "engine_unavailable"),
        0,
        "{metrics}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A brain that dies at every start-up (or never answers `START`) is marked unavailable
/// after a few tries: a request naming it gets a clear 503 at once, `/v1/engines` and
/// `/healthz` say so, and the server goes on serving everything else.
#[test]
fn a_brain_that_always_dies_at_start_is_a_clear_503_and_the_server_stays_healthy() {
    let s = server(vec![
        fake("dead", "die_at_start", ";retry_ms=60000"),
        fake("mute", "silent", ";start_ms=200;retry_ms=60000"),
        fake("talk", "talk", ""),
    ]);
    for (name, why) in [
        ("dead", "exited before answering"),
        ("mute", "hung at start-up"),
    ] {
        let (status, body, took) = timed(
            &s,
            "/v1/suggest",
            &position(json!({"name": name, "time_ms": 300})),
        );
        assert_error(status, &body, 503, "engine_unavailable", None);
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(name) && message.contains("unavailable") && message.contains(why),
            "{message}"
        );
        // At once: nothing waits for a brain known not to start.
        assert!(took < Duration::from_millis(300), "{name} took {took:?}");
    }
    let r = s.get("/v1/engines");
    assert_eq!(r.status(), 200);
    let engines: Value = r.json().unwrap();
    for e in engines["engines"].as_array().unwrap() {
        let down = e["name"] == "dead" || e["name"] == "mute";
        assert_eq!(e["available"], !down, "{e}");
        assert_eq!(e.get("unavailable_reason").is_some(), down, "{e}");
    }
    let health = s.get("/healthz");
    assert_eq!(health.status(), 200);
    let health: Value = health.json().unwrap();
    assert_eq!(health["status"], "ok", "{health}");
    assert_eq!(
        health["unavailable_engines"],
        json!(["dead", "mute"]),
        "{health}"
    );
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "talk", "time_ms": 300})),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = s.call(
        "/v1/suggest",
        &position(json!({"name": "threat", "time_ms": 300})),
    );
    assert_eq!(status, 200, "{body}");
    let metrics = s.get("/metrics").text().unwrap();
    assert_eq!(
        metric(&metrics, "kinrow_external_available", "dead"),
        Some(0.0),
        "{metrics}"
    );
    assert_eq!(
        metric(&metrics, "kinrow_external_available", "talk"),
        Some(1.0),
        "{metrics}"
    );
    assert!(
        metric(&metrics, "kinrow_external_failed_starts_total", "dead").is_some_and(|n| n >= 3.0),
        "{metrics}"
    );
}
