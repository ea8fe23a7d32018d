//! `kinrow turning-suite check`: how an engine fares on the turning suite.
//!
//! For every seed of `--seeds` and every turn of the suite, with the engine's limits
//! (`--nodes`, a fixed node count, replays exactly; `--time-ms` alone is what a player
//! on the clock gets), each search in a fresh context:
//!
//! 1. the engine answers the position before the turning move, as in a game: the
//!    turning move is *avoided* when it plays another move (the judge's own move is
//!    counted apart, and so are the *open* turns, where the judge did not see the
//!    loser lost already before the turning move: only there can avoiding it help);
//! 2. it searches the position after the turning move: it *sees the loss* when it
//!    proves the win of the side to move there (the turning move's opponent), or values
//!    it at [`MATE_SCORE`] or more (where `auto`'s search values of a mate sit);
//! 3. where it sees it, the same search limited to depth 1, 2, ... finds the *first
//!    depth* at which it does.
//!
//! Then, once per turn, why a search could miss it ([`Class`]), from two readings:
//! (b) the first depth, up to `--max-depth`, at which a search of the position after
//! the turning move limited to `--classify-nodes` nodes per depth sees the loss, beside
//! the depth the engine reached before the move under the run's limits (first seed);
//! (c) the threat-space search's VCT of the opponent after the turning move
//! ([`Tss::vct_after`], up to `--vct-depth` quiet threats), given each budget of
//! `--vct-ms` in turn until it proves the win or finishes without a proof.
//!
//! Progress lines go to standard error; standard output gets one human line per seed
//! and a JSON line of the whole run, which `--out` also gets; `--lines` gets one JSON
//! line per turn and seed, and one per turn's class.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{read_suite, TurnLine};
use crate::arena::{cell_text, EngineSpec};
use crate::output::{print_line, Progress};
use kinrow_engine::Budget;
use kinrow_engine::RootCounters;
use kinrow_engine::WinScale;
use kinrow_engine::{Analysis, Limits, Outcome};
use kinrow_engine::{Tss, Verdict};
use kinrow_game::Position;

/// A score at or above which the side to move reads as winning: half the tree searches'
/// win score. `auto`'s search values of a mate (`PATTERN_MATE`, 2^49) and its proofs
/// (`WinScale::SEARCH`, 10^15 less the plies) are above it; no evaluation comes near.
pub const MATE_SCORE: f64 = WinScale::SEARCH.win / 2.0;

