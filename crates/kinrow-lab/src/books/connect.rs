//! `kinrow connect`: measures `perfect` on gravity boards (Connect Four by default).
//!
//! Positions are random games of a stage's length (begin: 1-13 stones, middle: 14-27,
//! end: 28 and more on 7x6; scaled by the board's cells elsewhere), seeded, that nobody
//! has won. Without `--columns`, each position's exact score is solved alone, as the
//! published Connect Four benchmarks do, and positions are grouped by the plies to the
//! end under perfect play (easy: under 14, medium: 14-27, hard: 28 and more): mean
//! nodes and time per group. With `--columns`, the engine's whole answer (every
//! playable column's outcome and plies) within `--time-ms`: the time's p50, p99 and
//! maximum, and the share of positions answered completely.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use kinrow_engine::Budget;
use kinrow_engine::Engine;
use kinrow_engine::{gravity, Perfect};
use kinrow_engine::{Bound, Limits, Outcome};
use kinrow_game::{Move, Position, Rules};

/// The flags of `kinrow connect`.
#[derive(Args, Debug)]
pub struct ConnectArgs {
    /// The board as `M,N,K`.
    #[arg(long, default_value = "7,6,4", value_name = "M,N,K")]
    pub rules: String,
    /// Stones on the board: `begin`, `middle` or `end` (or `A-B`, e.g. `14-41`).
    #[arg(long, default_value = "end")]
    pub stage: String,
    /// Positions to measure.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// The seed of the positions drawn.
    #[arg(long, default_value_t = 39)]
    pub seed: u64,
    /// Budget per position in milliseconds.
    #[arg(long, default_value_t = 60_000)]
    pub time_ms: u64,
    /// Measure the engine's answer for every column instead of the position's score.
    #[arg(long)]
    pub columns: bool,
    /// With `--columns`: a node budget per answer as well (a loaded machine slows the
    /// clock, not the nodes: the nodes a second buys unloaded stand in for the second).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Measure the positions of this file instead of random games: one a line, its
    /// moves as 1-based column digits (`4453`), optionally followed by its score in the
    /// published benchmarks' unit (see `--export`), which is then checked; with
    /// `--columns`, by one such score per column instead (`-` for a full one), each
    /// column's outcome and plies then checked.
    #[arg(long, value_name = "FILE")]
    pub positions: Option<String>,
    /// Without `--columns`: write one line per position, `MOVES SCORE NODES MICROSECONDS`,
    /// the score in the published benchmarks' unit (the winner's stones left after its
    /// winning one, plus one: positive when the side to move wins; 0 a draw; `?`
    /// unsolved), so that another solver can be run on the same positions.
    #[arg(long, value_name = "FILE")]
    pub export: Option<String>,
    /// Without `--columns`: the weak solve, win, draw or loss alone (one search with the
    /// window (-1, 1)); scores are then 1, 0 or -1, as the published weak solver gives,
    /// and a listed score is checked by its sign.
    #[arg(long)]
    pub weak: bool,
}

/// A random game of `stones` stones from the empty board that nobody has won, and its
/// moves as 1-based column digits (`?` for a column past 9).
pub fn random_game(rules: &Rules, stones: usize, rng: &mut StdRng) -> (Position, String) {
    'again: loop {
        let mut p = Position::empty(rules);
        let mut digits = String::new();
        for _ in 0..stones {
            let moves: Vec<Move> = p.legal_moves();
            if moves.is_empty() {
                continue 'again;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let col = (mv.cell() % rules.m()) as u32 + 1;
            digits.push(char::from_digit(col, 10).unwrap_or('?'));
            p.play(mv);
            if p.winner().is_some() {
                continue 'again;
            }
        }
        if !p.is_over() {
            let p = Position::from_cells(rules, p.cells().to_vec(), None).expect("a played game");
            return (p, digits);
        }
    }
}

/// A position to measure: its moves and the scores listed with it, if any (the
/// position's, or one per column with `-` for a full column: `None`).
type Listed = (Position, String, Vec<Option<i32>>);

