//! `kinrow bench`: offline engine throughput, no HTTP in the way.
//!
//! For every engine in [`EngineKind::ALL`] and every board size, the engine analyses a
//! fixed set of middle-game positions (the arena's balanced openings, a few plies deep)
//! over and over for a measuring window. Each call gets the same per-call budget
//! (`--time-ms`, and `--nodes` if given), so fast engines make many calls and searching
//! engines use their budget. The table gives positions (calls) per second, nodes per
//! second, microseconds per call, how many calls finished their search (`complete`:
//! for `perfect`, every root move proven) and the mean depth completed (`stats.depth`;
//! with `--threads`, the main search's). `--opening-plies 0` measures the empty board.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use kinrow_engine::EngineKind;
use kinrow_engine::EvalChoice;
use kinrow_engine::Limits;
use kinrow_engine::{RootCounters, SearchCounters, Tactics};
use kinrow_game::{Position, Rules};

/// One measured cell of the table.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// The engine measured.
    pub engine: EngineKind,
    /// The board's name in the table.
    pub board: String,
    /// Calls made.
    pub calls: u64,
    /// Nodes the calls searched, summed.
    pub nodes: u64,
    /// Calls whose analysis said `stats.complete`.
    pub complete: u64,
    /// The calls' completed depths (`stats.depth`), summed.
    pub depth: u64,
    /// The calls' time, summed.
    pub elapsed: Duration,
}

impl BenchRow {
    /// Calls per second.
    pub fn positions_per_sec(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Nodes per second.
    pub fn nodes_per_sec(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Microseconds per call.
    pub fn micros_per_call(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6 / self.calls.max(1) as f64
    }
    /// The mean completed depth.
    pub fn mean_depth(&self) -> f64 {
        self.depth as f64 / self.calls.max(1) as f64
    }
}

// The positions benchmarked on a board: the engine's, which its tests search too.
pub use kinrow_engine::balanced::positions;

/// The marks in a benchmark position's opening by board size: middle-game positions
/// (2 up to 16 cells, 4 up to 64, else 8; at most a third of the board).
pub fn bench_opening_plies(rules: &Rules) -> usize {
    let plies = match rules.cells() {
        0..=16 => 2,
        17..=64 => 4,
        _ => 8,
    };
    plies.min(rules.cells() / 3)
}

/// Measures `engine` on `positions` for at least `window` (and at least one call per
/// position), each call within `limits`.
pub fn measure(
    engine: EngineKind,
    board: &str,
    positions: &[Position],
    limits: &Limits,
    window: Duration,
) -> BenchRow {
    let built = engine.build();
    let mut rng = StdRng::seed_from_u64(7);
    let (mut calls, mut nodes, mut complete, mut depth) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    loop {
        for p in positions {
            // Each call with a new context: the search is measured, not what an
            // earlier call kept (`perfect`'s table of solved small positions).
            let a = built.analyze(p, limits, &mut rng);
            calls += 1;
            nodes += a.stats.nodes;
            complete += u64::from(a.stats.complete);
            depth += u64::from(a.stats.depth);
        }
        if start.elapsed() >= window {
            break;
        }
    }
    BenchRow {
        engine,
        board: board.to_string(),
        calls,
        nodes,
        complete,
        depth,
        elapsed: start.elapsed(),
    }
}

/// The table as printed (Markdown).
pub fn table(rows: &[BenchRow]) -> String {
    let mut out = String::from(
        "| engine | board | calls | complete | positions/s | nodes/s | µs/call | depth |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.1} | {:.0} | {:.0} | {:.2} |\n",
            r.engine.name(),
            r.board,
            r.calls,
            r.complete,
            r.positions_per_sec(),
            r.nodes_per_sec(),
            r.micros_per_call(),
            r.mean_depth()
        ));
    }
    out
}

