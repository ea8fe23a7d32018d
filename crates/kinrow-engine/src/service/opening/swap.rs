//! The decisions of the swap and swap2 opening phases.
//!
//! The step follows from the rule and the stone count ([`OpeningStep::of`]). Every option
//! is valued by a search of the position it leads to, by the plan's engine within an
//! equal share of the plan's budget, on the API's value scale (-1 to 1) from the
//! decider's side:
//! - **choosing a side** at three or five stones: o is to move then, so choosing o is
//!   worth the search's value `v` of the position and choosing x `-v`;
//! - **placing** stones (three, or swap2's two more): the opponent then picks the side it
//!   likes, so a placement is worth `-|v|` to whoever placed it, `v` being the value of
//!   the position after it with o to move. The engine proposes a *balanced* placement:
//!   the one, among candidates, whose `|v|` is smallest. The candidates of three stones
//!   on a board the committed table covers ([`super::table`]) are the table's openings,
//!   judged even by a long search: three drawn by the seed, each under a drawn symmetry;
//!   elsewhere (and below full level) they are random stones near the centre.
//!
//! The decider takes the option worth most to it; below full level the choice is drawn
//! among the options weighted by `exp(-loss / temperature)` with the level's temperature
//! ([`level::temperature`]), and every search runs at the level's strength, so a weak
//! engine misjudges and chooses less well, and proposes from fewer candidates. The same
//! plan and seed give the same answer under a node limit.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::table;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::types::Limits;
use crate::service::level;
use crate::service::plan::SearchPlan;
use kinrow_game::{Cell, Coord, GameError, Move, OpeningStep, Player, Position, Role, Symmetry};

/// What the decider does.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Places these stones (three, or two), each with its side.
    Place(Vec<(Coord, Player)>),
    /// Plays this side from now on.
    Choose(Player),
}

/// One option of a step, with what the search expects of it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionValue {
    /// What the option does.
    pub decision: Decision,
    /// The value the decider expects from it, -1 (a loss) to 1 (a win).
    pub value: f64,
}

/// Where the proposed stones came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// No placement was proposed (a swap choice, or a step without stones).
    None,
    /// The committed table of balanced openings.
    Table,
    /// Random candidates, each searched.
    Search,
}

/// The engine's answer for one step of the opening.
#[derive(Clone, Debug)]
pub struct OpeningAnswer {
    /// The step decided.
    pub step: OpeningStep,
    /// Who takes this step's decision.
    pub decides: Role,
    /// The decision taken.
    pub decision: Decision,
    /// Every option of the step, the chosen one among them.
    pub options: Vec<OptionValue>,
    /// The position after the decision (the same board after a choice).
    pub after: Position,
    /// The step after the decision, `None` when the opening is done.
    pub next: Option<OpeningStep>,
    /// Nodes searched over every search of the answer.
    pub nodes: u64,
    /// Searches run.
    pub searches: u32,
    /// Time the decision took.
    pub elapsed: Duration,
    /// Where the placement came from (the table or a search).
    pub source: Source,
}

/// The candidates one balanced placement is drawn from at full level (fewer below).
const CANDIDATES: usize = 6;
/// The openings of the committed table a proposal is drawn from, each searched again
/// (the table's values come from another budget, and a second look drops the ones that
/// lean).
const TABLE_CANDIDATES: usize = 3;

