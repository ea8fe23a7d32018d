//! Start-up: [`Application::build`] binds the listener (port 0 picks a free port) and
//! builds the server; [`Application::run`] serves until SIGTERM or SIGINT, then stops
//! accepting, lets in-flight requests finish within the grace period and returns.
//! The binary and the black-box tests start the server the same way.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_cors::Cors;
use actix_web::dev::Server;
use actix_web::http::KeepAlive;
use actix_web::middleware::{from_fn, ErrorHandlers, Logger};
use actix_web::{web, App, HttpServer};
use actix_web_prom::PrometheusMetricsBuilder;

use crate::api::{self, metrics::Metrics, routes::run::EngineLabel, AppState};
use crate::config::{Config, MAX_BODY_BYTES};
use kinrow_engine::ExternalBrain;

/// A bound, ready-to-run server.
pub struct Application {
    port: u16,
    server: Server,
}

/// The request headers a browser may send across origins: what the API reads
/// (issue 54 item 10: a preflight no longer allows every method and echoes any header).
const CORS_HEADERS: [&str; 6] = [
    "content-type",
    "accept",
    "content-encoding",
    "last-event-id",
    "x-request-start",
    "x-kinrow-deadline-ms",
];

fn cors(config: &Config) -> Cors {
    let cors = Cors::default()
        .allowed_methods(["GET", "POST", "HEAD"])
        .allowed_headers(CORS_HEADERS)
        .expose_headers(["Retry-After"])
        .max_age(3600);
    if config.cors_origins.is_empty() {
        cors.allow_any_origin()
    } else {
        config
            .cors_origins
            .iter()
            .fold(cors, |c, origin| c.allowed_origin(origin))
    }
}

impl Application {
    /// Binds `config.addr` and builds the server (not yet running).
    ///
    /// Connections: a client has `head_timeout` to send a request's line and headers
    /// (408 past it; also the keep-alive idle limit) and `body_timeout` for its body (408
    /// from the extractor), so a stalled client cannot hold a connection, nor delay a
    /// shutdown, past them; each worker serves at most `max_connections_per_worker`
    /// connections at once. The errors the HTTP layer answers itself, before any handler
    /// runs (400 for a broken request line or framing, 408 for a head that never came,
    /// 431 for oversized headers), keep actix's plain answer with an empty body
    /// (docs/deployment.md; `deploy/nginx.conf` gives them JSON bodies).
    pub fn build(mut config: Config) -> std::io::Result<Application> {
        // The evaluation's tables are built once per process: before the first request,
        // which would otherwise pay for them inside its time budget.
        kinrow_engine::warm_up();
        // Connect Four's opening book takes seconds to read and 43 MB to hold: the
        // first search that wants it starts reading it on a thread of its own, and
        // searches go on without it until it is read; `KINROW_BOOKS=at-start` starts
        // reading it now (and `/readyz` waits for it).
        kinrow_engine::gravity_book::read_on_demand();
        if config.books_at_start {
            kinrow_engine::gravity_book::warm();
        }
        if let Some(path) = &config.outcome_book {
            read_outcome_book(path)?;
        }
        config.brains = start_brains(&config).map_err(std::io::Error::other)?;
        let listener = TcpListener::bind(&config.addr).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot listen on {}: {e}", config.addr))
        })?;
        let port = listener.local_addr()?.port();
        let metrics = Metrics::new();
        let prometheus = PrometheusMetricsBuilder::new("kinrow")
            .registry(metrics.registry.clone())
            .mask_unmatched_patterns("UNKNOWN")
            // The docs' assets: one wildcard route, not worth a label each.
            .exclude_regex("^/docs/")
            .build()
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let head_timeout = config.head_timeout;
        let (workers, grace) = (config.workers, config.shutdown_grace_secs);
        let connections = config.max_connections_per_worker;
        let state = web::Data::new(AppState::new(config, metrics, api::openapi_json()));
        if state.config.books_at_start {
            // Connect Four at full quality from the first request: its searches' tables
            // are made now (hundreds of milliseconds each on a loaded machine), not inside
            // the first requests' budgets.
            let hands = [kinrow_game::Hand::default(); 2];
            let rules = kinrow_game::Rules::new(7, 6, 4, true, hands)
                .and_then(|r| r.with_gravity(true))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            let c4 = kinrow_game::Position::empty(&rules);
            state
                .search
                .prepare_gravity(&c4, state.config.max_concurrent_searches);
        }
        let server =
            HttpServer::new(move || {
                App::new()
                    .app_data(state.clone())
                    .app_data(web::PayloadConfig::new(MAX_BODY_BYTES))
                    .configure(api::configure)
                    .default_service(web::to(api::not_found))
                    .wrap(from_fn(api::head_as_get))
                    .wrap(from_fn(api::deadline::request_clock))
                    .wrap(cors(&state.config))
                    .wrap(ErrorHandlers::new().default_handler(api::json_errors))
                    // Outside the error handler: JSON error bodies are compressed too.
                    .wrap(actix_web::middleware::Compress::default())
                    .wrap(prometheus.clone())
                    .wrap(
                        Logger::new("%a \"%r\" %s %b %Dms engine=%{engine}xo")
                            .custom_response_replace("engine", |res| {
                                res.response()
                                    .extensions()
                                    .get::<EngineLabel>()
                                    .map_or("-".to_string(), |e| e.0.to_string())
                            }),
                    )
            })
            .workers(workers)
            .shutdown_timeout(grace)
            .disable_signals()
            .max_connections(connections)
            .keep_alive(KeepAlive::Timeout(head_timeout))
            .client_request_timeout(head_timeout)
            .client_disconnect_timeout(Duration::from_secs(1))
            // A client that hangs up (its end of the connection reads EOF, or resets) ends
            // the connection at once, and with it the handler's future: a running search's
            // guard stops it, a request waiting for a slot gives its queue place up. With
            // actix's default (half-closed connections allowed) the handler would run to
            // its end and only then fail to write. A client that shuts its writing side
            // down after its request counts as gone too, as in Go's net/http.
            .h1_allow_half_closed(false)
            // Compressed answers go out chunked, in several writes: without TCP_NODELAY a
            // keep-alive client waits for Nagle against its delayed ACK (15-40 ms).
            .tcp_nodelay(true)
            .listen(listener)?
            .run();
        Ok(Application { port, server })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGTERM or SIGINT (both stop gracefully), then returns.
    pub async fn run(self) -> std::io::Result<()> {
        stop_on_signals(&self.server)?;
        self.server.await
    }

    /// The server future without signal handling (tests run several in one process and
    /// stop them through [`Server::handle`]).
    pub fn into_server(self) -> Server {
        self.server
    }
}

