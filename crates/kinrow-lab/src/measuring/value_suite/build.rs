//! `kinrow value-suite build`: the judge labels positions of recorded games into the
//! winning and defence suites ([`super`] says what each holds).
//!
//! Every position before a move of the games (after the opening) is drawn in one
//! seeded order, at most `--per-game` per game and suite. A position where a player can
//! complete a line at once is passed over. The judge searches each position drawn for
//! `--time-ms` in a fresh process (every search below does too, so none inherits
//! another's table):
//! - a forced win for the side to move within `--max-plies` (Rapfi's `+M15` counts 15)
//!   is checked once more after the judge's winning move, where the judge must report a
//!   forced loss for the opponent; the position then joins the winning suite;
//! - a score (no forced result either way) makes a defence candidate: the judge searches
//!   the position after each of the `--candidates` most crowded empty cells
//!   ([`super::candidates`]) and after its own best move, `--threads` at once; the
//!   position joins the defence suite when some lose and some hold ([`super::defence`]).
//!
//! Each position kept is appended to `--out` as it is found, after a first comment
//! line that gives the command; a later run with the same command (and the same games:
//! the order is drawn from them) goes on after the last position kept.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::{candidates, cell_text, defence, forced_win, read_suite, side_text, Suite, SuiteLine};
use crate::books::openings::judge_counted;
use crate::measuring::arena::parallel::in_parallel;
use crate::measuring::judge::can_complete_line;
use crate::output::{whole_lines, Progress};
use crate::record::{read_text, Turn};
use kinrow_engine::{Eval, ExternalSpec};
use kinrow_game::Move;

/// Judge failures (a crash, no answer in time) after which the build gives up; one
/// only skips its position.
const MAX_FAILURES: usize = 10;

/// `kinrow value-suite build` on the command line.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Recorded games (the lab's game record, `kinrow arena --out`); repeat for more files.
    #[arg(long, required = true)]
    pub games: Vec<PathBuf>,
    /// The judge: `pbrain:PATH[:arg=TEXT]*`, a Gomocup engine that prints its
    /// evaluation with forced results as `+M<plies>` / `-M<plies>` (Rapfi).
    #[arg(long)]
    pub judge: String,
    /// The suite file to write (appended to when it was made by the same command).
    #[arg(long)]
    pub out: PathBuf,
    /// Positions per suite.
    #[arg(long, default_value_t = 30)]
    pub count: usize,
    /// The judge's time per search, in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub time_ms: u64,
    /// The longest forced win (plies to the five) the winning suite takes.
    #[arg(long, default_value_t = 20)]
    pub max_plies: u32,
    /// Candidate moves judged per defence position (the most crowded empty cells).
    #[arg(long, default_value_t = 25)]
    pub candidates: usize,
    /// Positions per game and suite at most.
    #[arg(long, default_value_t = 2)]
    pub per_game: usize,
    /// Seed of the order in which positions are drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Judge searches at once (each its own process).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

impl BuildArgs {
    /// The first line of the suite file: the command that makes it (the files by name).
    fn header(&self) -> String {
        let games: Vec<String> = self
            .games
            .iter()
            .map(|g| format!("--games {}", file_name(g)))
            .collect();
        format!(
            "# kinrow value-suite build {} --judge {} --count {} --time-ms {} --max-plies {} --candidates {} --per-game {} --seed {}",
            games.join(" "),
            self.judge,
            self.count,
            self.time_ms,
            self.max_plies,
            self.candidates,
            self.per_game,
            self.seed
        )
    }
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into(),
    )
}

/// One position drawn: its game (`FILE:LINE`) and turn.
struct Drawn {
    game: String,
    turn: Turn,
}

