//! `kinrow arena`: plays two engines against each other and measures the difference.
//!
//! Games come in pairs: both games of a pair start from the same opening, a few random
//! marks near the centre (on large boards an odd number, so o moves next, one mark
//! behind, which offsets x's first move) drawn from a seeded generator and kept only
//! when a quick evaluation finds them balanced, and the engines swap colours between
//! the two. The summary gives engine A's wins, draws and losses, its score, the Elo
//! difference with a 95% interval, and each engine's mean time per move; every game's
//! move list can be written as JSON lines. Under `--opening swap` or `swap2` there are no
//! drawn openings: the engines take the opening's decisions ([`swap`]).
//!
//! Reproducibility: openings and every engine's RNG seed follow from `--seed`, and
//! results are collected in game order whatever `--threads` says. Engines that stop on a
//! node or depth limit therefore replay bit for bit; a time limit depends on the
//! machine's speed and load, so time-limited matches are only statistically repeatable.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod contest;
mod log;
mod mover;
mod openings;
pub(crate) mod parallel;
mod resume;
mod script;
mod sequential;
mod spec;
mod sprt;
mod summary;
mod swap;
pub(crate) mod turning;

pub use crate::record::GameResult;
pub use contest::{ArenaConfig, Contestant, GameRecord};
pub use openings::*;
pub use script::{script_move, ScriptSpec};
pub use spec::EngineSpec;
pub use sprt::{Decision, Sprt};
pub use summary::*;

use crate::record::MoveSearch;
use log::MatchLog;
use mover::Mover;
use parallel::in_parallel;

use kinrow_game::{Hand, Move, Opening, Player, Position, Rules, Variant};

/// Plays game `index` of the match from `opening` (its pair's); under swap and swap2
/// the engines first take the opening's decisions ([`swap`]) and `opening` is empty.
pub fn play_game(config: &ArenaConfig, index: usize, opening: &[Move]) -> GameRecord {
    let mut movers: Vec<Result<Mover, String>> =
        (0..2).map(|e| Mover::new(config, index, e)).collect();
    let phase = if config.rules.opening().has_phase() {
        swap::play_opening(config, index, &mut movers)
    } else {
        swap::Phase {
            stones: opening.to_vec(),
            x_engine: index % 2,
            ..swap::Phase::default()
        }
    };
    let x_engine = phase.x_engine;
    let opening = phase.stones;
    let mut p = Position::empty(&config.rules);
    for &mv in opening.iter().chain(&phase.moves) {
        p.play(mv);
    }
    let mut moves = phase.moves;
    // The opening phase's moves come without their searches.
    let mut search = vec![MoveSearch::default(); moves.len()];
    let mut think = phase.think;
    let mut counts = phase.counts;
    let mut forfeit = None;
    let mut loser = None;
    if let Some((e, why)) = phase.forfeit {
        forfeit = Some(why);
        loser = Some(e);
    }
    while forfeit.is_none() && !p.is_over() {
        let e = if p.to_move() == Player::X {
            x_engine
        } else {
            1 - x_engine
        };
        let start = Instant::now();
        let history: Vec<Move> = opening.iter().chain(&moves).copied().collect();
        let chosen = match &mut movers[e] {
            Ok(mover) => mover.best_move(&p, &history),
            Err(why) => Err(why.clone()),
        };
        think[e] += start.elapsed();
        counts[e] += 1;
        match chosen.and_then(|(mv, said)| {
            p.try_play(mv)
                .map(|_| (mv, said))
                .map_err(|err| format!("{}: illegal move: {err}", config.engines[e].label()))
        }) {
            Ok((mv, said)) => {
                moves.push(mv);
                search.push(said);
            }
            Err(why) => {
                forfeit = Some(why);
                loser = Some(e);
            }
        }
    }
    let result = match (loser, p.winner()) {
        (Some(e), _) if e == x_engine => GameResult::Won(Player::O),
        (Some(_), _) => GameResult::Won(Player::X),
        (None, Some(w)) => GameResult::Won(w),
        (None, None) => GameResult::Draw,
    };
    GameRecord {
        index,
        x_engine,
        opening,
        moves,
        search,
        result,
        think,
        counts,
        forfeit,
        decisions: phase.decisions,
    }
}

/// Plays the whole match on `config.threads` threads (the openings first); `progress`
/// hears of every finished game (in completion order). Returns the games in game order.
pub fn run(config: &ArenaConfig, progress: &(dyn Fn(&GameRecord) + Sync)) -> Vec<GameRecord> {
    let all: Vec<usize> = (0..config.games).collect();
    run_games(config, &openings(config), &all, progress)
}

