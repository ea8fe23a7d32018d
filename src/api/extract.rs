//! `ApiJson<T>`: the JSON body extractor of the API. It checks the content type, reads
//! at most 64 KiB, and reports every problem as an [`ApiError`] whose `field` is the
//! path of the offending value (`rules.k`, `board[3]`, `engine.time_ms`).

use std::future::Future;
use std::pin::Pin;

use actix_web::{dev::Payload, http::StatusCode, web, FromRequest, HttpMessage, HttpRequest};
use serde::de::DeserializeOwned;

use super::error::{ApiError, ErrorCode};
use crate::config::MAX_BODY_BYTES;

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
    // Syntax first (cheap, allocation-free), so that a broken document is always
    // `invalid_json`, whatever its shape.
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidJson,
            format!("the body is not valid JSON: {e}"),
        )
    })?;
    // Every body is an object (serde would read a struct from an array, field by field).
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
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
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let bytes = bytes.await.map_err(|e| {
                if e.as_response_error().status_code() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        ErrorCode::PayloadTooLarge,
                        format!("the body is larger than {MAX_BODY_BYTES} bytes"),
                    )
                } else {
                    ApiError::new(
                        ErrorCode::InvalidRequest,
                        format!("the body could not be read: {e}"),
                    )
                }
            })?;
            parse_body(&bytes).map(ApiJson)
        })
    }
}
