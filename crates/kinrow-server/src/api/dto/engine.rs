//! The engine of a request (`engine`, `reply`: a bare name or an object of parameters)
//! and the engine-related parts of answers: the limits a search ran with, and
//! `GET /v1/engines`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, value::MapAccessDeserializer, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::position::int;
use kinrow_engine::EngineKind;

/// The name of an engine: one of the registry's, or an external engine the server
/// serves (`GET /v1/engines` lists them all).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EngineName(pub String);

impl PartialSchema for EngineName {
    fn schema() -> RefOr<Schema> {
        // No enum: the external engines are the operator's, named at start-up.
        let names: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
        let b = ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(format!(
                "An engine: one of kinrow's own ({}) or an external engine this server \
                 serves; see `GET /v1/engines` for what each does.",
                names.join(", ")
            )))
            .examples(["auto"]);
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

/// The engine and its limits; every field is optional. Each engine reads the fields that
/// `GET /v1/engines` lists as its `parameters` and ignores those it lists as `ignored`
/// (one engine object can be sent to every engine); `mistake_probability` above 0 is
/// refused by an engine that cannot honour it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "minimax", "level": 10, "depth": 6, "time_ms": 300, "seed": 42}))]
pub struct EngineParams {
    /// The engine; the server's default (`auto` when present) when omitted.
    pub name: Option<EngineName>,
    /// The difficulty, 1 (weakest) to 10 (full strength, the default), for every engine
    /// of kinrow's own; an external engine plays at its own strength: it accepts 10 and
    /// refuses lower levels with 422 `invalid_limits`. Below 10 the search gets a smaller node budget (a quarter per level; `limits.nodes`
    /// in the answer is the cap applied) and the move is drawn among the best few,
    /// weighted by how much each loses (more and wider as the level falls). From level 3
    /// up a win now and the only block of the opponent's are never missed; from level 6
    /// up neither an open four, a double four or a four-three, nor their blocks. Each
    /// level beats the one two below it (docs/strength.md).
    #[schema(minimum = 1, maximum = 10, example = 10)]
    #[serde(default, deserialize_with = "int::optional")]
    pub level: Option<i64>,
    /// Maximum search depth in plies (1 to 4096), for the engines that search a tree.
    /// No limit but time when omitted. An external engine takes it where the operator
    /// said it takes `INFO max_depth` (`depth=yes`) and refuses it otherwise (422
    /// `invalid_limits`).
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
    /// An external engine takes it where the operator said it takes `INFO max_node`
    /// (`nodes=yes`) and refuses it otherwise (422 `invalid_limits`).
    #[schema(minimum = 1, maximum = 10_000_000_000i64, example = 1_000_000)]
    #[serde(default, deserialize_with = "int::optional")]
    pub nodes: Option<i64>,
    /// The probability, 0 to 1, of overlooking each branch, so that people can beat the
    /// engine. Default 0. `perfect` overlooks branches at every node of its search; the
    /// one-ply engines (`threat`, `priority`, `greedy`) overlook each root move (and play
    /// the best one they did not overlook). The other engines cannot honour it and answer
    /// 422 `invalid_limits` for a value above 0 (use `level` for a weaker engine), as
    /// does an external engine.
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
    /// as `lines`. An external engine answers one move: it refuses `multipv` above 1
    /// (422 `invalid_limits`).
    #[schema(minimum = 1, maximum = 10, example = 1)]
    #[serde(default, deserialize_with = "int::optional")]
    pub multipv: Option<i64>,
    /// Threads of `auto`'s pattern search (Lazy SMP: the threads share one transposition
    /// table; the main thread's answer is the result), at least 1 (default 1). Cut to
    /// the server's `KINROW_MAX_THREADS` (1 by default); `limits.threads` in the answer
    /// says what was allowed and `stats.threads` what ran. A `nodes` limit is a total
    /// for all threads. The other engines and `auto`'s other paths run on one thread;
    /// an external engine is told it as `INFO thread_num`.
    /// With more than one thread the threads' timing shapes the search: the same `seed`
    /// and `nodes` limit no longer promise the same answer.
    #[schema(minimum = 1, example = 1)]
    #[serde(default, deserialize_with = "int::optional")]
    pub threads: Option<i64>,
}

/// `deserialize_with` for an optional engine: `"auto"` is `{"name": "auto"}`.
pub fn params<'de, D: Deserializer<'de>>(d: D) -> Result<Option<EngineParams>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<EngineParams>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(
                "an engine name like \"auto\" (see GET /v1/engines) or an object like \
{\"name\": \"minimax\", \"time_ms\": 300}",
            )
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
            Ok(Some(EngineParams {
                name: Some(EngineName(s.to_string())),
                ..EngineParams::default()
            }))
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            EngineParams::deserialize(MapAccessDeserializer::new(map)).map(Some)
        }
    }
    d.deserialize_any(V)
}

/// The schema of an `engine` field: a name or the parameters.
pub fn params_schema() -> RefOr<Schema> {
    name_or_params(
        "The engine and its limits, or just its name (`\"auto\"` is `{\"name\": \"auto\"}`); \
the default engine with the default budget when omitted.",
    )
}

