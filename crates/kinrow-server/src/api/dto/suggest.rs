//! `POST /v1/suggest` (and `/v1/analyse`'s result): the request, and the answer with its
//! conversions from the engine's types.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::engine::{EngineParams, LimitsUsed};
use super::forms::{object, AnswerOnly, BoardInput, IncludeName};
use super::position::{MoveDto, PieceName, RulesDto, Side};
use super::state::AfterDto;
use kinrow_engine::value::Values;
use kinrow_engine::SearchPlan;
use kinrow_engine::{Action, Analysis, Bound, Evaluation, MoveEval, Outcome};
use kinrow_game::Position;

// As in `StateRequest`, the answer-only fields are ignored and any other unknown field
// is refused.

/// A position and the engine to analyse it with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"board\": [\"x..\", \".o.\", \"...\"]}"
)]
pub struct SuggestRequest {
    /// The board size, the line length that wins, the variant and the pieces in hand.
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The empty board when omitted.
    pub board: Option<BoardInput>,
    /// As in `StateRequest`.
    pub to_move: Option<Side>,
    /// The engine and its limits, or just its name; the default engine with the default
    /// budget when omitted.
    #[serde(default, deserialize_with = "super::engine::params")]
    #[schema(schema_with = super::engine::params_schema)]
    pub engine: Option<EngineParams>,
    /// The parts of the answer to send (`move` always comes); all of them when omitted.
    /// `["move", "evaluation", "pv"]` drops the board-sized `scores` and `moves`; an
    /// answer without both also searches better: `auto` then spends its whole budget
    /// on the move instead of keeping a share for valuing every cell.
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

/// What a move's `value` is when it is not the move's value at its `depth`: only a bound
/// of it (a move refuted by the null window of a principal-variation search is known to
/// be no better than its value, not by how much).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BoundName {
    /// The move's value at its depth is at most `value`.
    Upper,
    /// The move's value at its depth is at least `value`.
    Lower,
}

impl BoundName {
    fn of(b: Bound) -> Option<BoundName> {
        match b {
            Bound::Exact => None,
            Bound::Upper => Some(BoundName::Upper),
            Bound::Lower => Some(BoundName::Lower),
        }
    }
}

/// A proven result for the side to move, or `unknown`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeName {
    /// The side to move wins with best play.
    Win,
    /// Best play draws.
    Draw,
    /// The side to move loses against best play.
    Loss,
    /// Not proven.
    Unknown,
}

impl From<Outcome> for OutcomeName {
    fn from(o: Outcome) -> OutcomeName {
        match o {
            Outcome::Win => OutcomeName::Win,
            Outcome::Draw => OutcomeName::Draw,
            Outcome::Loss => OutcomeName::Loss,
            Outcome::Unknown => OutcomeName::Unknown,
        }
    }
}

/// The `priority` engine's action: `basic` (own mark), `prevent` (disturb the opponent),
/// `destroy` (remove or bomb an opponent piece).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ActionName {
    /// Its own mark.
    Basic,
    /// A piece that disturbs the opponent's line.
    Prevent,
    /// A remove or bomb on the opponent's pieces.
    Destroy,
}

impl From<Action> for ActionName {
    fn from(a: Action) -> ActionName {
        match a {
            Action::Basic => ActionName::Basic,
            Action::Prevent => ActionName::Prevent,
            Action::Destroy => ActionName::Destroy,
        }
    }
}

/// JSON has no infinity: scores are clamped to finite numbers.
fn finite(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(f64::MIN, f64::MAX)
    }
}

/// The value of a move or position for the side to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Evaluation)]
pub struct EvaluationDto {
    /// The expected result for the side to move, the same scale for every engine: 1 a win,
    /// 0 a draw or an even position, -1 a loss. Exactly 1, 0 or -1 where `outcome` is
    /// proven; elsewhere a calibrated mapping of `raw`, strictly between -0.99 and 0.99.
    #[schema(minimum = -1.0, maximum = 1.0, example = 0.21)]
    pub value: f64,
    /// The proven result for the side to move, or `unknown`.
    pub outcome: OutcomeName,
    /// Plies to the end of the game where the outcome is proven, else null.
    pub plies: Option<u32>,
    /// The engine's own score, higher is better for the side to move, in the unit that
    /// `raw_unit` of `GET /v1/engines` names; null where the engine's score is no number
    /// of that unit (a search value near a win that is no proof).
    #[schema(example = 35.0)]
    pub raw: Option<f64>,
}

impl EvaluationDto {
    fn new(e: &Evaluation, value: f64, raw: Option<f64>) -> EvaluationDto {
        EvaluationDto {
            value,
            outcome: e.outcome.into(),
            plies: e.plies,
            raw: raw.map(finite),
        }
    }
}

