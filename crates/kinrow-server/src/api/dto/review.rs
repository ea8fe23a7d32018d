//! The body and the answer of `POST /v1/review` (serde + utoipa); the review itself is
//! [`kinrow_engine::review`], the handler `routes/review.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::engine::EngineParams;
use super::forms::{object, BoardInput};
use super::position::{int, MoveDto, MoveRequest, RulesDto, Side};
use kinrow_engine::review::{Class, Review, ReviewedMove};
use kinrow_game::Player;

/// A game to review: the start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "an object like {\"rules\": {\"m\": 3, \"n\": 3, \"k\": 3}, \"moves\": [{\"row\": 1, \"col\": 1}, {\"row\": 0, \"col\": 0}]}"
)]
pub struct ReviewRequest {
    /// The board size, the line length that wins, the variant and the pieces in hand.
    #[serde(deserialize_with = "object")]
    pub rules: RulesDto,
    /// The position the game started from; the empty board when omitted.
    pub board: Option<BoardInput>,
    /// As in `StateRequest`: whose turn it is in the start position.
    pub to_move: Option<Side>,
    /// The moves, in order (at most 1000). The first illegal one is a 422 `illegal_move`
    /// whose `field` is `moves[i]`.
    pub moves: Vec<MoveRequest>,
    /// The engine that evaluates every position, or just its name (`auto` when omitted).
    /// `engine.time_ms` is the time per position unless `time_ms_per_move` is given;
    /// `nodes` and `depth` are per position too.
    #[serde(default, deserialize_with = "super::engine::params")]
    #[schema(schema_with = super::engine::params_schema)]
    pub engine: Option<EngineParams>,
    /// The time to search each position, in milliseconds (at least 1; `engine.time_ms`
    /// when omitted, else 120 ms: a 20-move review within about 3 s). The whole review
    /// takes at most the server's maximum budget (`KINROW_MAX_TIME_MS`): when the moves
    /// would take longer, each position gets an equal share of it (`stats` says how).
    #[schema(minimum = 1, example = 200)]
    #[serde(default, deserialize_with = "int::optional")]
    pub time_ms_per_move: Option<i64>,
}

/// How good a move was, by its loss of `value` (see `ReviewedMove.loss`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClassName {
    /// Lost at most 0.02 of value: as good as the engine's choice.
    Best,
    /// Lost at most 0.1.
    Good,
    /// Lost at most 0.2.
    Inaccuracy,
    /// Lost at most 0.4, or turned a position that was not lost into a proven loss.
    Mistake,
    /// Lost more than 0.4.
    Blunder,
    /// The only move that did not lose at once.
    Forced,
}

impl From<Class> for ClassName {
    fn from(c: Class) -> ClassName {
        match c {
            Class::Best => ClassName::Best,
            Class::Good => ClassName::Good,
            Class::Inaccuracy => ClassName::Inaccuracy,
            Class::Mistake => ClassName::Mistake,
            Class::Blunder => ClassName::Blunder,
            Class::Forced => ClassName::Forced,
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ReviewedMove)]
pub struct ReviewedMoveDto {
    /// The move's index in the request's `moves`.
    pub index: usize,
    /// Who played it.
    pub player: Side,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveDto,
    /// The value of the position before the move, for the player (-1 to 1).
    #[schema(minimum = -1.0, maximum = 1.0)]
    pub value_before: f64,
    /// The value of the position after the move, for the player (minus the opponent's).
    #[schema(minimum = -1.0, maximum = 1.0)]
    pub value_after: f64,
    /// The engine's move in the position before.
    pub best: MoveDto,
    /// Its value for the player (the position's value, `value_before`).
    #[schema(minimum = -1.0, maximum = 1.0)]
    pub best_value: f64,
    /// `best_value - value_after`, at least 0; 0 when the move is `best`, or when both
    /// values are at least 0.8 from 0 with the same sign (a game the engine sees as
    /// decided either way: a win proven from the winner's side is often unproven from the
    /// loser's). Up to 2 (a won game thrown away).
    #[schema(minimum = 0.0, maximum = 2.0)]
    pub loss: f64,
    /// By the loss: `best` <= 0.02 < `good` <= 0.1 < `inaccuracy` <= 0.2 < `mistake` <=
    /// 0.4 < `blunder`; `forced` when it was the only move that did not lose at once (the
    /// only legal move, or every other one lets the opponent win on the next ply).
    pub class: ClassName,
}

/// A player's moves counted by class, and their accuracy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayerSummary {
    /// Moves of class `best`.
    pub best: u32,
    /// Moves of class `good`.
    pub good: u32,
    /// Moves of class `inaccuracy`.
    pub inaccuracy: u32,
    /// Moves of class `mistake`.
    pub mistake: u32,
    /// Moves of class `blunder`.
    pub blunder: u32,
    /// Moves of class `forced`.
    pub forced: u32,
    /// The mean of `1 - loss` (at least 0) over the player's moves, in percent: 100 for
    /// nothing but best moves. Null when the player made no move.
    #[schema(minimum = 0.0, maximum = 100.0)]
    pub accuracy: Option<f64>,
}

