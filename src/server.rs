//! Start-up: [`Application::build`] binds the listener (port 0 picks a free port) and
//! builds the server; [`Application::run`] serves until SIGTERM or SIGINT, then stops
//! accepting, lets in-flight requests finish within the grace period and returns.
//! The binary and the black-box tests start the server the same way.

use std::net::TcpListener;

use actix_cors::Cors;
use actix_web::dev::Server;
use actix_web::middleware::{ErrorHandlers, Logger};
use actix_web::{web, App, HttpServer};
use actix_web_prom::PrometheusMetricsBuilder;

use crate::api::{self, metrics::Metrics, routes::EngineLabel, AppState};
use crate::config::{Config, MAX_BODY_BYTES};

/// A bound, ready-to-run server.
pub struct Application {
    port: u16,
    server: Server,
}

fn cors(config: &Config) -> Cors {
    let cors = Cors::default()
        .allow_any_method()
        .allow_any_header()
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
    pub fn build(config: Config) -> std::io::Result<Application> {
        let listener = TcpListener::bind(&config.addr)?;
        let port = listener.local_addr()?.port();
        let metrics = Metrics::new();
        let prometheus = PrometheusMetricsBuilder::new("kinrow")
            .registry(metrics.registry.clone())
            .mask_unmatched_patterns("UNKNOWN")
            // The docs' assets: one wildcard route, not worth a label each.
            .exclude_regex("^/docs/")
            .build()
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let workers = config.workers;
        let grace = config.shutdown_grace_secs;
        let state = web::Data::new(AppState::new(config, metrics));
        let server =
            HttpServer::new(move || {
                let cors = cors(&state.config);
                App::new()
                    .app_data(state.clone())
                    .app_data(web::PayloadConfig::new(MAX_BODY_BYTES))
                    .configure(api::configure)
                    .default_service(web::to(api::not_found))
                    .wrap(cors)
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
            // Compressed answers go out chunked, in several writes: without TCP_NODELAY a
            // keep-alive client waits for Nagle against its delayed ACK (15-40 ms a request).
            .tcp_nodelay(true)
            .shutdown_timeout(grace)
            .disable_signals()
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
