//! `kinrow arena`: plays two engines against each other and measures the difference.
//!
//! Games come in pairs: both games of a pair start from the same opening, a few random
//! marks near the centre (on large boards an odd number, so o moves next, one mark
//! behind, which offsets x's first move) drawn from a seeded generator and kept only
//! when a quick evaluation finds them balanced, and the engines swap colours between
//! the two. The summary gives engine A's wins, draws and losses, its score, the Elo
//! difference with a 95% interval, and each engine's mean time per move; every game's
//! move list can be written as JSON lines.
//!
//! Reproducibility: openings and every engine's RNG seed follow from `--seed`, and
//! results are collected in game order whatever `--threads` says. Engines that stop on a
//! node or depth limit therefore replay bit for bit; a time limit depends on the
//! machine's speed and load, so time-limited matches are only statistically repeatable.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::engine::{eval, level, Engine, EngineKind, Limits, Outcome, Parameter};
use crate::game::{Hand, Move, Player, Position, Rules};

/// One contestant: an engine and its parameters, written `name[:key=value]*`,
/// e.g. `minimax:depth=4`, `perfect:mistake_probability=0.1:time_ms=50` or `auto:level=3`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub kind: EngineKind,
    pub time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mistake_probability: Option<f64>,
    /// The difficulty 1..=10 (10, full strength, when omitted).
    pub level: Option<u8>,
    /// The text it was parsed from: the engine's label in the results.
    pub label: String,
}

impl EngineSpec {
    /// Parses `name[:key=value]*`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or_default();
        let kind = EngineKind::parse(name).ok_or_else(|| {
            let known: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown engine {name:?} (known: {})", known.join(", "))
        })?;
        let mut spec = EngineSpec {
            kind,
            time_ms: None,
            depth: None,
            nodes: None,
            mistake_probability: None,
            level: None,
            label: text.trim().to_string(),
        };
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{text:?}: parameter {part:?} is not key=value"))?;
            let bad = |what: &str| format!("{text:?}: {key}={value:?} is not {what}");
            let param = match key {
                "time_ms" => {
                    spec.time_ms = Some(value.parse().map_err(|_| bad("a whole number"))?);
                    Parameter::TimeMs
                }
                "depth" => {
                    spec.depth = Some(value.parse().map_err(|_| bad("a whole number"))?);
                    Parameter::Depth
                }
                "nodes" => {
                    spec.nodes = Some(value.parse().map_err(|_| bad("a whole number"))?);
                    Parameter::Nodes
                }
                "mistake_probability" => {
                    let p: f64 = value.parse().map_err(|_| bad("a number"))?;
                    if !(0.0..=1.0).contains(&p) {
                        return Err(bad("between 0 and 1"));
                    }
                    spec.mistake_probability = Some(p);
                    Parameter::MistakeProbability
                }
                "level" => {
                    let l: u8 = value.parse().map_err(|_| bad("a whole number"))?;
                    if !(level::MIN..=level::FULL).contains(&l) {
                        return Err(bad("between 1 and 10"));
                    }
                    spec.level = Some(l);
                    Parameter::Level
                }
                _ => {
                    return Err(format!(
                        "{text:?}: unknown parameter {key:?} (time_ms, depth, nodes, mistake_probability, level)"
                    ))
                }
            };
            if !kind.parameters().contains(&param) {
                return Err(format!("{text:?}: {name} does not read {key}"));
            }
        }
        Ok(spec)
    }

    /// The engine at the spec's level (also what applies `mistake_probability` at the
    /// root of a one-ply engine).
    pub fn build(&self) -> Box<dyn Engine> {
        Box::new(level::Leveled::new(
            self.kind,
            self.level.unwrap_or(level::FULL),
        ))
    }

    /// The limits of one move: the spec's own values over the match's time budget.
    pub fn limits(&self, default_time: Duration) -> Limits {
        Limits {
            time: self.time_ms.map_or(default_time, Duration::from_millis),
            depth: self.depth,
            nodes: self.nodes,
            mistake_probability: self.mistake_probability.unwrap_or(0.0),
        }
    }
}