/// The positions of a `--positions` file: moves and the listed scores.
fn read_positions(rules: &Rules, path: &str) -> Result<Vec<Listed>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--positions {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        let p = Position::from_column_digits(rules, moves, "positions")
            .map_err(|e| format!("--positions {path} line {}: {e}", i + 1))?;
        let listed = words.map(|w| w.parse().ok()).collect();
        out.push((p, moves.to_string(), listed));
    }
    Ok(out)
}

fn stage_range(stage: &str, cells: usize) -> Result<(usize, usize), String> {
    let third = cells / 3;
    match stage {
        "begin" => Ok((1, third - 1)),
        "middle" => Ok((third, 2 * third - 1)),
        "end" => Ok((2 * third, cells - 1)),
        range => {
            let (a, b) = range
                .split_once('-')
                .ok_or_else(|| format!("--stage: {range:?} is not begin, middle, end or A-B"))?;
            let num = |s: &str| {
                s.parse::<usize>()
                    .map_err(|_| format!("--stage: {s:?} is not a number"))
            };
            Ok((num(a)?, num(b)?))
        }
    }
}

/// Runs the command; returns the exit code.
pub fn main(args: ConnectArgs) -> i32 {
    match run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow connect: {e}");
            2
        }
    }
}

fn run(args: &ConnectArgs) -> Result<(), String> {
    let v: Vec<u64> = args
        .rules
        .split(',')
        .map(|s| s.trim().parse().map_err(|_| format!("--rules: {s:?}")))
        .collect::<Result<_, _>>()?;
    if v.len() != 3 {
        return Err("--rules: expected M,N,K".into());
    }
    let rules = Rules::mnk(v[0], v[1], v[2])
        .and_then(|r| r.with_gravity(true))
        .map_err(|e| e.to_string())?;
    let positions = match &args.positions {
        Some(path) => read_positions(&rules, path)?,
        None => {
            let (lo, hi) = stage_range(&args.stage, rules.cells())?;
            let mut rng = StdRng::seed_from_u64(args.seed);
            (0..args.count)
                .map(|_| {
                    let stones = rng.random_range(lo..=hi);
                    let (p, digits) = random_game(&rules, stones, &mut rng);
                    (p, digits, Vec::new())
                })
                .collect()
        }
    };
    let time = Duration::from_millis(args.time_ms);
    if args.columns {
        columns(&positions, time, args.nodes)?;
    } else {
        let mut export = match &args.export {
            Some(path) => {
                Some(std::fs::File::create(path).map_err(|e| format!("--export {path}: {e}"))?)
            }
            None => None,
        };
        scores(&positions, time, args.weak, export.as_mut())?;
    }
    Ok(())
}

/// The score in the published benchmarks' unit of a position of `stones` stones on a
/// board of `cells` cells whose mover gets `outcome` in `plies` plies.
fn stone_score(cells: u32, stones: u32, plies: u32, outcome: Outcome) -> i32 {
    // The winning stone is the board's (stones + plies)-th; the winner's stones left
    // after it, plus one, are (cells + 2 - stones - plies) / 2.
    let v = (cells as i32 + 2 - (stones + plies) as i32) / 2;
    match outcome {
        Outcome::Win => v,
        Outcome::Loss => -v,
        _ => 0,
    }
}

