//! Overload over HTTP: with one search slot and a queue of one, a burst of slow searches
//! gets 503s with `Retry-After` at once, `/healthz` keeps answering, and no request
//! outlives its budget plus the margin.

use std::thread;
use std::time::{Duration, Instant};

use crate::support::spawn_with;
use kinrow_engine::EngineKind;
use kinrow_server::Config;
use serde_json::{json, Value};

/// An engine that spends its whole budget on a 15x15 board.
fn slow_engine() -> Option<&'static str> {
    ["mcts", "minimax", "perfect"]
        .into_iter()
        .find(|n| EngineKind::parse(n).is_some())
}

#[test]
fn a_burst_gets_503s_while_healthz_answers() {
    let Some(engine) = slow_engine() else {
        eprintln!("no slow engine in the registry; the pool test covers the mechanism");
        return;
    };
    let mut config = Config::for_tests();
    config.max_concurrent_searches = 1;
    config.search_queue = 1;
    let margin = config.margin;
    let s = spawn_with(config);
    let budget = Duration::from_millis(400);
    let body = json!({"rules": {"m": 15, "n": 15, "k": 5},
        "engine": {"name": engine, "time_ms": budget.as_millis() as u64}});

    let burst: Vec<_> = (0..8)
        .map(|_| {
            let url = s.url("/v1/suggest");
            let body = body.clone();
            thread::spawn(move || {
                let client = reqwest::blocking::Client::new();
                let start = Instant::now();
                let r = client.post(url).json(&body).send().expect("answer");
                let took = start.elapsed();
                let status = r.status().as_u16();
                let retry = r
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_string());
                let b: Value = r.json().expect("JSON");
                (status, retry, b, took)
            })
        })
        .collect();

    // Meanwhile the server stays live.
    thread::sleep(Duration::from_millis(50));
    for _ in 0..5 {
        let start = Instant::now();
        assert_eq!(s.get("/healthz").status(), 200);
        assert!(
            start.elapsed() < Duration::from_millis(100),
            "healthz took {:?} under load",
            start.elapsed()
        );
        thread::sleep(Duration::from_millis(40));
    }

    let mut ok = 0;
    let mut refused = 0;
    for t in burst {
        let (status, retry, b, took) = t.join().unwrap();
        match status {
            200 => {
                ok += 1;
                assert!(b["limits"]["time_ms"].as_u64().unwrap() <= budget.as_millis() as u64);
            }
            503 => {
                refused += 1;
                assert_eq!(b["error"]["code"], "overloaded", "{b}");
                assert_eq!(retry.as_deref(), Some("1"), "Retry-After on every 503");
            }
            other => panic!("unexpected status {other}: {b}"),
        }
        // Budget + margin, plus slack for a busy test machine.
        assert!(
            took < budget + margin + Duration::from_millis(150),
            "a request took {took:?}"
        );
    }
    assert!(ok >= 1, "the first search runs");
    assert!(
        refused >= 6,
        "past one running and one queued: {refused} refused"
    );

    let metrics = s.get("/metrics").text().unwrap();
    assert!(
        metrics.contains(&format!(
            r#"kinrow_searches_total{{engine="{engine}",result="ok"}} {ok}"#
        )),
        "{metrics}"
    );
    assert!(metrics.contains(r#"result="overloaded""#), "{metrics}");
}
