//! The whole-request examples of the OpenAPI document: for each endpoint a tic-tac-toe, a
//! gomoku, a special-pieces and a renju request, each one the server accepts (tests/api/openapi.rs
//! posts every one of them). A generator or schemathesis takes them as they are.

use serde_json::{json, Value};

/// Gomoku after three moves each, x to move.
fn gomoku_board() -> Value {
    json!([
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "......o........",
        "......xx.......",
        ".......xo......",
        "........o......",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "..............."
    ])
}

/// 7x7, four in a row, both players holding special pieces; x to move.
fn pieces_position() -> Value {
    json!({
        "rules": {"m": 7, "n": 7, "k": 4,
                  "pieces": {"x": {"block": 1, "remove": 1}, "o": {"block": 1, "remove": 1, "bomb": 1}}},
        "board": [".......", ".......", "..ooo..", "...x...", "...x...", ".......", "......."],
        "to_move": "x"
    })
}

/// Renju on 15x15, x to move: a mark of x at row 7, column 7 would make two open threes,
/// so `/v1/state` lists it as forbidden (`double_three`).
fn renju_position() -> Value {
    json!({
        "rules": {"m": 15, "n": 15, "k": 5, "variant": "renju"},
        "board": [
            "...............", "...............", "...............", "...............",
            "...............", ".....o...o.....", ".......x.......", "......x.x......",
            ".......x.......", ".....o...o.....", "...............", "...............",
            "...............", "...............", "..............."
        ]
    })
}

/// Swap2 on 15x15 with the three stones of a first placement: o to move.
fn swap_three(opening: &str) -> Value {
    json!({
        "rules": {"m": 15, "n": 15, "k": 5, "opening": opening},
        "board": [
            "...............", "...............", "...............", "...............",
            "...............", "...............", "...............", ".......x.......",
            "........o......", ".........x.....", "...............", "...............",
            "...............", "...............", "..............."
        ]
    })
}

pub fn opening_place3() -> Value {
    json!({"rules": {"m": 15, "n": 15, "k": 5, "opening": "swap2"},
           "engine": {"name": "auto", "nodes": 200000, "seed": 7}})
}

pub fn opening_swap2_three() -> Value {
    with(
        swap_three("swap2"),
        json!({"engine": {"name": "auto", "nodes": 200000, "seed": 7}}),
    )
}

pub fn opening_swap_three() -> Value {
    with(
        swap_three("swap"),
        json!({"engine": {"name": "auto", "time_ms": 500, "seed": 7}}),
    )
}

fn with(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// A `/v1/state` example: tic-tac-toe after two moves.
pub fn state_3x3() -> Value {
    json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": "x../.o./..."})
}

/// A `/v1/state` example: a gomoku opening, exactly five.
pub fn state_15x15() -> Value {
    json!({"rules": {"m": 15, "n": 15, "k": 5, "overline": false}, "board": gomoku_board()})
}

/// A `/v1/state` example: 7x7, four in a row, special pieces in hand.
pub fn state_pieces() -> Value {
    pieces_position()
}

/// A `/v1/state` example: a renju position with forbidden cells for x.
pub fn state_renju() -> Value {
    renju_position()
}

/// A `/v1/suggest` example: tic-tac-toe by `perfect`.
pub fn suggest_3x3() -> Value {
    json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["x..", ".o.", "..."],
           "engine": {"name": "perfect", "seed": 42}})
}

/// A `/v1/suggest` example: gomoku by `minimax`, the answer trimmed by `include`.
pub fn suggest_15x15() -> Value {
    json!({"rules": {"m": 15, "n": 15, "k": 5, "overline": false}, "board": gomoku_board(),
           "engine": {"name": "minimax", "time_ms": 200, "seed": 7},
           "include": ["move", "evaluation", "pv", "after"]})
}

/// A `/v1/suggest` example: special pieces, by `priority`.
pub fn suggest_pieces() -> Value {
    with(pieces_position(), json!({"engine": "priority"}))
}

/// A `/v1/suggest` example: renju by `auto`.
pub fn suggest_renju() -> Value {
    with(
        renju_position(),
        json!({"engine": {"name": "auto", "nodes": 20000, "seed": 3}}),
    )
}

pub fn play_3x3() -> Value {
    json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["x..", "...", "..."],
           "move": {"row": 1, "col": 1}, "reply": "perfect"})
}

