//! Balanced random openings: `plies` random marks near the centre, redrawn while the
//! game is decided or lopsided, then judged by a short node-limited `auto` search over
//! the window count and, for the arena's openings, confirmed by a longer one; the first
//! draw within [`EVEN_BAND`] of even is taken. Node limits and a seed per pair make them
//! the same on every run: the lab's matches, benchmarks and self-play start from them,
//! and the engine's tests take their positions from the same draws.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::core::context::SearchContext;
use crate::core::types::{Limits, Outcome};
use crate::eval::{potential, EvalChoice};
use crate::registry::EngineKind;
use kinrow_game::{Move, Player, Position, Rules};

/// True when the side to move or the opponent could complete a line at once.
fn has_immediate_win(p: &Position) -> bool {
    (0..p.cells().len()).any(|c| {
        p.cell(c) == kinrow_game::Cell::Empty
            && (p.wins_at(c, Player::X) || p.wins_at(c, Player::O))
    })
}

/// How lopsided a position looks: |own − opponent's window potential| over their sum.
fn imbalance(p: &Position) -> f64 {
    let me = potential(p, p.to_move());
    let them = potential(p, p.to_move().opponent());
    if me + them == 0.0 {
        0.0
    } else {
        (me - them).abs() / (me + them)
    }
}

/// Nodes of the search that judges an opening (`auto`, node-limited so it replays).
const JUDGE_NODES: u64 = 50_000;
/// Openings the search judges per pair, at most.
const JUDGED: usize = 24;
/// Nodes of the longer search (about 1 s) that must confirm an opening the short one
/// found even. The short search alone passed openings the longer one puts 150 points
/// off even, where the favoured side won whoever played it (one such game `auto` lost
/// at 400 ms while every move it made was the one a 1 s search chose). Confirmed
/// openings go to the same colour twice less often (docs/strength.md).
pub const CONFIRM_NODES: u64 = 400_000;
/// Openings the longer search judges per pair, at most.
const CONFIRMED: usize = 6;
/// An opening whose searched value lies within this many window points of even is
/// taken at once (an open three's window is worth 100).
pub const EVEN_BAND: f64 = 40.0;
/// What x's extra mark is worth, in window points, beyond what the search sees when o
/// is to move: openings that searched even for o (within 40 of 0 at 20k nodes) went to
/// x in 34 of 40 games of `auto` against itself and 28 of 40 of `mcts` against itself
/// (15x15x5, 100 ms, seed 5). Centred on +40 for o at 50k nodes, the same 40 games split
/// 18-22 and 19-21.
pub const X_EDGE: f64 = 40.0;

/// The searched value that counts as even for the side to move of `p`: 0 when x moves
/// (the marks are level), [`X_EDGE`] when o moves (x has a mark more).
pub fn even_value(p: &Position) -> f64 {
    if p.to_move() == Player::O {
        X_EDGE
    } else {
        0.0
    }
}

/// The value of `p` for the side to move by a short `auto` search (k >= 4, marks only),
/// `None` where that search is not the pattern search.
pub fn searched_value(p: &Position) -> Option<f64> {
    searched_value_at(p, JUDGE_NODES)
}

/// The value of `p` for the side to move by the longer search that confirms an
/// opening ([`CONFIRM_NODES`]), `None` where [`searched_value`] is `None`.
pub fn confirmed_value(p: &Position) -> Option<f64> {
    searched_value_at(p, CONFIRM_NODES)
}

/// The value of `p` for the side to move by an `auto` search of `nodes` nodes over the
/// window count (the bands above are in its points, whatever `auto`'s default is).
fn searched_value_at(p: &Position, nodes: u64) -> Option<f64> {
    if p.k() < 4 || p.has_special_pieces() {
        return None;
    }
    let limits = Limits {
        time: Duration::from_secs(60),
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut ctx = SearchContext::new();
    *ctx.kept::<EvalChoice>() = EvalChoice::Window;
    let a =
        EngineKind::Auto
            .build()
            .analyze_with(p, &limits, &mut ctx, &mut StdRng::seed_from_u64(0));
    // The last depth's own score, without the parity average (as the bands were set).
    Some(if a.evaluation.outcome == Outcome::Unknown {
        a.evaluation.score - a.stats.parity_shift
    } else {
        f64::INFINITY
    })
}

/// How far an opening's evenness is checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Judge {
    /// By the short search only (benchmark positions, where evenness matters less).
    Quick,
    /// By the short search, then by the longer one (the arena's openings).
    Confirmed,
}

