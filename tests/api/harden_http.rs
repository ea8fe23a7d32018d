//! The HTTP layer under hostile clients: a stalled head or body is cut off with a 408
//! (the body's is JSON; the head's is actix's plain answer, like its 400 and 431, which
//! docs/deployment.md documents and nginx gives a JSON body), every GET route answers HEAD, a
//! compressed body is held to 64 KiB by what it inflates to (a gzip bomb is a 413 in
//! under 10 ms), and each worker serves a bounded number of connections.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::support::spawn_with;
use kinrow_server::Config;
use serde_json::Value;

fn config() -> Config {
    let mut c = Config::for_tests();
    // The head timeout longer than the body's: actix's head timer is coarse (its clock
    // ticks every 0.5 s), and with equal timeouts its plain 408 can come first even when
    // the head arrived (seen once the JSON rewriting of that answer was gone).
    c.head_timeout = Duration::from_millis(800);
    c.body_timeout = Duration::from_millis(400);
    c
}

fn port(base: &str) -> u16 {
    base.rsplit(':').next().unwrap().parse().unwrap()
}

/// Sends `bytes` on a new connection and reads until the server closes it (or 5 s):
/// the status, the head, the JSON body and the time it took.
fn raw(port: u16, bytes: &[u8]) -> (u16, String, Value, Duration) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let start = Instant::now();
    s.write_all(bytes).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let json = serde_json::from_str(body).unwrap_or(Value::Null);
    (status, head.to_string(), json, took)
}

#[test]
fn a_stalled_head_or_body_gets_a_408_and_the_connection_closes() {
    let s = spawn_with(config());
    let p = port(&s.base);
    // (what the client sends before it stalls, what is missing)
    let table: [(&[u8], &str); 2] = [
        (b"GET /healthz HTTP/1.1\r\nHost: a\r\n", "headers"),
        (
            b"POST /v1/state HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"rules\":",
            "body",
        ),
    ];
    for (sent, missing) in table {
        let (status, head, body, took) = raw(p, sent);
        assert_eq!(status, 408, "stalled {missing}: {head}");
        if missing == "body" {
            // The extractor's: the API's JSON error.
            assert_eq!(body["error"]["code"], "request_timeout", "{head}\n{body}");
            assert!(head.contains("application/json"), "{head}");
        } else {
            // The HTTP layer's own, before any handler: plain, with an empty body.
            assert!(
                head.to_ascii_lowercase().contains("content-length: 0"),
                "{head}"
            );
        }
        // Cut off at the timeout (actix's head timer is coarse: up to a second early or
        // late), and the connection closed soon after (a second of linger at most).
        assert!(took < Duration::from_millis(2900), "{missing}: {took:?}");
    }
}

#[test]
fn the_http_layers_own_errors_are_plain_and_close_the_connection() {
    let s = spawn_with(config());
    let p = port(&s.base);
    let many: String = (0..100).map(|i| format!("X-Header-{i}: v\r\n")).collect();
    let too_many_headers = format!("GET /healthz HTTP/1.1\r\nHost: a\r\n{many}\r\n");
    // (request, status): answered before any handler runs, with actix's plain answer
    // (documented in docs/deployment.md; deploy/nginx.conf gives them JSON bodies).
    let table: [(&[u8], u16); 4] = [
        (too_many_headers.as_bytes(), 431),
        (
            b"POST /v1/state HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            400,
        ),
        (
            b"POST /v1/state HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400,
        ),
        (b"GARBAGE\r\n\r\n", 400),
    ];
    for (request, want) in table {
        let (status, head, body, took) = raw(p, request);
        assert_eq!(status, want, "{head}");
        assert!(
            head.to_ascii_lowercase().contains("content-length: 0"),
            "{head}"
        );
        assert_eq!(body, Value::Null, "{head}");
        // The connection is closed at once, not held to the timeout.
        assert!(took < Duration::from_millis(1500), "{took:?}");
    }
}

