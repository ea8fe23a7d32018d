//! `kinrow tune`: fits the learned evaluation's weights ([`LearnedWeights`]) to self-play games.
//!
//! Every position of a game after its opening is a sample, except where the search had
//! proven the outcome or where either side can complete a line at once (the search
//! never evaluates those). A sample's features are how many of the empty cells carry
//! each cell code for the side to move and for the opponent (the codes the board keeps,
//! [`CellEval`]); its target is the game's result for the side to move (1, ½, 0), mixed
//! with the recorded search value when `--mix` is below 1. The model is logistic:
//! `σ(Σ own[code] + Σ opp[code])`, fitted by Adam on the cross-entropy with a small L2
//! pull towards 0. Every `--holdout`-th game is kept out of the fit; the held-out
//! log-loss is reported for the fit, for the window count it replaces (with its own
//! logistic fitted on the same training samples) and for a constant.

use std::path::PathBuf;
use std::time::Instant;

use crate::output::{duration, Progress};
use crate::record::{read_games, read_text, RecordedGame};
use kinrow_engine::value;
use kinrow_engine::value::Family;
use kinrow_engine::weights::{threat_mask, LearnedWeights, MASKS, MASK_THREATS, UNIT};
use kinrow_engine::window_value;
use kinrow_engine::PatternBoard;
use kinrow_engine::CLASSES;
use kinrow_engine::{classes_of, Threat, CODES};
use kinrow_engine::{Outcome, Scale};
use kinrow_game::codes::{stone, EMPTY};
use kinrow_game::Position;

/// `kinrow tune`'s flags.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Game files written by `kinrow selfplay` (one or more; any game record with
    /// `values` will do).
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Where the weights go.
    #[arg(
        long,
        default_value = "crates/kinrow-engine/src/eval/weights/gomoku.txt"
    )]
    pub out: PathBuf,
    /// The weights' name line (say what data and command made them).
    #[arg(long, default_value = "gomoku, fitted by kinrow tune")]
    pub name: String,
    /// Every N-th game is held out of the fit and measured on.
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Passes of Adam over the training samples (full batch).
    #[arg(long, default_value_t = 600)]
    pub epochs: usize,
    /// Adam's step size, in logits.
    #[arg(long, default_value_t = 0.01)]
    pub lr: f64,
    /// The L2 pull on every weight (per sample).
    #[arg(long, default_value_t = 1e-2)]
    pub l2: f64,
    /// The share of the game's result in the target; the rest is the search's value.
    #[arg(long, default_value_t = 0.5)]
    pub mix: f64,
}

/// The model's inputs: the side to move's codes, the opponent's codes, then each
/// side's line classes (a code's weight is its own plus those of its four classes, so a
/// rare code still gets what its lines say).
const FEATURES: usize = MASK_BITS + 2 * MASK_THREATS;
/// Where the threat masks' features begin: one per mask, then one per bit of a mask (a
/// mask's weight is its own plus its bits', so a rare mask gets what its threats say).
const MASK_AT: usize = 2 * CODES + 2 * CLASSES;
const MASK_BITS: usize = MASK_AT + MASKS;

/// One position: its features, its target and the window count's score of it.
struct Sample {
    /// `(feature, count)`: feature `code` is the side to move's, `CODES + code` the
    /// opponent's.
    features: Vec<(u16, u16)>,
    /// The game's result for the side to move (1, ½, 0), where the position is on the
    /// game's path (not for a sibling): what held-out losses on results measure.
    result: Option<f64>,
    /// What the fit aims at: the result mixed with the search's value (a sibling's
    /// value alone).
    target: f64,
    window: f64,
}

/// The features of `board` for `me` to move: every empty cell's code for each side and
/// the codes' line classes, counted.
fn features(board: &PatternBoard, me: usize) -> Option<Vec<(u16, u16)>> {
    let cells = board.cell_eval()?;
    let mut counts = vec![0u16; FEATURES];
    let mask = threat_mask(|s, t| cells.threats(me ^ s, t) > 0);
    counts[MASK_AT + mask] = 1;
    for bit in 0..2 * MASK_THREATS {
        if mask >> bit & 1 == 1 {
            counts[MASK_BITS + bit] = 1;
        }
    }
    for c in 0..board.cells().len() {
        if let (Some(a), Some(b)) = (cells.code(c, me), cells.code(c, me ^ 1)) {
            counts[a as usize] += 1;
            counts[CODES + b as usize] += 1;
            for (side, code) in [(0, a), (1, b)] {
                for class in classes_of(code) {
                    counts[2 * CODES + side * CLASSES + class as usize] += 1;
                }
            }
        }
    }
    Some(
        counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(f, &n)| (f as u16, n))
            .collect(),
    )
}

