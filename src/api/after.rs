//! `after`: the position after a move in the shape of a request, so that a frontend sends
//! it back as the next request as it is (the answer-only fields `status`, `winner` and
//! `winning_line` are ignored on input).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::{CellDto, GameStatus, RulesDto, Side, StateResponse};
use crate::game::Position;

/// The position after the move, in request shape: send it back as the next request's
/// `rules`, `board` and `to_move` (adding `engine` or `move`); `status`, `winner` and
/// `winning_line` are answer-only and ignored there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = After)]
pub struct AfterDto {
    /// The rules with the pieces each player holds now.
    pub rules: RulesDto,
    /// The board in canonical notation (`.`, `x`, `o`, `#`).
    pub board: Vec<String>,
    /// Whose turn it is (after a win: the side that would move next).
    pub to_move: Side,
    pub status: GameStatus,
    /// The winner, null unless `status` is `x_wins` or `o_wins`.
    pub winner: Option<Side>,
    /// The cells of a winning line, null when nobody has won.
    pub winning_line: Option<Vec<CellDto>>,
}

impl AfterDto {
    /// `p` in request shape, with its status.
    pub fn new(p: &Position) -> AfterDto {
        AfterDto::from(StateResponse::new(p))
    }
}

impl From<StateResponse> for AfterDto {
    fn from(s: StateResponse) -> AfterDto {
        AfterDto {
            rules: s.rules,
            board: s.board,
            to_move: s.to_move,
            status: s.status,
            winner: s.winner,
            winning_line: s.winning_line,
        }
    }
}
