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
//!    it at [`MATE_SCORE`](super::classify::MATE_SCORE) or more (where `auto`'s search values of a mate sit);
//! 3. where it sees it, the same search limited to depth 1, 2, ... finds the *first
//!    depth* at which it does.
//!
//! Then, once per turn, why a search could miss it ([`Class`](super::classify::Class),
//! in `classify.rs`), from two readings:
//! (b) the first depth, up to `--max-depth`, at which a search of the position after
//! the turning move limited to `--classify-nodes` nodes per depth sees the loss, beside
//! the depth the engine reached before the move under the run's limits (first seed);
//! (c) the threat-space search's VCT of the opponent after the turning move
//! (`Tss::vct_after`, up to `--vct-depth` quiet threats), given each budget of
//! `--vct-ms` in turn until it proves the win or finishes without a proof.
//!
//! Progress lines go to standard error; standard output gets one human line per seed
//! and a JSON line of the whole run, which `--out` also gets; `--lines` gets one JSON
//! line per turn and seed, and one per turn's class.

use std::path::PathBuf;
use std::time::Duration;

use super::classify::{classify_turns, first_depth, search, sees_win, Readings, WriteLine};
use super::{read_suite, TurnLine};
use crate::measuring::arena::{cell_text, EngineSpec};
use crate::output::{print_line, Progress};
use kinrow_engine::{Analysis, Limits, RootCounters};

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

/// Checks every turn of the suite with one run seed: a line per turn to `write_line`,
/// the seed's human line printed, and its tally as JSON returned. `reached`, when given,
/// gets the depth the engine reached before each turning move (the classification's
/// reading, from the first seed).
fn check_seed(
    spec: &EngineSpec,
    limits: &Limits,
    turns: &[TurnLine],
    seed: u64,
    mut reached: Option<&mut Vec<u32>>,
    progress: &Progress,
    write_line: &mut WriteLine<'_>,
) -> Result<serde_json::Value, String> {
    let mut tally = Tally::default();
    let mut root = RootCounters::default();
    for (i, turn) in turns.iter().enumerate() {
        let turn_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64;
        let (seen, json, counts) = check_turn(spec, limits, turn, turn_seed)
            .map_err(|e| format!("--suite: {} ply {}: {e}", turn.game, turn.ply))?;
        if let Some(reached) = reached.as_deref_mut() {
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
    Ok(json)
}

/// The suite of `--suite` (its comments and turns), every turn's position checked, and
/// the other arguments checked.
fn read_checked(args: &CheckArgs) -> Result<(Vec<String>, Vec<TurnLine>), String> {
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
    Ok((comments, turns))
}

/// The run's first line: the suite (`about`, its first comment), the engine, its limits
/// and the seeds.
fn header(args: &CheckArgs, spec: &EngineSpec, limits: &Limits, about: Option<&String>) -> String {
    let limit_text = format!(
        "{} ms{}",
        limits.time.as_millis(),
        limits
            .nodes
            .map_or(String::new(), |n| format!(" or {n} nodes"))
    );
    format!(
        "# turning-suite check of {} ({}) with {} at {limit_text} per search, seeds {:?}",
        args.suite.display(),
        about.map_or("", String::as_str),
        spec.label,
        args.seeds
    )
}

/// Runs `kinrow turning-suite check`.
pub fn run(args: &CheckArgs) -> Result<(), String> {
    let (comments, turns) = read_checked(args)?;
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
    print_line(&header(args, &spec, &limits, comments.first()));
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
        let json = check_seed(
            &spec,
            &limits,
            &turns,
            seed,
            (s == 0).then_some(&mut reached),
            &progress,
            &mut write_line,
        )?;
        per_seed.push(json);
    }
    let classes = if args.no_classify {
        None
    } else {
        let readings = Readings {
            max_depth: args.max_depth,
            nodes: args.classify_nodes,
            vct_depth: args.vct_depth,
            vct_ms: &args.vct_ms,
            seed: args.seeds[0],
        };
        Some(classify_turns(
            &readings,
            &spec,
            &turns,
            &reached,
            &progress,
            &mut write_line,
        )?)
    };
    let summary = serde_json::json!({
        "suite": args.suite.display().to_string(),
        "engine": spec.label,
        "time_ms": limits.time.as_millis() as u64,
        "nodes": limits.nodes,
        "turns": turns.len(),
        "seeds": per_seed,
        "classes": classes.map(serde_json::Value::Object),
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