/// Plays the games numbered `indices` of the match whose pairs start from `openings`
/// (as [`run`] does for all of them); returns them in the order of `indices`.
pub fn run_games(
    config: &ArenaConfig,
    openings: &[Vec<Move>],
    indices: &[usize],
    progress: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    in_parallel(indices.len(), config.threads, |j| {
        let i = indices[j];
        let g = play_game(config, i, &openings[i / 2]);
        progress(&g);
        g
    })
}

/// `kinrow arena` on the command line.
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// The two engines, `a,b`, each `name[:key=value]*` (keys: time_ms, depth, nodes,
    /// mistake_probability, level, threads), e.g. `mcts,minimax:depth=4`,
    /// `auto:level=9,auto:level=7` or `auto:threads=2,auto`,
    /// or an external Gomocup engine `pbrain:PATH[:time_ms=N][:arg=TEXT]*` (started for
    /// every game; 5 in a row only).
    #[arg(long)]
    pub engines: String,
    /// The rules as `M,N,K`.
    #[arg(long, value_name = "M,N,K", default_value = "15,15,5")]
    pub rules: String,
    /// Only exactly `k` in a row wins.
    #[arg(long)]
    pub exact: bool,
    /// Gravity: a stone drops to the lowest empty cell of its column (Connect Four).
    #[arg(long)]
    pub gravity: bool,
    /// The rule variant: `free` (the default), `renju` (k = 5) or `caro`.
    #[arg(long, default_value = "free")]
    pub variant: String,
    /// Special pieces each player starts with, as `BLOCK,REMOVE,BOMB`.
    #[arg(long, value_name = "B,R,BOMB")]
    pub pieces: Option<String>,
    /// The opening rule: `free` (the default: random or `--openings` openings), `swap`
    /// or `swap2` (the engines take the opening's decisions: game i's first player is
    /// engine i % 2; external engines through `SWAP2BOARD`, swap2 only).
    #[arg(long, default_value = "free")]
    pub opening: String,
    /// Number of games (colours alternate; pairs share an opening). Default 10, or with
    /// `--openings` two per opening (under `--sprt` the openings are played in turn, again
    /// and again, until the test decides).
    #[arg(long)]
    pub games: Option<usize>,
    /// Time per move in milliseconds (an engine's own `time_ms` overrides it). Default
    /// 100; under `--sprt` 10 000, a safety net behind the node budget.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Nodes per move for each kinrow engine without a `time_ms` or `nodes` of its own
    /// (engines that count no nodes play on time). Under `--sprt` the default is 20 000:
    /// an A/B test at fixed nodes replays exactly and does not depend on the machine.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Play pairs until the sequential probability ratio test decides between engine A
    /// being `ELO0` and `ELO1` Elo stronger than B (`--games` is then the most, default
    /// 20 000): H1 accepted means the change (A) passes.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// The SPRT's chance of a false pass.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's chance of a false fail.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Write the match's summary as JSON to this file (the SPRT's counts and decision
    /// with `--sprt`).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Seed of the openings and of every engine's RNG.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (`--concurrency` says the same, as fastchess and
    /// c-gomoku-cli spell it).
    #[arg(long, alias = "concurrency", default_value_t = 1)]
    pub threads: usize,
    /// Random marks per opening (default: 1 up to 16 cells, 2 up to 64, else 5: odd on
    /// large boards, so o moves next with one mark fewer).
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Play these openings instead of random ones, each twice with colours swapped: one
    /// opening a line, moves as `x,y` (column, row, from 0) separated by spaces, x's first.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Write every game to this file as a line of the game record (`kinrow_lab::record`),
    /// each as it ends; a run with the same
    /// file later plays only the games not yet in it (the same match: same engines,
    /// rules, seed and openings).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one line per finished game.
    #[arg(long)]
    pub verbose: bool,
}