/// True where the search never takes the static value: either side can make five.
fn forcing(board: &PatternBoard) -> bool {
    board
        .cell_eval()
        .is_some_and(|cells| [0, 1].iter().any(|&s| cells.threats(s, Threat::Five) > 0))
}

/// A value in thousandths as a probability.
fn probability(value: i16) -> f64 {
    (value as f64 / 1000.0 + 1.0) / 2.0
}

/// One position to learn from: the board with `me` to move, the game's result for
/// `me` where the position is on the game's path (not for a sibling), and what the fit
/// aims at.
pub(crate) struct Learnable<'a> {
    pub board: &'a PatternBoard,
    pub me: usize,
    pub result: Option<f64>,
    pub target: f64,
}

/// Every position of a game a fit learns from: after the opening, on the game's path
/// and after each sibling, except where either side can complete a line at once (the
/// search never asks the evaluation there) and, unless `proven` says to keep them,
/// where the search had proven the outcome. A path position's target is the game's
/// result mixed with the recorded value (`mix` of the result), a sibling's its value; a
/// proven position's is its outcome (1, ½, 0).
pub(crate) fn learnable_positions(
    g: &RecordedGame,
    mix: f64,
    proven: bool,
    mut visit: impl FnMut(Learnable) -> Result<(), String>,
) -> Result<(), String> {
    let outcome_target = |o: Outcome| match o {
        Outcome::Win => Some(1.0),
        Outcome::Loss => Some(0.0),
        Outcome::Draw => Some(0.5),
        Outcome::Unknown => None,
    };
    let mut p = Position::empty(&g.rules);
    for &mv in &g.opening {
        p.play(mv);
    }
    let winner = g.result.winner();
    let mut board = PatternBoard::new(&p).with_cells(None);
    let mut siblings = g.siblings.iter().peekable();
    for (j, &mv) in g.moves.iter().enumerate() {
        if p.is_over() {
            break;
        }
        let me = p.to_move().index();
        let outcome = g.outcomes.get(j).copied().unwrap_or(Outcome::Unknown);
        if (proven || outcome == Outcome::Unknown) && !forcing(&board) {
            let result = match winner {
                None => 0.5,
                Some(w) => (w.index() == me) as u8 as f64,
            };
            let value = g.values.get(j).map_or(0.5, |&v| probability(v));
            visit(Learnable {
                board: &board,
                me,
                result: Some(result),
                target: outcome_target(outcome).unwrap_or(mix * result + (1.0 - mix) * value),
            })?;
        }
        while let Some(sib) = siblings.next_if(|s| s.at <= j) {
            if sib.at < j || (!proven && sib.outcome != Outcome::Unknown) {
                continue;
            }
            let cell = sib.mv.cell();
            if board.cells().get(cell) != Some(&EMPTY) {
                return Err(format!(
                    "sibling {} of move {j} is not on an empty cell",
                    cell
                ));
            }
            board.put(cell, stone(me));
            if !forcing(&board) {
                visit(Learnable {
                    board: &board,
                    me: me ^ 1,
                    result: None,
                    target: outcome_target(sib.outcome).unwrap_or(probability(sib.value)),
                })?;
            }
            board.take(cell);
        }
        board.put(mv.cell(), stone(me));
        p.play(mv);
    }
    Ok(())
}

/// The samples of one game ([`learnable_positions`]).
fn samples(g: &RecordedGame, mix: f64) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    learnable_positions(g, mix, false, |l| {
        out.push(Sample {
            features: features(l.board, l.me).ok_or("no cell codes for these rules")?,
            result: l.result,
            target: l.target,
            window: window_value(l.board.score(), l.me) as f64,
        });
        Ok(())
    })?;
    Ok(out)
}

