//! `kinrow judge`: the quiet-move judgement, an "average eval loss" as chess reviews use.
//!
//! The positions come from recorded games ([`crate::record`], as `kinrow arena --out`
//! writes them): the position before every move a contestant played after the opening. Only *quiet* ones are judged, as
//! far as kinrow can tell ([`loudness`]): the game is not over, no empty cell completes
//! a line for either player (no four or five on the board), and kinrow's threat-space
//! search proves no forced win (VCF or VCT) for the side to move, nor for its opponent
//! were the side to move to pass (which also drops positions that must answer a three).
//! Per contestant, the quiet positions are drawn in a seeded random order, up to
//! `--positions` of them.
//!
//! An external judge (a Gomocup engine that prints its evaluation in `MESSAGE` lines,
//! e.g. Rapfi) searches each position for its best move; a position where it reports a
//! forced result is dropped too, since the judgement is about play before any forced
//! win exists. The judge then evaluates the position after the contestant's move and
//! after its own best move, each search in a fresh process with the same time, so that
//! neither search inherits the other's table. The *loss* of the move is how much worse
//! the first evaluation is for the mover than the second, never below 0 (0 when the
//! moves agree); evaluations are capped at `±cap` (a forced win counts as the cap). It
//! is also given as a loss of winning probability, `1 / (1 + exp(-eval / scale))`
//! (Rapfi's own mapping with scale 200; a forced win is 1). The report gives, per
//! contestant, the mean loss with its standard error and the number of positions.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::arena::cell_text;
use super::arena::parallel::in_parallel;
use crate::books::openings::{judge_position, judge_spec, MAX_FAILURES};
use crate::output::Progress;
use crate::record::{read_games, Turn};
use kinrow_engine::Budget;
use kinrow_engine::{Eval, ExternalSpec};
use kinrow_engine::{Tss, Verdict};
use kinrow_game::{Cell, Move, Player, Position};

/// Quiet threats on a line that the quiet filter's VCT may chain.
const QUIET_VCT_DEPTH: u32 = 8;

/// `kinrow judge` on the command line.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Recorded games, as `kinrow arena --out` writes them (the lab's game record).
    #[arg(long)]
    pub games: PathBuf,
    /// The judge: `pbrain:PATH[:arg=TEXT]*`, a Gomocup engine that prints its evaluation.
    #[arg(long)]
    pub judge: String,
    /// Judge only the moves of these contestants (labels as in the games, comma
    /// separated); every contestant when omitted.
    #[arg(long)]
    pub engines: Option<String>,
    /// The judge's time per search, in milliseconds (three searches per position).
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Quiet positions to judge per contestant at most.
    #[arg(long, default_value_t = 100)]
    pub positions: usize,
    /// Evaluations beyond this size, and forced wins, count as this much.
    #[arg(long, default_value_t = 1000)]
    pub cap: i64,
    /// The judge's units per logistic unit of winning probability (Rapfi: 200).
    #[arg(long, default_value_t = 200.0)]
    pub scale: f64,
    /// Time of kinrow's threat search per side in the quiet filter, in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub quiet_ms: u64,
    /// Seed of the order in which quiet positions are drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions judged at once (each runs its own judge process).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Write every judged position (with `--turning`, every lost game) as a JSON line
    /// to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Find where each lost game turned instead (docs/strength.md): the first of the
    /// loser's moves after which the judge saw it lost to the end, and whether the judge
    /// saw a forced win right after it.
    #[arg(long)]
    pub turning: bool,
    /// With `--turning`: a value is lost below this winning probability (or at a forced
    /// win for the opponent).
    #[arg(long, default_value_t = 0.1)]
    pub lost_below: f64,
}

/// Whether some empty cell of `p` completes a line for either player (a four or a
/// five to finish on the board).
pub fn can_complete_line(p: &Position) -> bool {
    let completes = |(cell, c): (usize, &Cell)| {
        *c == Cell::Empty && Player::BOTH.iter().any(|&pl| p.wins_at(cell, pl))
    };
    p.cells().iter().enumerate().any(completes)
}

