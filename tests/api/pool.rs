//! The search pool's guarantees, with test engines: a panic is a 500 for that request
//! only, an engine that overruns its budget answers 503 at budget + margin and keeps its
//! slot until it really stops, and the queue is bounded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kinrow_engine::Budget;
use kinrow_engine::Engine;
use kinrow_engine::SearchContext;
use kinrow_engine::{Analysis, Evaluation, Limits, MoveEval, Outcome, SearchStats};
use kinrow_game::{Position, Rules};
use kinrow_server::ErrorCode;
use kinrow_server::Metrics;
use kinrow_server::SearchPool;
use rand::rngs::StdRng;

/// Sleeps for `factor` times its budget, then plays the first legal move.
struct Sleeper {
    factor: f64,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl Engine for Sleeper {
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        _: &mut Budget,
        _: &mut SearchContext,
        _rng: &mut StdRng,
    ) -> Analysis {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(limits.time.mul_f64(self.factor));
        self.running.fetch_sub(1, Ordering::SeqCst);
        let mv = position.legal_moves()[0];
        let eval = Evaluation {
            score: 0.0,
            outcome: Outcome::Unknown,
            plies: None,
        };
        Analysis {
            best: mv,
            evaluation: eval.clone(),
            moves: vec![MoveEval::searched(mv, eval, 1)],
            pv: vec![mv],
            win_rates: Vec::new(),
            lines: Vec::new(),
            stats: SearchStats::default(),
        }
    }
}

struct Panicker;

impl Engine for Panicker {
    fn analyze_in(
        &self,
        _: &Position,
        _: &Limits,
        _: &mut Budget,
        _: &mut SearchContext,
        _: &mut StdRng,
    ) -> Analysis {
        panic!("a deliberate bug in a test engine");
    }
}

fn position() -> Position {
    Position::empty(&Rules::mnk(3, 3, 3).unwrap())
}

fn sleeper(factor: f64, running: &Arc<AtomicUsize>, peak: &Arc<AtomicUsize>) -> Box<dyn Engine> {
    Box::new(Sleeper {
        factor,
        running: Arc::clone(running),
        peak: Arc::clone(peak),
    })
}

#[test]
fn a_panic_is_a_500_for_that_request_only() {
    actix_web::rt::System::new().block_on(async {
        let pool = SearchPool::new(1, 0, Duration::from_millis(50), Metrics::new());
        let limits = Limits::with_time(Duration::from_millis(10_000));
        let t0 = Instant::now();
        let err = pool
            .run_engine(
                "panicker",
                || Box::new(Panicker),
                position(),
                limits.clone(),
                1,
            )
            .await
            .err()
            .expect("a panic is an error");
        assert_eq!(
            err.code,
            ErrorCode::Internal,
            "{err} after {:?}",
            t0.elapsed()
        );
        // The slot came back: the next search runs. (The budget is long, 10 s, because a
        // panic under RUST_BACKTRACE=1 spends a while printing its backtrace.)
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let (r, p) = (running.clone(), peak.clone());
        let ok = pool
            .run_engine(
                "sleeper",
                move || sleeper(0.1, &r, &p),
                position(),
                limits,
                1,
            )
            .await;
        assert!(ok.is_ok());
    });
}

#[test]
fn an_overrun_with_no_iteration_answers_503_within_budget_plus_margin_and_keeps_its_slot() {
    actix_web::rt::System::new().block_on(async {
        let margin = Duration::from_millis(50);
        let pool = SearchPool::new(1, 0, margin, Metrics::new());
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let budget = Duration::from_millis(100);
        let start = Instant::now();
        let (r, p) = (running.clone(), peak.clone());
        let err = pool
            .run_engine(
                "sleeper",
                move || sleeper(4.0, &r, &p),
                position(),
                Limits::with_time(budget),
                1,
            )
            .await
            .err()
            .expect("an overrun is an error");
        let took = start.elapsed();
        assert_eq!(err.code, ErrorCode::Overloaded);
        // Late halfway through the margin (the other half is the anytime answer's), and
        // with no completed iteration to answer with: 503.
        assert!(took >= budget + margin / 2, "{took:?}");
        assert!(
            took < budget + margin + Duration::from_millis(100),
            "{took:?}"
        );
        // The overrunning engine still holds the only slot: the next request is refused.
        let (r, p) = (running.clone(), peak.clone());
        let err = pool
            .run_engine(
                "sleeper",
                move || sleeper(0.1, &r, &p),
                position(),
                Limits::with_time(budget),
                1,
            )
            .await
            .err()
            .expect("no slot while the overrun lasts");
        assert_eq!(err.code, ErrorCode::Overloaded);
        // Once it stops, the slot is free again.
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
        let (r, p) = (running.clone(), peak.clone());
        assert!(pool
            .run_engine(
                "sleeper",
                move || sleeper(0.1, &r, &p),
                position(),
                Limits::with_time(budget),
                1
            )
            .await
            .is_ok());
        assert_eq!(peak.load(Ordering::SeqCst), 1, "never two searches at once");
    });
}

