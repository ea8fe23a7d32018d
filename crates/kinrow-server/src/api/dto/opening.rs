//! `POST /v1/opening`: the engine's decision in a swap / swap2 opening phase, and the
//! opening step `/v1/state` reports.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::engine::{EngineParams, LimitsUsed};
use super::forms::{object, AnswerOnly, BoardInput};
use super::opening_rule::{RoleName, StepName};
use super::position::{RulesDto, Side};
use super::state::{GameStatus, StateResponse};
use kinrow_engine::swap::{Decision, OpeningAnswer, Source};
use kinrow_game::{Coord, Player};

/// The opening phase so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 15, \"n\": 15, \"k\": 5, \"opening\": \"swap2\"}}"
)]
pub struct OpeningRequest {
    /// The rules, with `opening` `swap` or `swap2`.
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The stones placed so far in the opening phase: none (the empty board, the default),
    /// three (two x and one o) or, under swap2, five (three x and two o).
    pub board: Option<BoardInput>,
    /// Optional; must agree with the counts (`o` after three or five stones).
    pub to_move: Option<Side>,
    /// The engine that decides (`auto` by default); `level` and `seed` apply, and the
    /// budget (`time_ms`, `nodes`) is shared by every search of the answer.
    pub engine: Option<EngineParams>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub status: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub step: Option<AnswerOnly>,
    /// Answer-only, ignored.
    #[serde(default, skip_serializing_if = "super::forms::never")]
    #[schema(value_type = AnswerOnly)]
    pub decides: Option<AnswerOnly>,
}

/// A stone a decision places.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlacedStone {
    #[schema(example = 7)]
    /// The stone's row, from 0 at the top.
    pub row: u32,
    #[schema(example = 7)]
    /// The stone's column, from 0 at the left.
    pub col: u32,
    /// Whose stone it is.
    pub side: Side,
}

fn stones(list: &[(Coord, Player)]) -> Vec<PlacedStone> {
    list.iter()
        .map(|&(c, p)| PlacedStone {
            row: c.row as u32,
            col: c.col as u32,
            side: p.into(),
        })
        .collect()
}

/// A decision: `place` (the stones placed, each with its side) or `choose` (the side the
/// decider plays from now on); exactly one of the two is present.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DecisionDto {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The stones placed (steps `place3`, and `place2_or_choose` when the engine places two more).
    pub place: Option<Vec<PlacedStone>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The side chosen (the choosing steps).
    pub choose: Option<Side>,
}

impl DecisionDto {
    fn new(d: &Decision) -> DecisionDto {
        match d {
            Decision::Place(list) => DecisionDto {
                place: Some(stones(list)),
                choose: None,
            },
            Decision::Choose(p) => DecisionDto {
                place: None,
                choose: Some((*p).into()),
            },
        }
    }
}

/// What an option does: `place3`, `place2`, `choose_x`, `choose_o`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OptionName {
    /// Place three stones (two x, one o).
    Place3,
    /// Place one more x and one more o (swap2).
    Place2,
    /// Take x.
    ChooseX,
    /// Take o.
    ChooseO,
}

/// One option of the step with the value the engine expects from it for the decider.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OptionDto {
    /// Which option this is.
    pub option: OptionName,
    /// The expected result for the decider, -1 (a loss) to 1 (a win), on the scale of
    /// `/v1/suggest`'s `value`: for a choice, the value of the position for the side
    /// chosen (o moves next); for a placement, minus the absolute value of the position
    /// after it (the opponent then picks the side it likes).
    #[schema(example = -0.04)]
    pub value: f64,
    /// The stones of a placement option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Vec<PlacedStone>>,
    /// True for the option the engine took.
    pub chosen: bool,
}

/// The position after the decision, in request shape: send `rules` and `board` back to
/// `/v1/opening` while `step` is not null, else to `/v1/suggest` or `/v1/play` (the game
/// goes on with o to move). `status`, `step` and `decides` are answer-only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OpeningAfterDto {
    /// The rules, as in the request.
    pub rules: RulesDto,
    /// The board after the decision, in canonical form.
    pub board: Vec<String>,
    /// The side to move on that board.
    pub to_move: Side,
    /// Whether the game goes on.
    pub status: GameStatus,
    /// The next step of the opening, null when the opening is done.
    pub step: Option<StepName>,
    /// Who takes the next step's decision, null when the opening is done.
    pub decides: Option<RoleName>,
}

/// What the answer's searches did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OpeningStatsDto {
    /// Nodes over every search of the answer.
    pub nodes: u64,
    /// Searches run (one per option valued, one per placement candidate).
    pub searches: u32,
    /// Wall-clock time of the whole decision, in milliseconds.
    pub elapsed_ms: f64,
    /// The seed used (the request's, or one the server drew).
    pub seed: u64,
    /// Where a proposed placement came from: `table` (the committed table of balanced
    /// openings: three drawn by the seed, each under a drawn symmetry, the most even by
    /// a new search kept), `search` (random candidates near the centre, the most even
    /// kept); null when nothing was proposed.
    pub source: Option<String>,
    /// The limits the searches ran under.
    pub limits: LimitsUsed,
}

/// The engine's decision for the current step of the opening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OpeningResponse {
    /// The opening step decided.
    pub step: StepName,
    /// Who decided it: the first or the second player.
    pub decides: RoleName,
    /// The engine that decided.
    pub engine: String,
    /// The engine's decision: stones placed or a side chosen.
    pub decision: DecisionDto,
    /// Every option of the step, with its value; the engine took the one `chosen`.
    pub options: Vec<OptionDto>,
    /// The position after the decision, with the next step.
    pub after: OpeningAfterDto,
    /// How the decision was searched.
    pub stats: OpeningStatsDto,
}

impl OpeningResponse {
    /// The answer for `a`, the decision of engine `engine` with `seed` under `limits`.
    pub fn new(a: &OpeningAnswer, engine: &str, seed: u64, limits: LimitsUsed) -> OpeningResponse {
        let options = a
            .options
            .iter()
            .map(|o| {
                let (option, place) = match &o.decision {
                    Decision::Choose(Player::X) => (OptionName::ChooseX, None),
                    Decision::Choose(Player::O) => (OptionName::ChooseO, None),
                    Decision::Place(list) if list.len() == 3 => {
                        (OptionName::Place3, Some(stones(list)))
                    }
                    Decision::Place(list) => (OptionName::Place2, Some(stones(list))),
                };
                OptionDto {
                    option,
                    value: o.value,
                    place,
                    chosen: o.decision == a.decision,
                }
            })
            .collect();
        let state = StateResponse::new(&a.after);
        OpeningResponse {
            step: a.step.into(),
            decides: a.decides.into(),
            engine: engine.to_string(),
            decision: DecisionDto::new(&a.decision),
            options,
            after: OpeningAfterDto {
                rules: state.rules,
                board: state.board,
                to_move: state.to_move,
                status: state.status,
                step: a.next.map(StepName::from),
                decides: a.next.map(|s| s.decides().into()),
            },
            stats: OpeningStatsDto {
                nodes: a.nodes,
                searches: a.searches,
                elapsed_ms: a.elapsed.as_secs_f64() * 1000.0,
                seed,
                source: match a.source {
                    Source::None => None,
                    Source::Table => Some("table".into()),
                    Source::Search => Some("search".into()),
                },
                limits,
            },
        }
    }
}