impl PlayerSummary {
    /// Counts one move of class `class`.
    pub fn count(&mut self, class: ClassName) {
        let slot = match class {
            ClassName::Best => &mut self.best,
            ClassName::Good => &mut self.good,
            ClassName::Inaccuracy => &mut self.inaccuracy,
            ClassName::Mistake => &mut self.mistake,
            ClassName::Blunder => &mut self.blunder,
            ClassName::Forced => &mut self.forced,
        };
        *slot += 1;
    }
}

/// Both players' summaries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReviewSummary {
    /// The first player's moves.
    pub x: PlayerSummary,
    /// The second player's moves.
    pub o: PlayerSummary,
}

/// What the review cost and how its time was spread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ReviewStats)]
pub struct ReviewStatsDto {
    /// The engine that evaluated the positions.
    pub engine: String,
    /// Positions searched (those of the game not yet over).
    pub positions: usize,
    /// The time asked for each position (`time_ms_per_move`, else `engine.time_ms`, else
    /// 120 ms, so that a 20-move review answers within 3 s), in milliseconds. By default
    /// it is only the safety net behind the node cap: the review's time is 120 ms a
    /// position, and a position may use what is left of it but 20 ms for each later one.
    pub time_ms_per_move: u64,
    /// The node cap of each position's search: `engine.nodes` when given, else half of
    /// the engine's nominal node rate times `time_ms_per_move` (`auto` by default: 24 000),
    /// so that the cap binds before the time and the review repeats with the same seed
    /// (the same game gets the same classes); null for the engines that count no nodes.
    pub nodes_per_move: Option<u64>,
    /// The server's cap on the whole review (`KINROW_MAX_TIME_MS`), in milliseconds.
    pub max_total_ms: u64,
    /// The whole review's budget: the positions times the time per move, at most the cap,
    /// less the time spent waiting for a search slot; each position's search got what
    /// was left of it divided by the positions left (at most `time_ms_per_move`).
    pub budget_ms: u64,
    /// Time the searches took, in milliseconds.
    pub elapsed_ms: f64,
    /// Time the request waited for a search slot, in milliseconds.
    pub queued_ms: f64,
    /// Nodes searched over all the positions.
    pub nodes: u64,
    /// The seed of every position's search.
    pub seed: u64,
    /// True when every move was judged (`unjudged` 0) and every position's search
    /// finished rather than hit a limit.
    pub complete: bool,
    /// Positions whose search the time stopped before it finished and before the node
    /// cap (a loaded machine): their values, and so the classes, may differ on another
    /// run. 0 when the review repeats exactly. A search that finished late (a one-ply
    /// engine on a large board) was not stopped.
    pub stopped_by_time: usize,
    /// The last moves of the game left unjudged because the review's time ran out
    /// before the positions after them were searched (the searches cost more than the
    /// time per move: a large board, a loaded machine); `moves` holds the others, and
    /// `values` the positions searched. 0 for a whole review.
    pub unjudged: usize,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReviewResponse {
    /// Every move of the request, judged, in order; all but the last `stats.unjudged`
    /// when the review's time ran out.
    pub moves: Vec<ReviewedMoveDto>,
    /// Each player's moves counted by class, and their accuracy.
    pub summary: ReviewSummary,
    /// The value of every position of the game for `x` (-1 to 1), the start position
    /// first: one more than the judged moves. For a graph.
    pub values: Vec<f64>,
    /// What the review cost.
    pub stats: ReviewStatsDto,
}

impl ReviewedMoveDto {
    /// A judged move on a board of `m` columns.
    pub fn new(judged: &ReviewedMove, m: usize) -> ReviewedMoveDto {
        let v = &judged.verdict;
        ReviewedMoveDto {
            index: judged.index,
            player: judged.player.into(),
            mv: MoveDto::new(judged.mv, m),
            value_before: v.value_before,
            value_after: v.value_after,
            best: MoveDto::new(v.best, m),
            best_value: v.best_value,
            loss: v.loss,
            class: v.class.into(),
        }
    }
}

impl ReviewResponse {
    /// The answer for `review` of a game on a board of `m` columns, with its `stats`.
    pub fn new(review: &Review, m: usize, stats: ReviewStatsDto) -> ReviewResponse {
        let moves: Vec<ReviewedMoveDto> = review
            .moves
            .iter()
            .map(|judged| ReviewedMoveDto::new(judged, m))
            .collect();
        let mut summary = ReviewSummary::default();
        for judged in &moves {
            match judged.player {
                Side::X => summary.x.count(judged.class),
                Side::O => summary.o.count(judged.class),
            }
        }
        summary.x.accuracy = review.accuracy[Player::X.index()];
        summary.o.accuracy = review.accuracy[Player::O.index()];
        ReviewResponse {
            moves,
            summary,
            values: review.values_for_x.clone(),
            stats,
        }
    }
}
