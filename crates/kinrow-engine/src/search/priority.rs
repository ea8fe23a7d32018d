//! `priority`: pattern rules that give every cell a priority and an action.
//!
//! After a special-pieces tic-tac-toe write-up, generalised to any `k`. Each cell gets
//! a priority and one of the actions `none` (nothing to do there), `basic` (play an own
//! mark), `prevent` (disturb the opponent: a block if the mover holds one, else a mark)
//! and `destroy` (remove an opponent mark, or bomb it). Every rule only ever raises a
//! cell's priority, never lowers it, so the order of the rules does not matter:
//!
//! | priority | action  | rule |
//! |----------|---------|------|
//! | 100      | basic   | a mark here completes the mover's own `k` (gaps included) |
//! | 95       | prevent | a mark of the opponent here would complete their `k` |
//! | 90       | destroy | an opponent mark in a `k`-window holding `k - 1` opponent marks and one block, while the opponent holds `remove` or `bomb` (they could clear the block) |
//! | 75       | basic   | an end of an own run of exactly `k - 2` marks, with room for `k` |
//! | 74       | prevent | the same for an opponent run |
//! | 50       | basic   | an empty cell next to an own mark |
//! | 0        | basic   | any other empty cell |
//! | -1       | none    | an occupied cell no rule picked (listed only where a held `remove` or `bomb` could target it) |
//!
//! The score of a cell is its priority. The best cell wins; when its action needs a
//! piece the mover does not hold (`destroy` without `remove` or `bomb`), the cell is
//! dropped and the next best cell is played, as the write-up does. Equal priorities are
//! broken by a seeded random number.
//!
//! Blind spots: nothing is added up, so a cell that serves three rules scores like a
//! cell that serves one; a double threat of the opponent gets two 95s and one of them is
//! blocked; runs shorter than `k - 2` and broken runs (except for the winning cell) are
//! not seen, so on large boards with a large `k` most empty cells score 50 or 0.

use rand::rngs::StdRng;
use rand::RngExt;

use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::patterns::{finish, winning_cells};
use crate::core::types::{Action, Analysis, Bound, Evaluation, Limits, MoveEval, Outcome};
use kinrow_game::{Cell, Move, Piece, Player, Position, DIRECTIONS};

/// Priority of a mark that completes the mover's own `k`.
pub const PRIORITY_WIN: i32 = 100;
/// Priority of the cell where the opponent would complete `k`.
pub const PREVENT_WIN: i32 = 95;
/// Priority of an opponent mark held back only by a block they could clear.
pub const DESTROY: i32 = 90;
/// Priority of an end of an own run of `k - 2`.
pub const EXTEND: i32 = 75;
/// Priority of an end of an opponent run of `k - 2`.
pub const PREVENT_EXTEND: i32 = 74;
/// Priority of an empty cell next to an own mark.
pub const NEAR_OWN: i32 = 50;
/// Priority of any other empty cell.
pub const ANY: i32 = 0;
/// Priority of a cell with action `none`.
pub const NONE: i32 = -1;

/// The `priority` engine. Stateless: build it once and share it.
#[derive(Clone, Debug, Default)]
pub struct Priority;

/// Every cell's priority and action (`None` = the action `none`).
pub fn priorities(position: &Position) -> Vec<(i32, Option<Action>)> {
    let me = position.to_move();
    let opp = me.opponent();
    let mut grid: Vec<(i32, Option<Action>)> = position
        .cells()
        .iter()
        .map(|&c| match c {
            Cell::Empty => (ANY, Some(Action::Basic)),
            _ => (NONE, None),
        })
        .collect();
    let mut raise = |cell: usize, priority: i32, action: Action| {
        if priority > grid[cell].0 {
            grid[cell] = (priority, Some(action));
        }
    };
    for c in winning_cells(position, me) {
        raise(c, PRIORITY_WIN, Action::Basic);
    }
    for c in winning_cells(position, opp) {
        raise(c, PREVENT_WIN, Action::Prevent);
    }
    let their_hand = position.hand(opp);
    if their_hand.remove > 0 || their_hand.bomb > 0 {
        for c in blocked_lines(position, opp) {
            raise(c, DESTROY, Action::Destroy);
        }
    }
    let k = position.k() as usize;
    if k >= 3 {
        for (p, priority, action) in [
            (me, EXTEND, Action::Basic),
            (opp, PREVENT_EXTEND, Action::Prevent),
        ] {
            for c in run_ends(position, p, k - 2) {
                raise(c, priority, action);
            }
        }
    }
    let geo = position.geometry();
    for (c, &cell) in position.cells().iter().enumerate() {
        if cell == Cell::Mark(me) {
            for &nb in geo.neighbours(c) {
                if position.cell(nb as usize) == Cell::Empty {
                    raise(nb as usize, NEAR_OWN, Action::Basic);
                }
            }
        }
    }
    grid
}

