//! `POST /v1/analyse`: a suggestion whose search is streamed as Server-Sent Events.
//!
//! The request is `/v1/suggest`'s and goes through the same checks and the same
//! admission (a place, a slot, 503 with `Retry-After`, all before the stream starts, as
//! ordinary JSON answers). Then the answer is `text/event-stream`: an `info` event for
//! each progress report of the engine (each completed iteration, each settled root move
//! of `perfect`, and at least every 250 ms of a long search, see
//! [`kinrow_engine::core::progress`]; where the engine is quiet longer, the stream itself
//! repeats the last `info` with the nodes and time so far every [`INFO_EVERY`], or, before
//! the engine's first report, sends one without a move), then one `result` event whose data is exactly the
//! `/v1/suggest` answer, and the stream ends. A search that fails after the stream began
//! (it overran its budget with no completed iteration, or a bug) ends it with an `error` event carrying the API's
//! error body instead. When the client goes away, the stream is dropped, and with it
//! the search's future, whose guard raises the search's stop flag: the engine returns
//! at its next budget check and frees its slot.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use serde::Serialize;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

use super::run::{brain_failure, EngineLabel};
use super::suggest::{prepare_suggest, suggestion, trimmed};
use crate::api::dto::analyse::{InfoDto, StreamEvent};
use crate::api::dto::forms::shows_every_cell;
use crate::api::dto::{known_order, SuggestRequest};
use crate::api::error::{ApiError, ErrorBody};
use crate::api::extract::ApiJson;
use crate::api::state::AppState;
use kinrow_engine::Progress;