/// Per rating group: (positions, solved, nodes, time); with `export`, a line per
/// position. A position whose listed score differs from ours is an error.
fn scores(
    positions: &[Listed],
    time: Duration,
    weak: bool,
    mut export: Option<&mut std::fs::File>,
) -> Result<(), String> {
    let mut groups = [(0u64, 0u64, 0u64, Duration::ZERO); 3];
    let mut each: [Vec<u64>; 3] = Default::default();
    let (mut unsolved, mut checked, mut wrong) = (0, 0, 0);
    // One table of 2^23 entries, cleared between positions outside the clock (as the
    // published solver's harness resets its own) where the board fits 64 bits.
    let mut table = gravity::Table::<u64>::new(23);
    for (p, moves, listed) in positions {
        table.clear();
        let mut budget = Budget::with_time(time);
        let start = Instant::now();
        // A weak solve knows no plies (all its positions form one group) and is scored by
        // its sign.
        let solved = match (p.m() * (p.n() + 1) <= 64, weak) {
            (true, _) => gravity::solve_position_in(p, &mut budget, &mut table, weak),
            (false, true) => gravity::outcome_of_position(p, &mut budget).map(|o| (p.empties(), o)),
            (false, false) => gravity::solve_position(p, &mut budget),
        };
        let elapsed = start.elapsed();
        let cells = p.cells().len() as u32;
        let stones = cells - p.empties();
        let score = solved.map(|(plies, outcome)| match weak {
            true => stone_score(cells, stones, plies, outcome).signum(),
            false => stone_score(cells, stones, plies, outcome),
        });
        if let Some(f) = export.as_mut() {
            let shown = score.map_or("?".to_string(), |s| s.to_string());
            writeln!(
                f,
                "{moves} {shown} {} {}",
                budget.nodes,
                elapsed.as_micros()
            )
            .map_err(|e| format!("--export: {e}"))?;
        }
        if let (Some(Some(listed)), Some(score)) = (listed.first(), score) {
            checked += 1;
            let listed = if weak { &listed.signum() } else { listed };
            if *listed != score {
                wrong += 1;
                eprintln!("{moves}: listed {listed}, solved {score}");
            }
        }
        match solved {
            Some((plies, _)) => {
                let i = match plies {
                    _ if weak => 0,
                    0..14 => 0,
                    14..28 => 1,
                    _ => 2,
                };
                each[i].push(budget.nodes);
                let g = &mut groups[i];
                g.0 += 1;
                g.1 += 1;
                g.2 += budget.nodes;
                g.3 += elapsed;
            }
            None => unsolved += 1,
        }
    }
    println!("| plies to the end | positions | mean nodes | median nodes | mean time |");
    println!("| --- | --- | --- | --- | --- |");
    let names = match weak {
        true => ["every position (weak solve)", "", ""],
        false => ["easy (< 14)", "medium (14-27)", "hard (>= 28)"],
    };
    for ((name, g), e) in names.iter().zip(groups).zip(each.iter_mut()) {
        if g.0 > 0 {
            e.sort();
            println!(
                "| {name} | {} | {:.0} | {} | {:.3} ms |",
                g.0,
                g.2 as f64 / g.1 as f64,
                e[e.len() / 2],
                g.3.as_secs_f64() * 1e3 / g.1 as f64
            );
        }
    }
    println!("unsolved within {time:?}: {unsolved}");
    if checked > 0 {
        println!("listed scores checked: {checked}, different: {wrong}");
    }
    if wrong > 0 {
        return Err(format!("{wrong} scores differ from the listed ones"));
    }
    Ok(())
}