/// `kinrow turning-suite check` on the command line.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The suite file (`kinrow turning-suite build --out`).
    #[arg(long)]
    pub suite: PathBuf,
    /// The engine, `name[:key=value]*` as in `kinrow arena`.
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Time per search in milliseconds (the engine's own `time_ms` overrides it).
    #[arg(long, default_value_t = 200)]
    pub time_ms: u64,
    /// Nodes per search (the engine's own `nodes` overrides it; the search stops at
    /// whichever of the time and the nodes runs out first).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seeds of the engine's RNG, comma separated (each turn's is derived from it).
    #[arg(long, default_value = "1", value_delimiter = ',')]
    pub seeds: Vec<u64>,
    /// The deepest depth of the classification's search of the position after the
    /// turning move.
    #[arg(long, default_value_t = 12)]
    pub max_depth: u32,
    /// Nodes per depth of that search.
    #[arg(long, default_value_t = 1_000_000)]
    pub classify_nodes: u64,
    /// The budgets of the opponent's VCT after the turning move, in milliseconds, tried
    /// in turn.
    #[arg(long, default_value = "20,50,200,4000", value_delimiter = ',')]
    pub vct_ms: Vec<u64>,
    /// Quiet threats the VCT may chain (the root guard's depth is 6).
    #[arg(long, default_value_t = 6)]
    pub vct_depth: u32,
    /// Leave the classification out (the seeds' counts only).
    #[arg(long)]
    pub no_classify: bool,
    /// Write the run's summary as JSON to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write one JSON line per turn and seed, and per turn's class, to this file.
    #[arg(long)]
    pub lines: Option<PathBuf>,
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

/// Whether `a`, an answer for the side to move, reads as a win for it.
pub fn sees_win(a: &Analysis) -> bool {
    a.evaluation.outcome == Outcome::Win || a.evaluation.score >= MATE_SCORE
}

/// One search of `position` by `spec` within `limits`, in a fresh context.
fn search(spec: &EngineSpec, limits: &Limits, position: &Position, seed: u64) -> Analysis {
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

/// What the engine did on one turn with one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    /// It played another move than the turning move.
    pub avoided: bool,
    /// It played the judge's move.
    pub judge_move: bool,
    /// Its search of the position after the turning move saw the loss.
    pub sees_loss: bool,
    /// The first depth at which it saw it.
    pub first_depth: Option<u32>,
    /// The depth it reached before the turning move.
    pub depth_before: u32,
    /// The turn is open: the judge did not see the loser lost before the turning move
    /// ([`TurnLine::open`]).
    pub open: bool,
}

/// One seed's counts over the suite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Turns answered.
    pub turns: usize,
    /// Turning moves avoided.
    pub avoided: usize,
    /// The judge's move played.
    pub judge_move: usize,
    /// Losses seen after the turning move.
    pub sees_loss: usize,
    /// The first depths of the losses seen.
    pub first_depths: Vec<u32>,
    /// The depths reached before the turning moves.
    pub depths_before: Vec<u32>,
    /// Open turns answered ([`TurnLine::open`]).
    pub open: usize,
    /// Of them, the turning moves avoided.
    pub open_avoided: usize,
}

impl Tally {
    /// Counts one turn.
    pub fn add(&mut self, s: &Seen) {
        self.turns += 1;
        self.avoided += usize::from(s.avoided);
        self.judge_move += usize::from(s.judge_move);
        self.sees_loss += usize::from(s.sees_loss);
        self.first_depths.extend(s.first_depth);
        self.depths_before.push(s.depth_before);
        self.open += usize::from(s.open);
        self.open_avoided += usize::from(s.open && s.avoided);
    }

    /// The counts as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "turns": self.turns,
            "avoided": self.avoided,
            "open_turns": self.open,
            "open_avoided": self.open_avoided,
            "judge_move_played": self.judge_move,
            "sees_loss_after": self.sees_loss,
            "first_depth_median": median(&self.first_depths),
            "first_depths": self.first_depths,
            "mean_depth_before": mean(&self.depths_before),
        })
    }
}

fn median(xs: &[u32]) -> Option<u32> {
    let mut v = xs.to_vec();
    v.sort_unstable();
    v.get(v.len() / 2).copied()
}

fn mean(xs: &[u32]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().map(|&x| f64::from(x)).sum::<f64>() / xs.len() as f64
    }
}

