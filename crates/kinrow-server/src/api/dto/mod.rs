//! The request and answer bodies of the API (serde + utoipa), one file per resource, and
//! their conversions from and into the game's and the engines' types.
//!
//! The floors, each using only those below it: [`forms`] (the forgiving input forms),
//! [`position`] (sides, pieces, rules, cells, moves), [`engine`] (the engine of a request,
//! the limits used, `/v1/engines`), [`state`], [`suggest`] (and [`suggest_json`], its answer's hand-written JSON), [`play`], [`analyse`],
//! [`review`] and [`ops`]. The names most used are re-exported here.

pub mod analyse;
pub mod engine;
pub mod forms;
pub mod opening;
pub mod opening_rule;
pub mod ops;
pub mod play;
pub mod position;
pub mod review;
pub mod state;
pub mod suggest;
pub mod suggest_json;

pub use engine::{
    default_engine, EngineInfo, EngineName, EngineParams, EnginesResponse, LimitsUsed, PlaysDto,
    ServerLimits,
};
pub use ops::{Health, Readiness};
pub use play::{PlayRequest, PlayResponse};
pub use position::{
    continued_order, known_order, position, position_with_moves, CellDto, HandDto, MoveDto,
    MoveRequest, PieceName, PiecesDto, RulesDto, Side,
};
pub use review::ReviewRequest;
pub use state::{AfterDto, GameStatus, StateRequest, StateResponse};
pub use suggest::{SuggestRequest, SuggestResponse};
pub use suggest_json::write as write_suggest_json;