/// `kinrow bench` on the command line.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Engines to measure, comma-separated (default: all).
    #[arg(long)]
    pub engines: Option<String>,
    /// Boards as `M,N,K` separated by `;` (default: 3,3,3;7,7,4;9,9,5;15,15,5).
    #[arg(long, default_value = "3,3,3;7,7,4;9,9,5;15,15,5")]
    pub boards: String,
    /// Budget of one call in milliseconds.
    #[arg(long, default_value_t = 50)]
    pub time_ms: u64,
    /// Node budget of one call (engines that count nodes stop there).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads of `auto`'s pattern search in each call (`engine.threads`).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Measuring window per engine and board, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub window_ms: u64,
    /// Positions per board.
    #[arg(long, default_value_t = 4)]
    pub positions: usize,
    /// Marks in each position's opening (default: 2 up to 16 cells, 4 up to 64, else 8,
    /// at most a third of the board); 0 measures the empty board.
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Instead of the table: replay every position of these recorded games (`kinrow arena
    /// --out`, `kinrow selfplay`) at `--nodes` per position (default 60000) and print each engine's digest of
    /// moves, nodes and depths with its time (same digest = same search).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<std::path::PathBuf>,
    /// `auto`'s static evaluation in a replay: `learned` (the default), `tables`,
    /// `network` or `window`.
    #[arg(long, default_value = "learned")]
    pub eval: String,
    /// `auto`'s search tactics in a replay, `KEY=VALUE` separated by commas (the
    /// arena's `auto:` options: `verdicts=on`, `defences=off|add|only`, `mate_safe=on|shallow`,
    /// `quiescence=vcf|off`).
    #[arg(long, default_value = "")]
    pub tactics: String,
    /// In a replay, replay `auto` again with these tactics instead (`KEY=VALUE`, comma
    /// separated, on top of `--tactics`; e.g. `guard=off` or `root_vct=off`) and count
    /// the positions whose move differs, by the path of the first answer (how often the
    /// part a switch turns off changes the move).
    #[arg(long)]
    pub compare: Option<String>,
}

/// Runs `kinrow bench`; returns the exit code.
pub fn main(args: BenchArgs) -> i32 {
    let engines: Vec<EngineKind> = match &args.engines {
        None => EngineKind::ALL.to_vec(),
        Some(list) => {
            let mut v = Vec::new();
            for name in list.split(',') {
                match EngineKind::parse(name.trim()) {
                    Some(k) => v.push(k),
                    None => {
                        eprintln!("kinrow bench: unknown engine {name:?}");
                        return 2;
                    }
                }
            }
            v
        }
    };
    if let Some(path) = &args.replay {
        let Some(eval) = EvalChoice::parse(&args.eval) else {
            eprintln!(
                "kinrow bench: --eval {:?} is not learned, tables, network or window",
                args.eval
            );
            return 2;
        };
        let tactics = match parse_tactics(Tactics::default(), &args.tactics) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("kinrow bench: --tactics: {e}");
                return 2;
            }
        };
        let compare = match args.compare.as_deref().map(|c| parse_tactics(tactics, c)) {
            None => None,
            Some(Ok(t)) => Some(t),
            Some(Err(e)) => {
                eprintln!("kinrow bench: --compare: {e}");
                return 2;
            }
        };
        return replay_main(
            &engines,
            path,
            args.nodes.unwrap_or(60_000),
            (eval, tactics, compare),
        );
    }
    let mut boards = Vec::new();
    for spec in args.boards.split(';') {
        let nums: Result<Vec<u64>, _> = spec.split(',').map(|s| s.trim().parse()).collect();
        match nums.ok().filter(|v| v.len() == 3) {
            Some(v) => match Rules::mnk(v[0], v[1], v[2]) {
                Ok(r) => boards.push((format!("{}x{}x{}", v[0], v[1], v[2]), r)),
                Err(e) => {
                    eprintln!("kinrow bench: {spec}: {e}");
                    return 2;
                }
            },
            None => {
                eprintln!("kinrow bench: {spec:?} is not M,N,K");
                return 2;
            }
        }
    }
    let limits = Limits {
        time: Duration::from_millis(args.time_ms),
        nodes: args.nodes,
        threads: args.threads.max(1),
        ..Limits::default()
    };
    let window = Duration::from_millis(args.window_ms);
    let mut rows = Vec::new();
    for (name, rules) in &boards {
        let plies = args.opening_plies.unwrap_or(bench_opening_plies(rules));
        let ps = positions(rules, plies, args.positions.max(1));
        if ps.is_empty() {
            continue;
        }
        for &engine in &engines {
            let row = measure(engine, name, &ps, &limits, window);
            eprintln!(
                "{} {}: {:.0} µs/call",
                engine.name(),
                name,
                row.micros_per_call()
            );
            rows.push(row);
        }
    }
    crate::output::print_line(&format!(
        "per-call budget {} ms{}, {} thread(s), window {} ms, {} positions per board\n",
        args.time_ms,
        args.nodes
            .map(|n| format!(", {n} nodes"))
            .unwrap_or_default(),
        args.threads.max(1),
        args.window_ms,
        args.positions
    ));
    crate::output::print_line(table(&rows).trim_end_matches('\n'));
    0
}