/// Why `p` is not quiet, `None` when it is (see the module text); each threat search
/// gets `budget`, and one that runs out of it counts as no proof.
pub fn loudness(p: &Position, budget: Duration) -> Option<&'static str> {
    if p.is_over() {
        return Some("the game is over");
    }
    if can_complete_line(p) {
        return Some("a player can complete a line");
    }
    let mut tss = Tss::new(p);
    let me = p.to_move();
    for (attacker, why) in [
        (me, "the side to move has a forced win"),
        (me.opponent(), "the opponent threatens a forced win"),
    ] {
        match tss.vct(&mut Budget::with_time(budget), attacker, QUIET_VCT_DEPTH) {
            Verdict::Win(_) => return Some(why),
            Verdict::Unsupported(why) => return Some(why),
            Verdict::NoProof | Verdict::OutOfTime => {}
        }
    }
    None
}

/// The judge's evaluations after the played move and after its own best move, each
/// for the side to move then (the mover's opponent).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Judgement {
    /// After the move played.
    pub after_played: Eval,
    /// After the judge's own best move.
    pub after_best: Eval,
}

impl Judgement {
    /// The mover's value of an evaluation made for its opponent, within `±cap`.
    pub(crate) fn mover_value(after: Eval, cap: i64) -> i64 {
        match after {
            Eval::Score(s) => (-s).clamp(-cap, cap),
            Eval::Mate { win } => {
                if win {
                    -cap
                } else {
                    cap
                }
            }
        }
    }

    /// The mover's winning probability after a move the judge evaluated as `after`.
    pub fn win_probability(after: Eval, scale: f64) -> f64 {
        match after {
            Eval::Score(s) => 1.0 / (1.0 + (s as f64 / scale).exp()),
            Eval::Mate { win } => f64::from(u8::from(!win)),
        }
    }

    /// The loss in the judge's units, evaluations capped at `±cap`.
    pub fn loss(&self, cap: i64) -> i64 {
        (Self::mover_value(self.after_best, cap) - Self::mover_value(self.after_played, cap)).max(0)
    }

    /// The loss of winning probability (0 to 1).
    pub fn win_probability_loss(&self, scale: f64) -> f64 {
        (Self::win_probability(self.after_best, scale)
            - Self::win_probability(self.after_played, scale))
        .max(0.0)
    }
}

/// The mean of `xs` and its standard error (0 with fewer than two values).
pub fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// One position drawn for judgement.
#[derive(Debug)]
struct Drawn {
    label: String,
    line: usize,
    turn: Turn,
}