/// The opening of pair `pair`: `plies` random marks within a small square around the
/// centre (under gravity, the landing cells of the central columns). A draw is redrawn (up to 200 times) while the game is decided, a line is one
/// move from completion, or the static evaluation is lopsided. For k >= 4 (marks only)
/// the draws that pass are then judged by a short search, and the first whose value is
/// within [`EVEN_BAND`] of [`even_value`] is taken (of [`JUDGED`] at most; else the most
/// even one): random marks often hand one side an attack that decides the game whoever
/// plays it. The arena's openings are [`Judge::Confirmed`]: see [`CONFIRM_NODES`].
pub fn opening(rules: &Rules, plies: usize, seed: u64, pair: usize) -> Vec<Move> {
    opening_judged(rules, plies, seed, pair, Judge::Confirmed)
}

/// [`opening`], judged as `judge` says.
pub fn opening_judged(
    rules: &Rules,
    plies: usize,
    seed: u64,
    pair: usize,
    judge: Judge,
) -> Vec<Move> {
    let mut rng = StdRng::seed_from_u64(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let (m, n) = (rules.m(), rules.n());
    let radius = (m.min(n) / 4).max(1);
    let (cr, cc) = (n / 2, m / 2);
    let mut region: Vec<usize> = Vec::new();
    // Under gravity the central columns whole (only their landing cells are legal).
    let rows = if rules.gravity() {
        0..n
    } else {
        cr.saturating_sub(radius)..(cr + radius + 1).min(n)
    };
    for r in rows {
        for c in cc.saturating_sub(radius)..(cc + radius + 1).min(m) {
            region.push(r * m + c);
        }
    }
    let plies = plies.min(region.len()).min(rules.cells().saturating_sub(1));
    let mut best: Option<(f64, Vec<Move>)> = None;
    let mut judged = 0;
    let mut confirmed = 0;
    for _ in 0..200 {
        let mut p = Position::empty(rules);
        let mut moves = Vec::new();
        while moves.len() < plies {
            let cell = region[rng.random_range(0..region.len())];
            let mv = Move::mark(cell);
            if p.is_legal(mv) {
                p.play(mv);
                moves.push(mv);
            }
            if p.is_over() {
                break;
            }
        }
        if p.is_over() || (rules.k() > 2 && has_immediate_win(&p)) {
            continue;
        }
        let lopsided = imbalance(&p);
        if lopsided >= 0.15 {
            // Kept as a last resort, behind every draw that passes.
            let rank = 1e12 + lopsided;
            if best.as_ref().is_none_or(|(b, _)| rank < *b) {
                best = Some((rank, moves));
            }
            continue;
        }
        let Some(value) = searched_value(&p) else {
            return moves;
        };
        judged += 1;
        let off_even = |v: f64| (v - even_value(&p)).abs();
        let off = off_even(value);
        let rank = if off > EVEN_BAND {
            off
        } else if judge == Judge::Quick {
            return moves;
        } else if confirmed == CONFIRMED {
            // Out of confirmations: ranked by the short search like the uneven draws.
            off
        } else {
            // Even at a glance: the longer search has the last word.
            confirmed += 1;
            let deep_off = off_even(confirmed_value(&p).unwrap_or(f64::INFINITY));
            if deep_off <= EVEN_BAND {
                return moves;
            }
            // Ranked ahead of every draw only the short search judged.
            deep_off - 1e9
        };
        if best.as_ref().is_none_or(|(b, _)| rank < *b) {
            best = Some((rank, moves));
        }
        if judged >= JUDGED {
            break;
        }
    }
    best.map(|(_, m)| m).unwrap_or_default()
}

/// The positions `kinrow bench` measures on `rules` (and the engine's tests search):
/// `count` balanced openings of `plies` marks, judged by the short search only, those
/// that end the game left out.
pub fn positions(rules: &Rules, plies: usize, count: usize) -> Vec<Position> {
    (0..count)
        .map(|i| {
            let mut p = Position::empty(rules);
            for mv in opening_judged(rules, plies, 0xBE7C, i, Judge::Quick) {
                p.play(mv);
            }
            p
        })
        .filter(|p| !p.is_over())
        .collect()
}
