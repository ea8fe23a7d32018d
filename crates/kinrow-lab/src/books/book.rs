//! `kinrow book`: makes an opening book for a gravity board (Connect Four by default)
//! with `perfect`'s exact search (see `crates/kinrow-engine/src/search/perfect/gravity/book.rs` for what a book
//! holds and how it is made).
//!
//! The last level's positions are solved in key order; each solved one is appended to
//! `OUT.work` at once (`KEY SCORE NODES MILLISECONDS`), so that a run stopped at any
//! point (or by `--stop-after`) resumes where it was. A progress line goes to standard
//! error after each position (done, rate, time left at that rate); when every position
//! is solved the shallower levels are backed up and the book is written to `OUT`. A
//! JSON summary closes every run on standard output.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;

use crate::output::print_line;
use kinrow_engine::gravity_book;
use kinrow_engine::gravity_book::Book;
use kinrow_engine::Budget;
use kinrow_engine::LevelSolver;

/// The flags of `kinrow book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// The board as `M,N,K` (columns, rows, line length).
    #[arg(long, default_value = "7,6,4", value_name = "M,N,K")]
    pub rules: String,
    /// The book holds every position of at most this many stones.
    #[arg(long, required_unless_present_any = ["from_bitbully", "check"])]
    pub depth: Option<u32>,
    /// Where the book is written (the work in progress goes to `OUT.work`).
    #[arg(long, required_unless_present_any = ["check", "rate_sample"])]
    pub out: Option<String>,
    /// Instead of solving: convert the BitBully database of every 12-stone Connect Four
    /// position with its distance (`book_12ply_distances.dat` of the PyPI package
    /// `bitbully-databases`) into the binary book `OUT` of every position of at most 12
    /// stones (see `crates/kinrow-lab/src/bitbully.rs`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["depth", "check"])]
    pub from_bitbully: Option<String>,
    /// Instead of solving: check the binary book `FILE` by solving `--sample` random
    /// positions of its last level alone (no book) and comparing.
    #[arg(long, value_name = "FILE")]
    pub check: Option<String>,
    /// With `--check`: how many positions.
    #[arg(long, default_value_t = 10_000)]
    pub sample: usize,
    /// With `--check` or `--rate-sample`: the seed of the positions drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The shared table's size as a power of two (entries of 8 bytes on boards of 64 bits).
    #[arg(long, default_value_t = 24)]
    pub table_bits: u32,
    /// Stop (resumably) after this many seconds.
    #[arg(long)]
    pub stop_after: Option<u64>,
    /// Make an outcome book instead (win, draw or loss alone, two bits a position) of
    /// every position of `--from` to `--depth` stones: only the last level is searched,
    /// one null window each; the work in progress is `OUT.work` (a byte a position, in
    /// key order) and `OUT.work.log` (the nodes and time of each stretch), so that a
    /// stopped run resumes. See `crates/kinrow-engine/src/search/perfect/gravity/outcomes.rs`.
    #[arg(long, conflicts_with_all = ["from_bitbully", "check"])]
    pub outcomes: bool,
    /// With `--outcomes`: the fewest stones of a position in the book.
    #[arg(long, requires = "outcomes")]
    pub from: Option<u32>,
    /// With `--outcomes`: write nothing, solve this many positions drawn at random from
    /// the last level (seed `--seed`), and report their rate and the time the whole level
    /// would take at it (an estimate).
    #[arg(long, requires = "outcomes", value_name = "N")]
    pub rate_sample: Option<usize>,
}

/// Runs the command; returns the exit code.
pub fn main(args: BookArgs) -> i32 {
    match run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow book: {e}");
            2
        }
    }
}

/// `--rules` as `[m, n, k]`.
pub fn rules_of(rules: &str) -> Result<[u32; 3], String> {
    let v: Vec<u32> = rules
        .split(',')
        .map(|s| s.trim().parse().map_err(|_| format!("--rules: {s:?}")))
        .collect::<Result<_, _>>()?;
    v.try_into()
        .map_err(|_| "--rules: expected M,N,K".to_string())
}

/// The positions already solved in the work file: key -> (score, nodes, ms).
fn resume(path: &str) -> Result<HashMap<u128, (i8, u64, u64)>, String> {
    let mut done = HashMap::new();
    let Ok(text) = fs::read_to_string(path) else {
        return Ok(done);
    };
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        // A line cut short by a kill is dropped: its position is solved again.
        if w.len() != 4 {
            continue;
        }
        let parsed = (
            u128::from_str_radix(w[0], 16),
            w[1].parse::<i8>(),
            w[2].parse::<u64>(),
            w[3].parse::<u64>(),
        );
        if let (Ok(key), Ok(score), Ok(nodes), Ok(ms)) = parsed {
            done.insert(key, (score, nodes, ms));
        }
    }
    Ok(done)
}