/// What the judge made of one position.
enum Verdicts {
    Judged {
        best: Move,
        judgement: Judgement,
    },
    /// Dropped: the judge saw a forced result, or printed no evaluation.
    Dropped(&'static str),
}

fn judge_turn(spec: &ExternalSpec, turn: &Turn, time: Duration) -> Result<Verdicts, String> {
    let rules = turn.position.rules();
    let Some((root, best)) = judge_position(spec, &rules, &turn.history, time)? else {
        return Ok(Verdicts::Dropped("no evaluation"));
    };
    if matches!(root, Eval::Mate { .. }) {
        return Ok(Verdicts::Dropped("the judge sees a forced result"));
    }
    if !turn.position.is_legal(best) {
        return Err(format!("{}: its move is illegal here", spec.label));
    }
    let after = |mv: Move| {
        let mut moves = turn.history.clone();
        moves.push(mv);
        judge_position(spec, &rules, &moves, time)
    };
    let after_best = after(best)?;
    let after_played = if best == turn.played {
        after_best
    } else {
        after(turn.played)?
    };
    Ok(match (after_played, after_best) {
        (Some((after_played, _)), Some((after_best, _))) => Verdicts::Judged {
            best,
            judgement: Judgement {
                after_played,
                after_best,
            },
        },
        _ => Verdicts::Dropped("no evaluation"),
    })
}

/// Every turn of the games in `text` per contestant (those of `--engines`), each
/// contestant's in a seeded random order.
fn candidates(args: &JudgeArgs, text: &str) -> Result<Vec<Vec<Drawn>>, String> {
    let wanted: Option<Vec<&str>> = args
        .engines
        .as_deref()
        .map(|e| e.split(',').map(str::trim).collect());
    let mut by_label: BTreeMap<String, Vec<Drawn>> = BTreeMap::new();
    for (line, game) in read_games(text).map_err(|e| format!("--games: {e}"))? {
        for turn in game.turns() {
            let label = game.label(turn.position.to_move()).to_string();
            if wanted.as_ref().is_none_or(|w| w.contains(&label.as_str())) {
                by_label
                    .entry(label.clone())
                    .or_default()
                    .push(Drawn { label, line, turn });
            }
        }
    }
    if let Some(missing) = wanted
        .iter()
        .flatten()
        .find(|w| !by_label.contains_key(**w))
    {
        let found: Vec<&str> = by_label.keys().map(String::as_str).collect();
        return Err(format!(
            "--engines: no contestant {missing:?} in the games (found: {})",
            found.join(", ")
        ));
    }
    let mut rng = StdRng::seed_from_u64(args.seed);
    Ok(by_label
        .into_values()
        .map(|mut all| {
            all.shuffle(&mut rng);
            all
        })
        .collect())
}

/// Judges one contestant's quiet positions, `args.threads` at once, until
/// `args.positions` are judged or none is left.
fn judge_contestant(
    args: &JudgeArgs,
    spec: &ExternalSpec,
    all: Vec<Drawn>,
) -> Result<Vec<(Drawn, Verdicts)>, String> {
    let time = Duration::from_millis(args.time_ms);
    let budget = Duration::from_millis(args.quiet_ms);
    let (total, label) = (all.len(), all.first().map(|d| d.label.clone()));
    let mut queue = all.into_iter();
    let (mut judged, mut failures, mut quiet) = (0, 0, 0);
    // Counted in positions judged: a dropped one (a forced result) adds nothing.
    let progress = Progress::new("judge", "positions", 0, args.positions);
    let mut out = Vec::new();
    while judged < args.positions {
        let room = args.threads.max(1).min(args.positions - judged);
        let mut batch: Vec<Drawn> = Vec::with_capacity(room);
        while batch.len() < room {
            let Some(d) = queue.next() else { break };
            if loudness(&d.turn.position, budget).is_none() {
                batch.push(d);
            }
        }
        quiet += batch.len();
        if batch.is_empty() {
            break;
        }
        let verdicts = in_parallel(batch.len(), args.threads, |i| {
            judge_turn(spec, &batch[i].turn, time)
        });
        for (d, v) in batch.into_iter().zip(verdicts) {
            let v = v.unwrap_or_else(|e| {
                eprintln!(
                    "kinrow judge: line {} ply {} skipped: {e}",
                    d.line,
                    d.turn.history.len()
                );
                failures += 1;
                Verdicts::Dropped("the judge failed")
            });
            if failures == MAX_FAILURES {
                return Err(format!("{MAX_FAILURES} judge failures, giving up"));
            }
            if matches!(v, Verdicts::Judged { .. }) {
                judged += 1;
                progress.advance(&format!("{}: line {}", d.label, d.line));
            }
            out.push((d, v));
        }
    }
    eprintln!(
        "kinrow judge: {}: {judged} judged; {quiet} quiet of {} turns examined (of {total})",
        label.unwrap_or_default(),
        total - queue.len()
    );
    Ok(out)
}

fn position_json(args: &JudgeArgs, d: &Drawn, best: Move, j: &Judgement) -> serde_json::Value {
    let m = d.turn.position.m();
    let eval = |e: Eval| match e {
        Eval::Score(s) => serde_json::json!(s),
        Eval::Mate { win } => serde_json::json!(if win { "+M" } else { "-M" }),
    };
    serde_json::json!({
        "line": d.line,
        "ply": d.turn.history.len(),
        "engine": d.label,
        "played": cell_text(d.turn.played, m),
        "best": cell_text(best, m),
        "after_played": eval(j.after_played),
        "after_best": eval(j.after_best),
        "loss": j.loss(args.cap),
        "win_probability_loss": j.win_probability_loss(args.scale),
    })
}

/// One contestant's line of the report.
fn report_line(args: &JudgeArgs, label: &str, judged: &[(Move, Move, Judgement)]) -> String {
    let losses: Vec<f64> = judged.iter().map(|j| j.2.loss(args.cap) as f64).collect();
    let wins: Vec<f64> = judged
        .iter()
        .map(|j| 100.0 * j.2.win_probability_loss(args.scale))
        .collect();
    let agree = judged.iter().filter(|j| j.0 == j.1).count();
    let (loss, loss_se) = mean_and_error(&losses);
    let (win, win_se) = mean_and_error(&wins);
    format!(
        "{label}: {} positions, mean eval loss {loss:.1} ± {loss_se:.1}, mean win-probability loss {win:.2}% ± {win_se:.2}%, the judge's own move in {agree}",
        judged.len()
    )
}

/// Runs `kinrow judge` without `--turning` (see [`super::judge_main`]); returns the exit
/// code.
pub fn main(args: JudgeArgs) -> i32 {
    match run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow judge: {e}");
            1
        }
    }
}

