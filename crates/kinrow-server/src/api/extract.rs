//! `ApiJson<T>`: the JSON body extractor of the API. It checks the content type, reads
//! at most 64 KiB within the body timeout, inflates a compressed body (gzip, deflate, br,
//! zstd) with actix-http's decoder only up to 64 KiB, and reports every problem as an [`ApiError`] whose `field` is
//! the path of the offending value (`rules.k`, `board[3]`, `engine.time_ms`).

use std::future::Future;
use std::pin::{pin, Pin};
use std::time::Duration;

use actix_web::dev::{Decompress, Payload};
use actix_web::error::PayloadError;
use actix_web::http::header::{self, ContentEncoding};
use actix_web::web::{Bytes, BytesMut};
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use futures_util::{stream, FutureExt, StreamExt};
use serde::de::DeserializeOwned;

use super::error::{ApiError, ErrorCode};
use super::state::AppState;
use crate::config::{Config, MAX_BODY_BYTES, MAX_COMPRESSED_BODY_BYTES};

/// A request body parsed from JSON.
pub struct ApiJson<T>(pub T);

/// True for `application/json` and `application/*+json`.
fn is_json(req: &HttpRequest) -> bool {
    match req.mime_type() {
        Ok(Some(mime)) => {
            mime.type_() == "application"
                && (mime.subtype() == "json" || mime.suffix().is_some_and(|s| s == "json"))
        }
        _ => false,
    }
}

/// Parses `bytes` as a `T`, naming the place of any error.
pub fn parse_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::new(
            ErrorCode::InvalidJson,
            "the body is empty; send a JSON object",
        ));
    }
    let is_object = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    // The common case, a good body, in one pass (the checks below cost as much again,
    // and an object that parses here parses there).
    if is_object {
        if let Ok(value) = serde_json::from_slice::<T>(bytes) {
            return Ok(value);
        }
    }
    // Syntax first (cheap, allocation-free), so that a broken document is always
    // `invalid_json`, whatever its shape.
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidJson,
            format!("the body is not valid JSON: {e}"),
        )
    })?;
    // Every body is an object (serde would read a struct from an array, field by field).
    if !is_object {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "the body must be a JSON object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"board\": [\"x..\", \".o.\", \"...\"]}",
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The syntax is fine, so whatever fails now is the shape: `invalid_request`. (serde_json
    // reports some shape errors, like an array where an enum goes, as syntax errors.)
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let path = (!matches!(path.as_str(), "." | "" | "?")).then_some(path);
        // serde's words rewritten into the field and what it must be.
        let (field, message) =
            super::messages::shape_error(path.as_deref(), &e.inner().to_string());
        match field {
            Some(f) => ApiError::at(ErrorCode::InvalidRequest, f, message),
            None => ApiError::new(ErrorCode::InvalidRequest, message),
        }
    })?;
    de.end().map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidJson,
            format!("the body has more after the JSON value: {e}"),
        )
    })?;
    Ok(value)
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<ApiJson<T>, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if !is_json(req) {
            let got = req
                .headers()
                .get(actix_web::http::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("none")
                .to_string();
            return Box::pin(async move {
                Err(ApiError::new(
                    ErrorCode::UnsupportedMediaType,
                    format!("send the body as application/json (Content-Type was {got})"),
                ))
            });
        }
        let encoding = match Encoding::of(req) {
            Ok(e) => e,
            Err(e) => return Box::pin(async move { Err(e) }),
        };
        let timeout = req
            .app_data::<web::Data<AppState>>()
            .map_or_else(|| Config::default().body_timeout, |s| s.config.body_timeout);
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let payload = payload.take();
        Box::pin(async move {
            let bytes = read_body(payload, encoding, declared, timeout).await?;
            parse_body(&bytes).map(ApiJson)
        })
    }
}

/// How a request body is encoded (`Content-Encoding`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Not compressed.
    Identity,
    /// `gzip` (or `x-gzip`).
    Gzip,
    /// `deflate` (zlib).
    Deflate,
    /// `br`.
    Brotli,
    /// `zstd`.
    Zstd,
}

impl Encoding {
    /// The encoding of `req`'s body; an unknown one is a 415.
    pub fn of(req: &HttpRequest) -> Result<Encoding, ApiError> {
        let Some(value) = req.headers().get(header::CONTENT_ENCODING) else {
            return Ok(Encoding::Identity);
        };
        let name = value.to_str().unwrap_or("?").trim().to_ascii_lowercase();
        match name.as_str() {
            "" | "identity" => Ok(Encoding::Identity),
            "gzip" | "x-gzip" => Ok(Encoding::Gzip),
            "deflate" => Ok(Encoding::Deflate),
            "br" => Ok(Encoding::Brotli),
            "zstd" => Ok(Encoding::Zstd),
            _ => Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                format!(
                    "Content-Encoding {name:?} is not supported; send identity, gzip, deflate, br or zstd"
                ),
            )),
        }
    }

    /// The most bytes a body may have on the wire in this encoding.
    fn wire_limit(self) -> usize {
        match self {
            Encoding::Identity => MAX_BODY_BYTES,
            _ => MAX_COMPRESSED_BODY_BYTES,
        }
    }

    /// actix-http's name of the encoding.
    fn content_encoding(self) -> ContentEncoding {
        match self {
            Encoding::Identity => ContentEncoding::Identity,
            Encoding::Gzip => ContentEncoding::Gzip,
            Encoding::Deflate => ContentEncoding::Deflate,
            Encoding::Brotli => ContentEncoding::Brotli,
            Encoding::Zstd => ContentEncoding::Zstd,
        }
    }
}

