//! Black-box tests of every endpoint, against the real server on port 0 over HTTP.

use crate::support::{spawn, spawn_with};
use kinrow_engine::EngineKind;
use kinrow_game::{Player, Position, Rules};
use kinrow_server::Config;
use serde_json::{json, Value};

#[test]
fn healthz_answers_ok() {
    let s = spawn();
    let r = s.get("/healthz");
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().unwrap(), json!({"status": "ok"}));
}

#[test]
fn engines_lists_the_whole_registry_with_the_limits() {
    let mut config = Config::for_tests();
    config.max_time = std::time::Duration::from_millis(5000);
    let s = spawn_with(config);
    let r = s.get("/v1/engines");
    assert_eq!(r.status(), 200);
    let body: Value = r.json().unwrap();
    let names: Vec<&str> = body["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, registry);
    for e in body["engines"].as_array().unwrap() {
        assert!(!e["description"].as_str().unwrap().is_empty());
        assert!(!e["raw_unit"].as_str().unwrap().is_empty());
        assert!(e["parameters"].is_array());
    }
    let defaults: Vec<&Value> = body["engines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["default"] == true)
        .collect();
    if registry.is_empty() {
        assert_eq!(body["default"], Value::Null);
    } else {
        assert_eq!(defaults.len(), 1);
        assert_eq!(defaults[0]["name"], body["default"]);
        let want = if registry.contains(&"auto") {
            "auto"
        } else {
            registry[0]
        };
        assert_eq!(body["default"], want);
    }
    assert_eq!(body["limits"]["max_time_ms"], 5000);
    assert_eq!(body["limits"]["max_body_bytes"], 65536);
    assert_eq!(body["limits"]["max_side"], 64);
}

#[test]
fn state_reports_turn_status_and_winning_line() {
    let s = spawn();
    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["xX.", "Oo-", "_.."]}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["board"], json!(["xx.", "oo.", "..."]));
    assert_eq!(b["to_move"], "x");
    assert_eq!(b["status"], "in_progress");
    assert_eq!(b["winner"], Value::Null);
    assert_eq!(b["winning_line"], Value::Null);
    assert_eq!(b["legal_moves"], 5);

    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["xxx", "oo.", "..."]}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["status"], "x_wins");
    assert_eq!(b["winner"], "x");
    assert_eq!(b["to_move"], "o");
    assert_eq!(b["legal_moves"], 0);
    let mut line: Vec<(u64, u64)> = b["winning_line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["row"].as_u64().unwrap(), c["col"].as_u64().unwrap()))
        .collect();
    line.sort();
    assert_eq!(line, vec![(0, 0), (0, 1), (0, 2)]);

    let (st, b) = s.call(
        "/v1/state",
        &json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["xox", "xoo", "oxx"]}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["status"], "draw");

    // JSON Schema counts 3.0 as an integer, and so does the API.
    let (st, b) = s.call("/v1/state", &json!({"rules": {"m": 3.0, "n": 3, "k": 3.0}}));
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["rules"]["m"], 3);

    // The empty board when omitted; the rules come back with full hands.
    let (st, b) = s.call("/v1/state", &json!({"rules": {"m": 4, "n": 2, "k": 3}}));
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["board"], json!(["....", "...."]));
    assert_eq!(b["legal_moves"], 8);
    assert_eq!(b["rules"]["overline"], true);
    assert_eq!(
        b["rules"]["pieces"]["o"],
        json!({"block": 0, "remove": 0, "bomb": 0})
    );
}

