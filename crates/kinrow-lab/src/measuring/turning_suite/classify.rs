//! Why a search could miss a turn of the turning suite (`kinrow turning-suite check`,
//! once per turn after the seeds' checks): a [`Class`] from two readings of the position
//! after the turning move, (b) the first depth at which a node-limited search sees the
//! loss ([`first_depth`]) beside the depth the engine reached before the move, and (c)
//! whether the threat-space search's VCT of the opponent proves the win within one of
//! the `--vct-ms` budgets ([`Tss::vct_after`]). The searches the check makes of each
//! turn ([`search`], [`sees_win`], [`first_depth`]) live here too: the check reads
//! through them, and nothing here reads the check.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::TurnLine;
use crate::measuring::arena::EngineSpec;
use crate::output::{print_line, Progress};
use kinrow_engine::Budget;
use kinrow_engine::WinScale;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_engine::{Tss, Verdict};
use kinrow_game::Position;

/// A score at or above which the side to move reads as winning: half the tree searches'
/// win score. `auto`'s search values of a mate (`PATTERN_MATE`, 2^49) and its proofs
/// (`WinScale::SEARCH`, 10^15 less the plies) are above it; no evaluation comes near.
pub const MATE_SCORE: f64 = WinScale::SEARCH.win / 2.0;

/// Where `check` writes: one JSON line per turn (`--lines`).
pub(super) type WriteLine<'a> = dyn FnMut(&serde_json::Value) -> Result<(), String> + 'a;

/// How the turns are read and classified: `kinrow turning-suite check`'s `--max-depth`,
/// `--classify-nodes`, `--vct-depth`, `--vct-ms`, and the run's first seed.
pub struct Readings<'a> {
    /// The deepest depth-limited search of reading (b).
    pub max_depth: u32,
    /// Its nodes per depth.
    pub nodes: u64,
    /// The VCT's quiet threats, at most (reading (c)).
    pub vct_depth: u32,
    /// The VCT's budgets in milliseconds, tried in turn.
    pub vct_ms: &'a [u64],
    /// The seed of the searches.
    pub seed: u64,
}

/// Whether `a`, an answer for the side to move, reads as a win for it.
pub fn sees_win(a: &Analysis) -> bool {
    a.evaluation.outcome == Outcome::Win || a.evaluation.score >= MATE_SCORE
}

/// One search of `position` by `spec` within `limits`, in a fresh context.
pub(super) fn search(
    spec: &EngineSpec,
    limits: &Limits,
    position: &Position,
    seed: u64,
) -> Analysis {
    let engine = spec.build();
    let mut ctx = spec.context();
    let mut rng = StdRng::seed_from_u64(seed);
    engine.analyze_with(position, limits, &mut ctx, &mut rng)
}

/// The first depth from 1 up to `max` at which a search of `after` within `limits`
/// limited to that depth sees the win of its side to move; `None` when none does, or
/// when a search stopped short of its depth (deeper ones would too).
pub fn first_depth(
    spec: &EngineSpec,
    limits: &Limits,
    after: &Position,
    seed: u64,
    max: u32,
) -> Option<u32> {
    for d in 1..=max {
        let limited = Limits {
            depth: Some(d),
            ..limits.clone()
        };
        let a = search(spec, &limited, after, seed);
        if sees_win(&a) {
            return Some(d);
        }
        if a.stats.depth < d && !a.stats.complete {
            return None;
        }
    }
    None
}

/// Why a search could miss a turn (the research note's D0.2), decided in this order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// A search of the position after the turning move sees the loss at some depth up
    /// to `--max-depth`, deeper than the engine reached below the turning move.
    Horizon,
    /// The opponent's VCT after the turning move proves the win within the largest
    /// `--vct-ms` budget: the root guard reads it with enough time.
    GuardTime,
    /// The depth-limited search sees it within the depth reached and the VCT does not:
    /// the win needs a quiet move that is no threat, which the VCT does not try.
    UnreadableByVct,
    /// Neither sees it: the winning line is cut from the search's move lists and the
    /// VCT's.
    Pruned,
}

impl Class {
    /// The name in the reports.
    pub fn name(self) -> &'static str {
        match self {
            Class::Horizon => "horizon",
            Class::GuardTime => "guard out of time",
            Class::UnreadableByVct => "unreadable by the VCT",
            Class::Pruned => "pruned",
        }
    }

    /// The class of a turn: `first_depth` is the first depth of the position after the
    /// turning move at which the search sees the loss (None: never up to the maximum),
    /// `reached` the depth the engine reached before the move (the turning move's
    /// subtree gets one ply less), `vct_proves` whether the VCT proved the win.
    pub fn of(first_depth: Option<u32>, reached: u32, vct_proves: bool) -> Class {
        match first_depth {
            Some(d) if d + 1 > reached => Class::Horizon,
            _ if vct_proves => Class::GuardTime,
            Some(_) => Class::UnreadableByVct,
            None => Class::Pruned,
        }
    }

    /// Every class, in report order.
    pub const ALL: [Class; 4] = [
        Class::Horizon,
        Class::GuardTime,
        Class::UnreadableByVct,
        Class::Pruned,
    ];
}

