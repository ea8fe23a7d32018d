//! kinrow's own Prometheus metrics, next to the per-route request counters and
//! latency histograms that actix-web-prom keeps in the same registry.

use std::sync::Arc;

use prometheus::{
    core::Collector, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};

use std::sync::atomic::Ordering;

use kinrow_engine::EngineKind;
use kinrow_engine::ExternalBrain;

/// What a finished search of one engine updates: its `ok` count, its nodes and its time.
#[derive(Clone)]
pub struct SearchMetrics {
    /// Searches that answered.
    pub ok: IntCounter,
    /// Nodes they searched.
    pub nodes: IntCounter,
    /// Their time, in seconds.
    pub seconds: Histogram,
}

/// The search metrics; cheap to clone (every field is a handle).
#[derive(Clone)]
pub struct Metrics {
    /// Every metric of the server, `/metrics`'s text.
    pub registry: Registry,
    /// Searches by engine and result (`ok`; `deadline`: answered with the last completed
    /// iteration; `overloaded`: no slot or queue place; `starved`: too little of the
    /// budget left to search; `budget_exhausted`: the budget and the margin ran out
    /// before the search completed an iteration, answered 503 as designed; `panic`;
    /// `gone`: the client hung up while the search waited or ran, which freed its place
    /// or slot; `engine_unavailable` and `refused` for external engines).
    pub searches: IntCounterVec,
    /// Nodes searched, by engine.
    pub nodes: IntCounterVec,
    /// Engine time per search, by engine.
    pub search_seconds: HistogramVec,
    /// Time spent waiting for a search slot.
    pub queue_seconds: Histogram,
    /// Searches running now.
    pub in_flight: IntGauge,
    /// Searches waiting for a slot now.
    pub queued: IntGauge,
    /// External engines' processes started to replace a stopped one, by engine.
    pub external_restarts: IntCounterVec,
    /// External engines' start-ups that failed, by engine.
    pub external_failed_starts: IntCounterVec,
    /// 1 while an external engine is available, 0 while it is marked unavailable.
    pub external_available: IntGaugeVec,
    /// The [`SearchMetrics`] of every engine of the registry, looked up once (a lookup by
    /// label hashes the labels and takes a lock, on every request).
    by_engine: Arc<Vec<(&'static str, SearchMetrics)>>,
}

impl Metrics {
    /// Creates the metrics and registers them in a fresh registry.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let searches = registered(
            &registry,
            IntCounterVec::new(
                Opts::new("kinrow_searches_total", "Searches by engine and result"),
                &["engine", "result"],
            ),
        );
        let nodes = registered(
            &registry,
            IntCounterVec::new(
                Opts::new("kinrow_search_nodes_total", "Nodes searched, by engine"),
                &["engine"],
            ),
        );
        let search_seconds = registered(
            &registry,
            HistogramVec::new(
                HistogramOpts::new("kinrow_search_duration_seconds", "Engine time per search")
                    .buckets(vec![
                        0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                        10.0,
                    ]),
                &["engine"],
            ),
        );
        let queue_seconds = registered(
            &registry,
            Histogram::with_opts(
                HistogramOpts::new(
                    "kinrow_search_queue_seconds",
                    "Time a search waited for a free slot",
                )
                .buckets(vec![0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0]),
            ),
        );
        let in_flight = registered(
            &registry,
            IntGauge::new("kinrow_searches_in_flight", "Searches running now"),
        );
        let queued = registered(
            &registry,
            IntGauge::new(
                "kinrow_searches_queued",
                "Searches waiting for a free slot now",
            ),
        );
        let (external_restarts, external_failed_starts, external_available) =
            external_metrics(&registry);
        let mut metrics = Metrics {
            by_engine: Arc::new(Vec::new()),
            registry,
            searches,
            nodes,
            search_seconds,
            queue_seconds,
            in_flight,
            queued,
            external_restarts,
            external_failed_starts,
            external_available,
        };
        let by_engine = EngineKind::ALL
            .iter()
            .map(|kind| (kind.name(), metrics.labelled(kind.name())))
            .collect();
        metrics.by_engine = Arc::new(by_engine);
        metrics
    }

    /// The [`SearchMetrics`] of engine `name`, looked up by label.
    fn labelled(&self, name: &str) -> SearchMetrics {
        SearchMetrics {
            ok: self.searches.with_label_values(&[name, "ok"]),
            nodes: self.nodes.with_label_values(&[name]),
            seconds: self.search_seconds.with_label_values(&[name]),
        }
    }

    /// The metrics a finished search of engine `name` updates.
    pub fn search(&self, name: &str) -> SearchMetrics {
        match self.by_engine.iter().find(|(n, _)| *n == name) {
            Some((_, metrics)) => metrics.clone(),
            None => self.labelled(name),
        }
    }

    /// Brings the external engines' restart and failed start-up counts up to what
    /// `brains` counted, and their availability to what they say now.
    pub fn observe_brains(&self, brains: &[Arc<ExternalBrain>]) {
        for brain in brains {
            let counts = brain.counts();
            for (vec, now) in [
                (&self.external_restarts, &counts.restarts),
                (&self.external_failed_starts, &counts.failed_starts),
            ] {
                let counter = vec.with_label_values(&[brain.name()]);
                let now = now.load(Ordering::Relaxed);
                counter.inc_by(now.saturating_sub(counter.get()));
            }
            self.external_available
                .with_label_values(&[brain.name()])
                .set(i64::from(brain.status().available));
        }
    }

    /// Every metric of the registry in the Prometheus text format.
    pub fn render(&self) -> String {
        TextEncoder::new()
            .encode_to_string(&self.registry.gather())
            .unwrap_or_default()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

/// `metric` (or the error that made it), registered in `registry`.
fn registered<M: Collector + Clone + 'static>(
    registry: &Registry,
    metric: prometheus::Result<M>,
) -> M {
    let metric = metric.expect("metric");
    registry
        .register(Box::new(metric.clone()))
        .expect("register");
    metric
}

/// The external engines' metrics, registered in `registry`: their processes restarted,
/// their failed start-ups, and whether each is available.
fn external_metrics(registry: &Registry) -> (IntCounterVec, IntCounterVec, IntGaugeVec) {
    let restarts = registered(
        registry,
        IntCounterVec::new(
            Opts::new(
                "kinrow_external_restarts_total",
                "External engines' processes started to replace one that crashed, hung, overran or answered nonsense",
            ),
            &["engine"],
        ),
    );
    let failed_starts = registered(
        registry,
        IntCounterVec::new(
            Opts::new(
                "kinrow_external_failed_starts_total",
                "External engines' start-ups that failed (the process exited, hung or answered nonsense to START)",
            ),
            &["engine"],
        ),
    );
    let available = registered(
        registry,
        IntGaugeVec::new(
            Opts::new(
                "kinrow_external_available",
                "1 while an external engine is available, 0 while it is marked unavailable after failed start-ups",
            ),
            &["engine"],
        ),
    );
    (restarts, failed_starts, available)
}
