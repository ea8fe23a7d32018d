//! The OpenAPI document: the committed `openapi/openapi.json` is exactly what the code
//! generates, it is a well-formed OpenAPI 3 document, and it describes the live server.
//! After changing the API, regenerate it with `cargo run -- openapi > openapi/openapi.json`.

use kinrow_engine::EngineKind;
use serde_json::Value;

const COMMITTED: &str = include_str!("../../openapi/openapi.json");

fn doc() -> Value {
    serde_json::from_str(&kinrow_server::openapi_json()).unwrap()
}

#[test]
fn the_committed_document_matches_the_code() {
    let committed: Value = serde_json::from_str(COMMITTED).expect("openapi.json is JSON");
    assert!(
        committed == doc(),
        "openapi/openapi.json is stale: run `cargo run -- openapi > openapi/openapi.json`"
    );
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if k == "$ref" {
                    out.push(x.as_str().expect("$ref is a string").to_string());
                } else {
                    collect_refs(x, out);
                }
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

#[test]
fn the_document_is_well_formed_openapi_3() {
    let d = doc();
    assert!(d["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(d["info"]["title"], "kinrow");
    assert!(d["info"]["version"].is_string());
    let schemas = d["components"]["schemas"].as_object().unwrap();
    let mut refs = Vec::new();
    collect_refs(&d, &mut refs);
    assert!(!refs.is_empty());
    for r in refs {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("unexpected $ref {r}"));
        assert!(schemas.contains_key(name), "$ref {r} resolves");
    }
    let methods = ["get", "post", "put", "delete", "patch", "options", "head"];
    for (path, item) in d["paths"].as_object().unwrap() {
        assert!(path.starts_with('/'));
        for (method, op) in item.as_object().unwrap() {
            assert!(methods.contains(&method.as_str()), "{method} {path}");
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.contains_key("200"),
                "{method} {path} documents 200"
            );
            for (code, resp) in responses {
                assert!(code.parse::<u16>().is_ok(), "{code}");
                assert!(resp["description"].is_string(), "{method} {path} {code}");
            }
            if method == "post" {
                for code in ["400", "413", "415", "422", "500"] {
                    assert!(
                        responses.contains_key(code),
                        "{method} {path} documents {code}"
                    );
                }
                assert!(op["requestBody"]["content"]["application/json"].is_object());
            }
        }
    }
}

/// The engine name is a string with no enum (external engines are named by the
/// operator at start-up); its description names every engine of the registry.
#[test]
fn the_engine_names_are_the_registry() {
    let d = doc();
    let schema = &d["components"]["schemas"]["EngineName"];
    assert!(schema.get("enum").is_none(), "{schema}");
    let text = schema["description"].as_str().unwrap();
    for kind in EngineKind::ALL {
        assert!(text.contains(kind.name()), "{text}");
    }
}

#[test]
fn every_documented_operation_exists_on_the_server() {
    let s = crate::support::spawn();
    let d = doc();
    for (path, item) in d["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let mut req = s.client.request(m, s.url(path));
            if method == "post" {
                req = req.header("content-type", "application/json").body("{}");
            }
            let r = req.send().unwrap();
            assert!(
                r.status() != 404 && r.status() != 405,
                "{method} {path}: {}",
                r.status()
            );
        }
    }
}

#[test]
fn every_request_example_is_accepted() {
    let s = crate::support::spawn();
    let d = doc();
    let mut posted = 0;
    for (path, item) in d["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let examples = op["requestBody"]["content"]["application/json"]["examples"]
            .as_object()
            .unwrap_or_else(|| panic!("POST {path} has whole-request examples"));
        let names: Vec<&String> = examples.keys().collect();
        // The opening phase exists only for swap and swap2 (k >= 4, marks only): its
        // examples are the phase's steps instead.
        let expected: &[&str] = if path == "/v1/opening" {
            &[
                "swap, three stones",
                "swap2, first placement",
                "swap2, three stones",
            ]
        } else {
            &["gomoku", "renju", "special pieces", "tic-tac-toe"]
        };
        assert_eq!(
            names, expected,
            "POST {path}: a 3x3, a 15x15, a renju and a special-pieces example (opening: its steps)"
        );
        for (name, example) in examples {
            // A 503 (no search slot, or no iteration completed in time on a machine busy
            // with the other tests) is the contract's answer to load, not a refusal of
            // the example: it is asked again after the `Retry-After` it names.
            let mut r = s.post(path, &example["value"]);
            for _ in 0..5 {
                if r.status().as_u16() != 503 {
                    break;
                }
                let after = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
                    .unwrap_or(1);
                std::thread::sleep(std::time::Duration::from_secs(after.min(2)));
                r = s.post(path, &example["value"]);
            }
            let status = r.status().as_u16();
            let streamed = r
                .headers()
                .get("content-type")
                .is_some_and(|v| v.to_str().unwrap().starts_with("text/event-stream"));
            let body = r.text().unwrap();
            assert_eq!(status, 200, "POST {path} example {name:?}: {body}");
            if streamed {
                assert!(body.contains("event: result\n"), "{path} {name}: {body}");
            } else {
                serde_json::from_str::<Value>(&body).expect("a JSON answer");
            }
            posted += 1;
        }
    }
    assert_eq!(posted, 23);
}

/// The value a schema-driven client builds for `schema` from the document's examples
/// alone (schemathesis' examples phase): the schema's own example, else (with `parts`, or
/// when it has none) an object of its properties' examples, an array of its items'
/// example, or the first branch of a `oneOf` that has one; `None` when nothing has an
/// example.
fn from_examples(d: &Value, schema: &Value, parts: bool) -> Option<Value> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/components/schemas/");
        return from_examples(d, &d["components"]["schemas"][name], parts);
    }
    let own = schema
        .get("example")
        .or_else(|| schema.get("examples").and_then(|e| e.get(0)))
        .cloned();
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        return own.or_else(|| branches.iter().find_map(|b| from_examples(d, b, parts)));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        if own.is_some() && !parts {
            return own;
        }
        let object: serde_json::Map<String, Value> = properties
            .iter()
            .filter_map(|(name, p)| Some((name.clone(), from_examples(d, p, parts)?)))
            .collect();
        return if object.is_empty() {
            own
        } else {
            Some(Value::Object(object))
        };
    }
    if own.is_none() && schema.get("type").and_then(Value::as_str) == Some("array") {
        return Some(Value::Array(vec![from_examples(
            d,
            &schema["items"],
            parts,
        )?]));
    }
    own
}

#[test]
fn request_property_examples_fit_together() {
    // A schema-driven client (schemathesis' examples phase, a client generator) builds
    // requests from the per-field examples: the board, its side to move, a move on an
    // empty cell of it and the rules must make one game the server accepts, whether the
    // objects' own examples or their properties' are taken.
    let s = crate::support::spawn();
    let d = doc();
    let mut posted = 0;
    for (path, item) in d["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let schema = &op["requestBody"]["content"]["application/json"]["schema"];
        for parts in [false, true] {
            let body = from_examples(&d, schema, parts)
                .unwrap_or_else(|| panic!("POST {path}: its fields have examples"));
            let r = s.post(path, &body);
            let status = r.status().as_u16();
            let text = r.text().unwrap();
            assert_eq!(
                status, 200,
                "POST {path} built from the examples {body}: {text}"
            );
            posted += 1;
        }
    }
    assert_eq!(posted, 12, "two requests for each of the six POST routes");
}