/// Every turn of the games in the seeded order.
fn drawn(args: &BuildArgs) -> Result<Vec<Drawn>, String> {
    let mut all = Vec::new();
    for path in &args.games {
        let text = read_text(path).map_err(|e| format!("--games: {e}"))?;
        let games = crate::record::read_games(&text)
            .map_err(|e| format!("--games {}: {e}", path.display()))?;
        for (line, game) in games {
            let r = &game.rules;
            if r.k() != 5 || r.gravity() || r.has_special_pieces() {
                return Err(format!(
                    "--games {}: line {line}: the judge plays five in a row without gravity or special pieces",
                    path.display()
                ));
            }
            let id = format!("{}:{line}", file_name(path));
            all.extend(game.turns().into_iter().map(|turn| Drawn {
                game: id.clone(),
                turn,
            }));
        }
    }
    all.shuffle(&mut StdRng::seed_from_u64(args.seed));
    Ok(all)
}

/// What the judge made of one position drawn.
enum Found {
    Kept(Box<SuiteLine>),
    Passed(&'static str),
}

/// The judge's evaluation (with a mate's plies) and move for `moves`.
type Said = Option<(Eval, Option<u32>, Move)>;

fn judge(args: &BuildArgs, spec: &ExternalSpec, d: &Drawn, moves: &[Move]) -> Result<Said, String> {
    let rules = d.turn.position.rules();
    judge_counted(spec, &rules, moves, Duration::from_millis(args.time_ms))
}

fn after(moves: &[Move], mv: Move) -> Vec<Move> {
    let mut out = moves.to_vec();
    out.push(mv);
    out
}

/// Labels one position for the suites still wanted.
fn label(
    args: &BuildArgs,
    spec: &ExternalSpec,
    d: &Drawn,
    order: usize,
    want: [bool; 2],
) -> Result<Found, String> {
    let p = &d.turn.position;
    if p.is_over() || can_complete_line(p) {
        return Ok(Found::Passed("a line completes at once"));
    }
    let history = &d.turn.history;
    let Some((root, plies, best)) = judge(args, spec, d, history)? else {
        return Ok(Found::Passed("no evaluation"));
    };
    if !p.is_legal(best) {
        return Err(format!("{}: its move is illegal here", spec.label));
    }
    let rules = p.rules();
    let m = p.m();
    let line = |suite: Suite, mv: Move| SuiteLine {
        suite,
        game: d.game.clone(),
        ply: history.len(),
        order,
        rules: format!("{},{},{}", rules.m(), rules.n(), rules.k()),
        variant: rules.variant().as_str().to_string(),
        exact: !rules.overline(),
        moves: history
            .iter()
            .map(|&mv| cell_text(mv, m))
            .collect::<Vec<_>>()
            .join(" "),
        to_move: side_text(p.to_move()),
        mv: cell_text(mv, m),
        plies: None,
        eval: None,
        losing: Vec::new(),
        holding: Vec::new(),
    };
    match root {
        Eval::Mate { win: true } if want[0] => {
            if !forced_win(root, plies, args.max_plies) {
                return Ok(Found::Passed("a forced win too long"));
            }
            let confirmed = judge(args, spec, d, &after(history, best))?;
            if !matches!(confirmed, Some((Eval::Mate { win: false }, _, _))) {
                return Ok(Found::Passed("the win not confirmed after its move"));
            }
            Ok(Found::Kept(Box::new(SuiteLine {
                plies,
                ..line(Suite::Winning, best)
            })))
        }
        Eval::Score(score) if want[1] => {
            let mut moves = candidates(p, args.candidates);
            if !moves.contains(&best) {
                moves.push(best);
            }
            let said = in_parallel(moves.len(), args.threads, |i| {
                judge(args, spec, d, &after(history, moves[i]))
            });
            let mut judged = Vec::with_capacity(moves.len());
            for (&mv, s) in moves.iter().zip(said) {
                judged.push((mv, s?.map(|(eval, _, _)| eval)));
            }
            let Some(labels) = defence(best, &judged) else {
                return Ok(Found::Passed("no candidate loses, or none holds"));
            };
            let texts =
                |ms: &[Move]| -> Vec<String> { ms.iter().map(|&mv| cell_text(mv, m)).collect() };
            Ok(Found::Kept(Box::new(SuiteLine {
                eval: Some(score),
                losing: texts(&labels.losing),
                holding: texts(&labels.holding),
                ..line(Suite::Defence, labels.hold)
            })))
        }
        _ => Ok(Found::Passed("a forced result not wanted")),
    }
}

/// Runs `kinrow value-suite build`.
pub fn run(args: &BuildArgs) -> Result<(), String> {
    if args.count == 0 || args.candidates == 0 || args.per_game == 0 {
        return Err("--count, --candidates and --per-game must be at least 1".into());
    }
    let spec = ExternalSpec::from_pbrain(&args.judge).map_err(|e| format!("--judge: {e}"))?;
    let all = drawn(args)?;
    let header = args.header();
    let text = whole_lines(&args.out).map_err(|e| format!("--out: {e}"))?;
    let (_, kept) = read_suite(&text).map_err(|e| format!("--out: {e}"))?;
    if !text.is_empty() && text.lines().next() != Some(header.as_str()) {
        return Err(format!(
            "--out: {} was made by another command; its first line is not {header:?}",
            args.out.display()
        ));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("--out: cannot write {}: {e}", args.out.display()))?;
    if text.is_empty() {
        writeln!(file, "{header}").map_err(|e| format!("--out: {e}"))?;
    }
    let mut count: HashMap<Suite, usize> = HashMap::new();
    let mut per_game: HashMap<(Suite, String), usize> = HashMap::new();
    for l in &kept {
        *count.entry(l.suite).or_default() += 1;
        *per_game.entry((l.suite, l.game.clone())).or_default() += 1;
    }
    let start = kept.iter().map(|l| l.order + 1).max().unwrap_or(0);
    let progress = Progress::new(
        "value-suite build",
        "positions kept",
        kept.len(),
        2 * args.count,
    );
    let (mut examined, mut failures) = (0, 0);
    let mut passed: HashMap<&'static str, usize> = HashMap::new();
    for (order, d) in all.iter().enumerate().skip(start) {
        let wanted = |suite: Suite| {
            count.get(&suite).copied().unwrap_or(0) < args.count
                && per_game.get(&(suite, d.game.clone())).copied().unwrap_or(0) < args.per_game
        };
        let want = [wanted(Suite::Winning), wanted(Suite::Defence)];
        if [Suite::Winning, Suite::Defence]
            .iter()
            .all(|s| count.get(s).copied().unwrap_or(0) >= args.count)
        {
            break;
        }
        if want == [false, false] {
            continue;
        }
        examined += 1;
        match label(args, &spec, d, order, want) {
            Ok(Found::Kept(line)) => {
                let text = serde_json::to_string(&line).expect("plain data");
                writeln!(file, "{text}").map_err(|e| format!("--out: {e}"))?;
                *count.entry(line.suite).or_default() += 1;
                *per_game.entry((line.suite, line.game.clone())).or_default() += 1;
                progress.advance(&format!(
                    "{:?} at {} ply {} (order {order}); {} examined this run; winning {}, defence {}",
                    line.suite,
                    line.game,
                    line.ply,
                    examined,
                    count.get(&Suite::Winning).copied().unwrap_or(0),
                    count.get(&Suite::Defence).copied().unwrap_or(0),
                ));
            }
            Ok(Found::Passed(why)) => *passed.entry(why).or_default() += 1,
            Err(e) => {
                failures += 1;
                eprintln!(
                    "value-suite build: {} ply {} skipped: {e}",
                    d.game,
                    d.turn.history.len()
                );
                if failures == MAX_FAILURES {
                    return Err(format!("{MAX_FAILURES} judge failures, giving up"));
                }
            }
        }
    }
    let mut why: Vec<String> = passed.iter().map(|(w, n)| format!("{w}: {n}")).collect();
    why.sort();
    eprintln!(
        "value-suite build: {examined} positions examined this run; passed over: {}",
        why.join(", ")
    );
    for suite in [Suite::Winning, Suite::Defence] {
        let n = count.get(&suite).copied().unwrap_or(0);
        if n < args.count {
            eprintln!(
                "value-suite build: only {n} of {} {suite:?} positions found",
                args.count
            );
        }
    }
    Ok(())
}
