//! The server's configuration: environment variables, overridden by command-line
//! flags of the same names (`KINROW_MAX_TIME_MS` <-> `--max-time-ms`).

use std::time::Duration;

use std::sync::Arc;

use kinrow_engine::BrainSpec;
use kinrow_engine::EngineKind;
use kinrow_engine::ExternalBrain;
use kinrow_engine::MAX_THREADS;

/// Default `engine.time_ms` when a request gives none.
pub const DEFAULT_TIME_MS: u64 = 1000;
/// Default cap on `engine.time_ms`: a longer budget is cut down to this.
pub const MAX_TIME_MS: u64 = 10_000;
/// Extra time a search answer may take beyond its budget (building the answer,
/// scheduling). Past budget + margin the request answers 503 `overloaded`.
pub const DEFAULT_MARGIN_MS: u64 = 100;
/// The largest body a request may carry.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// The largest body a request may send compressed (`Content-Encoding`); what it inflates
/// to is held to [`MAX_BODY_BYTES`] as well, checked while inflating.
pub const MAX_COMPRESSED_BODY_BYTES: usize = 64 * 1024;
/// The largest `engine.depth` accepted (a 64x64 board has 4096 cells).
pub const MAX_DEPTH: i64 = 4096;
/// The largest `engine.nodes` accepted.
pub const MAX_NODES: i64 = 10_000_000_000;

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind, `host:port`; port 0 picks a free port.
    pub addr: String,
    /// actix worker threads (HTTP handling; searches run on a separate blocking pool).
    pub workers: usize,
    /// Searches running at once.
    pub max_concurrent_searches: usize,
    /// Searches waiting for a slot; past that a request gets 503 at once. A waiting
    /// request never waits past its own time budget, so the queue cannot pile up.
    pub search_queue: usize,
    /// Budget when `engine.time_ms` is omitted.
    pub default_time: Duration,
    /// Cap on `engine.time_ms`.
    pub max_time: Duration,
    /// Allowed time past the budget before the request answers 503.
    pub margin: Duration,
    /// Seconds in-flight requests get to finish after SIGTERM/SIGINT.
    pub shutdown_grace_secs: u64,
    /// Origins allowed by CORS; empty = any origin.
    pub cors_origins: Vec<String>,
    /// Time a client has to send a request's head (line and headers); past it, 408 and
    /// the connection is closed. Also the longest a keep-alive connection stays idle.
    pub head_timeout: Duration,
    /// Time a client has to send a request's body once the head is in; past it, 408.
    pub body_timeout: Duration,
    /// Open connections each worker accepts; past that, new ones wait in the backlog.
    pub max_connections_per_worker: usize,
    /// The admission floor of queued searches: percent of the budget ...
    pub admission_floor_percent: u32,
    /// ... and at least this much (at most half the budget).
    pub admission_floor_min: Duration,
    /// Cap on `engine.threads`: a search may use this many threads (`auto`'s pattern
    /// search); a larger request is cut to it.
    pub max_threads: usize,
    /// The external brains to serve (`KINROW_EXTERNAL_ENGINES`, `--external-engine`),
    /// as configured; [`Application::build`](crate::server::Application::build) starts
    /// them into [`Config::brains`].
    pub external_engines: Vec<BrainSpec>,
    /// The external brains running, by name (empty until the server is built).
    pub brains: Vec<Arc<ExternalBrain>>,
    /// Read Connect Four's book when the server starts, and answer `/readyz` 503 until it
    /// is read (`KINROW_BOOKS=at-start`); otherwise (`on-demand`, the default) the first
    /// search of a 7x6 board starts reading it and is answered without it.
    pub books_at_start: bool,
    /// An outcome book to read at start (`KINROW_OUTCOME_BOOK`, `--outcome-book`; made by
    /// `kinrow book --outcomes`): searches of its board read every position's win, draw
    /// or loss there once it is read, and search the distances.
    pub outcome_book: Option<std::path::PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = kinrow_engine::cores();
        Config {
            addr: "127.0.0.1:8080".to_string(),
            workers: cores,
            max_concurrent_searches: cores,
            search_queue: 16 * cores,
            default_time: Duration::from_millis(DEFAULT_TIME_MS),
            max_time: Duration::from_millis(MAX_TIME_MS),
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            shutdown_grace_secs: 30,
            cors_origins: Vec::new(),
            head_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            max_connections_per_worker: 1024,
            admission_floor_percent: 20,
            admission_floor_min: Duration::from_millis(20),
            max_threads: 1,
            external_engines: Vec::new(),
            brains: Vec::new(),
            books_at_start: false,
            outcome_book: None,
        }
    }
}

