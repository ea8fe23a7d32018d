//! The simulation board against [`Position`]: random games of marks, blocks, removes
//! and bombs played on both, with and without overlines (exactly k), under renju and
//! caro, small boards (every empty cell a candidate) and large ones (cells near a
//! piece).

use proptest::prelude::*;

use super::*;
use crate::search::mcts::shape::NEAR_RADIUS;
use kinrow_game::{Rules, Variant};

/// `4^marks` summed over the windows `player` can still complete and holds a mark in,
/// recounted from the position.
fn potential(pos: &Position, player: Player) -> f32 {
    let mut sum = 0.0;
    for w in &pos.geometry().windows().all {
        let cells = w.cells.iter().map(|&c| pos.cell(c as usize));
        let (mut own, mut dead) = (0, false);
        for c in cells {
            match c {
                Cell::Empty => {}
                Cell::Mark(p) if p == player => own += 1,
                _ => dead = true,
            }
        }
        if !dead && own > 0 {
            sum += 4f32.powi(own);
        }
    }
    sum
}

/// (attack, defence) of a mark of the side to move on the empty `cell`, recounted.
fn window_values(pos: &Position, cell: usize) -> (f32, f32) {
    let me = pos.to_move();
    let (mut attack, mut defence) = (0.0, 0.0);
    for &w in pos.geometry().windows().through(cell) {
        let w = &pos.geometry().windows().all[w as usize];
        let (mut own, mut theirs, mut blocked) = (0, 0, false);
        for &c in w.cells.iter() {
            match pos.cell(c as usize) {
                Cell::Empty => {}
                Cell::Mark(p) if p == me => own += 1,
                Cell::Mark(_) => theirs += 1,
                Cell::Block => blocked = true,
            }
        }
        if blocked {
            continue;
        }
        if theirs == 0 {
            attack += 4f32.powi(own);
        }
        if own == 0 {
            defence += 4f32.powi(theirs);
        }
    }
    (attack, defence)
}

/// Everything `sim` says of the position, against `pos`.
fn check(pos: &Position, sim: &mut Sim) {
    let shape = Arc::clone(&sim.shape);
    assert_eq!(sim.winner, pos.winner().map(Player::index), "winner");
    if pos.is_over() {
        return;
    }
    assert_eq!(sim.to_move(), pos.to_move().index());
    assert_eq!(sim.has_legal_move(), pos.has_legal_move());
    let empty: Vec<usize> = (0..pos.cells().len())
        .filter(|&c| pos.cell(c) == Cell::Empty)
        .collect();
    let mut wins = Vec::new();
    for player in Player::BOTH {
        sim.winning_cells(player.index(), &mut wins);
        let expected: Vec<u16> = empty
            .iter()
            .filter(|&&c| pos.wins_at(c, player))
            .map(|&c| shape.pad(c) as u16)
            .collect();
        assert_eq!(wins, expected, "winning cells of {player}");
        let first = sim.winning_cell(player.index());
        assert_eq!(first.is_some(), !expected.is_empty());
        assert!(first.is_none_or(|p| expected.contains(&(p as u16))));
    }
    let me = pos.to_move();
    let diff = 1.5 * potential(pos, me) - potential(pos, me.opponent());
    let value = 1.0 / (1.0 + (-diff / 30.0).exp());
    assert_eq!(sim.evaluate(30.0), value, "static value");
    for &c in &empty {
        let (a, d) = window_values(pos, c);
        assert_eq!(sim.prior_score(Move::mark(c)), a + d + 1.0, "prior at {c}");
        let near = (0..pos.cells().len()).any(|q| {
            let (a, b) = (pos.geometry().coord(c), pos.geometry().coord(q));
            pos.cell(q).is_piece()
                && a.row.abs_diff(b.row) as isize <= NEAR_RADIUS
                && a.col.abs_diff(b.col) as isize <= NEAR_RADIUS
        });
        let listed = sim.near().contains(&(shape.pad(c) as u16));
        let on_empty_board = !pos.cells().iter().any(|c| c.is_piece());
        if !shape.restrict {
            assert!(listed, "every empty cell is a candidate");
        } else if !on_empty_board {
            assert_eq!(listed, near, "cell {c} near a piece");
        }
    }
}

fn rules() -> impl Strategy<Value = Rules> {
    let hands = (0u8..3, 0u8..2, 0u8..2);
    let variant = prop::sample::select(Variant::ALL.to_vec());
    (2u64..12, 2u64..12, 1u64..7, any::<bool>(), hands, variant).prop_map(
        |(m, n, k, overline, (block, remove, bomb), variant)| {
            let hand = Hand::new(block, remove, bomb);
            let rules = Rules::new(m, n, k, overline, [hand, hand]).unwrap();
            // Renju wants k = 5, and the variants marks only: else freestyle.
            let marks_only = Rules::new(m, n, k, overline, Default::default()).unwrap();
            marks_only.with_variant(variant).unwrap_or(rules)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Moves played on both, picked at random among the legal ones; a copy made
    /// half-way (as every iteration of the search makes one) goes on the same.
    #[test]
    fn the_simulation_board_agrees_with_the_position(
        rules in rules(),
        picks in prop::collection::vec(any::<u16>(), 1..50),
    ) {
        let mut pos = Position::empty(&rules);
        let mut sim = Sim::new(&pos);
        let root = sim.clone();
        check(&pos, &mut sim);
        for (i, &pick) in picks.iter().enumerate() {
            if pos.is_over() || !pos.has_legal_move() {
                break;
            }
            let legal = pos.legal_moves();
            let mv = legal[pick as usize % legal.len()];
            pos.play(mv);
            sim.play(mv);
            if i == picks.len() / 2 {
                let mut copy = root.clone();
                copy.copy_from(&sim);
                sim = copy;
            }
            check(&pos, &mut sim);
        }
    }
}
