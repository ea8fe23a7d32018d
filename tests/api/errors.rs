//! Every error code of the API, provoked by a real bad request over HTTP, answers the
//! JSON error shape with its stable code and the offending field.

use crate::support::{assert_error, spawn};
use kinrow_engine::EngineKind;
use serde_json::{json, Value};

fn ttt() -> Value {
    json!({"m": 3, "n": 3, "k": 3})
}

#[test]
fn malformed_json_is_invalid_json() {
    let s = spawn();
    for body in [
        "{\"rules\": {\"m\": 3,",
        "not json",
        "{} trailing",
        "",
        "{'a': 1}",
    ] {
        let r = s.post_raw("/v1/state", "application/json", body);
        let status = r.status().as_u16();
        let b: Value = r.json().unwrap();
        assert_error(status, &b, 400, "invalid_json", None);
    }
}

#[test]
fn wrong_shapes_are_invalid_request_with_their_field() {
    let s = spawn();
    let cases = [
        (
            json!({"rules": {"m": 3, "n": 3, "k": 3, "extra": 1}}),
            "rules.extra",
        ),
        (json!({"rules": ttt(), "colour": "red"}), "colour"),
        (json!({"rules": {"m": "3", "n": 3, "k": 3}}), "rules.m"),
        (json!({"rules": {"m": 3.5, "n": 3, "k": 3}}), "rules.m"),
        (json!({"rules": {"m": 3, "n": 3, "k": 1e300}}), "rules.k"),
        (
            json!({"rules": {"m": 3, "n": 3, "k": 9_223_372_036_854_775_808u64}}),
            "rules.k",
        ),
        (
            json!({"rules": ttt(), "board": ["...", 5, "..."]}),
            "board[1]",
        ),
        (json!({"rules": ttt(), "to_move": "z"}), "to_move"),
        (
            json!({"rules": {"m": 3, "n": 3, "k": 3, "pieces": {"x": {"blocks": 1}}}}),
            "rules.pieces.x.blocks",
        ),
    ];
    for (body, field) in cases {
        let (st, b) = s.call("/v1/state", &body);
        assert_error(st, &b, 400, "invalid_request", Some(field));
    }
    let (st, b) = s.call("/v1/state", &json!({"board": ["..."]}));
    assert_error(st, &b, 400, "invalid_request", None);
    let (st, b) = s.call("/v1/state", &json!([1, 2]));
    assert_error(st, &b, 400, "invalid_request", None);
    let (st, b) = s.call(
        "/v1/suggest",
        &json!({"rules": ttt(), "engine": {"name": "x", "speed": 3}}),
    );
    assert_error(st, &b, 400, "invalid_request", Some("engine.speed"));
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "move": {"row": 0, "col": 0, "piece": "laser"}}),
    );
    assert_error(st, &b, 400, "invalid_request", Some("move.piece"));
}

#[test]
fn bad_boards_are_invalid_board() {
    let s = spawn();
    let rules15 = json!({"m": 15, "n": 15, "k": 5});
    let mut board = vec!["..............."; 15];
    board[3] = "..............";
    let (st, b) = s.call("/v1/state", &json!({"rules": rules15, "board": board}));
    assert_error(st, &b, 422, "invalid_board", Some("board[3]"));
    assert!(b["error"]["message"].as_str().unwrap().contains("14"));

    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": ["...", ".q.", "..."]}),
    );
    assert_error(st, &b, 422, "invalid_board", Some("board[1]"));
    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": ["...", "..."]}),
    );
    assert_error(st, &b, 422, "invalid_board", Some("board"));
}

#[test]
fn impossible_rules_are_invalid_rules() {
    let s = spawn();
    let cases = [
        (json!({"m": 3, "n": 3, "k": 0}), "rules.k"),
        (json!({"m": 65, "n": 3, "k": 3}), "rules.m"),
        (json!({"m": 3, "n": 0, "k": 3}), "rules.n"),
        (json!({"m": -1, "n": 3, "k": 3}), "rules.m"),
        (json!({"m": 3, "n": 3, "k": -4}), "rules.k"),
        (
            json!({"m": 3, "n": 3, "k": 3, "pieces": {"o": {"bomb": 65}}}),
            "rules.pieces.o.bomb",
        ),
        (
            json!({"m": 3, "n": 3, "k": 3, "pieces": {"x": {"remove": -1}}}),
            "rules.pieces.x.remove",
        ),
        (
            json!({"m": 3, "n": 3, "k": 3, "pieces": {"x": {"block": 1000}}}),
            "rules.pieces.x.block",
        ),
    ];
    for (rules, field) in cases {
        for path in ["/v1/state", "/v1/suggest"] {
            let (st, b) = s.call(path, &json!({"rules": rules}));
            assert_error(st, &b, 422, "invalid_rules", Some(field));
        }
    }
}

