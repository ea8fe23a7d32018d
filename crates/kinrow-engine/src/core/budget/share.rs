//! The shares of a budget: the parts of one search (`auto`'s proof attempt, a root's
//! threat-space search, the alpha-beta after it) each get a [`Share`] cut from their
//! budget, a [`Budget`] of its own whose deadline and node limit never reach past the
//! parent's (a fraction of its time and nodes, the rest, or limits of their own cut to
//! what is left), which inherits the parent's watch, target and iterations and charges
//! its nodes back to the parent when it ends.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::time::Instant;

use super::Budget;
use crate::core::types::Limits;

impl Budget {
    /// A share with its own `limits` (time and nodes), cut to what is left of this
    /// one's time, with this budget's watch.
    pub fn within(&mut self, limits: &Limits) -> Share<'_> {
        let child = Budget::new(&Limits {
            time: limits.time.min(self.remaining()),
            ..limits.clone()
        });
        self.adopt(child)
    }

    /// Gives `child` this budget's watch and the node count before it, as a share of
    /// this budget.
    fn adopt(&mut self, mut child: Budget) -> Share<'_> {
        child.before = self.before + self.nodes;
        child.target = self.target;
        child.iterations = Arc::clone(&self.iterations);
        child.watch = self.watch.clone();
        child.silent = self.silent;
        child.stopped |= self.watch.as_ref().is_some_and(|w| w.stopped());
        Share {
            parent: self,
            budget: child,
        }
    }

    /// A share for one part of the search: `fraction` of this budget's time and of its
    /// nodes, each cut to what is left of them.
    pub fn share(&mut self, fraction: f64) -> Share<'_> {
        let now = Instant::now();
        let left = self.deadline.saturating_duration_since(now);
        let time = self.time.mul_f64(fraction).min(left);
        let nodes = match self.node_limit {
            u64::MAX => u64::MAX,
            limit => ((limit as f64 * fraction) as u64).min(self.nodes_left()),
        };
        self.adopt(Budget::starting(now, time, nodes))
    }

    /// A share of `fraction` of what is left of the time and the nodes.
    pub fn share_of_rest(&mut self, fraction: f64) -> Share<'_> {
        self.all_but(1.0 - fraction)
    }

    /// A share with what is left of the time and the nodes but `kept` of it, which a
    /// later part of the search gets.
    pub fn all_but(&mut self, kept: f64) -> Share<'_> {
        let now = Instant::now();
        let time = self
            .deadline
            .saturating_duration_since(now)
            .mul_f64(1.0 - kept);
        let nodes = match self.node_limit {
            u64::MAX => u64::MAX,
            _ => (self.nodes_left() as f64 * (1.0 - kept)) as u64,
        };
        self.adopt(Budget::starting(now, time, nodes))
    }

    /// A share with everything that is left: the rest of the time and the nodes.
    pub fn rest(&mut self) -> Share<'_> {
        let now = Instant::now();
        let nodes = match self.node_limit {
            u64::MAX => u64::MAX,
            _ => self.nodes_left(),
        };
        let time = self.deadline.saturating_duration_since(now);
        self.adopt(Budget::starting(now, time, nodes))
    }
}

/// A part of a budget ([`Budget::share`], [`Budget::rest`], [`Budget::within`]): a
/// [`Budget`] of its own (through `Deref`) for as long as the part runs, whose nodes are
/// charged to the parent when it ends (is dropped). The parent is borrowed meanwhile, so
/// two parts of one budget run one after the other.
#[derive(Debug)]
pub struct Share<'a> {
    parent: &'a mut Budget,
    budget: Budget,
}

impl Deref for Share<'_> {
    type Target = Budget;
    fn deref(&self) -> &Budget {
        &self.budget
    }
}

impl DerefMut for Share<'_> {
    fn deref_mut(&mut self) -> &mut Budget {
        &mut self.budget
    }
}

impl Drop for Share<'_> {
    fn drop(&mut self) {
        self.parent.absorb(self.budget.nodes);
    }
}