#[test]
fn play_answers_the_next_position_with_decremented_pieces() {
    let s = spawn();
    let rules = json!({"m": 3, "n": 3, "k": 3,
        "pieces": {"x": {"block": 1, "remove": 1}, "o": {"bomb": 1}}});
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": rules, "board": ["xo.", "...", "..."], "to_move": "x",
                "move": {"row": 0, "col": 1, "piece": "remove"}}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["move"], json!({"row": 0, "col": 1, "piece": "remove"}));
    assert_eq!(b["board"], json!(["x..", "...", "..."]));
    assert_eq!(b["to_move"], "o");
    assert_eq!(b["status"], "in_progress");
    assert_eq!(
        b["rules"]["pieces"]["x"],
        json!({"block": 1, "remove": 0, "bomb": 0})
    );
    assert_eq!(
        b["rules"]["pieces"]["o"],
        json!({"block": 0, "remove": 0, "bomb": 1})
    );

    // Feeding the answer back plays on: o bombs the centre, which clears x's mark.
    let (st, b2) = s.call(
        "/v1/play",
        &json!({"rules": b["rules"], "board": b["board"], "to_move": b["to_move"],
                "move": {"row": 1, "col": 1, "piece": "bomb"}}),
    );
    assert_eq!(st, 200, "{b2}");
    assert_eq!(b2["board"], json!(["...", "...", "..."]));
    assert_eq!(b2["rules"]["pieces"]["o"]["bomb"], 0);

    // A winning mark: the status says so and the game is over.
    let (st, b) = s.call(
        "/v1/play",
        &json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["xx.", "oo.", "..."],
                "move": {"row": 0, "col": 2}}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["move"]["piece"], "mark");
    assert_eq!(b["status"], "x_wins");
    assert_eq!(b["winner"], "x");
    assert_eq!(b["legal_moves"], 0);
}

#[test]
fn openapi_and_docs_are_served_and_work_offline() {
    let s = spawn();
    let r = s.get("/openapi.json");
    assert_eq!(r.status(), 200);
    let served: Value = r.json().unwrap();
    let committed: Value =
        serde_json::from_str(include_str!("../../openapi/openapi.json")).unwrap();
    assert_eq!(served, committed);

    let r = s.client.get(s.url("/docs")).send().unwrap(); // follows the redirect
    assert_eq!(r.status(), 200);
    assert_eq!(r.url().path(), "/docs/");
    let html = r.text().unwrap();
    assert!(html.contains("swagger-ui"), "{html}");
    // Every asset the page loads is served by this binary: no CDN.
    for asset in [
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-ui-standalone-preset.js",
        "swagger-initializer.js",
    ] {
        assert!(html.contains(asset), "the page loads {asset}");
        let r = s.get(&format!("/docs/{asset}"));
        assert_eq!(r.status(), 200, "{asset}");
        assert!(r.bytes().unwrap().len() > 100, "{asset} has content");
    }
    assert!(!html.contains("https://"), "no external links in {html}");
    let init = s.get("/docs/swagger-initializer.js").text().unwrap();
    assert!(init.contains("/openapi.json"), "{init}");
}

