//! Renju and caro through the API: `rules.variant` read in any case, checked and written
//! back; `/v1/state` lists x's forbidden cells with the reason and `/v1/play` refuses
//! them, for every shape of the rules tests' table; caro's shut lines through
//! `/v1/play`; every engine's suggestion under renju avoids the forbidden cells.

use crate::diagrams::{board, CARO_LINES, FORBIDDEN_SHAPES};
use crate::support::{assert_error, spawn, TestServer};
use kinrow_engine::EngineKind;
use kinrow_game::{Player, Position, Variant};
use serde_json::{json, Value};

fn rules(variant: &str) -> Value {
    json!({"m": 15, "n": 15, "k": 5, "variant": variant})
}

/// The request body of `p` (15x15) under `variant`.
fn body(p: &Position, variant: &str) -> Value {
    json!({"rules": rules(variant), "board": p.to_rows()})
}

fn cell_json(p: &Position, cell: usize) -> (u64, u64) {
    ((cell / p.m()) as u64, (cell % p.m()) as u64)
}

fn forbidden_list(state: &Value) -> Vec<(u64, u64, String)> {
    state["forbidden"]
        .as_array()
        .expect("forbidden is a list")
        .iter()
        .map(|f| {
            (
                f["row"].as_u64().unwrap(),
                f["col"].as_u64().unwrap(),
                f["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn state_lists_and_play_refuses_every_forbidden_shape() {
    let server = spawn();
    for (what, diagram, expected) in FORBIDDEN_SHAPES {
        let (p, cell) = board(Variant::Renju, diagram, Player::X);
        let (row, col) = cell_json(&p, cell);
        let (status, state) = server.call("/v1/state", &body(&p, "renju"));
        assert_eq!(status, 200, "{what}: {state}");
        assert_eq!(state["rules"]["variant"], "renju", "{what}");
        let listed = forbidden_list(&state);
        let here = listed.iter().find(|f| (f.0, f.1) == (row, col));
        assert_eq!(
            here.map(|f| f.2.as_str()),
            expected.map(|f| f.as_str()),
            "{what}: {listed:?}"
        );
        // Every listed cell is exactly the rules core's list.
        let core: Vec<(u64, u64, String)> = p
            .forbidden_cells()
            .into_iter()
            .map(|(c, why)| {
                let (r, c) = cell_json(&p, c);
                (r, c, why.as_str().to_string())
            })
            .collect();
        assert_eq!(listed, core, "{what}");
        let mut play = body(&p, "renju");
        play["move"] = json!({"row": row, "col": col});
        let (status, answer) = server.call("/v1/play", &play);
        match expected {
            Some(why) => {
                assert_error(status, &answer, 422, "forbidden_move", Some("move"));
                let message = answer["error"]["message"].as_str().unwrap();
                assert!(message.contains(why.as_str()), "{what}: {message}");
            }
            None => {
                assert_eq!(status, 200, "{what}: {answer}");
                assert_eq!(answer["rules"]["variant"], "renju");
            }
        }
    }
}

#[test]
fn a_five_with_a_forbidden_shape_wins_and_o_has_no_forbidden_cells() {
    let server = spawn();
    let (p, cell) = board(
        Variant::Renju,
        &["...x.", "...x.", "...x.", "xxx*x", "....."],
        Player::X,
    );
    let (row, col) = cell_json(&p, cell);
    let mut play = body(&p, "renju");
    play["move"] = json!({"row": row, "col": col});
    let (status, answer) = server.call("/v1/play", &play);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["status"], "x_wins");
    assert_eq!(answer["forbidden"], json!([]));
    // o to move: o makes an overline and wins; nothing is forbidden for o.
    let (p, cell) = board(Variant::Renju, &["ooo*oo", "x.x.x.x"], Player::O);
    let (status, state) = server.call("/v1/state", &body(&p, "renju"));
    assert_eq!(status, 200);
    assert_eq!(state["forbidden"], json!([]));
    let (row, col) = cell_json(&p, cell);
    let mut play = body(&p, "renju");
    play["move"] = json!({"row": row, "col": col});
    let (_, answer) = server.call("/v1/play", &play);
    assert_eq!(answer["status"], "o_wins");
    assert_eq!(answer["winning_line"].as_array().unwrap().len(), 6);
}

#[test]
fn caro_lines_through_play() {
    let server = spawn();
    for (what, diagram, wins) in CARO_LINES {
        let (p, cell) = board(Variant::Caro, diagram, Player::X);
        let (row, col) = cell_json(&p, cell);
        let mut play = body(&p, "Caro");
        play["move"] = json!({"row": row, "col": col});
        let (status, answer) = server.call("/v1/play", &play);
        assert_eq!(status, 200, "{what}: {answer}");
        assert_eq!(answer["rules"]["variant"], "caro");
        let want = if *wins { "x_wins" } else { "in_progress" };
        assert_eq!(answer["status"], want, "{what}");
    }
    // At the board's edge: the edge shuts nothing.
    let edge = json!({"rules": {"m": 7, "n": 3, "k": 5, "variant": "caro"},
                      "board": [".xxxxo.", "ooo....", "......."],
                      "move": {"row": 0, "col": 0}});
    let (status, answer) = server.call("/v1/play", &edge);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["status"], "x_wins");
}

#[test]
fn the_variant_is_read_checked_and_written_back() {
    let server = spawn();
    let empty = |rules: Value| json!({"rules": rules});
    for (given, written) in [
        (json!(null), "free"),
        (json!("RENJU"), "renju"),
        (json!("free"), "free"),
        (json!("caro"), "caro"),
    ] {
        let mut r = json!({"m": 15, "n": 15, "k": 5});
        if !given.is_null() {
            r["variant"] = given.clone();
        }
        let (status, state) = server.call("/v1/state", &empty(r));
        assert_eq!(status, 200, "{given}: {state}");
        assert_eq!(state["rules"]["variant"], written);
        assert_eq!(state["forbidden"], json!([]));
    }
    let (status, e) = server.call(
        "/v1/state",
        &empty(json!({"m": 15, "n": 15, "k": 4, "variant": "renju"})),
    );
    assert_error(status, &e, 422, "invalid_rules", Some("rules.variant"));
    let pieces = json!({"m": 15, "n": 15, "k": 5, "variant": "caro",
                        "pieces": {"x": {"block": 1}}});
    let (status, e) = server.call("/v1/state", &json!({"rules": pieces, "to_move": "x"}));
    assert_error(status, &e, 422, "invalid_rules", Some("rules.variant"));
    let (status, e) = server.call(
        "/v1/state",
        &empty(json!({"m": 15, "n": 15, "k": 5, "variant": "gomoku"})),
    );
    // A name that is no variant is a shape error, like any other enum field.
    assert_error(status, &e, 400, "invalid_request", Some("rules.variant"));
    let message = e["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("renju") && message.contains("gomoku"),
        "{message}"
    );
}

/// Every engine's suggestion under renju, its `after` and its scored moves keep off the
/// forbidden cells, and the answer writes the variant back.
#[test]
fn suggestions_under_renju_avoid_forbidden_cells() {
    let server: TestServer = spawn();
    let (p, cell) = board(Variant::Renju, &["x.x*x.x"], Player::X);
    let (row, col) = cell_json(&p, cell);
    for kind in EngineKind::ALL {
        let mut req = body(&p, "renju");
        req["engine"] = json!({"name": kind.name(), "nodes": 2000, "seed": 1});
        let (status, answer) = server.call("/v1/suggest", &req);
        assert_eq!(status, 200, "{}: {answer}", kind.name());
        let mv = &answer["move"];
        assert_ne!(
            (mv["row"].as_u64(), mv["col"].as_u64()),
            (Some(row), Some(col)),
            "{}",
            kind.name()
        );
        assert_eq!(answer["after"]["rules"]["variant"], "renju");
        assert!(answer["scores"][row as usize][col as usize].is_null());
    }
}

/// The OpenAPI document's renju example for `/v1/state` shows the forbidden cell its
/// summary names.
#[test]
fn the_documented_renju_example_lists_its_forbidden_cell() {
    let server = spawn();
    let doc: Value = server.get("/openapi.json").json().unwrap();
    let example = &doc["paths"]["/v1/state"]["post"]["requestBody"]["content"]["application/json"]
        ["examples"]["renju"]["value"];
    let (status, state) = server.call("/v1/state", example);
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["forbidden"],
        json!([{"row": 7, "col": 7, "reason": "double_three"}])
    );
}

/// `after` lists x's forbidden cells as `/v1/state` does, so a frontend can mark them
/// without a second call.
#[test]
fn after_lists_the_forbidden_cells_of_the_side_to_move() {
    let server = spawn();
    let (what, diagram, _) = FORBIDDEN_SHAPES
        .iter()
        .find(|s| s.2.is_some())
        .expect("a forbidden shape");
    let (p, _) = board(Variant::Renju, diagram, Player::O);
    let mut play = body(&p, "renju");
    // o plays in the far corner, away from the shape.
    play["move"] = json!({"row": 0, "col": 0});
    let (status, answer) = server.call("/v1/play", &play);
    assert_eq!(status, 200, "{what}: {answer}");
    let after = &answer["after"];
    assert_eq!(after["to_move"], "x");
    let (status, state) = server.call("/v1/state", after);
    assert_eq!(status, 200, "{what}: {state}");
    assert!(!forbidden_list(&state).is_empty(), "{what}: {state}");
    assert_eq!(forbidden_list(after), forbidden_list(&state), "{what}");
    assert_eq!(after["playable"], json!([]));
}