/// The marks of `player` in every `k`-window that holds `k - 1` of their marks and one
/// block (and nothing else).
fn blocked_lines(position: &Position, player: Player) -> Vec<usize> {
    let k = position.k() as usize;
    let mut out = Vec::new();
    for w in &position.geometry().windows().all {
        let (mut own, mut blocks) = (0, 0);
        for &c in w.cells.iter() {
            match position.cell(c as usize) {
                Cell::Mark(p) if p == player => own += 1,
                Cell::Block => blocks += 1,
                _ => {}
            }
        }
        if blocks == 1 && own + 1 == k {
            out.extend(
                w.cells
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| position.cell(c) == Cell::Mark(player)),
            );
        }
    }
    out
}

/// The empty cells at either end of a maximal run of exactly `len` marks of `player`,
/// where the run, that cell and the free cells beyond leave room for `k`.
fn run_ends(position: &Position, player: Player, len: usize) -> Vec<usize> {
    let geo = position.geometry();
    let k = geo.k as usize;
    let own = Cell::Mark(player);
    let free = |c: usize| matches!(position.cell(c), Cell::Empty) || position.cell(c) == own;
    // Free cells from `c` (exclusive) along `(dr, dc)`, up to `limit`.
    let span = |c: usize, dr: isize, dc: isize, limit: usize| {
        let mut n = 0;
        let mut at = c;
        while n < limit {
            match geo.offset(at, dr, dc) {
                Some(next) if free(next) => {
                    n += 1;
                    at = next;
                }
                _ => break,
            }
        }
        n
    };
    let mut out = Vec::new();
    for (start, &cell) in position.cells().iter().enumerate() {
        if cell != own {
            continue;
        }
        for d in DIRECTIONS {
            let (dr, dc) = d.step();
            // Only from the first mark of a run.
            if geo
                .offset(start, -dr, -dc)
                .is_some_and(|b| position.cell(b) == own)
            {
                continue;
            }
            let mut end = start;
            let mut run = 1;
            while let Some(next) = geo.offset(end, dr, dc) {
                if position.cell(next) != own {
                    break;
                }
                end = next;
                run += 1;
            }
            if run != len {
                continue;
            }
            let room = len + span(start, -dr, -dc, k) + span(end, dr, dc, k);
            if room < k {
                continue;
            }
            for tip in [geo.offset(start, -dr, -dc), geo.offset(end, dr, dc)]
                .into_iter()
                .flatten()
            {
                if position.cell(tip) == Cell::Empty {
                    out.push(tip);
                }
            }
        }
    }
    out
}

impl Engine for Priority {
    fn analyze_in(
        &self,
        position: &Position,
        _limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let hand = position.hand(position.to_move());
        let grid = priorities(position);
        let mut scored = Vec::with_capacity(grid.len());
        for (c, &(priority, action)) in grid.iter().enumerate() {
            let key = rng.random::<u64>();
            let legal = |piece: Piece| position.is_legal(Move::new(c, piece));
            let chosen = match action {
                Some(Action::Basic) => Some((Piece::Mark, action)),
                Some(Action::Prevent) if hand.block > 0 => Some((Piece::Block, action)),
                Some(Action::Prevent) => Some((Piece::Mark, action)),
                // Destroy with what the mover holds; without either, nothing to do here.
                Some(Action::Destroy) | None => [Piece::Remove, Piece::Bomb]
                    .into_iter()
                    .find(|&p| legal(p))
                    .map(|p| (p, action)),
            };
            let Some((piece, action)) = chosen else {
                continue;
            };
            let score = if action.is_none() { NONE } else { priority };
            let eval = Evaluation {
                score: score as f64,
                outcome: if score == PRIORITY_WIN {
                    Outcome::Win
                } else {
                    Outcome::Unknown
                },
                plies: (score == PRIORITY_WIN).then_some(1),
            };
            scored.push((
                MoveEval {
                    mv: Move::new(c, piece),
                    eval,
                    action,
                    evaluated: true,
                    depth: 1,
                    bound: Bound::Exact,
                },
                key,
            ));
        }
        let nodes = scored.len() as u64;
        finish(position, scored, nodes, budget, rng)
    }
}
