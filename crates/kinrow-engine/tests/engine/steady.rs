//! Values hold still: an iterative search answers the mean of its last two completed
//! depths (`stats.parity_shift` says by how much that moved its scores), so that its
//! value does not swing with the parity of the depth it reached; proven outcomes stay
//! exact.

use std::time::Duration;

use kinrow_engine::value;
use kinrow_engine::EngineKind;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_game::{Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn pos(rows: &[&str]) -> Position {
    let rules = Rules::mnk(15, 15, 5).unwrap();
    Position::new(&rules, Some(rows), None).unwrap()
}

/// A quiet 15x15 middle game, x to move.
fn quiet() -> Position {
    let mut rows = vec!["..............."; 15];
    rows[6] = ".......o.......";
    rows[7] = "......xx.......";
    rows[8] = "........o......";
    pos(&rows)
}

fn search(kind: EngineKind, p: &Position, depth: u32) -> Analysis {
    let limits = Limits {
        time: Duration::from_secs(60),
        depth: Some(depth),
        ..Limits::default()
    };
    kind.build()
        .analyze(p, &limits, &mut StdRng::seed_from_u64(1))
}

/// The value answered, and the value the last depth alone gives (the shift taken back).
fn values(kind: EngineKind, p: &Position, a: &Analysis) -> (f64, f64) {
    let answered = value::values(kind, p, &mut a.clone()).evaluation;
    let mut last = a.clone();
    for e in last.moves.iter_mut() {
        if e.eval.outcome == Outcome::Unknown {
            e.eval.score -= a.stats.parity_shift;
        }
    }
    last.evaluation.score -= a.stats.parity_shift;
    (answered, value::values(kind, p, &mut last).evaluation)
}

/// `minimax`'s value leans to whoever moves at its leaves: from one depth to the next
/// the last depth's value swings, and the answered value (the mean of two depths)
/// moves less. The moves' order is the last depth's: the best move is the same.
#[test]
fn minimax_answers_a_value_that_does_not_swing_with_the_depth() {
    let p = quiet();
    let (mut answered, mut last) = (Vec::new(), Vec::new());
    for depth in 2..=5 {
        let a = search(EngineKind::Minimax, &p, depth);
        assert_eq!(a.stats.depth, depth, "{:?}", a.stats.path);
        assert_ne!(a.stats.parity_shift, 0.0, "depth {depth}");
        let (v, raw) = values(EngineKind::Minimax, &p, &a);
        answered.push(v);
        last.push(raw);
    }
    let moved = |vs: &[f64]| vs.windows(2).map(|w| (w[1] - w[0]).abs()).sum::<f64>();
    assert!(
        moved(&answered) < moved(&last) / 2.0,
        "answered {answered:?}, last depth alone {last:?}"
    );
}

/// A proven win is answered exactly: no shift, the value 1.
#[test]
fn a_proven_win_is_not_averaged() {
    let mut rows = vec!["..............."; 15];
    rows[7] = "....xxxx.......";
    rows[8] = "....ooo........";
    rows[9] = "........o......";
    let p = pos(&rows);
    for kind in [EngineKind::Minimax, EngineKind::Auto] {
        let a = search(kind, &p, 4);
        assert_eq!(a.evaluation.outcome, Outcome::Win, "{kind:?}");
        assert_eq!(a.stats.parity_shift, 0.0, "{kind:?}");
        assert_eq!(values(kind, &p, &a).0, 1.0, "{kind:?}");
    }
}
