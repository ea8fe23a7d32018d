//! Threat-space search: proofs of forced wins for k >= 4.
//!
//! A *four* is a mark after which its player completes `k` at one cell next move:
//! the opponent must take that cell (or win at once). **VCF** (victory by continuous
//! fours) chains fours until one leaves two completing cells or a five. **VCT**
//! (victory by continuous threats) also allows quiet threats, moves after which the
//! attacker would have a VCF if the defender passed; it then searches every defender
//! move that could spoil that VCF (the cells the VCF uses, and the cells where the
//! defender could build a four or five along it; every other move leaves the VCF
//! standing). Fives, fours and threes come from per-window counts kept in sets
//! (the shared [`LineBoard`]), so nothing scans the board; both searches keep a transposition table.
//!
//! Exactly-k is respected (with overline off a line that would grow past `k` is no
//! four), and so are the variants: the board's win rule decides what a five is (caro's
//! shut lines are none), and under renju x never marks a forbidden cell, so o's four
//! whose completion is forbidden for x cannot be stopped. A defender holding blocks may
//! answer a four with a block: both answers are searched. A defender holding `remove`
//! or `bomb` can break any line, so no proof is claimed then ([`Verdict::Unsupported`]).
//!
//! A [`Proof`] is a strategy tree: the attacker's move, the defender replies that need
//! their own continuation, and one continuation that wins against every other reply.
//!
//! [`LineBoard`]: crate::board::LineBoard

mod proof;
mod root;
pub(crate) mod search;
mod searcher;

pub use proof::{Proof, Verdict};
pub use root::{plan, RootPlan};
pub use searcher::{unsupported, Tss};
