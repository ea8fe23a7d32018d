//! Opening rules through the API: every step of swap and swap2 through `/v1/opening`
//! (the answer's shape, `after` sent back as the next request), reproducibility with a
//! seed, the errors; pro through `/v1/state` and `/v1/play`; the ordinary endpoints
//! refusing a swap board still in its first placement.

use crate::support::{assert_error, spawn, TestServer};
use serde_json::{json, Value};

fn rules(opening: &str) -> Value {
    json!({"m": 15, "n": 15, "k": 5, "opening": opening})
}

fn engine(seed: u64) -> Value {
    json!({"name": "auto", "nodes": 20000, "seed": seed})
}

fn stones(board: &Value) -> (usize, usize) {
    let rows = board.as_array().unwrap();
    let count = |c: char| {
        rows.iter()
            .map(|r| r.as_str().unwrap().chars().filter(|&x| x == c).count())
            .sum()
    };
    (count('x'), count('o'))
}

/// Checks the common shape of an answer: the chosen option is the decision, every value
/// lies in [-1, 1], and the chosen option is the best one (full level).
fn check(answer: &Value, step: &str, decides: &str) {
    assert_eq!(answer["step"], step, "{answer}");
    assert_eq!(answer["decides"], decides, "{answer}");
    let options = answer["options"].as_array().unwrap();
    let chosen: Vec<&Value> = options.iter().filter(|o| o["chosen"] == true).collect();
    assert_eq!(chosen.len(), 1, "{answer}");
    let best = options
        .iter()
        .map(|o| o["value"].as_f64().unwrap())
        .fold(f64::NEG_INFINITY, f64::max);
    for o in options {
        let v = o["value"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&v), "{answer}");
    }
    assert_eq!(chosen[0]["value"].as_f64().unwrap(), best, "{answer}");
    match chosen[0]["option"].as_str().unwrap() {
        "choose_x" => assert_eq!(answer["decision"], json!({"choose": "x"})),
        "choose_o" => assert_eq!(answer["decision"], json!({"choose": "o"})),
        _ => assert_eq!(answer["decision"]["place"], chosen[0]["place"], "{answer}"),
    }
    assert!(answer["stats"]["nodes"].as_u64().unwrap() > 0, "{answer}");
}

/// The opening request of an earlier answer's `after`.
fn next(after: &Value, seed: u64) -> Value {
    let mut body = after.clone();
    body["engine"] = engine(seed);
    body
}

fn post_ok(server: &TestServer, body: &Value) -> Value {
    let (status, answer) = server.call("/v1/opening", body);
    assert_eq!(status, 200, "{answer}");
    answer
}