pub(crate) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Cross-entropy of predicting `p` for `target`.
pub(crate) fn log_loss(p: f64, target: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

fn predict(w: &[f64], s: &Sample) -> f64 {
    s.features
        .iter()
        .map(|&(f, n)| w[f as usize] * n as f64)
        .sum()
}

/// Fits the weights by full-batch Adam; returns them in logits. The codes' own
/// weights are pulled to 0 ten times harder than the classes': a code seen rarely keeps
/// about what its classes are worth.
fn fit(train: &[Sample], args: &TuneArgs) -> Vec<f64> {
    let dim = FEATURES;
    let mut w = vec![0.0; dim];
    let (mut m, mut v) = (vec![0.0; dim], vec![0.0; dim]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let progress = Progress::new("tune", "epochs", 0, args.epochs);
    let every = (args.epochs / 20).max(1);
    for epoch in 1..=args.epochs {
        let mut grad = vec![0.0; dim];
        let mut loss = 0.0;
        for s in train {
            let p = sigmoid(predict(&w, s));
            loss += log_loss(p, s.target);
            let d = p - s.target;
            for &(f, n) in &s.features {
                grad[f as usize] += d * n as f64;
            }
        }
        let scale = 1.0 / train.len().max(1) as f64;
        for i in 0..dim {
            let l2 = if i < 2 * CODES || (MASK_AT..MASK_BITS).contains(&i) {
                10.0 * args.l2
            } else {
                args.l2
            };
            let g = grad[i] * scale + l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= args.lr * mh / (vh.sqrt() + eps);
        }
        if epoch % every == 0 || epoch == args.epochs {
            progress.advance(&format!("training log-loss {:.4}", loss * scale));
        } else {
            progress.skip();
        }
    }
    w
}

/// The window count's logistic `σ(a·asinh(raw / s) + b)`, fitted on `train` by Newton's
/// method for a grid of scales `s`; returns the best `(s, a, b)`.
fn fit_window(train: &[Sample]) -> (f64, f64, f64) {
    let mut best = (f64::INFINITY, (1.0, 0.0, 0.0));
    for s in [1e2, 3.16e2, 1e3, 3.16e3, 1e4, 3.16e4] {
        let (mut a, mut b) = (0.0, 0.0);
        for _ in 0..30 {
            let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 1e-9, 0.0, 1e-9);
            for t in train {
                let x = (t.window / s).asinh();
                let p = sigmoid(a * x + b);
                let d = p - t.target;
                let h = p * (1.0 - p);
                ga += d * x;
                gb += d;
                haa += h * x * x;
                hab += h * x;
                hbb += h;
            }
            let det = haa * hbb - hab * hab;
            if det.abs() < 1e-12 {
                break;
            }
            a -= (hbb * ga - hab * gb) / det;
            b -= (haa * gb - hab * ga) / det;
        }
        let loss: f64 = train
            .iter()
            .map(|t| log_loss(sigmoid(a * (t.window / s).asinh() + b), t.target))
            .sum::<f64>()
            / train.len().max(1) as f64;
        if loss < best.0 {
            best = (loss, (s, a, b));
        }
    }
    best.1
}

/// The mean log-loss of `p` on the game results of `set`'s positions on a game's path.
fn mean_loss(set: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    let (sum, n) = set
        .iter()
        .filter_map(|s| Some(log_loss(p(s), s.result?)))
        .fold((0.0, 0usize), |(a, n), l| (a + l, n + 1));
    sum / n.max(1) as f64
}

/// The mean log-loss of `p` on the targets of all of `set`.
fn target_loss(set: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    set.iter().map(|s| log_loss(p(s), s.target)).sum::<f64>() / set.len().max(1) as f64
}

/// The log-loss on the results of the games in `text` (one [`RecordedGame`] a line) of
/// `weights` and of the window count under the value mapping `auto` used with it
/// ([`value::fit`]): `(learned, window, samples)`. What the held-out test measures.
pub fn held_out_losses(text: &str, weights: &LearnedWeights) -> Result<(f64, f64, usize), String> {
    let window_fit = value::fit(Scale::Pattern, Family::Large).ok_or("no window fit")?;
    let mut set = Vec::new();
    for (line, g) in read_games(text)? {
        set.extend(samples(&g, 1.0).map_err(|e| format!("line {line}: {e}"))?);
    }
    let learned = mean_loss(&set, |t| {
        let score: f64 = t
            .features
            .iter()
            .filter_map(|&(f, n)| {
                let f = f as usize;
                let w = match f {
                    f if f < CODES => weights.own[f],
                    f if f < 2 * CODES => weights.opp[f - CODES],
                    f if (MASK_AT..MASK_BITS).contains(&f) => weights.masks[f - MASK_AT],
                    _ => return None,
                };
                Some(w as f64 * n as f64)
            })
            .sum();
        sigmoid(score / UNIT)
    });
    let window = mean_loss(&set, |t| window_fit.expected(t.window));
    Ok((learned, window, set.len()))
}

/// `kinrow tune`: returns the exit code.
pub fn main(args: TuneArgs) -> i32 {
    match tune(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow tune: {e}");
            1
        }
    }
}

