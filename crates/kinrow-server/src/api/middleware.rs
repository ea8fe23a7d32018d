//! The middleware of the API: HEAD routed as GET, the JSON 404, and the JSON shape for
//! the error answers actix produces itself (404, 405, 413...).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::{ErrorHandlerResponse, Next};
use actix_web::HttpResponse;

use super::error::{ApiError, ErrorCode};

/// Middleware: a `HEAD` request is routed as the `GET` of its path, so that every GET
/// route answers HEAD with the same status and headers (the HTTP layer knows the request
/// was HEAD and sends no body).
pub async fn head_as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    next.call(req).await
}

/// The answer for a path that matches no route.
pub async fn not_found(req: actix_web::HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(
        ErrorCode::NotFound,
        format!("there is no {} {}", req.method(), req.path()),
    ))
}

/// Error-handler middleware: rewrites an error response that is not JSON yet (actix's
/// own 404/405/413/400 answers) into the API's JSON shape, keeping its headers (`Allow`,
/// `Retry-After`, CORS).
pub fn json_errors<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let code = ErrorCode::for_status(status);
    let message = match code {
        ErrorCode::MethodNotAllowed => {
            let allowed = res
                .headers()
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            format!(
                "{} is not allowed on {}; allowed: {allowed}",
                res.request().method(),
                res.request().path()
            )
        }
        ErrorCode::NotFound => format!(
            "there is no {} {}",
            res.request().method(),
            res.request().path()
        ),
        _ => match res.response().error() {
            Some(e) => e.to_string(),
            None => status.canonical_reason().unwrap_or("error").to_lowercase(),
        },
    };
    let (req, old) = res.into_parts();
    let mut new = HttpResponse::build(status).json(ApiError::new(code, message).body());
    for (name, value) in old.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            new.headers_mut().insert(name.clone(), value.clone());
        }
    }
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, new).map_into_right_body::<B>(),
    ))
}