#[test]
fn turn_problems_are_inconsistent_turn() {
    let s = spawn();
    // Counts that no game reaches.
    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": ["xxx", "...", "..."]}),
    );
    assert_error(st, &b, 422, "inconsistent_turn", Some("to_move"));
    // A given side that contradicts the counts.
    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": ["x..", "...", "..."], "to_move": "x"}),
    );
    assert_error(st, &b, 422, "inconsistent_turn", Some("to_move"));
    // Special pieces in play: the counts prove nothing, to_move is required.
    let (st, b) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 3, "n": 3, "k": 3, "pieces": {"x": {"block": 1}}}}),
    );
    assert_error(st, &b, 422, "inconsistent_turn", Some("to_move"));
}

#[test]
fn finished_games_are_game_over() {
    let s = spawn();
    let won = json!({"rules": ttt(), "board": ["xxx", "oo.", "..."]});
    let (st, b) = s.call("/v1/suggest", &won);
    assert_error(st, &b, 422, "game_over", None);
    let mut play = won.clone();
    play["move"] = json!({"row": 2, "col": 2});
    let (st, b) = s.call("/v1/play", &play);
    assert_error(st, &b, 422, "game_over", None);
    let drawn = json!({"rules": ttt(), "board": ["xox", "xoo", "oxx"]});
    let (st, b) = s.call("/v1/suggest", &drawn);
    assert_error(st, &b, 422, "game_over", None);
}

#[test]
fn illegal_moves_are_illegal_move() {
    let s = spawn();
    let cases = [
        (json!({"row": 0, "col": 0}), "move"),
        (json!({"row": 3, "col": 0}), "move.row"),
        (json!({"row": 0, "col": -1}), "move.col"),
        (json!({"row": 1, "col": 1, "piece": "block"}), "move.piece"),
        (json!({"row": 1, "col": 1, "piece": "bomb"}), "move.piece"),
    ];
    for (mv, field) in cases {
        let (st, b) = s.call(
            "/v1/play",
            &json!({"rules": ttt(), "board": ["x..", "...", "..."], "move": mv}),
        );
        assert_error(st, &b, 422, "illegal_move", Some(field));
    }
    // remove on an empty cell
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": {"m": 3, "n": 3, "k": 3, "pieces": {"o": {"remove": 1}}},
                "board": ["x..", "...", "..."], "to_move": "o",
                "move": {"row": 2, "col": 2, "piece": "remove"}}),
    );
    assert_error(st, &b, 422, "illegal_move", Some("move"));
}

#[test]
fn unknown_engines_are_unknown_engine() {
    let s = spawn();
    let (st, b) = s.call(
        "/v1/suggest",
        &json!({"rules": ttt(), "engine": {"name": "deep-blue"}}),
    );
    assert_error(st, &b, 422, "unknown_engine", Some("engine.name"));
    for kind in EngineKind::ALL {
        assert!(
            b["error"]["message"]
                .as_str()
                .unwrap()
                .contains(kind.name()),
            "the message lists the engines"
        );
    }
}

