//! `POST /v1/play`: a position, a move and an optional reply; the position after them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::engine::EngineParams;
use super::forms::{object, AnswerOnly, BoardInput, IncludeName};
use super::position::{CellDto, MoveDto, MoveRequest, RulesDto, Side};
use super::state::{AfterDto, ForbiddenDto, GameStatus, StateResponse};
use super::suggest::SuggestResponse;

// As in `StateRequest`, the answer-only fields are ignored and any other unknown field
// is refused.

/// A position, a move to play on it and, optionally, the engine that replies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"board\": [\"x..\", \"...\", \"...\"], \"move\": {\"row\": 1, \"col\": 1}}"
)]
pub struct PlayRequest {
    /// The board size, the line length that wins, the variant and the pieces in hand.
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The empty board when omitted.
    pub board: Option<BoardInput>,
    /// As in `StateRequest`.
    pub to_move: Option<Side>,
    /// The move to play for the side to move.
    #[serde(rename = "move", deserialize_with = "object")]
    pub mv: MoveRequest,
    /// The engine that answers the move, or just its name: when given and the game goes
    /// on, the engine's reply is played too and the answer carries its whole suggestion
    /// (`reply`). One request per human turn.
    #[serde(default, deserialize_with = "super::engine::params")]
    #[schema(schema_with = super::engine::reply_schema)]
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
    /// Under gravity, the position as a Connect Four move sequence (`"4453"`, as an
    /// answer's `after.moves` gives it): without `board` it is the position; with one it
    /// must reach the same board (422 naming `moves` otherwise). Answers continue this
    /// order (`after.moves`) rather than one found from the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub moves: Option<String>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub opening: Option<AnswerOnly>,
}
/// The position after a move (and after the engine's reply, when the request asked for one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayResponse {
    /// The move that was played (the request's `move`).
    #[serde(rename = "move")]
    pub mv: MoveDto,
    /// The rules with the decremented `pieces` after `move` (before any reply).
    pub rules: RulesDto,
    /// The board after `move` (before any reply), in canonical notation.
    pub board: Vec<String>,
    /// Whose turn it is after `move`.
    pub to_move: Side,
    /// Whether the game goes on, and if not, who won or that it is drawn.
    pub status: GameStatus,
    /// The winner, null unless `status` is `x_wins` or `o_wins`.
    pub winner: Option<Side>,
    /// The cells of a winning line, null when nobody has won.
    pub winning_line: Option<Vec<CellDto>>,
    /// Number of legal moves of the side to move; 0 when the game is over.
    pub legal_moves: u32,
    /// The forbidden cells of the side to move after `move` (renju, x to move), as in
    /// `/v1/state`; empty otherwise.
    pub forbidden: Vec<ForbiddenDto>,
    /// Under gravity, the landing cells of the side to move after `move`, as in
    /// `/v1/state`; empty otherwise.
    pub playable: Vec<CellDto>,
    /// Under gravity (at most 9 columns), the move sequence after `move` (before any
    /// reply), as `after.moves`: the request's order continued by `move` where the
    /// request gave one, else found from the board; null without gravity.
    #[schema(example = json!("44537"))]
    pub moves: Option<String>,
    /// The engine's whole suggestion for the position after `move` (its `move` is the reply
    /// that was played; trimmed by `include`); null when the request has no `reply` or
    /// `move` ended the game.
    #[schema(value_type = Option<SuggestResponse>)]
    pub reply: Option<serde_json::Value>,
    /// The position to send back with the next request: after the reply when there is one,
    /// else after `move`.
    pub after: AfterDto,
}

impl PlayResponse {
    /// The answer without a reply: `after` is the position after `mv`.
    pub fn new(mv: MoveDto, state: StateResponse) -> PlayResponse {
        PlayResponse {
            reply: None,
            after: AfterDto::from(state.clone()),
            mv,
            rules: state.rules,
            board: state.board,
            to_move: state.to_move,
            status: state.status,
            winner: state.winner,
            winning_line: state.winning_line,
            legal_moves: state.legal_moves,
            forbidden: state.forbidden,
            playable: state.playable,
            moves: state.moves,
        }
    }
}
