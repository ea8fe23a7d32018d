//! The connection wrapper that gives the HTTP layer's own error answers a JSON body.
//!
//! actix-http answers some broken requests itself, before any handler or middleware
//! runs, with an empty body: 400 (a garbage request line, two `Content-Length`s, a
//! `Content-Length` with `chunked`), 408 (the head did not arrive in time) and 431 (too
//! many or too large headers). These answers are recognised in the bytes written to the
//! socket (the last head of a write, with a status line of one of these codes, that says
//! `content-length: 0` and no `content-type`; every error answer of the API itself has a
//! JSON body) and rewritten to the API's error shape. JSON never holds a raw CR LF, so such a head
//! cannot be mistaken inside an answer's body.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::api::error::{ApiError, ErrorCode};

/// A connection whose bare 400/408/431 answers are rewritten to JSON.
pub struct JsonErrors<T> {
    io: T,
    /// A rewritten answer still to be written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
    head_timeout: Duration,
}

impl<T> JsonErrors<T> {
    pub fn new(io: T, head_timeout: Duration) -> JsonErrors<T> {
        JsonErrors {
            io,
            pending: Vec::new(),
            written: 0,
            head_timeout,
        }
    }
}

/// The JSON error body for a bare answer of `status`, if it is one the API shapes.
fn body_for(status: &[u8], head_timeout: Duration) -> Option<String> {
    let error = match status {
        b"400" => ApiError::new(
            ErrorCode::InvalidRequest,
            "the request is not valid HTTP/1.1 (its request line, headers or framing are broken)",
        ),
        b"408" => ApiError::new(
            ErrorCode::RequestTimeout,
            format!(
                "the request's line and headers did not arrive within {} ms",
                head_timeout.as_millis()
            ),
        ),
        b"431" => ApiError::new(
            ErrorCode::HeadersTooLarge,
            "the request's head is too large (at most 96 headers and 128 KiB)",
        ),
        _ => return None,
    };
    serde_json::to_string(&error.body()).ok()
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The most bytes a bare error answer's head takes (its date header included).
const BARE_HEAD_MAX: usize = 160;

/// `buf` with its bare 400/408/431 answer given a JSON body, or `None`. Such an answer
/// is always the last thing written before the connection closes, so only a buffer that
/// ends a head (`\r\n\r\n`, which an answer with a body never does) is searched, and
/// only its tail: every other write costs one comparison.
pub fn rewrite(buf: &[u8], head_timeout: Duration) -> Option<Vec<u8>> {
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let mut from = buf.len().saturating_sub(BARE_HEAD_MAX);
    while let Some(at) = find(buf, b"HTTP/1.1 4", from) {
        from = at + 1;
        let status = buf.get(at + 9..at + 12)?;
        let Some(body) = body_for(status, head_timeout) else {
            continue;
        };
        let end = find(buf, b"\r\n\r\n", at)?;
        let head = &buf[at..end + 2];
        let lower = head.to_ascii_lowercase();
        if find(&lower, b"\r\ncontent-length: 0\r\n", 0).is_none()
            || find(&lower, b"\r\ncontent-type:", 0).is_some()
        {
            continue;
        }
        let mut out = Vec::with_capacity(buf.len() + body.len() + 64);
        out.extend_from_slice(&buf[..at]);
        for line in head.split_inclusive(|&b| b == b'\n') {
            if !line.to_ascii_lowercase().starts_with(b"content-length:") {
                out.extend_from_slice(line);
            }
        }
        out.extend_from_slice(b"content-type: application/json\r\n");
        out.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
        out.extend_from_slice(body.as_bytes());
        out.extend_from_slice(&buf[end + 4..]);
        return Some(out);
    }
    None
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Writes what is left of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.drain(cx))?;
        if let Some(rewritten) = rewrite(buf, this.head_timeout) {
            // The caller's bytes count as written; the rewritten ones go out before
            // anything else (the next write, flush or shutdown drains them first).
            this.pending = rewritten;
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Duration = Duration::from_secs(5);

    #[test]
    fn bare_http_layer_errors_get_a_json_body() {
        for (status, code) in [
            ("400 Bad Request", "invalid_request"),
            ("408 Request Timeout", "request_timeout"),
            ("431 Request Header Fields Too Large", "headers_too_large"),
        ] {
            let bare = format!(
                "HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\ndate: Wed, 25 Nov 2026 06:00:00 GMT\r\n\r\n"
            );
            let out = String::from_utf8(rewrite(bare.as_bytes(), T).unwrap()).unwrap();
            let (head, body) = out.split_once("\r\n\r\n").unwrap();
            assert!(head.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{out}");
            assert!(head.contains("connection: close\r\n"), "{out}");
            assert!(head.contains("content-type: application/json"), "{out}");
            assert!(
                head.contains(&format!("content-length: {}", body.len())),
                "{out}"
            );
            assert!(!head.contains("content-length: 0"), "{out}");
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(json["error"]["code"], code, "{out}");
        }
    }

    #[test]
    fn answers_with_a_body_or_another_status_are_left_alone() {
        let table = [
            // The API's own 400: JSON already.
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\ncontent-type: application/json\r\n\r\n{}",
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            // A HEAD answer's head: its length is the body's that is not sent.
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 93\r\ncontent-type: application/json\r\n\r\n",
        ];
        for bytes in table {
            assert_eq!(rewrite(bytes.as_bytes(), T), None, "{bytes}");
        }
    }

    #[test]
    fn an_answer_after_another_one_in_the_same_write_is_found() {
        let ok = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: application/json\r\n\r\n{}";
        let bad = "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        let out = rewrite(format!("{ok}{bad}").as_bytes(), T).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with(ok), "{out}");
        assert!(out.ends_with(r#""field":null}}"#), "{out}");
    }
}
