//! The score scale of `auto`'s pattern search: the learned or window evaluation's
//! units, with proven wins and losses far beyond any evaluation.

/// A win at ply 0; a win at ply `p` scores `PATTERN_WIN - p`.
pub const PATTERN_WIN: i64 = 1 << 50;
/// Values beyond this are wins or losses.
pub const PATTERN_MATE: i64 = PATTERN_WIN / 2;