#[test]
fn every_get_route_answers_head_without_a_body() {
    let s = spawn_with(config());
    for path in [
        "/healthz",
        "/v1/engines",
        "/metrics",
        "/openapi.json",
        "/docs/",
    ] {
        let get = s.get(path);
        let r = s.client.head(s.url(path)).send().unwrap();
        assert_eq!(r.status(), 200, "HEAD {path}");
        assert_eq!(
            r.headers().get("content-type"),
            get.headers().get("content-type"),
            "{path}"
        );
        assert!(r.bytes().unwrap().is_empty(), "HEAD {path} has no body");
    }
    // A POST-only route still answers 405, naming what it allows.
    let r = s.client.head(s.url("/v1/suggest")).send().unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.headers()["allow"], "POST");
    assert_eq!(
        s.client.head(s.url("/nowhere")).send().unwrap().status(),
        404
    );
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn post_encoded(port: u16, encoding: &str, body: &[u8]) -> (u16, Value, Duration) {
    let mut request = format!(
        "POST /v1/state HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Encoding: {encoding}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    let (status, _, json, took) = raw(port, &request);
    (status, json, took)
}

#[test]
fn a_gzip_bomb_is_a_413_in_under_10_ms() {
    let s = spawn_with(config());
    let p = port(&s.base);
    // 60 MiB of spaces: about 60 KB of gzip, under the 64 KiB cap on compressed bodies.
    let bomb = gzip(&vec![b' '; 60 << 20]);
    assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let (status, body, took) = post_encoded(p, "gzip", &bomb);
        assert_eq!(status, 413, "{body}");
        assert_eq!(body["error"]["code"], "payload_too_large");
        best = best.min(took);
    }
    assert!(best < Duration::from_millis(10), "best of 3: {best:?}");
}

#[test]
fn compressed_bodies_are_read_in_every_encoding_actix_knows() {
    let s = spawn_with(config());
    let p = port(&s.base);
    let body = br#"{"rules": {"m": 3, "n": 3, "k": 3}, "board": ["x..", ".o.", "..."]}"#;
    let deflate = {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(body).unwrap();
        e.finish().unwrap()
    };
    let br = {
        let mut out = Vec::new();
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(body).unwrap();
        drop(w);
        out
    };
    let zstd = zstd::encode_all(&body[..], 3).unwrap();
    for (encoding, wire) in [
        ("gzip", gzip(body)),
        ("deflate", deflate),
        ("br", br),
        ("zstd", zstd),
        ("identity", body.to_vec()),
    ] {
        let (status, json, _) = post_encoded(p, encoding, &wire);
        assert_eq!(status, 200, "{encoding}: {json}");
        assert_eq!(json["legal_moves"], 7, "{encoding}");
    }
    // (encoding, body, status, code)
    let broken: [(&str, Vec<u8>, u16, &str); 3] = [
        ("gzip", b"not gzip at all".to_vec(), 400, "invalid_request"),
        ("compress", body.to_vec(), 415, "unsupported_media_type"),
        // Over the cap on the compressed size itself (random bytes do not shrink).
        (
            "gzip",
            (0..70_000u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
            413,
            "payload_too_large",
        ),
    ];
    for (encoding, wire, want, code) in broken {
        let (status, json, _) = post_encoded(p, encoding, &wire);
        assert_eq!((status, json["error"]["code"].as_str()), (want, Some(code)));
    }
    // A corrupt body gets a plain reason naming the encoding, not Rust's debug text.
    for (encoding, wire) in [
        ("gzip", b"not gzip at all".to_vec()),
        ("br", b"not brotli at all".to_vec()),
        ("zstd", b"not zstd at all".to_vec()),
    ] {
        let (status, json, _) = post_encoded(p, encoding, &wire);
        assert_eq!(status, 400, "{encoding}: {json}");
        let message = json["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("not valid {encoding}")),
            "{message}"
        );
        assert!(
            !message.contains("Some(") && !message.contains("Custom {"),
            "{message}"
        );
    }
}

#[test]
fn a_worker_serves_a_bounded_number_of_connections() {
    let mut c = config();
    c.workers = 1;
    c.max_connections_per_worker = 2;
    // actix's head timer reads a clock refreshed every 500 ms: it may fire up to 0.5 s
    // early, so a timeout well above that keeps the third client's own head in time.
    c.head_timeout = Duration::from_millis(1500);
    let s = spawn_with(c);
    let p = port(&s.base);
    // Two clients connect and send nothing: they hold the worker's two connections.
    let idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(("127.0.0.1", p)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(50));
    // A third waits in the backlog until the head timeout cuts the idle ones off.
    let start = Instant::now();
    assert_eq!(s.get("/healthz").status(), 200);
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(900), "{waited:?}");
    assert!(waited < Duration::from_secs(4), "{waited:?}");
    drop(idle);
}