/// One turn answered with one seed; its JSON line.
fn check_turn(
    spec: &EngineSpec,
    limits: &Limits,
    turn: &TurnLine,
    seed: u64,
) -> Result<(Seen, serde_json::Value, RootCounters), String> {
    let (p, turning, judge) = turn.position()?;
    let m = p.m();
    // The root's counts of the answer before the turning move alone (issue 58 step 6).
    RootCounters::take();
    let before = search(spec, limits, &p, seed);
    let root = RootCounters::take();
    let mut after = p.clone();
    after.play(turning);
    let (sees_loss, answer_after) = if after.is_over() {
        // The turning move ended the game: nothing after it to search.
        (false, None)
    } else {
        let a = search(spec, limits, &after, seed);
        (sees_win(&a), Some(a))
    };
    let first = match &answer_after {
        Some(a) if sees_loss => first_depth(spec, limits, &after, seed, a.stats.depth.max(1)),
        _ => None,
    };
    let seen = Seen {
        avoided: before.best != turning,
        judge_move: Some(before.best) == judge,
        sees_loss,
        first_depth: first,
        depth_before: before.stats.depth,
        open: turn.open(),
    };
    let outcome = |a: &Analysis| format!("{:?}", a.evaluation.outcome).to_lowercase();
    let json = serde_json::json!({
        "engine": spec.label,
        "turn_seed": seed,
        "game": turn.game,
        "ply": turn.ply,
        "turning": turn.turning,
        "judge_move": turn.judge_move,
        "judge_plies": turn.plies,
        "open": seen.open,
        "played": cell_text(before.best, m),
        "avoided": seen.avoided,
        "played_judge_move": seen.judge_move,
        "depth_before": before.stats.depth,
        "nodes_before": before.stats.nodes,
        "score_before": before.evaluation.score,
        "outcome_before": outcome(&before),
        "sees_loss": sees_loss,
        "score_after": answer_after.as_ref().map(|a| a.evaluation.score),
        "outcome_after": answer_after.as_ref().map(outcome),
        "depth_after": answer_after.as_ref().map(|a| a.stats.depth),
        "nodes_after": answer_after.as_ref().map(|a| a.stats.nodes),
        "first_depth": first,
        "root_before": serde_json::from_str::<serde_json::Value>(&root.json())
            .map_err(|e| e.to_string())?,
    });
    Ok((seen, json, root))
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
    args: &CheckArgs,
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
            nodes: Some(args.classify_nodes),
            ..spec.limits(Duration::from_secs(3600))
        };
        first_depth(spec, &limits, &after, seed, args.max_depth)
    };
    let (mut vct_ms, mut vct, mut took) = (None, "not run", Duration::ZERO);
    for &ms in &args.vct_ms {
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

/// Runs `kinrow turning-suite check`.
pub fn run(args: &CheckArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.suite)
        .map_err(|e| format!("--suite: cannot read {}: {e}", args.suite.display()))?;
    let (comments, turns) = read_suite(&text).map_err(|e| format!("--suite: {e}"))?;
    if turns.is_empty() {
        return Err("--suite: no turns".into());
    }
    for t in &turns {
        t.position()
            .map_err(|e| format!("--suite: {} ply {}: {e}", t.game, t.ply))?;
    }
    if args.seeds.is_empty() {
        return Err("--seeds: give at least one seed".into());
    }
    if args.max_depth == 0 {
        return Err("--max-depth must be at least 1".into());
    }
    if args.vct_ms.is_empty() || args.vct_ms.contains(&0) {
        return Err("--vct-ms: give budgets above 0 ms".into());
    }
    let mut spec = EngineSpec::parse(&args.engine).map_err(|e| format!("--engine: {e}"))?;
    if spec.nodes.is_none() {
        spec.nodes = args.nodes;
    }
    let limits = spec.limits(Duration::from_millis(args.time_ms));
    let mut lines = crate::output::out_file(args.lines.as_deref())?;
    let mut write_line = |json: &serde_json::Value| -> Result<(), String> {
        if let Some(f) = lines.as_mut() {
            use std::io::Write;
            writeln!(f, "{json}").map_err(|e| format!("--lines: {e}"))?;
        }
        Ok(())
    };
    let limit_text = format!(
        "{} ms{}",
        limits.time.as_millis(),
        limits
            .nodes
            .map_or(String::new(), |n| format!(" or {n} nodes"))
    );
    print_line(&format!(
        "# turning-suite check of {} ({}) with {} at {limit_text} per search, seeds {:?}",
        args.suite.display(),
        comments.first().map_or("", String::as_str),
        spec.label,
        args.seeds
    ));
    let classify_units = if args.no_classify { 0 } else { turns.len() };
    let progress = Progress::new(
        "turning-suite check",
        "turns",
        0,
        args.seeds.len() * turns.len() + classify_units,
    );
    let mut per_seed = Vec::new();
    let mut reached = vec![0u32; turns.len()];
    for (s, &seed) in args.seeds.iter().enumerate() {
        let mut tally = Tally::default();
        let mut root = RootCounters::default();
        for (i, turn) in turns.iter().enumerate() {
            let turn_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64;
            let (seen, json, counts) = check_turn(&spec, &limits, turn, turn_seed)
                .map_err(|e| format!("--suite: {} ply {}: {e}", turn.game, turn.ply))?;
            if s == 0 {
                reached[i] = seen.depth_before;
            }
            let mut json = json;
            json["run_seed"] = seed.into();
            tally.add(&seen);
            root.add(&counts);
            write_line(&json)?;
            progress.advance(&format!(
                "seed {seed}: {} ply {}: turning {} played {}{}",
                turn.game,
                turn.ply,
                turn.turning,
                json["played"].as_str().unwrap_or("-"),
                if seen.sees_loss {
                    format!(", the loss seen from depth {:?}", seen.first_depth)
                } else {
                    ", the loss not seen".into()
                }
            ));
        }
        print_line(&format!(
            "{} seed {seed}: turning moves avoided in {} of {} ({} of the {} open turns; the judge's move in {}); the loss seen after the turning move in {} of {}, first at depth {} (median); mean depth before the move {:.2}",
            spec.label,
            tally.avoided,
            tally.turns,
            tally.open_avoided,
            tally.open,
            tally.judge_move,
            tally.sees_loss,
            tally.turns,
            median(&tally.first_depths).map_or("-".into(), |d| d.to_string()),
            mean(&tally.depths_before)
        ));
        print_line(&format!(
            "{} seed {seed}, the root of the answers before the turning moves: {}",
            spec.label,
            root.line()
        ));
        let mut json = tally.json();
        json["seed"] = seed.into();
        json["root_before"] =
            serde_json::from_str(&root.json()).map_err(|e| format!("root counts: {e}"))?;
        per_seed.push(json);
    }
    let mut classes = serde_json::Map::new();
    if !args.no_classify {
        let mut counts = [0usize; 4];
        for (i, turn) in turns.iter().enumerate() {
            let r = classify(args, &spec, turn, reached[i], args.seeds[0])
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
            args.classify_nodes,
            args.vct_depth,
            args.vct_ms,
            parts.join(", ")
        ));
        for (c, n) in Class::ALL.iter().zip(counts) {
            classes.insert(c.name().to_string(), n.into());
        }
    }
    let summary = serde_json::json!({
        "suite": args.suite.display().to_string(),
        "engine": spec.label,
        "time_ms": limits.time.as_millis() as u64,
        "nodes": limits.nodes,
        "turns": turns.len(),
        "seeds": per_seed,
        "classes": (!args.no_classify).then_some(serde_json::Value::Object(classes)),
        "classify": (!args.no_classify).then(|| serde_json::json!({
            "max_depth": args.max_depth,
            "nodes_per_depth": args.classify_nodes,
            "vct_depth": args.vct_depth,
            "vct_ms": args.vct_ms,
        })),
    });
    print_line(&summary.to_string());
    if let Some(path) = &args.out {
        std::fs::write(path, format!("{summary}\n"))
            .map_err(|e| format!("--out: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
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

    #[test]
    fn the_tally_counts_each_seed() {
        let mut t = Tally::default();
        let seen = |avoided, sees_loss, first_depth| Seen {
            avoided,
            judge_move: false,
            sees_loss,
            first_depth,
            depth_before: 6,
            open: avoided,
        };
        t.add(&seen(true, true, Some(3)));
        t.add(&seen(false, true, Some(5)));
        t.add(&seen(false, false, None));
        let j = t.json();
        assert_eq!(j["turns"], 3);
        assert_eq!(j["avoided"], 1);
        assert_eq!(
            (&j["open_turns"], &j["open_avoided"]),
            (&1.into(), &1.into())
        );
        assert_eq!(j["sees_loss_after"], 2);
        assert_eq!(j["first_depth_median"], 5);
        assert_eq!(j["mean_depth_before"], 6.0);
    }
}
