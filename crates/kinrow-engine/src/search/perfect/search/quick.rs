//! What a node of the exact search keeps for its pairing refutations (filled and read
//! by [`super::pairing`]), apart from the pairing search itself so that the solver's
//! node can hold it.

/// How many first marks [`super::Solver::pairs_after_mark`] tries.
pub(super) const PAIRING_CELLS: usize = 3;

/// What a node keeps to refute its own marks by pairing without searching them
/// ([`super::Solver::refuted_by_pairing`]): the mover's open windows, the windows through each
/// cell, the cells a mark would make winning, and the cells most of those windows go
/// through.
pub(super) struct Quick<B> {
    pub(super) open: Vec<B>,
    pub(super) through: Vec<u64>,
    pub(super) makes: Vec<B>,
    pub(super) tries: [usize; PAIRING_CELLS + 2],
    /// Per try, once looked for: the cells of a pairing after the opponent's mark
    /// there (with the try itself), or `None` when none was found.
    pub(super) pairings: [Option<Option<B>>; PAIRING_CELLS + 2],
}
