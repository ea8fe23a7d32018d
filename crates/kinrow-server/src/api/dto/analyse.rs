//! `POST /v1/analyse` and the streamed `/v1/review`: the events of a `text/event-stream`
//! answer (the request and the `result` are `/v1/suggest`'s).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::position::MoveDto;
use kinrow_engine::value::{value_of, Family};
use kinrow_engine::{Line, Progress};
use kinrow_game::{Piece, Position};

/// One of the best lines so far (`lines` of an `info` event, with `multipv` > 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AnalysisLine)]
pub struct LineDto {
    /// The line's first move.
    #[serde(rename = "move")]
    pub mv: MoveDto,
    /// The expected result for the side to move, -1 to 1, as `evaluation.value`.
    #[schema(minimum = -1.0, maximum = 1.0)]
    pub value: f64,
    /// The principal variation, starting with `move`.
    pub pv: Vec<MoveDto>,
}

/// The data of an `info` event: what the search has found so far. Until the search has
/// a best move (a long `perfect` proof settles its first root move only when it is
/// proven), an event says only that the search goes on: `depth` 0, `nodes`, `elapsed_ms`,
/// an empty `pv`, and no `move` or `value`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AnalysisInfo)]
pub struct InfoDto {
    /// The deepest completed depth in plies (`mcts`: the tree's depth); never decreases.
    pub depth: u32,
    /// Nodes searched so far (playouts for `mcts`).
    pub nodes: u64,
    /// Time since the search started, in milliseconds.
    pub elapsed_ms: f64,
    /// The best move so far; absent until the search has one.
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<MoveDto>,
    /// Its value: the expected result for the side to move, -1 to 1; absent with `move`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = -1.0, maximum = 1.0)]
    pub value: Option<f64>,
    /// The principal variation, starting with `move` (empty without one).
    pub pv: Vec<MoveDto>,
    /// With `engine.multipv` N > 1: the N best lines so far, best first (the first is
    /// `move`'s); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineDto>>,
}

impl InfoDto {
    /// The event for `progress` of a search of `position`, asked for `wanted` lines.
    pub fn new(position: &Position, progress: &Progress, wanted: usize) -> InfoDto {
        let m = position.m();
        let family = Family::of(m, position.n());
        let me = position.to_move();
        let line = |l: &Line| LineDto {
            mv: MoveDto::new(l.mv, m),
            value: if l.mv.piece == Piece::Mark && position.wins_at(l.mv.cell(), me) {
                1.0
            } else {
                value_of(&l.eval, progress.scale, family, l.win_rate)
            },
            pv: l.pv.iter().map(|&mv| MoveDto::new(mv, m)).collect(),
        };
        let lines: Vec<LineDto> = progress.lines.iter().map(line).collect();
        let best = lines.first().cloned();
        InfoDto {
            depth: progress.depth,
            nodes: progress.nodes,
            elapsed_ms: progress.elapsed.as_secs_f64() * 1000.0,
            mv: best.as_ref().map(|b| b.mv),
            value: best.as_ref().map(|b| b.value),
            pv: best.map(|b| b.pv).unwrap_or_default(),
            lines: (wanted > 1 && !lines.is_empty()).then_some(lines),
        }
    }

    /// The event that repeats `last` (or says that the search goes on, without `last`)
    /// with the search's `nodes` and `elapsed` time now.
    pub fn again(last: Option<&InfoDto>, nodes: u64, elapsed: Duration) -> InfoDto {
        let elapsed_ms = elapsed.as_secs_f64() * 1000.0;
        match last {
            Some(info) => InfoDto {
                nodes: info.nodes.max(nodes),
                elapsed_ms: info.elapsed_ms.max(elapsed_ms),
                ..info.clone()
            },
            None => InfoDto {
                depth: 0,
                nodes,
                elapsed_ms,
                mv: None,
                value: None,
                pv: Vec::new(),
                lines: None,
            },
        }
    }
}

/// One event of a `text/event-stream` answer as a client's stream parser reads it (the
/// per-event schema of `/v1/analyse` and the streamed `/v1/review`): its name, and its
/// data, one line of JSON whose schema the name gives. It documents the stream; the
/// server writes the events as text.
#[derive(ToSchema)]
#[schema(example = json!({"event": "info", "data": "{\"depth\":1,\"nodes\":12,\"elapsed_ms\":0.4,\"move\":{\"row\":1,\"col\":1,\"piece\":\"mark\"},\"value\":0.0,\"pv\":[{\"row\":1,\"col\":1,\"piece\":\"mark\"}]}"}))]
pub struct StreamEvent {
    /// `info` (data: `AnalysisInfo`, or a `ReviewedMove` in a review), `result` (data:
    /// `SuggestResponse`, or `ReviewResponse`), or `error` (data: `ErrorBody`).
    pub event: StreamEventName,
    /// The event's JSON, on one line.
    pub data: String,
}

/// The name of a stream event.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum StreamEventName {
    /// Progress: the search went one step deeper.
    Info,
    /// The answer, as `/v1/suggest` gives it.
    Result,
    /// The search failed after the stream began.
    Error,
}