fn run(args: &BookArgs) -> Result<(), String> {
    if let Some(path) = &args.check {
        return crate::bitbully::check(path, args.sample, args.seed, args.table_bits);
    }
    if args.outcomes {
        let depth = args.depth.ok_or("--depth is required")?;
        let [m, n, k] = rules_of(&args.rules)?;
        let outcome_args = super::outcomes::OutcomeArgs {
            out: args.out.clone(),
            seed: args.seed,
            table_bits: args.table_bits,
            stop_after: args.stop_after,
            from: args.from,
            rate_sample: args.rate_sample,
        };
        return super::outcomes::run(&outcome_args, (m, n, k), depth);
    }
    let out = args.out.as_deref().ok_or("--out is required")?;
    if let Some(input) = &args.from_bitbully {
        return crate::bitbully::convert(input, out);
    }
    let depth = args.depth.ok_or("--depth is required")?;
    let v: Vec<u32> = args
        .rules
        .split(',')
        .map(|s| s.trim().parse().map_err(|_| format!("--rules: {s:?}")))
        .collect::<Result<_, _>>()?;
    let [m, n, k] = v[..] else {
        return Err("--rules: expected M,N,K".into());
    };
    if depth > m * n {
        return Err(format!("--depth: at most {} on {m}x{n}", m * n));
    }
    let levels = gravity_book::levels(m, n, k, depth)?;
    let last = levels.last().expect("level 0");
    let work = format!("{}.work", out);
    let mut done = resume(&work)?;
    let resumed = done.len();
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&work)
        .map_err(|e| format!("{work}: {e}"))?;
    let mut solver = LevelSolver::new(m, n, k, args.table_bits)?;
    let start = Instant::now();
    let stop = args.stop_after.map(Duration::from_secs);
    let (mut solved_now, mut nodes_now) = (0u64, 0u64);
    for &key in last {
        if done.contains_key(&key) {
            continue;
        }
        let mut clock = match stop {
            Some(s) => Budget::with_time(s.saturating_sub(start.elapsed())),
            None => Budget::with_time(Duration::from_secs(10 * 365 * 24 * 3600)),
        };
        let t = Instant::now();
        let Some(score) = solver.solve(key, &mut clock) else {
            break;
        };
        let ms = t.elapsed().as_millis() as u64;
        writeln!(file, "{key:x} {score} {} {ms}", clock.nodes)
            .and_then(|()| file.flush())
            .map_err(|e| format!("{work}: {e}"))?;
        done.insert(key, (score as i8, clock.nodes, ms));
        solved_now += 1;
        nodes_now += clock.nodes;
        let secs = start.elapsed().as_secs_f64();
        let rate = solved_now as f64 / secs.max(1e-9);
        let left = last.len() - done.len();
        eprintln!(
            "book: {}/{} positions of {} stones ({:.1}%), {rate:.4} positions/s, {:.0} s so far, about {:.0} s left",
            done.len(),
            last.len(),
            depth,
            100.0 * done.len() as f64 / last.len() as f64,
            secs,
            left as f64 / rate
        );
    }
    let complete = last.iter().all(|key| done.contains_key(key));
    let (mut bytes, mut entries) = (0, 0);
    if complete {
        let mut scores: HashMap<u128, i8> = last.iter().map(|key| (*key, done[key].0)).collect();
        gravity_book::back_up(m, n, k, &levels, &mut scores)?;
        let text = Book::new(m, n, k, depth, scores).write();
        fs::write(out, &text).map_err(|e| format!("{out}: {e}"))?;
        bytes = text.len();
        entries = text.lines().count() - 1;
    }
    let (nodes_all, ms_all) = done
        .values()
        .fold((0u64, 0u64), |(n, t), &(_, nodes, ms)| (n + nodes, t + ms));
    let summary = serde_json::json!({
        "rules": [m, n, k],
        "depth": depth,
        "positions_per_level": levels.iter().map(Vec::len).collect::<Vec<_>>(),
        "last_level_solved": done.len(),
        "resumed": resumed,
        "solved_this_run": solved_now,
        "nodes_this_run": nodes_now,
        "seconds_this_run": start.elapsed().as_secs_f64(),
        "nodes_all_runs": nodes_all,
        "solve_seconds_all_runs": ms_all as f64 / 1e3,
        "complete": complete,
        "book": if complete { Some(out) } else { None },
        "book_entries": entries,
        "book_bytes": bytes,
    });
    print_line(&summary.to_string());
    Ok(())
}
