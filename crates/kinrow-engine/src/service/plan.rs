//! The one plan of a search, from the request to the engine: which engine, at which
//! level, within which [`Limits`] (time, depth, nodes, mistakes, threads and the time
//! manager's target), how many best lines, with which seed. The API builds it from a
//! request (`crates/kinrow-server/src/api/routes/plan.rs`), the search pool runs it: it builds the engine (wrapped
//! by [`level::Leveled`] below full strength), seeds the RNG, starts the
//! [`Budget`](crate::core::budget::Budget) from the limits and the watch from `multipv`.

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::level;
use crate::core::analyze::Engine;
use crate::core::progress::Watch;
use crate::core::types::Limits;
use crate::registry::EngineKind;

/// Everything a request asks of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchPlan {
    /// The engine.
    pub kind: EngineKind,
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
            kind,
            limits,
            level: level::FULL,
            multipv: 1,
            seed,
        }
    }

    /// True when the plan runs the engine itself (full strength, no root mistakes).
    pub fn untouched(&self) -> bool {
        level::untouched(self.kind, self.level, self.limits.mistake_probability)
    }

    /// What builds the plan's engine: the engine itself when [`SearchPlan::untouched`],
    /// else wrapped by [`level::Leveled`].
    pub fn builder(&self) -> impl FnOnce() -> Box<dyn Engine> + Send + 'static {
        let (kind, level, untouched) = (self.kind, self.level, self.untouched());
        move || {
            if untouched {
                kind.build()
            } else {
                Box::new(level::Leveled::new(kind, level))
            }
        }
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
        level::limits(self.kind, self.level, limits)
    }
}
