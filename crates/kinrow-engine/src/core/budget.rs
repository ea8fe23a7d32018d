//! The one budget every search runs on: a deadline and a node limit, with the count of
//! nodes visited so far.
//!
//! A search starts one [`Budget`] from the request's [`Limits`] and lends it, call by
//! call, to the searchers that do the work (`&mut Budget`: no searcher keeps one). Its
//! parts (`auto`'s proof attempt, a root's threat-space search, the alpha-beta after
//! it) get a [`Share`](share::Share) cut from it (budget/share.rs) with
//! [`Budget::share`], [`Budget::rest`] or [`Budget::within`]: a budget of its own whose
//! deadline and node limit never reach past its parent's, and whose nodes are charged
//! to the parent when it ends. So the
//! shares add up: `nodes` is a total for the whole search, whatever its phases (the
//! leaf solvers' nodes included), and the parent's count is what the answer reports in
//! `stats.nodes`.
//!
//! A budget may carry a [`Watch`] (shared by all its children): the caller's stop flag,
//! polled with the deadline, and the observer of the search's progress ([`progress`](super::progress)).
//!
//! A search on several threads gives each helper thread a [`Budget::helper`]: the same
//! deadline, its own stop flag, and, under a node limit, a [`NodePool`] that all the
//! threads draw from in chunks, so that the limit is a total for all of them; the main
//! thread [`Budget::join`]s each helper's count when it ends.
//!
//! The iterative searches also note on their budget the best root score of each
//! completed iteration ([`Budget::iteration_done`], shared by the children but not by
//! helper threads), so that the answer can report a root value that does not swing with
//! the parity of the last depth ([`Budget::parity_shift`], applied in `root::finish`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::progress::{Line, Progress, Watch};
use super::types::{MoveEval, Scale};
use crate::core::types::Limits;

mod share;

/// A search's deadline and node allowance, and the nodes it visited.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Instant,
    /// The time this budget was given (its deadline minus its start).
    time: Duration,
    /// The most nodes this budget may count (`u64::MAX`: no limit).
    node_limit: u64,
    /// Nodes visited so far, the children's charged back included.
    pub nodes: u64,
    stopped: bool,
    /// Nodes the ancestors had counted when this budget was cut from them: what the
    /// whole search had visited before this part began (for progress reports).
    before: u64,
    watch: Option<Arc<Watch>>,
    /// False for a helper thread's budget: it sends no heartbeats.
    beats: bool,
    /// Reports nothing (the stop flag still applies): [`Budget::silence`].
    silent: bool,
    /// The nodes left to the threads of a search on several threads
    /// ([`Budget::pool_nodes`]): `node_limit` is then what this thread drew from it.
    pool: Option<Arc<NodePool>>,
    /// The time the search aims to answer by ([`Limits::target`]), shared by the
    /// children; `None`: the deadline.
    target: Option<Instant>,
    /// The depth and best root score of each completed iteration of the search, in order (`None`
    /// for a proven or mate score), shared by the children cut from this budget.
    iterations: Arc<Mutex<Vec<Iteration>>>,
}

/// A completed iteration: its depth and its best root score (`None`: proven or mate).
type Iteration = (u32, Option<f64>);

/// The nodes a search on several threads may still visit, drawn by each thread in
/// chunks of [`POOL_CHUNK`] as it goes: a thread never counts more than it drew, so the
/// threads together stay within the one limit (each may leave part of its last chunk).
#[derive(Debug)]
pub struct NodePool {
    left: AtomicU64,
}

/// The nodes a thread draws from a [`NodePool`] at a time.
pub const POOL_CHUNK: u64 = 256;

impl NodePool {
    /// Takes up to `want` nodes; 0 once the pool is empty.
    fn take(&self, want: u64) -> u64 {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                (left > 0).then(|| left - want.min(left))
            })
            .map_or(0, |left| want.min(left))
    }
}

impl Budget {
    /// The budget of a whole search within `limits` (its time and nodes).
    pub fn new(limits: &Limits) -> Budget {
        let start = Instant::now();
        let mut budget = Budget::starting(start, limits.time, limits.nodes.unwrap_or(u64::MAX));
        budget.target = limits
            .target
            .and_then(|t| start.checked_add(t))
            .filter(|&t| t < budget.deadline);
        budget
    }

    /// A budget of `time` and no node limit.
    pub fn with_time(time: Duration) -> Budget {
        Budget::starting(Instant::now(), time, u64::MAX)
    }

    fn starting(start: Instant, time: Duration, node_limit: u64) -> Budget {
        Budget {
            start,
            deadline: start
                .checked_add(time)
                .unwrap_or(start + Duration::from_secs(1 << 32)),
            time,
            node_limit,
            nodes: 0,
            stopped: false,
            before: 0,
            watch: None,
            beats: true,
            silent: false,
            pool: None,
            target: None,
            iterations: Arc::default(),
        }
    }