fn parse_config(args: &ArenaArgs) -> Result<ArenaConfig, String> {
    let specs: Vec<&str> = args.engines.split(',').collect();
    if specs.len() != 2 {
        return Err(format!(
            "--engines: expected two engines `a,b`, got {:?}",
            args.engines
        ));
    }
    let mut engines = [Contestant::parse(specs[0])?, Contestant::parse(specs[1])?];
    let nodes = match (args.nodes, &args.sprt) {
        (Some(0), _) => return Err("--nodes must be at least 1".into()),
        (Some(n), _) => Some(n),
        (None, Some(_)) => Some(SPRT_NODES),
        (None, None) => None,
    };
    if let Some(n) = nodes {
        for e in &mut engines {
            if let Contestant::Kinrow(spec) = e {
                if spec.nodes.is_none() && spec.time_ms.is_none() {
                    spec.nodes = Some(n);
                }
            }
        }
    }
    let nums: Vec<u64> = args
        .rules
        .split(',')
        .map(|s| s.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--rules: {:?} is not M,N,K", args.rules))?;
    if nums.len() != 3 {
        return Err(format!("--rules: {:?} is not M,N,K", args.rules));
    }
    let hand = match &args.pieces {
        None => Hand::default(),
        Some(s) => {
            let v: Vec<u8> = s
                .split(',')
                .map(|x| x.trim().parse::<u8>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("--pieces: {s:?} is not BLOCK,REMOVE,BOMB"))?;
            if v.len() != 3 {
                return Err(format!("--pieces: {s:?} is not BLOCK,REMOVE,BOMB"));
            }
            Hand::new(v[0], v[1], v[2])
        }
    };
    let variant = Variant::parse(&args.variant)
        .ok_or_else(|| format!("--variant: {:?} is not free, renju or caro", args.variant))?;
    let opening = match Opening::parse(&args.opening) {
        Some(o @ (Opening::Free | Opening::Swap | Opening::Swap2)) => o,
        _ => {
            return Err(format!(
                "--opening: {:?} is not free, swap or swap2 (the arena's openings are random or from --openings; pro and long pro are played through the API)",
                args.opening
            ))
        }
    };
    let rules = Rules::new(nums[0], nums[1], nums[2], !args.exact, [hand, hand])
        .and_then(|r| r.with_variant(variant))
        .and_then(|r| r.with_gravity(args.gravity))
        .and_then(|r| r.with_opening(opening))
        .map_err(|e| e.to_string())?;
    if opening.has_phase() {
        check_opening_phase(&engines, opening, args)?;
    }
    let external = engines.iter().any(|e| matches!(e, Contestant::Pbrain(_)));
    if external && (rules.k() != 5 || rules.has_special_pieces() || rules.gravity()) {
        return Err(
            "pbrain engines play five in a row without special pieces or gravity only".into(),
        );
    }
    let fixed_openings = match &args.openings {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--openings: cannot read {}: {e}", path.display()))?;
            Some(read_openings(&text, &rules).map_err(|e| format!("--openings: {e}"))?)
        }
    };
    let games = match (args.games, &fixed_openings) {
        (Some(0), _) => return Err("--games must be at least 1".into()),
        // An SPRT plays the openings in turn until it decides (or `--games` are played).
        (Some(g), _) if args.sprt.is_some() => g,
        (None, _) if args.sprt.is_some() => SPRT_GAMES,
        (Some(g), Some(o)) => g.min(2 * o.len()),
        (Some(g), None) => g,
        (None, Some(o)) => 2 * o.len(),
        (None, None) => 10,
    };
    let default_ms = if args.sprt.is_some() { 10_000 } else { 100 };
    Ok(ArenaConfig {
        engines,
        rules,
        games,
        time: Duration::from_millis(args.time_ms.unwrap_or(default_ms)),
        seed: args.seed,
        threads: args.threads.max(1),
        opening_plies: args.opening_plies,
        fixed_openings,
    })
}

/// The node budget per move of an SPRT match's kinrow engines without `--nodes`.
pub const SPRT_NODES: u64 = 20_000;

/// The most games of an SPRT match without `--games`.
pub const SPRT_GAMES: usize = 20_000;

