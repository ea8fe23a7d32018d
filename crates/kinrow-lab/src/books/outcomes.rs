//! `kinrow book --outcomes`: makes an outcome book (win, draw or loss of every position of
//! `--from` to `--depth` stones, two bits a position; the format and the search that reads
//! it are in `crates/kinrow-engine/src/search/perfect/gravity/outcomes.rs`).
//!
//! The levels are enumerated from the empty board; the last level's positions are solved
//! in key order, each by one null-window search (-1, 1) over one shared table (reading
//! the committed exact book where the board has one), and the shallower levels are backed
//! up from it. Resumable: each solved outcome is one byte of `OUT.work` (`-`, `=`, `+`,
//! in key order) and each stretch of work one line `POSITIONS NODES MILLISECONDS` of
//! `OUT.work.log`, both flushed every few seconds, so that a run stopped at any point (or
//! by `--stop-after`) goes on where the bytes end. A progress line goes to standard error
//! at each flush (done, rate, time so far, time left at that rate); a JSON summary closes
//! every run on standard output. `--rate-sample N` solves N positions drawn at random
//! from the last level instead and reports the rate and the whole level's estimated time.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::output::print_line;
use kinrow_engine::gravity_outcomes;
use kinrow_engine::Budget;
use kinrow_engine::LevelSolver;

/// How often the work files are flushed and a progress line printed.
const FLUSH_EVERY: Duration = Duration::from_secs(5);

/// What `kinrow book --outcomes` reads of `kinrow book`'s arguments.
#[derive(Clone, Debug)]
pub struct OutcomeArgs {
    /// `--out`: the book file (its work files beside it).
    pub out: Option<String>,
    /// `--seed`: the rate sample's positions.
    pub seed: u64,
    /// `--table-bits`: the solver's table.
    pub table_bits: u32,
    /// `--stop-after`: seconds after which the run stops (resumably).
    pub stop_after: Option<u64>,
    /// `--from`: the fewest stones of a position in the book.
    pub from: Option<u32>,
    /// `--rate-sample`: solve this many random last-level positions and estimate.
    pub rate_sample: Option<usize>,
}

