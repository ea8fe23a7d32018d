//! A client that hangs up frees what it held (issue 54, items 1-2): its running search
//! stops and gives its slot back, and a request still waiting for a slot gives its queue
//! place up at once, on every route that searches (suggest, play with a reply, analyse,
//! review). The clients are raw TCP connections that send a request and close.

use std::io::Write;
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{spawn_with, TestServer};
use kinrow_server::Config;
use serde_json::{json, Value};

/// A 15x15 midgame that keeps `minimax` busy for its whole budget.
const MID: &str = "......./......./......./......./......o/......xx/.......xo/........o/......./......./......./......./......./......./.......";

fn mid15() -> Value {
    let rows: Vec<String> = MID.split('/').map(|r| format!("{r:.<15}")).collect();
    json!({"m": 15, "n": 15, "k": 5, "board": rows})
}

/// A long search request of each searching route (5 s budgets, or a long review).
fn long(route: &str) -> Value {
    let mid = mid15();
    let rules = json!({"m": 15, "n": 15, "k": 5});
    let engine = json!({"name": "minimax", "time_ms": 5000, "seed": 1});
    match route {
        "/v1/suggest" | "/v1/analyse" => {
            json!({"rules": rules, "board": mid["board"], "engine": engine})
        }
        "/v1/play" => json!({"rules": rules, "board": mid["board"],
            "move": {"row": 0, "col": 0}, "reply": engine}),
        "/v1/review" => json!({"rules": rules, "engine": "minimax", "time_ms_per_move": 2000,
            "moves": [{"row": 7, "col": 7}, {"row": 7, "col": 8}, {"row": 8, "col": 8},
                      {"row": 6, "col": 6}, {"row": 9, "col": 9}]}),
        other => panic!("no long request for {other}"),
    }
}

/// Opens a connection, sends `body` to `route` and keeps the connection open (the
/// client hangs up when the stream is dropped).
fn send(s: &TestServer, route: &str, body: &Value) -> TcpStream {
    let addr = s.base.trim_start_matches("http://");
    let mut tcp = TcpStream::connect(addr).expect("connect");
    let body = body.to_string();
    let head = format!(
        "POST {route} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    tcp.write_all(head.as_bytes()).expect("head");
    tcp.write_all(body.as_bytes()).expect("body");
    tcp
}

/// The value of the gauge `name` in `/metrics`.
fn gauge(s: &TestServer, name: &str) -> i64 {
    let text = s.get("/metrics").text().expect("metrics");
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

/// How long it took `name` to read `want` (polled every 10 ms), or `None` past `limit`.
fn reaches(s: &TestServer, name: &str, want: i64, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if gauge(s, name) == want {
            return Some(start.elapsed());
        }
        thread::sleep(Duration::from_millis(10));
    }
    None
}

const RUNNING: &str = "kinrow_searches_in_flight";
const QUEUED: &str = "kinrow_searches_queued";

/// Within this after the hang-up (the engine stops at its next budget check); every
/// search here would otherwise run for seconds more. Generous for a loaded machine.
const FREED_WITHIN: Duration = Duration::from_millis(1000);

#[test]
fn clients_that_hang_up_free_their_slot_and_their_queue_places() {
    let mut config = Config::for_tests();
    config.max_concurrent_searches = 1;
    config.search_queue = 4;
    let s = spawn_with(config);

    // One long search holds the only slot; one of each searching route waits behind it.
    let running = send(&s, "/v1/suggest", &long("/v1/suggest"));
    assert!(reaches(&s, RUNNING, 1, Duration::from_secs(3)).is_some());
    let routes = ["/v1/suggest", "/v1/play", "/v1/analyse", "/v1/review"];
    let waiting: Vec<TcpStream> = routes.iter().map(|r| send(&s, r, &long(r))).collect();
    assert!(
        reaches(&s, QUEUED, 4, Duration::from_secs(3)).is_some(),
        "the queue never filled"
    );

    // The waiting clients hang up: their places are free at once, and the queue takes
    // new requests instead of answering 503 for places nobody holds.
    drop(waiting);
    let took = reaches(&s, QUEUED, 0, FREED_WITHIN);
    assert!(
        took.is_some(),
        "dead queue places kept: {QUEUED} is {}",
        gauge(&s, QUEUED)
    );
    let again: Vec<TcpStream> = routes.iter().map(|r| send(&s, r, &long(r))).collect();
    assert!(
        reaches(&s, QUEUED, 4, Duration::from_secs(3)).is_some(),
        "the queue refused new requests"
    );
    drop(again);
    assert!(reaches(&s, QUEUED, 0, FREED_WITHIN).is_some());

    // The running search's client hangs up: its search stops and its slot is free.
    assert_eq!(gauge(&s, RUNNING), 1, "the long search ended by itself");
    drop(running);
    let stopped = reaches(&s, RUNNING, 0, FREED_WITHIN);
    assert!(
        stopped.is_some(),
        "the search kept running after its client left"
    );
    println!("queue places freed in {took:?}, the slot in {stopped:?}");
    let metrics = s.get("/metrics").text().unwrap();
    assert!(
        metrics.contains(r#"kinrow_searches_total{engine="minimax",result="gone"} 9"#),
        "{metrics}"
    );

    // The slot serves the next request.
    let quick = json!({"rules": {"m": 15, "n": 15, "k": 5}, "board": mid15()["board"],
                       "engine": {"name": "minimax", "time_ms": 200}});
    let (status, body) = s.call("/v1/suggest", &quick);
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_review_whose_client_hangs_up_stops() {
    let mut config = Config::for_tests();
    config.max_concurrent_searches = 1;
    let s = spawn_with(config);
    let client = send(&s, "/v1/review", &long("/v1/review"));
    assert!(reaches(&s, RUNNING, 1, Duration::from_secs(3)).is_some());
    thread::sleep(Duration::from_millis(200));
    drop(client);
    let took = reaches(&s, RUNNING, 0, FREED_WITHIN);
    assert!(
        took.is_some(),
        "the review kept running after its client left"
    );
    println!("the review's slot freed in {took:?}");
}
