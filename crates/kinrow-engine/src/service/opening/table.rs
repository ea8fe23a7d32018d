//! The committed tables of balanced three-stone openings, and the search that makes them.
//!
//! A table is a text file of lines `c,r c,r c,r  # comment`: the stones x, o, x as
//! Gomocup `column,row` pairs (the format of `kinrow arena --openings`). The build embeds
//! the tables; [`openings`] answers the one that covers a rule set. [`make`] draws random
//! three-stone candidates near the centre (a seeded generator, mirror and rotation images
//! of a kept one skipped) and keeps a candidate when `auto`'s search values it within
//! `band` of even for o to move, and again for x after `auto`'s own best reply, and, when
//! a second judge is given (an external engine, for `kinrow opening-table --judge`),
//! within `band` by that judge too: the `kinrow opening-table` command (its header names
//! the exact command line).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::types::Limits;
use crate::registry::EngineKind;
use crate::service::value;
use kinrow_game::{Coord, Move, Opening, Player, Position, Rules, Symmetry};

/// 15x15, five in a row, overlines win.
const FREESTYLE_15: &str = include_str!("tables/15x15-freestyle.txt");
/// 15x15, exactly five in a row wins (the Gomocup swap2 rule).
const EXACT_15: &str = include_str!("tables/15x15-exact.txt");

/// The balanced openings of the table covering `rules` (its size, `k`, variant and
/// overline; the opening rule aside), each as stones with their sides; `None` when no
/// table covers them.
pub fn openings(rules: &Rules) -> Option<Vec<Vec<(Coord, Player)>>> {
    if !rules.variant().plain_lines() {
        return None;
    }
    let text = match (rules.m(), rules.n(), rules.k(), rules.overline()) {
        (15, 15, 5, true) => FREESTYLE_15,
        (15, 15, 5, false) => EXACT_15,
        _ => return None,
    };
    Some(parse(text, rules.m(), rules.n()))
}

/// The openings of a table's `text` that fit an `m` x `n` board.
pub fn parse(text: &str, m: usize, n: usize) -> Vec<Vec<(Coord, Player)>> {
    text.lines()
        .filter_map(|line| {
            let body = line.split('#').next()?.trim();
            if body.is_empty() {
                return None;
            }
            let mut out = Vec::new();
            for (i, pair) in body.split_whitespace().enumerate() {
                let (c, r) = pair.split_once(',')?;
                let (c, r): (usize, usize) = (c.parse().ok()?, r.parse().ok()?);
                if c >= m || r >= n {
                    return None;
                }
                let side = if i % 2 == 0 { Player::X } else { Player::O };
                out.push((Coord::new(r, c), side));
            }
            Some(out)
        })
        .collect()
}

/// One kept opening: its moves (x, o, x) and the two values that kept it.
pub struct Entry {
    /// The opening's stones, x's first.
    pub moves: Vec<Move>,
    /// The value for o to move after the three stones.
    pub value: f64,
    /// The value for x after `auto`'s best reply.
    pub after_reply: f64,
    /// A second judge's value for o to move, when one was asked.
    pub second: Option<f64>,
}

impl Entry {
    /// The table line of this opening on a board of `m` columns.
    pub fn line(&self, m: usize) -> String {
        let cells: Vec<String> = self
            .moves
            .iter()
            .map(|mv| format!("{},{}", mv.cell() % m, mv.cell() / m))
            .collect();
        let second = self
            .second
            .map(|v| format!(", {v:+.3} for o by the second judge"))
            .unwrap_or_default();
        format!(
            "{}  # value {:+.3} for o to move, {:+.3} for x after auto's reply{second}",
            cells.join(" "),
            self.value,
            self.after_reply
        )
    }
}

/// `auto`'s value of `p` for the side to move and its best move, within `limits`.
fn judge(p: &Position, limits: &Limits, seed: u64) -> (f64, Move) {
    let engine = EngineKind::Auto.build();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut budget = Budget::new(limits);
    let mut a = engine.analyze_in(p, limits, &mut budget, &mut SearchContext::new(), &mut rng);
    let v = value::values(EngineKind::Auto, p, &mut a).evaluation;
    (v, a.best)
}

