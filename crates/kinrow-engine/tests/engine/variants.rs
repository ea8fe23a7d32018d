//! Every engine under renju and caro: no engine ever suggests a forbidden cell (the
//! chosen move, and every move it scores, is exactly the position's legal list), a
//! caro line shut at both ends is no win, and o under renju wins by forcing x onto a
//! forbidden cell.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::diagrams::FORCED_ONTO_FORBIDDEN;
use kinrow_engine::EngineKind;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_game::{Move, Player, Position, Rules, Variant};
use proptest::prelude::*;

use rand::rngs::StdRng;
use rand::SeedableRng;

fn position(rows: &[&str], variant: Variant) -> Position {
    let rules = Rules::new(
        rows[0].len() as u64,
        rows.len() as u64,
        5,
        false,
        Default::default(),
    )
    .and_then(|r| r.with_variant(variant))
    .unwrap();
    Position::new(&rules, Some(rows), None).unwrap()
}

fn limits(nodes: u64) -> Limits {
    Limits {
        time: Duration::from_secs(20),
        nodes: Some(nodes),
        ..Limits::default()
    }
}

fn run(kind: EngineKind, p: &Position, nodes: u64, seed: u64) -> Analysis {
    let a = kind
        .build()
        .analyze(p, &limits(nodes), &mut StdRng::seed_from_u64(seed));
    agrees_on_legality(kind, p, &a);
    a
}

/// The engine's moves are the position's legal moves, no more and no fewer, and its
/// choice is one of them: a forbidden cell is neither chosen nor scored.
fn agrees_on_legality(kind: EngineKind, p: &Position, a: &Analysis) {
    let name = kind.name();
    let forbidden: BTreeSet<usize> = p.forbidden_cells().iter().map(|&(c, _)| c).collect();
    assert!(p.is_legal(a.best), "{name} chose {:?}", a.best);
    assert!(
        !forbidden.contains(&a.best.cell()),
        "{name} chose a forbidden cell"
    );
    let scored: BTreeSet<Move> = a.moves.iter().map(|e| e.mv).collect();
    let legal: BTreeSet<Move> = p.legal_moves().into_iter().collect();
    assert_eq!(scored, legal, "{name}: scored moves against the legal list");
    for mv in &legal {
        assert!(
            !forbidden.contains(&mv.cell()),
            "{name}: {mv:?} is forbidden"
        );
        let mut after = p.clone();
        assert!(
            after.try_play(*mv).is_ok(),
            "{name}: try_play refuses {mv:?}"
        );
    }
}

/// Positions (x to move) where a cell that wins or nearly wins under free rules is
/// forbidden for x under renju, with that cell: an overline that would win at once, a
/// double four, a double three.
const TEMPTING: &[(&str, &[&str], (usize, usize))] = &[
    (
        "overline",
        &[
            "o.o....", ".......", "......o", "xxx.xx.", "o......", ".......", "...o...",
        ],
        (3, 3),
    ),
    (
        "double four",
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "....x.x.x.x....",
            "...............",
            "...............",
            "..o.........o..",
            "...............",
            "..o.........o..",
            "...............",
            "...............",
        ],
        (7, 7),
    ),
    (
        "double three",
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".....o...o.....",
            ".......x.......",
            "......x.x......",
            ".......x.......",
            ".....o...o.....",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
        (7, 7),
    ),
];

#[test]
fn no_engine_plays_a_forbidden_cell_it_would_play_under_free_rules() {
    for (what, rows, (r, c)) in TEMPTING {
        let renju = position(rows, Variant::Renju);
        let cell = r * renju.m() + c;
        assert!(
            renju.forbidden(cell).is_some(),
            "{what}: the cell is forbidden"
        );
        for &kind in EngineKind::ALL {
            for seed in 0..2 {
                let a = run(kind, &renju, 3_000, seed);
                assert_ne!(a.best.cell(), cell, "{} under renju: {what}", kind.name());
            }
        }
    }
    // Under free rules with overlines the overline cell wins at once: every engine takes it.
    let (_, rows, (r, c)) = TEMPTING[0];
    let free = Position::new(&Rules::mnk(7, 7, 5).unwrap(), Some(rows), None).unwrap();
    for &kind in EngineKind::ALL {
        let a = run(kind, &free, 3_000, 1);
        assert_eq!(
            a.best,
            Move::mark(r * 7 + c),
            "{} under free rules",
            kind.name()
        );
    }
}