#[test]
fn metrics_count_requests_by_route_and_status() {
    let s = spawn();
    s.get("/healthz");
    s.get("/no/such/path/123");
    s.call("/v1/state", &json!({"rules": {"m": 3, "n": 3, "k": 0}}));
    let text = s.get("/metrics").text().unwrap();
    assert!(text.contains("kinrow_http_requests_total"), "{text}");
    assert!(text.contains("kinrow_http_requests_duration_seconds_bucket"));
    assert!(text.contains(r#"endpoint="/healthz""#));
    assert!(text.contains(r#"endpoint="/v1/state""#) && text.contains(r#"status="422""#));
    assert!(
        text.contains(r#"endpoint="UNKNOWN""#),
        "unmatched paths are masked"
    );
    assert!(!text.contains("/no/such/path"));
    assert!(text.contains("kinrow_searches_in_flight"));
    assert!(text.contains("kinrow_searches_queued"));
}

#[test]
fn metrics_count_searches_and_nodes_by_engine() {
    let s = spawn();
    let body = json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["x..", "...", "..."],
        "engine": {"name": "greedy"}});
    for _ in 0..3 {
        assert_eq!(s.call("/v1/suggest", &body).0, 200);
    }
    let text = s.get("/metrics").text().unwrap();
    let value = |series: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {series} in {text}"))
    };
    assert_eq!(
        value(r#"kinrow_searches_total{engine="greedy",result="ok"}"#),
        3.0
    );
    assert_eq!(
        value(r#"kinrow_search_duration_seconds_count{engine="greedy"}"#),
        3.0
    );
    assert!(value(r#"kinrow_search_nodes_total{engine="greedy"}"#) > 0.0);
    // Every engine of the registry has its series from the start.
    assert_eq!(
        value(r#"kinrow_searches_total{engine="minimax",result="ok"}"#),
        0.0
    );
}

#[test]
fn cors_allows_any_origin_by_default() {
    let s = spawn();
    let r = s
        .client
        .request(reqwest::Method::OPTIONS, s.url("/v1/suggest"))
        .header("Origin", "http://example.test")
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type")
        .send()
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "http://example.test"
    );
    // Only the methods and headers the API takes (issue 54 item 10): a preflight for
    // DELETE, or for a header the API never reads (a 5 KB one included), is refused.
    let methods = r.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap();
    for m in ["GET", "POST", "HEAD"] {
        assert!(methods.contains(m), "{methods}");
    }
    assert!(!methods.contains("DELETE"), "{methods}");
    let preflight = |method: &str, headers: &str| {
        s.client
            .request(reqwest::Method::OPTIONS, s.url("/v1/suggest"))
            .header("Origin", "http://example.test")
            .header("Access-Control-Request-Method", method)
            .header("Access-Control-Request-Headers", headers)
            .send()
            .unwrap()
    };
    assert!(!preflight("DELETE", "content-type").status().is_success());
    let long = format!("x-{}", "a".repeat(5000));
    let r = preflight("POST", &long);
    assert!(!r.status().is_success(), "{}", r.status());
    assert!(preflight("POST", "content-type, x-kinrow-deadline-ms")
        .status()
        .is_success());
}

// ----- every engine of the registry through /v1/suggest -----

fn legal_targets(rules: &Rules, board: &[&str], to_move: Option<Player>) -> Vec<Vec<bool>> {
    let p = Position::new(rules, Some(board), to_move).unwrap();
    let mut grid = vec![vec![false; p.m()]; p.n()];
    for mv in p.legal_moves() {
        let c = mv.coord(p.m());
        grid[c.row][c.col] = true;
    }
    grid
}

fn check_suggestion(b: &Value, engine: &str, targets: &[Vec<bool>]) {
    assert_eq!(b["engine"], engine, "{b}");
    let scores = b["scores"].as_array().unwrap();
    assert_eq!(scores.len(), targets.len(), "scores has n rows");
    for (r, row) in scores.iter().enumerate() {
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), targets[r].len(), "scores has m columns");
        for (c, v) in row.iter().enumerate() {
            // An anytime answer (the search was still running when the answer fell due,
            // on a busy machine) scores only the moves its last iteration reported.
            if b["stats"]["stopped"] == "deadline" && v.is_null() {
                continue;
            }
            // A number only where a legal move targets the cell; null there too when the
            // engine searched none of its moves (listed with `evaluated: false`).
            let here: Vec<&Value> = b["moves"]
                .as_array()
                .map(|ms| {
                    ms.iter()
                        .filter(|m| m["row"] == r && m["col"] == c)
                        .collect()
                })
                .unwrap_or_default();
            let searched = here.iter().any(|m| m["evaluated"] == true);
            assert_eq!(
                !v.is_null(),
                targets[r][c] && (searched || here.is_empty()),
                "{engine}: scores[{r}][{c}] = {v}: a number exactly where a searched legal move targets the cell"
            );
        }
    }
    // Every value is on the common scale, and each cell of the grid is the best value of
    // the moves that target it.
    let value = |v: &Value| v["value"].as_f64().unwrap();
    assert!(
        (-1.0..=1.0).contains(&value(&b["evaluation"])),
        "{engine}: {b}"
    );
    let mut best = vec![vec![None::<f64>; targets[0].len()]; targets.len()];
    for mv in b["moves"].as_array().unwrap() {
        assert!(mv["raw"].is_number(), "{engine}: {mv}");
        if mv["evaluated"] == false {
            assert!(mv["value"].is_null(), "{engine}: {mv}");
            continue;
        }
        let v = value(mv);
        assert!((-1.0..=1.0).contains(&v), "{engine}: {mv}");
        let (r, c) = (
            mv["row"].as_u64().unwrap() as usize,
            mv["col"].as_u64().unwrap() as usize,
        );
        best[r][c] = Some(best[r][c].map_or(v, |b: f64| b.max(v)));
    }
    for (r, row) in best.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            assert_eq!(
                scores[r].as_array().unwrap()[c].as_f64(),
                *v,
                "{engine}: cell {r},{c}"
            );
        }
    }
    let (row, col) = (
        b["move"]["row"].as_u64().unwrap() as usize,
        b["move"]["col"].as_u64().unwrap() as usize,
    );
    assert!(targets[row][col], "{engine}: the chosen move is legal");
    assert!(!b["moves"].as_array().unwrap().is_empty());
    assert_eq!(
        b["pv"][0], b["move"],
        "{engine}: the pv starts with the move"
    );
    assert!(b["stats"]["seed"].is_u64());
    assert!(b["stats"]["elapsed_ms"].is_number());
    assert!(b["limits"]["time_ms"].as_u64().unwrap() >= 1);
}

#[test]
fn every_engine_suggests_on_3x3_and_15x15() {
    let s = spawn();
    let rules3 = Rules::mnk(3, 3, 3).unwrap();
    let board3 = ["x..", ".o.", "..."];
    let rules15 = Rules::mnk(15, 15, 5).unwrap();
    let mut board15 = vec!["..............."; 15];
    board15[7] = ".......x.......";
    board15[8] = "......o........";
    let targets3 = legal_targets(&rules3, &board3, None);
    let targets15 = legal_targets(&rules15, &board15, None);
    for kind in EngineKind::ALL {
        let name = kind.name();
        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": board3,
                    "engine": {"name": name, "time_ms": 300, "seed": 7}}),
        );
        assert_eq!(st, 200, "{name} on 3x3: {b}");
        check_suggestion(&b, name, &targets3);
        assert_eq!(b["stats"]["seed"], 7);
        assert_eq!(b["to_move"], "x");

        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": board15,
                    "engine": {"name": name, "time_ms": 200}}),
        );
        assert_eq!(st, 200, "{name} on 15x15: {b}");
        check_suggestion(&b, name, &targets15);
        assert!(b["stats"]["seed"].as_u64().unwrap() < 1 << 53);
        assert_eq!(b["limits"]["level"], 10);

        // Every engine takes a level; its answer is on the same value scale.
        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": board15,
                    "engine": {"name": name, "time_ms": 200, "level": 3, "seed": 5}}),
        );
        assert_eq!(st, 200, "{name} at level 3: {b}");
        check_suggestion(&b, name, &targets15);
        assert_eq!(b["limits"]["level"], 3);
    }
}

