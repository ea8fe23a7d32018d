//! The one error type of the HTTP layer: every failure answers the same JSON shape,
//! `{"error": {"code", "message", "field"}}`, with a stable `snake_case` code.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use kinrow_game::{GameError, GameErrorKind};

/// Seconds a client should wait before retrying after a 503.
pub const RETRY_AFTER_SECS: u32 = 1;

/// The stable error codes of the API.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the body is not valid JSON.
    InvalidJson,
    /// 400: the body is JSON but not of the documented shape (missing or unknown field, wrong type).
    InvalidRequest,
    /// 422: the board does not fit the rules or its notation is broken.
    InvalidBoard,
    /// 422: the rules are impossible (`m = 0`, `k = 0`, a count over 64...).
    InvalidRules,
    /// 422: `to_move` is missing where special pieces are in play, or contradicts the board.
    InconsistentTurn,
    /// 422: the game is already decided; nothing can be suggested or played.
    GameOver,
    /// 422: the move is not legal in this position.
    IllegalMove,
    /// 422: the move is forbidden for x under renju (the message names the reason).
    ForbiddenMove,
    /// 422: a swap / swap2 board still in the first placement of its opening phase was
    /// sent to `/v1/suggest`, `/v1/analyse` or `/v1/play`: its steps go through `/v1/opening`.
    OpeningPhase,
    /// 422: no engine has this name.
    UnknownEngine,
    /// 422: a limit (`time_ms`, `depth`, `nodes`, `mistake_probability`) is out of range.
    InvalidLimits,
    /// 404: no such path.
    NotFound,
    /// 405: the path exists but not with this method (see the `Allow` header).
    MethodNotAllowed,
    /// 408: the request's body did not arrive in time; the connection is closed. (A head
    /// that does not arrive gets the HTTP layer's plain 408; nginx's is this code.)
    RequestTimeout,
    /// 413: the body is larger than 64 KiB (or inflates to more).
    PayloadTooLarge,
    /// 415: the body is not sent as `application/json`, or in an unknown `Content-Encoding`.
    UnsupportedMediaType,
    /// 431: the request's headers are too large. The server's own 431 is the HTTP layer's
    /// plain answer; the deployment's nginx answers this code (deploy/nginx.conf).
    HeadersTooLarge,
    /// 503: every search slot and queue place is taken, or the search completed no iteration within its budget; retry after `Retry-After` seconds.
    Overloaded,
    /// 503: the external engine crashed, hung, overran its budget or answered nonsense;
    /// its process was stopped and is replaced. Retry after `Retry-After` seconds.
    EngineUnavailable,
    /// 500: a bug (a panic or an unexpected failure); it is logged.
    Internal,
}

impl ErrorCode {
    /// The code as it appears in the JSON body.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidBoard => "invalid_board",
            ErrorCode::InvalidRules => "invalid_rules",
            ErrorCode::InconsistentTurn => "inconsistent_turn",
            ErrorCode::GameOver => "game_over",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::ForbiddenMove => "forbidden_move",
            ErrorCode::OpeningPhase => "opening_phase",
            ErrorCode::UnknownEngine => "unknown_engine",
            ErrorCode::InvalidLimits => "invalid_limits",
            ErrorCode::NotFound => "not_found",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::RequestTimeout => "request_timeout",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::HeadersTooLarge => "headers_too_large",
            ErrorCode::Overloaded => "overloaded",
            ErrorCode::EngineUnavailable => "engine_unavailable",
            ErrorCode::Internal => "internal",
        }
    }

    /// The HTTP status that goes with the code.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::InvalidJson | ErrorCode::InvalidRequest => StatusCode::BAD_REQUEST,
            ErrorCode::InvalidBoard
            | ErrorCode::InvalidRules
            | ErrorCode::InconsistentTurn
            | ErrorCode::GameOver
            | ErrorCode::IllegalMove
            | ErrorCode::ForbiddenMove
            | ErrorCode::OpeningPhase
            | ErrorCode::UnknownEngine
            | ErrorCode::InvalidLimits => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ErrorCode::Overloaded | ErrorCode::EngineUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The code for a bare status produced outside the handlers (404, 405, 413...).
    pub fn for_status(status: StatusCode) -> ErrorCode {
        match status.as_u16() {
            400 => ErrorCode::InvalidRequest,
            404 => ErrorCode::NotFound,
            405 => ErrorCode::MethodNotAllowed,
            408 => ErrorCode::RequestTimeout,
            413 => ErrorCode::PayloadTooLarge,
            415 => ErrorCode::UnsupportedMediaType,
            431 => ErrorCode::HeadersTooLarge,
            422 => ErrorCode::InvalidRequest,
            503 => ErrorCode::Overloaded,
            _ => ErrorCode::Internal,
        }
    }
}

impl From<GameErrorKind> for ErrorCode {
    fn from(kind: GameErrorKind) -> ErrorCode {
        match kind {
            GameErrorKind::InvalidRules => ErrorCode::InvalidRules,
            GameErrorKind::InvalidBoard => ErrorCode::InvalidBoard,
            GameErrorKind::InconsistentTurn => ErrorCode::InconsistentTurn,
            GameErrorKind::GameOver => ErrorCode::GameOver,
            GameErrorKind::IllegalMove => ErrorCode::IllegalMove,
            GameErrorKind::ForbiddenMove => ErrorCode::ForbiddenMove,
        }
    }
}

/// The body of every error answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"error": {"code": "invalid_board", "message": "row 3 has 14 cells, expected 15 (rules.m)", "field": "board[3]"}}))]
pub struct ErrorBody {
    /// The code, the message and the field at fault.
    pub error: ErrorDetail,
}

/// What went wrong, and where.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable `snake_case` code; clients branch on this, never on the message.
    pub code: ErrorCode,
    /// One sentence for a person.
    pub message: String,
    /// The offending place in the request body (`board[3]`, `rules.k`, `engine.time_ms`,
    /// `move.row`), or null when the problem is not one field's.
    pub field: Option<String>,
}

/// An error answer of the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The stable code, which also decides the HTTP status.
    pub code: ErrorCode,
    /// One sentence for a person.
    pub message: String,
    /// The offending place in the request body, if one field is at fault.
    pub field: Option<String>,
}

impl ApiError {
    /// An error of `code` that is no single field's.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            field: None,
        }
    }

    /// An error of `code` at `field`.
    pub fn at(code: ErrorCode, field: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            field: Some(field.into()),
        }
    }

    /// The JSON body of this error.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message.clone(),
                field: self.field.clone(),
            },
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{}: {field}: {}", self.code.as_str(), self.message),
            None => write!(f, "{}: {}", self.code.as_str(), self.message),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        ApiError::at(e.kind.into(), e.field, e.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse {
        let mut builder = HttpResponse::build(self.status_code());
        if matches!(
            self.code,
            ErrorCode::Overloaded | ErrorCode::EngineUnavailable
        ) {
            builder.insert_header((header::RETRY_AFTER, RETRY_AFTER_SECS.to_string()));
        }
        builder.json(self.body())
    }
}
