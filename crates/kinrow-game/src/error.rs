//! The one error type of the rules core: what is wrong, and where.

use thiserror::Error;

/// The kind of problem, matching the stable error codes of the API.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameErrorKind {
    /// The rules themselves are impossible (`m = 0`, `k = 0`, a count over 64...).
    InvalidRules,
    /// The board does not fit the rules or its notation is broken.
    InvalidBoard,
    /// The side to move is missing, or contradicts the board.
    InconsistentTurn,
    /// The game is already decided; no move can be made or suggested.
    GameOver,
    /// The move is not legal in this position.
    IllegalMove,
    /// The move is a renju forbidden move for x (overline, double four, double three).
    ForbiddenMove,
}

impl GameErrorKind {
    /// The stable `snake_case` code of this kind, as listed in the API contract.
    pub fn code(self) -> &'static str {
        match self {
            GameErrorKind::InvalidRules => "invalid_rules",
            GameErrorKind::InvalidBoard => "invalid_board",
            GameErrorKind::InconsistentTurn => "inconsistent_turn",
            GameErrorKind::GameOver => "game_over",
            GameErrorKind::IllegalMove => "illegal_move",
            GameErrorKind::ForbiddenMove => "forbidden_move",
        }
    }
}

/// A rejected rule set, board, turn or move, with the place that is wrong
/// (`rules.k`, `board[3]`, `to_move`, `move.piece`) and a sentence saying why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct GameError {
    /// What is wrong, as one of the API's stable codes.
    pub kind: GameErrorKind,
    /// Where: the request field at fault (`rules.k`, `board[3]`, `move.row`).
    pub field: String,
    /// Why, in a sentence.
    pub message: String,
}

impl GameError {
    /// An error of `kind` at `field`, saying `message`.
    pub fn new(kind: GameErrorKind, field: impl Into<String>, message: impl Into<String>) -> Self {
        GameError {
            kind,
            field: field.into(),
            message: message.into(),
        }
    }

    pub(crate) fn rules(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(GameErrorKind::InvalidRules, field, message)
    }

    pub(crate) fn board(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(GameErrorKind::InvalidBoard, field, message)
    }

    pub(crate) fn turn(message: impl Into<String>) -> Self {
        Self::new(GameErrorKind::InconsistentTurn, "to_move", message)
    }

    pub(crate) fn illegal(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(GameErrorKind::IllegalMove, field, message)
    }
}
