//! The HTTP layer: the only place that knows actix, serde and utoipa.
//!
//! [`configure`] registers every route; [`ApiDoc`] is the OpenAPI document;
//! [`json_errors`] turns the bare errors that actix produces itself (404, 405, 413...)
//! into the API's JSON error shape.

pub mod after;
pub mod analyse;
pub mod deadline;
pub mod dto;
pub mod error;
mod examples;
pub mod extract;
pub mod forms;
pub mod messages;
pub mod metrics;
pub mod page;
pub mod position;
pub mod requests;
pub mod review;
pub mod review_dto;
pub mod routes;
pub mod search;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::{ErrorHandlerResponse, Next};
use actix_web::{web, HttpResponse};
use utoipa::OpenApi;

use crate::config::Config;
use error::{ApiError, ErrorCode};

/// What every handler shares.
pub struct AppState {
    pub config: Config,
    pub search: search::SearchPool,
    pub metrics: metrics::Metrics,
    /// The OpenAPI document, rendered once.
    pub openapi_json: String,
}

impl AppState {
    pub fn new(config: Config, metrics: metrics::Metrics) -> AppState {
        let search = search::SearchPool::new(
            config.max_concurrent_searches,
            config.search_queue,
            config.margin,
            metrics.clone(),
        )
        .with_floor(search::Floor {
            percent: config.admission_floor_percent,
            min: config.admission_floor_min,
        });
        AppState {
            config,
            search,
            metrics,
            openapi_json: openapi_json(),
        }
    }
}

/// The OpenAPI document of kinrow.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "kinrow",
        description = "Move suggestions for m,n,k-games: tic-tac-toe on 3x3, gomoku on 15x15 and \
every board size, line length and special-piece rule set in between.\n\n\
The server keeps no game state: every request carries the whole position (`rules`, `board`, \
`to_move`). The board is `n` strings of `m` characters (`.` empty, `x`, `o`, `#` block); an \
array of `n` arrays of one-character strings and one string with the rows separated by `/` \
(`\"x../.o./...\"`) are accepted too. Cells are addressed by zero-based `row` (0 is the first \
string) and `col`. `x` moves first; `k` of one's own marks in an unbroken horizontal, vertical \
or diagonal line wins.\n\n\
One call per turn: every `/v1/suggest` and `/v1/play` answer carries `after`, the position \
after the move in request shape; send it back as it is with the next request (the answer-only \
fields `status`, `winner`, `winning_line`, `legal_moves` and `forbidden` are ignored in a \
request; any other unknown field is refused, so that typos are caught). `/v1/play` with \
`reply` (an engine) plays the player's move and the engine's answer in one request. \
`\"engine\": \"auto\"` is short for `{\"name\": \"auto\"}`; engine names are \
case-insensitive. `include` trims a suggestion to the parts a client reads, and answers are \
compressed (gzip, brotli, zstd) when the request's `Accept-Encoding` allows it.\n\n\
`/v1/analyse` streams a search as Server-Sent Events (`info` events as it deepens, then the \
`/v1/suggest` answer as `result`); `engine.multipv` N gives the N best moves with their own \
lines. `/v1/review` judges every move of a game (`best`, `good`, `inaccuracy`, `mistake`, \
`blunder`, `forced`) with the value series for a graph.\n\n\
Every error, 404 and 405 included, is `{\"error\": {\"code\", \"message\", \"field\"}}` with a \
stable code: 400 `invalid_json` / `invalid_request`; 422 `invalid_board`, `invalid_rules`, \
`inconsistent_turn`, `game_over`, `illegal_move`, `unknown_engine`, `invalid_limits`; \
404 `not_found`; 405 `method_not_allowed` (with `Allow`); 408 `request_timeout` (the head or \
body came too slowly); 413 `payload_too_large` (bodies over 64 KiB, compressed or once \
inflated); 415 `unsupported_media_type`; 431 `headers_too_large`; 503 `overloaded` (with \
`Retry-After`); 500 `internal` (a bug). `field` names the offending place: `board[3]`, \
`rules.k`, `engine.time_ms`, `move.row`.\n\n\
Time: a search's budget (`engine.time_ms`) counts from the request's start, the proxy's \
`X-Request-Start: t=<epoch seconds>` if given; `X-Kinrow-Deadline-Ms: N` caps it so that \
the answer, 200 or 503, arrives within N ms. Every GET route answers HEAD."
    ),
    paths(
        routes::suggest,
        analyse::analyse,
        review::review,
        routes::state,
        routes::play,
        routes::engines,
        routes::healthz,
        routes::metrics,
        routes::openapi_json
    ),
    // Referenced by `engine` and `reply` (a name or the parameters), whose schemas are
    // written by hand.
    // The events of `/v1/analyse`'s stream are documented as components.
    components(schemas(
        dto::EngineName,
        dto::EngineParams,
        analyse::InfoDto,
        analyse::LineDto,
        dto::SuggestResponse
    )),
    tags(
        (name = "moves", description = "Engines and their suggestions"),
        (name = "positions", description = "The rules: state of a position, playing a move"),
        (name = "operations", description = "Liveness, metrics, this document")
    )
)]
pub struct ApiDoc;

/// The OpenAPI document as pretty JSON (what `kinrow openapi` prints and
/// `openapi/openapi.json` holds).
pub fn openapi_json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}

/// Registers every route of the API. The demo page (`GET /`) registers itself here too.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // Each path is one resource with its methods, so that another method answers 405
    // with an `Allow` header (the route macros would answer 404).
    cfg.service(web::resource("/v1/suggest").route(web::post().to(routes::suggest)))
        .service(web::resource("/v1/analyse").route(web::post().to(analyse::analyse)))
        .service(web::resource("/v1/review").route(web::post().to(review::review)))
        .service(web::resource("/v1/state").route(web::post().to(routes::state)))
        .service(web::resource("/v1/play").route(web::post().to(routes::play)))
        .service(web::resource("/v1/engines").route(web::get().to(routes::engines)))
        .service(web::resource("/healthz").route(web::get().to(routes::healthz)))
        .service(web::resource("/metrics").route(web::get().to(routes::metrics)))
        .service(web::resource("/openapi.json").route(web::get().to(routes::openapi_json)))
        .service(web::resource("/docs").route(web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, "/docs/"))
                .finish()
        })))
        .service(
            utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
                .config(utoipa_swagger_ui::Config::from("/openapi.json")),
        );
    page::configure(cfg);
}

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
