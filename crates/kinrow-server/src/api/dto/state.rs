//! `POST /v1/state`: the position of a request, and the state of a position in an
//! answer. [`AfterDto`] is that state in request shape (`after` of every suggestion and
//! play answer), so that a frontend sends it back as the next request as it is (the
//! answer-only fields `status`, `winner` and `winning_line` are ignored on input).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::forms::{object, AnswerOnly, BoardInput};
use super::position::{CellDto, RulesDto, Side};
use kinrow_game::{Forbidden, Player, Position, Status};

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
    /// The board size, the line length that wins, the variant and the pieces in hand.
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

/// How the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// The side to move has a legal move and nobody has won.
    InProgress,
    /// x has a line.
    XWins,
    /// o has a line.
    OWins,
    /// Nobody has won and no legal move is left.
    Draw,
}

/// Why a cell is forbidden for x: under renju `overline` (six or more in a row),
/// `double_four` (two fours at once, also on one line), `double_three` (two open threes);
/// under pro and long pro `off_centre` (the first stone goes on the centre) and
/// `near_centre` (x's second stone goes at least 3 / 4 cells from the centre).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForbiddenReason {
    /// Six or more in a row.
    Overline,
    /// Two fours at once.
    DoubleFour,
    /// Two open threes at once.
    DoubleThree,
    /// Pro / long pro: x's first stone goes on the centre.
    OffCentre,
    /// Pro / long pro: x's second stone lies too near the centre.
    NearCentre,
}

impl From<Forbidden> for ForbiddenReason {
    fn from(f: Forbidden) -> ForbiddenReason {
        match f {
            Forbidden::Overline => ForbiddenReason::Overline,
            Forbidden::DoubleFour => ForbiddenReason::DoubleFour,
            Forbidden::DoubleThree => ForbiddenReason::DoubleThree,
            Forbidden::OffCentre => ForbiddenReason::OffCentre,
            Forbidden::NearCentre => ForbiddenReason::NearCentre,
        }
    }
}

/// A cell where the side to move may not put a mark, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ForbiddenCell)]
pub struct ForbiddenDto {
    /// Zero-based row.
    #[schema(example = 7)]
    pub row: u32,
    /// Zero-based column.
    #[schema(example = 8)]
    pub col: u32,
    /// What the mark would make.
    pub reason: ForbiddenReason,
}

/// The forbidden cells of the side to move in `p`, in cell order.
fn forbidden_cells(p: &Position) -> Vec<ForbiddenDto> {
    p.forbidden_cells()
        .into_iter()
        .map(|(cell, why)| ForbiddenDto {
            row: (cell / p.m()) as u32,
            col: (cell % p.m()) as u32,
            reason: why.into(),
        })
        .collect()
}

/// How `p` stands: its status, the winner and the winning line.
fn standing(p: &Position) -> (GameStatus, Option<Side>, Option<Vec<CellDto>>) {
    match p.status() {
        Status::InProgress => (GameStatus::InProgress, None, None),
        Status::Draw => (GameStatus::Draw, None, None),
        Status::Won { winner, line } => (
            match winner {
                Player::X => GameStatus::XWins,
                Player::O => GameStatus::OWins,
            },
            Some(winner.into()),
            Some(line.into_iter().map(CellDto::from).collect()),
        ),
    }
}

/// The state of a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StateResponse {
    /// The rules with the pieces each player holds now.
    pub rules: RulesDto,
    /// The board in canonical notation (`.`, `x`, `o`, `#`).
    pub board: Vec<String>,
    /// Whose turn it is (after a win: the side that would move next).
    pub to_move: Side,
    /// Whether the game goes on, and if not, who won or that it is drawn.
    pub status: GameStatus,
    /// The winner, null unless `status` is `x_wins` or `o_wins`.
    pub winner: Option<Side>,
    /// The cells of a winning line, null when nobody has won.
    pub winning_line: Option<Vec<CellDto>>,
    /// Number of legal moves of the side to move (every piece on every target); 0 when the game is over.
    pub legal_moves: u32,
    /// The cells where the side to move may not put a mark, with the reason: under renju
    /// x's forbidden cells; under pro and long pro, x's cells off the centre at the first
    /// stone and too near it at x's second; an empty list in every other case (o to
    /// move, the game over).
    pub forbidden: Vec<ForbiddenDto>,
    /// Under gravity: the cells a stone may drop to, every column's lowest empty cell
    /// (none when the game is over); an empty list without gravity.
    pub playable: Vec<CellDto>,
    /// Under gravity (at most 9 columns): a Connect Four move sequence, 1-based column
    /// digits, that reaches this board from the empty one with nobody winning before its
    /// last stone (`board` or `moves` in a request takes it back): the request's own
    /// order where it gave one (`moves`, or `board` as a sequence), else one found from
    /// the board; null without gravity or where no order of the stones reaches the board.
    #[schema(example = json!("4453"))]
    pub moves: Option<String>,
    /// Swap and swap2: the opening step a board of 0 or 3 stones (or 5 under swap2) is
    /// at, if it is still in its opening phase (the board cannot tell whether a side was
    /// chosen: the client knows), with who decides it; null otherwise.
    pub opening: Option<super::opening_rule::OpeningStateDto>,
}