#[test]
fn absurd_limits_are_invalid_limits() {
    let s = spawn();
    let cases = [
        (json!({"time_ms": -5}), "engine.time_ms"),
        (json!({"time_ms": 0}), "engine.time_ms"),
        (json!({"depth": 0}), "engine.depth"),
        (json!({"depth": -1}), "engine.depth"),
        (json!({"depth": 1_000_000}), "engine.depth"),
        (json!({"nodes": -1}), "engine.nodes"),
        (json!({"nodes": 0}), "engine.nodes"),
        (json!({"nodes": 100_000_000_000_000i64}), "engine.nodes"),
        (
            json!({"mistake_probability": 1.5}),
            "engine.mistake_probability",
        ),
        (
            json!({"mistake_probability": -0.1}),
            "engine.mistake_probability",
        ),
        (json!({"level": 0}), "engine.level"),
        (json!({"level": 11}), "engine.level"),
        // The tree engines but perfect cannot overlook branches: refused, not ignored.
        (
            json!({"name": "minimax", "mistake_probability": 0.2}),
            "engine.mistake_probability",
        ),
        (
            json!({"name": "auto", "mistake_probability": 0.2}),
            "engine.mistake_probability",
        ),
        (
            json!({"name": "mcts", "mistake_probability": 0.2}),
            "engine.mistake_probability",
        ),
    ];
    for (engine, field) in cases {
        let (st, b) = s.call("/v1/suggest", &json!({"rules": ttt(), "engine": engine}));
        assert_error(st, &b, 422, "invalid_limits", Some(field));
    }
}

#[test]
fn unknown_paths_and_wrong_methods_answer_json() {
    let s = spawn();
    let r = s.get("/v2/nothing");
    assert_eq!(r.status(), 404);
    let b: Value = r.json().unwrap();
    assert_error(404, &b, 404, "not_found", None);

    for (method, path, allow) in [
        (reqwest::Method::GET, "/v1/suggest", "POST"),
        (reqwest::Method::PUT, "/v1/state", "POST"),
        (reqwest::Method::DELETE, "/v1/play", "POST"),
        (reqwest::Method::POST, "/v1/engines", "GET"),
        (reqwest::Method::POST, "/healthz", "GET"),
        (reqwest::Method::PATCH, "/metrics", "GET"),
        (reqwest::Method::POST, "/openapi.json", "GET"),
    ] {
        let r = s
            .client
            .request(method.clone(), s.url(path))
            .send()
            .unwrap();
        assert_eq!(r.status(), 405, "{method} {path}");
        assert_eq!(r.headers()["allow"], allow, "{method} {path}");
        let b: Value = r.json().unwrap();
        assert_error(405, &b, 405, "method_not_allowed", None);
    }
}

#[test]
fn oversized_bodies_are_413_and_wrong_types_415() {
    let s = spawn();
    let big = format!(
        "{{\"rules\": {{\"m\": 3, \"n\": 3, \"k\": 3}}, \"board\": [\"{}\"]}}",
        "x".repeat(70 * 1024)
    );
    let r = s.post_raw("/v1/suggest", "application/json", big);
    let st = r.status().as_u16();
    let b: Value = r.json().unwrap();
    assert_error(st, &b, 413, "payload_too_large", None);

    for ct in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/xml",
    ] {
        let r = s.post_raw("/v1/state", ct, r#"{"rules": {"m": 3, "n": 3, "k": 3}}"#);
        let st = r.status().as_u16();
        let b: Value = r.json().unwrap();
        assert_error(st, &b, 415, "unsupported_media_type", None);
    }
    // A JSON body with a charset parameter is fine.
    let r = s.post_raw(
        "/v1/state",
        "application/json; charset=utf-8",
        r#"{"rules": {"m": 3, "n": 3, "k": 3}}"#,
    );
    assert_eq!(r.status(), 200);
}

/// Words of serde's that a shape error must never show.
const JARGON: [&str; 7] = [
    "invalid type",
    "sequence",
    "expected struct",
    "a map",
    "at line",
    "variant",
    "unit value",
];

