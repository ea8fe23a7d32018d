//! `kinrow value-suite agree`: whether the values an answer shows for its best moves
//! follow what a search of the position after each move finds (issue 58, "what players
//! see follows").
//!
//! Each position (of a suite file, or of recorded games between two plies) is answered
//! as `/v1/suggest` answers it, every cell valued ([`super::check::answer`]); its best
//! `--top` evaluated moves, in the answer's order, are each played and the position after
//! the move is searched by the same engine (cells off: the whole budget goes to the
//! search), both at `--nodes`. The child's value for the side to move there, negated, is
//! what the move is worth; the move's shown value *agrees* when it lies within
//! `--tolerance` of it. A move after which the game is over is worth its result. Beside
//! the agreement the report counts the moves the child search sees lost (a child value
//! of [`LOST`] or less for the mover) and, of them, those the answer showed above
//! [`super::LOSING_VALUE`]: losses the player is not shown. A human line and a JSON
//! line; `--out` gets a JSON line per position.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::check::{answer, engines};
use super::LOSING_VALUE;
use crate::measuring::arena::EngineSpec;
use crate::output::{print_line, Progress};
use crate::record::rules_from_text;
use kinrow_engine::{CellValues, Limits, Outcome};
use kinrow_game::{Move, Position};

/// A child value at or below this reads as lost for the mover: a proof, or a value as
/// near the end of the scale as an unproven one gets.
pub const LOST: f64 = -0.9;

