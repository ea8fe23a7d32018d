//! The `rules.opening` name of the API and its conversions.

use serde::Serialize;
use utoipa::ToSchema;

use super::forms::string_enum;
use crate::game::Opening;

/// The opening rule: `free` (the default: every move free from the first), `pro` /
/// `long_pro` (x's first stone on the centre, row `n / 2` and column `m / 2`; x's second
/// stone at least 3 / 4 cells from it in rows or columns: `/v1/state` lists the cells the
/// rule forbids now with the reason `off_centre` / `near_centre`, `/v1/play` refuses them
/// with 422 `forbidden_move`), `swap` or `swap2` (an opening phase of decisions played
/// through `POST /v1/opening`). Every rule but `free` is played with marks only and
/// without gravity; swap and swap2 need `k` of at least 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = OpeningRule)]
#[serde(rename_all = "snake_case")]
pub enum OpeningName {
    Free,
    Pro,
    LongPro,
    Swap,
    Swap2,
}

string_enum!(OpeningName, "one of \"free\", \"pro\", \"long_pro\", \"swap\", \"swap2\"", {
    "free" => OpeningName::Free,
    "pro" => OpeningName::Pro,
    "long_pro" => OpeningName::LongPro,
    "swap" => OpeningName::Swap,
    "swap2" => OpeningName::Swap2,
});

impl From<OpeningName> for Opening {
    fn from(o: OpeningName) -> Opening {
        match o {
            OpeningName::Free => Opening::Free,
            OpeningName::Pro => Opening::Pro,
            OpeningName::LongPro => Opening::LongPro,
            OpeningName::Swap => Opening::Swap,
            OpeningName::Swap2 => Opening::Swap2,
        }
    }
}

impl From<Opening> for OpeningName {
    fn from(o: Opening) -> OpeningName {
        match o {
            Opening::Free => OpeningName::Free,
            Opening::Pro => OpeningName::Pro,
            Opening::LongPro => OpeningName::LongPro,
            Opening::Swap => OpeningName::Swap,
            Opening::Swap2 => OpeningName::Swap2,
        }
    }
}