/// `base` with the `KEY=VALUE` pairs of `text` (comma separated) set; the error names
/// the option.
fn parse_tactics(mut tactics: Tactics, text: &str) -> Result<Tactics, String> {
    for pair in text.split(',').filter(|p| !p.trim().is_empty()) {
        let (key, value) = pair.trim().split_once('=').unwrap_or((pair.trim(), ""));
        match tactics.set(key, value) {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(e),
            None => return Err(format!("unknown option {key:?} (known: {})", Tactics::KEYS)),
        }
    }
    Ok(tactics)
}

fn replay_main(
    engines: &[EngineKind],
    path: &std::path::Path,
    nodes: u64,
    (eval, tactics, compare): (EvalChoice, Tactics, Option<Tactics>),
) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kinrow bench: cannot read {}: {e}", path.display());
            return 2;
        }
    };
    let positions = match super::replay::positions(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("kinrow bench: {}: {e}", path.display());
            return 2;
        }
    };
    SearchCounters::take();
    RootCounters::take();
    let rows: Vec<_> = engines
        .iter()
        .map(|&e| super::replay::replay(e, &positions, nodes, (eval, tactics)))
        .collect();
    crate::output::print_line(super::replay::table(&rows, nodes).trim_end_matches('\n'));
    crate::output::print_line(&format!(
        "\nauto's alpha-beta ({tactics:?}): {}",
        SearchCounters::take().line()
    ));
    let root = RootCounters::take();
    crate::output::print_line(&format!("auto's root: {}", root.line()));
    crate::output::print_line(&format!("root counts (JSON): {}", root.json()));
    let Some(other) = compare else {
        return 0;
    };
    let Some(base) = rows.iter().find(|r| r.engine == EngineKind::Auto) else {
        eprintln!("kinrow bench: --compare needs auto among the engines");
        return 2;
    };
    let changed_row =
        crate::measuring::replay::replay(EngineKind::Auto, &positions, nodes, (eval, other));
    crate::output::print_line(&format!(
        "\nauto again with {other:?}:\n{}",
        crate::measuring::replay::table(std::slice::from_ref(&changed_row), nodes)
            .trim_end_matches('\n')
    ));
    crate::output::print_line(&format!("auto's root: {}", RootCounters::take().line()));
    SearchCounters::take();
    let by_path = crate::measuring::replay::moves_changed(base, &changed_row);
    let total: usize = by_path.iter().map(|(_, _, c)| c).sum();
    crate::output::print_line(&format!(
        "moves changed: {total} of {} positions",
        base.answers.len()
    ));
    let mut json = Vec::new();
    for (path, n, changed) in &by_path {
        crate::output::print_line(&format!("  {changed} of {n} answered by {path:?}"));
        json.push(serde_json::json!({ "path": path, "positions": n, "changed": changed }));
    }
    crate::output::print_line(&format!(
        "moves changed (JSON): {}",
        serde_json::json!({ "changed": total, "positions": base.answers.len(), "by_path": json })
    ));
    0
}
