//! `kinrow openings`: makes a balanced opening set with an external judge engine.
//!
//! Candidates are `stones` random marks (x, o, x, ...) within `radius` cells of the
//! centre, drawn from a seeded generator; one that is a mirror or rotation of a kept one
//! is skipped. The judge (any Gomocup engine that reports its evaluation in `MESSAGE`
//! lines, e.g. Rapfi's `Eval -118`) searches the candidate for `judge_ms`; the candidate
//! is kept when the judge's evaluation lies within `band` of even and it sees no forced
//! win, and when, after the judge's own best reply, its evaluation for the other side is
//! within the band too: an opening that only looks even until its first move is no
//! test of the engines that play it. Each kept opening is printed as one line of
//! `--openings` (Gomocup `x,y` moves) with the two evaluations in a comment.

use std::collections::HashSet;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use kinrow_engine::opening_table::{random_opening, symmetry_key};
use kinrow_engine::{Eval, ExternalEngine, ExternalSpec, Thinking};
use kinrow_game::{Hand, Move, Position, Rules};

/// Judge failures (a crash, no answer within the turn and [`kinrow_engine::GRACE`])
/// after which `kinrow openings` gives up; a single one only skips its candidate.
pub(crate) const MAX_FAILURES: usize = 10;

/// `kinrow openings` on the command line.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// The judge: `pbrain:PATH[:arg=TEXT]*`, a Gomocup engine that prints its evaluation.
    #[arg(long)]
    pub judge: String,
    /// The board size (five in a row).
    #[arg(long, default_value_t = 15)]
    pub size: u64,
    /// Only exactly five in a row wins.
    #[arg(long)]
    pub exact: bool,
    /// Openings to keep.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// Stones per opening.
    #[arg(long, default_value_t = 3)]
    pub stones: usize,
    /// Stones are drawn within this many cells of the centre.
    #[arg(long, default_value_t = 3)]
    pub radius: usize,
    /// The judge's time per position, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub judge_ms: u64,
    /// The largest |evaluation| (in the judge's units) that counts as even.
    #[arg(long, default_value_t = 60)]
    pub band: i64,
    /// Candidates to try at most.
    #[arg(long, default_value_t = 400)]
    pub tries: usize,
    /// The seed of the candidates drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The judge of `--judge`: `pbrain:PATH[:key=value]*`.
pub(crate) fn judge_spec(text: &str) -> Result<ExternalSpec, String> {
    ExternalSpec::from_pbrain(text).map_err(|e| format!("--judge: {e}"))
}

/// The judge's evaluation of `moves` for the side to move, and its best reply, from a
/// fresh judge process; `None` when the game is over or the judge reported no
/// evaluation.
pub fn judge_position(
    spec: &ExternalSpec,
    rules: &Rules,
    moves: &[Move],
    time: Duration,
) -> Result<Option<(Eval, Move)>, String> {
    Ok(judge_counted(spec, rules, moves, time)?.map(|(eval, _, mv)| (eval, mv)))
}

/// [`judge_position`] with the plies of a forced result where the judge counted them
/// (Rapfi's `Eval +M15`: 15).
pub fn judge_counted(
    spec: &ExternalSpec,
    rules: &Rules,
    moves: &[Move],
    time: Duration,
) -> Result<Option<(Eval, Option<u32>, Move)>, String> {
    Ok(judge_said(spec, rules, moves, time)?.map(|s| (s.eval, s.plies, s.best)))
}

/// What a judge said of one position: its last evaluation (for the side to move) with a
/// forced result's plies where it counted them, the depth it reached and its move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct JudgeSaid {
    /// The evaluation for the side to move.
    pub eval: Eval,
    /// The plies to the five of a forced result (15 of Rapfi's `+M15`).
    pub plies: Option<u32>,
    /// The depth of its last `MESSAGE` line that gave one (8 of `Depth 8-14`).
    pub depth: Option<u32>,
    /// Its move.
    pub best: Move,
}