fn run(args: &JudgeArgs) -> Result<(), String> {
    if args.cap <= 0 || args.scale.is_nan() || args.scale <= 0.0 {
        return Err("--cap and --scale must be positive".into());
    }
    let spec = judge_spec(&args.judge)?;
    let text = std::fs::read_to_string(&args.games)
        .map_err(|e| format!("--games: cannot read {}: {e}", args.games.display()))?;
    let mut results = Vec::new();
    for all in candidates(args, &text)? {
        results.extend(judge_contestant(args, &spec, all)?);
    }
    let mut out = crate::output::out_file(args.out.as_deref())?;
    let mut judged: BTreeMap<&str, Vec<(Move, Move, Judgement)>> = BTreeMap::new();
    let mut dropped: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (d, v) in &results {
        match v {
            Verdicts::Judged { best, judgement } => {
                if let Some(f) = out.as_mut() {
                    writeln!(f, "{}", position_json(args, d, *best, judgement))
                        .map_err(|e| format!("--out: {e}"))?;
                }
                let entry = judged.entry(d.label.as_str()).or_default();
                entry.push((d.turn.played, *best, *judgement));
            }
            Verdicts::Dropped(why) => *dropped.entry(why).or_default() += 1,
        }
    }
    crate::output::print_line(&format!(
        "# quiet positions judged by {} at {} ms per search; loss capped at {}, win probability 1/(1+exp(-eval/{}))",
        spec.label, args.time_ms, args.cap, args.scale
    ));
    for (label, list) in &judged {
        crate::output::print_line(&report_line(args, label, list));
    }
    for (why, n) in dropped {
        crate::output::print_line(&format!("dropped: {n} ({why})"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kinrow_game::Rules;

    /// The position after `marks` (row, col), x first, on 15x15 freestyle.
    fn after(marks: &[(usize, usize)]) -> Position {
        let mut p = Position::empty(&Rules::mnk(15, 15, 5).unwrap());
        for &(r, c) in marks {
            p.play(Move::mark(r * 15 + c));
        }
        p
    }

    const BUDGET: Duration = Duration::from_millis(500);

    #[test]
    fn quiet_positions_have_no_line_to_complete_and_no_proven_win() {
        assert_eq!(loudness(&after(&[(7, 7), (8, 8), (8, 6)]), BUDGET), None);
        // x's four on row 7 (o to move): x completes at (7, 7).
        let four = after(&[(7, 3), (0, 0), (7, 4), (0, 14), (7, 5), (14, 0), (7, 6)]);
        assert_eq!(
            loudness(&four, BUDGET),
            Some("a player can complete a line")
        );
        // x's open three, x to move: an open four next, then five.
        let three = [(7, 5), (0, 0), (7, 6), (0, 14), (7, 7), (14, 0)];
        assert_eq!(
            loudness(&after(&three), BUDGET),
            Some("the side to move has a forced win")
        );
        // The same three with o to move: o must answer it.
        assert_eq!(
            loudness(&after(&three[..5]), BUDGET),
            Some("the opponent threatens a forced win")
        );
        let five = [(7, 3), (0, 0), (7, 4), (0, 14), (7, 5), (14, 0), (7, 6)];
        let mut over = after(&five);
        over.play(Move::mark(14 * 15 + 14));
        over.play(Move::mark(7 * 15 + 7));
        assert_eq!(loudness(&over, BUDGET), Some("the game is over"));
    }

    #[test]
    fn the_loss_compares_the_mover_values_after_both_moves() {
        // After the played move the opponent stands at +100, after the best at -20.
        let j = Judgement {
            after_played: Eval::Score(100),
            after_best: Eval::Score(-20),
        };
        assert_eq!(j.loss(1000), 120);
        assert_eq!(j.loss(50), 70);
        let p = |v: f64| 1.0 / (1.0 + (-v / 200.0).exp());
        assert!((j.win_probability_loss(200.0) - (p(20.0) - p(-100.0))).abs() < 1e-12);
        // A move the judge likes better than its own loses nothing.
        let better = Judgement {
            after_played: Eval::Score(-30),
            after_best: Eval::Score(-20),
        };
        assert_eq!(better.loss(1000), 0);
        assert_eq!(better.win_probability_loss(200.0), 0.0);
        // A move into a forced loss costs up to the cap, and all the winning chances.
        let blunder = Judgement {
            after_played: Eval::Mate { win: true },
            after_best: Eval::Score(0),
        };
        assert_eq!(blunder.loss(1000), 1000);
        assert!((blunder.win_probability_loss(200.0) - 0.5).abs() < 1e-12);
        let same = Judgement {
            after_played: Eval::Score(7),
            after_best: Eval::Score(7),
        };
        assert_eq!(
            (same.loss(1000), same.win_probability_loss(200.0)),
            (0, 0.0)
        );
    }

    #[test]
    fn the_mean_comes_with_its_standard_error() {
        let (mean, se) = mean_and_error(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(mean, 2.5);
        assert!((se - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        assert_eq!(mean_and_error(&[3.0]), (3.0, 0.0));
        assert_eq!(mean_and_error(&[]), (0.0, 0.0));
    }

    fn args(engines: Option<&str>, positions: usize) -> JudgeArgs {
        JudgeArgs {
            games: PathBuf::new(),
            judge: "pbrain:/none".into(),
            engines: engines.map(str::to_string),
            time_ms: 10,
            positions,
            cap: 1000,
            scale: 200.0,
            quiet_ms: 500,
            seed: 3,
            threads: 1,
            out: None,
            turning: false,
            lost_below: 0.1,
        }
    }

    fn mark(r: usize, c: usize) -> String {
        format!(r#"{{"row":{r},"col":{c},"piece":"mark"}}"#)
    }

    #[test]
    fn turns_are_drawn_per_contestant_and_filtered_to_quiet_ones() {
        // x ("a") builds an open three on row 7 while o ("b") plays far away.
        let moves = [(2, 2), (12, 12), (2, 12), (7, 9), (12, 2), (7, 10)];
        let list = |ms: &[(usize, usize)]| {
            let v: Vec<String> = ms.iter().map(|&(r, c)| mark(r, c)).collect();
            v.join(",")
        };
        let line = format!(
            r#"{{"rules":{{"m":15,"n":15,"k":5,"overline":true}},"x":"a","o":"b","opening":[{}],"moves":[{}]}}"#,
            list(&[(7, 7), (8, 8), (7, 8)]),
            list(&moves)
        );
        let per_label = candidates(&args(None, 10), &line).unwrap();
        assert_eq!(per_label.len(), 2);
        let all: Vec<Drawn> = per_label
            .into_iter()
            .flatten()
            .filter(|d| loudness(&d.turn.position, BUDGET).is_none())
            .collect();
        let count = |label: &str| all.iter().filter(|d| d.label == label).count();
        // Each side's first two turns are quiet; then b must answer a's open three on
        // row 7, and a holds a forced win.
        assert_eq!((count("a"), count("b")), (2, 2));
        let only_b = candidates(&args(Some("b"), 1), &line).unwrap();
        assert_eq!(only_b.len(), 1);
        assert!(only_b[0].iter().all(|d| d.label == "b"));
        assert_eq!(only_b[0].len(), 3);
        let unknown = candidates(&args(Some("b,c"), 1), &line).unwrap_err();
        assert!(unknown.contains("no contestant \"c\""), "{unknown}");
    }
}
