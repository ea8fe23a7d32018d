//! Proofs where they are cheap: a game in which no line of k cells fits is a proven draw
//! whatever the engine; a search that reached the end of every line says what it proved.

use std::time::Duration;

use kinrow_engine::value;
use kinrow_engine::EngineKind;
use kinrow_engine::{Limits, Outcome};
use kinrow_game::{Move, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

#[test]
fn no_line_fits_is_a_proven_draw_from_every_engine() {
    let rules = Rules::mnk(15, 15, 20).unwrap();
    let mut p = Position::empty(&rules);
    p.play(Move::mark(7 * 15 + 7));
    let limits = Limits {
        nodes: Some(2_000),
        ..Limits::with_time(Duration::from_millis(300))
    };
    for &kind in EngineKind::ALL {
        let mut a = kind
            .build()
            .analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
        let v = value::values(kind, &p, &mut a);
        assert_eq!(a.evaluation.outcome, Outcome::Draw, "{}", kind.name());
        assert_eq!(v.evaluation, 0.0, "{}", kind.name());
        assert!(a.moves.iter().all(|e| e.eval.outcome == Outcome::Draw));
    }
}

#[test]
fn minimax_that_searched_to_the_end_of_3x3_proves_every_move() {
    let p = Position::empty(&Rules::mnk(3, 3, 3).unwrap());
    let limits = Limits::with_time(Duration::from_secs(10));
    let a = EngineKind::Minimax
        .build()
        .analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
    assert!(a.stats.complete);
    for e in &a.moves {
        assert_eq!(e.eval.outcome, Outcome::Draw, "{:?}", e);
    }
    assert_eq!(a.evaluation.outcome, Outcome::Draw);
    // After x's centre and o's edge, x wins: the proofs say which moves.
    let mut q = p.clone();
    q.play(Move::mark(4));
    q.play(Move::mark(1));
    let a = EngineKind::Minimax
        .build()
        .analyze(&q, &limits, &mut StdRng::seed_from_u64(1));
    assert_eq!(a.evaluation.outcome, Outcome::Win, "{:?}", a.moves);
    // Every win is proven (a refuted move keeps only its bound).
    let wins = a
        .moves
        .iter()
        .filter(|e| e.eval.outcome == Outcome::Win)
        .count();
    assert!(wins >= 6, "{:?}", a.moves);
}
