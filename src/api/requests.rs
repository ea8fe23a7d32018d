//! The request bodies: a position (`/v1/state`), a position and an engine (`/v1/suggest`),
//! a position, a move and an optional reply (`/v1/play`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::EngineParams;
use super::forms::{object, AnswerOnly, BoardInput, IncludeName};
use super::position::{MoveRequest, RulesDto, Side};

// ----- requests -----

// Every request ignores the answer-only fields an earlier answer carries (`status`,
// `winner`, `winning_line`, `legal_moves`, `forbidden`), so that an answer's `after` (or a
// `/v1/state` answer) can be sent back as it is; any other unknown field is refused, so
// that a typo (`"to_mvoe"`) is an error rather than a silently ignored field.

/// A position: rules, board and (optionally) the side to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"board\": [\"x..\", \".o.\", \"...\"]}"
)]
pub struct StateRequest {
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The empty board when omitted.
    pub board: Option<BoardInput>,
    /// Whose turn it is. Without special pieces it follows from the counts (`x` when equal,
    /// `o` when `x` has one more) and a given value must agree; with special pieces in play it is required.
    pub to_move: Option<Side>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub status: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub winner: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub winning_line: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub legal_moves: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub forbidden: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub playable: Option<AnswerOnly>,
}

/// A position and the engine to analyse it with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"board\": [\"x..\", \".o.\", \"...\"]}"
)]
pub struct SuggestRequest {
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The empty board when omitted.
    pub board: Option<BoardInput>,
    /// As in `StateRequest`.
    pub to_move: Option<Side>,
    /// The engine and its limits, or just its name; the default engine with the default
    /// budget when omitted.
    #[serde(default, deserialize_with = "super::forms::engine")]
    #[schema(schema_with = super::forms::engine_schema)]
    pub engine: Option<EngineParams>,
    /// The parts of the answer to send (`move` always comes); all of them when omitted.
    /// `["move", "evaluation", "pv"]` drops the board-sized `scores` and `moves`.
    #[schema(example = json!(["move", "evaluation", "pv", "after"]))]
    pub include: Option<Vec<IncludeName>>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub status: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub winner: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub winning_line: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub legal_moves: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub forbidden: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub playable: Option<AnswerOnly>,
}

/// A position, a move to play on it and, optionally, the engine that replies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"board\": [\"x..\", \"...\", \"...\"], \"move\": {\"row\": 1, \"col\": 1}}"
)]
pub struct PlayRequest {
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The empty board when omitted.
    pub board: Option<BoardInput>,
    /// As in `StateRequest`.
    pub to_move: Option<Side>,
    #[serde(rename = "move", deserialize_with = "object")]
    pub mv: MoveRequest,
    /// The engine that answers the move, or just its name: when given and the game goes
    /// on, the engine's reply is played too and the answer carries its whole suggestion
    /// (`reply`). One request per human turn.
    #[serde(default, deserialize_with = "super::forms::engine")]
    #[schema(schema_with = super::forms::reply_schema)]
    pub reply: Option<EngineParams>,
    /// As in `SuggestRequest`, for the `reply` suggestion.
    pub include: Option<Vec<IncludeName>>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub status: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub winner: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub winning_line: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub legal_moves: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub forbidden: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub playable: Option<AnswerOnly>,
}