#[test]
fn every_engine_plays_special_pieces_positions() {
    let s = spawn();
    let rules = json!({"m": 5, "n": 5, "k": 4,
        "pieces": {"x": {"block": 1, "remove": 1, "bomb": 1}, "o": {"block": 1, "remove": 1}}});
    let board = ["xo...", ".x#..", "..o..", ".....", "....."];
    let r = Rules::new(
        5,
        5,
        4,
        true,
        [
            kinrow_game::Hand::new(1, 1, 1),
            kinrow_game::Hand::new(1, 1, 0),
        ],
    )
    .unwrap();
    let targets = legal_targets(&r, &board, Some(Player::X));
    for kind in EngineKind::ALL {
        let name = kind.name();
        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": rules, "board": board, "to_move": "x",
                    "engine": {"name": name, "time_ms": 200, "seed": 1}}),
        );
        assert_eq!(st, 200, "{name}: {b}");
        check_suggestion(&b, name, &targets);
        // The suggested move is playable as it is.
        let (st, p) = s.call(
            "/v1/play",
            &json!({"rules": rules, "board": board, "to_move": "x", "move": b["move"]}),
        );
        assert_eq!(st, 200, "{name}'s move {} plays: {p}", b["move"]);
    }
}

#[test]
fn the_same_seed_gives_the_same_answer() {
    let s = spawn();
    for kind in EngineKind::ALL {
        let name = kind.name();
        // Node-limited where the engine reads nodes, so the answer does not depend on timing.
        let engine = if kind.parameters().contains(&kinrow_engine::Parameter::Nodes) {
            json!({"name": name, "time_ms": 5000, "nodes": 2000, "depth": 2, "seed": 42})
        } else {
            json!({"name": name, "time_ms": 5000, "depth": 2, "seed": 42})
        };
        let req = json!({"rules": {"m": 7, "n": 7, "k": 4}, "board":
            [".......", ".......", "..x....", "...o...", ".......", ".......", "......."],
            "engine": engine});
        let (st1, a) = s.call("/v1/suggest", &req);
        let (st2, b) = s.call("/v1/suggest", &req);
        assert_eq!((st1, st2), (200, 200), "{name}: {a} {b}");
        assert_eq!(a["move"], b["move"], "{name}");
        assert_eq!(a["stats"]["seed"], 42);
        assert_eq!(b["stats"]["seed"], 42);
    }
}

