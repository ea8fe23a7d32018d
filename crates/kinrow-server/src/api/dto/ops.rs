//! The answers of the operations endpoints.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Liveness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// Always `ok` while the server answers.
    #[schema(example = "ok")]
    pub status: String,
    /// The external engines marked unavailable now (their processes keep dying at
    /// start-up; `/v1/engines` says why, and they are tried again later). The server
    /// itself still serves every other engine. Absent when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unavailable_engines: Vec<String>,
}

/// Readiness (`GET /readyz`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Readiness {
    /// `ready` when every search is answered at full quality, `starting` before.
    #[schema(example = "ready")]
    pub status: String,
    /// Connect Four's opening book: `not_read` (nothing asked for it yet), `reading`
    /// (searches of 7x6 boards go on without it meanwhile) or `read`.
    #[schema(example = "not_read")]
    pub books: String,
}