#[test]
fn shape_errors_name_the_field_and_show_the_expected_shape() {
    let s = spawn();
    let rules15 = json!({"m": 15, "n": 15, "k": 5});
    // (body, field, words the message must contain)
    let cases = [
        (
            json!({"rules": rules15, "board": 15}),
            "board",
            &[
                "board must be an array of rules.n strings",
                "\"x../.o./...\"",
                "the number 15",
            ][..],
        ),
        (
            json!({"rules": rules15, "board": {"rows": 15}}),
            "board",
            &["board must be", "not an object"][..],
        ),
        (
            json!({"rules": ttt(), "board": ["...", 5, "..."]}),
            "board[1]",
            &[
                "board[1] must be a row",
                "[\"x\", \".\", \"o\"]",
                "not the number 5",
            ][..],
        ),
        (
            json!({"rules": ttt(), "board": [["x", "..", "."], "...", "..."]}),
            "board[0][1]",
            &["one-character string", "\"..\""][..],
        ),
        (
            json!({"rules": ttt(), "engine": 5}),
            "engine",
            &[
                "engine must be an engine name like \"auto\"",
                "{\"name\": \"minimax\"",
            ][..],
        ),
        (
            json!({"rules": ttt(), "engine": ["auto"]}),
            "engine",
            &["not an array"][..],
        ),
        (
            json!({"rules": ttt(), "to_move": 1}),
            "to_move",
            &["to_move must be \"x\" or \"o\", not the number 1"][..],
        ),
        (
            json!({"rules": ttt(), "to_move": "z"}),
            "to_move",
            &["to_move must be \"x\" or \"o\", not the string \"z\""][..],
        ),
        (
            json!({"rules": ttt(), "include": "move"}),
            "include",
            &["include must be an array", "not the string \"move\""][..],
        ),
        (
            json!({"rules": [3, 3, 3]}),
            "rules",
            &["rules must be an object like {\"m\": 15, \"n\": 15, \"k\": 5}"][..],
        ),
        (
            json!({"rules": {"m": 3, "n": 3, "k": "three"}}),
            "rules.k",
            &["rules.k must be an integer like 3, not the string \"three\""][..],
        ),
        (
            json!({"rules": {"m": 3, "n": 3, "k": 3, "pieces": {"x": [null, null]}}}),
            "rules.pieces.x",
            &[
                "rules.pieces.x must be an object like {\"block\": 1",
                "not an array",
            ][..],
        ),
        (
            json!({"board": ["..."]}),
            "rules",
            &["rules is required"][..],
        ),
        (
            json!({"rules": {"m": 3, "n": 3}}),
            "rules.k",
            &["rules.k is required"][..],
        ),
        (
            json!({"rules": ttt(), "engine": {"nmae": "auto"}}),
            "engine.nmae",
            &["engine has no field \"nmae\"", "\"name\""][..],
        ),
        (
            json!({"rules": ttt(), "overline": false}),
            "overline",
            &["the request has no field \"overline\"", "\"rules\""][..],
        ),
    ];
    for (body, field, words) in cases {
        let (st, b) = s.call("/v1/suggest", &body);
        assert_error(st, &b, 400, "invalid_request", Some(field));
        let message = b["error"]["message"].as_str().unwrap();
        for w in words {
            assert!(message.contains(w), "{body}: {message:?} lacks {w:?}");
        }
        for j in JARGON {
            assert!(!message.contains(j), "{body}: {message:?} says {j:?}");
        }
    }
    let (st, b) = s.call("/v1/play", &json!({"rules": ttt(), "move": {"row": 1}}));
    assert_error(st, &b, 400, "invalid_request", Some("move.col"));
    let (st, b) = s.call("/v1/play", &json!({"rules": ttt(), "move": [1, 1]}));
    assert_error(st, &b, 400, "invalid_request", Some("move"));
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("move must be an object like {\"row\": 7")
            && message.ends_with("not an array"),
        "{message}"
    );
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "move": {"row": 1, "col": 1, "piece": "laser"}}),
    );
    assert_error(st, &b, 400, "invalid_request", Some("move.piece"));
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("\"bomb\"") && message.contains("\"laser\""),
        "{message}"
    );
    let (st, b) = s.call("/v1/state", &json!([1, 2]));
    assert_error(st, &b, 400, "invalid_request", None);
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the body must be a JSON object like {\"rules\""),
        "{message}"
    );
}

#[test]
fn board_sizes_in_any_notation_are_checked_against_the_rules() {
    let s = spawn();
    let (st, b) = s.call("/v1/state", &json!({"rules": ttt(), "board": "x../.o."}));
    assert_error(st, &b, 422, "invalid_board", Some("board"));
    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": [["x", "."], [".", "o", "."], [".", ".", "."]]}),
    );
    assert_error(st, &b, 422, "invalid_board", Some("board[0]"));
    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": "x../.q./..."}),
    );
    assert_error(st, &b, 422, "invalid_board", Some("board[1]"));
}
