//! The engine parameters and the answer bodies of the API (serde + utoipa), and their
//! conversions from the engine's types. The pieces of positions are in `position.rs`,
//! the request bodies in `requests.rs`; both are re-exported here.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::after::AfterDto;
use super::position::int;
pub use super::position::{
    position, CellDto, HandDto, MoveDto, MoveRequest, PieceName, PiecesDto, RulesDto, Side,
};
pub use super::requests::{PlayRequest, StateRequest, SuggestRequest};
use crate::engine::value::{self, Values};
use crate::engine::{Action, Analysis, EngineKind, Evaluation, MoveEval, Outcome};
use crate::game::{Forbidden, Player, Position, Status};

// ----- engines -----

/// The name of an engine of the registry (`GET /v1/engines` lists them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EngineName(pub String);

impl PartialSchema for EngineName {
    fn schema() -> RefOr<Schema> {
        let names: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
        let mut b = ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "An engine of the registry; see `GET /v1/engines` for what each does.",
            ));
        if !names.is_empty() {
            b = b.enum_values(Some(names));
        }
        RefOr::T(Schema::Object(b.build()))
    }
}

impl ToSchema for EngineName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("EngineName")
    }
}

/// The default engine: `auto` when it exists, otherwise the first of the registry.
pub fn default_engine() -> Option<EngineKind> {
    EngineKind::parse("auto").or_else(|| EngineKind::ALL.first().copied())
}

/// The engine and its limits; every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "minimax", "level": 10, "depth": 6, "time_ms": 300, "seed": 42}))]
pub struct EngineParams {
    /// The engine; the server's default (`auto` when present) when omitted.
    pub name: Option<EngineName>,
    /// The difficulty, 1 (weakest) to 10 (full strength, the default), for every engine.
    /// Below 10 the search gets a smaller node budget (a quarter per level) and some
    /// moves are careless ones (a random move near the pieces: 7% at level 9 up to 70%
    /// at level 1). Each level beats the one two below it (docs/strength.md).
    #[schema(minimum = 1, maximum = 10, example = 10)]
    #[serde(default, deserialize_with = "int::optional")]
    pub level: Option<i64>,
    /// Maximum search depth in plies (1 to 4096), for the engines that search a tree.
    /// No limit but time when omitted.
    #[schema(minimum = 1, maximum = 4096, example = 6)]
    #[serde(default, deserialize_with = "int::optional")]
    pub depth: Option<i64>,
    /// Wall-clock budget in milliseconds, at least 1. Defaults to the server's
    /// `KINROW_DEFAULT_TIME_MS` (1000) and is cut to `KINROW_MAX_TIME_MS` (10000);
    /// `limits.time_ms` in the answer says what was used.
    #[schema(minimum = 1, example = 300)]
    #[serde(default, deserialize_with = "int::optional")]
    pub time_ms: Option<i64>,
    /// Maximum nodes (positions visited; playouts for `mcts`), 1 to 10^10. No limit but time when omitted.
    #[schema(minimum = 1, maximum = 10_000_000_000i64, example = 1_000_000)]
    #[serde(default, deserialize_with = "int::optional")]
    pub nodes: Option<i64>,
    /// The probability, 0 to 1, of overlooking each branch, so that people can beat the
    /// engine. Default 0. `perfect` overlooks branches at every node of its search; the
    /// one-ply engines (`threat`, `priority`, `greedy`) overlook each root move (and play
    /// the best one they did not overlook). The other engines cannot honour it and answer
    /// 422 `invalid_limits` for a value above 0 (use `level` for a weaker engine).
    #[schema(minimum = 0.0, maximum = 1.0, example = 0.0)]
    pub mistake_probability: Option<f64>,
    /// Makes the answer reproducible: the same request with the same seed gives the same
    /// answer. Without one the server draws a seed (below 2^53) and reports it in `stats.seed`.
    #[schema(minimum = 0, example = 42)]
    #[serde(default, deserialize_with = "int::optional")]
    pub seed: Option<i64>,
    /// The number of best moves, 1 to 10 (default 1), that come with exact values and
    /// each with its own principal variation (`moves[i].pv` for the first N of `moves`).
    /// The tree searches (`auto`, `minimax`, `perfect`, `mcts`) search for the N best
    /// (which costs some depth); the one-ply engines (`threat`, `priority`, `greedy`)
    /// give their N best moves with a line of one move. `/v1/analyse` streams the N best
    /// as `lines`.
    #[schema(minimum = 1, maximum = 10, example = 1)]
    #[serde(default, deserialize_with = "int::optional")]
    pub multipv: Option<i64>,
    /// Threads of `auto`'s pattern search (Lazy SMP: the threads share one transposition
    /// table; the main thread's answer is the result), at least 1 (default 1). Cut to
    /// the server's `KINROW_MAX_THREADS` (1 by default); `limits.threads` in the answer
    /// says what was allowed and `stats.threads` what ran. A `nodes` limit is a total
    /// for all threads. The other engines and `auto`'s other paths run on one thread.
    /// With more than one thread the threads' timing shapes the search: the same `seed`
    /// and `nodes` limit no longer promise the same answer.
    #[schema(minimum = 1, example = 1)]
    #[serde(default, deserialize_with = "int::optional")]
    pub threads: Option<i64>,
}