pub fn play_15x15() -> Value {
    json!({"rules": {"m": 15, "n": 15, "k": 5, "overline": false}, "board": gomoku_board(),
           "move": {"row": 6, "col": 8}, "reply": {"name": "threat", "seed": 7},
           "include": ["move", "evaluation"]})
}

pub fn play_pieces() -> Value {
    with(
        pieces_position(),
        json!({"move": {"row": 2, "col": 1, "piece": "block"},
               "reply": {"name": "priority", "seed": 1}}),
    )
}

pub fn play_renju() -> Value {
    with(
        renju_position(),
        json!({"move": {"row": 6, "col": 6}, "reply": {"name": "threat", "seed": 5}}),
    )
}

pub fn analyse_3x3() -> Value {
    json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["x..", ".o.", "..."],
           "engine": {"name": "perfect", "seed": 42, "multipv": 2}})
}

pub fn analyse_15x15() -> Value {
    json!({"rules": {"m": 15, "n": 15, "k": 5, "overline": false}, "board": gomoku_board(),
           "engine": {"name": "auto", "time_ms": 500, "seed": 7, "multipv": 3},
           "include": ["move", "evaluation", "pv"]})
}

pub fn analyse_pieces() -> Value {
    with(
        pieces_position(),
        json!({"engine": {"name": "minimax", "time_ms": 300, "seed": 3}}),
    )
}

pub fn review_3x3() -> Value {
    json!({"rules": {"m": 3, "n": 3, "k": 3},
           "moves": [{"row": 1, "col": 1}, {"row": 0, "col": 1}, {"row": 0, "col": 0},
                     {"row": 2, "col": 2}, {"row": 2, "col": 0}],
           "engine": "perfect"})
}

pub fn review_15x15() -> Value {
    json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": gomoku_board(),
           "moves": [{"row": 4, "col": 5}, {"row": 9, "col": 9}],
           "engine": {"name": "auto", "seed": 1}, "time_ms_per_move": 150})
}

pub fn review_pieces() -> Value {
    with(
        pieces_position(),
        json!({"moves": [{"row": 2, "col": 1, "piece": "block"}, {"row": 2, "col": 5}],
               "engine": {"name": "minimax", "seed": 2}, "time_ms_per_move": 100}),
    )
}

pub fn analyse_renju() -> Value {
    with(
        renju_position(),
        json!({"engine": {"name": "auto", "time_ms": 300, "seed": 3}}),
    )
}

pub fn review_renju() -> Value {
    with(
        renju_position(),
        json!({"moves": [{"row": 6, "col": 6}, {"row": 8, "col": 8}],
               "engine": {"name": "threat", "seed": 5}, "time_ms_per_move": 100}),
    )
}

/// `/v1/opening`'s own `rules` and `board` schemas, written into the rendered document.
///
/// A schema-driven client (schemathesis' examples phase, a generator) builds requests
/// from the components' examples: `Rules`' 3x3 and `Board`'s `x../.o./...` make a
/// tic-tac-toe request, which every position route accepts but `/v1/opening` refuses
/// (only swap and swap2, k >= 4, have an opening phase). Its `rules` are `Rules` with
/// 15x15 five-in-a-row examples and `opening` required to be `swap` or `swap2` (what the
/// route refuses otherwise); its `board` is `Board` without the example (the empty
/// board, the default).
pub fn opening_schemas(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    let mut rules = schemas["Rules"].clone();
    rules["example"] = json!({"m": 15, "n": 15, "k": 5, "opening": "swap2"});
    for (key, value) in [("m", 15), ("n", 15), ("k", 5)] {
        rules["properties"][key]["example"] = json!(value);
    }
    rules["properties"]["opening"] = json!({
        "type": "string",
        "enum": ["swap", "swap2"],
        "example": "swap2",
        "description": "The opening rule whose phase of decisions this route takes: `swap` or \
    `swap2` (any other is 422 `invalid_rules` at `rules.opening`)."
    });
    if let Some(required) = rules["required"].as_array_mut() {
        required.push(json!("opening"));
    }
    rules["description"] =
        json!("The rules of `/v1/opening`: `Rules` with `opening` `swap` or `swap2`.");
    let mut board = schemas["Board"].clone();
    if let Some(b) = board.as_object_mut() {
        b.remove("examples");
    }
    schemas["OpeningRules"] = rules;
    schemas["OpeningBoard"] = board;
    let request = &mut schemas["OpeningRequest"]["properties"];
    request["rules"]["$ref"] = json!("#/components/schemas/OpeningRules");
    request["board"]["oneOf"][0]["$ref"] = json!("#/components/schemas/OpeningBoard");
}
