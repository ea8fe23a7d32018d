//! [`AppState`]: what every handler shares (the configuration, the search pool, the
//! metrics, the rendered OpenAPI document).

use super::metrics::Metrics;
use super::pool::{Floor, SearchPool};
use crate::config::Config;

/// What every handler shares.
pub struct AppState {
    /// The server's settings.
    pub config: Config,
    /// The search slots, their queue and the inline lane.
    pub search: SearchPool,
    /// The counters `/metrics` shows.
    pub metrics: Metrics,
    /// The OpenAPI document, rendered once.
    pub openapi_json: String,
}

impl AppState {
    /// The state of a server of `config`; `openapi_json` is the OpenAPI document it
    /// serves (rendered by the caller: the document lists the handlers, which read this
    /// state).
    pub fn new(config: Config, metrics: Metrics, openapi_json: String) -> AppState {
        let search = SearchPool::new(
            config.max_concurrent_searches,
            config.search_queue,
            config.margin,
            metrics.clone(),
        )
        .with_floor(Floor {
            percent: config.admission_floor_percent,
            min: config.admission_floor_min,
        });
        AppState {
            config,
            search,
            metrics,
            openapi_json,
        }
    }
}
