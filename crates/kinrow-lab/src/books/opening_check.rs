//! `kinrow opening-check`: measures the swap and swap2 decisions of issue 40.
//!
//! - `--task balance`: the engine proposes `--count` three-stone openings (seeds `seed`,
//!   `seed + 1`, ..) as `POST /v1/opening` does with its default budget
//!   (`--propose-ms`); each is then valued for o, to move, by a long search of `auto`
//!   (`--judge-ms`) and, with `--external`, by an external engine over the Gomocup
//!   protocol (its `Eval` mapped to a win probability `w = 1 / (1 + exp(-eval / 200))`,
//!   Rapfi's own scale, and to the value `2w - 1`). A proposal is even when
//!   `|value| <= --band` by a judge.
//! - `--task choice`: random three-stone positions (seeded draws near the centre) are
//!   valued by a long search (`--judge-ms`) and kept when `|value| > --lopsided`, until
//!   `--count` are kept; at each the engine takes swap's `choose` decision with the
//!   default budget, and it is right when it picks the side the long search favours.
//!   With `--external`, the external engine's opinion of the side is recorded too.
//!
//! Every item is appended to `--out` as a JSON line as it ends; a rerun with the same
//! file skips what is there (resumable). Progress goes to standard error, the summary to
//! standard output.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::openings::judge_position;
use crate::measuring::judge::Judgement;
use crate::output::Progress;
use kinrow_engine::swap;
use kinrow_engine::swap::Decision;
use kinrow_engine::EngineKind;
use kinrow_engine::ExternalSpec;
use kinrow_engine::Limits;
use kinrow_engine::SearchPlan;
use kinrow_game::{Move, Opening, Player, Position, Rules};

/// `kinrow opening-check` on the command line.
#[derive(clap::Args, Debug)]
pub struct OpeningCheckArgs {
    /// `balance` (proposals judged) or `choice` (sides picked on lopsided positions).
    #[arg(long)]
    pub task: String,
    /// Proposals, or lopsided positions, to measure.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only exactly five in a row wins (the proposals come from the exact-five table).
    #[arg(long)]
    pub exact: bool,
    /// The opening rule of the proposals and choices: `swap2` or `swap`.
    #[arg(long, default_value = "swap2")]
    pub opening: String,
    /// The engine that decides (its decisions are measured).
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// The decision's budget in milliseconds (the API's default is 1000).
    #[arg(long, default_value_t = 1000)]
    pub propose_ms: u64,
    /// The long search of the judge (`auto`), in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub judge_ms: u64,
    /// An external judge too, `pbrain:PATH[:arg=TEXT]*`, with the same time.
    #[arg(long)]
    pub external: Option<String>,
    /// The largest |value| that counts as even.
    #[arg(long, default_value_t = 0.15)]
    pub band: f64,
    /// The smallest |value| that counts as lopsided (`choice`).
    #[arg(long, default_value_t = 0.5)]
    pub lopsided: f64,
    /// Random positions to try at most (`choice`).
    #[arg(long, default_value_t = 400)]
    pub tries: usize,
    /// Every item as a JSON line, appended as it ends; a rerun skips what is there.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `kinrow opening-check`; returns the exit code.
pub fn main(args: OpeningCheckArgs) -> i32 {
    match run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow opening-check: {e}");
            2
        }
    }
}

struct Setup {
    rules: Rules,
    kind: EngineKind,
    external: Option<ExternalSpec>,
    judge: Duration,
    done: Vec<serde_json::Value>,
    file: Option<std::fs::File>,
}

