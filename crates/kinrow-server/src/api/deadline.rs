//! End-to-end time: when a request started and by when its answer is wanted.
//!
//! Two headers feed a [`RequestClock`], which a middleware puts in scope around every
//! request (a task-local, so that the search pool reads it without the handlers
//! passing it along):
//!
//! - `X-Kinrow-Deadline-Ms: N` (from the client): the whole answer, 200 or 503, is wanted
//!   within N ms of the request's start. It caps the search budget (`engine.time_ms`).
//! - `X-Request-Start: t=<seconds since the epoch>` (from a proxy, nginx's `$msec`): when
//!   the proxy received the request. The budget and the deadline count from then, so a
//!   request that a proxy retries on another replica after one died does not start its
//!   budget again. An age outside 0..60 s (clocks far apart) is ignored.

use std::future::Future;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::HeaderMap;
use actix_web::middleware::Next;

use super::error::{ApiError, ErrorCode};

/// The client's deadline header: milliseconds from the request's start.
pub const DEADLINE_HEADER: &str = "x-kinrow-deadline-ms";
/// The proxy's start-time header: `t=` and seconds since the epoch (`$msec` in nginx).
pub const REQUEST_START_HEADER: &str = "x-request-start";
/// The largest age of `X-Request-Start` that is believed.
pub const MAX_START_AGE: Duration = Duration::from_secs(60);

/// When a request started and the latest moment its answer is wanted.
#[derive(Copy, Clone, Debug)]
pub struct RequestClock {
    /// When the request started: when the first proxy received it, or when it arrived here.
    pub start: Instant,
    /// When the answer is due (`start` + the deadline header), if the client set one.
    pub deadline: Option<Instant>,
}

tokio::task_local! {
    static CLOCK: RequestClock;
}

impl RequestClock {
    /// A request that starts now and has no deadline.
    pub fn now() -> RequestClock {
        RequestClock {
            start: Instant::now(),
            deadline: None,
        }
    }

    /// The clock of the request being handled (set by [`request_clock`]); a clock that
    /// starts now outside a request.
    pub fn current() -> RequestClock {
        CLOCK
            .try_with(|c| *c)
            .unwrap_or_else(|_| RequestClock::now())
    }

    /// Runs `fut` with this clock as [`RequestClock::current`].
    pub fn scope<F: Future>(self, fut: F) -> impl Future<Output = F::Output> {
        CLOCK.scope(self, fut)
    }

    /// The clock of a request with these headers, arriving at `now` (`wall` is the same
    /// moment on the system clock). A malformed deadline header is an `invalid_request`.
    pub fn from_headers(
        headers: &HeaderMap,
        now: Instant,
        wall: SystemTime,
    ) -> Result<RequestClock, ApiError> {
        let age = headers
            .get(REQUEST_START_HEADER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| start_age(v, wall))
            .unwrap_or(Duration::ZERO);
        let start = now.checked_sub(age).unwrap_or(now);
        let deadline = match headers.get(DEADLINE_HEADER) {
            None => None,
            Some(v) => {
                let ms = v
                    .to_str()
                    .ok()
                    .and_then(|s| s.trim().parse::<u64>().ok())
                    .filter(|&ms| ms >= 1)
                    .ok_or_else(|| {
                        ApiError::at(
                            ErrorCode::InvalidRequest,
                            "X-Kinrow-Deadline-Ms",
                            format!(
                                "X-Kinrow-Deadline-Ms is {:?}, but it must be a whole number of milliseconds, at least 1",
                                String::from_utf8_lossy(v.as_bytes())
                            ),
                        )
                    })?;
                Some(start + Duration::from_millis(ms.min(24 * 3600 * 1000)))
            }
        };
        Ok(RequestClock { start, deadline })
    }
}

/// The age of a request that a proxy received at `value` (`t=1732512345.123`, or the
/// seconds alone), seen at `wall`; `None` when unreadable or outside 0..[`MAX_START_AGE`].
pub fn start_age(value: &str, wall: SystemTime) -> Option<Duration> {
    let secs: f64 = value.trim().trim_start_matches("t=").parse().ok()?;
    if !secs.is_finite() || secs <= 0.0 {
        return None;
    }
    // To the microsecond (nginx gives milliseconds; f64 holds today's microseconds exactly).
    let started = UNIX_EPOCH.checked_add(Duration::from_micros((secs * 1e6).round() as u64))?;
    match wall.duration_since(started) {
        Ok(age) if age <= MAX_START_AGE => Some(age),
        // A start slightly in the future: the clocks differ by a little; count from now.
        Err(e) if e.duration() <= Duration::from_secs(1) => Some(Duration::ZERO),
        _ => None,
    }
}

/// Middleware: puts the request's [`RequestClock`] in scope for the handler.
pub async fn request_clock(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let clock = RequestClock::from_headers(req.headers(), Instant::now(), SystemTime::now())?;
    clock.scope(next.call(req)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                HeaderName::from_static(k),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn the_proxy_start_moves_the_start_back_and_the_deadline_counts_from_it() {
        let now = Instant::now();
        let wall = UNIX_EPOCH + Duration::from_millis(1_700_000_000_500);
        let c = RequestClock::from_headers(
            &headers(&[
                ("x-request-start", "t=1700000000.200"),
                ("x-kinrow-deadline-ms", "800"),
            ]),
            now,
            wall,
        )
        .unwrap();
        assert_eq!(now - c.start, Duration::from_millis(300));
        assert_eq!(c.deadline.unwrap() - now, Duration::from_millis(500));
    }

    #[test]
    fn unbelievable_starts_are_ignored() {
        let wall = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        // (header, age believed)
        let table = [
            ("1699999999.000", Some(Duration::from_secs(1))),
            ("t=1699999000", None), // 1000 s old: clocks apart
            ("t=1700000000.5", Some(Duration::ZERO)), // half a second ahead
            ("t=1700000100", None), // 100 s ahead
            ("yesterday", None),
            ("t=-5", None),
            ("NaN", None),
        ];
        for (value, want) in table {
            assert_eq!(start_age(value, wall), want, "{value}");
        }
    }

    #[test]
    fn a_bad_deadline_names_the_header() {
        for bad in ["0", "-1", "soon", "1.5"] {
            let e = RequestClock::from_headers(
                &headers(&[("x-kinrow-deadline-ms", bad)]),
                Instant::now(),
                SystemTime::now(),
            )
            .unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidRequest);
            assert_eq!(e.field.as_deref(), Some("X-Kinrow-Deadline-Ms"));
        }
    }
}