/// A whole match.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Engine A and engine B.
    pub engines: [EngineSpec; 2],
    pub rules: Rules,
    pub games: usize,
    /// Time per move unless an engine's spec says otherwise.
    pub time: Duration,
    pub seed: u64,
    pub threads: usize,
    /// Random marks in each opening; `None` picks by board size.
    pub opening_plies: Option<usize>,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    Won(Player),
    Draw,
}

/// One played game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    /// Which engine (0 = A, 1 = B) played x.
    pub x_engine: usize,
    pub opening: Vec<Move>,
    /// The engines' moves after the opening.
    pub moves: Vec<Move>,
    pub result: GameResult,
    /// Total thinking time and number of moves per engine (A, B).
    pub think: [Duration; 2],
    pub counts: [u32; 2],
}

impl GameRecord {
    /// The winning engine (0 = A, 1 = B), `None` for a draw.
    pub fn winner_engine(&self) -> Option<usize> {
        match self.result {
            GameResult::Won(Player::X) => Some(self.x_engine),
            GameResult::Won(Player::O) => Some(1 - self.x_engine),
            GameResult::Draw => None,
        }
    }
}

/// The match's totals, from engine A's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// A's points per game (a win 1, a draw ½).
    pub score: f64,
    /// A's Elo advantage (infinite at a score of 0 or 1) and its 95% interval (Wilson).
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// Mean time per move of A and B.
    pub mean_move: [Duration; 2],
}