/// The decision of the engine of `plan` at the step `position` is at: see the top of the
/// file. An error (naming `board` or `rules.opening`) when the position is at no step.
pub fn decide(position: &Position, plan: &SearchPlan) -> Result<OpeningAnswer, GameError> {
    let step = OpeningStep::of(position)?;
    let mut run = Run {
        plan,
        rng: StdRng::seed_from_u64(plan.seed),
        nodes: 0,
        searches: 0,
        started: Instant::now(),
        source: Source::None,
    };
    let opening = position.opening();
    // swap2's second player values the three stones and a placement of two more.
    let shares = if step == OpeningStep::Place2OrChoose {
        2
    } else {
        1
    };
    let limits = split(&plan.limits, shares);
    let mut options = Vec::new();
    match step {
        OpeningStep::Place3 => {
            let stones = [Player::X, Player::O, Player::X];
            let (place, value) = run.propose(position, &stones, &limits);
            options.push(OptionValue {
                decision: Decision::Place(place),
                value,
            });
        }
        _ => {
            let v = run.value(position, &limits);
            options.push(OptionValue {
                decision: Decision::Choose(Player::X),
                value: -v,
            });
            options.push(OptionValue {
                decision: Decision::Choose(Player::O),
                value: v,
            });
            if step == OpeningStep::Place2OrChoose {
                let (place, value) = run.propose(position, &[Player::O, Player::X], &limits);
                options.push(OptionValue {
                    decision: Decision::Place(place),
                    value,
                });
            }
        }
    }
    let chosen = run.pick(&options);
    let decision = options[chosen].decision.clone();
    let (after, next) = match &decision {
        Decision::Place(stones) => (placed(position, stones), step.after_placing(opening)),
        Decision::Choose(_) => (position.clone(), None),
    };
    Ok(OpeningAnswer {
        step,
        decides: step.decides(),
        decision,
        options,
        after,
        next,
        nodes: run.nodes,
        searches: run.searches,
        elapsed: run.started.elapsed(),
        source: run.source,
    })
}

/// `limits` with the time and nodes divided among `parts` searches.
fn split(limits: &Limits, parts: u32) -> Limits {
    Limits {
        time: limits.time / parts.max(1),
        nodes: limits.nodes.map(|n| (n / parts.max(1) as u64).max(1)),
        target: None,
        ..limits.clone()
    }
}

/// `position` with `stones` placed (each of them on an empty cell).
fn placed(position: &Position, stones: &[(Coord, Player)]) -> Position {
    try_placed(position, stones).expect("the stones are placed on empty cells and make no line")
}

/// `position` with `stones` placed; `None` when that gives no valid position (a line for
/// the side that would be to move).
pub fn try_placed(position: &Position, stones: &[(Coord, Player)]) -> Option<Position> {
    let m = position.m();
    let mut cells = position.cells().to_vec();
    for &(c, p) in stones {
        cells[c.row * m + c.col] = Cell::Mark(p);
    }
    Position::from_cells(&position.rules(), cells, None).ok()
}

/// One answer's searches and draws.
struct Run<'a> {
    plan: &'a SearchPlan,
    rng: StdRng,
    nodes: u64,
    searches: u32,
    started: Instant,
    source: Source,
}

impl Run<'_> {
    /// The value of `position` for its side to move, by the plan's engine within `limits`.
    fn value(&mut self, position: &Position, limits: &Limits) -> f64 {
        let plan = SearchPlan {
            limits: limits.clone(),
            seed: self.rng.random(),
            ..self.plan.clone()
        };
        let (value, nodes) = value_of(position, &plan);
        self.nodes += nodes;
        self.searches += 1;
        value
    }

    /// A balanced placement of `stones` (sides in order) on `position`, and its value to
    /// the placer (`-|v|`), within `limits` for all its searches.
    fn propose(
        &mut self,
        position: &Position,
        stones: &[Player],
        limits: &Limits,
    ) -> (Vec<(Coord, Player)>, f64) {
        let full = self.plan.level >= level::FULL;
        let from_table = if full && position.marks(Player::X) == 0 {
            table::openings(&position.rules())
        } else {
            None
        };
        let candidates: Vec<Vec<(Coord, Player)>> = match from_table {
            Some(list) if !list.is_empty() => {
                self.source = Source::Table;
                let syms = Symmetry::all(position.m(), position.n());
                let mut picks: Vec<usize> = (0..list.len()).collect();
                let draws = TABLE_CANDIDATES.min(list.len());
                (0..draws)
                    .map(|i| {
                        let j = self.rng.random_range(i..picks.len());
                        picks.swap(i, j);
                        let sym = syms[self.rng.random_range(0..syms.len())];
                        list[picks[i]]
                            .iter()
                            .map(|&(c, p)| (sym.map(c, position.m(), position.n()), p))
                            .collect()
                    })
                    .collect()
            }
            _ => {
                self.source = Source::Search;
                let count = (CANDIDATES * self.plan.level as usize)
                    .div_ceil(level::FULL as usize)
                    .max(1);
                (0..count)
                    .filter_map(|_| random_stones(position, stones, &mut self.rng))
                    .collect()
            }
        };
        let each = split(limits, candidates.len() as u32);
        let mut best: Option<(Vec<(Coord, Player)>, f64)> = None;
        for c in candidates {
            let v = self.value(&placed(position, &c), &each);
            let worth = -v.abs();
            if best.as_ref().is_none_or(|(_, b)| worth > *b) {
                best = Some((c, worth));
            }
        }
        best.unwrap_or_else(|| {
            // No candidate fits (a board without room near the centre): the first empty
            // cells in order.
            let c = first_empty(position, stones);
            let v = self.value(&placed(position, &c), limits);
            (c, -v.abs())
        })
    }

    /// The index of the option the decider takes (see the top of the file).
    fn pick(&mut self, options: &[OptionValue]) -> usize {
        let best = (0..options.len())
            .max_by(|&a, &b| {
                options[a]
                    .value
                    .total_cmp(&options[b].value)
                    .then(b.cmp(&a))
            })
            .unwrap_or(0);
        if self.plan.level >= level::FULL || options.len() < 2 {
            return best;
        }
        let t = level::temperature(self.plan.level).max(1e-9);
        let top = options[best].value;
        let weights: Vec<f64> = options
            .iter()
            .map(|o| (-(top - o.value) / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut draw = self.rng.random::<f64>() * total;
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                return i;
            }
            draw -= w;
        }
        best
    }
}