/// What the judge says of the position after `moves`, the depth it reached included: `None` when the game is over or
/// the judge reported no evaluation.
pub fn judge_said(
    spec: &ExternalSpec,
    rules: &Rules,
    moves: &[Move],
    time: Duration,
) -> Result<Option<JudgeSaid>, String> {
    let mut p = Position::empty(rules);
    for &mv in moves {
        p.try_play(mv).map_err(|e| e.to_string())?;
    }
    if p.is_over() {
        return Ok(None);
    }
    let mut engine = ExternalEngine::start(spec, rules, time)?;
    let (best, messages) = engine.think_messages(&p, moves, time)?;
    let said: Vec<Thinking> = messages
        .iter()
        .map(|l| Thinking::in_message(l, p.m(), p.n()))
        .collect();
    let depth = said.iter().rev().find_map(|t| t.depth);
    Ok(said
        .iter()
        .rev()
        .find_map(|t| t.eval.map(|e| (e, t.plies)))
        .map(|(eval, plies)| JudgeSaid {
            eval,
            plies,
            depth,
            best,
        }))
}

fn even(eval: Eval, band: i64) -> Option<i64> {
    match eval {
        Eval::Score(s) if s.abs() <= band => Some(s),
        _ => None,
    }
}

/// The judge's two evaluations of `moves` (for the side to move, and for the other
/// side after the judge's best reply) when both are within `band` of even.
fn balanced(
    spec: &ExternalSpec,
    rules: &Rules,
    moves: &[Move],
    time: Duration,
    band: i64,
) -> Result<Option<(i64, i64)>, String> {
    let Some((first, reply)) = judge_position(spec, rules, moves, time)? else {
        return Ok(None);
    };
    let Some(e1) = even(first, band) else {
        return Ok(None);
    };
    let mut after = moves.to_vec();
    after.push(reply);
    let second = judge_position(spec, rules, &after, time)?;
    Ok(second
        .and_then(|(eval, _)| even(eval, band))
        .map(|e2| (e1, e2)))
}

/// Runs `kinrow openings`; returns the exit code.
pub fn main(args: OpeningsArgs) -> i32 {
    let spec = judge_spec(&args.judge);
    let rules = Rules::new(args.size, args.size, 5, !args.exact, [Hand::default(); 2]);
    let (spec, rules) = match (spec, rules) {
        (Ok(s), Ok(r)) => (s, r),
        (Err(e), _) => {
            eprintln!("kinrow openings: {e}");
            return 2;
        }
        (_, Err(e)) => {
            eprintln!("kinrow openings: {e}");
            return 2;
        }
    };
    let time = Duration::from_millis(args.judge_ms);
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut seen = HashSet::new();
    let mut kept = 0;
    let mut failures = 0;
    crate::output::print_line(&format!(
        "# {} openings of {} stones for {}x{} {}, judged by {} at {} ms within +-{} (kinrow openings --seed {})",
        args.count,
        args.stones,
        args.size,
        args.size,
        if args.exact { "exactly five" } else { "freestyle" },
        spec.label,
        args.judge_ms,
        args.band,
        args.seed
    ));
    for tried in 1..=args.tries {
        if kept == args.count {
            break;
        }
        let (m, n) = (rules.m(), rules.n());
        let moves = random_opening(&mut rng, m, n, args.stones, args.radius);
        if !seen.insert(symmetry_key(&moves, m, n)) {
            continue;
        }
        let (e1, e2) = match balanced(&spec, &rules, &moves, time, args.band) {
            Ok(Some(evals)) => evals,
            Ok(None) => continue,
            Err(e) => {
                failures += 1;
                eprintln!("kinrow openings: candidate {tried} skipped: {e}");
                if failures == MAX_FAILURES {
                    return 1;
                }
                continue;
            }
        };
        kept += 1;
        let text: Vec<String> = moves
            .iter()
            .map(|mv| {
                let c = mv.coord(rules.m());
                format!("{},{}", c.col, c.row)
            })
            .collect();
        crate::output::print_line(&format!(
            "{}  # eval {e1:+} for the side to move, {e2:+} after the judge's reply",
            text.join(" ")
        ));
        eprintln!("kept {kept} of {tried} tried");
    }
    if kept < args.count {
        eprintln!("kinrow openings: only {kept} of {} found", args.count);
        return 1;
    }
    0
}
