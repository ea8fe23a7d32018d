//! Shared by the black-box API tests: start the real server on port 0 in a background
//! thread, and talk to it over HTTP.
#![allow(dead_code)]

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use kinrow_server::Application;
use kinrow_server::Config;
use reqwest::blocking::{Client, Response};
use serde_json::Value;

pub struct TestServer {
    pub base: String,
    pub client: Client,
}

/// A file of the system's temporary folder named for `prefix`, `name` and this process,
/// holding `text` (the tests' game records, suites and fake engines).
pub fn temp_file(prefix: &str, name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("kinrow-{prefix}-{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Marks at `(row, col)` as the game record's JSON move objects, comma separated.
pub fn marks(list: &[(usize, usize)]) -> String {
    let v: Vec<String> = list
        .iter()
        .map(|(r, c)| format!(r#"{{"row":{r},"col":{c},"piece":"mark"}}"#))
        .collect();
    v.join(",")
}

/// Makes the file at `path` executable (a fake engine or judge script written by a test).
pub fn make_executable(path: &std::path::Path) {
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(path, perms).unwrap();
}

/// Starts a server with `config` (its address is replaced by 127.0.0.1:0).
pub fn spawn_with(mut config: Config) -> TestServer {
    config.addr = "127.0.0.1:0".to_string();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let app = Application::build(config).expect("server builds");
            tx.send(app.port()).expect("port sent");
            app.into_server().await.expect("server runs");
        })
    });
    let port = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("server started");
    TestServer {
        base: format!("http://127.0.0.1:{port}"),
        client: Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client"),
    }
}

/// Starts a server with the test configuration.
pub fn spawn() -> TestServer {
    spawn_with(Config::for_tests())
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub fn get(&self, path: &str) -> Response {
        self.client.get(self.url(path)).send().expect("GET")
    }

    pub fn post(&self, path: &str, body: &Value) -> Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .expect("POST")
    }

    pub fn post_raw(&self, path: &str, content_type: &str, body: impl Into<Vec<u8>>) -> Response {
        self.client
            .post(self.url(path))
            .header("content-type", content_type)
            .body(body.into())
            .send()
            .expect("POST")
    }

    /// POSTs and returns the status and the JSON body.
    pub fn call(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = self.post(path, body);
        let status = r.status().as_u16();
        (status, r.json().expect("JSON body"))
    }
}

/// Asserts `body` is the API's error shape with `code` and (if given) `field`.
pub fn assert_error(status: u16, body: &Value, want_status: u16, code: &str, field: Option<&str>) {
    assert_eq!(status, want_status, "status of {body}");
    let e = &body["error"];
    assert_eq!(e["code"], code, "code of {body}");
    assert!(
        e["message"].as_str().is_some_and(|m| !m.is_empty()),
        "message of {body}"
    );
    if let Some(f) = field {
        assert_eq!(e["field"], f, "field of {body}");
    }
}
