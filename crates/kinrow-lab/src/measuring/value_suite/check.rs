//! `kinrow value-suite check`: has each engine answer every position of a suite file
//! as `/v1/suggest` answers and counts how its per-move values agree with the judge's
//! labels ([`super::Tally`]).
//!
//! An engine is an arena contestant (`name[:key=value]*`, [`EngineSpec`]) searching
//! with `--time-ms` (or its own `time_ms`) and `--nodes` where given, in a fresh context
//! per position, seeded from `--seed` and the position's index. `auto` values every cell
//! here whatever its spec says (`cells=on`): the lab's contestants may leave the other
//! cells unvalued, and the suite measures the values a user is shown. The answer maps to
//! the API's values through the plan's own mapping
//! ([`SearchPlan::values`]: proven outcomes exactly, the rest through the engine's
//! fitted logistic), and a move's value is that of its evaluated entry (none where the
//! engine did not evaluate it: the API shows none).
//!
//! The report gives, per engine: on the winning suite, how many of the judge's winning
//! moves it shows won (a proven win, strictly) and at a value of at least
//! [`WINNING_VALUE`] (loosely); on the defence suite, the share of losing moves at
//! [`LOSING_VALUE`] or below and the positions where the holding move's value is above
//! every losing move's. Beside them, how the engine's own move fares: shown a proven win
//! on the winning suite (another winning move than the judge's counts), one of the
//! losing moves on the defence suite. A human line each, then a JSON line; `--out` gets
//! one JSON line per engine and position.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{
    above_every, cell_text, read_suite, Shown, Suite, SuiteLine, Tally, LOSING_VALUE, WINNING_VALUE,
};
use crate::measuring::arena::EngineSpec;
use crate::output::{print_line, Progress};
use kinrow_engine::level;
use kinrow_engine::value::Values;
use kinrow_engine::CellValues;
use kinrow_engine::EngineKind;
use kinrow_engine::SearchPlan;
use kinrow_engine::{Analysis, Limits};
use kinrow_game::{Move, Position};

/// `kinrow value-suite check` on the command line.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The suite file (`kinrow value-suite build --out`).
    #[arg(long)]
    pub suite: PathBuf,
    /// The engines, comma separated, each `name[:key=value]*` as in `kinrow arena`
    /// (`auto` values every cell here).
    #[arg(long, default_value = "auto")]
    pub engines: String,
    /// Time per position in milliseconds (an engine's own `time_ms` overrides it).
    #[arg(long, default_value_t = 300)]
    pub time_ms: u64,
    /// Nodes per position for each engine without a `nodes` of its own (the search
    /// stops at whichever of the time and the nodes runs out first).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seed of the engines' RNG (each position's is derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every engine's answer on every position as a JSON line to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The engines of `--engines`, `auto` valuing every cell.
pub fn engines(text: &str, nodes: Option<u64>) -> Result<Vec<EngineSpec>, String> {
    text.split(',')
        .map(|s| {
            let mut spec = EngineSpec::parse(s).map_err(|e| format!("--engines: {e}"))?;
            if spec.kind == EngineKind::Auto {
                spec.cells = CellValues(true);
            }
            if spec.nodes.is_none() {
                spec.nodes = nodes;
            }
            Ok(spec)
        })
        .collect()
}

/// `spec`'s answer on `position` within `limits` and its values as the API maps them.
pub fn answer(
    spec: &EngineSpec,
    limits: &Limits,
    position: &Position,
    seed: u64,
) -> (Analysis, Values) {
    let engine = spec.build();
    let mut ctx = spec.context();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut analysis = engine.analyze_with(position, limits, &mut ctx, &mut rng);
    let plan = SearchPlan {
        level: spec.level.unwrap_or(level::FULL),
        ..SearchPlan::new(spec.kind, limits.clone(), seed)
    };
    let values = plan.values(position, &mut analysis);
    (analysis, values)
}

fn shown_json(mv: Move, s: Shown, m: usize) -> serde_json::Value {
    serde_json::json!({
        "move": cell_text(mv, m),
        "value": s.value,
        "outcome": s.outcome.as_str(),
    })
}