#[test]
fn at_most_the_limit_runs_and_the_queue_is_bounded() {
    actix_web::rt::System::new().block_on(async {
        let pool = Arc::new(SearchPool::new(
            2,
            2,
            Duration::from_millis(100),
            Metrics::new(),
        ));
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for i in 0..10 {
            let pool = Arc::clone(&pool);
            let (r, p) = (running.clone(), peak.clone());
            tasks.push(actix_web::rt::spawn(async move {
                let start = Instant::now();
                // Long budget; the engine uses a quarter of it, so queued ones get served.
                let res = pool
                    .run_engine(
                        "sleeper",
                        move || sleeper(0.25, &r, &p),
                        position(),
                        Limits::with_time(Duration::from_millis(400)),
                        i,
                    )
                    .await;
                (res.map(|_| ()).map_err(|e| e.code), start.elapsed())
            }));
        }
        let mut ok = 0;
        let mut refused_fast = 0;
        for t in tasks {
            let (res, took) = t.await.unwrap();
            match res {
                Ok(()) => ok += 1,
                Err(ErrorCode::Overloaded) => {
                    assert!(
                        took < Duration::from_millis(50),
                        "refused at once: {took:?}"
                    );
                    refused_fast += 1;
                }
                Err(other) => panic!("unexpected {other:?}"),
            }
            assert!(
                took < Duration::from_millis(500),
                "within budget + margin: {took:?}"
            );
        }
        assert_eq!(ok, 4, "2 running + 2 queued");
        assert_eq!(refused_fast, 6);
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    });
}

#[test]
fn a_request_starved_in_the_queue_answers_503_not_a_late_200() {
    actix_web::rt::System::new().block_on(async {
        let metrics = Metrics::new();
        let pool = Arc::new(SearchPool::new(
            1,
            4,
            Duration::from_millis(100),
            metrics.clone(),
        ));
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let budget = Duration::from_millis(500);
        // The first search holds the only slot for 90% of its budget (450 ms).
        let (r, p) = (running.clone(), peak.clone());
        let first = {
            let pool = Arc::clone(&pool);
            actix_web::rt::spawn(async move {
                pool.run_engine(
                    "sleeper",
                    move || sleeper(0.9, &r, &p),
                    position(),
                    Limits::with_time(budget),
                    1,
                )
                .await
                .map(|_| ())
            })
        };
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
        // The second, queued behind it, would get its slot with 70 ms of its 500 left:
        // under the floor (20% = 100 ms), so it gives up when only the floor is left.
        let start = Instant::now();
        let (r, p) = (running.clone(), peak.clone());
        let err = pool
            .run_engine(
                "sleeper",
                move || sleeper(0.1, &r, &p),
                position(),
                Limits::with_time(budget),
                2,
            )
            .await
            .err()
            .expect("a starved request is refused");
        let took = start.elapsed();
        assert_eq!(err.code, ErrorCode::Overloaded, "{err}");
        assert!(err.message.contains("enough of the time budget"), "{err}");
        // It waited until 400 ms of its budget had passed, and answered inside its 500 ms
        // budget (the 90 ms between absorb a loaded machine's late timer wake-ups).
        assert!(took >= Duration::from_millis(390), "{took:?}");
        assert!(took < Duration::from_millis(490), "{took:?}");
        assert!(first.await.unwrap().is_ok());
        assert!(metrics
            .render()
            .contains(r#"kinrow_searches_total{engine="sleeper",result="starved"} 1"#));
    });
}
