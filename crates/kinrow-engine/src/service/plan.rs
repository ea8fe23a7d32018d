//! The one plan of a search, from the request to the engine: which engine (one of
//! kinrow's own, or an external brain), at which
//! level, within which [`Limits`] (time, depth, nodes, mistakes, threads and the time
//! manager's target), how many best lines, with which seed. The API builds it from a
//! request (`crates/kinrow-server/src/api/routes/plan.rs`), the search pool runs it: it builds the engine (wrapped
//! by [`level::Leveled`] below full strength), seeds the RNG, starts the
//! [`Budget`](crate::core::budget::Budget) from the limits and the watch from `multipv`.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::level;
use super::value::{self, Values};
use crate::core::analyze::Engine;
use crate::core::progress::Watch;
use crate::core::types::{Analysis, Limits};
use crate::external::pool::Failure;
use crate::external::search::Run;
use crate::registry::EngineKind;
use kinrow_game::Position;

/// The engine of a plan: one of kinrow's own, or an external brain.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineChoice {
    /// An engine of the registry.
    Own(EngineKind),
    /// An external brain, with this request's record of its failure.
    External(Run),
}

impl EngineChoice {
    /// The engine's name in the API.
    pub fn name(&self) -> &'static str {
        match self {
            EngineChoice::Own(kind) => kind.name(),
            EngineChoice::External(run) => run.brain.name(),
        }
    }

    /// The registry's engine, `None` for an external brain.
    pub fn own(&self) -> Option<EngineKind> {
        match self {
            EngineChoice::Own(kind) => Some(*kind),
            EngineChoice::External(_) => None,
        }
    }
}

/// Everything a request asks of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchPlan {
    /// The engine.
    pub engine: EngineChoice,
    /// Time, depth, nodes, mistake probability, threads and the target.
    pub limits: Limits,
    /// 1 (weakest) to [`level::FULL`] (the engine itself).
    pub level: u8,
    /// How many best lines the search reports (1 to [`crate::core::progress::MAX_LINES`]).
    pub multipv: usize,
    /// The seed of the search's RNG.
    pub seed: u64,
}

impl SearchPlan {
    /// A plan for `kind` within `limits` at full strength, one line, seeded with `seed`.
    pub fn new(kind: EngineKind, limits: Limits, seed: u64) -> SearchPlan {
        SearchPlan {
            engine: EngineChoice::Own(kind),
            limits,
            level: level::FULL,
            multipv: 1,
            seed,
        }
    }

    /// The engine's name in the API.
    pub fn name(&self) -> &'static str {
        self.engine.name()
    }

    /// True when the plan runs the engine itself (full strength, no root mistakes; an
    /// external brain always).
    pub fn untouched(&self) -> bool {
        match &self.engine {
            EngineChoice::Own(kind) => {
                level::untouched(*kind, self.level, self.limits.mistake_probability)
            }
            EngineChoice::External(_) => true,
        }
    }

    /// What builds the plan's engine: the engine itself when [`SearchPlan::untouched`],
    /// else wrapped by [`level::Leveled`]; an external brain's search.
    pub fn builder(&self) -> impl FnOnce() -> Box<dyn Engine> + Send + 'static {
        let (engine, level, untouched) = (self.engine.clone(), self.level, self.untouched());
        move || match engine {
            EngineChoice::Own(kind) if untouched => kind.build(),
            EngineChoice::Own(kind) => Box::new(level::Leveled::new(kind, level)),
            EngineChoice::External(run) => Box::new(run.engine()),
        }
    }

    /// The failure of the plan's external brain, if it failed: its analyses are void.
    pub fn failure(&self) -> Option<Failure> {
        match &self.engine {
            EngineChoice::Own(_) => None,
            EngineChoice::External(run) => run.failure(),
        }
    }

    /// The values of the plan's answer `analysis` on `position` ([`value::values`]; an
    /// external brain's through its own unit), on one scale ([`value::one_scale`]:
    /// estimates above the chosen move's value become bounds, `moves` best first).
    pub fn values(&self, position: &Position, analysis: &mut Analysis) -> Values {
        let mut values = match &self.engine {
            EngineChoice::Own(kind) => value::values(*kind, position, analysis),
            EngineChoice::External(run) => {
                let spec = run.brain.spec();
                value::values_by(position, analysis, |raw| spec.value(raw))
            }
        };
        value::one_scale(analysis, &mut values, self.untouched());
        values
    }

    /// The plan's engine ([`SearchPlan::builder`]).
    pub fn engine(&self) -> Box<dyn Engine> {
        self.builder()()
    }

    /// The watch of the search: `multipv` lines.
    pub fn watch(&self) -> Watch {
        Watch::new(self.multipv)
    }

    /// The search's RNG, seeded with `seed`.
    pub fn rng(&self) -> StdRng {
        StdRng::seed_from_u64(self.seed)
    }

    /// The limits the engine runs under given `limits` (the plan's, cut by the wait):
    /// below full strength the level's node cap ([`level::limits`]).
    pub fn leveled(&self, limits: &Limits) -> Limits {
        match &self.engine {
            EngineChoice::Own(kind) => level::limits(*kind, self.level, limits),
            EngineChoice::External(_) => limits.clone(),
        }
    }
}
