//! Property tests of the request parsing: arbitrary bytes, strings and JSON never panic,
//! and every rejection is a located error (a code, a message, and the field where the
//! problem is one field's). The last test sends generated bodies to the live server:
//! no answer is ever a 500.

use kinrow_server::dto::{PlayRequest, StateRequest, SuggestRequest};
use kinrow_server::parse_body;
use kinrow_server::play_answer;
use kinrow_server::prepare_suggest;
use kinrow_server::state_answer;
use kinrow_server::Config;
use kinrow_server::{ApiError, ErrorCode};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Codes that always name their field.
fn located(e: &ApiError) -> bool {
    match e.code {
        ErrorCode::InvalidBoard
        | ErrorCode::InvalidRules
        | ErrorCode::InconsistentTurn
        | ErrorCode::IllegalMove
        | ErrorCode::UnknownEngine
        | ErrorCode::InvalidLimits
        | ErrorCode::GameOver => e.field.as_deref().is_some_and(|f| !f.is_empty()),
        ErrorCode::InvalidJson | ErrorCode::InvalidRequest => !e.message.is_empty(),
        _ => false,
    }
}

fn int() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-3i64..70).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        Just(json!(2.5)),
        Just(json!("3")),
        Just(Value::Null),
    ]
}

fn hand() -> impl Strategy<Value = Value> {
    (int(), int(), int()).prop_map(|(b, r, x)| json!({"block": b, "remove": r, "bomb": x}))
}

fn rules() -> impl Strategy<Value = Value> {
    (
        prop_oneof![4 => 1i64..9, 1 => -2i64..70],
        prop_oneof![4 => 1i64..9, 1 => -2i64..70],
        prop_oneof![4 => 1i64..6, 1 => -2i64..100],
        any::<Option<bool>>(),
        proptest::option::of(hand()),
        proptest::option::of(hand()),
    )
        .prop_map(|(m, n, k, overline, x, o)| {
            let mut r = json!({"m": m, "n": n, "k": k});
            if let Some(ov) = overline {
                r["overline"] = json!(ov);
            }
            if x.is_some() || o.is_some() {
                r["pieces"] = json!({"x": x, "o": o});
            }
            r
        })
}

fn board() -> impl Strategy<Value = Value> {
    proptest::collection::vec("[.xo#XO_\\-qé ]{0,10}", 0..10).prop_map(|rows| json!(rows))
}

fn side() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("x")),
        Just(json!("o")),
        Just(json!("X")),
        Just(json!("z")),
        Just(json!(1)),
        Just(Value::Null),
    ]
}

fn wild_engine() -> impl Strategy<Value = Value> {
    (
        prop_oneof![
            Just(json!("greedy")),
            Just(json!("threat")),
            Just(json!("nope")),
            Just(Value::Null)
        ],
        proptest::option::of(-5i64..20_000),
        proptest::option::of(-2i64..10_000),
        proptest::option::of(-2i64..100_000_000_000_000),
        proptest::option::of(-1.0f64..2.0),
    )
        .prop_map(|(name, time, depth, nodes, mp)| {
            json!({"name": name, "time_ms": time, "depth": depth, "nodes": nodes,
                   "mistake_probability": mp, "seed": 3})
        })
}

fn engine() -> impl Strategy<Value = Value> {
    let names: Vec<&'static str> = kinrow_engine::EngineKind::ALL
        .iter()
        .map(|k| k.name())
        .collect();
    let valid = (
        proptest::sample::select(if names.is_empty() {
            vec!["none"]
        } else {
            names
        }),
        proptest::option::of(1i64..6),
        any::<u64>(),
    )
        .prop_map(|(name, depth, seed)| json!({"name": name, "depth": depth, "seed": seed}));
    prop_oneof![2 => valid, 1 => wild_engine()]
}

fn request() -> impl Strategy<Value = Value> {
    (
        prop_oneof![1 => rules(), 1 => (1i64..9, 1i64..9, 1i64..6).prop_map(|(m, n, k)| json!({"m": m, "n": n, "k": k}))],
        proptest::option::of(board()),
        proptest::option::of(side()),
        engine(),
        (-2i64..12, -2i64..12),
        prop_oneof![
            Just("mark"),
            Just("block"),
            Just("remove"),
            Just("bomb"),
            Just("x")
        ],
    )
        .prop_map(|(rules, board, to_move, engine, (row, col), piece)| {
            json!({"rules": rules, "board": board, "to_move": to_move, "engine": engine,
                   "move": {"row": row, "col": col, "piece": piece}})
        })
}

