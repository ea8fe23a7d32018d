//! The two lanes of a search, by its cost (see the pool's module text): inline on the
//! HTTP worker for the searches that cost microseconds, the pool for the rest.

use kinrow_engine::Cost;
use kinrow_engine::EngineKind;
use kinrow_game::Position;

/// The most empty cells a position may have for any search but `mcts` to run inline.
pub const INLINE_EMPTIES: u32 = 9;

/// The largest board (in cells) on which the one-ply engines run inline: 32x32. On
/// 15x15 they take 0.02-0.2 ms a call, on 32x32 at most about 1 ms (`kinrow bench`,
/// docs/performance.md).
pub const CHEAP_CELLS: usize = 1024;

/// Where a search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lane {
    /// At once on the HTTP worker, outside the slots and the queue.
    Inline,
    /// On the blocking pool, behind a slot (and maybe the queue).
    Pool,
}

/// The lane of the search of `kind` on `position`, by its cost (see the pool's module docs).
pub fn lane(kind: EngineKind, position: &Position) -> Lane {
    let special = position.has_special_pieces();
    let cells = position.m() * position.n();
    let cheap = match kind.row().cost {
        Cost::Tree => !special && position.empties() <= INLINE_EMPTIES,
        Cost::Playouts => false,
        Cost::OnePly { special: d } if special => cells <= CHEAP_CELLS / d,
        Cost::OnePly { .. } => cells <= CHEAP_CELLS,
    };
    if cheap {
        Lane::Inline
    } else {
        Lane::Pool
    }
}