/// The schema of `/v1/play`'s `reply`.
pub fn reply_schema() -> RefOr<Schema> {
    name_or_params(
        "The engine that replies to `move`, with its limits, or just its name (`\"auto\"` is \
`{\"name\": \"auto\"}`): when given and the game goes on, the engine's move is played too \
and the answer carries its whole suggestion (`reply`). Without it, only `move` is played.",
    )
}

fn name_or_params(description: &str) -> RefOr<Schema> {
    RefOr::T(Schema::OneOf(
        OneOfBuilder::new()
            .item(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                "EngineName",
            )))
            .item(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                "EngineParams",
            )))
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .description(Some(description))
            .build(),
    ))
}

/// The limits the search actually ran with (after defaults and caps).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LimitsUsed {
    /// The time budget given to the engine, in milliseconds: the request's (or the default),
    /// capped by the server, less the time spent waiting for a slot.
    pub time_ms: u64,
    /// The depth limit, null when none.
    pub depth: Option<u32>,
    /// The node limit, null when none: below level 10 the cap the level applied (the
    /// request's time budget, or its own `nodes`, cut by a quarter per level).
    pub nodes: Option<u64>,
    /// The chance the engine overlooked each move it weighed (0: none; the level's when
    /// below 10).
    pub mistake_probability: f64,
    /// The difficulty the engine played at (10: full strength).
    pub level: u8,
    /// The threads allowed: `engine.threads` (default 1) cut to the server's
    /// `KINROW_MAX_THREADS`.
    #[schema(minimum = 1, example = 1)]
    pub threads: u32,
}

impl LimitsUsed {
    /// A time in whole milliseconds, rounded to the nearest: a budget of 1000 ms of
    /// which 0.3 ms went before the search reads 1000, not 999 (issue 54 item 12).
    pub fn whole_ms(time: std::time::Duration) -> u64 {
        (time.as_secs_f64() * 1000.0).round() as u64
    }
}

/// One engine of the registry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EngineInfo {
    /// The name to put in `engine.name`.
    pub name: String,
    /// `builtin` for kinrow's own engines; `external` for a Gomocup engine the operator
    /// configured (`KINROW_EXTERNAL_ENGINES`), which plays five in a row with marks only,
    /// on the protocol's boards, under the free opening (freestyle, exactly five, renju
    /// or caro by `INFO rule`); a board it cannot play is 422 naming the field.
    #[schema(example = "builtin")]
    pub kind: String,
    /// What it does.
    pub description: String,
    /// The unit of `raw` (the engine's own score) in `evaluation` and `moves`; `value` and
    /// `scores` are on the common scale (the expected result, -1 to 1) for every engine.
    pub raw_unit: String,
    /// The fields of the request's `engine` object that this engine reads.
    pub parameters: Vec<String>,
    /// The fields of the request's `engine` object that this engine does not read: a
    /// request may give them, and this engine ignores them (e.g. `depth` for `mcts`;
    /// `time_ms`, `nodes` and `depth` for the one-ply engines, which finish in
    /// microseconds). `mistake_probability` is never ignored: an engine that cannot
    /// honour it refuses a value above 0 with 422 `invalid_limits`.
    pub ignored: Vec<String>,
    /// True for the engine used when a request names none.
    pub default: bool,
    /// The games this engine plays when it does not play every game kinrow knows (an
    /// external engine); `null` for an engine that plays them all. A request outside them
    /// is refused with 422 naming the field (`rules.k`, `rules.gravity`...).
    pub plays: Option<PlaysDto>,
    /// False while an external engine is marked unavailable: its processes kept dying
    /// at start-up, a request naming it answers 503 `engine_unavailable` at once, and it
    /// is tried again later. Always true for the built-in engines.
    #[serde(default = "available")]
    pub available: bool,
    /// Why it is unavailable: its last start-up error and when it is tried again.
    /// Absent while it is available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable_reason: Option<String>,
}

/// The games an engine plays (see [`EngineInfo::plays`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Plays)]
pub struct PlaysDto {
    /// The line length it plays (`rules.k`).
    pub k: u32,
    /// False: it plays marks only (no `rules.pieces`, no block `#` on the board).
    pub pieces: bool,
    /// False: it plays without gravity.
    pub gravity: bool,
    /// The opening rules it plays (`rules.opening`).
    pub openings: Vec<String>,
}

fn available() -> bool {
    true
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
    /// Every engine of the registry, in its order.
    pub engines: Vec<EngineInfo>,
    /// What this server allows a request.
    pub limits: ServerLimits,
}

#[cfg(test)]
mod tests {
    use super::LimitsUsed;
    use std::time::Duration;

    #[test]
    fn used_time_reads_to_the_nearest_millisecond() {
        assert_eq!(LimitsUsed::whole_ms(Duration::from_micros(999_700)), 1000);
        assert_eq!(LimitsUsed::whole_ms(Duration::from_micros(999_400)), 999);
        assert_eq!(LimitsUsed::whole_ms(Duration::from_millis(300)), 300);
    }
}