/// One evaluated move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MoveEval)]
pub struct MoveEvalDto {
    /// Zero-based row.
    pub row: u32,
    /// Zero-based column.
    pub col: u32,
    /// What is played there.
    pub piece: PieceName,
    /// As in `evaluation.value`: the expected result for the side to move in [-1, 1];
    /// null when the engine did not search this move (`evaluated` false).
    #[schema(minimum = -1.0, maximum = 1.0, example = 0.21)]
    pub value: Option<f64>,
    /// False for a move the engine listed without searching it (its place comes from the
    /// move ordering alone): its `value` is null and its cell in `scores` too.
    pub evaluated: bool,
    /// The plies the move's value was searched to, the move included (1: the move and
    /// the engine's threat checks after it; a proof: the plies to its end); null where
    /// not evaluated.
    #[schema(minimum = 1, example = 6)]
    pub depth: Option<u32>,
    /// Null where `value` is the move's value at `depth`; `upper` or `lower` where it is
    /// only a bound of it. `upper` is an estimate the chosen move outranks: a move a
    /// null-window search refuted, or a shallower estimate that read higher than the
    /// chosen move's value and is shown clamped to it (the main search did not prefer
    /// it), so no value in `moves` or `scores` exceeds the chosen move's unless proven
    /// better. The demo draws a bound as such.
    #[schema(example = json!(null))]
    pub bound: Option<BoundName>,
    /// As in `evaluation.raw`: the engine's own score (for a move not evaluated, only its
    /// rank in the move ordering, below every evaluated move); null where it is no
    /// number of the engine's unit.
    pub raw: Option<f64>,
    /// The proven result of the move for the side to move, or `unknown`.
    pub outcome: OutcomeName,
    /// Plies to the end where proven, else null.
    pub plies: Option<u32>,
    /// Null where `plies` is exact (or null); `upper` where the outcome is proven but
    /// `plies` only bounds the distance (a loss to the opponent's continuous fours: it
    /// comes in at most `plies`).
    #[schema(example = json!(null))]
    pub plies_bound: Option<BoundName>,
    /// The `priority` engine's action; null for the other engines.
    pub action: Option<ActionName>,
    /// Below full strength (`level` under 10, or mistakes), true on the move the engine
    /// played when it is not the best: `moves` stays best first; absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub played: bool,
    /// With `engine.multipv` N > 1, for the first N moves: the principal variation that
    /// starts with this move; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<MoveDto>>,
}

impl MoveEvalDto {
    fn new(e: &MoveEval, value: f64, m: usize, raw: Option<f64>, plies: Bound) -> MoveEvalDto {
        let mv = MoveDto::new(e.mv, m);
        MoveEvalDto {
            row: mv.row,
            col: mv.col,
            piece: mv.piece,
            value: e.evaluated.then_some(value),
            evaluated: e.evaluated,
            depth: e.evaluated.then_some(e.depth),
            // A proven outcome's value is exact (1, 0 or -1) even where its score, which
            // counts the plies, is only a bound: that is `plies_bound`'s to say.
            bound: BoundName::of(e.bound)
                .filter(|_| e.evaluated && e.eval.outcome == Outcome::Unknown),
            raw: raw.map(finite),
            outcome: e.eval.outcome.into(),
            plies: e.eval.plies,
            plies_bound: BoundName::of(plies).filter(|_| e.eval.plies.is_some()),
            action: e.action.map(ActionName::from),
            played: false,
            pv: None,
        }
    }
}

/// What the search did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Stats)]
pub struct StatsDto {
    /// Positions visited (playouts for `mcts`); 0 when `perfect` answered a small board's
    /// position from its table of positions it solved before.
    pub nodes: u64,
    /// Deepest completed depth in plies (1 for one-ply engines).
    pub depth: u32,
    /// Time the engine took, in milliseconds.
    pub elapsed_ms: f64,
    /// Time the request waited for a free search slot, in milliseconds (deducted from the budget).
    pub queued_ms: f64,
    /// True when the search finished rather than hit a limit.
    pub complete: bool,
    /// Why the server answered before the engine returned: `deadline` when the search
    /// was still running as the answer fell due (its budget plus half the margin, on a
    /// busy machine) and the answer is its last completed iteration (`complete` is then
    /// false; `moves` still lists every legal move: those the iteration valued, with
    /// their depth and bound, and the rest `evaluated: false`); null when the engine
    /// returned by itself.
    #[schema(example = json!(null))]
    pub stopped: Option<String>,
    /// The seed of the engine's random choices: the request's, or the one the server drew.
    pub seed: u64,
    /// Which path a composite engine (`auto`) took, e.g. `perfect`; null for the others.
    pub path: Option<String>,
    /// The threads the search ran on: more than 1 only where `auto`'s pattern search ran
    /// on several (`engine.threads`); 1 for every other engine and path.
    #[schema(minimum = 1, example = 1)]
    pub threads: u32,
}