impl Config {
    /// A configuration for tests: port 0 on loopback, everything else default.
    pub fn for_tests() -> Config {
        Config {
            addr: "127.0.0.1:0".to_string(),
            workers: 2,
            ..Config::default()
        }
    }
}

/// The flags of `kinrow serve`; each falls back to its environment variable, then to the default.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ServeArgs {
    /// Address to listen on, host:port [default: 127.0.0.1:8080].
    #[arg(long, env = "KINROW_ADDR")]
    pub addr: Option<String>,
    /// HTTP worker threads [default: the number of cores].
    #[arg(long, env = "KINROW_WORKERS")]
    pub workers: Option<usize>,
    /// Searches running at once [default: the number of cores].
    #[arg(long, env = "KINROW_MAX_CONCURRENT_SEARCHES")]
    pub max_concurrent_searches: Option<usize>,
    /// Searches allowed to wait for a slot; past that, 503 at once [default: 16 x max-concurrent-searches].
    #[arg(long, env = "KINROW_SEARCH_QUEUE")]
    pub search_queue: Option<usize>,
    /// Budget of a search whose request gives no engine.time_ms [default: 1000].
    #[arg(long, env = "KINROW_DEFAULT_TIME_MS")]
    pub default_time_ms: Option<u64>,
    /// Cap on engine.time_ms [default: 10000].
    #[arg(long, env = "KINROW_MAX_TIME_MS")]
    pub max_time_ms: Option<u64>,
    /// Time a search answer may take past its budget before it answers 503 [default: 100].
    #[arg(long, env = "KINROW_TIME_MARGIN_MS")]
    pub time_margin_ms: Option<u64>,
    /// Seconds in-flight requests get to finish after SIGTERM/SIGINT [default: 30].
    #[arg(long, env = "KINROW_SHUTDOWN_GRACE_SECS")]
    pub shutdown_grace_secs: Option<u64>,
    /// Comma-separated origins allowed by CORS [default: any origin].
    #[arg(long, env = "KINROW_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Option<Vec<String>>,
    /// Milliseconds a client has to send a request's line and headers (and the longest a
    /// keep-alive connection idles); past it, 408 and the connection closes [default: 5000].
    #[arg(long, env = "KINROW_HEAD_TIMEOUT_MS")]
    pub head_timeout_ms: Option<u64>,
    /// Milliseconds a client has to send a request's body after its headers; past it, 408
    /// and the connection closes [default: 10000].
    #[arg(long, env = "KINROW_BODY_TIMEOUT_MS")]
    pub body_timeout_ms: Option<u64>,
    /// Open connections each HTTP worker accepts; more wait in the listen backlog [default: 1024].
    #[arg(long, env = "KINROW_MAX_CONNECTIONS_PER_WORKER")]
    pub max_connections_per_worker: Option<usize>,
    /// A queued search gets 503 rather than a slot once less than this percentage of its
    /// budget would be left [default: 20].
    #[arg(long, env = "KINROW_ADMISSION_FLOOR_PERCENT")]
    pub admission_floor_percent: Option<u32>,
    /// ... or less than this many milliseconds (at most half of a short budget) [default: 20].
    #[arg(long, env = "KINROW_ADMISSION_FLOOR_MS")]
    pub admission_floor_ms: Option<u64>,
    /// Cap on engine.threads, the threads of one search (auto's pattern search), 1 to 64;
    /// a larger request is cut to it. Up to max-concurrent-searches x max-threads search
    /// threads run at once [default: 1].
    #[arg(long, env = "KINROW_MAX_THREADS")]
    pub max_threads: Option<usize>,
    /// An external Gomocup engine served under NAME: NAME=COMMAND[;key=value]*, the
    /// command split at spaces; keys pool=N (processes, default one per search slot),
    /// memory_mb=N (INFO max_memory), unit=N (its eval e maps to the value 2σ(e/unit)-1,
    /// default 200), nodes=yes / depth=yes (it takes INFO max_node / max_depth),
    /// start_ms=N (time to answer START, default 10000). Repeatable; the environment
    /// variable takes a comma-separated list. A name of a built-in engine, or a command
    /// that does not answer START, stops the server.
    #[arg(
        long = "external-engine",
        env = "KINROW_EXTERNAL_ENGINES",
        value_delimiter = ',',
        value_name = "NAME=COMMAND"
    )]
    pub external_engines: Vec<String>,
    /// When Connect Four's opening book is read: on-demand (by the first search of a 7x6
    /// board with four in a row, which is answered without it; /readyz is ready at once)
    /// or at-start (/readyz answers 503 until it is read, 3-4 s) [default: on-demand].
    #[arg(long, env = "KINROW_BOOKS", value_name = "on-demand|at-start")]
    pub books: Option<String>,
    /// An outcome book (win/draw/loss of every position of some stone counts, made by
    /// `kinrow book --outcomes`) read at start on a thread of its own; searches of its
    /// board go on without it until it is read. A file that cannot be read stops the server.
    #[arg(long, env = "KINROW_OUTCOME_BOOK", value_name = "FILE")]
    pub outcome_book: Option<std::path::PathBuf>,
}

