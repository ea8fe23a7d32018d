//! Gravity through the API: `rules.gravity` written back, `/v1/state` lists the landing
//! cells, `/v1/play` with `col` alone (and a wrong `row` refused naming the landing
//! row), floating stones and nonsensical combinations refused naming the field, the
//! Connect Four digit notation, every engine's suggestion on a landing cell, values on
//! the landing cells only, the `after` round trip, `review` and `analyse`.

use crate::support::{assert_error, spawn};
use kinrow_engine::EngineKind;
use serde_json::{json, Value};

fn c4() -> Value {
    json!({"m": 7, "n": 6, "k": 4, "gravity": true})
}

fn cells(list: &Value) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = list
        .as_array()
        .expect("a list of cells")
        .iter()
        .map(|c| (c["row"].as_u64().unwrap(), c["col"].as_u64().unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn state_lists_the_landing_cells_and_reads_the_digit_notation() {
    let s = spawn();
    let (status, body) = s.call("/v1/state", &json!({"rules": c4(), "board": "4453"}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["rules"]["gravity"], true);
    assert_eq!(body["to_move"], "x");
    assert_eq!(
        body["board"],
        json!([".......", ".......", ".......", ".......", "...o...", "..oxx.."])
    );
    assert_eq!(
        cells(&body["playable"]),
        vec![(3, 3), (4, 2), (4, 4), (5, 0), (5, 1), (5, 5), (5, 6)]
    );
    assert_eq!(body["legal_moves"], 7);
    // Without gravity the list is empty.
    let (_, plain) = s.call("/v1/state", &json!({"rules": {"m": 3, "n": 3, "k": 3}}));
    assert_eq!(plain["playable"], json!([]));
    assert_eq!(plain["rules"]["gravity"], false);
}

#[test]
fn refusals_name_the_field() {
    let s = spawn();
    let floating =
        json!({"rules": c4(), "board": "......./......./......./......./...x.../......."});
    let (status, body) = s.call("/v1/state", &floating);
    assert_error(status, &body, 422, "invalid_board", Some("board[4]"));
    let (status, body) = s.call("/v1/state", &json!({"rules": c4(), "board": "4448"}));
    assert_error(status, &body, 422, "invalid_board", Some("board"));
    let (status, body) = s.call("/v1/state", &json!({"rules": c4(), "board": "1111111"}));
    assert_error(status, &body, 422, "invalid_board", Some("board"));
    // A one-row string under gravity is a move sequence: its bad character is named,
    // and the empty one is the empty board (issue 54 item 8).
    let (status, body) = s.call("/v1/state", &json!({"rules": c4(), "board": "44a3"}));
    assert_error(status, &body, 422, "invalid_board", Some("board"));
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("move 3: 'a' is not a column"), "{body}");
    let (status, body) = s.call("/v1/state", &json!({"rules": c4(), "board": ""}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["to_move"], "x", "{body}");
    let with_pieces = json!({"rules": {"m": 7, "n": 6, "k": 4, "gravity": true,
        "pieces": {"x": {"block": 1}}}, "to_move": "x"});
    let (status, body) = s.call("/v1/state", &with_pieces);
    assert_error(status, &body, 422, "invalid_rules", Some("rules.gravity"));
    let renju = json!({"rules": {"m": 15, "n": 15, "k": 5, "gravity": true, "variant": "renju"}});
    let (status, body) = s.call("/v1/state", &renju);
    assert_error(status, &body, 422, "invalid_rules", Some("rules.gravity"));
    let wrong_row = json!({"rules": c4(), "board": "44", "move": {"row": 0, "col": 3}});
    let (status, body) = s.call("/v1/play", &wrong_row);
    assert_error(status, &body, 422, "illegal_move", Some("move.row"));
    assert!(
        body["error"]["message"].as_str().unwrap().contains("row 3"),
        "{body}"
    );
    let full = json!({"rules": c4(), "board": "444444", "move": {"col": 3}});
    let (status, body) = s.call("/v1/play", &full);
    assert_error(status, &body, 422, "illegal_move", Some("move.col"));
    let no_row = json!({"rules": {"m": 3, "n": 3, "k": 3}, "move": {"col": 1}});
    let (status, body) = s.call("/v1/play", &no_row);
    assert_error(status, &body, 422, "illegal_move", Some("move.row"));
}

#[test]
fn play_drops_the_stone_and_replies_on_a_landing_cell() {
    let s = spawn();
    let req = json!({"rules": c4(), "board": "44", "move": {"col": 3},
        "reply": {"name": "auto", "time_ms": 500}});
    let (status, body) = s.call("/v1/play", &req);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["move"]["row"], 3);
    let board = body["board"].as_array().unwrap();
    assert_eq!(board[3].as_str().unwrap().chars().nth(3), Some('x'));
    assert_eq!(body["to_move"], "o");
    assert_eq!(cells(&body["playable"]).len(), 7);
    // The reply landed: the board after it has no floating stone (state accepts it).
    let (status, again) = s.call("/v1/state", &body["after"]);
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["to_move"], "x");
    // `after` carries the landing cells, as the state of that position lists them.
    assert_eq!(cells(&body["after"]["playable"]), cells(&again["playable"]));
    assert_eq!(cells(&body["after"]["playable"]).len(), 7);
}

#[test]
fn every_engine_suggests_a_landing_cell_and_values_sit_on_landing_cells() {
    let s = spawn();
    for &kind in EngineKind::ALL {
        let req = json!({"rules": c4(), "board": "4453",
            "engine": {"name": kind.name(), "time_ms": 300, "seed": 7}});
        let (status, body) = s.call("/v1/suggest", &req);
        assert_eq!(status, 200, "{}: {body}", kind.name());
        let (row, col) = (
            body["move"]["row"].as_u64().unwrap(),
            body["move"]["col"].as_u64().unwrap(),
        );
        let playable = [(3, 3), (4, 2), (4, 4), (5, 0), (5, 1), (5, 5), (5, 6)];
        assert!(
            playable.contains(&(row, col)),
            "{}: ({row}, {col})",
            kind.name()
        );
        for (r, line) in body["scores"].as_array().unwrap().iter().enumerate() {
            for (c, v) in line.as_array().unwrap().iter().enumerate() {
                if !v.is_null() {
                    assert!(
                        playable.contains(&(r as u64, c as u64)),
                        "{}: value at ({r}, {c})",
                        kind.name()
                    );
                }
            }
        }
        // The answer's `after` goes back in as it is.
        let (status, after) = s.call("/v1/state", &body["after"]);
        assert_eq!(status, 200, "{}: {after}", kind.name());
        assert_eq!(after["rules"]["gravity"], true);
    }
}

#[test]
fn perfect_answers_every_column_with_outcome_and_plies() {
    let s = spawn();
    // x to move wins at once in column 4 (index 3) on top of its three.
    let req = json!({"rules": c4(), "board": "454545",
        "engine": {"name": "perfect", "time_ms": 2000}});
    let (status, body) = s.call("/v1/suggest", &req);
    assert_eq!(status, 200, "{body}");
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    // Every column but the win now and the block under o's three hands o a win at once.
    let lost = moves
        .iter()
        .filter(|m| m["outcome"] == "loss" && m["plies"] == 2);
    assert_eq!(lost.count(), 5, "{body}");
    assert_eq!(body["move"]["col"], 3);
    assert_eq!(moves[0]["outcome"], "win");
    assert_eq!(moves[0]["plies"], 1);
}

#[test]
fn review_and_analyse_take_columns() {
    let s = spawn();
    let req = json!({"rules": c4(), "moves": [{"col": 3}, {"col": 3}, {"col": 4}, {"col": 2}],
        "engine": {"name": "perfect", "time_ms": 300}});
    let (status, body) = s.call("/v1/review", &req);
    assert_eq!(status, 200, "{body}");
    let res = s.post(
        "/v1/analyse",
        &json!({"rules": c4(), "board": "444",
        "engine": {"name": "auto", "time_ms": 300}}),
    );
    assert_eq!(res.status().as_u16(), 200);
    let text = res.text().unwrap();
    assert!(
        text.contains("event: result") || text.contains("\"move\""),
        "{text}"
    );
}

/// Outcome first, distance while the budget lasts (issue 62): `perfect` under node caps
/// that double until the answer is complete. A column whose distance was not pinned says
/// `plies_bound: "upper"` beside its proven outcome, its `plies` at least the exact plies
/// of the complete answer, and its value exact (no `bound`); some cap must show every
/// outcome proven with such a bound.
#[test]
fn perfect_proves_outcomes_first_and_marks_unpinned_distances_as_bounds() {
    let s = spawn();
    let mut shown = 0;
    for digits in [
        "5137737527135221",
        "33766154731221244722",
        "662573221764315311",
    ] {
        let ask = |nodes: u64| {
            let body = json!({"rules": c4(), "board": digits,
                              "engine": {"name": "perfect", "nodes": nodes, "time_ms": 20000}});
            let (st, b) = s.call("/v1/suggest", &body);
            assert_eq!(st, 200, "{b}");
            b
        };
        let exact = ask(50_000_000);
        assert_eq!(
            exact["stats"]["complete"], true,
            "{digits}: {}",
            exact["stats"]
        );
        let plies_of = |col: &Value| {
            exact["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| &m["col"] == col)
                .unwrap()
                .clone()
        };
        let mut nodes = 16;
        loop {
            let b = ask(nodes);
            let moves = b["moves"].as_array().unwrap();
            let mut bounded = false;
            for m in moves {
                let want = plies_of(&m["col"]);
                if m["outcome"] != "unknown" {
                    assert_eq!(m["outcome"], want["outcome"], "{digits} at {nodes}: {m}");
                }
                if m["plies_bound"] == "upper" {
                    assert!(m["outcome"] == "win" || m["outcome"] == "loss", "{m}");
                    assert!(m["bound"].is_null(), "{m}");
                    let (got, exact) = (
                        m["plies"].as_u64().unwrap(),
                        want["plies"].as_u64().unwrap(),
                    );
                    assert!(exact <= got, "{digits} at {nodes}: {m} against {want}");
                    bounded = true;
                } else if m["outcome"] != "unknown" {
                    assert_eq!(m["plies"], want["plies"], "{digits} at {nodes}: {m}");
                }
            }
            if bounded && moves.iter().all(|m| m["outcome"] != "unknown") {
                shown += 1;
            }
            if b["stats"]["complete"] == true {
                break;
            }
            nodes *= 2;
        }
    }
    assert!(
        shown > 0,
        "no cap left every outcome proven and a distance unpinned"
    );
}

/// Every gravity answer carries a move sequence beside the board (`after.moves`, and
/// `moves` of `/v1/state`) that reaches it, and takes it back: sent as `moves` with the
/// board (checked against it) or alone; a sequence that does not reach the board is
/// refused naming `moves`; without gravity there is none (issue 62 item 5).
#[test]
fn answers_carry_the_move_sequence_and_take_it_back() {
    let s = spawn();
    let (st, state) = s.call("/v1/state", &json!({"rules": c4(), "board": "4453"}));
    assert_eq!(st, 200, "{state}");
    assert_eq!(state["moves"], "4453");
    let body = json!({"rules": c4(), "board": "4453",
                      "engine": {"name": "perfect", "time_ms": 2000, "seed": 1}});
    let (st, a) = s.call("/v1/suggest", &body);
    assert_eq!(st, 200, "{a}");
    let moves = a["after"]["moves"]
        .as_str()
        .expect("after.moves")
        .to_string();
    assert_eq!(moves.len(), 5, "{}", a["after"]);
    // The sequence reaches the same board.
    let (_, by_moves) = s.call("/v1/state", &json!({"rules": c4(), "board": moves}));
    assert_eq!(by_moves["board"], a["after"]["board"]);
    // `after` sent back as it is (with `moves`) is the next request.
    let mut next = a["after"].clone();
    next["engine"] = json!({"name": "perfect", "time_ms": 2000, "seed": 1});
    let (st, b) = s.call("/v1/suggest", &next);
    assert_eq!(st, 200, "{b}");
    assert_eq!(
        b["after"]["moves"].as_str().map(str::len),
        Some(6),
        "{}",
        b["after"]
    );
    // `moves` alone is the position; /v1/play answers with the sequence too.
    let (st, p) = s.call(
        "/v1/play",
        &json!({"rules": c4(), "moves": moves, "move": {"col": 0}}),
    );
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["after"]["moves"], format!("{moves}1"));
    // A sequence that does not reach the board is refused, naming `moves`.
    let (st, e) = s.call(
        "/v1/state",
        &json!({"rules": c4(), "board": "4453", "moves": "4454"}),
    );
    assert_error(st, &e, 422, "invalid_board", Some("moves"));
    // No gravity, no sequence.
    let (_, plain) = s.call("/v1/state", &json!({"rules": {"m": 3, "n": 3, "k": 3}}));
    assert!(plain["moves"].is_null(), "{plain}");
}

/// The result event of an `/v1/analyse` stream, as JSON.
fn analyse_result(text: &str) -> Value {
    let data = text
        .split("event: result")
        .nth(1)
        .and_then(|rest| rest.lines().find_map(|l| l.strip_prefix("data:")))
        .unwrap_or_else(|| panic!("no result event in {text}"));
    serde_json::from_str(data.trim()).expect("the result event is JSON")
}

/// `after.moves` continues the order the game was played in where the request gives
/// it (`moves`, or `board` as a move sequence), not an order found from the board:
/// the same board reached in two orders answers each order continued by the chosen
/// column, in `/v1/state`, `/v1/suggest`, `/v1/analyse` and `/v1/play` (its move, then
/// its reply). Only a request with the board alone gets the order found from the board.
#[test]
fn after_moves_continue_the_order_played() {
    let s = spawn();
    // x in columns 1 and 2, o in columns 7 and 6: one board, two orders (and two more).
    let orders = ["1726", "2617"];
    let (_, first) = s.call("/v1/state", &json!({"rules": c4(), "moves": orders[0]}));
    let (_, second) = s.call("/v1/state", &json!({"rules": c4(), "moves": orders[1]}));
    assert_eq!(first["board"], second["board"]);
    assert_eq!(first["moves"], orders[0]);
    assert_eq!(second["moves"], orders[1]);
    let board = first["board"].clone();
    let found = s
        .call("/v1/state", &json!({"rules": c4(), "board": board}))
        .1["moves"]
        .as_str()
        .expect("an order found from the board")
        .to_string();
    let engine = json!({"name": "perfect", "time_ms": 2000, "seed": 3});
    let continues = |order: &str, answer: &Value| {
        let col = answer["move"]["col"].as_u64().expect("a chosen column") + 1;
        assert_eq!(
            answer["after"]["moves"],
            format!("{order}{col}"),
            "{}",
            answer["after"]
        );
    };
    for order in orders {
        // `moves` alone, `moves` beside the board, and the board as the sequence.
        for req in [
            json!({"rules": c4(), "moves": order, "engine": engine}),
            json!({"rules": c4(), "board": board, "moves": order, "engine": engine}),
            json!({"rules": c4(), "board": order, "engine": engine}),
        ] {
            let (st, a) = s.call("/v1/suggest", &req);
            assert_eq!(st, 200, "{a}");
            continues(order, &a);
        }
        let res = s.post(
            "/v1/analyse",
            &json!({"rules": c4(), "moves": order, "engine": engine}),
        );
        assert_eq!(res.status().as_u16(), 200);
        continues(order, &analyse_result(&res.text().unwrap()));
        // /v1/play: the move continues the order, then the reply continues it again.
        let (st, p) = s.call(
            "/v1/play",
            &json!({"rules": c4(), "moves": order, "move": {"col": 3}}),
        );
        assert_eq!(st, 200, "{p}");
        assert_eq!(p["after"]["moves"], format!("{order}4"), "{p}");
        assert_eq!(p["moves"], format!("{order}4"), "{p}");
        let (st, p) = s.call(
            "/v1/play",
            &json!({"rules": c4(), "moves": order, "move": {"col": 3}, "reply": engine}),
        );
        assert_eq!(st, 200, "{p}");
        continues(
            &format!("{order}4"),
            &json!({"move": p["reply"]["move"], "after": p["after"]}),
        );
        assert_eq!(p["reply"]["after"], p["after"]);
        assert_eq!(p["moves"], format!("{order}4"), "{p}");
    }
    // The board alone: an order found from the board after the move, which reaches it.
    let (st, a) = s.call(
        "/v1/suggest",
        &json!({"rules": c4(), "board": board, "engine": engine}),
    );
    assert_eq!(st, 200, "{a}");
    let after = a["after"]["moves"].as_str().expect("an order found");
    assert_eq!(after.len(), found.len() + 1);
    let (_, by_moves) = s.call("/v1/state", &json!({"rules": c4(), "moves": after}));
    assert_eq!(by_moves["board"], a["after"]["board"]);
}