/// Elo difference for a score fraction in `[0, 1]`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Totals a list of games.
pub fn summarize(games: &[GameRecord]) -> Summary {
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut think = [Duration::ZERO; 2];
    let mut counts = [0u32; 2];
    for g in games {
        match g.winner_engine() {
            Some(0) => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
        for e in 0..2 {
            think[e] += g.think[e];
            counts[e] += g.counts[e];
        }
    }
    let n = games.len().max(1) as f64;
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    // Wilson score interval with the binomial variance (conservative when there are
    // draws); unlike the plain normal approximation it stays finite at 0% and 100%.
    let z = 1.96f64;
    let centre = (score + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (score * (1.0 - score) / n + z * z / (4.0 * n * n)).sqrt();
    let mean = |e: usize| {
        if counts[e] == 0 {
            Duration::ZERO
        } else {
            think[e] / counts[e]
        }
    };
    Summary {
        wins,
        draws,
        losses,
        score,
        elo: elo_from_score(score),
        elo_low: elo_from_score(centre - half),
        elo_high: elo_from_score(centre + half),
        mean_move: [mean(0), mean(1)],
    }
}

/// The default number of random opening marks for a board: 1 up to 16 cells, 2 up to
/// 64, else 5. On large boards the number is odd, so o moves first after the opening
/// with one mark fewer, which offsets x's first-move advantage there (15x15x5, `auto`
/// against itself, 20 games at 100 ms on seed 1: after 4 random marks x won 18 games,
/// after 5 x won 9 and o 11). Small boards stay even: on 7x7x4 (a first-player win)
/// x wins every game from 3 random marks whoever plays it, even `greedy` against `auto`.
pub fn default_opening_plies(rules: &Rules) -> usize {
    match rules.cells() {
        0..=16 => 1,
        17..=64 => 2,
        _ => 5,
    }
}

/// True when the side to move or the opponent could complete a line at once.
fn has_immediate_win(p: &Position) -> bool {
    (0..p.cells().len()).any(|c| {
        p.cell(c) == crate::game::Cell::Empty
            && (p.wins_at(c, Player::X) || p.wins_at(c, Player::O))
    })
}

/// How lopsided a position looks: |own − opponent's window potential| over their sum.
fn imbalance(p: &Position) -> f64 {
    let me = eval::potential(p, p.to_move());
    let them = eval::potential(p, p.to_move().opponent());
    if me + them == 0.0 {
        0.0
    } else {
        (me - them).abs() / (me + them)
    }
}

/// Nodes of the search that judges an opening (`auto`, node-limited so it replays).
const JUDGE_NODES: u64 = 50_000;
/// Openings the search judges per pair, at most.
const JUDGED: usize = 24;
/// Nodes of the longer search (about 1 s) that must confirm an opening the short one
/// found even. The short search alone passed openings the longer one puts 150 points
/// off even, where the favoured side won whoever played it (one such game `auto` lost
/// at 400 ms while every move it made was the one a 1 s search chose). Against `mcts`
/// on 15x15x5 at 100 ms (80-game runs, seeds 7 to 12), pairs that went to the same colour
/// twice: 102 of 240 judged by the short search alone, 86 of 240 confirmed (fewer on
/// five of the six seeds); `auto` scored 74.8% and 76.5% over the 480 games.
/// Judging the 40 openings of an 80-game match takes 53 s on 2 threads (19 s before,
/// when each pair's opening was also judged twice, once per game).
pub const CONFIRM_NODES: u64 = 400_000;
/// Openings the longer search judges per pair, at most.
const CONFIRMED: usize = 6;
/// An opening whose searched value lies within this many window points of even is
/// taken at once (an open three's window is worth 100).
pub const EVEN_BAND: f64 = 40.0;
/// What x's extra mark is worth, in window points, beyond what the search sees when o
/// is to move: openings that searched even for o (within 40 of 0 at 20k nodes) went to
/// x in 34 of 40 games of `auto` against itself and 28 of 40 of `mcts` against itself
/// (15x15x5, 100 ms, seed 5). Centred on +40 for o at 50k nodes, the same 40 games split
/// 18-22 and 19-21.
pub const X_EDGE: f64 = 40.0;

/// The searched value that counts as even for the side to move of `p`: 0 when x moves
/// (the marks are level), [`X_EDGE`] when o moves (x has a mark more).
pub fn even_value(p: &Position) -> f64 {
    if p.to_move() == Player::O {
        X_EDGE
    } else {
        0.0
    }
}

/// The value of `p` for the side to move by a short `auto` search (k >= 4, marks only),
/// `None` where that search is not the pattern search.
pub fn searched_value(p: &Position) -> Option<f64> {
    searched_value_at(p, JUDGE_NODES)
}

/// The value of `p` for the side to move by the longer search that confirms an
/// opening ([`CONFIRM_NODES`]), `None` where [`searched_value`] is `None`.
pub fn confirmed_value(p: &Position) -> Option<f64> {
    searched_value_at(p, CONFIRM_NODES)
}

/// The value of `p` for the side to move by an `auto` search of `nodes` nodes.
fn searched_value_at(p: &Position, nodes: u64) -> Option<f64> {
    if p.k() < 4 || p.has_special_pieces() {
        return None;
    }
    let limits = Limits {
        time: Duration::from_secs(60),
        nodes: Some(nodes),
        ..Limits::default()
    };
    let a = EngineKind::Auto
        .build()
        .analyze(p, &limits, &mut StdRng::seed_from_u64(0));
    Some(if a.evaluation.outcome == Outcome::Unknown {
        a.evaluation.score
    } else {
        f64::INFINITY
    })
}

/// How far an opening's evenness is checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Judge {
    /// By the short search only (benchmark positions, where evenness matters less).
    Quick,
    /// By the short search, then by the longer one (the arena's openings).
    Confirmed,
}

/// The opening of pair `pair`: `plies` random marks within a small square around the
/// centre. A draw is redrawn (up to 200 times) while the game is decided, a line is one
/// move from completion, or the static evaluation is lopsided. For k >= 4 (marks only)
/// the draws that pass are then judged by a short search, and the first whose value is
/// within [`EVEN_BAND`] of [`even_value`] is taken (of [`JUDGED`] at most; else the most
/// even one): random marks often hand one side an attack that decides the game whoever
/// plays it. The arena's openings are [`Judge::Confirmed`]: see [`CONFIRM_NODES`].
pub fn opening(rules: &Rules, plies: usize, seed: u64, pair: usize) -> Vec<Move> {
    opening_judged(rules, plies, seed, pair, Judge::Confirmed)
}

/// [`opening`], judged as `judge` says.
pub fn opening_judged(
    rules: &Rules,
    plies: usize,
    seed: u64,
    pair: usize,
    judge: Judge,
) -> Vec<Move> {
    let mut rng = StdRng::seed_from_u64(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let (m, n) = (rules.m(), rules.n());
    let radius = (m.min(n) / 4).max(1);
    let (cr, cc) = (n / 2, m / 2);
    let mut region: Vec<usize> = Vec::new();
    for r in cr.saturating_sub(radius)..(cr + radius + 1).min(n) {
        for c in cc.saturating_sub(radius)..(cc + radius + 1).min(m) {
            region.push(r * m + c);
        }
    }
    let plies = plies.min(region.len()).min(rules.cells().saturating_sub(1));
    let mut best: Option<(f64, Vec<Move>)> = None;
    let mut judged = 0;
    let mut confirmed = 0;
    for _ in 0..200 {
        let mut p = Position::empty(rules);
        let mut moves = Vec::new();
        while moves.len() < plies {
            let cell = region[rng.random_range(0..region.len())];
            let mv = Move::mark(cell);
            if p.is_legal(mv) {
                p.play(mv);
                moves.push(mv);
            }
            if p.is_over() {
                break;
            }
        }
        if p.is_over() || (rules.k() > 2 && has_immediate_win(&p)) {
            continue;
        }
        let lopsided = imbalance(&p);
        if lopsided >= 0.15 {
            // Kept as a last resort, behind every draw that passes.
            let rank = 1e12 + lopsided;
            if best.as_ref().is_none_or(|(b, _)| rank < *b) {
                best = Some((rank, moves));
            }
            continue;
        }
        let Some(value) = searched_value(&p) else {
            return moves;
        };
        judged += 1;
        let off_even = |v: f64| (v - even_value(&p)).abs();
        let off = off_even(value);
        let rank = if off > EVEN_BAND {
            off
        } else if judge == Judge::Quick {
            return moves;
        } else if confirmed == CONFIRMED {
            // Out of confirmations: ranked by the short search like the uneven draws.
            off
        } else {
            // Even at a glance: the longer search has the last word.
            confirmed += 1;
            let deep_off = off_even(confirmed_value(&p).unwrap_or(f64::INFINITY));
            if deep_off <= EVEN_BAND {
                return moves;
            }
            // Ranked ahead of every draw only the short search judged.
            deep_off - 1e9
        };
        if best.as_ref().is_none_or(|(b, _)| rank < *b) {
            best = Some((rank, moves));
        }
        if judged >= JUDGED {
            break;
        }
    }
    best.map(|(_, m)| m).unwrap_or_default()
}

fn engine_seed(seed: u64, game: usize, engine: usize) -> u64 {
    seed.wrapping_mul(0xD134_2543_DE82_EF95)
        ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (engine as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// The opening of every pair of the match, each judged once (on `config.threads`
/// threads): the two games of a pair share it.
pub fn openings(config: &ArenaConfig) -> Vec<Vec<Move>> {
    let plies = config
        .opening_plies
        .unwrap_or_else(|| default_opening_plies(&config.rules));
    let pairs = config.games.div_ceil(2);
    in_parallel(pairs, config.threads, |pair| {
        opening(&config.rules, plies, config.seed, pair)
    })
}

/// Plays game `index` of the match from `opening` (its pair's).
pub fn play_game(config: &ArenaConfig, index: usize, opening: &[Move]) -> GameRecord {
    let opening = opening.to_vec();
    let x_engine = index % 2;
    let engines = [config.engines[0].build(), config.engines[1].build()];
    let limits = [
        config.engines[0].limits(config.time),
        config.engines[1].limits(config.time),
    ];
    let mut rngs = [0, 1].map(|e| StdRng::seed_from_u64(engine_seed(config.seed, index, e)));
    let mut p = Position::empty(&config.rules);
    for &mv in &opening {
        p.play(mv);
    }
    let mut moves = Vec::new();
    let mut think = [Duration::ZERO; 2];
    let mut counts = [0u32; 2];
    let mut result = None;
    while !p.is_over() {
        let e = if p.to_move() == Player::X {
            x_engine
        } else {
            1 - x_engine
        };
        let start = Instant::now();
        let analysis = engines[e].analyze(&p, &limits[e], &mut rngs[e]);
        think[e] += start.elapsed();
        counts[e] += 1;
        if p.try_play(analysis.best).is_err() {
            // An illegal move forfeits the game.
            result = Some(GameResult::Won(p.to_move().opponent()));
            break;
        }
        moves.push(analysis.best);
    }
    let result = result.unwrap_or_else(|| match p.winner() {
        Some(w) => GameResult::Won(w),
        None => GameResult::Draw,
    });
    GameRecord {
        index,
        x_engine,
        opening,
        moves,
        result,
        think,
        counts,
    }
}

/// Plays the whole match on `config.threads` threads (the openings first); `progress`
/// hears of every finished game (in completion order). Returns the games in game order.
pub fn run(config: &ArenaConfig, progress: &(dyn Fn(&GameRecord) + Sync)) -> Vec<GameRecord> {
    let openings = openings(config);
    in_parallel(config.games, config.threads, |i| {
        let g = play_game(config, i, &openings[i / 2]);
        progress(&g);
        g
    })
}

/// `work(0)`, ..., `work(count - 1)` on `threads` threads, each index taken by the next
/// free thread; the results in index order.
fn in_parallel<T: Send>(count: usize, threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let v = work(i);
                done.lock().expect("no panics while holding").push((i, v));
            });
        }
    });
    let mut done = done.into_inner().expect("threads finished");
    done.sort_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, v)| v).collect()
}

