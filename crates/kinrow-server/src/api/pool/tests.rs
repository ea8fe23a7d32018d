//! The lanes, the admission floor and the window of a search.

use super::*;
use kinrow_engine::EngineKind;
use kinrow_game::{Hand, Rules};

fn empty(m: u64, n: u64, k: u64) -> Position {
    Position::empty(&Rules::mnk(m, n, k).unwrap())
}

#[test]
fn cheap_searches_run_inline_and_the_rest_in_the_pool() {
    use EngineKind::*;
    let hands = [Hand::new(1, 1, 1), Hand::new(1, 1, 1)];
    let pieces = |m, n, k| Position::empty(&Rules::new(m, n, k, true, hands).unwrap());
    // (engine, position, lane)
    let table = [
        (Perfect, empty(3, 3, 3), Lane::Inline), // the whole tree is tiny
        (Auto, empty(3, 3, 3), Lane::Inline),
        (Minimax, empty(3, 3, 3), Lane::Inline),
        (Mcts, empty(3, 3, 3), Lane::Pool), // mcts spends its budget
        (Perfect, empty(4, 4, 4), Lane::Pool),
        (Perfect, pieces(3, 3, 3), Lane::Pool),
        (Threat, empty(15, 15, 5), Lane::Inline), // one ply
        (Priority, empty(15, 15, 5), Lane::Inline),
        (Greedy, empty(15, 15, 5), Lane::Inline),
        (Threat, empty(32, 32, 5), Lane::Inline),
        (Threat, empty(64, 64, 5), Lane::Pool), // 4096 cells
        (Greedy, pieces(15, 15, 5), Lane::Inline), // 225 cells x every piece
        (Greedy, pieces(20, 20, 5), Lane::Pool),
        (Minimax, empty(15, 15, 5), Lane::Pool),
        (Auto, empty(15, 15, 5), Lane::Pool),
    ];
    for (kind, position, want) in table {
        let (m, n) = (position.m(), position.n());
        assert_eq!(lane(kind, &position), want, "{} on {m}x{n}", kind.name());
    }
}

#[test]
fn the_floor_is_a_fifth_of_the_budget_and_at_least_20_ms_or_half() {
    let floor = Floor::default();
    let ms = Duration::from_millis;
    // (budget, floor)
    for (budget, want) in [
        (1000, 200),
        (300, 60),
        (100, 20),
        (40, 20),
        (30, 15),
        (2, 1),
    ] {
        assert_eq!(floor.of(ms(budget)), ms(want), "budget {budget} ms");
    }
}

#[test]
fn a_deadline_caps_the_window() {
    let ms = Duration::from_millis;
    let start = Instant::now();
    let no_deadline = RequestClock {
        start,
        deadline: None,
    };
    let w = Window::new(no_deadline, ms(800), ms(100));
    assert_eq!((w.end - start, w.due - start), (ms(800), ms(900)));
    // The deadline is earlier: the engine stops a margin before it.
    let clock = RequestClock {
        start,
        deadline: Some(start + ms(500)),
    };
    let w = Window::new(clock, ms(800), ms(100));
    assert_eq!((w.end - start, w.due - start), (ms(400), ms(500)));
    // A short deadline keeps four fifths for the search.
    let clock = RequestClock {
        start,
        deadline: Some(start + ms(50)),
    };
    let w = Window::new(clock, ms(800), ms(100));
    assert_eq!((w.end - start, w.due - start), (ms(40), ms(50)));
    // A later deadline changes nothing.
    let clock = RequestClock {
        start,
        deadline: Some(start + ms(5000)),
    };
    let w = Window::new(clock, ms(800), ms(100));
    assert_eq!((w.end - start, w.due - start), (ms(800), ms(900)));
}

/// An engine that reports one completed iteration (when `reports`), then ignores its
/// budget and sleeps well past it: a search on a machine whose cores are taken.
struct Late {
    reports: bool,
}