impl StateResponse {
    /// The state of `p`.
    pub fn new(p: &Position) -> StateResponse {
        let (status, winner, line) = standing(p);
        let legal = if status == GameStatus::InProgress {
            p.legal_moves().len() as u32
        } else {
            0
        };
        StateResponse {
            rules: RulesDto::from(&p.rules()),
            board: p.to_rows(),
            to_move: p.to_move().into(),
            status,
            winner,
            winning_line: line,
            legal_moves: legal,
            forbidden: forbidden_cells(p),
            playable: playable_cells(p, status),
            moves: p.column_digits(),
            opening: super::opening_rule::OpeningStateDto::of(p),
        }
    }
}

/// Under gravity and while the game goes on, the cells a stone may drop to.
fn playable_cells(p: &Position, status: GameStatus) -> Vec<CellDto> {
    if p.gravity() && status == GameStatus::InProgress {
        p.playable_cells().into_iter().map(CellDto::from).collect()
    } else {
        Vec::new()
    }
}

/// The position after the move, in request shape: send it back as the next request's
/// `rules`, `board` and `to_move` (adding `engine` or `move`); `status`, `winner`,
/// `winning_line`, `forbidden` and `playable` are answer-only and ignored there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = After)]
pub struct AfterDto {
    /// The rules with the pieces each player holds now.
    pub rules: RulesDto,
    /// The board in canonical notation (`.`, `x`, `o`, `#`).
    pub board: Vec<String>,
    /// Whose turn it is (after a win: the side that would move next).
    pub to_move: Side,
    /// Whether the game goes on, and if not, who won or that it is drawn.
    pub status: GameStatus,
    /// The winner, null unless `status` is `x_wins` or `o_wins`.
    pub winner: Option<Side>,
    /// The cells of a winning line, null when nobody has won.
    pub winning_line: Option<Vec<CellDto>>,
    /// What a frontend draws next, as `/v1/state` gives it: the cells where the side to
    /// move may not put a mark, with the reason (renju's forbidden cells for x; under pro
    /// and long pro x's cells off the centre or too near it); an empty list otherwise.
    /// Answer-only: ignored when the position is sent back.
    pub forbidden: Vec<ForbiddenDto>,
    /// Under gravity, the cells a stone may drop to (every column's lowest empty cell;
    /// none when the game is over); an empty list without gravity. Answer-only.
    pub playable: Vec<CellDto>,
    /// Under gravity (at most 9 columns): a Connect Four move sequence, 1-based column
    /// digits, that reaches `board` from the empty board with nobody winning before its
    /// last stone. Where the request gave the game's order (`moves`, or `board` as a
    /// sequence) it is that order continued by the move (and the reply); otherwise it is
    /// found from the board, so not always the order the game was played in. Null
    /// without gravity or where no order of the stones reaches the board. Accepted back
    /// as `moves` (checked against `board`) or as `board`.
    #[schema(example = json!("44537"))]
    pub moves: Option<String>,
}

impl AfterDto {
    /// `p` in request shape, with its status and the cells a frontend marks next (not
    /// the count of legal moves or the opening step: `/v1/state` has those).
    pub fn new(p: &Position) -> AfterDto {
        let (status, winner, winning_line) = standing(p);
        AfterDto {
            rules: RulesDto::from(&p.rules()),
            board: p.to_rows(),
            to_move: p.to_move().into(),
            status,
            winner,
            winning_line,
            forbidden: forbidden_cells(p),
            playable: playable_cells(p, status),
            moves: p.column_digits(),
        }
    }
}

impl StateResponse {
    /// `moves` as the order the request gave (see [`super::position::known_order`]),
    /// where it gave one, rather than an order found from the board.
    pub fn in_order(mut self, order: Option<String>) -> StateResponse {
        if order.is_some() {
            self.moves = order;
        }
        self
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
            forbidden: s.forbidden,
            playable: s.playable,
            moves: s.moves,
        }
    }
}
