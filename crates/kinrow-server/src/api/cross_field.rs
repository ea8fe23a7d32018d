//! The cross-field rules of the request bodies, written into the OpenAPI document as
//! JSON Schema `if`/`then` (OpenAPI 3.1), so that a generated validator knows them:
//! utoipa's schema types cannot say "this field is required when that one holds
//! something", so [`add`] writes them into the rendered document.
//!
//! The rule: when a player holds a special piece (any count of `rules.pieces` above 0),
//! the counts of marks prove nothing about whose turn it is, and `to_move` is required
//! (422 `inconsistent_turn` without it).

use serde_json::{json, Value};

/// The request bodies that carry a position (`rules`, `board`, `to_move`).
const POSITIONS: [&str; 4] = [
    "StateRequest",
    "SuggestRequest",
    "PlayRequest",
    "ReviewRequest",
];

/// The schema of a body in which some player holds a special piece.
fn holds_special_pieces() -> Value {
    let any_count = |player: &str| {
        let counts: Vec<Value> = ["block", "remove", "bomb"]
            .iter()
            .map(|&piece| {
                json!({
                    "type": "object",
                    "required": [piece],
                    "properties": {piece: {"type": "integer", "minimum": 1}}
                })
            })
            .collect();
        json!({
            "type": "object",
            "required": [player],
            "properties": {player: {"anyOf": counts}}
        })
    };
    json!({
        "type": "object",
        "required": ["rules"],
        "properties": {
            "rules": {
                "type": "object",
                "required": ["pieces"],
                "properties": {"pieces": {"anyOf": [any_count("x"), any_count("o")]}}
            }
        }
    })
}

/// Writes the cross-field rules into `doc` (the OpenAPI document as JSON).
pub fn add(doc: &mut Value) {
    for name in POSITIONS {
        let Some(schema) = doc
            .pointer_mut(&format!("/components/schemas/{name}"))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        schema.insert("if".to_string(), holds_special_pieces());
        // Present and not null: `"to_move": null` is refused like an absent one
        // (schemathesis found the null let through by `required` alone, issue 54 item 11).
        schema.insert(
            "then".to_string(),
            json!({"required": ["to_move"], "properties": {"to_move": {"not": {"type": "null"}}}}),
        );
        let rule = "When a player holds a special piece (a count in `rules.pieces` above 0), \
`to_move` is required and not null (this schema's `if`/`then`; 422 `inconsistent_turn` \
without it).";
        let description = match schema.get("description").and_then(Value::as_str) {
            Some(d) => format!("{d}\n\n{rule}"),
            None => rule.to_string(),
        };
        schema.insert("description".to_string(), Value::String(description));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny evaluator of the `if` schema for the shapes it uses (object, required,
    /// properties, anyOf, integer minimum).
    fn matches(schema: &Value, value: &Value) -> bool {
        if let Some(t) = schema.get("type").and_then(Value::as_str) {
            let ok = match t {
                "object" => value.is_object(),
                "integer" => value.as_f64().is_some_and(|f| f.fract() == 0.0),
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            if value.as_f64().is_some_and(|v| v < min) {
                return false;
            }
        }
        if let Some(req) = schema.get("required").and_then(Value::as_array) {
            if !req.iter().all(|k| value.get(k.as_str().unwrap()).is_some()) {
                return false;
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, s) in props {
                if let Some(v) = value.get(k) {
                    if !matches(s, v) {
                        return false;
                    }
                }
            }
        }
        if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
            return any.iter().any(|s| matches(s, value));
        }
        true
    }

    #[test]
    fn the_if_schema_matches_exactly_the_bodies_with_special_pieces() {
        let cond = holds_special_pieces();
        let rules = |pieces: Value| json!({"rules": {"m": 7, "n": 7, "k": 4, "pieces": pieces}});
        // (body, holds special pieces)
        let table = [
            (json!({"rules": {"m": 3, "n": 3, "k": 3}}), false),
            (rules(Value::Null), false),
            (rules(json!({})), false),
            (rules(json!({"x": {"block": 0, "remove": 0}})), false),
            (rules(json!({"x": null, "o": {"bomb": null}})), false),
            (rules(json!({"x": {"block": 1}})), true),
            (rules(json!({"o": {"remove": 2}})), true),
            (rules(json!({"x": {"block": 0}, "o": {"bomb": 1}})), true),
        ];
        for (body, want) in table {
            assert_eq!(matches(&cond, &body), want, "{body}");
        }
    }

    #[test]
    fn every_position_body_gets_the_rule() {
        let mut doc = json!({"components": {"schemas": {
            "StateRequest": {"type": "object"}, "SuggestRequest": {"type": "object"},
            "PlayRequest": {"type": "object"}, "ReviewRequest": {"type": "object"}}}});
        add(&mut doc);
        for name in POSITIONS {
            let s = &doc["components"]["schemas"][name];
            assert_eq!(s["then"]["required"], json!(["to_move"]), "{name}");
            let not_null = &s["then"]["properties"]["to_move"]["not"];
            assert_eq!(not_null, &json!({"type": "null"}), "{name}");
            assert!(s["description"].as_str().unwrap().contains("to_move"));
        }
    }
}