/// Runs `kinrow book --outcomes` for the board `(m, n, k)` up to `depth` stones.
pub fn run(args: &OutcomeArgs, (m, n, k): (u32, u32, u32), depth: u32) -> Result<(), String> {
    let from = args.from.unwrap_or(depth);
    if from == 0 || from > depth || depth > m * n {
        return Err(format!(
            "--from {from} --depth {depth}: 1 <= from <= depth <= {}",
            m * n
        ));
    }
    let start = Instant::now();
    let levels = gravity_outcomes::level_keys(m, n, k, from, depth)?;
    let enumerated = start.elapsed().as_secs_f64();
    eprintln!(
        "book: levels {from}-{depth} of {m}x{n}: {:?} positions, enumerated in {enumerated:.1} s",
        levels.iter().map(Vec::len).collect::<Vec<_>>()
    );
    let last = levels.last().expect("one level at least");
    let mut solver = LevelSolver::new(m, n, k, args.table_bits)?;
    if let Some(sample) = args.rate_sample {
        return rate_sample(
            &mut solver,
            last,
            sample,
            args.seed,
            (from, depth),
            enumerated,
        );
    }
    let out = args.out.as_deref().ok_or("--out is required")?;
    let work = format!("{out}.work");
    let log = format!("{out}.work.log");
    let mut outcomes: Vec<i8> = match fs::read(&work) {
        Ok(bytes) => bytes
            .iter()
            .take(last.len())
            .map(|b| match b {
                b'-' => Ok(-1),
                b'=' => Ok(0),
                b'+' => Ok(1),
                _ => Err(format!("{work}: {b:?} is no outcome")),
            })
            .collect::<Result<_, _>>()?,
        Err(_) => Vec::new(),
    };
    let resumed = outcomes.len();
    let (mut nodes_before, mut ms_before) = (0u64, 0u64);
    if let Ok(text) = fs::read_to_string(&log) {
        for line in text.lines() {
            let w: Vec<u64> = line
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            if let [_, nodes, ms] = w[..] {
                nodes_before += nodes;
                ms_before += ms;
            }
        }
    }
    let open = |path: &str| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))
    };
    let (mut work_file, mut log_file) = (open(&work)?, open(&log)?);
    let stop = args.stop_after.map(Duration::from_secs);
    let forever = Duration::from_secs(10 * 365 * 24 * 3600);
    let (mut nodes_now, mut pending, mut stretch) = (0u64, Vec::new(), (0u64, 0u64));
    let mut flushed = Instant::now();
    let mut flush = |pending: &mut Vec<u8>, stretch: &mut (u64, u64), done: usize| {
        let t = start.elapsed().as_millis() as u64;
        work_file
            .write_all(pending)
            .and_then(|()| work_file.flush())
            .map_err(|e| format!("{work}: {e}"))?;
        writeln!(
            log_file,
            "{} {} {}",
            pending.len(),
            stretch.0,
            t - stretch.1
        )
        .and_then(|()| log_file.flush())
        .map_err(|e| format!("{log}: {e}"))?;
        pending.clear();
        *stretch = (0, t);
        let secs = start.elapsed().as_secs_f64() - enumerated;
        let rate = (done - resumed) as f64 / secs.max(1e-9);
        eprintln!(
            "book: {done}/{} positions of {depth} stones ({:.2}%), {rate:.1} positions/s, {secs:.0} s so far, about {:.0} s left",
            last.len(),
            100.0 * done as f64 / last.len().max(1) as f64,
            (last.len() - done) as f64 / rate.max(1e-9)
        );
        Ok::<(), String>(())
    };
    stretch.1 = start.elapsed().as_millis() as u64;
    for &key in &last[outcomes.len()..] {
        let mut clock = Budget::with_time(match stop {
            Some(s) => s.saturating_sub(start.elapsed()),
            None => forever,
        });
        let Some(o) = solver.outcome(key as u128, &mut clock) else {
            break;
        };
        nodes_now += clock.nodes;
        stretch.0 += clock.nodes;
        outcomes.push(o as i8);
        pending.push([b'-', b'=', b'+'][(o + 1) as usize]);
        if flushed.elapsed() >= FLUSH_EVERY {
            flush(&mut pending, &mut stretch, outcomes.len())?;
            flushed = Instant::now();
        }
    }
    if !pending.is_empty() || outcomes.len() > resumed {
        flush(&mut pending, &mut stretch, outcomes.len())?;
    }
    let solved = outcomes.len();
    let complete = solved == last.len();
    let mut book_bytes = 0;
    let mut counts = [0usize; 3];
    if complete {
        for &o in &outcomes {
            counts[(o + 1) as usize] += 1;
        }
        let all = gravity_outcomes::back_up(m, n, k, &levels, outcomes)?;
        let bytes = gravity_outcomes::write(m, n, k, from, &all)?;
        fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
        book_bytes = bytes.len();
    }
    let summary = serde_json::json!({
        "rules": [m, n, k],
        "stones": [from, depth],
        "positions_per_level": levels.iter().map(Vec::len).collect::<Vec<_>>(),
        "enumerate_seconds": enumerated,
        "last_level_solved": solved,
        "resumed": resumed,
        "nodes_this_run": nodes_now,
        "seconds_this_run": start.elapsed().as_secs_f64(),
        "nodes_all_runs": nodes_before + nodes_now,
        "complete": complete,
        "last_level_losses_draws_wins": if complete { Some(counts) } else { None },
        "book": if complete { Some(out) } else { None },
        "book_bytes": book_bytes,
        "solve_seconds_before_this_run": ms_before as f64 / 1e3,
    });
    print_line(&summary.to_string());
    Ok(())
}

/// Solves `sample` positions drawn at random from `last` and prints the rate, with the
/// time the whole level would take at it (an estimate: positions in key order share
/// more of the table than random ones do).
fn rate_sample(
    solver: &mut LevelSolver,
    last: &[u64],
    sample: usize,
    seed: u64,
    (from, depth): (u32, u32),
    enumerated: f64,
) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let t = Instant::now();
    let (mut nodes, mut counts) = (0u64, [0usize; 3]);
    for i in 0..sample {
        let key = last[rng.random_range(0..last.len())];
        let mut clock = Budget::with_time(Duration::from_secs(3600));
        let o = solver
            .outcome(key as u128, &mut clock)
            .ok_or_else(|| format!("{key:x}: not solved within an hour"))?;
        nodes += clock.nodes;
        counts[(o + 1) as usize] += 1;
        if (i + 1) % 100 == 0 {
            eprintln!(
                "book: sample {}/{sample}, {:.0} s",
                i + 1,
                t.elapsed().as_secs_f64()
            );
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let rate = sample as f64 / secs.max(1e-9);
    let summary = serde_json::json!({
        "stones": [from, depth],
        "last_level_positions": last.len(),
        "enumerate_seconds": enumerated,
        "sample": sample,
        "seed": seed,
        "losses_draws_wins": counts,
        "nodes": nodes,
        "seconds": secs,
        "positions_per_second": rate,
        "nodes_per_position": nodes as f64 / sample.max(1) as f64,
        "estimated_level_seconds": last.len() as f64 / rate.max(1e-9),
        "estimated_level_nodes": nodes as f64 / sample.max(1) as f64 * last.len() as f64,
    });
    print_line(&summary.to_string());
    Ok(())
}