/// Refuses what cannot play an opening phase of `opening`: fixed or random openings
/// beside it, the scripted player, an external engine under swap (it only knows
/// `SWAP2BOARD`).
fn check_opening_phase(
    engines: &[Contestant; 2],
    opening: Opening,
    args: &ArenaArgs,
) -> Result<(), String> {
    if args.openings.is_some() || args.opening_plies.is_some() {
        return Err(format!(
            "--opening {}: the engines place the opening's stones; --openings and --opening-plies do not apply",
            opening.as_str()
        ));
    }
    for e in engines {
        match e {
            Contestant::Script(_) => {
                return Err(format!(
                    "--opening {}: {} takes no opening decisions",
                    opening.as_str(),
                    e.label()
                ))
            }
            Contestant::Pbrain(_) if opening != Opening::Swap2 => {
                return Err(format!(
                    "--opening swap: {} is an external engine, and the Gomocup protocol has an opening command for swap2 only",
                    e.label()
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Runs `kinrow arena`; returns the exit code. With `--out`, games already in the file
/// (from an earlier run of the same match) are kept and only the others are played; each
/// game is appended as it ends. Progress goes to standard error, the report to standard
/// output.
pub fn main(args: ArenaArgs) -> i32 {
    let config = match parse_config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kinrow arena: {e}");
            return 2;
        }
    };
    if let Some(bounds) = &args.sprt {
        return match Sprt::new(bounds, args.alpha, args.beta) {
            Ok(test) => sequential::main(&args, &config, &test),
            Err(e) => {
                eprintln!("kinrow arena: {e}");
                2
            }
        };
    }
    let openings = openings(&config);
    let (recorded, ledger) = match &args.out {
        None => (Default::default(), None),
        Some(path) => match resume_from(&config, &|p| openings[p].clone(), path) {
            Ok((games, ledger)) => (games, Some(ledger)),
            Err(e) => {
                eprintln!("kinrow arena: --out: {e}");
                return 2;
            }
        },
    };
    let missing: Vec<usize> = (0..config.games)
        .filter(|i| !recorded.contains_key(i))
        .collect();
    if !recorded.is_empty() {
        eprintln!(
            "arena: {} of {} games already in the file; playing the other {}",
            recorded.len(),
            config.games,
            missing.len()
        );
    }
    let log = MatchLog::new(&config, args.verbose, &recorded, ledger);
    run_games(&config, &openings, &missing, &|g: &GameRecord| {
        log.game(g, "")
    });
    let games = match log.finish() {
        Ok(games) => games,
        Err(e) => {
            eprintln!("kinrow arena: {e}");
            return 1;
        }
    };
    if let Some(path) = &args.out {
        // The whole match written again in game order, whatever order the games ended in.
        let text: String = games
            .iter()
            .map(|g| format!("{}\n", g.to_recorded(&config).to_line()))
            .collect();
        let tmp = path.with_extension("partial");
        if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path)) {
            eprintln!("kinrow arena: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    let summary = summarize(&games);
    if let Some(path) = &args.summary {
        if let Err(e) = write_summary(path, &summary_json(&config, &summary)) {
            eprintln!("kinrow arena: {e}");
            return 1;
        }
    }
    crate::output::print_line(&report(&config, &summary));
    0
}

/// Writes the JSON summary `value` to `path`.
fn write_summary(path: &std::path::Path, value: &serde_json::Value) -> Result<(), String> {
    std::fs::write(path, format!("{value}\n"))
        .map_err(|e| format!("--summary: cannot write {}: {e}", path.display()))
}

/// The games an earlier run left in `path` (none when it does not exist yet), and the
/// file opened to append the rest. A line cut short by a stopped run is dropped.
fn resume_from(
    config: &ArenaConfig,
    opening_of: &dyn Fn(usize) -> Vec<Move>,
    path: &std::path::Path,
) -> Result<
    (
        std::collections::BTreeMap<usize, GameRecord>,
        resume::Ledger,
    ),
    String,
> {
    let whole = crate::output::whole_lines(path)?;
    let games = resume::recorded_games(config, opening_of, &whole)?;
    Ok((games, resume::Ledger::open(path)?))
}

#[cfg(test)]
mod tests {
    use super::{pair_opening, parse_config, ArenaArgs, SPRT_GAMES};
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        arena: ArenaArgs,
    }

    fn config(extra: &[&str]) -> super::ArenaConfig {
        let openings = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openings/15x15-freestyle.txt"
        );
        let mut argv = vec![
            "arena",
            "--engines",
            "greedy,threat",
            "--rules",
            "15,15,5",
            "--openings",
            openings,
        ];
        argv.extend_from_slice(extra);
        parse_config(&Cli::parse_from(argv).arena).expect("a valid match")
    }

    #[test]
    fn an_sprt_plays_the_openings_in_turn_until_it_decides() {
        let plain = config(&[]);
        let n = plain.fixed_openings.as_ref().map_or(0, Vec::len);
        assert!(n > 1);
        // A plain match plays each opening twice; an SPRT goes on past the file.
        assert_eq!(plain.games, 2 * n);
        assert_eq!(config(&["--games", "500"]).games, 2 * n);
        let sprt = config(&["--sprt", "0,5"]);
        // A non-regression test's bounds start with a minus sign.
        assert_eq!(config(&["--sprt", "-3,1"]).games, SPRT_GAMES);
        assert_eq!(sprt.games, SPRT_GAMES);
        assert_eq!(config(&["--sprt", "0,5", "--games", "500"]).games, 500);
        assert_eq!(pair_opening(&sprt, n + 1), pair_opening(&sprt, 1));
        assert_ne!(pair_opening(&sprt, n + 1), pair_opening(&sprt, 2));
    }
}