    /// For a search on several threads: what is left of this budget's node limit goes
    /// into a [`NodePool`] that this budget and the [`Budget::helper`]s cut from it after
    /// this draw from (nothing changes without a node limit). Call it once, before the
    /// threads start; the budget is then for the search's own use: do not cut children
    /// from it.
    pub fn pool_nodes(&mut self) {
        if self.node_limit == u64::MAX || self.pool.is_some() {
            return;
        }
        let left = self.nodes_left();
        self.pool = Some(Arc::new(NodePool {
            left: AtomicU64::new(left),
        }));
        self.node_limit = self.nodes;
    }

    /// The budget of a helper thread of this search: the same deadline, stopped by
    /// `stop` (which the main thread raises when it ends; the caller's stop reaches the
    /// helpers that way), no heartbeats, nodes counted from zero and drawn from this
    /// budget's [`NodePool`] if it has one (else the same node limit).
    pub fn helper(&self, stop: Arc<Watch>) -> Budget {
        Budget {
            nodes: 0,
            node_limit: if self.pool.is_some() {
                0
            } else {
                self.node_limit
            },
            stopped: self.stopped || stop.stopped(),
            watch: Some(stop),
            beats: false,
            silent: false,
            // A helper's iterations are not the answer's.
            iterations: Arc::default(),
            ..self.clone()
        }
    }

    /// Draws another chunk from the node pool, once the nodes drawn so far are spent:
    /// true when the search may go on (false without a pool).
    #[cold]
    fn refill(&mut self) -> bool {
        let Some(pool) = &self.pool else {
            return false;
        };
        self.node_limit += pool.take(POOL_CHUNK);
        self.nodes < self.node_limit
    }

    /// The same budget, watched by `watch` (and so are the children cut from it).
    pub fn watched(mut self, watch: Arc<Watch>) -> Budget {
        self.stopped |= watch.stopped();
        self.watch = Some(watch);
        self
    }

    /// Drops the target: the search may use all its time (a position under threat).
    pub fn untarget(&mut self) {
        self.target = None;
    }

    /// True once the search is past the time it aims to answer by (never without a
    /// [`Limits::target`]).
    pub fn past_target(&self) -> bool {
        self.target.is_some_and(|t| Instant::now() >= t)
    }

    /// True once the search has run `factor` times the time to its target, counted from
    /// this budget's start (never without a [`Limits::target`]).
    pub fn past_target_times(&self, factor: u32) -> bool {
        self.target.is_some_and(|t| {
            self.start.elapsed() >= t.saturating_duration_since(self.start) * factor
        })
    }

    /// Makes this budget (and the shares cut from it) report nothing to the watch while
    /// keeping its stop flag: for a search of another position than the caller's, whose
    /// lines name that position's moves (the pro rule's split root reports for it).
    pub fn silence(&mut self) {
        self.silent = true;
    }

    /// The watch of the search, if the caller attached one.
    pub fn watch(&self) -> Option<&Watch> {
        self.watch.as_deref()
    }

    /// How many best lines (`multipv`) the caller asks for: 1 without a watch.
    pub fn lines(&self) -> usize {
        self.watch.as_ref().map_or(1, |w| w.lines())
    }

    /// Whether the caller shows every cell's value ([`Watch::showing_cells`]; true
    /// without a watch).
    pub fn every_cell(&self) -> bool {
        self.watch.as_ref().is_none_or(|w| w.every_cell())
    }

    /// True when the caller watches the search's progress.
    pub fn observed(&self) -> bool {
        !self.silent && self.watch.as_ref().is_some_and(|w| w.observing())
    }

    /// True when the caller watches progress and the last report is due for renewal.
    pub fn report_due(&self) -> bool {
        !self.silent && self.watch.as_ref().is_some_and(|w| w.due())
    }

    /// Reports the search's progress to the watch (if any): `lines` best first after a
    /// completed `depth`, with scores in the unit of `scale`.
    pub fn report(&self, depth: u32, scale: Scale, lines: Vec<Line>) {
        self.report_moves(depth, scale, lines, Vec::new());
    }

    /// [`Budget::report`] with every root move the search has valued (`moves`, each
    /// with its depth and bound), for an anytime answer that values more than the lines.
    pub fn report_moves(&self, depth: u32, scale: Scale, lines: Vec<Line>, moves: Vec<MoveEval>) {
        if let Some(w) = self
            .watch
            .as_ref()
            .filter(|w| !self.silent && w.observing())
        {
            w.report(Progress {
                depth,
                nodes: self.before + self.nodes,
                elapsed: w.elapsed(),
                scale,
                lines,
                moves,
            });
        }
    }