impl Engine for Late {
    fn analyze_in(
        &self,
        position: &Position,
        _limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut kinrow_engine::SearchContext,
        _rng: &mut StdRng,
    ) -> Analysis {
        let mv = position.legal_moves()[0];
        let eval = kinrow_engine::Evaluation {
            score: 3.0,
            outcome: kinrow_engine::Outcome::Unknown,
            plies: None,
        };
        if self.reports {
            let line = kinrow_engine::Line {
                mv,
                eval: eval.clone(),
                win_rate: None,
                pv: vec![mv],
            };
            budget.report(4, kinrow_engine::Scale::Minimax, vec![line]);
        }
        std::thread::sleep(Duration::from_millis(400));
        Analysis {
            best: mv,
            evaluation: eval,
            moves: Vec::new(),
            pv: vec![mv],
            win_rates: Vec::new(),
            lines: Vec::new(),
            stats: Default::default(),
        }
    }
}

/// Runs `Late` with a 50 ms budget and a 40 ms margin: the answer, when it came, and
/// the pool's metrics.
fn late_search(reports: bool) -> (Result<Finished, ApiError>, Duration, Metrics) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let metrics = Metrics::new();
    let pool = SearchPool::new(1, 1, Duration::from_millis(40), metrics.clone());
    let limits = Limits {
        time: Duration::from_millis(50),
        ..Limits::default()
    };
    let start = Instant::now();
    let result = rt.block_on(async {
        let slot = pool.admit("late", limits).await.unwrap();
        let watch = Arc::new(Watch::new(1).anytime());
        slot.search(
            move || Box::new(Late { reports }),
            empty(15, 15, 5),
            1,
            watch,
        )
        .await
    });
    (result, start.elapsed(), metrics)
}

/// The number of searches of `name` in the duration histogram, and their sum in seconds.
fn durations(metrics: &Metrics, name: &str) -> (u64, f64) {
    let h = metrics.search(name).seconds;
    (h.get_sample_count(), h.get_sample_sum())
}

#[test]
fn a_late_search_answers_with_its_last_completed_iteration_within_the_margin() {
    let (result, took, metrics) = late_search(true);
    let done = result.expect("an anytime answer, not a 503");
    // The search stopped by the deadline counts in the duration histogram, for the
    // time until its answer (at least its 50 ms budget).
    let (n, sum) = durations(&metrics, "late");
    assert_eq!(n, 1);
    assert!(sum >= 0.05, "{sum}");
    assert_eq!(done.stopped, Some("deadline"));
    assert!(!done.analysis.stats.complete);
    assert_eq!(done.analysis.stats.depth, 4);
    // Every legal move is listed, as in a finished answer: the reported line valued,
    // the rest unsearched (a page shows them as having no value).
    let moves = &done.analysis.moves;
    assert_eq!(moves.len(), 225);
    assert!(moves[0].evaluated && moves[0].depth == 4);
    assert!(moves[1..].iter().all(|e| !e.evaluated));
    assert!(took < Duration::from_millis(90), "{took:?}");
}

#[test]
fn a_late_search_that_completed_nothing_is_a_503() {
    let (result, took, metrics) = late_search(false);
    let e = result.err().expect("a 503");
    assert_eq!(durations(&metrics, "late").0, 1);
    assert_eq!(e.code, ErrorCode::Overloaded);
    assert!(took < Duration::from_millis(90), "{took:?}");
}

/// The count of searches of `name` that ended with `result`.
fn searches(metrics: &Metrics, name: &str, result: &str) -> u64 {
    metrics.searches.with_label_values(&[name, result]).get()
}

#[test]
fn a_search_whose_request_is_dropped_stops_and_frees_its_slot_and_queue_place() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let metrics = Metrics::new();
    let pool = SearchPool::new(1, 1, Duration::from_millis(40), metrics.clone());
    let limits = Limits {
        time: Duration::from_secs(5),
        ..Limits::default()
    };
    let watch = Arc::new(Watch::new(1).anytime());
    rt.block_on(async {
        let slot = pool.admit("late", limits.clone()).await.unwrap();
        let search = slot.search(
            move || Box::new(Late { reports: false }),
            empty(15, 15, 5),
            1,
            Arc::clone(&watch),
        );
        // The request waiting behind it is dropped too (its client left first).
        let waiting = pool.admit("late", limits.clone());
        let ms = Duration::from_millis;
        let both = futures_util::future::join(search, waiting);
        assert!(tokio::time::timeout(ms(20), both).await.is_err());
    });
    // Dropping the request's future stopped its search and gave its queue place up.
    assert!(watch.stopped());
    assert_eq!(searches(&metrics, "late", "gone"), 2);
    assert_eq!(metrics.queued.get(), 0);
    assert_eq!(pool.admitted.load(Ordering::Acquire), 0);
}
