//! Graceful shutdown of the real binary: on SIGTERM (and SIGINT) it stops accepting,
//! lets the requests in flight finish, and exits 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use kinrow_engine::EngineKind;
use serde_json::{json, Value};

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `kinrow serve` on a free port and reads the port from its log.
fn start() -> Server {
    start_with(&[])
}

/// [`start`] with more environment variables.
fn start_with(env: &[(&str, &str)]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .arg("serve")
        .envs(env.iter().copied())
        .env("KINROW_ADDR", "127.0.0.1:0")
        .env("KINROW_WORKERS", "1")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let port: u16 = rest
                    .split_whitespace()
                    .next()
                    .and_then(|a| a.rsplit(':').next())
                    .and_then(|p| p.parse().ok())
                    .expect("port in the log line");
                let _ = tx.send(port);
            }
        }
    });
    let port = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server logs its port");
    Server { child, port }
}

fn signal(server: &Server, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(server.child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(status.success());
}

fn wait_exit(server: &mut Server, within: Duration) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            return status.code().expect("exited, not killed");
        }
        assert!(start.elapsed() < within, "the server did not exit");
        thread::sleep(Duration::from_millis(20));
    }
}

fn refuses_connections(port: u16) -> bool {
    TcpStream::connect_timeout(
        &format!("127.0.0.1:{port}").parse().unwrap(),
        Duration::from_millis(200),
    )
    .is_err()
}

#[test]
fn a_search_in_flight_at_sigterm_completes() {
    let Some(engine) = ["mcts", "minimax", "perfect"]
        .into_iter()
        .find(|n| EngineKind::parse(n).is_some())
    else {
        eprintln!("no slow engine in the registry");
        return;
    };
    let mut server = start();
    let url = format!("http://127.0.0.1:{}/v1/suggest", server.port);
    let request = thread::spawn(move || {
        let r = reqwest::blocking::Client::new()
            .post(url)
            .json(&json!({"rules": {"m": 15, "n": 15, "k": 5},
                          "engine": {"name": engine, "time_ms": 1200}}))
            .send()
            .expect("the in-flight request gets its answer");
        (r.status().as_u16(), r.json::<Value>().unwrap())
    });
    thread::sleep(Duration::from_millis(400));
    signal(&server, "TERM");
    thread::sleep(Duration::from_millis(200));
    assert!(
        refuses_connections(server.port),
        "no new connections after SIGTERM"
    );
    let (status, body) = request.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["engine"], engine);
    assert_eq!(wait_exit(&mut server, Duration::from_secs(10)), 0);
}

#[test]
fn a_request_being_uploaded_at_sigint_completes() {
    let mut server = start();
    let body = r#"{"rules": {"m": 3, "n": 3, "k": 3}, "board": ["x..", ".o.", "..."]}"#;
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        stream,
        "POST /v1/state HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let (first, rest) = body.split_at(20);
    stream.write_all(first.as_bytes()).unwrap();
    stream.flush().unwrap();
    thread::sleep(Duration::from_millis(300));
    signal(&server, "INT");
    thread::sleep(Duration::from_millis(300));
    stream.write_all(rest.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""legal_moves":7"#), "{answer}");
    assert_eq!(wait_exit(&mut server, Duration::from_secs(10)), 0);
}

#[test]
fn a_stalled_upload_delays_sigterm_by_the_body_timeout_only() {
    let mut server = start_with(&[("KINROW_BODY_TIMEOUT_MS", "600")]);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // Headers and a few bytes of a 1000-byte body, then nothing.
    write!(
        stream,
        "POST /v1/state HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"rules\""
    )
    .unwrap();
    stream.flush().unwrap();
    thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    signal(&server, "TERM");
    // Exits once the stalled request is cut off, long before the 30 s grace period.
    assert_eq!(wait_exit(&mut server, Duration::from_secs(5)), 0);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"request_timeout""#), "{answer}");
}
