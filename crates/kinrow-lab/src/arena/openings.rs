//! The arena's openings: random marks near the centre, judged even by a search, or
//! read from an opening file.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::contest::ArenaConfig;
use super::parallel::in_parallel;
use kinrow_engine::potential;
use kinrow_engine::EngineKind;
use kinrow_engine::EvalChoice;
use kinrow_engine::SearchContext;
use kinrow_engine::{Limits, Outcome};
use kinrow_game::{Move, Player, Position, Rules};

/// The default number of random opening marks for a board: 1 up to 16 cells, 2 up to
/// 64, else 5. On large boards the number is odd, so o moves first after the opening
/// with one mark fewer, which offsets x's first-move advantage there (15x15x5, `auto`
/// against itself, 20 games at 100 ms on seed 1: after 4 random marks x won 18 games,
/// after 5 x won 9 and o 11). Small boards stay even: on 7x7x4 (a first-player win)
/// x wins every game from 3 random marks whoever plays it, even `greedy` against `auto`.
pub fn default_opening_plies(rules: &Rules) -> usize {
    match rules.cells() {
        0..=16 => 1,
        17..=64 => 2,
        _ => 5,
    }
}

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

/// The opening of every pair of the match, each judged once (on `config.threads`
/// threads): the two games of a pair share it.
pub fn openings(config: &ArenaConfig) -> Vec<Vec<Move>> {
    if let Some(fixed) = &config.fixed_openings {
        return (0..config.games.div_ceil(2))
            .map(|pair| fixed[pair % fixed.len()].clone())
            .collect();
    }
    in_parallel(config.games.div_ceil(2), config.threads, |pair| {
        pair_opening(config, pair)
    })
}

/// The opening of pair `pair` of `config`'s match: its fixed one (the file's openings
/// in turn, from the first again once all were played: an SPRT may need more pairs than
/// the file has), none under an opening phase (the engines place the stones
/// themselves), else the seeded random one.
pub fn pair_opening(config: &ArenaConfig, pair: usize) -> Vec<Move> {
    if let Some(fixed) = &config.fixed_openings {
        return fixed[pair % fixed.len()].clone();
    }
    if config.rules.opening().has_phase() {
        return Vec::new();
    }
    let plies = config
        .opening_plies
        .unwrap_or_else(|| default_opening_plies(&config.rules));
    opening(&config.rules, plies, config.seed, pair)
}

/// `mv` as Gomocup `x,y` (column, row).
pub fn cell_text(mv: Move, m: usize) -> String {
    let c = mv.coord(m);
    format!("{},{}", c.col, c.row)
}

/// The mark at Gomocup `x,y` on `rules`' board.
pub fn cell_move(text: &str, rules: &Rules) -> Result<Move, String> {
    let bad = || format!("{text:?} is not x,y on a {}x{} board", rules.m(), rules.n());
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let (col, row): (usize, usize) = (
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    );
    if col >= rules.m() || row >= rules.n() {
        return Err(bad());
    }
    Ok(Move::mark(row * rules.m() + col))
}

/// Reads an opening file for `rules`: one opening a line, its moves as Gomocup
/// coordinates `x,y` (column, row, from 0) separated by white space, x's first and then
/// alternating; `#` starts a comment, and empty lines are skipped. Every opening must
/// be legal and leave the game in progress.
pub fn read_openings(text: &str, rules: &Rules) -> Result<Vec<Vec<Move>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let mut p = Position::empty(rules);
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let mv = cell_move(word, rules).map_err(|e| format!("line {}: {e}", i + 1))?;
            p.try_play(mv)
                .map_err(|e| format!("line {}: {word}: {e}", i + 1))?;
            moves.push(mv);
        }
        if p.is_over() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        out.push(moves);
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}
