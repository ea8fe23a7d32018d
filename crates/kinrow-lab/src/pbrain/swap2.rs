//! `SWAP2BOARD`: the swap2 opening over the Gomocup protocol.
//!
//! The manager sends `SWAP2BOARD`, the stones placed so far one `x,y` a line in the
//! order they were placed (x, o, x, o, x), and `DONE`. The brain answers as the
//! tournament managers expect:
//! - **0 stones** (it is the first player): the three stones it proposes, `x,y x,y x,y`
//!   (x, o, x);
//! - **3 stones** (the second player): `SWAP` to take x, a move `x,y` to keep o and
//!   play o's move now, or two stones `x,y x,y` (o, x) to leave the choice to the
//!   first player;
//! - **5 stones** (the first player again): `SWAP` to take x, or a move `x,y` to play o.
//!
//! The decision is [`swap::decide`]'s, by the brain's engine at full level within half
//! the turn's time when a move may follow (the move gets the rest), or the whole turn
//! for a placement. Whatever the manager sends next (`BOARD`, `TURN`) goes on from the
//! board the brain keeps: the stones it and the opponent now own.

use std::time::Instant;

use rand::RngExt;

use super::{Brain, Stone};
use kinrow_engine::gomocup::{parse_swap2_line, stones_text};
use kinrow_engine::swap;
use kinrow_engine::swap::Decision;
use kinrow_engine::Limits;
use kinrow_engine::SearchPlan;
use kinrow_game::{Cell, Opening, OpeningStep, Player, Position, Rules};

impl Brain {
    /// `SWAP2BOARD` received: the stones follow.
    pub(super) fn swap2_begin(&mut self) -> Vec<String> {
        if self.size.is_none() {
            return vec!["ERROR SWAP2BOARD before START".into()];
        }
        self.pending_swap2 = Some(Vec::new());
        Vec::new()
    }

    /// One line between `SWAP2BOARD` and `DONE`: a stone `x,y` (a third field, as in
    /// `BOARD`, is ignored: the order gives the side).
    pub(super) fn swap2_line(&mut self, line: &str) -> Vec<String> {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.pending_swap2.take().unwrap_or_default();
            return self.swap2_decide(&stones);
        }
        match parse_swap2_line(line) {
            Some(stone) => {
                self.pending_swap2.get_or_insert_with(Vec::new).push(stone);
                Vec::new()
            }
            None => {
                self.pending_swap2 = None;
                vec![format!("ERROR SWAP2BOARD line {line:?} is not x,y")]
            }
        }
    }

    /// The swap2 position of `stones` (placed in turn, x first).
    fn swap2_position(&self, stones: &[(usize, usize)]) -> Result<Position, String> {
        let (w, h) = self.size.ok_or("no board yet: send START first")?;
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(format!(
                "SWAP2BOARD sends 0, 3 or 5 stones, not {}",
                stones.len()
            ));
        }
        let rules = Rules::new(w as u64, h as u64, self.k, !self.exact, Default::default())
            .and_then(|r| r.with_variant(self.variant))
            .and_then(|r| r.with_opening(Opening::Swap2))
            .map_err(|e| e.to_string())?;
        let mut cells = vec![Cell::Empty; w * h];
        for (i, &(x, y)) in stones.iter().enumerate() {
            let at = self.index(x, y)?;
            if cells[at] != Cell::Empty {
                return Err(format!("{x},{y} is sent twice"));
            }
            cells[at] = Cell::Mark(if i % 2 == 0 { Player::X } else { Player::O });
        }
        let to_move = if stones.len() % 2 == 0 {
            Player::X
        } else {
            Player::O
        };
        Position::from_cells(&rules, cells, Some(to_move)).map_err(|e| e.to_string())
    }

    /// The brain's decision at the step `stones` are at (see the top of the file).
    fn swap2_decide(&mut self, stones: &[(usize, usize)]) -> Vec<String> {
        let started = Instant::now();
        let position = match self.swap2_position(stones) {
            Ok(p) => p,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        let step = match OpeningStep::of(&position) {
            Ok(s) => s,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        let (time, target) = self.move_time();
        let aim = target.unwrap_or(time).min(time);
        let share = if step == OpeningStep::Place3 {
            aim
        } else {
            aim / 2
        };
        let limits = Limits {
            threads: self.threads,
            nodes: self.nodes,
            ..Limits::with_time(share)
        };
        let plan = SearchPlan::new(self.kind, limits, self.rng.random());
        let answer = match swap::decide(&position, &plan) {
            Ok(a) => a,
            Err(e) => return vec![format!("ERROR {e}")],
        };
        // The brain's side from now on: x after `SWAP` or its own three stones, o when it
        // keeps o or placed two more (the first player picks then).
        let (me, answer_line) = match &answer.decision {
            Decision::Place(placed) => {
                let me = if step == OpeningStep::Place3 {
                    Player::X
                } else {
                    Player::O
                };
                (me, Some(stones_text(placed.iter().map(|&(c, _)| c))))
            }
            Decision::Choose(Player::X) => (Player::X, Some("SWAP".to_string())),
            Decision::Choose(Player::O) => (Player::O, None),
        };
        self.keep_board(&answer.after, me);
        match answer_line {
            Some(line) => vec![line],
            // Keeping o: o is to move, so the brain plays its move now, in the time left.
            None => self.think_within(Some(time.saturating_sub(started.elapsed()))),
        }
    }

    /// The brain's board set to `position`, its own stones those of `me`.
    fn keep_board(&mut self, position: &Position, me: Player) {
        for (i, slot) in self.board.iter_mut().enumerate() {
            *slot = match position.cell(i) {
                Cell::Mark(p) if p == me => Stone::Own,
                Cell::Mark(_) => Stone::Theirs,
                _ => Stone::Empty,
            };
        }
    }
}
