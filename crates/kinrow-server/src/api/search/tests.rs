//! The lanes, the admission floor and the window of a search.

use super::*;
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
        _ctx: &mut kinrow_engine::core::context::SearchContext,
        _rng: &mut StdRng,
    ) -> Analysis {
        let mv = position.legal_moves()[0];
        let eval = kinrow_engine::core::types::Evaluation {
            score: 3.0,
            outcome: kinrow_engine::core::types::Outcome::Unknown,
            plies: None,
        };
        if self.reports {
            let line = kinrow_engine::core::progress::Line {
                mv,
                eval: eval.clone(),
                win_rate: None,
                pv: vec![mv],
            };
            budget.report(4, kinrow_engine::core::types::Scale::Minimax, vec![line]);
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

/// Runs `Late` with a 50 ms budget and a 40 ms margin: the answer and when it came.
fn late_search(reports: bool) -> (Result<Finished, ApiError>, Duration) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let pool = SearchPool::new(1, 1, Duration::from_millis(40), Metrics::new());
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
    (result, start.elapsed())
}

#[test]
fn a_late_search_answers_with_its_last_completed_iteration_within_the_margin() {
    let (result, took) = late_search(true);
    let done = result.expect("an anytime answer, not a 503");
    assert_eq!(done.stopped, Some("deadline"));
    assert!(!done.analysis.stats.complete);
    assert_eq!(done.analysis.stats.depth, 4);
    assert_eq!(done.analysis.moves.len(), 1);
    assert!(took < Duration::from_millis(90), "{took:?}");
}

#[test]
fn a_late_search_that_completed_nothing_is_a_503() {
    let (result, took) = late_search(false);
    let e = result.err().expect("a 503");
    assert_eq!(e.code, ErrorCode::Overloaded);
    assert!(took < Duration::from_millis(90), "{took:?}");
}
