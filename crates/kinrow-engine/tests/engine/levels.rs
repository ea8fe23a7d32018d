//! Levels that play like people and knobs that do what they say: from level 3 up a five
//! and the only block of one are never missed, from level 6 up an open four and the
//! block of an open three neither; `mistake_probability` 1 is a random legal move; the
//! same seed gives the same move; every value on the board was computed.

use std::collections::HashSet;
use std::time::Duration;

use kinrow_engine::level::Leveled;
use kinrow_engine::value;
use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::{Limits, Outcome};
use kinrow_game::{Move, Position, Rules};
use rand::rngs::StdRng;
use rand::SeedableRng;

const E: &str = "...............";

/// A 15x15 gomoku position from the rows given (`(row, text)`, the text padded with
/// empty cells); every other row empty. Shared with `cells`.
pub fn pos15(rows: &[(usize, &str)]) -> Position {
    let mut board = vec![E.to_string(); 15];
    for &(r, s) in rows {
        board[r] = format!("{s:.<15}");
    }
    let rules = Rules::mnk(15, 15, 5).unwrap();
    Position::new(&rules, Some(&board[..]), None).unwrap()
}

fn limits() -> Limits {
    Limits {
        nodes: Some(20_000),
        ..Limits::with_time(Duration::from_millis(2000))
    }
}

fn play(kind: EngineKind, level: u8, p: &Position, seed: u64) -> Move {
    let mut rng = StdRng::seed_from_u64(seed);
    Leveled::new(kind, level)
        .analyze(p, &limits(), &mut rng)
        .best
}

fn cell(r: usize, c: usize) -> usize {
    r * 15 + c
}

/// o to move makes five at (7,9); x has an open three of its own elsewhere.
fn five_to_make() -> Position {
    pos15(&[
        (3, "....xxx"),
        (7, "....xoooo"),
        (9, "....x..x"),
        (11, "...x"),
        (13, "o.......o"),
    ])
}

/// o to move must block x's four at (7,9) (the other end is held by o).
fn five_to_block() -> Position {
    pos15(&[(7, "....oxxxx"), (9, ".......o"), (10, ".....o")])
}

#[test]
fn from_level_three_up_a_five_is_made_and_the_only_block_of_one_is_played() {
    let (make, block) = (five_to_make(), five_to_block());
    for kind in [EngineKind::Auto, EngineKind::Minimax, EngineKind::Threat] {
        for level in 3..=9 {
            for seed in 0..12 {
                assert_eq!(
                    play(kind, level, &make, seed).cell(),
                    cell(7, 9),
                    "{} level {level} seed {seed} missed the five",
                    kind.name()
                );
                assert_eq!(
                    play(kind, level, &block, seed).cell(),
                    cell(7, 9),
                    "{} level {level} seed {seed} missed the block",
                    kind.name()
                );
            }
        }
    }
}

#[test]
fn from_level_six_up_an_open_four_is_made_and_an_open_three_is_stopped() {
    // x to move with an open three on row 7: (7,5) or (7,9) make an open four.
    let attack = pos15(&[(7, "......xxx"), (5, "...o"), (10, "..........o"), (3, "o")]);
    // o to move against x's open three: only the two ends stop it.
    let defend = pos15(&[(7, "......xxx"), (5, "...o"), (10, "..........o")]);
    for level in 6..=9 {
        for seed in 0..12 {
            let mv = play(EngineKind::Auto, level, &attack, seed).cell();
            assert!(
                [cell(7, 5), cell(7, 9)].contains(&mv),
                "level {level} seed {seed} played {mv} instead of an open four"
            );
            let mv = play(EngineKind::Auto, level, &defend, seed).cell();
            assert!(
                [cell(7, 5), cell(7, 9)].contains(&mv),
                "level {level} seed {seed} played {mv} instead of stopping the open three"
            );
        }
    }
}

#[test]
fn low_levels_choose_among_several_moves_and_the_seed_repeats_the_choice() {
    let p = pos15(&[(7, ".......x"), (8, "........o")]);
    let moves: HashSet<usize> = (0..16)
        .map(|seed| play(EngineKind::Auto, 2, &p, seed).cell())
        .collect();
    assert!(moves.len() >= 3, "level 2 played only {moves:?}");
    for seed in 0..4 {
        assert_eq!(
            play(EngineKind::Auto, 4, &p, seed),
            play(EngineKind::Auto, 4, &p, seed),
            "seed {seed}"
        );
    }
}

#[test]
fn mistake_probability_one_is_a_random_legal_move_for_every_engine_that_takes_it() {
    let p = five_to_make();
    let legal = p.legal_moves();
    for kind in [
        EngineKind::Threat,
        EngineKind::Priority,
        EngineKind::Greedy,
        EngineKind::Perfect,
    ] {
        let limits = Limits {
            mistake_probability: 1.0,
            ..Limits::with_time(Duration::from_millis(200))
        };
        let moves: HashSet<Move> = (0..20)
            .map(|seed| {
                let mut rng = StdRng::seed_from_u64(seed);
                Leveled::new(kind, 10).analyze(&p, &limits, &mut rng).best
            })
            .collect();
        assert!(moves.iter().all(|mv| legal.contains(mv)));
        assert!(
            moves.len() >= 15,
            "{}: only {} different moves in 20 seeds",
            kind.name(),
            moves.len()
        );
    }
}

#[test]
fn cells_not_searched_have_no_value_and_both_ends_of_an_open_three_win_in_three() {
    let p = pos15(&[(7, "......xxx"), (5, "...o"), (10, "..........o"), (3, "o")]);
    let mut rng = StdRng::seed_from_u64(1);
    let limits = Limits {
        nodes: Some(3_000),
        ..Limits::with_time(Duration::from_millis(2000))
    };
    let mut a = EngineKind::Auto.build().analyze(&p, &limits, &mut rng);
    let values = value::values(EngineKind::Auto, &p, &mut a);
    let grid = values.grid(&a, 15, 15);
    for end in [Move::mark(cell(7, 5)), Move::mark(cell(7, 9))] {
        let e = a.moves.iter().find(|e| e.mv == end).unwrap();
        assert_eq!(e.eval.outcome, Outcome::Win, "{end:?}");
        assert!(
            e.eval.plies.is_some_and(|p| p <= 3),
            "{end:?}: {:?}",
            e.eval
        );
        assert_eq!(grid[7][end.cell() % 15], Some(1.0));
    }
    // What the budget leaves after the search values the other cells (one node each
    // here): a cell the budget did not reach has no value.
    for e in a.moves.iter().filter(|e| !e.evaluated) {
        let c = e.mv.coord(15);
        // A cell's value comes from an evaluated move only.
        let searched_here = a
            .moves
            .iter()
            .any(|o| o.evaluated && o.mv.cell() == e.mv.cell());
        if !searched_here {
            assert_eq!(grid[c.row][c.col], None, "{:?}", e.mv);
        }
    }
}