#[test]
fn the_time_budget_is_defaulted_and_capped() {
    let mut config = Config::for_tests();
    config.default_time = std::time::Duration::from_millis(150);
    config.max_time = std::time::Duration::from_millis(250);
    let s = spawn_with(config);
    for kind in EngineKind::ALL {
        let name = kind.name();
        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": {"m": 3, "n": 3, "k": 3}, "engine": {"name": name}}),
        );
        assert_eq!(st, 200, "{b}");
        let used = b["limits"]["time_ms"].as_u64().unwrap();
        assert!(
            (140..=150).contains(&used),
            "{name}: default budget, used {used}"
        );
        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": {"m": 3, "n": 3, "k": 3}, "engine": {"name": name, "time_ms": 100000}}),
        );
        assert_eq!(st, 200, "{b}");
        let used = b["limits"]["time_ms"].as_u64().unwrap();
        assert!(
            (240..=250).contains(&used),
            "{name}: capped budget, used {used}"
        );
    }
}

#[test]
fn engines_list_the_knobs_they_ignore_and_an_ignored_knob_is_accepted() {
    let s = spawn();
    let r: Value = s.get("/v1/engines").json().unwrap();
    let ignored = |name: &str| -> Vec<String> {
        let e = r["engines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap();
        serde_json::from_value(e["ignored"].clone()).unwrap()
    };
    assert_eq!(ignored("mcts"), ["depth", "threads"]);
    assert_eq!(ignored("threat"), ["depth", "time_ms", "nodes", "threads"]);
    assert!(ignored("auto").is_empty());
    // Every knob is either read or listed as ignored (mistake_probability: read or refused).
    for e in r["engines"].as_array().unwrap() {
        let read: Vec<&str> = e["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let skip: Vec<&str> = e["ignored"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        for knob in [
            "level", "depth", "time_ms", "nodes", "seed", "multipv", "threads",
        ] {
            assert!(
                read.contains(&knob) != skip.contains(&knob),
                "{} {knob}",
                e["name"]
            );
        }
    }
    // An ignored knob is accepted.
    let (status, body) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 15, "n": 15, "k": 5}, "engine": {"name": "threat", "depth": 3, "time_ms": 50}}),
    );
    assert_eq!(status, 200, "{body}");
}