/// The request with only the fields `keep` names.
fn only(v: &Value, keep: &[&str]) -> Value {
    let mut out = serde_json::Map::new();
    for k in keep {
        if let Some(x) = v.get(*k) {
            if !x.is_null() {
                out.insert(k.to_string(), x.clone());
            }
        }
    }
    Value::Object(out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        for e in [
            parse_body::<SuggestRequest>(&bytes).err(),
            parse_body::<StateRequest>(&bytes).err(),
            parse_body::<PlayRequest>(&bytes).err(),
        ]
        .into_iter()
        .flatten()
        {
            prop_assert!(matches!(e.code, ErrorCode::InvalidJson | ErrorCode::InvalidRequest));
            prop_assert!(located(&e), "{e}");
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,200}") {
        if let Err(e) = parse_body::<SuggestRequest>(s.as_bytes()) {
            prop_assert!(located(&e), "{e}");
        }
    }

    #[test]
    fn generated_requests_parse_or_give_located_errors(req in request()) {
        let config = Config::for_tests();
        let state = only(&req, &["rules", "board", "to_move"]);
        let suggest = only(&req, &["rules", "board", "to_move", "engine"]);
        let play = only(&req, &["rules", "board", "to_move", "move"]);
        let bytes = |v: &Value| serde_json::to_vec(v).unwrap();

        match parse_body::<StateRequest>(&bytes(&state)) {
            Ok(r) => match state_answer(&r) {
                Ok(answer) => prop_assert_eq!(answer.board.len() as i64, r.rules.n),
                Err(e) => prop_assert!(located(&e) && e.code != ErrorCode::Internal, "{e}"),
            },
            Err(e) => prop_assert!(located(&e), "{e}"),
        }
        match parse_body::<SuggestRequest>(&bytes(&suggest)) {
            Ok(r) => if let Err(e) = prepare_suggest(&r, &config) {
                prop_assert!(located(&e) && e.code != ErrorCode::Internal, "{e}");
            },
            Err(e) => prop_assert!(located(&e), "{e}"),
        }
        match parse_body::<PlayRequest>(&bytes(&play)) {
            Ok(r) => if let Err(e) = play_answer(&r) {
                prop_assert!(located(&e) && e.code != ErrorCode::Internal, "{e}");
            },
            Err(e) => prop_assert!(located(&e), "{e}"),
        }
    }

    /// A mutated valid body: one field replaced by a value of another type.
    #[test]
    fn mutated_bodies_name_the_field(which in 0usize..5, junk in prop_oneof![
        Just(json!("text")), Just(json!([1])), Just(json!({"a": 1})), Just(json!(true)), Just(json!(-1.5))
    ]) {
        let mut body = json!({"rules": {"m": 3, "n": 3, "k": 3}, "board": ["...", "...", "..."],
                              "engine": {"time_ms": 10}});
        let field = match which {
            0 => { body["rules"]["m"] = junk.clone(); "rules.m" }
            1 => { body["rules"]["k"] = junk.clone(); "rules.k" }
            2 => {
                // A string is a board row (checked later, as invalid_board); any other type is not.
                body["board"][1] = if junk.is_string() { json!(7) } else { junk.clone() };
                "board[1]"
            }
            3 => { body["engine"]["time_ms"] = junk.clone(); "engine.time_ms" }
            _ => { body["to_move"] = junk.clone(); "to_move" }
        };
        let e = parse_body::<SuggestRequest>(&serde_json::to_vec(&body).unwrap()).err().unwrap();
        prop_assert_eq!(e.code, ErrorCode::InvalidRequest);
        // A row given as an array is checked cell by cell: `[1]` is wrong at `board[1][0]`.
        prop_assert!(e.field.as_deref().is_some_and(|f| f == field || f.starts_with(&format!("{field}["))), "{e}");
    }
}

#[test]
fn generated_bodies_over_http_never_get_a_500() {
    let s = crate::support::spawn();
    let answered = std::cell::Cell::new(0);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 60,
        ..ProptestConfig::default()
    });
    runner
        .run(&request(), |req| {
            for (path, keep) in [
                ("/v1/state", &["rules", "board", "to_move"][..]),
                ("/v1/suggest", &["rules", "board", "to_move", "engine"][..]),
                ("/v1/play", &["rules", "board", "to_move", "move"][..]),
            ] {
                let mut body = only(&req, keep);
                if path == "/v1/suggest" {
                    // Keep each search short.
                    body["engine"]["time_ms"] = json!(20);
                }
                let (status, b) = s.call(path, &body);
                prop_assert!(status != 500, "{path} {body}: {b}");
                if status == 200 && path == "/v1/suggest" {
                    answered.set(answered.get() + 1);
                }
                prop_assert!(
                    status == 200 || b["error"]["code"].is_string(),
                    "{path} {body}: {status} {b}"
                );
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "{} generated suggest requests got an engine's answer",
        answered.get()
    );
    assert!(
        answered.get() > 0,
        "some generated requests reach an engine"
    );
}