#[test]
fn swap_places_three_then_the_second_player_chooses() {
    let server = spawn();
    let first = post_ok(
        &server,
        &json!({"rules": rules("swap"), "engine": engine(3)}),
    );
    check(&first, "place3", "first");
    let placed = first["decision"]["place"].as_array().unwrap();
    let sides: Vec<&str> = placed.iter().map(|s| s["side"].as_str().unwrap()).collect();
    assert_eq!(sides, ["x", "o", "x"]);
    assert_eq!(first["stats"]["source"], "table");
    assert_eq!(stones(&first["after"]["board"]), (2, 1));
    assert_eq!(first["after"]["step"], "choose");
    assert_eq!(first["after"]["decides"], "second");
    assert_eq!(first["after"]["to_move"], "o");
    // The state of that board names the step too.
    let position = json!({"rules": first["after"]["rules"], "board": first["after"]["board"]});
    let (_, state) = server.call("/v1/state", &position);
    assert_eq!(
        state["opening"],
        json!({"step": "choose", "decides": "second"})
    );

    let second = post_ok(&server, &next(&first["after"], 4));
    check(&second, "choose", "second");
    let options: Vec<&str> = second["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["option"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["choose_x", "choose_o"]);
    let (vx, vo) = (
        second["options"][0]["value"].as_f64().unwrap(),
        second["options"][1]["value"].as_f64().unwrap(),
    );
    assert_eq!(vx, -vo);
    assert_eq!(second["after"]["step"], Value::Null);
    assert_eq!(second["after"]["board"], first["after"]["board"]);
    // The game goes on with the ordinary endpoints.
    // (`step` and `decides` belong to /v1/opening's `after`: the game sends rules and board.)
    let game = json!({"rules": second["after"]["rules"], "board": second["after"]["board"], "engine": engine(5)});
    let (status, suggestion) = server.call("/v1/suggest", &game);
    assert_eq!(status, 200, "{suggestion}");
}

#[test]
fn swap2_offers_three_options_and_a_choice_after_five() {
    let server = spawn();
    let first = post_ok(
        &server,
        &json!({"rules": rules("swap2"), "engine": engine(11)}),
    );
    check(&first, "place3", "first");
    assert_eq!(first["after"]["step"], "place2_or_choose");
    let second = post_ok(&server, &next(&first["after"], 12));
    check(&second, "place2_or_choose", "second");
    let options = second["options"].as_array().unwrap();
    let names: Vec<&str> = options
        .iter()
        .map(|o| o["option"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["choose_x", "choose_o", "place2"]);
    let two = options[2]["place"].as_array().unwrap();
    let sides: Vec<&str> = two.iter().map(|s| s["side"].as_str().unwrap()).collect();
    assert_eq!(sides, ["o", "x"]);
    // The fifth-stone step, from the board the place2 option proposes.
    let mut board: Vec<Vec<u8>> = first["after"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().as_bytes().to_vec())
        .collect();
    for s in two {
        let (r, c) = (
            s["row"].as_u64().unwrap() as usize,
            s["col"].as_u64().unwrap() as usize,
        );
        board[r][c] = s["side"].as_str().unwrap().as_bytes()[0];
    }
    let board: Vec<String> = board
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect();
    let body = json!({"rules": rules("swap2"), "board": board, "engine": engine(13)});
    let third = post_ok(&server, &body);
    check(&third, "choose_after_5", "first");
    assert_eq!(third["options"].as_array().unwrap().len(), 2);
    assert_eq!(third["after"]["step"], Value::Null);
}

#[test]
fn the_same_seed_gives_the_same_answer_and_seeds_vary_the_proposal() {
    let server = spawn();
    let ask = |seed| {
        let mut a = post_ok(
            &server,
            &json!({"rules": rules("swap2"), "engine": engine(seed)}),
        );
        a["stats"]["elapsed_ms"] = json!(0);
        a
    };
    assert_eq!(ask(21), ask(21));
    let boards: std::collections::HashSet<String> = (30..34)
        .map(|s| ask(s)["after"]["board"].to_string())
        .collect();
    assert!(boards.len() > 1, "four seeds, one proposal");
    // Off the table (a 13x13 board) the search proposes, reproducibly too.
    let body = json!({"rules": {"m": 13, "n": 13, "k": 5, "opening": "swap"}, "engine": engine(5)});
    let (a, b) = (post_ok(&server, &body), post_ok(&server, &body));
    assert_eq!(a["stats"]["source"], "search");
    assert_eq!(a["decision"], b["decision"]);
    assert_eq!(a["options"], b["options"]);
}

#[test]
fn opening_errors_name_the_field() {
    let server = spawn();
    for opening in ["free", "pro", "long_pro"] {
        let (status, body) = server.call("/v1/opening", &json!({"rules": rules(opening)}));
        assert_error(status, &body, 422, "invalid_rules", Some("rules.opening"));
    }
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = ".......x.......".into();
    let (status, body) = server.call(
        "/v1/opening",
        &json!({"rules": rules("swap2"), "board": rows}),
    );
    assert_error(status, &body, 422, "invalid_board", Some("board"));
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = "....xoxox.o....".into();
    let (status, body) = server.call(
        "/v1/opening",
        &json!({"rules": rules("swap"), "board": rows}),
    );
    assert_error(status, &body, 422, "invalid_board", Some("board"));
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("past its opening"));
    // Opening rules with gravity or special pieces make no sense.
    let gravity = json!({"rules": {"m": 15, "n": 15, "k": 5, "gravity": true, "opening": "swap"}});
    let (status, body) = server.call("/v1/state", &gravity);
    assert_error(status, &body, 422, "invalid_rules", Some("rules.opening"));
    // The ordinary endpoints send a first placement to /v1/opening.
    let empty = json!({"rules": rules("swap2")});
    let (status, body) = server.call("/v1/suggest", &empty);
    assert_error(status, &body, 422, "opening_phase", Some("rules.opening"));
    let play = json!({"rules": rules("swap"), "move": {"row": 7, "col": 7}});
    let (status, body) = server.call("/v1/play", &play);
    assert_error(status, &body, 422, "opening_phase", Some("rules.opening"));
    // The review too (issue 54 item 9): it searched a first placement as free play.
    let review = json!({"rules": rules("swap2"), "moves": [{"row": 7, "col": 7}]});
    let (status, body) = server.call("/v1/review", &review);
    assert_error(status, &body, 422, "opening_phase", Some("rules.opening"));
}

#[test]
fn pro_lists_its_forbidden_cells_and_play_refuses_them() {
    let server = spawn();
    let (status, state) = server.call("/v1/state", &json!({"rules": rules("long_pro")}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["forbidden"].as_array().unwrap().len(), 224);
    assert_eq!(state["forbidden"][0]["reason"], "off_centre");
    assert_eq!(state["legal_moves"], 1);
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = ".......xo......".into();
    let body = json!({"rules": rules("long_pro"), "board": rows});
    let (_, state) = server.call("/v1/state", &body);
    let list = state["forbidden"].as_array().unwrap();
    assert_eq!(list.len(), 49 - 2);
    assert!(list.iter().all(|f| f["reason"] == "near_centre"));
    let mut play = body.clone();
    play["move"] = json!({"row": 10, "col": 10});
    let (status, answer) = server.call("/v1/play", &play);
    assert_error(status, &answer, 422, "forbidden_move", Some("move"));
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("long_pro"));
    play["move"] = json!({"row": 11, "col": 7});
    play["reply"] = json!({"name": "auto", "nodes": 5000, "seed": 1});
    let (status, answer) = server.call("/v1/play", &play);
    assert_eq!(status, 200, "{answer}");
    // The engine answers, and its answer follows the rules too.
    let (status, answer) = server.call(
        "/v1/suggest",
        &json!({"rules": rules("pro"), "engine": engine(2)}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["move"]["row"], 7);
    assert_eq!(answer["move"]["col"], 7);
}

/// One number for one thing: the value `/v1/opening` gives the choice of o after three
/// stones is the value `/v1/suggest` gives the same position for o, at the same node
/// budget and seed (a search by nodes starts afresh, so neither borrows the other's
/// table), and choosing x is worth its opposite.
#[test]
fn the_choice_values_are_what_suggest_says_of_the_same_position() {
    let server = spawn();
    let mut board = vec!["...............".to_string(); 15];
    board[6] = "........x......".into();
    board[7] = ".......x.......".into();
    board[8] = "......o........".into();
    let choose = post_ok(
        &server,
        &json!({"rules": rules("swap"), "board": board, "engine": engine(7)}),
    );
    check(&choose, "choose", "second");
    let value = |option: &str| {
        choose["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["option"] == option)
            .unwrap_or_else(|| panic!("no {option}: {choose}"))["value"]
            .as_f64()
            .unwrap()
    };
    let (status, suggest) = server.call(
        "/v1/suggest",
        &json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": board, "to_move": "o", "engine": engine(7)}),
    );
    assert_eq!(status, 200, "{suggest}");
    let for_o = suggest["evaluation"]["value"].as_f64().unwrap();
    assert_eq!(value("choose_o"), for_o, "{choose}\n{suggest}");
    assert_eq!(value("choose_x"), -for_o, "{choose}");
}