    /// The deadline or the caller's stop flag.
    fn poll(&self) -> bool {
        self.watch.as_ref().is_some_and(|w| w.stopped()) || Instant::now() >= self.deadline
    }

    /// [`Budget::poll`] every 256 nodes, with a heartbeat report when one is due (only
    /// here: an engine that checks [`Budget::expired`] more often reports by itself).
    #[cold]
    fn poll_beating(&self) -> bool {
        if let Some(w) = self.watch.as_ref().filter(|_| self.beats && !self.silent) {
            w.heartbeat(self.before + self.nodes);
        }
        self.poll()
    }

    /// Counts `nodes` visited by a part of the search that ran on its own count (a
    /// share that ended, a helper thread, a one-ply scoring that counted its moves).
    fn absorb(&mut self, nodes: u64) {
        self.nodes += nodes;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
    }

    /// Ends the budget of a helper thread ([`Budget::helper`]): its nodes count in this
    /// one.
    pub fn join(&mut self, helper: Budget) {
        self.absorb(helper.nodes);
    }

    /// Counts `nodes` positions an engine scored without ticking for each (a one-ply
    /// scoring counts its moves when it is done).
    pub fn count(&mut self, nodes: u64) {
        self.absorb(nodes);
    }

    /// Nodes this budget may still count (`u64::MAX` less the count without a limit).
    pub fn nodes_left(&self) -> u64 {
        self.node_limit.saturating_sub(self.nodes)
    }

    /// The node limit, if there is one.
    pub fn node_limit(&self) -> Option<u64> {
        (self.node_limit != u64::MAX).then_some(self.node_limit)
    }

