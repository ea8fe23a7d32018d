//! Proofs where they are cheap, through the API: on a board where no line of k cells
//! fits every engine answers a proven draw, and `minimax`, which searches 3x3 to the end,
//! answers the outcome it proved.

use crate::support::spawn;
use serde_json::json;

#[test]
fn no_line_fits_is_a_proven_draw_from_every_engine_through_the_api() {
    let s = spawn();
    for name in [
        "auto", "perfect", "minimax", "mcts", "threat", "priority", "greedy",
    ] {
        let (st, b) = s.call(
            "/v1/suggest",
            &json!({"rules": {"m": 15, "n": 15, "k": 20},
                    "engine": {"name": name, "time_ms": 200, "seed": 1}}),
        );
        assert_eq!(st, 200, "{name}: {b}");
        assert_eq!(
            b["evaluation"]["outcome"], "draw",
            "{name}: {}",
            b["evaluation"]
        );
        assert_eq!(b["evaluation"]["value"], 0.0, "{name}: {}", b["evaluation"]);
    }
}

#[test]
fn minimax_on_3x3_answers_what_it_proved() {
    let s = spawn();
    let (st, b) = s.call(
        "/v1/suggest",
        &json!({"rules": {"m": 3, "n": 3, "k": 3}, "engine": {"name": "minimax", "seed": 1}}),
    );
    assert_eq!(st, 200, "{b}");
    assert_eq!(b["evaluation"]["outcome"], "draw", "{}", b["evaluation"]);
    assert_eq!(b["stats"]["complete"], true, "{}", b["stats"]);
}