/// The samples `of` every game of the record files `paths` (`.gz` read as such), those
/// of every `holdout`-th game (by its index in its file) kept apart: `(to fit, held
/// out, games read)`. Errors name the file and line; too few samples on either side is one too.
/// `what` names the command on its progress line.
pub(crate) fn split_samples<T>(
    what: &str,
    paths: &[PathBuf],
    holdout: usize,
    mut of: impl FnMut(&RecordedGame) -> Result<Vec<T>, String>,
) -> Result<(Vec<T>, Vec<T>, usize), String> {
    let start = Instant::now();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in paths {
        let text = read_text(path)?;
        for (line, g) in read_games(&text).map_err(|e| format!("{}: {e}", path.display()))? {
            let s = of(&g).map_err(|e| format!("{}: line {line}: {e}", path.display()))?;
            if g.game % holdout.max(2) == 0 {
                held.extend(s);
            } else {
                train.extend(s);
            }
            games += 1;
        }
    }
    if train.is_empty() || held.is_empty() {
        return Err(format!(
            "too few samples: {} to fit, {} held out",
            train.len(),
            held.len()
        ));
    }
    eprintln!(
        "{what}: {games} games, {} samples to fit and {} held out ({} to read)",
        train.len(),
        held.len(),
        duration(start.elapsed().as_secs_f64())
    );
    Ok((train, held, games))
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    let start = Instant::now();
    let (train, held, games) =
        split_samples("tune", &args.games, args.holdout, |g| samples(g, args.mix))?;
    let w = fit(&train, args);
    let (s, a, b) = fit_window(&train);
    let mean = train.iter().map(|t| t.target).sum::<f64>() / train.len() as f64;
    let learned_p = |t: &Sample| sigmoid(predict(&w, t));
    let window_p = |t: &Sample| sigmoid(a * (t.window / s).asinh() + b);
    let learned = mean_loss(&held, learned_p);
    let window = mean_loss(&held, window_p);
    let constant = mean_loss(&held, |_| mean);
    let targets = [
        target_loss(&held, learned_p),
        target_loss(&held, window_p),
        target_loss(&held, |_| mean),
    ];
    // Each code's weight with its classes' folded in.
    let folded = |side: usize, code: usize| {
        let classes: f64 = classes_of(code as u16)
            .iter()
            .map(|&c| w[2 * CODES + side * CLASSES + c as usize])
            .sum();
        ((w[side * CODES + code] + classes) * UNIT).round() as i32
    };
    // Each mask's weight with its bits' folded in.
    let mask = |m: usize| {
        let bits: f64 = (0..2 * MASK_THREATS)
            .filter(|b| m >> b & 1 == 1)
            .map(|b| w[MASK_BITS + b])
            .sum();
        ((w[MASK_AT + m] + bits) * UNIT).round() as i32
    };
    let weights = LearnedWeights {
        name: args.name.clone(),
        own: (0..CODES).map(|c| folded(0, c)).collect(),
        opp: (0..CODES).map(|c| folded(1, c)).collect(),
        masks: (0..MASKS).map(mask).collect(),
    };
    std::fs::write(&args.out, weights.to_text())
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "tune: held-out log-loss on results {learned:.4} learned, {window:.4} window count, {constant:.4} constant; on targets {:.4}, {:.4}, {:.4}; weights in {}",
        targets[0],
        targets[1],
        targets[2],
        args.out.display()
    );
    let summary = serde_json::json!({
        "games": games,
        "train_samples": train.len(),
        "held_out_samples": held.len(),
        "held_out_log_loss": { "learned": learned, "window_count": window, "constant": constant },
        "held_out_target_loss": { "learned": targets[0], "window_count": targets[1], "constant": targets[2] },
        "window_fit": { "s": s, "a": a, "b": b },
        "unit_per_logit": UNIT,
        "out": args.out.display().to_string(),
        "seconds": start.elapsed().as_secs_f64(),
    });
    crate::output::print_line(&summary.to_string());
    Ok(())
}
