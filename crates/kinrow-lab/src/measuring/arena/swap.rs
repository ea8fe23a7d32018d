//! The opening phase of a swap or swap2 game in the arena: the engines take the
//! opening's decisions themselves before the game goes on.
//!
//! Game `i`'s first player (who places the first three stones) is engine `i % 2`, so
//! each engine proposes in every other game. The second player then picks a side
//! (swap), or under swap2 picks a side or places two more stones, after which the first
//! player picks. A kinrow engine decides with [`engine::opening::swap::decide`] at its
//! spec's engine and level within one turn's time; an external engine is sent
//! `SWAP2BOARD` (docs/protocol.md) and its answer read back: three stones, `SWAP`, one
//! move (keeping o and playing it) or two stones. A malformed or illegal answer, an
//! `ERROR` or silence forfeits the game, as a bad move does.
//!
//! [`engine::opening::swap::decide`]: kinrow_engine::swap::decide

use std::time::{Duration, Instant};

use super::contest::ArenaConfig;
use super::mover::Mover;
use kinrow_engine::swap;
use kinrow_engine::StepAnswer;
use kinrow_game::{Coord, Move, OpeningStep, Player, Position};

/// The opening phase of one game, as played.
#[derive(Clone, Debug, Default)]
pub struct Phase {
    /// The stones placed, in turn (x first).
    pub stones: Vec<Move>,
    /// Which engine (0 = A, 1 = B) plays x after the opening.
    pub x_engine: usize,
    /// A move already played after the stones (an external engine that kept o).
    pub moves: Vec<Move>,
    /// The decisions in words, in order, e.g. `A placed 3`, `B chose o`.
    pub decisions: Vec<String>,
    /// Thinking time and decisions per engine.
    pub think: [Duration; 2],
    /// Decisions taken per engine.
    pub counts: [u32; 2],
    /// The engine that forfeited the game during the opening, and why.
    pub forfeit: Option<(usize, String)>,
}

/// Plays the opening phase of game `index` with `movers` (engine A's and B's).
pub fn play_opening(
    config: &ArenaConfig,
    index: usize,
    movers: &mut [Result<Mover, String>],
) -> Phase {
    let first = index % 2;
    let mut phase = Phase {
        x_engine: first,
        ..Phase::default()
    };
    let name = |e: usize| if e == 0 { "A" } else { "B" };
    let mut p = Position::empty(&config.rules);
    let mut decider = first;
    loop {
        let step = match OpeningStep::of(&p) {
            Ok(s) => s,
            Err(e) => {
                phase.forfeit = Some((decider, format!("opening: {e}")));
                return phase;
            }
        };
        let start = Instant::now();
        let answer = match &mut movers[decider] {
            Ok(mover) => {
                mover.opening_step(&p, &phase.stones, step, config.engines[decider].label())
            }
            Err(why) => Err(why.clone()),
        };
        phase.think[decider] += start.elapsed();
        phase.counts[decider] += 1;
        let answer = answer.and_then(|a| checked(&p, step, a));
        let answer = match answer {
            Ok(a) => a,
            Err(why) => {
                phase.forfeit = Some((decider, why));
                return phase;
            }
        };
        let other = 1 - decider;
        match answer {
            StepAnswer::Place(stones) => {
                phase
                    .decisions
                    .push(format!("{} placed {}", name(decider), stones.len()));
                for c in stones {
                    let mv = Move::mark(c.row * p.m() + c.col);
                    p.play(mv);
                    phase.stones.push(mv);
                }
                decider = other;
            }
            StepAnswer::Choose(side) => {
                phase
                    .decisions
                    .push(format!("{} chose {}", name(decider), side.as_str()));
                phase.x_engine = if side == Player::X { decider } else { other };
                return phase;
            }
            StepAnswer::KeepO(mv) => {
                phase
                    .decisions
                    .push(format!("{} chose o and played", name(decider)));
                phase.x_engine = other;
                phase.moves.push(mv);
                return phase;
            }
        }
    }
}

/// `answer` when it is one the rules allow at `step` of `p`: the right number of stones
/// on empty cells, leaving no line; a side where the step is a choice; a legal move.
fn checked(p: &Position, step: OpeningStep, answer: StepAnswer) -> Result<StepAnswer, String> {
    let stones_due: &[usize] = match step {
        OpeningStep::Place3 => &[3],
        OpeningStep::Place2OrChoose => &[2],
        _ => &[],
    };
    match &answer {
        StepAnswer::Place(stones) => {
            if !stones_due.contains(&stones.len()) {
                return Err(format!(
                    "opening: {} stones at step {}",
                    stones.len(),
                    step.as_str()
                ));
            }
            let sides = [Player::X, Player::O, Player::X];
            let first = usize::from(step != OpeningStep::Place3);
            let placed: Vec<(Coord, Player)> = stones
                .iter()
                .zip(&sides[first..])
                .map(|(&c, &s)| (c, s))
                .collect();
            let fits = placed.iter().enumerate().all(|(i, &(c, _))| {
                c.row < p.n()
                    && c.col < p.m()
                    && p.cell(c.row * p.m() + c.col) == kinrow_game::Cell::Empty
                    && placed[..i].iter().all(|&(d, _)| d != c)
            });
            match fits.then(|| swap::try_placed(p, &placed)).flatten() {
                Some(after) if !after.is_over() => Ok(answer),
                _ => Err(format!(
                    "opening: the stones {stones:?} are not free cells leaving the game open"
                )),
            }
        }
        StepAnswer::Choose(_) if step != OpeningStep::Place3 => Ok(answer),
        StepAnswer::KeepO(mv) if step != OpeningStep::Place3 && p.is_legal(*mv) => Ok(answer),
        _ => Err(format!(
            "opening: {answer:?} is not an answer at step {}",
            step.as_str()
        )),
    }
}
