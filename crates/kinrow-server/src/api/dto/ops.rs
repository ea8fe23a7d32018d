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
