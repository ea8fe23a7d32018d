//! `kinrow selfplay`: games of an engine against itself, for `kinrow tune` to learn
//! from. Each game starts from its own opening (random marks near the centre that a
//! short search judges even, [`opening_judged`]), then the engine plays both sides
//! under a node limit drawn afresh for every move from `--nodes MIN,MAX` (node limits
//! replay exactly, and the spread varies the games). A game ends when it is over or
//! when the search proves its outcome. Games go to `--out` one a line
//! ([`RecordedGame`], with `values`, `outcomes` and `siblings`); a run that stops can be started again with the same command and
//! plays only the games the file lacks.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::measuring::arena::{default_opening_plies, opening_judged, EngineSpec, Judge};
use crate::output::Progress;
use crate::record::{rules_from_text, GameResult, RecordedGame, Sibling};
use kinrow_engine::value;
use kinrow_engine::Outcome;
use kinrow_game::{Position, Rules};

/// `kinrow selfplay`'s flags.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Games to have in `--out` when done (games already there are kept and skipped).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// The file the games go to, one line of the game record each (appended to;
    /// resumable).
    #[arg(long)]
    pub out: PathBuf,
    /// The engine and its parameters, as for `kinrow arena` (its node limit is replaced
    /// by one drawn from `--nodes` for every move).
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// The rules as `M,N,K`.
    #[arg(long, default_value = "15,15,5", value_name = "M,N,K")]
    pub rules: String,
    /// `free`, `renju` or `caro`.
    #[arg(long, default_value = "free")]
    pub variant: String,
    /// Exactly k in a row wins (no overlines).
    #[arg(long)]
    pub exact: bool,
    /// The least and the most nodes of one move's search, as `MIN,MAX`.
    #[arg(long, default_value = "8000,32000", value_name = "MIN,MAX")]
    pub nodes: String,
    /// Random opening marks (default: by board size, 5 on large boards).
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The seed of the openings and of every game's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// At every move, this many other candidate moves (drawn from the engine's best
    /// dozen) are also played and the position after each is searched like a game move;
    /// `kinrow tune` learns from them too (record: `siblings`).
    #[arg(long, default_value_t = 0)]
    pub siblings: usize,
}

/// A whole run, checked.
struct Run {
    spec: EngineSpec,
    rules: Rules,
    nodes: (u64, u64),
    plies: usize,
    seed: u64,
    siblings: usize,
}

fn parse(args: &SelfplayArgs) -> Result<Run, String> {
    let spec = EngineSpec::parse(&args.engine)?;
    let rules = rules_from_text(&args.rules, &args.variant, args.exact)?;
    let (lo, hi) = args
        .nodes
        .split_once(',')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .filter(|&(a, b): &(u64, u64)| a >= 1 && a <= b)
        .ok_or_else(|| {
            format!(
                "--nodes: {:?} is not MIN,MAX with 1 <= MIN <= MAX",
                args.nodes
            )
        })?;
    Ok(Run {
        spec,
        plies: args
            .opening_plies
            .unwrap_or_else(|| default_opening_plies(&rules)),
        rules,
        nodes: (lo, hi),
        seed: args.seed,
        siblings: args.siblings,
    })
}