/// The classification's readings of one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// (b): the first depth at which the node-limited search sees the loss.
    pub first_depth: Option<u32>,
    /// (c): the budget in milliseconds within which the VCT proved the win.
    pub vct_ms: Option<u64>,
    /// (c): the VCT's last verdict, in words.
    pub vct: &'static str,
    /// The time the VCT took for that verdict.
    pub vct_took: Duration,
    /// The class.
    pub class: Class,
}

fn classify(
    args: &Readings<'_>,
    spec: &EngineSpec,
    turn: &TurnLine,
    reached: u32,
    seed: u64,
) -> Result<Reading, String> {
    let (p, turning, _) = turn.position()?;
    let mut after = p.clone();
    after.play(turning);
    let first = if after.is_over() {
        None
    } else {
        let limits = Limits {
            time: Duration::from_secs(3600),
            nodes: Some(args.nodes),
            ..spec.limits(Duration::from_secs(3600))
        };
        first_depth(spec, &limits, &after, seed, args.max_depth)
    };
    let (mut vct_ms, mut vct, mut took) = (None, "not run", Duration::ZERO);
    for &ms in args.vct_ms {
        let mut tss = Tss::new(&p);
        let start = Instant::now();
        let verdict = tss.vct_after(
            &mut Budget::with_time(Duration::from_millis(ms)),
            turning,
            args.vct_depth,
        );
        took = start.elapsed();
        vct = match verdict {
            Verdict::Win(_) => "win",
            Verdict::NoProof => "no proof",
            Verdict::OutOfTime => "out of time",
            Verdict::Unsupported(why) => why,
        };
        match verdict {
            Verdict::Win(_) => {
                vct_ms = Some(ms);
                break;
            }
            // Finished without a proof: more time finds none either.
            Verdict::NoProof | Verdict::Unsupported(_) => break,
            Verdict::OutOfTime => {}
        }
    }
    Ok(Reading {
        first_depth: first,
        vct_ms,
        vct,
        vct_took: took,
        class: Class::of(first, reached, vct_ms.is_some()),
    })
}

/// Classifies every turn of the suite (the engine's depth before each turning move in
/// `reached`): a line per turn to `write_line`, the counts printed and returned by class
/// name.
pub(super) fn classify_turns(
    args: &Readings<'_>,
    spec: &EngineSpec,
    turns: &[TurnLine],
    reached: &[u32],
    progress: &Progress,
    write_line: &mut WriteLine<'_>,
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let mut classes = serde_json::Map::new();
    let mut counts = [0usize; 4];
    for (i, turn) in turns.iter().enumerate() {
        let r = classify(args, spec, turn, reached[i], args.seed)
            .map_err(|e| format!("--suite: {} ply {}: {e}", turn.game, turn.ply))?;
        counts[Class::ALL.iter().position(|&c| c == r.class).unwrap_or(0)] += 1;
        write_line(&serde_json::json!({
            "engine": spec.label,
            "game": turn.game,
            "ply": turn.ply,
            "turning": turn.turning,
            "judge_plies": turn.plies,
            "class": r.class.name(),
            "first_depth": r.first_depth,
            "depth_reached_before": reached[i],
            "vct": r.vct,
            "vct_proved_within_ms": r.vct_ms,
            "vct_took_ms": r.vct_took.as_secs_f64() * 1000.0,
        }))?;
        progress.advance(&format!(
            "{} ply {}: {} (first depth {:?}, reached {}, VCT {} in {:.0} ms)",
            turn.game,
            turn.ply,
            r.class.name(),
            r.first_depth,
            reached[i],
            r.vct,
            r.vct_took.as_secs_f64() * 1000.0
        ));
    }
    let parts: Vec<String> = Class::ALL
        .iter()
        .zip(counts)
        .map(|(c, n)| format!("{} {n}", c.name()))
        .collect();
    print_line(&format!(
        "{}: classes of the {} turns (search to depth {} at {} nodes a depth, VCT of {} quiet threats within {:?} ms): {}",
        spec.label,
        turns.len(),
        args.max_depth,
        args.nodes,
        args.vct_depth,
        args.vct_ms,
        parts.join(", ")
    ));
    for (c, n) in Class::ALL.iter().zip(counts) {
        classes.insert(c.name().to_string(), n.into());
    }
    Ok(classes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_is_classed_horizon_guard_unreadable_or_pruned_in_that_order() {
        // Seen at depth 6 below a move searched to 5 (its subtree got 4): the horizon.
        assert_eq!(Class::of(Some(6), 5, true), Class::Horizon);
        // Within the depth reached: the VCT decides between the guard and a quiet win.
        assert_eq!(Class::of(Some(3), 8, true), Class::GuardTime);
        assert_eq!(Class::of(Some(3), 8, false), Class::UnreadableByVct);
        assert_eq!(Class::of(None, 8, true), Class::GuardTime);
        assert_eq!(Class::of(None, 8, false), Class::Pruned);
    }
}