/// One Server-Sent Event: `event: name`, `data: json`, a blank line.
pub fn event(name: &str, data: &impl Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|e| {
        format!("{{\"error\":{{\"code\":\"internal\",\"message\":\"the event did not serialize: {e}\"}}}}")
    });
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Analyse a position, streaming the search.
///
/// The `/v1/suggest` body; the answer is a `text/event-stream` (Server-Sent Events) of
/// `info` events as the engine thinks (schema `AnalysisInfo`: depth, nodes, elapsed time,
/// the best move so far, its `value`, the principal variation, and with `engine.multipv`
/// N > 1 the N best `lines`), one at each completed iteration (`minimax`, `auto`), at
/// each settled root move (`perfect`), and at least every 250 ms of a long search; then
/// exactly one `result` event whose data is the `/v1/suggest` answer for the same
/// request (schema `SuggestResponse`), and the stream ends. A search that fails once the
/// stream has begun (it overran its budget with no completed iteration: 503's case; an
/// external engine that crashed, hung or answered nonsense: `engine_unavailable`; or a
/// bug) ends it with an `error` event whose data is the error body (schema `ErrorBody`).
/// An external engine's `info` events are its `MESSAGE` lines (depth, eval, best line)
/// as it prints them: one at the end of the search for a brain that reports only then. The budget rules, queueing
/// and 503s are `/v1/suggest`'s, and every error before the stream begins is an ordinary
/// JSON answer. A client that disconnects stops the search: its slot is free within
/// milliseconds.
#[utoipa::path(
    post,
    path = "/v1/analyse",
    tag = "moves",
    request_body(content = SuggestRequest, examples(
        ("tic-tac-toe" = (summary = "3x3, three in a row, the two best lines", value = json!(crate::api::examples::analyse_3x3()))),
        ("gomoku" = (summary = "15x15, exactly five, a 500 ms search", value = json!(crate::api::examples::analyse_15x15()))),
        ("special pieces" = (summary = "7x7, four in a row, blocks, removes and a bomb in hand", value = json!(crate::api::examples::analyse_pieces()))),
        ("renju" = (summary = "15x15 renju: x may not play row 7, column 7 (two open threes)", value = json!(crate::api::examples::analyse_renju()))),
    )),
    responses(
        (status = 200, description = "A stream of Server-Sent Events: `event: info` (data: `AnalysisInfo`) any number of times, then `event: result` (data: `SuggestResponse`) once; or, when the search fails after the stream began, `event: error` (data: `ErrorBody`).",
            content_type = "text/event-stream", body = StreamEvent),
        (status = 400, description = "`invalid_json` or `invalid_request`", body = ErrorBody),
        (status = 413, description = "`payload_too_large`: the body is over 64 KiB", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`: the body is not application/json", body = ErrorBody),
        (status = 422, description = "`invalid_board`, `invalid_rules`, `inconsistent_turn`, `game_over`, `unknown_engine` or `invalid_limits`", body = ErrorBody),
        (status = 500, description = "`internal`: a bug, logged", body = ErrorBody),
        (status = 503, description = "`overloaded`: every search slot is taken",
            body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn analyse(
    state: web::Data<AppState>,
    body: ApiJson<SuggestRequest>,
) -> Result<HttpResponse, ApiError> {
    let req = body.0;
    let (position, plan) = prepare_suggest(&req, &state.config)?;
    let wanted = plan.multipv;
    let slot = state.search.admit(plan.name(), plan.limits.clone()).await?;

    let (tx, rx) = unbounded_channel::<Bytes>();
    let seen = position.clone();
    // The last info sent, which the stream repeats when the engine is quiet (see `beat`).
    let last: Arc<Mutex<Option<InfoDto>>> = Arc::default();
    let sent = Arc::clone(&last);
    let watch = Arc::new(
        plan.watch()
            .observed(move |p: &Progress| {
                let info = InfoDto::new(&seen, p, wanted);
                let bytes = event("info", &info);
                *sent.lock().unwrap_or_else(|e| e.into_inner()) = Some(info);
                // A closed channel (the client went away) is the stop flag's business.
                let _ = tx.send(bytes);
            })
            .showing_cells(shows_every_cell(req.include.as_deref())),
    );
    let beat = {
        let watch = Arc::clone(&watch);
        move || {
            let last = last.lock().unwrap_or_else(|e| e.into_inner());
            event(
                "info",
                &InfoDto::again(last.as_ref(), watch.nodes(), watch.elapsed()),
            )
        }
    };
    let search = slot.search(plan.builder(), position.clone(), plan.seed, watch);
    let include = req.include;
    let order = known_order(&req.rules, &req.board, &req.moves);
    let label = plan.name();
    let metrics = state.metrics.clone();
    let result = async move {
        let done = search.await?;
        if let Some(e) = brain_failure(&plan, &metrics) {
            return Err(e);
        }
        let mut answer = suggestion(&position, &plan, &done)?;
        answer.continue_order(order.as_deref());
        trimmed(&answer, include.as_deref())
    };
    let mut response = stream(rx, result, Some(Box::new(beat)));
    response.extensions_mut().insert(EngineLabel(label));
    Ok(response)
}

/// The `200 text/event-stream` answer of [`events`].
pub fn stream(
    infos: UnboundedReceiver<Bytes>,
    result: impl Future<Output = Result<serde_json::Value, ApiError>> + 'static,
    beat: Option<Beat>,
) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Events go out as they come: no compression (it would hold them back), and no
        // buffering in a proxy that honours this header (nginx).
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header(("x-accel-buffering", "no"))
        .streaming(events(infos, result, beat))
}

/// Makes an `info` event that repeats the last one with the search's nodes and time
/// now (or, before the engine's first report, says only that the search goes on).
pub type Beat = Box<dyn FnMut() -> Bytes>;

/// The longest the stream goes without an `info` event while the search runs (with a
/// [`Beat`]): the API promises one at least every 250 ms, and this leaves 50 ms for a
/// busy worker. The engines report by themselves at each step and every 250 ms of a long
/// one ([`kinrow_engine::REPORT_EVERY`]); this covers what they cannot
/// (`perfect` before its first root move is proven, phases of `auto` between reports).
pub const INFO_EVERY: Duration = Duration::from_millis(200);

type Answer = Pin<Box<dyn Future<Output = Result<serde_json::Value, ApiError>>>>;

/// How often the stream sends an SSE comment (`:`, ignored by clients) while no event
/// is due: a write to a connection the client closed fails, which is how the server
/// learns that it went away (and stops the search) within two of these.
pub const PING_EVERY: Duration = Duration::from_millis(10);

/// The stream's state while the search runs.
struct Running {
    answer: Answer,
    infos: UnboundedReceiver<Bytes>,
    ping: tokio::time::Interval,
    beat: Option<Beat>,
    /// When the last `info` event went out (or the stream began).
    quiet_since: Instant,
}

/// The stream: every `info` as it comes, then the `result` (or `error`) once `result`
/// is ready, after the infos sent before it; comments in between ([`PING_EVERY`]), or
/// the `beat`'s event when no `info` went out for [`INFO_EVERY`].
fn events(
    infos: UnboundedReceiver<Bytes>,
    result: impl Future<Output = Result<serde_json::Value, ApiError>> + 'static,
    beat: Option<Beat>,
) -> impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>> {
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let start = Some(Running {
        answer: Box::pin(result),
        infos,
        ping,
        beat,
        quiet_since: Instant::now(),
    });
    futures_util::stream::unfold(start, |state| async move {
        let mut run = state?;
        enum Step {
            Info(Bytes),
            Ping,
            Done(Result<serde_json::Value, ApiError>),
        }
        let step = poll_fn(|cx| {
            if let Poll::Ready(Some(info)) = run.infos.poll_recv(cx) {
                return Poll::Ready(Step::Info(info));
            }
            if let Poll::Ready(done) = run.answer.as_mut().poll(cx) {
                return Poll::Ready(Step::Done(done));
            }
            run.ping.poll_tick(cx).map(|_| Step::Ping)
        })
        .await;
        match step {
            Step::Info(info) => {
                run.quiet_since = Instant::now();
                Some((Ok(info), Some(run)))
            }
            Step::Ping => {
                let quiet = run.quiet_since.elapsed() >= INFO_EVERY;
                let beat = run.beat.as_mut().filter(|_| quiet).map(|beat| beat());
                if beat.is_some() {
                    run.quiet_since = Instant::now();
                }
                let out = beat.unwrap_or_else(|| Bytes::from_static(b":\n\n"));
                Some((Ok(out), Some(run)))
            }
            Step::Done(done) => {
                let mut out = Vec::new();
                while let Ok(info) = run.infos.try_recv() {
                    out.extend_from_slice(&info);
                }
                let last = match done {
                    Ok(answer) => event("result", &answer),
                    Err(e) => event("error", &e.body()),
                };
                out.extend_from_slice(&last);
                Some((Ok(Bytes::from(out)), None))
            }
        }
    })
}