// ----- answers -----

/// How the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    InProgress,
    XWins,
    OWins,
    Draw,
}

/// Why a cell is forbidden for x under renju: `overline` (six or more in a row),
/// `double_four` (two fours at once, also on one line), `double_three` (two open threes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForbiddenReason {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl From<Forbidden> for ForbiddenReason {
    fn from(f: Forbidden) -> ForbiddenReason {
        match f {
            Forbidden::Overline => ForbiddenReason::Overline,
            Forbidden::DoubleFour => ForbiddenReason::DoubleFour,
            Forbidden::DoubleThree => ForbiddenReason::DoubleThree,
        }
    }
}

/// A cell where the side to move may not put a mark, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ForbiddenCell)]
pub struct ForbiddenDto {
    #[schema(example = 7)]
    pub row: u32,
    #[schema(example = 8)]
    pub col: u32,
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

/// The state of a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StateResponse {
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
    /// Number of legal moves of the side to move (every piece on every target); 0 when the game is over.
    pub legal_moves: u32,
    /// The cells where the side to move may not put a mark: under renju, x's forbidden
    /// cells with the reason; an empty list in every other case (o to move, other
    /// variants, the game over).
    pub forbidden: Vec<ForbiddenDto>,
    /// Under gravity: the cells a stone may drop to, every column's lowest empty cell
    /// (none when the game is over); an empty list without gravity.
    pub playable: Vec<CellDto>,
}

impl StateResponse {
    pub fn new(p: &Position) -> StateResponse {
        let (status, winner, line) = match p.status() {
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
        };
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
            playable: if p.gravity() && status == GameStatus::InProgress {
                p.playable_cells().into_iter().map(CellDto::from).collect()
            } else {
                Vec::new()
            },
        }
    }
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
        }
    }
}

/// A proven result for the side to move, or `unknown`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeName {
    Win,
    Draw,
    Loss,
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
    Basic,
    Prevent,
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
    pub outcome: OutcomeName,
    /// Plies to the end of the game where the outcome is proven, else null.
    pub plies: Option<u32>,
    /// The engine's own score, higher is better for the side to move, in the unit that
    /// `raw_unit` of `GET /v1/engines` names.
    #[schema(example = 35.0)]
    pub raw: f64,
}

impl EvaluationDto {
    fn new(e: &Evaluation, value: f64) -> EvaluationDto {
        EvaluationDto {
            value,
            outcome: e.outcome.into(),
            plies: e.plies,
            raw: finite(e.score),
        }
    }
}

/// One evaluated move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MoveEval)]
pub struct MoveEvalDto {
    pub row: u32,
    pub col: u32,
    pub piece: PieceName,
    /// As in `evaluation.value`: the expected result for the side to move in [-1, 1].
    #[schema(minimum = -1.0, maximum = 1.0, example = 0.21)]
    pub value: f64,
    /// As in `evaluation.raw`: the engine's own score.
    pub raw: f64,
    pub outcome: OutcomeName,
    /// Plies to the end where proven, else null.
    pub plies: Option<u32>,
    /// The `priority` engine's action; null for the other engines.
    pub action: Option<ActionName>,
    /// With `engine.multipv` N > 1, for the first N moves: the principal variation that
    /// starts with this move; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<MoveDto>>,
}

