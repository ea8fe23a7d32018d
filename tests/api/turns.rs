//! One call per turn, as a frontend plays: `after` in every suggestion and play answer,
//! `/v1/play` with `reply`, answers sent back unchanged; the shorthand input forms; `include`;
//! compressed answers.

use std::io::Read;

use crate::support::{assert_error, spawn, TestServer};
use serde_json::{json, Value};

const EMPTY15: [&str; 15] = ["..............."; 15];

fn ttt() -> Value {
    json!({"m": 3, "n": 3, "k": 3})
}

/// The empty cell nearest the centre (ties in reading order): a simple, legal "human".
fn nearest_centre_empty(board: &Value) -> (usize, usize) {
    let rows: Vec<&str> = board
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let (n, m) = (rows.len(), rows[0].len());
    let mut cells: Vec<(usize, usize)> = (0..n)
        .flat_map(|r| (0..m).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r].as_bytes()[c] == b'.')
        .collect();
    let dist = |&(r, c): &(usize, usize)| (2 * r).abs_diff(n - 1) + (2 * c).abs_diff(m - 1);
    cells.sort_by_key(|cell| (dist(cell), *cell));
    cells[0]
}

fn marks(board: &Value) -> usize {
    board
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().bytes().filter(|&b| b != b'.').count())
        .sum()
}

/// `after` is the position `/v1/state` gives for its own rules, board and side.
fn assert_after_is_the_state(s: &TestServer, after: &Value) {
    let (st, state) = s.call("/v1/state", after);
    assert_eq!(st, 200, "{after} -> {state}");
    for key in [
        "rules",
        "board",
        "to_move",
        "status",
        "winner",
        "winning_line",
    ] {
        assert_eq!(after[key], state[key], "{key} of {after}");
    }
}

#[test]
fn a_whole_15x15_game_through_play_with_reply_sending_after_back_unchanged() {
    let s = spawn();
    let mut next = json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": EMPTY15});
    let mut turns = 0;
    let result = loop {
        // The "human" is `greedy`, asked with the same `after` (answer-only fields and all).
        let mut ask = next.clone();
        ask["engine"] = json!({"name": "greedy", "seed": turns});
        ask["include"] = json!(["move"]);
        let (st, hint) = s.call("/v1/suggest", &ask);
        assert_eq!(st, 200, "turn {turns}: {hint}");
        let (row, col) = (hint["move"]["row"].clone(), hint["move"]["col"].clone());
        let mut body = next.clone();
        body["move"] = json!({"row": row, "col": col});
        body["reply"] = json!({"name": "threat", "seed": 5});
        let (st, b) = s.call("/v1/play", &body);
        assert_eq!(st, 200, "turn {turns}: {b}");
        turns += 1;
        assert_eq!(b["move"], json!({"row": row, "col": col, "piece": "mark"}));
        let after = &b["after"];
        if b["status"] != "in_progress" {
            // The human's move ended the game: no reply, `after` is that position.
            assert_eq!(b["reply"], Value::Null);
            assert_eq!(after["board"], b["board"]);
            break after.clone();
        }
        let reply = &b["reply"];
        assert_eq!(reply["engine"], "threat");
        assert_eq!(reply["to_move"], "o");
        assert_eq!(reply["after"], *after, "the reply's after is the answer's");
        let (r, c) = (
            reply["move"]["row"].as_u64().unwrap() as usize,
            reply["move"]["col"].as_u64().unwrap() as usize,
        );
        assert_eq!(
            &b["board"][r].as_str().unwrap()[c..=c],
            ".",
            "the reply is legal"
        );
        assert_eq!(&after["board"][r].as_str().unwrap()[c..=c], "o");
        assert_eq!(marks(&after["board"]), 2 * turns);
        if turns % 10 == 1 {
            assert_after_is_the_state(&s, after);
        }
        if after["status"] != "in_progress" {
            break after.clone();
        }
        assert_eq!(after["to_move"], "x");
        // Sent back exactly as it came, answer-only fields and all.
        next = after.clone();
        assert!(turns < 113, "the game ends");
    };
    assert_after_is_the_state(&s, &result);
    assert_ne!(result["status"], "in_progress");
    if result["status"] != "draw" {
        assert_eq!(result["winning_line"].as_array().unwrap().len(), 5);
    }
    eprintln!("{turns} turns, {}", result["status"]);
}