fn move_json(mv: Move, m: usize) -> serde_json::Value {
    let c = mv.coord(m);
    serde_json::json!({ "row": c.row, "col": c.col, "piece": mv.piece.as_str() })
}

/// One game as a JSON object (one line of the `--out` file).
pub fn game_json(config: &ArenaConfig, g: &GameRecord) -> serde_json::Value {
    let m = config.rules.m();
    let label = |e: usize| config.engines[e].label.clone();
    let ms = |e: usize| {
        if g.counts[e] == 0 {
            0.0
        } else {
            g.think[e].as_secs_f64() * 1000.0 / f64::from(g.counts[e])
        }
    };
    serde_json::json!({
        "game": g.index,
        "rules": { "m": config.rules.m(), "n": config.rules.n(), "k": config.rules.k(),
                   "overline": config.rules.overline() },
        "x": label(g.x_engine),
        "o": label(1 - g.x_engine),
        "opening": g.opening.iter().map(|&mv| move_json(mv, m)).collect::<Vec<_>>(),
        "moves": g.moves.iter().map(|&mv| move_json(mv, m)).collect::<Vec<_>>(),
        "result": match g.result {
            GameResult::Won(p) => p.as_str(),
            GameResult::Draw => "draw",
        },
        "winner": g.winner_engine().map(label),
        "mean_ms": { "x": ms(g.x_engine), "o": ms(1 - g.x_engine) },
    })
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if e.abs() < 0.5 {
        "0".to_string()
    } else {
        format!("{e:+.0}")
    }
}

