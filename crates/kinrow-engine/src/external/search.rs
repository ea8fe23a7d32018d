//! An external brain as an [`Engine`]: the search asks the brain ([`ExternalBrain::think`])
//! within the budget and returns its answer. A brain that gives none leaves the
//! [`Failure`] in the search's [`Run`] for the caller to answer with; the analysis
//! returned then holds no evaluated move and must not be shown (see [`Run::failure`]).

use std::sync::{Arc, Mutex};

use rand::rngs::StdRng;

use super::brain::ExternalBrain;
use super::pool::Failure;
use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::types::{Analysis, Evaluation, Limits, Outcome, SearchStats};
use kinrow_game::Position;

/// One request's use of a brain: the brain, and the first failure of its searches.
#[derive(Clone, Debug)]
pub struct Run {
    /// The brain.
    pub brain: Arc<ExternalBrain>,
    failure: Arc<Mutex<Option<Failure>>>,
}

impl PartialEq for Run {
    fn eq(&self, other: &Run) -> bool {
        Arc::ptr_eq(&self.brain, &other.brain)
    }
}

impl Run {
    /// A new run of `brain`, without a failure yet.
    pub fn new(brain: Arc<ExternalBrain>) -> Run {
        Run {
            brain,
            failure: Arc::new(Mutex::new(None)),
        }
    }

    /// The first failure of the run's searches, if any: their analyses are void.
    pub fn failure(&self) -> Option<Failure> {
        self.failure.lock().expect("run failure").clone()
    }

    /// The engine that asks the brain and keeps its failures here.
    pub fn engine(&self) -> ExternalSearch {
        ExternalSearch { run: self.clone() }
    }
}

/// The engine of one [`Run`].
pub struct ExternalSearch {
    run: Run,
}

impl Engine for ExternalSearch {
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut SearchContext,
        _rng: &mut StdRng,
    ) -> Analysis {
        // After a failure, later positions of the same request (a review) are not asked.
        if self.run.failure().is_none() {
            let brain = &self.run.brain;
            match brain.think(position, budget, limits.nodes, limits.depth, limits.threads) {
                Ok(analysis) => return analysis,
                Err(f) => {
                    let mut failure = self.run.failure.lock().expect("run failure");
                    failure.get_or_insert(f);
                }
            }
        }
        void(position)
    }

    fn failed(&self) -> bool {
        self.run.failure().is_some()
    }
}

/// The stand-in answer of a failed search: the first legal move, nothing evaluated.
fn void(position: &Position) -> Analysis {
    let best = position
        .legal_moves()
        .first()
        .copied()
        .unwrap_or(kinrow_game::Move::mark(0));
    Analysis {
        best,
        evaluation: Evaluation {
            score: 0.0,
            outcome: Outcome::Unknown,
            plies: None,
        },
        moves: Vec::new(),
        pv: vec![best],
        win_rates: Vec::new(),
        lines: Vec::new(),
        stats: SearchStats::default(),
    }
}
