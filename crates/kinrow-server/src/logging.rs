//! The server's log: what the HTTP layer logs about a client's broken request is the
//! client's problem, not the server's. actix-http logs every request it cannot parse (a
//! URL over about 64 KiB, a garbage request line) as an ERROR `stream error` of
//! `actix_http::h1::dispatcher`, one line per request, which any client can flood; the
//! [`ClientErrorsAsInfo`] wrapper around the real logger writes those at INFO instead,
//! as the access log writes every other request.

use log::{Level, Log, Metadata, Record};

/// The target of actix-http's HTTP/1 connection loop.
const DISPATCHER: &str = "actix_http::h1::dispatcher";

/// A logger that writes the HTTP layer's `stream error`s (a request it could not parse,
/// a client's connection that broke) at INFO, and everything else as `inner` does.
pub struct ClientErrorsAsInfo<L>(pub L);

/// True for a record that is a client's broken request or connection.
fn from_a_client(record: &Record) -> bool {
    record.level() == Level::Error
        && record.target() == DISPATCHER
        && record.args().to_string().starts_with("stream error")
}

impl<L: Log> Log for ClientErrorsAsInfo<L> {
    fn enabled(&self, metadata: &Metadata) -> bool {
        self.0.enabled(metadata)
    }

    fn log(&self, record: &Record) {
        if !from_a_client(record) {
            return self.0.log(record);
        }
        let demoted = Metadata::builder()
            .level(Level::Info)
            .target(record.target())
            .build();
        if self.0.enabled(&demoted) {
            self.0.log(
                &Record::builder()
                    .metadata(demoted)
                    .args(format_args!("a client's broken request: {}", record.args()))
                    .module_path(record.module_path())
                    .file(record.file())
                    .line(record.line())
                    .build(),
            );
        }
    }

    fn flush(&self) {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Keeps every record it is given (at most INFO enabled, as `RUST_LOG=info`).
    #[derive(Default)]
    struct Kept(Mutex<Vec<(Level, String, String)>>);

    impl Log for Kept {
        fn enabled(&self, metadata: &Metadata) -> bool {
            metadata.level() <= Level::Info
        }
        fn log(&self, record: &Record) {
            if self.enabled(record.metadata()) {
                let line = (
                    record.level(),
                    record.target().to_string(),
                    record.args().to_string(),
                );
                self.0.lock().unwrap().push(line);
            }
        }
        fn flush(&self) {}
    }

    fn log(logger: &impl Log, level: Level, target: &str, message: &str) {
        logger.log(
            &Record::builder()
                .level(level)
                .target(target)
                .args(format_args!("{message}"))
                .build(),
        );
    }

    #[test]
    fn a_clients_broken_request_is_info_and_everything_else_as_it_was() {
        let logger = ClientErrorsAsInfo(Kept::default());
        let uri = "stream error: request parse error: URI error: uri too long";
        log(&logger, Level::Error, DISPATCHER, uri);
        log(&logger, Level::Error, DISPATCHER, "something else");
        log(
            &logger,
            Level::Error,
            "kinrow_server::api",
            "stream error: ours",
        );
        log(&logger, Level::Debug, DISPATCHER, "stream error: quiet");
        let kept = logger.0 .0.lock().unwrap().clone();
        let at =
            |level, target: &str, message: &str| (level, target.to_string(), message.to_string());
        assert_eq!(
            kept,
            vec![
                at(
                    Level::Info,
                    DISPATCHER,
                    &format!("a client's broken request: {uri}")
                ),
                at(Level::Error, DISPATCHER, "something else"),
                at(Level::Error, "kinrow_server::api", "stream error: ours"),
            ]
        );
    }
}