/// Answers one suite position, counts it into `tally` and gives its JSON line.
fn check_line(
    spec: &EngineSpec,
    limits: &Limits,
    line: &SuiteLine,
    seed: u64,
    tally: &mut Tally,
) -> Result<serde_json::Value, String> {
    let (p, _) = line.position()?;
    let m = p.m();
    let labelled = line.cells(std::slice::from_ref(&line.mv))?[0];
    let (analysis, values) = answer(spec, limits, &p, seed);
    let shown = |mv: Move| Shown::of(&analysis, &values, mv);
    let main = shown(labelled);
    let mut json = serde_json::json!({
        "engine": spec.label,
        "suite": line.suite,
        "game": line.game,
        "ply": line.ply,
        "best": cell_text(analysis.best, m),
        "evaluation": values.evaluation,
        "depth": analysis.stats.depth,
        "nodes": analysis.stats.nodes,
        "elapsed_ms": analysis.stats.elapsed.as_secs_f64() * 1000.0,
        "judged": shown_json(labelled, main, m),
    });
    match line.suite {
        Suite::Winning => {
            let own = shown(analysis.best);
            tally.add_winning(main, own);
            json["own_won"] = own.won().into();
            json["won"] = main.won().into();
            json["winning"] = main.winning().into();
        }
        Suite::Defence => {
            let losing_moves = line.cells(&line.losing)?;
            let losing: Vec<Shown> = losing_moves.iter().map(|&mv| shown(mv)).collect();
            let own_loses = losing_moves.contains(&analysis.best);
            tally.add_defence(main, &losing, own_loses);
            json["own_losing"] = own_loses.into();
            json["losing"] = losing_moves
                .iter()
                .zip(&losing)
                .map(|(&mv, &s)| shown_json(mv, s, m))
                .collect();
            json["lost_shown"] = losing.iter().filter(|l| l.lost()).count().into();
            json["above_every"] = above_every(main, &losing).into();
        }
    }
    Ok(json)
}

/// The human lines of one engine's counts.
pub fn report(label: &str, t: &Tally) -> Vec<String> {
    vec![
        format!(
            "{label}: winning suite: the judge's winning move shown won (a proven win) in {} of {}, at a value of {WINNING_VALUE} or more in {} of {}; its own move shown won in {}",
            t.won, t.winning, t.won_loosely, t.winning, t.own_won
        ),
        format!(
            "{label}: defence suite: {} of {} losing moves at {LOSING_VALUE} or below ({:.1}%); the holding move above every losing one in {} of {}; its own move one of the losing ones in {}; {} labelled moves without a value",
            t.shown_lost,
            t.losing,
            100.0 * t.lost_share(),
            t.held_above,
            t.defence,
            t.own_losing,
            t.unvalued
        ),
    ]
}

/// Runs `kinrow value-suite check`.
pub fn run(args: &CheckArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.suite)
        .map_err(|e| format!("--suite: cannot read {}: {e}", args.suite.display()))?;
    let (comments, lines) = read_suite(&text).map_err(|e| format!("--suite: {e}"))?;
    if lines.is_empty() {
        return Err("--suite: no positions".into());
    }
    let specs = engines(&args.engines, args.nodes)?;
    let mut out = crate::output::out_file(args.out.as_deref())?;
    let time = Duration::from_millis(args.time_ms);
    print_line(&format!(
        "# value-suite check of {} ({}) at {} ms{} per position, seed {}; auto values every cell (cells=on, as /v1/suggest)",
        args.suite.display(),
        comments.first().map_or("", String::as_str),
        args.time_ms,
        args.nodes.map_or(String::new(), |n| format!(" or {n} nodes")),
        args.seed
    ));
    let progress = Progress::new(
        "value-suite check",
        "positions",
        0,
        specs.len() * lines.len(),
    );
    for spec in &specs {
        let limits = spec.limits(time);
        let mut tally = Tally::default();
        for (i, line) in lines.iter().enumerate() {
            let seed = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64;
            let json = check_line(spec, &limits, line, seed, &mut tally)
                .map_err(|e| format!("--suite: {} ply {}: {e}", line.game, line.ply))?;
            if let Some(f) = out.as_mut() {
                writeln!(f, "{json}").map_err(|e| format!("--out: {e}"))?;
            }
            progress.advance(&format!(
                "{}: {:?} {} ply {}: {} value {}",
                spec.label, line.suite, line.game, line.ply, line.mv, json["judged"]["value"]
            ));
        }
        for l in report(&spec.label, &tally) {
            print_line(&l);
        }
        let mut json = tally.json();
        json["engine"] = spec.label.clone().into();
        json["time_ms"] = spec.time_ms.unwrap_or(args.time_ms).into();
        json["nodes"] = spec.nodes.into();
        print_line(&json.to_string());
    }
    Ok(())
}
