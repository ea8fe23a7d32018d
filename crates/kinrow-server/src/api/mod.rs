//! The HTTP layer: the only place that knows actix, serde and utoipa.
//!
//! [`configure`] registers every route; [`ApiDoc`] is the OpenAPI document. The handlers
//! are in [`routes`] (one file per endpoint), the bodies in [`dto`] (one file per
//! resource), what the handlers share in [`state`]; [`middleware`] turns the bare errors
//! that actix produces itself (404, 405, 413...) into the API's JSON error shape.
//!
//! The floors, each using only those below it: `error`, `messages`, `examples`; `dto`,
//! `metrics`, `deadline`; `search`; `state`; `extract`, `middleware`, `page`; `routes`;
//! this file.

pub mod cross_field;
pub mod deadline;
pub mod dto;
pub mod error;
mod examples;
pub mod extract;
pub mod messages;
pub mod metrics;
pub mod middleware;
pub mod page;
pub mod pool;
pub mod routes;
pub mod state;

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use utoipa::OpenApi;

pub use middleware::{head_as_get, json_errors, not_found};
pub use state::AppState;

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
`rules.variant` picks the rule family: `free` (the default: `overline` as given), `renju` \
(k = 5: x wins only with exactly five and may not make an overline, two fours or two open \
threes; `/v1/state` lists x's forbidden cells with the reason in `forbidden`, `/v1/play` \
refuses them with 422 `forbidden_move`; o wins with five or more) or `caro` (exactly k, \
and not blocked at both ends by the opponent; the board's edge blocks nothing). Renju and \
caro are played with marks only: special pieces with them are refused with 422 \
`invalid_rules` at `rules.variant`. Every engine plays every variant.\n\n\
`rules.opening` names an opening rule: `pro` and `long_pro` (x's first stone on the centre, \
its second at least 3 / 4 cells from it: `/v1/state` lists the forbidden cells, reasons \
`off_centre` / `near_centre`, `/v1/play` refuses them with 422 `forbidden_move`, every engine \
keeps to them), `swap` and `swap2` (an opening phase of decisions, taken with `/v1/opening`; \
`/v1/suggest`, `/v1/analyse`, `/v1/play` and `/v1/review` refuse a board still in its first placement, \
fewer than three stones, with 422 `opening_phase`).\n\n\
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
`inconsistent_turn`, `game_over`, `illegal_move`, `forbidden_move`, `opening_phase`, `unknown_engine`, `invalid_limits`; \
404 `not_found`; 405 `method_not_allowed` (with `Allow`); 408 `request_timeout` (the body came \
too slowly); 413 `payload_too_large` (bodies over 64 KiB, compressed or once \
inflated); 415 `unsupported_media_type`; 503 `overloaded` (with \
`Retry-After`); 500 `internal` (a bug). The HTTP layer answers three broken requests itself, \
before any handler runs, with an empty body: 400 (a broken request line or framing), 408 \
(the head did not arrive in time) and 431 (too many or too large headers); behind the \
deployment's nginx they have this JSON shape too (`invalid_request`, `request_timeout`, \
`headers_too_large`). `field` names the offending place: `board[3]`, \
`rules.k`, `engine.time_ms`, `move.row`.\n\n\
Time: a search's budget (`engine.time_ms`) counts from the request's start, the proxy's \
`X-Request-Start: t=<epoch seconds>` if given; `X-Kinrow-Deadline-Ms: N` caps it so that \
the answer, 200 or 503, arrives within N ms. Every GET route answers HEAD."
    ),
    paths(
        routes::suggest::suggest,
        routes::analyse::analyse,
        routes::review::review,
        routes::state::state,
        routes::play::play,
        routes::opening::opening,
        routes::engines::engines,
        routes::healthz::healthz,
        routes::readyz::readyz,
        routes::metrics::metrics,
        routes::openapi::openapi_json
    ),
    // Referenced by `engine` and `reply` (a name or the parameters), whose schemas are
    // written by hand.
    // The events of `/v1/analyse`'s stream are documented as components.
    components(schemas(
        dto::EngineName,
        dto::EngineParams,
        dto::analyse::InfoDto,
        dto::analyse::LineDto,
        dto::SuggestResponse
    )),
    tags(
        (name = "moves", description = "Engines and their suggestions"),
        (name = "positions", description = "The rules: state of a position, playing a move"),
        (name = "operations", description = "Liveness, readiness, metrics, this document")
    )
)]
pub struct ApiDoc;

/// The OpenAPI document as pretty JSON (what `kinrow openapi` prints and
/// `openapi/openapi.json` holds), with the cross-field rules ([`cross_field`]).
pub fn openapi_json() -> String {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the OpenAPI document serializes");
    cross_field::add(&mut doc);
    examples::opening_schemas(&mut doc);
    serde_json::to_string_pretty(&doc).expect("the OpenAPI document serializes")
}

/// Registers every route of the API. The demo page (`GET /`) registers itself here too.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // Each path is one resource with its methods, so that another method answers 405
    // with an `Allow` header (the route macros would answer 404).
    use routes::*;
    cfg.service(web::resource("/v1/suggest").route(web::post().to(suggest::suggest)))
        .service(web::resource("/v1/analyse").route(web::post().to(analyse::analyse)))
        .service(web::resource("/v1/review").route(web::post().to(review::review)))
        .service(web::resource("/v1/state").route(web::post().to(state::state)))
        .service(web::resource("/v1/play").route(web::post().to(play::play)))
        .service(web::resource("/v1/opening").route(web::post().to(opening::opening)))
        .service(web::resource("/v1/engines").route(web::get().to(engines::engines)))
        .service(web::resource("/healthz").route(web::get().to(healthz::healthz)))
        .service(web::resource("/readyz").route(web::get().to(readyz::readyz)))
        .service(web::resource("/metrics").route(web::get().to(metrics::metrics)))
        .service(web::resource("/openapi.json").route(web::get().to(openapi::openapi_json)))
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