#[test]
fn suggest_answers_after_which_is_the_next_request() {
    let s = spawn();
    let mut next = json!({"rules": ttt(), "board": ["x..", ".o.", "..."]});
    let mut plies = 0;
    loop {
        let mut body = next.clone();
        body["engine"] = json!({"name": "perfect", "seed": 3});
        let (st, b) = s.call("/v1/suggest", &body);
        assert_eq!(st, 200, "{b}");
        let after = &b["after"];
        let (r, c) = (
            b["move"]["row"].as_u64().unwrap() as usize,
            b["move"]["col"].as_u64().unwrap() as usize,
        );
        let side = b["to_move"].as_str().unwrap();
        assert_eq!(&after["board"][r].as_str().unwrap()[c..=c], side);
        assert_ne!(after["to_move"], b["to_move"]);
        assert_after_is_the_state(&s, after);
        plies += 1;
        if after["status"] != "in_progress" {
            // Perfect play from here is a draw.
            assert_eq!(after["status"], "draw");
            break;
        }
        next = after.clone();
    }
    assert_eq!(plies, 7);
}

#[test]
fn special_pieces_come_back_decremented_in_after() {
    let s = spawn();
    let body = json!({
        "rules": {"m": 7, "n": 7, "k": 4,
                  "pieces": {"x": {"block": 1, "remove": 1}, "o": {"block": 1, "remove": 1, "bomb": 1}}},
        "board": [".......", ".......", "..oo...", "...x...", "...x...", ".......", "......."],
        "to_move": "x",
        "move": {"row": 2, "col": 1, "piece": "block"},
        "reply": "priority"
    });
    let (st, b) = s.call("/v1/play", &body);
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["rules"]["pieces"]["x"]["block"], 0);
    let after = &b["after"];
    let reply = &b["reply"]["move"];
    let o = &after["rules"]["pieces"]["o"];
    let o_used = 3
        - o["block"].as_u64().unwrap()
        - o["remove"].as_u64().unwrap()
        - o["bomb"].as_u64().unwrap();
    assert_eq!(o_used, u64::from(reply["piece"] != "mark"), "{b}");
    assert_eq!(after["to_move"], "x");
    assert_eq!(after["status"], "in_progress");
    assert_after_is_the_state(&s, after);
    // And it goes on: the next turn from `after` as it is.
    let mut next = after.clone();
    let (row, col) = nearest_centre_empty(&after["board"]);
    next["move"] = json!({"row": row, "col": col});
    next["reply"] = json!("priority");
    let (st, b) = s.call("/v1/play", &next);
    assert_eq!(st, 200, "{b}");
}