/// The compressed body goes to the decoder in pieces of at most this many bytes, and the
/// inflated size is checked after each: one piece of deflate (at most 1032:1) inflates
/// to at most 64 KiB, so a gzip "bomb" is refused after about 1 MiB of work, in well
/// under a millisecond. (Pieces this small are also decoded in place, not on a
/// blocking thread.)
const PIECE: usize = 64;

fn too_large(message: String) -> ApiError {
    ApiError::new(ErrorCode::PayloadTooLarge, message)
}

/// Reads the whole body within `timeout` (408 past it), at most the encoding's wire
/// limit (413 past it, at once when `Content-Length` says so), then inflates it.
pub async fn read_body(
    mut payload: Payload,
    encoding: Encoding,
    declared: Option<u64>,
    timeout: Duration,
) -> Result<Bytes, ApiError> {
    let limit = encoding.wire_limit();
    let what = if encoding == Encoding::Identity {
        "the body"
    } else {
        "the compressed body"
    };
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large(format!("{what} is larger than {limit} bytes")));
    }
    let read = async {
        if encoding == Encoding::Identity {
            let mut body = BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(unreadable)?;
                if body.len() + chunk.len() > limit {
                    return Err(too_large(format!("{what} is larger than {limit} bytes")));
                }
                body.extend_from_slice(&chunk);
            }
            return Ok(body.freeze());
        }
        inflate(payload, encoding).await
    };
    // A small body has mostly arrived with the head: then it is read at once, without
    // arming a timer (one timer per request was ~1% of the server's work on 3x3 answers).
    let mut read = pin!(read);
    if let Some(done) = read.as_mut().now_or_never() {
        return done;
    }
    tokio::time::timeout(timeout, read).await.map_err(|_| {
        ApiError::new(
            ErrorCode::RequestTimeout,
            format!(
                "the body did not arrive within {} ms of the headers",
                timeout.as_millis()
            ),
        )
    })?
}

fn unreadable(e: PayloadError) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidRequest,
        format!("the body could not be read: {}", plain(&e)),
    )
}

/// A reading error in words for a client (actix-http's own text shows Rust's debug form
/// of the inner error, `Some(Custom { kind: .. })`).
fn plain(e: &PayloadError) -> String {
    match e {
        PayloadError::Incomplete(Some(io)) | PayloadError::Io(io) => io.to_string(),
        PayloadError::Incomplete(None) => "it ended before it was complete".to_string(),
        PayloadError::EncodingCorrupted => "its encoding is corrupt".to_string(),
        PayloadError::Overflow => "it is too large".to_string(),
        e => e.to_string(),
    }
}

/// The compressed body `wire` inflated by actix-http's decoder, at most
/// [`MAX_BODY_BYTES`]: the wire bytes are held to the encoding's limit, fed in pieces of
/// [`PIECE`] bytes, and inflating stops as soon as the output passes the limit.
pub async fn inflate<S>(wire: S, encoding: Encoding) -> Result<Bytes, ApiError>
where
    S: futures_util::Stream<Item = Result<Bytes, PayloadError>>,
{
    let limit = encoding.wire_limit();
    let mut seen = 0usize;
    let pieces = wire
        .map(move |chunk| {
            let chunk = chunk?;
            seen += chunk.len();
            if seen > limit {
                return Err(PayloadError::Overflow);
            }
            Ok(chunk)
        })
        .flat_map(|chunk| {
            let pieces: Vec<Result<Bytes, PayloadError>> = match chunk {
                Err(e) => vec![Err(e)],
                Ok(chunk) => (0..chunk.len())
                    .step_by(PIECE)
                    .map(|at| Ok(chunk.slice(at..(at + PIECE).min(chunk.len()))))
                    .collect(),
            };
            stream::iter(pieces)
        });
    let mut decoded = pin!(Decompress::new(pieces, encoding.content_encoding()));
    let mut body = BytesMut::new();
    while let Some(chunk) = decoded.next().await {
        let chunk = chunk.map_err(|e| match e {
            PayloadError::Overflow => {
                too_large(format!("the compressed body is larger than {limit} bytes"))
            }
            e => ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "the body is not valid {} (Content-Encoding): {}",
                    encoding.content_encoding().as_str(),
                    plain(&e)
                ),
            ),
        })?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(too_large(format!(
                "the body inflates to more than {MAX_BODY_BYTES} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}