/// The external engines of `texts`, each checked: a valid spec, a name no built-in
/// engine and no other external engine has.
pub fn external_engines(texts: &[String]) -> Result<Vec<BrainSpec>, String> {
    let mut specs: Vec<BrainSpec> = Vec::new();
    for text in texts.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        let spec = BrainSpec::parse(text)?;
        if EngineKind::parse(&spec.name).is_some() {
            return Err(format!(
                "external engine {:?} has the name of a built-in engine; choose another name",
                spec.name
            ));
        }
        if specs.iter().any(|s| s.name == spec.name) {
            return Err(format!(
                "external engine {:?} is configured twice",
                spec.name
            ));
        }
        specs.push(spec);
    }
    Ok(specs)
}

impl ServeArgs {
    /// The configuration these flags (and environment variables) describe.
    pub fn into_config(self) -> Result<Config, String> {
        let d = Config::default();
        let nonzero = |name: &str, v: usize| {
            if v == 0 {
                Err(format!("--{name} must be at least 1"))
            } else {
                Ok(v)
            }
        };
        let max_concurrent_searches = nonzero(
            "max-concurrent-searches",
            self.max_concurrent_searches
                .unwrap_or(d.max_concurrent_searches),
        )?;
        let max_time = self.max_time_ms.map_or(d.max_time, Duration::from_millis);
        let default_time = self
            .default_time_ms
            .map_or(d.default_time, Duration::from_millis)
            .min(max_time);
        if max_time.is_zero() || default_time.is_zero() {
            return Err("--max-time-ms and --default-time-ms must be at least 1".to_string());
        }
        let millis = |name: &str, v: Option<u64>, default: Duration| match v {
            Some(0) => Err(format!("--{name} must be at least 1")),
            Some(ms) => Ok(Duration::from_millis(ms)),
            None => Ok(default),
        };
        let admission_floor_percent = self
            .admission_floor_percent
            .unwrap_or(d.admission_floor_percent);
        if admission_floor_percent > 90 {
            return Err("--admission-floor-percent must be at most 90".to_string());
        }
        let books_at_start = match self.books.as_deref().map(str::trim) {
            None | Some("on-demand") => false,
            Some("at-start") => true,
            Some(other) => {
                return Err(format!(
                    "--books must be on-demand or at-start, not {other:?}"
                ))
            }
        };
        Ok(Config {
            books_at_start,
            outcome_book: self.outcome_book.filter(|p| !p.as_os_str().is_empty()),
            external_engines: external_engines(&self.external_engines)?,
            brains: Vec::new(),
            head_timeout: millis("head-timeout-ms", self.head_timeout_ms, d.head_timeout)?,
            body_timeout: millis("body-timeout-ms", self.body_timeout_ms, d.body_timeout)?,
            max_connections_per_worker: nonzero(
                "max-connections-per-worker",
                self.max_connections_per_worker
                    .unwrap_or(d.max_connections_per_worker),
            )?,
            admission_floor_percent,
            max_threads: match self.max_threads.unwrap_or(d.max_threads) {
                t @ 1..=MAX_THREADS => t,
                _ => return Err(format!("--max-threads must be between 1 and {MAX_THREADS}")),
            },
            admission_floor_min: self
                .admission_floor_ms
                .map_or(d.admission_floor_min, Duration::from_millis),
            addr: self.addr.unwrap_or(d.addr),
            workers: nonzero("workers", self.workers.unwrap_or(d.workers))?,
            max_concurrent_searches,
            search_queue: self.search_queue.unwrap_or(16 * max_concurrent_searches),
            default_time,
            max_time,
            margin: self.time_margin_ms.map_or(d.margin, Duration::from_millis),
            shutdown_grace_secs: self.shutdown_grace_secs.unwrap_or(d.shutdown_grace_secs),
            cors_origins: self
                .cors_origins
                .unwrap_or_default()
                .into_iter()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty() && s != "*")
                .collect(),
        })
    }
}