/// `kinrow value-suite agree` on the command line.
#[derive(clap::Args, Debug)]
pub struct AgreeArgs {
    /// The positions: a suite file whose JSON lines carry `rules`, `variant`, `exact`
    /// and `moves` (Gomocup `x,y` from the empty board), as the turning and value
    /// suites do.
    #[arg(long, conflicts_with = "games")]
    pub suite: Option<PathBuf>,
    /// Or the positions of recorded games (`kinrow arena --out`, `kinrow selfplay`;
    /// plain JSON lines) between `--from-ply` and `--to-ply` stones.
    #[arg(long)]
    pub games: Option<PathBuf>,
    /// With `--games`: the fewest stones a position has.
    #[arg(long, default_value_t = 16)]
    pub from_ply: usize,
    /// With `--games`: the most stones a position has.
    #[arg(long, default_value_t = 60)]
    pub to_ply: usize,
    /// Every n-th position only (of those kept).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// At most this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The engine, `name[:key=value]*` as in `kinrow arena`.
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Nodes of each search (the answer and every child's).
    #[arg(long, default_value_t = 50_000)]
    pub nodes: u64,
    /// Time of each search in milliseconds, a safety net beside `--nodes`.
    #[arg(long, default_value_t = 20_000)]
    pub time_ms: u64,
    /// The best moves checked per position.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// The largest difference between the shown value and the child's that agrees.
    #[arg(long, default_value_t = 0.2)]
    pub tolerance: f64,
    /// Seed of the engine's RNG (each search's is derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write one JSON line per position to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The fields of a suite line this command reads.
#[derive(Deserialize)]
struct Line {
    rules: String,
    variant: String,
    #[serde(default)]
    exact: bool,
    moves: String,
}

/// The positions of `--suite` or `--games`, with a label each.
fn positions(args: &AgreeArgs) -> Result<Vec<(String, Position)>, String> {
    let mut out = Vec::new();
    if let Some(path) = &args.suite {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--suite: cannot read {}: {e}", path.display()))?;
        let (_, lines): (_, Vec<Line>) =
            crate::output::read_commented_lines(&text).map_err(|e| format!("--suite: {e}"))?;
        for (i, l) in lines.iter().enumerate() {
            let rules = rules_from_text(&l.rules, &l.variant, l.exact)
                .map_err(|e| format!("--suite: line {}: {e}", i + 1))?;
            let mut p = Position::empty(&rules);
            for word in l.moves.split_whitespace() {
                let mv = crate::measuring::arena::cell_move(word, &rules)
                    .map_err(|e| format!("--suite: line {}: moves: {e}", i + 1))?;
                p.try_play(mv)
                    .map_err(|e| format!("--suite: line {}: moves: {word}: {e}", i + 1))?;
            }
            if !p.is_over() {
                out.push((format!("line {}", i + 1), p));
            }
        }
    } else if let Some(path) = &args.games {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--games: cannot read {}: {e}", path.display()))?;
        let all =
            crate::measuring::replay::positions(&text).map_err(|e| format!("--games: {e}"))?;
        for (i, p) in all.into_iter().enumerate() {
            let stones = p.cells().len() - p.empties() as usize;
            if (args.from_ply..=args.to_ply).contains(&stones) {
                out.push((format!("position {i} ({stones} stones)"), p));
            }
        }
    } else {
        return Err("--suite or --games: give the positions".into());
    }
    Ok(out
        .into_iter()
        .step_by(args.every.max(1))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect())
}

/// One move's check: the value shown, the child's value for the mover, their outcomes.
#[derive(Clone, Debug)]
struct Checked {
    mv: Move,
    shown: f64,
    shown_outcome: Outcome,
    child: f64,
    child_outcome: Outcome,
    child_depth: u32,
}

/// The counts over every position.
#[derive(Clone, Debug, Default)]
struct Tally {
    positions: usize,
    moves: usize,
    agree: usize,
    /// Moves the child search sees lost for the mover.
    child_lost: usize,
    /// Of them, shown above [`LOSING_VALUE`].
    lost_not_shown: usize,
    /// Positions whose every checked move agreed.
    all_agree: usize,
}

/// The value for the mover of the position after `mv`: the result when the game is
/// over, else the child search's value negated (and its outcome for the mover, depth).
fn child_value(
    spec: &EngineSpec,
    limits: &Limits,
    position: &Position,
    mv: Move,
    seed: u64,
) -> (f64, Outcome, u32) {
    let me = position.to_move();
    let mut after = position.clone();
    after.play(mv);
    if after.is_over() {
        return match after.winner() {
            Some(w) if w == me => (1.0, Outcome::Win, 0),
            Some(_) => (-1.0, Outcome::Loss, 0),
            None => (0.0, Outcome::Draw, 0),
        };
    }
    let (analysis, values) = answer(spec, limits, &after, seed);
    let outcome = match analysis.evaluation.outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        o => o,
    };
    (-values.evaluation, outcome, analysis.stats.depth)
}

/// Runs `kinrow value-suite agree`.
pub fn run(args: &AgreeArgs) -> Result<(), String> {
    let positions = positions(args)?;
    if positions.is_empty() {
        return Err("no positions between the plies given".into());
    }
    let mut shown_spec = engines(&args.engine, Some(args.nodes))?
        .pop()
        .ok_or("--engine: none given")?;
    shown_spec.nodes = Some(args.nodes);
    let mut child_spec = shown_spec.clone();
    child_spec.cells = CellValues(false);
    let time = Duration::from_millis(args.time_ms);
    let limits = shown_spec.limits(time);
    let mut out = crate::output::out_file(args.out.as_deref())?;
    print_line(&format!(
        "# value-suite agree: {} at {} nodes per search; the best {} moves of each of {} positions, agreeing within {}",
        shown_spec.label,
        args.nodes,
        args.top,
        positions.len(),
        args.tolerance
    ));
    let progress = Progress::new("value-suite agree", "positions", 0, positions.len());
    let mut tally = Tally::default();
    for (i, (label, p)) in positions.iter().enumerate() {
        let seed = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64;
        let (analysis, values) = answer(&shown_spec, &limits, p, seed);
        let mut checked = Vec::new();
        for (e, &v) in analysis.moves.iter().zip(&values.moves) {
            if checked.len() >= args.top {
                break;
            }
            if !e.evaluated {
                continue;
            }
            let (child, child_outcome, child_depth) = child_value(
                &child_spec,
                &limits,
                p,
                e.mv,
                seed ^ ((e.mv.cell() as u64) << 32),
            );
            checked.push(Checked {
                mv: e.mv,
                shown: v,
                shown_outcome: e.eval.outcome,
                child,
                child_outcome,
                child_depth,
            });
        }
        let agreeing = checked
            .iter()
            .filter(|c| (c.shown - c.child).abs() <= args.tolerance)
            .count();
        let lost: Vec<&Checked> = checked.iter().filter(|c| c.child <= LOST).collect();
        tally.positions += 1;
        tally.moves += checked.len();
        tally.agree += agreeing;
        tally.child_lost += lost.len();
        tally.lost_not_shown += lost.iter().filter(|c| c.shown > LOSING_VALUE).count();
        tally.all_agree += usize::from(agreeing == checked.len());
        if let Some(f) = out.as_mut() {
            let moves: Vec<serde_json::Value> = checked
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "move": crate::measuring::arena::cell_text(c.mv, p.m()),
                        "shown": c.shown,
                        "shown_outcome": c.shown_outcome.as_str(),
                        "child": c.child,
                        "child_outcome": c.child_outcome.as_str(),
                        "child_depth": c.child_depth,
                    })
                })
                .collect();
            let json = serde_json::json!({
                "position": label,
                "depth": analysis.stats.depth,
                "path": analysis.stats.path.as_ref().map(|p| p.to_string()),
                "agree": agreeing,
                "moves": moves,
            });
            writeln!(f, "{json}").map_err(|e| format!("--out: {e}"))?;
        }
        progress.advance(&format!("{label}: {agreeing} of {} agree", checked.len()));
    }
    let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
    print_line(&format!(
        "{}: {} of {} shown values agree within {} with the search after the move ({:.1}%); {} of {} positions agree on every move; {} moves the search after them sees lost (value {} or less), {} of them shown above {} (losses not shown)",
        shown_spec.label,
        tally.agree,
        tally.moves,
        args.tolerance,
        100.0 * share(tally.agree, tally.moves),
        tally.all_agree,
        tally.positions,
        tally.child_lost,
        LOST,
        tally.lost_not_shown,
        LOSING_VALUE,
    ));
    print_line(
        &serde_json::json!({
            "engine": shown_spec.label,
            "nodes": args.nodes,
            "top": args.top,
            "tolerance": args.tolerance,
            "positions": tally.positions,
            "moves": tally.moves,
            "agree": tally.agree,
            "agree_share": share(tally.agree, tally.moves),
            "positions_all_agree": tally.all_agree,
            "child_lost": tally.child_lost,
            "child_lost_shown_above_losing_value": tally.lost_not_shown,
        })
        .to_string(),
    );
    Ok(())
}