/// Plays game `index` of `run`.
fn play(run: &Run, index: usize) -> RecordedGame {
    let opening = opening_judged(&run.rules, run.plies, run.seed, index, Judge::Quick);
    let mut rng =
        StdRng::seed_from_u64(run.seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let engine = run.spec.build();
    let kind = run.spec.kind;
    let mut ctx = run.spec.context();
    let mut p = Position::empty(&run.rules);
    for &mv in &opening {
        p.play(mv);
    }
    let mut moves = Vec::new();
    let mut values = Vec::new();
    let mut outcomes = Vec::new();
    let mut siblings = Vec::new();
    let mut winner = p.winner();
    while !p.is_over() {
        let mut limits = run.spec.limits(Duration::from_secs(30));
        limits.nodes = Some(rng.random_range(run.nodes.0..=run.nodes.1));
        let mut analysis = engine.analyze_with(&p, &limits, &mut ctx, &mut rng);
        let v = value::values(kind, &p, &mut analysis).evaluation;
        values.push((v * 1000.0).round() as i16);
        let outcome = analysis.evaluation.outcome;
        outcomes.push(outcome);
        if run.siblings > 0 {
            // A few of the engine's best dozen searched moves besides its choice, where
            // the search proved nothing (a proven position is never a sample).
            let mut others: Vec<_> = analysis
                .moves
                .iter()
                .filter(|e| e.evaluated && e.eval.outcome == Outcome::Unknown)
                .map(|e| e.mv)
                .filter(|&mv| mv != analysis.best)
                .take(12)
                .collect();
            for _ in 0..run.siblings.min(others.len()) {
                let mv = others.swap_remove(rng.random_range(0..others.len()));
                let mut child = p.clone();
                child.play(mv);
                if child.is_over() {
                    continue;
                }
                let mut a = engine.analyze_with(&child, &limits, &mut ctx, &mut rng);
                let v = value::values(kind, &child, &mut a).evaluation;
                siblings.push(Sibling {
                    at: values.len() - 1,
                    mv,
                    value: (v * 1000.0).round() as i16,
                    outcome: a.evaluation.outcome,
                });
            }
        }
        let mover = p.to_move();
        p.play(analysis.best);
        moves.push(analysis.best);
        winner = p.winner();
        // A proven outcome ends the game: what is left is known, and costs the most.
        match outcome {
            Outcome::Win if !p.is_over() => winner = Some(mover),
            Outcome::Loss => winner = Some(mover.opponent()),
            Outcome::Draw => winner = None,
            _ => continue,
        }
        break;
    }
    RecordedGame {
        x: run.spec.label.clone(),
        o: run.spec.label.clone(),
        opening,
        moves,
        values,
        outcomes,
        siblings,
        ..RecordedGame::new(index, run.rules.clone(), GameResult::of(winner))
    }
}

/// The games already in `path` (by index); a broken last line (a run stopped while
/// writing) is dropped from the file.
pub(crate) fn games_done(path: &PathBuf) -> Result<HashSet<usize>, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(HashSet::new());
    };
    let mut done = HashSet::new();
    let mut good = 0;
    for line in text.split_inclusive('\n') {
        match crate::record::read_game(line.trim()) {
            Ok(g) if line.ends_with('\n') => {
                done.insert(g.game);
                good += line.len();
            }
            _ => break,
        }
    }
    if good < text.len() {
        eprintln!(
            "selfplay: dropping {} bytes after the last whole game of {}",
            text.len() - good,
            path.display()
        );
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| e.to_string())?;
        f.set_len(good as u64).map_err(|e| e.to_string())?;
    }
    Ok(done)
}

/// `kinrow selfplay`: returns the exit code.
pub fn main(args: SelfplayArgs) -> i32 {
    let run = match parse(&args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kinrow selfplay: {e}");
            return 2;
        }
    };
    let done = match games_done(&args.out) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("kinrow selfplay: {}: {e}", args.out.display());
            return 1;
        }
    };
    let todo: Vec<usize> = (0..args.games).filter(|i| !done.contains(i)).collect();
    let file = match OpenOptions::new().create(true).append(true).open(&args.out) {
        Ok(f) => Mutex::new(f),
        Err(e) => {
            eprintln!("kinrow selfplay: {}: {e}", args.out.display());
            return 1;
        }
    };
    let progress = Progress::new("selfplay", "games", done.len().min(args.games), args.games);
    let tally = Mutex::new([0usize; 3]);
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let failed = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&index) = todo.get(i) else { break };
                let g = play(&run, index);
                let line = g.to_line() + "\n";
                if let Err(e) = file
                    .lock()
                    .expect("no panic holding it")
                    .write_all(line.as_bytes())
                {
                    *failed.lock().expect("no panic holding it") = Some(e.to_string());
                    break;
                }
                let mut t = tally.lock().expect("no panic holding it");
                t[match g.result {
                    GameResult::Won(p) => p.index(),
                    GameResult::Draw => 2,
                }] += 1;
                progress.advance(&format!("x {} o {} draw {} (this run)", t[0], t[1], t[2]));
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("threads finished") {
        eprintln!("kinrow selfplay: writing {}: {e}", args.out.display());
        return 1;
    }
    let t = tally.into_inner().expect("threads finished");
    let summary = serde_json::json!({
        "out": args.out.display().to_string(),
        "games": args.games,
        "played": todo.len(),
        "x": t[0], "o": t[1], "draw": t[2],
        "seconds": start.elapsed().as_secs_f64(),
    });
    crate::output::print_line(&summary.to_string());
    0
}