impl MoveEvalDto {
    fn new(e: &MoveEval, value: f64, m: usize) -> MoveEvalDto {
        let mv = MoveDto::new(e.mv, m);
        MoveEvalDto {
            row: mv.row,
            col: mv.col,
            piece: mv.piece,
            value,
            raw: finite(e.eval.score),
            outcome: e.eval.outcome.into(),
            plies: e.eval.plies,
            action: e.action.map(ActionName::from),
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
    /// The seed of the engine's random choices: the request's, or the one the server drew.
    pub seed: u64,
    /// Which path a composite engine (`auto`) took, e.g. `perfect`; null for the others.
    pub path: Option<String>,
    /// The threads the search ran on: more than 1 only where `auto`'s pattern search ran
    /// on several (`engine.threads`); 1 for every other engine and path.
    #[schema(minimum = 1, example = 1)]
    pub threads: u32,
}

/// The limits the search actually ran with (after defaults and caps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LimitsUsed {
    /// The time budget given to the engine, in milliseconds: the request's (or the default),
    /// capped by the server, less the time spent waiting for a slot.
    pub time_ms: u64,
    /// The depth limit, null when none.
    pub depth: Option<u32>,
    /// The node limit, null when none.
    pub nodes: Option<u64>,
    pub mistake_probability: f64,
    /// The difficulty the engine played at (10: full strength).
    pub level: u8,
    /// The threads allowed: `engine.threads` (default 1) cut to the server's
    /// `KINROW_MAX_THREADS`.
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
    /// The board's shape (`scores[row][col]`): the best `value` of any move in `moves` that
    /// targets the cell (the expected result for the side to move, -1 to 1), null where no
    /// legal move targets it.
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
    #[schema(required = false)]
    pub stats: StatsDto,
    #[schema(required = false)]
    pub limits: LimitsUsed,
}

impl SuggestResponse {
    /// The answer for `analysis` of `position` by `engine`.
    pub fn new(
        position: &Position,
        engine: EngineKind,
        analysis: &Analysis,
        stats_extra: (f64, u64),
        limits: LimitsUsed,
    ) -> SuggestResponse {
        let m = position.m();
        let mut analysis = analysis.clone();
        let values: Values = value::values(engine, position, &mut analysis);
        let analysis = &analysis;
        let scores = values.grid(analysis, m, position.n());
        let (queued_ms, seed) = stats_extra;
        let mut next = position.clone();
        next.play(analysis.best);
        SuggestResponse {
            mv: MoveDto::new(analysis.best, m),
            to_move: position.to_move().into(),
            engine: engine.name().to_string(),
            evaluation: EvaluationDto::new(&analysis.evaluation, values.evaluation),
            scores,
            moves: analysis
                .moves
                .iter()
                .zip(&values.moves)
                .map(|(e, &v)| MoveEvalDto {
                    pv: analysis
                        .lines
                        .iter()
                        .find(|line| line.first() == Some(&e.mv))
                        .map(|line| line.iter().map(|&mv| MoveDto::new(mv, m)).collect()),
                    ..MoveEvalDto::new(e, v, m)
                })
                .collect(),
            pv: analysis.pv.iter().map(|&mv| MoveDto::new(mv, m)).collect(),
            after: AfterDto::new(&next),
            stats: StatsDto {
                nodes: analysis.stats.nodes,
                depth: analysis.stats.depth,
                elapsed_ms: analysis.stats.elapsed.as_secs_f64() * 1000.0,
                queued_ms,
                complete: analysis.stats.complete,
                seed,
                path: analysis.stats.path.as_ref().map(ToString::to_string),
                threads: analysis.stats.threads.max(1),
            },
            limits,
        }
    }
}

/// One engine of the registry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EngineInfo {
    /// The name to put in `engine.name`.
    pub name: String,
    /// What it does.
    pub description: String,
    /// The unit of `raw` (the engine's own score) in `evaluation` and `moves`; `value` and
    /// `scores` are on the common scale (the expected result, -1 to 1) for every engine.
    pub raw_unit: String,
    /// The fields of the request's `engine` object that this engine reads.
    pub parameters: Vec<String>,
    /// True for the engine used when a request names none.
    pub default: bool,
}

/// The server's limits on search requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServerLimits {
    /// `engine.time_ms` when a request gives none.
    pub default_time_ms: u64,
    /// Cap on `engine.time_ms`.
    pub max_time_ms: u64,
    /// How long past its budget a search answer may take before the request answers 503.
    pub time_margin_ms: u64,
    /// Largest `engine.depth`.
    pub max_depth: u64,
    /// Largest `engine.nodes`.
    pub max_nodes: u64,
    /// Cap on `engine.threads` (`KINROW_MAX_THREADS`); a larger request is cut to it.
    pub max_threads: u64,
    /// Searches running at once.
    pub max_concurrent_searches: u64,
    /// Searches that may wait for a slot; past that, 503.
    pub search_queue: u64,
    /// Largest request body in bytes.
    pub max_body_bytes: u64,
    /// Largest `m` and `n`.
    pub max_side: u64,
    /// Largest count of one special piece in a hand.
    pub max_pieces: u64,
}

/// Every engine with its description and parameters, and the server's limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EnginesResponse {
    /// The engine used when a request names none (null only if no engine is built in).
    pub default: Option<String>,
    pub engines: Vec<EngineInfo>,
    pub limits: ServerLimits,
}

/// Liveness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// Always `ok` while the server answers.
    #[schema(example = "ok")]
    pub status: String,
}