/// Every column's answer per position; with listed scores per column, each column's
/// outcome and plies checked against them (an error on any difference).
fn columns(positions: &[Listed], time: Duration, node_limit: Option<u64>) -> Result<(), String> {
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    // Nodes of the answers that completed: the machine's load does not move them.
    let mut nodes = Vec::new();
    let mut complete = 0;
    let (mut checked, mut wrong) = (0, 0);
    // Columns whose outcome the answer proved, positions with every column's outcome
    // proven, and columns whose distance is only bounded (an upper bound or none).
    let (mut settled, mut every_outcome, mut open) = (0, 0, 0);
    for (p, moves, listed) in positions {
        let limits = Limits {
            nodes: node_limit,
            ..Limits::with_time(time)
        };
        let start = Instant::now();
        let cpu0 = thread_cpu();
        let a = Perfect.analyze(p, &limits, &mut StdRng::seed_from_u64(1));
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu0, thread_cpu()) {
            cpu.push(b - a);
        }
        complete += a.stats.complete as usize;
        if a.stats.complete {
            nodes.push(a.stats.nodes);
        }
        let proven = a
            .moves
            .iter()
            .filter(|e| e.eval.outcome != Outcome::Unknown)
            .count();
        settled += proven;
        every_outcome += (proven == a.moves.len()) as usize;
        if listed.len() == p.m() {
            let cells = p.cells().len() as u32;
            let stones = cells - p.empties();
            for (c, want) in listed.iter().enumerate() {
                let got = a.moves.iter().find(|e| e.mv.cell() % p.m() == c);
                checked += 1;
                let (want, got) = match (want, got) {
                    (None, None) => continue,
                    (Some(w), Some(g)) => (*w, g),
                    _ => {
                        wrong += 1;
                        eprintln!(
                            "{moves}: column {}: listed {want:?}, answered {got:?}",
                            c + 1
                        );
                        continue;
                    }
                };
                // A proven outcome must be the listed one; an exact distance the listed
                // one; a bound no shorter than the listed distance. Unproven is open.
                let eval = &got.eval;
                let score = |plies| stone_score(cells, stones, plies, eval.outcome);
                let right = match (eval.outcome, eval.plies) {
                    (Outcome::Unknown, _) => {
                        open += 1;
                        true
                    }
                    (Outcome::Draw, _) => want == 0,
                    (_, None) => {
                        open += 1;
                        want.signum() == score(1).signum()
                    }
                    (_, Some(plies)) if got.bound == Bound::Exact => score(plies) == want,
                    (_, Some(plies)) => {
                        open += 1;
                        // A bound: the end comes within `plies`, so no sooner than listed.
                        want.signum() == score(plies).signum() && score(plies).abs() <= want.abs()
                    }
                };
                if !right {
                    wrong += 1;
                    eprintln!(
                        "{moves}: column {}: listed {want}, answered {eval:?}",
                        c + 1
                    );
                }
            }
        }
    }
    times.sort();
    nodes.sort();
    cpu.sort();
    let q = |len: usize, q: f64| ((len as f64 * q).ceil() as usize).clamp(1, len.max(1)) - 1;
    let at = |x: f64| times[q(times.len(), x)];
    let nodes_at = |x: f64| nodes.get(q(nodes.len(), x)).copied().unwrap_or(0);
    println!(
        "positions {}, complete {} ({:.1}%), p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
         nodes of the complete answers: p50 {}, p99 {}, max {}",
        times.len(),
        complete,
        100.0 * complete as f64 / times.len().max(1) as f64,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().map_or(0.0, |t| t.as_secs_f64() * 1e3),
        nodes_at(0.5),
        nodes_at(0.99),
        nodes.last().copied().unwrap_or(0)
    );
    if !cpu.is_empty() {
        let cpu_at = |x: f64| cpu[q(cpu.len(), x)].as_secs_f64() * 1e3;
        println!(
            "CPU time of this thread per answer: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            cpu_at(0.5),
            cpu_at(0.99),
            cpu_at(1.0)
        );
    }
    println!(
        "every column's outcome proven: {every_outcome} of {} positions; columns proven: \
         {settled}",
        times.len()
    );
    if checked > 0 {
        println!(
            "listed columns checked: {checked}, wrong: {wrong}, open (unproven or a \
             distance bound): {open}"
        );
    }
    if wrong > 0 {
        return Err(format!("{wrong} columns contradict the listed scores"));
    }
    Ok(())
}

/// The CPU time this thread has run (Linux's `/proc/thread-self/schedstat`, in
/// nanoseconds; `None` elsewhere): what an answer costs whatever the machine's load.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stone_scores_are_the_published_unit() {
        // The empty 7x6 board: the first player wins with the 41st stone, score 1.
        assert_eq!(stone_score(42, 0, 41, Outcome::Win), 1);
        // After one stone the side to move loses to that same stone: -1.
        assert_eq!(stone_score(42, 1, 40, Outcome::Loss), -1);
        // A win with the next stone scores (cells + 1 - stones) / 2.
        assert_eq!(stone_score(42, 9, 1, Outcome::Win), 17);
        assert_eq!(stone_score(42, 10, 1, Outcome::Win), 16);
        assert_eq!(stone_score(42, 12, 30, Outcome::Draw), 0);
    }
}
