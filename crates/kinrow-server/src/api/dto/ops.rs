//! The answers of the operations endpoints.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Liveness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// Always `ok` while the server answers.
    #[schema(example = "ok")]
    pub status: String,
}