/// The value of `position` for its side to move (-1 to 1, the API's scale) by one search
/// of `plan`'s engine within its limits, and the nodes searched; a finished game is worth
/// its result.
pub fn value_of(position: &Position, plan: &SearchPlan) -> (f64, u64) {
    if position.is_over() {
        let value = match position.winner() {
            Some(w) if w == position.to_move() => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        return (value, 0);
    }
    let engine = plan.engine();
    let mut budget = Budget::new(&plan.limits);
    let mut rng = StdRng::seed_from_u64(plan.seed);
    let mut analysis = engine.analyze_in(
        position,
        &plan.limits,
        &mut budget,
        &mut SearchContext::new(),
        &mut rng,
    );
    let value = plan.values(position, &mut analysis).evaluation;
    (value, budget.nodes)
}

/// Random stones of the given sides within a few cells of the centre on empty cells,
/// none of them making a line; `None` when the draw failed.
pub fn random_stones(
    position: &Position,
    stones: &[Player],
    rng: &mut StdRng,
) -> Option<Vec<(Coord, Player)>> {
    let (m, n) = (position.m(), position.n());
    let mid = kinrow_game::centre(m, n);
    let radius = (m.min(n) / 4).clamp(1, 3);
    let mut out: Vec<(Coord, Player)> = Vec::new();
    for _ in 0..200 {
        if out.len() == stones.len() {
            break;
        }
        let r = rng.random_range(mid.row.saturating_sub(radius)..(mid.row + radius + 1).min(n));
        let c = rng.random_range(mid.col.saturating_sub(radius)..(mid.col + radius + 1).min(m));
        let here = Coord::new(r, c);
        if position.cell(r * m + c) == Cell::Empty && out.iter().all(|&(d, _)| d != here) {
            out.push((here, stones[out.len()]));
        }
    }
    if out.len() < stones.len() {
        return None;
    }
    let after = try_placed(position, &out)?;
    (after.winner().is_none() && !after.is_over()).then_some(out)
}

/// The first empty cells, in order, for `stones`.
fn first_empty(position: &Position, stones: &[Player]) -> Vec<(Coord, Player)> {
    let m = position.m();
    (0..position.cells().len())
        .filter(|&i| position.cell(i) == Cell::Empty)
        .zip(stones)
        .map(|(i, &p)| (Coord::new(i / m, i % m), p))
        .collect()
}

/// The moves of `stones` as marks (for callers that play them in turn).
pub fn as_moves(stones: &[(Coord, Player)], m: usize) -> Vec<Move> {
    stones
        .iter()
        .map(|&(c, _)| Move::mark(c.row * m + c.col))
        .collect()
}