fn run(args: &OpeningCheckArgs) -> Result<(), String> {
    let opening = match Opening::parse(&args.opening) {
        Some(o @ (Opening::Swap | Opening::Swap2)) => o,
        _ => return Err(format!("--opening {:?} is not swap or swap2", args.opening)),
    };
    let rules = Rules::new(15, 15, 5, !args.exact, Default::default())
        .and_then(|r| r.with_opening(opening))
        .map_err(|e| e.to_string())?;
    let kind = EngineKind::parse(&args.engine)
        .ok_or_else(|| format!("--engine {:?} is not an engine", args.engine))?;
    let external = match &args.external {
        None => None,
        Some(text) => {
            Some(ExternalSpec::from_pbrain(text).map_err(|e| format!("--external: {e}"))?)
        }
    };
    let (done, file) = match &args.out {
        None => (Vec::new(), None),
        Some(path) => resume(path)?,
    };
    let mut setup = Setup {
        rules,
        kind,
        external,
        judge: Duration::from_millis(args.judge_ms),
        done,
        file,
    };
    match args.task.as_str() {
        "balance" => balance(args, &mut setup),
        "choice" => choice(args, &mut setup),
        other => Err(format!("--task {other:?} is not balance or choice")),
    }
}

/// The items already in `path` (whole lines only) and the file opened to append.
fn resume(
    path: &std::path::Path,
) -> Result<(Vec<serde_json::Value>, Option<std::fs::File>), String> {
    let done = crate::output::whole_lines(path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}", path.display())))
        .collect::<Result<Vec<_>, _>>()?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok((done, Some(file)))
}

impl Setup {
    fn record(&mut self, item: serde_json::Value) -> Result<(), String> {
        if let Some(f) = &mut self.file {
            writeln!(f, "{item}")
                .and_then(|()| f.flush())
                .map_err(|e| format!("cannot write the item: {e}"))?;
        }
        self.done.push(item);
        Ok(())
    }

    /// `auto`'s value of `p` for its side to move within the judge's time.
    fn own_value(&self, p: &Position, seed: u64) -> f64 {
        let plan = SearchPlan::new(EngineKind::Auto, Limits::with_time(self.judge), seed);
        swap::value_of(p, &plan).0
    }

    /// The external judge's value of `p` (reached by `moves`) for its side to move.
    fn external_value(&self, p: &Position, moves: &[Move]) -> Result<Option<f64>, String> {
        match &self.external {
            None => Ok(None),
            Some(spec) => external_value(spec, p, moves, self.judge),
        }
    }
}

/// An external engine's value of `p` (reached by `moves`) for its side to move, from the
/// `Eval` it prints within `time`: twice its winning chance less one, the chance on
/// Rapfi's scale ([`Judgement::win_probability`] with scale 200); `None` when it printed
/// none.
pub fn external_value(
    spec: &ExternalSpec,
    p: &Position,
    moves: &[Move],
    time: Duration,
) -> Result<Option<f64>, String> {
    let judged = judge_position(spec, &p.rules(), moves, time)?;
    // `win_probability` is the chance of the side that did not move into the evaluation.
    Ok(judged.map(|(eval, _)| 2.0 * (1.0 - Judgement::win_probability(eval, 200.0)) - 1.0))
}

fn stones_json(p: &Position, moves: &[Move]) -> serde_json::Value {
    let m = p.m();
    moves
        .iter()
        .map(|mv| {
            let c = mv.coord(m);
            format!("{},{}", c.col, c.row)
        })
        .collect::<Vec<_>>()
        .join(" ")
        .into()
}

fn balance(args: &OpeningCheckArgs, setup: &mut Setup) -> Result<(), String> {
    let meter = Progress::new("opening-check", "proposals", setup.done.len(), args.count);
    for i in setup.done.len()..args.count {
        let seed = args.seed + i as u64;
        let empty = Position::empty(&setup.rules);
        let plan = SearchPlan::new(
            setup.kind,
            Limits::with_time(Duration::from_millis(args.propose_ms)),
            seed,
        );
        let answer = swap::decide(&empty, &plan).map_err(|e| e.to_string())?;
        let Decision::Place(placed) = &answer.decision else {
            return Err("the first step is not a placement".into());
        };
        let moves = swap::as_moves(placed, empty.m());
        let p = answer.after.clone();
        let own = setup.own_value(&p, seed);
        let external = setup.external_value(&p, &moves)?;
        let item = serde_json::json!({
            "seed": seed,
            "stones": stones_json(&p, &moves),
            "source": format!("{:?}", answer.source).to_lowercase(),
            "proposed_value": -answer.options[0].value,
            "own_value": own,
            "external_value": external,
            "own_even": own.abs() <= args.band,
            "external_even": external.map(|v| v.abs() <= args.band),
        });
        setup.record(item)?;
        meter.advance(&summary_balance(&setup.done, args.band));
    }
    crate::output::print_line(&summary_balance(&setup.done, args.band));
    Ok(())
}

