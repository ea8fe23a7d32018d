//! `engine.threads`: accepted, cut to the server's `max_threads` (what was allowed in
//! `limits.threads`, what ran in `stats.threads`), refused below 1 (422) and when not a
//! whole number (400), listed in `/v1/engines`; `/v1/analyse` and `/v1/play`'s reply
//! take it too.

use crate::support::{assert_error, spawn, spawn_with};
use kinrow_server::Config;
use serde_json::{json, Value};

fn capped(max_threads: usize) -> crate::support::TestServer {
    let mut config = Config::for_tests();
    config.max_threads = max_threads;
    spawn_with(config)
}

/// A 15x15 middle game with no forced win: `auto` answers by its pattern search.
fn gomoku(engine: Value) -> Value {
    json!({
        "rules": {"m": 15, "n": 15, "k": 5},
        "board": [
            "...............", "...............", "...............", "...............",
            "...............", "......o........", ".....xxo.......", "......xo.......",
            ".....ox.x......", "...............", "...............", "...............",
            "...............", "...............", "..............."
        ],
        "engine": engine
    })
}

#[test]
fn threads_are_cut_to_the_cap_and_reported() {
    let s = capped(2);
    for (asked, allowed) in [
        (json!(8), 2),
        (json!(2), 2),
        (json!(1), 1),
        (Value::Null, 1),
    ] {
        let mut engine = json!({"name": "auto", "nodes": 20000, "seed": 1});
        if !asked.is_null() {
            engine["threads"] = asked.clone();
        }
        let (st, b) = s.call("/v1/suggest", &gomoku(engine));
        assert_eq!(st, 200, "{b}");
        assert_eq!(b["limits"]["threads"], allowed, "asked {asked}");
        assert_eq!(
            b["stats"]["threads"], allowed,
            "asked {asked}: {}",
            b["stats"]
        );
        assert!(b["stats"]["path"]
            .as_str()
            .unwrap()
            .starts_with("pattern search"));
        assert!(b["stats"]["nodes"].as_u64().unwrap() <= 20000 + 2 * 96);
    }
    // Another engine is allowed the threads but runs on one.
    let (st, b) = s.call(
        "/v1/suggest",
        &gomoku(json!({"name": "minimax", "nodes": 2000, "threads": 2})),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["limits"]["threads"], 2);
    assert_eq!(b["stats"]["threads"], 1);
    // The reply of /v1/play takes the field too.
    let mut play = gomoku(Value::Null);
    play.as_object_mut().unwrap().remove("engine");
    play["move"] = json!({"row": 9, "col": 9});
    play["reply"] = json!({"name": "auto", "nodes": 5000, "threads": 3});
    let (st, b) = s.call("/v1/play", &play);
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["reply"]["limits"]["threads"], 2, "{b}");
}

#[test]
fn the_default_cap_is_one_thread() {
    let s = spawn();
    let (st, b) = s.call(
        "/v1/suggest",
        &gomoku(json!({"name": "auto", "nodes": 5000, "threads": 4})),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["limits"]["threads"], 1);
    assert_eq!(b["stats"]["threads"], 1);
    let engines: Value = s.get("/v1/engines").json().unwrap();
    assert_eq!(engines["limits"]["max_threads"], 1);
}

#[test]
fn threads_below_one_are_422_and_other_types_400() {
    let s = capped(4);
    for bad in [0, -1, -100] {
        let (st, b) = s.call(
            "/v1/suggest",
            &gomoku(json!({"name": "auto", "threads": bad})),
        );
        assert_error(st, &b, 422, "invalid_limits", Some("engine.threads"));
        let message = b["error"]["message"].as_str().unwrap();
        assert!(message.contains("at least 1"), "{message}");
    }
    for bad in [json!("x"), json!(1.5), json!([2]), json!(true)] {
        let (st, b) = s.call(
            "/v1/suggest",
            &gomoku(json!({"name": "auto", "threads": bad})),
        );
        assert_error(st, &b, 400, "invalid_request", Some("engine.threads"));
    }
    let (st, b) = s.call(
        "/v1/analyse",
        &gomoku(json!({"name": "auto", "threads": 0})),
    );
    assert_error(st, &b, 422, "invalid_limits", Some("engine.threads"));
}

#[test]
fn engines_list_the_field_and_the_cap() {
    let s = capped(3);
    let body: Value = s.get("/v1/engines").json().unwrap();
    assert_eq!(body["limits"]["max_threads"], 3);
    for e in body["engines"].as_array().unwrap() {
        let reads = e["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "threads");
        assert_eq!(reads, e["name"] == "auto", "{}", e["name"]);
    }
}

/// `--max-threads` (`KINROW_MAX_THREADS`): 1 by default, 1 to 64.
#[test]
fn the_cap_is_configured_within_1_to_64() {
    use kinrow_server::ServeArgs;
    let with = |t: Option<usize>| {
        ServeArgs {
            max_threads: t,
            ..ServeArgs::default()
        }
        .into_config()
    };
    assert_eq!(with(None).unwrap().max_threads, 1);
    assert_eq!(with(Some(4)).unwrap().max_threads, 4);
    assert_eq!(with(Some(64)).unwrap().max_threads, 64);
    for bad in [0, 65] {
        let e = with(Some(bad)).unwrap_err();
        assert!(e.contains("--max-threads"), "{e}");
    }
}
