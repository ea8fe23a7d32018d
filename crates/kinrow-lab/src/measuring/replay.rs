//! `kinrow bench --replay FILE`: replays the positions of recorded games (the JSON lines
//! of [`crate::record`], as `kinrow arena --out` and `kinrow selfplay` write them)
//! through engines at a fixed node budget and seed, and prints a digest of what each
//! engine answered (move, nodes, depth) with the time it took. Two builds that give the
//! same digest searched the same trees; the time says which is faster. This is how a
//! refactoring of the engines shows that it keeps their behaviour.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;

use kinrow_engine::EngineKind;
use kinrow_engine::EvalChoice;
use kinrow_engine::Limits;
use kinrow_engine::SearchContext;
use kinrow_engine::Tactics;
use kinrow_game::{splitmix64, Move, Position};

/// One engine's replay: positions analysed, the digest, nodes and time.
#[derive(Clone, Debug)]
pub struct ReplayRow {
    /// The engine replayed.
    pub engine: EngineKind,
    /// Positions analysed.
    pub positions: u64,
    /// The digest of every answer (move, nodes, depth).
    pub digest: u64,
    /// The digest of the moves alone: equal where only the node counts or depths changed.
    pub moves: u64,
    /// Nodes searched, summed.
    pub nodes: u64,
    /// The completed depths (`stats.depth`), summed over the positions.
    pub depth: u64,
    /// The time taken, summed.
    pub elapsed: Duration,
    /// Each position's answer: the move and the path it came by (`stats.path`).
    pub answers: Vec<(Move, String)>,
}

/// Positions where two replays of the same positions answered different moves, each
/// counted under the first replay's path (`pattern search: threat-space guard`, ...):
/// how often a switch changes the move, and where.
pub fn moves_changed(base: &ReplayRow, other: &ReplayRow) -> Vec<(String, usize, usize)> {
    let mut by_path: Vec<(String, usize, usize)> = Vec::new();
    for ((mv, path), (other_mv, _)) in base.answers.iter().zip(&other.answers) {
        let i = match by_path.iter().position(|(p, _, _)| p == path) {
            Some(i) => i,
            None => {
                by_path.push((path.clone(), 0, 0));
                by_path.len() - 1
            }
        };
        by_path[i].1 += 1;
        by_path[i].2 += usize::from(mv != other_mv);
    }
    by_path.sort();
    by_path
}

/// Reads every position of the recorded games in `text` (one game per line): the
/// position before each move after the opening, skipping finished ones.
pub fn positions(text: &str) -> Result<Vec<Position>, String> {
    Ok(crate::record::read_games(text)?
        .iter()
        .flat_map(|(_, g)| g.turns().into_iter().map(|t| t.position))
        .collect())
}

/// Replays `positions` through `engine`, each with `nodes` nodes and the same seed, `auto`
/// with the static evaluation `eval` and the search tactics `tactics`.
pub fn replay(
    engine: EngineKind,
    positions: &[Position],
    nodes: u64,
    (eval, tactics): (EvalChoice, Tactics),
) -> ReplayRow {
    let built = engine.build();
    let limits = Limits {
        time: Duration::from_secs(3600),
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut digest = 0u64;
    let mut moves = 0u64;
    let mut total = 0u64;
    let mut depth = 0u64;
    let mut answers = Vec::with_capacity(positions.len());
    let start = Instant::now();
    for p in positions {
        let mut rng = StdRng::seed_from_u64(7);
        let mut ctx = SearchContext::new();
        *ctx.kept::<EvalChoice>() = eval;
        *ctx.kept::<Tactics>() = tactics;
        let a = built.analyze_with(p, &limits, &mut ctx, &mut rng);
        total += a.stats.nodes;
        depth += u64::from(a.stats.depth);
        let step = ((a.best.cell() as u64) << 40)
            ^ ((a.best.piece as u64) << 36)
            ^ (a.stats.nodes << 8)
            ^ u64::from(a.stats.depth);
        digest = splitmix64(digest ^ step);
        moves = splitmix64(moves ^ ((a.best.cell() as u64) << 8) ^ a.best.piece as u64);
        let path = a
            .stats
            .path
            .as_ref()
            .map_or_else(String::new, |p| p.to_string());
        answers.push((a.best, path));
    }
    ReplayRow {
        engine,
        positions: positions.len() as u64,
        digest,
        moves,
        nodes: total,
        depth,
        elapsed: start.elapsed(),
        answers,
    }
}

/// The replay table as printed (Markdown).
pub fn table(rows: &[ReplayRow], nodes: u64) -> String {
    let mut out = format!(
        "replay at {nodes} nodes per position, seed 7\n\n| engine | positions | digest | moves | nodes | seconds | nodes/s | mean depth |\n| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |\n"
    );
    for r in rows {
        let secs = r.elapsed.as_secs_f64();
        out.push_str(&format!(
            "| {} | {} | {:016x} | {:016x} | {} | {:.2} | {:.0} | {:.2} |\n",
            r.engine.name(),
            r.positions,
            r.digest,
            r.moves,
            r.nodes,
            secs,
            r.nodes as f64 / secs.max(1e-9),
            r.depth as f64 / r.positions.max(1) as f64
        ));
    }
    out
}