/// What [`make`] searches for.
pub struct TableSpec {
    /// Openings to keep.
    pub count: usize,
    /// Candidates to try at most.
    pub tries: usize,
    /// Stones are drawn within this many cells of the centre.
    pub radius: usize,
    /// The largest |value| that counts as even.
    pub band: f64,
    /// The largest |value| by the second judge that counts as even.
    pub second_band: f64,
    /// Each search's limits.
    pub limits: Limits,
    /// Seed of the candidate draws.
    pub seed: u64,
}

/// A second judge of a candidate that `auto` found even: its value for o to move after
/// the three stones (given as the position and its moves), `None` when it has no opinion
/// (the candidate is dropped).
pub type SecondJudge<'a> = &'a mut dyn FnMut(&Position, &[Move]) -> Option<f64>;

/// Up to `spec.count` balanced openings of `rules` (see the top of the file), each also
/// within the band by `second` when given; `progress` hears of each kept one.
pub fn make(
    rules: &Rules,
    spec: &TableSpec,
    mut second: Option<SecondJudge>,
    mut progress: impl FnMut(&Entry),
) -> Vec<Entry> {
    let TableSpec {
        count,
        tries,
        radius,
        band,
        second_band,
        ref limits,
        seed,
    } = *spec;
    let rules = rules
        .clone()
        .with_opening(Opening::Free)
        .expect("the free opening fits every rule set");
    let (m, n) = (rules.m(), rules.n());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut kept = Vec::new();
    for _ in 0..tries {
        if kept.len() >= count {
            break;
        }
        let moves = random_opening(&mut rng, m, n, 3, radius);
        if !seen.insert(symmetry_key(&moves, m, n)) {
            continue;
        }
        let mut p = Position::empty(&rules);
        moves.iter().for_each(|&mv| {
            p.play(mv);
        });
        // The second judge (an external engine, the more selective one) goes first.
        let second = match &mut second {
            None => None,
            Some(judge) => match judge(&p, &moves) {
                Some(v) if v.abs() <= second_band => Some(v),
                _ => continue,
            },
        };
        let (value, reply) = judge(&p, limits, rng.random());
        if value.abs() > band {
            continue;
        }
        let mut after = p.clone();
        after.play(reply);
        let (after_reply, _) = judge(&after, limits, rng.random());
        if after_reply.abs() > band {
            continue;
        }
        let entry = Entry {
            moves,
            value,
            after_reply,
            second,
        };
        progress(&entry);
        kept.push(entry);
    }
    kept
}

/// `stones` distinct random marks (x, o, x, ...) within `radius` cells of the centre of
/// an `m` x `n` board, drawn from `rng`.
pub fn random_opening(
    rng: &mut StdRng,
    m: usize,
    n: usize,
    stones: usize,
    radius: usize,
) -> Vec<Move> {
    let mid = kinrow_game::centre(m, n);
    let mut moves: Vec<Move> = Vec::new();
    while moves.len() < stones {
        let r = rng.random_range(mid.row.saturating_sub(radius)..(mid.row + radius + 1).min(n));
        let c = rng.random_range(mid.col.saturating_sub(radius)..(mid.col + radius + 1).min(m));
        let mv = Move::mark(r * m + c);
        if !moves.contains(&mv) {
            moves.push(mv);
        }
    }
    moves
}

/// The smallest image of the opening `moves` (x, o, x, ...) under the board's
/// symmetries, as sorted cell lists per colour: two openings with the same key are the
/// same opening.
pub fn symmetry_key(moves: &[Move], m: usize, n: usize) -> Vec<usize> {
    Symmetry::all(m, n)
        .iter()
        .map(|s| {
            let mut cells: Vec<Vec<usize>> = vec![Vec::new(), Vec::new()];
            for (i, mv) in moves.iter().enumerate() {
                cells[i % 2].push(s.map_index(mv.cell(), m, n));
            }
            cells.iter_mut().for_each(|c| c.sort_unstable());
            cells.concat()
        })
        .min()
        .unwrap_or_default()
}
