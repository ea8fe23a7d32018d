//! One contestant during one game: a kinrow engine in process, an external Gomocup
//! engine (started for the game) or the scripted player, asked for moves and, under
//! swap and swap2, for the opening's decisions.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::contest::{ArenaConfig, Contestant};
use super::script::script_move;
use crate::record::MoveSearch;
use kinrow_engine::level;
use kinrow_engine::swap;
use kinrow_engine::swap::Decision;
use kinrow_engine::EngineKind;
use kinrow_engine::SearchContext;
use kinrow_engine::SearchPlan;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_engine::{ExternalEngine, StepAnswer};
use kinrow_game::{Move, OpeningStep, Position};

fn engine_seed(seed: u64, game: usize, engine: usize) -> u64 {
    seed.wrapping_mul(0xD134_2543_DE82_EF95)
        ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (engine as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// What a kinrow engine's answer says of its search: a proven win or loss as its
/// plies (0 where uncounted), any other result as its score rounded.
pub fn kinrow_search(a: &Analysis) -> MoveSearch {
    let plies = a.evaluation.plies.map_or(0, |p| p as i32);
    let mate = match a.evaluation.outcome {
        Outcome::Win => Some(plies),
        Outcome::Loss => Some(-plies),
        Outcome::Draw | Outcome::Unknown => None,
    };
    MoveSearch {
        depth: Some(a.stats.depth),
        nodes: Some(a.stats.nodes),
        value: mate.is_none().then(|| a.evaluation.score.round() as i64),
        mate,
    }
}

/// One contestant during one game.
pub enum Mover {
    Kinrow {
        engine: Box<dyn kinrow_engine::Engine>,
        /// The engine and level that take the opening's decisions.
        kind: EngineKind,
        level: u8,
        limits: Limits,
        rng: Box<StdRng>,
        /// What the engine keeps through the game (as a server does between a game's
        /// requests), and nothing from an earlier game.
        ctx: Box<SearchContext>,
    },
    Pbrain {
        engine: ExternalEngine,
        turn: Duration,
    },
    Script {
        noise: f64,
        rng: Box<StdRng>,
    },
}

impl Mover {
    /// Contestant `e` of `config` for game `index`: an external engine is started here.
    pub fn new(config: &ArenaConfig, index: usize, e: usize) -> Result<Mover, String> {
        Ok(match &config.engines[e] {
            Contestant::Kinrow(spec) => Mover::Kinrow {
                engine: spec.build(),
                kind: spec.kind,
                level: spec.level.unwrap_or(level::FULL),
                limits: spec.limits(config.time),
                rng: Box::new(StdRng::seed_from_u64(engine_seed(config.seed, index, e))),
                ctx: Box::new(spec.context()),
            },
            Contestant::Script(spec) => Mover::Script {
                noise: spec.noise,
                rng: Box::new(StdRng::seed_from_u64(engine_seed(config.seed, index, e))),
            },
            Contestant::Pbrain(spec) => {
                let turn = config.engines[e].turn_time(config.time);
                Mover::Pbrain {
                    engine: ExternalEngine::start(spec, &config.rules, turn)?,
                    turn,
                }
            }
        })
    }

    /// The contestant's move in `p` (reached by `history`) with what its search said
    /// of it: a kinrow engine's completed depth, nodes and score (a proven result as
    /// its plies), an external engine's `MESSAGE` lines ([`MoveSearch::from_messages`]);
    /// nothing for the scripted player.
    pub fn best_move(
        &mut self,
        p: &Position,
        history: &[Move],
    ) -> Result<(Move, MoveSearch), String> {
        match self {
            Mover::Kinrow {
                engine,
                limits,
                rng,
                ctx,
                ..
            } => {
                let a = engine.analyze_with(p, limits, ctx, rng);
                Ok((a.best, kinrow_search(&a)))
            }
            Mover::Pbrain { engine, turn } => {
                let (mv, messages) = engine.think_messages(p, history, *turn)?;
                Ok((mv, MoveSearch::from_messages(&messages, p.m(), p.n())))
            }
            Mover::Script { noise, rng } => {
                Ok((script_move(p, *noise, rng), MoveSearch::default()))
            }
        }
    }
}

impl Mover {
    /// This contestant's answer at `step` of `p` (see the top of the file).
    pub fn opening_step(
        &mut self,
        p: &Position,
        history: &[Move],
        step: OpeningStep,
        label: &str,
    ) -> Result<StepAnswer, String> {
        match self {
            Mover::Kinrow {
                kind,
                level,
                limits,
                rng,
                ..
            } => {
                let plan = SearchPlan {
                    level: *level,
                    ..SearchPlan::new(*kind, limits.clone(), rng.random())
                };
                let answer = swap::decide(p, &plan).map_err(|e| format!("{label}: {e}"))?;
                Ok(match answer.decision {
                    Decision::Place(stones) => {
                        StepAnswer::Place(stones.into_iter().map(|(c, _)| c).collect())
                    }
                    Decision::Choose(side) => StepAnswer::Choose(side),
                })
            }
            Mover::Pbrain { engine, turn } => engine.swap2(p, history, step, *turn),
            Mover::Script { .. } => Err(format!("{label}: takes no opening decisions")),
        }
    }
}
