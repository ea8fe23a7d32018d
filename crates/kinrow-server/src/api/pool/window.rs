//! A search's time: the request's window (when its engine must stop, when its answer
//! is due) and the admission floor, the least of its budget a search must have left
//! when it gets a slot.

use std::time::{Duration, Instant};

use crate::api::deadline::RequestClock;

/// The admission floor: the least of its budget a search must have left when it gets a
/// slot; a request that would have less answers 503 instead of a starved 200.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Floor {
    /// A share of the budget, in percent.
    pub percent: u32,
    /// And at least this much (but at most half of the budget).
    pub min: Duration,
}

impl Default for Floor {
    fn default() -> Floor {
        Floor {
            percent: 20,
            min: Duration::from_millis(20),
        }
    }
}

impl Floor {
    /// The floor of a search whose whole budget is `budget`.
    pub fn of(&self, budget: Duration) -> Duration {
        let share = budget.mul_f64(f64::from(self.percent.min(100)) / 100.0);
        share.max(self.min.min(budget / 2))
    }
}

/// When a search must stop and when its answer is due, from its request's clock.
#[derive(Copy, Clone, Debug)]
pub(super) struct Window {
    /// When the request started (the budget counts from here).
    pub(super) start: Instant,
    /// When the engine must stop: start + budget, or earlier for a deadline.
    pub(super) end: Instant,
    /// When the answer is due at the latest: `end` + margin, or the deadline.
    pub(super) due: Instant,
}

impl Window {
    /// With a deadline, the engine stops a margin before it (at most a fifth of the
    /// deadline, so that short deadlines keep most of their time for the search).
    pub(super) fn new(clock: RequestClock, budget: Duration, margin: Duration) -> Window {
        let start = clock.start;
        let mut end = start + budget;
        let mut due = end + margin;
        if let Some(deadline) = clock.deadline {
            let reserve = margin.min(deadline.saturating_duration_since(start) / 5);
            end = end.min(deadline.checked_sub(reserve).unwrap_or(start));
            due = due.min(deadline);
        }
        Window { start, end, due }
    }

    /// The engine's time from `now` on, at least a millisecond.
    pub(super) fn left(&self, now: Instant) -> Duration {
        self.end
            .saturating_duration_since(now)
            .max(Duration::from_millis(1))
    }
}