#[test]
fn o_wins_by_forcing_x_onto_a_forbidden_cell() {
    let p = position(FORCED_ONTO_FORBIDDEN, Variant::Renju);
    assert_eq!(p.to_move(), Player::O);
    let four = Move::mark(3 * 15 + 5);
    for kind in [EngineKind::Auto, EngineKind::Minimax, EngineKind::Mcts] {
        let a = run(kind, &p, 20_000, 3);
        assert_eq!(a.best, four, "{}", kind.name());
        assert_eq!(a.evaluation.outcome, Outcome::Win, "{}", kind.name());
    }
    // After the four, x has no legal answer on the gap, and every answer loses.
    let mut after = p.clone();
    after.play(four);
    let gap = 7 * 15 + 5;
    assert!(after.forbidden(gap).is_some());
    assert!(!after.is_legal(Move::mark(gap)));
    // Under free exact-five rules the same four is simply blocked: no proven win.
    let free = position(FORCED_ONTO_FORBIDDEN, Variant::Free);
    let a = run(EngineKind::Auto, &free, 20_000, 3);
    assert_ne!(a.evaluation.outcome, Outcome::Win);
}

/// Caro, x to move: the gap of `oxxxx.o` makes a five shut at both ends (no win); the
/// gap of `xxxx.o` at the board's edge makes one shut at one end only (the edge shuts
/// nothing), which wins.
#[test]
fn caro_engines_see_shut_fives_and_edge_fives() {
    let shut = position(
        &[
            "oxxxx.o..",
            ".........",
            "o.o......",
            ".........",
            ".........",
        ],
        Variant::Caro,
    );
    let edge = position(
        &[
            "xxxx.o...",
            ".........",
            "o.o......",
            ".........",
            "...o.....",
        ],
        Variant::Caro,
    );
    for &kind in EngineKind::ALL {
        let a = run(kind, &shut, 2_000, 5);
        let gap = a.moves.iter().find(|e| e.mv == Move::mark(5)).unwrap();
        assert!(
            gap.eval.outcome != Outcome::Win || gap.eval.plies != Some(1),
            "{} calls the shut five a win",
            kind.name()
        );
        let a = run(kind, &edge, 2_000, 5);
        assert_eq!(
            a.best,
            Move::mark(4),
            "{} misses the edge five",
            kind.name()
        );
    }
}

/// A renju or caro position from `plies` random legal moves near the centre of 11x11.
fn random_position(variant: Variant, plies: usize, seed: u64) -> Position {
    let rules = Rules::mnk(11, 11, 5)
        .unwrap()
        .with_variant(variant)
        .unwrap();
    let mut p = Position::empty(&rules);
    let mut rng = StdRng::seed_from_u64(seed);
    use rand::RngExt;
    for _ in 0..plies {
        let legal: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|mv| {
                let (r, c) = (mv.cell() / 11, mv.cell() % 11);
                (2..9).contains(&r) && (2..9).contains(&c)
            })
            .collect();
        if legal.is_empty() || p.is_over() {
            break;
        }
        let mv = legal[rng.random_range(0..legal.len())];
        let mut next = p.clone();
        next.play(mv);
        if next.is_over() {
            break;
        }
        p = next;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// On random renju and caro positions every engine's moves are the legal list.
    #[test]
    fn every_engine_agrees_with_the_rules_on_legality(
        seed in any::<u64>(),
        plies in 8usize..30,
        renju in any::<bool>(),
    ) {
        let variant = if renju { Variant::Renju } else { Variant::Caro };
        let p = random_position(variant, plies, seed);
        for &kind in EngineKind::ALL {
            run(kind, &p, 1_500, seed);
        }
    }
}

/// Random renju positions that have forbidden cells (dense play near the centre makes
/// them): every engine's moves are the legal list there too.
#[test]
fn every_engine_keeps_off_the_forbidden_cells_of_random_renju_positions() {
    let mut with_forbidden = 0;
    for seed in 0..200 {
        let p = random_position(Variant::Renju, 24, seed);
        if p.forbidden_cells().is_empty() || p.to_move() != Player::X {
            continue;
        }
        with_forbidden += 1;
        for &kind in EngineKind::ALL {
            run(kind, &p, 1_500, seed);
        }
        if with_forbidden == 8 {
            break;
        }
    }
    assert!(
        with_forbidden >= 4,
        "only {with_forbidden} positions with forbidden cells"
    );
}