#[test]
fn play_without_reply_or_after_a_winning_move_has_no_reply() {
    let s = spawn();
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "board": ["x..", "...", "..."], "move": {"row": 1, "col": 1}}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["reply"], Value::Null);
    assert_eq!(b["after"]["board"], json!(["x..", ".o.", "..."]));
    assert_eq!(b["after"]["to_move"], "x");
    // x completes the top row: the game is over, the reply is skipped.
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "board": ["xx.", "oo.", "..."], "move": {"row": 0, "col": 2},
                "reply": "perfect"}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["reply"], Value::Null);
    assert_eq!(b["after"]["status"], "x_wins");
    assert_eq!(b["after"]["winner"], "x");
    // A bad reply is refused before anything is played, with its own field.
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "move": {"row": 0, "col": 0}, "reply": {"time_ms": 0}}),
    );
    assert_error(st, &b, 422, "invalid_limits", Some("reply.time_ms"));
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "move": {"row": 0, "col": 0}, "reply": "deep-blue"}),
    );
    assert_error(st, &b, 422, "unknown_engine", Some("reply.name"));
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "move": {"row": 0, "col": 0}, "reply": {"level": 11}}),
    );
    assert_error(st, &b, 422, "invalid_limits", Some("reply.level"));
    // The reply plays at its level, on the common value scale.
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": ttt(), "move": {"row": 0, "col": 0},
                "reply": {"name": "minimax", "level": 2, "seed": 4}}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["reply"]["limits"]["level"], 2);
    let v = b["reply"]["evaluation"]["value"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&v), "{b}");
}

#[test]
fn answer_only_fields_are_ignored_and_other_unknown_fields_refused() {
    let s = spawn();
    let body = json!({"rules": ttt(), "board": ["x..", "...", "..."], "to_move": "o",
                      "status": "in_progress", "winner": null, "winning_line": null,
                      "legal_moves": 8, "forbidden": []});
    for path in ["/v1/state", "/v1/suggest"] {
        let (st, b) = s.call(path, &body);
        assert_eq!(st, 200, "{path}: {b}");
    }
    let mut play = body.clone();
    play["move"] = json!({"row": 2, "col": 2});
    let (st, b) = s.call("/v1/play", &play);
    assert_eq!(st, 200, "{b}");
    // A typo is still an error.
    let mut typo = body.clone();
    typo["to_mvoe"] = json!("o");
    let (st, b) = s.call("/v1/state", &typo);
    assert_error(st, &b, 400, "invalid_request", Some("to_mvoe"));
}

#[test]
fn shorthand_forms_give_the_same_answer_as_the_long_ones() {
    let s = spawn();
    let long = json!({"rules": ttt(), "board": ["x..", ".o.", "..."],
                      "engine": {"name": "perfect", "seed": 9}});
    let (st, want) = s.call("/v1/suggest", &long);
    assert_eq!(st, 200, "{want}");
    let shapes = [
        json!("x../.o./..."),
        json!([["x", ".", "."], [".", "o", "."], [".", ".", "."]]),
        json!(["X..", ["-", "O", "_"], "..."]),
    ];
    for (board, engine) in shapes.iter().zip([
        json!({"name": "PERFECT", "seed": 9}),
        json!({"name": "Perfect", "seed": 9}),
        json!({"name": "perfect", "seed": 9}),
    ]) {
        let (st, got) = s.call(
            "/v1/suggest",
            &json!({"rules": ttt(), "board": board, "engine": engine}),
        );
        assert_eq!(st, 200, "{board}: {got}");
        for key in ["move", "scores", "moves", "after", "engine"] {
            assert_eq!(got[key], want[key], "{key} with {board}");
        }
    }
    // "engine": "name" is {"name": "name"}.
    let (st, got) = s.call(
        "/v1/suggest",
        &json!({"rules": ttt(), "board": "x../.o./...", "engine": "Threat"}),
    );
    assert_eq!(st, 200, "{got}");
    assert_eq!(got["engine"], "threat");
    let (st, got) = s.call(
        "/v1/state",
        &json!({"rules": ttt(), "board": "xx./oo./..."}),
    );
    assert_eq!(st, 200, "{got}");
    assert_eq!(got["board"], json!(["xx.", "oo.", "..."]));
    assert_eq!(got["legal_moves"], 5);
}