/// On SIGTERM or SIGINT: stop accepting, let in-flight requests finish (up to the grace
/// period), then let the server future complete.
#[cfg(unix)]
fn stop_on_signals(server: &Server) -> std::io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    for (kind, name) in [
        (SignalKind::terminate(), "SIGTERM"),
        (SignalKind::interrupt(), "SIGINT"),
    ] {
        let mut stream = signal(kind)?;
        let handle = server.handle();
        actix_web::rt::spawn(async move {
            if stream.recv().await.is_some() {
                log::info!("{name}: no new connections; finishing in-flight requests");
                handle.stop(true).await;
            }
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn stop_on_signals(server: &Server) -> std::io::Result<()> {
    let handle = server.handle();
    actix_web::rt::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            handle.stop(true).await;
        }
    });
    Ok(())
}

/// Runs the server of `config` on a new actix system until a signal stops it.
pub fn serve(config: Config) -> std::io::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        let app = Application::build(config.clone())?;
        log::info!(
            "kinrow listening on http://{}:{} ({} workers, {} concurrent searches, queue {})",
            config.addr.rsplit_once(':').map_or("127.0.0.1", |(h, _)| h),
            app.port(),
            config.workers,
            config.max_concurrent_searches,
            config.search_queue
        );
        app.run().await
    })
}

/// Starts every external engine of `config`, each with a pool of one process per search
/// slot unless its spec says otherwise. A brain still thinking past its turn is stopped
/// two fifths of the margin past it (40 ms of the default 100: Rapfi answered within
/// 1.01 of its turn at 100-1000 ms, docs/external.md "The grace"), before the search is
/// counted late at half the margin, so that its request answers (503
/// `engine_unavailable`) within the budget plus the margin.
fn start_brains(config: &Config) -> Result<Vec<Arc<ExternalBrain>>, String> {
    let grace = config.margin * 2 / 5;
    config
        .external_engines
        .iter()
        .map(|spec| {
            let brain = ExternalBrain::start(spec.clone(), grace, config.max_concurrent_searches)?;
            match brain.status().reason {
                None => log::info!(
                    "external engine {} ({}) is ready",
                    brain.name(),
                    spec.program.display()
                ),
                Some(reason) => log::error!("external engine {}: {reason}", brain.name()),
            }
            Ok(brain)
        })
        .collect()
}

/// Reads the outcome book at `path` (an error names the file) and enumerates it on a
/// thread of its own (seconds to a minute, by its size), then installs it for every
/// search of its board; a book that does not parse is logged and left out.
fn read_outcome_book(path: &std::path::Path) -> std::io::Result<()> {
    let bytes = std::fs::read(path).map_err(|e| {
        std::io::Error::new(e.kind(), format!("--outcome-book {}: {e}", path.display()))
    })?;
    let shown = path.display().to_string();
    std::thread::spawn(move || {
        let start = std::time::Instant::now();
        match kinrow_engine::gravity_outcomes::OutcomeBook::parse(&bytes) {
            Ok(book) => {
                let (len, mem) = (book.len(), book.bytes());
                let (m, n, k, from, to) = (book.m, book.n, book.k, book.from, book.to);
                kinrow_engine::gravity_outcomes::install(book);
                log::info!(
                    "outcome book {shown}: {m}x{n} k={k}, {len} positions of {from}-{to} stones, {} MB, read in {:.1} s",
                    mem >> 20,
                    start.elapsed().as_secs_f64()
                );
            }
            Err(e) => log::error!("outcome book {shown}: {e}; searches go on without it"),
        }
    });
    Ok(())
}