fn share(done: &[serde_json::Value], key: &str) -> String {
    let judged: Vec<bool> = done.iter().filter_map(|d| d[key].as_bool()).collect();
    let yes = judged.iter().filter(|&&b| b).count();
    if judged.is_empty() {
        "-".into()
    } else {
        format!(
            "{yes}/{} ({:.0}%)",
            judged.len(),
            100.0 * yes as f64 / judged.len() as f64
        )
    }
}

fn summary_balance(done: &[serde_json::Value], band: f64) -> String {
    format!(
        "even within +-{band}: by auto {}, by the external judge {}",
        share(done, "own_even"),
        share(done, "external_even")
    )
}

fn choice(args: &OpeningCheckArgs, setup: &mut Setup) -> Result<(), String> {
    let kept = |done: &[serde_json::Value]| done.iter().filter(|d| d["kept"] == true).count();
    let meter = Progress::new(
        "opening-check",
        "lopsided positions",
        kept(&setup.done),
        args.count,
    );
    let mut rng = StdRng::seed_from_u64(args.seed);
    let empty = Position::empty(&setup.rules);
    let sides = [Player::X, Player::O, Player::X];
    for t in 0..args.tries {
        if kept(&setup.done) >= args.count {
            break;
        }
        // The draws replay from the seed; tries already in the file are skipped.
        let Some(placed) = swap::random_stones(&empty, &sides, &mut rng) else {
            continue;
        };
        let last = setup.done.last().and_then(|d| d["try"].as_u64());
        if last.is_some_and(|l| t as u64 <= l) {
            continue;
        }
        let moves = swap::as_moves(&placed, empty.m());
        let Some(p) = swap::try_placed(&empty, &placed) else {
            continue;
        };
        let seed = args.seed.wrapping_mul(1_000_003) + t as u64;
        let own = setup.own_value(&p, seed);
        let mut item = serde_json::json!({
            "try": t,
            "stones": stones_json(&p, &moves),
            "own_value": own,
            "kept": own.abs() > args.lopsided,
        });
        if own.abs() > args.lopsided {
            let plan = SearchPlan::new(
                setup.kind,
                Limits::with_time(Duration::from_millis(args.propose_ms)),
                seed,
            );
            let answer = swap::decide(&p, &plan).map_err(|e| e.to_string())?;
            let favoured = if own > 0.0 { Player::O } else { Player::X };
            let chosen = match answer.decision {
                Decision::Choose(side) => Some(side),
                Decision::Place(_) => None,
            };
            let external = setup.external_value(&p, &moves)?;
            item["chosen"] = chosen.map(Player::as_str).into();
            item["favoured"] = favoured.as_str().into();
            item["right"] = (chosen == Some(favoured)).into();
            item["external_value"] = external.into();
            item["external_agrees"] = external.map(|v| (v > 0.0) == (own > 0.0)).into();
        }
        let kept_now = item["kept"] == true;
        setup.record(item)?;
        if kept_now {
            meter.advance(&summary_choice(&setup.done));
        } else {
            eprintln!("opening-check: try {t}: value {own:+.2}, not lopsided");
        }
    }
    crate::output::print_line(&summary_choice(&setup.done));
    Ok(())
}

fn summary_choice(done: &[serde_json::Value]) -> String {
    let tried = done.len();
    format!(
        "{} lopsided of {tried} tried; the winning side picked: {}; the external judge agrees on the side: {}",
        done.iter().filter(|d| d["kept"] == true).count(),
        share(done, "right"),
        share(done, "external_agrees")
    )
}