#[test]
fn include_trims_the_answer() {
    let s = spawn();
    let base = json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": EMPTY15,
                      "engine": {"name": "threat", "seed": 1}});
    let keys = |b: &Value| {
        let mut k: Vec<String> = b.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let (st, full) = s.call("/v1/suggest", &base);
    assert_eq!(st, 200);
    assert_eq!(
        keys(&full),
        [
            "after",
            "engine",
            "evaluation",
            "limits",
            "move",
            "moves",
            "pv",
            "scores",
            "stats",
            "to_move"
        ]
    );
    for (include, want) in [
        (
            json!(["move", "evaluation", "pv"]),
            vec!["evaluation", "move", "pv"],
        ),
        (json!(["after"]), vec!["after", "move"]),
        (json!([]), vec!["move"]),
    ] {
        let mut body = base.clone();
        body["include"] = include.clone();
        let (st, b) = s.call("/v1/suggest", &body);
        assert_eq!(st, 200, "{b}");
        assert_eq!(keys(&b), want, "{include}");
        assert_eq!(b["move"], full["move"]);
        for k in want {
            assert_eq!(b[k], full[k], "{k}");
        }
    }
    let mut body = base.clone();
    body["include"] = json!(["move", "heatmap"]);
    let (st, b) = s.call("/v1/suggest", &body);
    assert_error(st, &b, 400, "invalid_request", Some("include[1]"));
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("\"evaluation\"") && message.contains("heatmap"),
        "{message}"
    );
    // On play, `include` trims the reply.
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": {"m": 15, "n": 15, "k": 5}, "move": {"row": 7, "col": 7},
                "reply": "threat", "include": ["evaluation"]}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(keys(&b["reply"]), ["evaluation", "move"]);
    assert_eq!(b["after"]["to_move"], "x");
}

fn gunzip(bytes: &[u8]) -> Value {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("a gzip body");
    serde_json::from_str(&text).expect("JSON inside")
}

#[test]
fn answers_are_compressed_when_the_client_accepts_it() {
    let s = spawn();
    let body = json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": EMPTY15,
                      "engine": {"name": "threat", "seed": 1}});
    let plain = s.post("/v1/suggest", &body);
    assert_eq!(plain.status(), 200);
    assert!(plain.headers().get("content-encoding").is_none());
    let plain_bytes = plain.bytes().unwrap();
    let gz = s
        .client
        .post(s.url("/v1/suggest"))
        .header("accept-encoding", "gzip")
        .json(&body)
        .send()
        .unwrap();
    assert_eq!(gz.status(), 200);
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let gz_bytes = gz.bytes().unwrap();
    assert!(
        gz_bytes.len() * 3 < plain_bytes.len(),
        "{} bytes gzipped, {} plain",
        gz_bytes.len(),
        plain_bytes.len()
    );
    // The same answer but for its timings.
    let mut plain: Value = serde_json::from_slice(&plain_bytes).unwrap();
    let mut unzipped = gunzip(&gz_bytes);
    for answer in [&mut plain, &mut unzipped] {
        answer.as_object_mut().unwrap().remove("stats");
    }
    assert_eq!(unzipped, plain);

    // Errors are the same JSON, compressed too.
    let r = s
        .client
        .post(s.url("/v1/suggest"))
        .header("accept-encoding", "gzip")
        .json(&json!({"rules": {"m": 3, "n": 3, "k": 0}}))
        .send()
        .unwrap();
    assert_eq!(r.status(), 422);
    let err = if r.headers().get("content-encoding").is_some() {
        gunzip(&r.bytes().unwrap())
    } else {
        r.json().unwrap()
    };
    assert_eq!(err["error"]["code"], "invalid_rules");
    // And the metrics still count (and can be fetched compressed).
    let r = s
        .client
        .get(s.url("/metrics"))
        .header("accept-encoding", "gzip")
        .send()
        .unwrap();
    assert_eq!(r.status(), 200);
    let mut text = String::new();
    flate2::read::GzDecoder::new(&r.bytes().unwrap()[..])
        .read_to_string(&mut text)
        .unwrap();
    assert!(
        text.contains("endpoint=\"/v1/suggest\"") && text.contains("status=\"422\""),
        "{text}"
    );
}