/// The summary as printed by `kinrow arena`.
pub fn report(config: &ArenaConfig, s: &Summary) -> String {
    let [a, b] = &config.engines;
    let games = s.wins + s.draws + s.losses;
    format!(
        "{} vs {} on {},{},{}{}: {} games\n\
         {}: {} wins, {} draws, {} losses; score {:.1}%\n\
         Elo difference {} (95% interval {} .. {})\n\
         mean time per move: {} {:.1} ms, {} {:.1} ms",
        a.label,
        b.label,
        config.rules.m(),
        config.rules.n(),
        config.rules.k(),
        if config.rules.overline() {
            ""
        } else {
            " exact"
        },
        games,
        a.label,
        s.wins,
        s.draws,
        s.losses,
        s.score * 100.0,
        fmt_elo(s.elo),
        fmt_elo(s.elo_low),
        fmt_elo(s.elo_high),
        a.label,
        s.mean_move[0].as_secs_f64() * 1000.0,
        b.label,
        s.mean_move[1].as_secs_f64() * 1000.0,
    )
}

/// `kinrow arena` on the command line.
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// The two engines, `a,b`, each `name[:key=value]*` (keys: time_ms, depth, nodes,
    /// mistake_probability, level), e.g. `mcts,minimax:depth=4` or `auto:level=9,auto:level=7`.
    #[arg(long)]
    pub engines: String,
    /// The rules as `M,N,K`.
    #[arg(long, value_name = "M,N,K", default_value = "15,15,5")]
    pub rules: String,
    /// Only exactly `k` in a row wins.
    #[arg(long)]
    pub exact: bool,
    /// Special pieces each player starts with, as `BLOCK,REMOVE,BOMB`.
    #[arg(long, value_name = "B,R,BOMB")]
    pub pieces: Option<String>,
    /// Number of games (colours alternate; pairs share an opening).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Time per move in milliseconds (an engine's own `time_ms` overrides it).
    #[arg(long, default_value_t = 100)]
    pub time_ms: u64,
    /// Seed of the openings and of every engine's RNG.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Random marks per opening (default: 1 up to 16 cells, 2 up to 64, else 5: odd on
    /// large boards, so o moves next with one mark fewer).
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Write every game as a JSON line to this file.
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
    let engines = [EngineSpec::parse(specs[0])?, EngineSpec::parse(specs[1])?];
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
    let rules = Rules::new(nums[0], nums[1], nums[2], !args.exact, [hand, hand])
        .map_err(|e| e.to_string())?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    Ok(ArenaConfig {
        engines,
        rules,
        games: args.games,
        time: Duration::from_millis(args.time_ms),
        seed: args.seed,
        threads: args.threads.max(1),
        opening_plies: args.opening_plies,
    })
}

/// Runs `kinrow arena`; returns the exit code.
pub fn main(args: ArenaArgs) -> i32 {
    let config = match parse_config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kinrow arena: {e}");
            return 2;
        }
    };
    let verbose = args.verbose;
    let progress = |g: &GameRecord| {
        if verbose {
            let who = |e: usize| config.engines[e].label.as_str();
            let result = match g.winner_engine() {
                Some(e) => format!("{} wins", who(e)),
                None => "draw".to_string(),
            };
            eprintln!(
                "game {:>3}: x {} / o {}: {} after {} moves",
                g.index,
                who(g.x_engine),
                who(1 - g.x_engine),
                result,
                g.opening.len() + g.moves.len()
            );
        }
    };
    let games = run(&config, &progress);
    if let Some(path) = &args.out {
        let written = std::fs::File::create(path).and_then(|mut f| {
            for g in &games {
                writeln!(f, "{}", game_json(&config, g))?;
            }
            Ok(())
        });
        if let Err(e) = written {
            eprintln!("kinrow arena: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    crate::cli::print_line(&report(&config, &summarize(&games)));
    0
}