/// An engine's suggestion for a position. `move` always comes; every other field comes
/// unless the request's `include` leaves it out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SuggestResponse {
    /// The chosen move.
    #[serde(rename = "move")]
    pub mv: MoveDto,
    /// The side the suggestion is for.
    #[schema(required = false)]
    pub to_move: Side,
    /// The engine that answered.
    #[schema(required = false)]
    pub engine: String,
    /// The value of the position for the side to move (that of the chosen move).
    #[schema(required = false)]
    pub evaluation: EvaluationDto,
    /// The board's shape (`scores[row][col]`): the best `value` of any evaluated move in
    /// `moves` that targets the cell (the expected result for the side to move, -1 to 1),
    /// null where no legal move targets it or the engine searched none of them (`moves`
    /// lists those with `evaluated: false`).
    #[schema(required = false)]
    pub scores: Vec<Vec<Option<f64>>>,
    /// Every evaluated move, best first.
    #[schema(required = false)]
    pub moves: Vec<MoveEvalDto>,
    /// The principal variation, starting with `move`.
    #[schema(required = false)]
    pub pv: Vec<MoveDto>,
    /// The position after `move`, in request shape: send it back as the next request.
    #[schema(required = false)]
    pub after: AfterDto,
    /// What the search did.
    #[schema(required = false)]
    pub stats: StatsDto,
    /// The limits the search ran with.
    #[schema(required = false)]
    pub limits: LimitsUsed,
}

impl SuggestResponse {
    /// `after.moves` as the game's own order continued by the chosen move, where the
    /// request gave that order (`moves`, or `board` as a move sequence); otherwise it
    /// stays the order found from the board.
    pub fn continue_order(&mut self, order: Option<&str>) {
        if let Some(moves) = super::position::continued_order(order, &self.mv) {
            self.after.moves = Some(moves);
        }
    }

    /// The answer for `analysis` of `position` by `engine`.
    pub fn new(
        position: &Position,
        plan: &SearchPlan,
        analysis: &Analysis,
        stats_extra: (f64, u64),
        limits: LimitsUsed,
    ) -> SuggestResponse {
        let m = position.m();
        let mut analysis = analysis.clone();
        let values: Values = plan.values(position, &mut analysis);
        let analysis = &analysis;
        let scores = values.grid(analysis, m, position.n());
        let (queued_ms, seed) = stats_extra;
        let mut next = position.clone();
        next.play(analysis.best);
        SuggestResponse {
            mv: MoveDto::new(analysis.best, m),
            to_move: position.to_move().into(),
            engine: plan.name().to_string(),
            evaluation: EvaluationDto::new(
                &analysis.evaluation,
                values.evaluation,
                values.evaluation_raw,
            ),
            scores,
            moves: analysis
                .moves
                .iter()
                .zip(&values.moves)
                .enumerate()
                .map(|(i, (e, &v))| MoveEvalDto {
                    pv: analysis
                        .lines
                        .iter()
                        .find(|line| line.first() == Some(&e.mv))
                        .map(|line| line.iter().map(|&mv| MoveDto::new(mv, m)).collect()),
                    played: values.played == Some(i),
                    ..MoveEvalDto::new(
                        e,
                        v,
                        m,
                        values.raw.get(i).copied().flatten(),
                        values.plies_bound.get(i).copied().unwrap_or_default(),
                    )
                })
                .collect(),
            pv: analysis.pv.iter().map(|&mv| MoveDto::new(mv, m)).collect(),
            after: AfterDto::new(&next),
            stats: StatsDto {
                nodes: analysis.stats.nodes,
                // The chosen move's depth where it has one (a proof reads to its end).
                depth: analysis
                    .moves
                    .iter()
                    .find(|e| e.mv == analysis.best && e.evaluated)
                    .map_or(analysis.stats.depth, |e| e.depth),
                elapsed_ms: analysis.stats.elapsed.as_secs_f64() * 1000.0,
                queued_ms,
                complete: analysis.stats.complete,
                stopped: None,
                seed,
                path: analysis.stats.path.as_ref().map(ToString::to_string),
                threads: analysis.stats.threads.max(1),
            },
            limits,
        }
    }
}
