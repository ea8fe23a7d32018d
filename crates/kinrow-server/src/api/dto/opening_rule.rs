//! The `rules.opening` name of the API and its conversions, and the opening step a
//! board is at (`/v1/state`'s `opening`, `/v1/opening`'s `step`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::forms::string_enum;
use kinrow_game::{Opening, OpeningStep, Position, Role};

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
    /// No opening rule.
    Free,
    /// Pro: first stone on the centre, x's second at least 3 cells away.
    Pro,
    /// Long pro: first stone on the centre, x's second at least 4 cells away.
    LongPro,
    /// Swap: three stones placed, then the second player picks a side.
    Swap,
    /// Swap2: three stones, then a side or two more stones, then a side.
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

/// A step of the opening phase: `place3` (the first player places two x and one o),
/// `choose` (swap: the second player picks x or o), `place2_or_choose` (swap2: the second
/// player picks x or o, or places one more x and one more o), `choose_after_5` (swap2: the
/// first player picks x or o).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepName {
    /// The first player places two x and one o.
    Place3,
    /// Swap: the second player picks x or o.
    Choose,
    /// Swap2: the second player picks x or o, or places one x and one o.
    Place2OrChoose,
    #[serde(rename = "choose_after_5")]
    /// Swap2 after five stones: the first player picks x or o.
    ChooseAfter5,
}

impl From<OpeningStep> for StepName {
    fn from(s: OpeningStep) -> StepName {
        match s {
            OpeningStep::Place3 => StepName::Place3,
            OpeningStep::Choose => StepName::Choose,
            OpeningStep::Place2OrChoose => StepName::Place2OrChoose,
            OpeningStep::ChooseAfter5 => StepName::ChooseAfter5,
        }
    }
}

/// Who takes a decision: `first` (the player who places the first three stones) or
/// `second`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoleName {
    /// The first player (who placed the first three stones).
    First,
    /// The second player.
    Second,
}

impl From<Role> for RoleName {
    fn from(r: Role) -> RoleName {
        match r {
            Role::First => RoleName::First,
            Role::Second => RoleName::Second,
        }
    }
}

/// The opening step a board is at, and who decides it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OpeningStateDto {
    /// The opening step due now.
    pub step: StepName,
    /// Who decides it.
    pub decides: RoleName,
}

impl OpeningStateDto {
    /// Swap / swap2: the step `p` is at when it is in the opening phase (0 stones; 3; 5
    /// under swap2), else `None`.
    pub fn of(p: &Position) -> Option<OpeningStateDto> {
        let step = OpeningStep::of(p).ok()?;
        Some(OpeningStateDto {
            step: step.into(),
            decides: step.decides().into(),
        })
    }
}