    /// Counts one node and says whether the search must stop now (node limit reached,
    /// or, checked every 256 nodes, the deadline passed or the caller said stop). Once it says stop, it keeps saying so.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if (self.nodes >= self.node_limit && !self.refill())
            || (self.nodes & 255 == 0 && self.poll_beating())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// True once the search must stop (checks the time and the stop flag now).
    pub fn expired(&mut self) -> bool {
        if !self.stopped && ((self.nodes >= self.node_limit && !self.refill()) || self.poll()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// True when the search was stopped by a limit.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Time since the budget started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time the budget was given.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// Notes the best root score of the iteration of `depth` the search completed, in
    /// its engine's unit; `None` when it is a proven or mate score (no average applies).
    pub fn iteration_done(&self, depth: u32, best: Option<f64>) {
        self.iterations
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((depth, best));
    }

    /// What to add to every unproven root score so that the best reads as the mean of
    /// the best scores of the last completed iteration and of the last one a ply
    /// shallower: `(shallower - last) / 2`. An iterative search's value leans towards
    /// whoever moves at its leaves, so it swings with the parity of the last depth.
    /// 0 unless both are noted and unproven.
    pub fn parity_shift(&self) -> f64 {
        let done = self.iterations.lock().unwrap_or_else(|e| e.into_inner());
        let Some(&(depth, Some(last))) = done.last() else {
            return 0.0;
        };
        match done.iter().rev().find(|&&(d, _)| d + 1 == depth) {
            Some(&(_, Some(shallower))) => (shallower - last) / 2.0,
            _ => 0.0,
        }
    }

    /// Time left before the deadline (zero when past it).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(n: u64) -> Budget {
        Budget::new(&Limits {
            time: Duration::from_secs(60),
            nodes: Some(n),
            ..Limits::default()
        })
    }

    /// Cuts a `fraction` share from `parent` and runs it until it says stop (it charges
    /// the parent when it ends); returns the nodes it ran.
    fn exhaust(parent: &mut Budget, fraction: f64) -> u64 {
        let mut child = parent.share(fraction);
        while !child.tick() {}
        child.nodes
    }

    /// Shares cut from a budget never add up to more than it: each is cut to what the
    /// earlier ones left, and the last, the rest, takes exactly that.
    #[test]
    fn shares_add_up_to_the_whole() {
        let mut whole = nodes(1000);
        assert_eq!(exhaust(&mut whole, 0.2), 200);
        assert_eq!(exhaust(&mut whole, 0.5), 500);
        // Half of the whole is asked for, but only 300 nodes are left.
        assert_eq!(exhaust(&mut whole, 0.5), 300);
        assert_eq!(whole.nodes, 1000);
        assert!(whole.stopped());
        assert_eq!(whole.rest().node_limit(), Some(0));
    }

    #[test]
    fn the_rest_takes_what_the_children_left() {
        let mut whole = nodes(1000);
        let mut child = whole.share(0.25);
        for _ in 0..100 {
            child.tick();
        }
        drop(child);
        assert_eq!(whole.nodes, 100);
        assert_eq!(whole.rest().node_limit(), Some(900));
        assert!(!whole.stopped());
    }

    #[test]
    fn without_a_node_limit_shares_only_cut_the_time() {
        let mut whole = Budget::with_time(Duration::from_millis(1000));
        let child = whole.share(0.25);
        assert_eq!(child.node_limit(), None);
        assert!(child.time() <= Duration::from_millis(250));
        assert!(child.time() > Duration::from_millis(200));
        drop(child);
        let rest = whole.rest();
        assert!(rest.time() <= Duration::from_millis(1000));
    }

    /// The caller's stop flag reaches a child cut before it was raised, within 256 nodes;
    /// reports count the nodes of the whole search.
    #[test]
    fn a_watched_search_stops_when_told_and_its_children_with_it() {
        let watch = Arc::new(Watch::new(2));
        let mut whole = Budget::with_time(Duration::from_secs(60)).watched(Arc::clone(&watch));
        for _ in 0..100 {
            whole.tick();
        }
        let mut child = whole.share(0.5);
        assert_eq!(child.lines(), 2);
        assert_eq!(child.before, 100);
        assert!(!child.tick());
        watch.stop();
        let ticks = (0..1000).take_while(|_| !child.tick()).count();
        assert!(ticks < 256, "{ticks}");
        drop(child);
        assert_eq!(
            whole.nodes,
            100 + 1 + ticks as u64 + 1,
            "charged when it ended"
        );
        assert!(whole.expired(), "the parent sees it too");
        assert!(whole.within(&Limits::default()).stopped());
        // Without a watch: one line, nothing stops it but its limits.
        assert_eq!(Budget::with_time(Duration::from_secs(1)).lines(), 1);
    }

    /// A pooled budget and its helper share one node limit: together they count exactly
    /// it (each stops when the pool has nothing left for it), and a helper stops within
    /// 256 nodes of its stop flag. Without a node limit there is no pool.
    #[test]
    fn pooled_threads_share_one_node_limit() {
        let mut main = nodes(1000);
        main.pool_nodes();
        let stop = Arc::new(Watch::new(1));
        let mut helper = main.helper(Arc::clone(&stop));
        loop {
            let a = main.stopped() || main.tick();
            let b = helper.stopped() || helper.tick();
            if a && b {
                break;
            }
        }
        assert_eq!(main.nodes + helper.nodes, 1000);
        assert!(main.nodes > POOL_CHUNK && helper.nodes > POOL_CHUNK);

        let mut timed = Budget::with_time(Duration::from_secs(60));
        timed.pool_nodes();
        stop.stop();
        let mut helper = timed.helper(Arc::clone(&stop));
        assert_eq!(helper.node_limit(), None);
        assert!(helper.tick(), "the flag was raised before it started");
        let stop = Arc::new(Watch::new(1));
        let mut helper = timed.helper(Arc::clone(&stop));
        assert!(!helper.tick());
        stop.stop();
        let ticks = (0..1000).take_while(|_| !helper.tick()).count();
        assert!(ticks < 256, "{ticks}");
    }

    /// The shift averages the last iteration with the last one a ply shallower, noted
    /// by any child (not by a helper thread), and is 0 when either was a mate score or
    /// no shallower one completed.
    #[test]
    fn the_parity_shift_averages_the_last_two_depths() {
        let mut whole = nodes(1000);
        {
            let mut child = whole.rest();
            assert_eq!(child.parity_shift(), 0.0);
            child.iteration_done(1, Some(100.0));
            assert_eq!(child.parity_shift(), 0.0);
            child.share(0.5).iteration_done(2, Some(-300.0));
            assert_eq!(child.parity_shift(), 200.0);
        }
        assert_eq!(
            whole.parity_shift(),
            200.0,
            "the parent sees its children's"
        );
        whole
            .helper(Arc::new(Watch::new(1)))
            .iteration_done(3, Some(5.0));
        assert_eq!(whole.parity_shift(), 200.0);
        // A depth searched again (the guard's next turn) pairs with the one before it.
        whole.rest().iteration_done(2, Some(-100.0));
        assert_eq!(whole.parity_shift(), 100.0);
        whole.iteration_done(3, Some(0.0));
        assert_eq!(whole.parity_shift(), -50.0);
        whole.iteration_done(4, None);
        assert_eq!(whole.parity_shift(), 0.0);
        whole.iteration_done(6, Some(1.0));
        assert_eq!(whole.parity_shift(), 0.0);
    }

    #[test]
    fn a_budget_stops_at_its_node_limit_and_stays_stopped() {
        let mut b = nodes(3);
        assert!(!b.tick());
        assert!(!b.tick());
        assert!(b.tick());
        assert!(b.tick());
        assert!(b.stopped());
        assert_eq!(b.nodes, 4);
    }
}
