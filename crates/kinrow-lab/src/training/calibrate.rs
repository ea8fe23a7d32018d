//! `kinrow calibrate`: fits each engine's value mapping ([`kinrow_engine::value`]) on
//! self-play games and reports how well it is calibrated.
//!
//! For every engine and board, it plays `--games` self-play games from the arena's
//! openings (quick-judged, seeded), records at every position the engine's score of its
//! chosen move (for `mcts`, `2w - 1` of its win rate), the scale it is on (for `auto`,
//! the path) and whether it was proven, and when the game ends, the result for the side
//! that was to move (1, ½, 0). Per scale and board family it fits
//! `σ(a·asinh(raw / s) + b)` to the results of the unproven positions by Newton's method
//! (logistic regression with fractional targets, a tiny ridge for separable data), with
//! `s` the power of ten (in half-decade steps) of the smallest log loss. It prints the
//! Brier score of the expected score (in-sample, and with the fit of the other half of
//! the games: odd games predicted by the fit of the even ones and back), the Brier score
//! of always predicting the mean, a reliability table (predicted against observed per
//! tenth), and the lines to paste into `engine::value::fit`.
//!
//! With a node limit in each engine's spec (`auto:nodes=20000`) the games, and so the
//! fit, replay bit for bit.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::measuring::arena::{self, EngineSpec};
use kinrow_engine::value;
use kinrow_engine::value::{Family, Logistic};
use kinrow_engine::weights::UNIT;
use kinrow_engine::EngineKind;
use kinrow_engine::Scale;
use kinrow_engine::{Limits, Outcome};
use kinrow_game::{Player, Position, Rules};

/// One position of a game: the engine's score and what came of it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// The engine's score unit.
    pub scale: Scale,
    /// The board family the mapping is fitted for.
    pub family: Family,
    /// The score the value maps from (`None`: an `mcts` move never visited).
    pub raw: Option<f64>,
    /// True when the engine proved the outcome (its value is then exact, not fitted).
    pub proven: bool,
    /// The game's result for the side to move: 1 a win, ½ a draw, 0 a loss.
    pub result: f64,
    /// The game it came from (the held-out Brier splits by its parity).
    pub game: usize,
}

/// Plays one self-play game of `kind` on `rules` from `opening` and returns its samples.
pub fn self_play(
    kind: EngineKind,
    rules: &Rules,
    opening: &[kinrow_game::Move],
    limits: &Limits,
    seed: u64,
    game: usize,
) -> Vec<Sample> {
    let engine = kind.build();
    let mut rng = StdRng::seed_from_u64(seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut p = Position::empty(rules);
    for &mv in opening {
        p.play(mv);
    }
    let family = Family::of(rules.m(), rules.n());
    let mut seen: Vec<(Player, Sample)> = Vec::new();
    while !p.is_over() {
        let mut a = engine.analyze(&p, limits, &mut rng);
        value::prove_wins_now(&p, &mut a);
        let scale = Scale::of(kind, &a);
        let raw = if scale == Scale::Mcts {
            a.win_rates
                .iter()
                .find(|(mv, _)| *mv == a.best)
                .map(|&(_, w)| 2.0 * w - 1.0)
        } else {
            Some(a.evaluation.score)
        };
        let sample = Sample {
            scale,
            family,
            raw,
            proven: a.evaluation.outcome != Outcome::Unknown,
            result: 0.0,
            game,
        };
        seen.push((p.to_move(), sample));
        if p.try_play(a.best).is_err() {
            break;
        }
    }
    let winner = p.winner();
    seen.into_iter()
        .map(|(side, mut s)| {
            s.result = match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            s
        })
        .collect()
}

/// Plays `games` self-play games of `kind` on `rules` on `threads` threads.
pub fn collect(
    kind: EngineKind,
    rules: &Rules,
    games: usize,
    limits: &Limits,
    seed: u64,
    threads: usize,
) -> Vec<Sample> {
    let plies = arena::default_opening_plies(rules);
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<(usize, Vec<Sample>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let opening = arena::opening_judged(rules, plies, seed, g, arena::Judge::Quick);
                let samples = self_play(kind, rules, &opening, limits, seed, g);
                out.lock()
                    .expect("no panics while holding")
                    .push((g, samples));
            });
        }
    });
    let mut out = out.into_inner().expect("threads finished");
    out.sort_by_key(|(g, _)| *g);
    out.into_iter().flat_map(|(_, s)| s).collect()
}

/// Points for a fit: (feature input `raw`, result).
type Points = [(f64, f64)];

/// The mean log loss of `f` on `points`.
fn log_loss(f: &Logistic, points: &Points) -> f64 {
    let eps = 1e-12;
    points
        .iter()
        .map(|&(x, y)| {
            let p = f.expected(x).clamp(eps, 1.0 - eps);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / points.len().max(1) as f64
}

/// Fits `a` and `b` for a fixed `s` by Newton's method (with `fixed_a`, only `b`).
fn fit_ab(s: f64, points: &Points) -> Logistic {
    fit_with(s, None, points)
}

fn fit_with(s: f64, fixed_a: Option<f64>, points: &Points) -> Logistic {
    const RIDGE: f64 = 1e-3;
    let mut f = Logistic {
        s,
        a: fixed_a.unwrap_or(0.0),
        b: 0.0,
    };
    for _ in 0..100 {
        let (mut ga, mut gb) = (-RIDGE * f.a, -RIDGE * f.b);
        let (mut haa, mut hab, mut hbb) = (RIDGE, 0.0, RIDGE);
        for &(raw, y) in points {
            let x = f.feature(raw);
            let p = f.expected(raw);
            let w = (p * (1.0 - p)).max(1e-12);
            ga += (y - p) * x;
            gb += y - p;
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let (da, db) = if fixed_a.is_some() {
            (0.0, gb / hbb)
        } else {
            let det = haa * hbb - hab * hab;
            if det.abs() < 1e-300 {
                break;
            }
            ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det)
        };
        f.a += da;
        f.b += db;
        if da.abs() + db.abs() < 1e-10 {
            break;
        }
    }
    f
}

/// The fit of the smallest log loss over `s` = 10^(i/2), i = -2..=30, with `a >= 0`: a
/// value must not fall as the engine's score rises (it ranks the moves too). When the
/// best slope is negative (the score of the chosen move says the position is sharp, not
/// who stands better: `priority`'s 95, "stop a win", is played by the side under attack)
/// the fit is the constant `b` alone.
pub fn fit(points: &Points) -> Logistic {
    let best = (-2..=30)
        .map(|i| fit_ab(10f64.powf(f64::from(i) / 2.0), points))
        .min_by(|x, y| log_loss(x, points).total_cmp(&log_loss(y, points)))
        .expect("a non-empty range");
    if best.a >= 0.0 {
        best
    } else {
        fit_with(1.0, Some(0.0), points)
    }
}

/// Fewer unproven positions than this give no fit of their own (the family takes the
/// next larger family's fit, see `engine::value::fit`).
pub const MIN_FITTED: usize = 100;

/// The Brier score of the expected score ((value + 1) / 2, clamped as served) of `f`.
pub fn brier(f: &Logistic, points: &Points) -> f64 {
    points
        .iter()
        .map(|&(x, y)| {
            let p = (f.value(x) + 1.0) / 2.0;
            (p - y) * (p - y)
        })
        .sum::<f64>()
        / points.len().max(1) as f64
}

/// Rows of the reliability table: per tenth of the predicted expected score, the
/// positions, the mean predicted and the mean observed score.
pub fn reliability(f: &Logistic, points: &Points) -> Vec<(usize, usize, f64, f64)> {
    let mut bins = [(0usize, 0.0f64, 0.0f64); 10];
    for &(x, y) in points {
        let p = (f.value(x) + 1.0) / 2.0;
        let b = ((p * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += p;
        bins[b].2 += y;
    }
    bins.iter()
        .enumerate()
        .filter(|(_, b)| b.0 > 0)
        .map(|(i, b)| (i, b.0, b.1 / b.0 as f64, b.2 / b.0 as f64))
        .collect()
}

/// The report of one group of samples (one scale on one board family).
pub fn report(title: &str, samples: &[Sample]) -> (String, Option<Logistic>) {
    let points: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| !s.proven)
        .filter_map(|s| s.raw.map(|r| (r, s.result)))
        .collect();
    let proven = samples.iter().filter(|s| s.proven).count();
    let mut out = format!(
        "### {title}\n\n{} positions, {} proven (value exact), {} fitted\n\n",
        samples.len(),
        proven,
        points.len()
    );
    if points.len() < MIN_FITTED {
        out.push_str(&format!(
            "fewer than {MIN_FITTED} unproven positions: no fit of its own\n\n"
        ));
        return (out, None);
    }
    let f = fit(&points);
    let half = |parity: usize| -> Vec<(f64, f64)> {
        samples
            .iter()
            .filter(|s| !s.proven && s.game % 2 == parity)
            .filter_map(|s| s.raw.map(|r| (r, s.result)))
            .collect()
    };
    let (even, odd) = (half(0), half(1));
    let held_out = if even.len() >= MIN_FITTED / 2 && odd.len() >= MIN_FITTED / 2 {
        let n = (even.len() + odd.len()) as f64;
        let b = brier(&fit(&even), &odd) * odd.len() as f64
            + brier(&fit(&odd), &even) * even.len() as f64;
        format!("{:.4}", b / n)
    } else {
        "-".into()
    };
    let mean = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
    let constant = points.iter().map(|p| (p.1 - mean).powi(2)).sum::<f64>() / points.len() as f64;
    out.push_str(&format!(
        "fit: s = {:e}, a = {:.4}, b = {:.4}; Brier {:.4} (held out {held_out}; always {:.3}: {:.4})\n\n",
        f.s,
        f.a,
        f.b,
        brier(&f, &points),
        mean,
        constant
    ));
    if samples.iter().all(|s| s.scale == Scale::Learned) {
        // The learned evaluation's score is a logit already: how well it predicts as
        // served, with no fit.
        let served = points
            .iter()
            .map(|&(raw, y)| (1.0 / (1.0 + (-raw / UNIT).exp()) - y).powi(2))
            .sum::<f64>()
            / points.len() as f64;
        out.push_str(&format!(
            "as served (σ(score / {UNIT}), no fit): Brier {served:.4}\n\n"
        ));
    }
    out.push_str(
        "| predicted | positions | mean predicted | observed |\n| --- | ---: | ---: | ---: |\n",
    );
    for (i, n, p, y) in reliability(&f, &points) {
        out.push_str(&format!(
            "| {:.1}-{:.1} | {n} | {p:.3} | {y:.3} |\n",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0
        ));
    }
    out.push('\n');
    (out, Some(f))
}

/// `kinrow calibrate` on the command line.
#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// Engines, comma-separated, each `name[:key=value]*` as in `kinrow arena` (e.g.
    /// `auto:nodes=20000`); default: every engine but perfect, which has no score to map.
    #[arg(long)]
    pub engines: Option<String>,
    /// Boards as `M,N,K` separated by `;`.
    #[arg(long, default_value = "7,7,4;9,9,5;15,15,5")]
    pub boards: String,
    /// Self-play games per engine and board.
    #[arg(long, default_value_t = 16)]
    pub games: usize,
    /// Time per move in milliseconds (an engine's own `time_ms` overrides it; with a
    /// `nodes` limit in its spec the games replay bit for bit).
    #[arg(long, default_value_t = 50)]
    pub time_ms: u64,
    /// Seed of the openings and the engines' RNGs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

fn parse_boards(text: &str) -> Result<Vec<Rules>, String> {
    text.split(';')
        .map(|b| {
            let v: Vec<u64> = b
                .split(',')
                .map(|x| x.trim().parse::<u64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("--boards: {b:?} is not M,N,K"))?;
            match v[..] {
                [m, n, k] => Rules::mnk(m, n, k).map_err(|e| e.to_string()),
                _ => Err(format!("--boards: {b:?} is not M,N,K")),
            }
        })
        .collect()
}

/// Runs `kinrow calibrate`; returns the exit code.
pub fn main(args: CalibrateArgs) -> i32 {
    let engines: Result<Vec<EngineSpec>, String> = match &args.engines {
        None => EngineKind::ALL
            .iter()
            .filter(|&&k| k != EngineKind::Perfect)
            .map(|k| EngineSpec::parse(k.name()))
            .collect(),
        Some(list) => list.split(',').map(EngineSpec::parse).collect(),
    };
    let (engines, boards) = match (engines, parse_boards(&args.boards)) {
        (Ok(e), Ok(b)) => (e, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("kinrow calibrate: {e}");
            return 2;
        }
    };
    let mut groups: BTreeMap<(String, Scale, Family), Vec<Sample>> = BTreeMap::new();
    for spec in &engines {
        let kind = spec.kind;
        let limits = spec.limits(Duration::from_millis(args.time_ms));
        for rules in &boards {
            let samples = collect(kind, rules, args.games, &limits, args.seed, args.threads);
            eprintln!(
                "{} on {}x{}x{}: {} positions",
                kind.name(),
                rules.m(),
                rules.n(),
                rules.k(),
                samples.len()
            );
            for s in samples {
                groups
                    .entry((spec.label.clone(), s.scale, s.family))
                    .or_default()
                    .push(s);
            }
        }
    }
    let mut fitted = Vec::new();
    for ((engine, scale, family), samples) in &groups {
        let title = format!("{engine} ({}), {}", scale.name(), family.name());
        let (text, f) = report(&title, samples);
        crate::output::print_line(&text);
        if let Some(f) = f {
            fitted.push(format!(
                "(Scale::{scale:?}, {family:?}) => l({:.6e}, {:.4}, {:.4}), // {engine}",
                f.s, f.a, f.b
            ));
        }
    }
    crate::output::print_line(&format!("```rust\n{}\n```", fitted.join("\n")));
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_a_known_logistic() {
        // Results drawn as the expected score itself (fractional targets): the fit of
        // the generating curve is exact.
        let truth = Logistic {
            s: 100.0,
            a: 1.5,
            b: -0.2,
        };
        let points: Vec<(f64, f64)> = (-200..=200)
            .map(|i| {
                let raw = f64::from(i) * 37.0;
                (raw, truth.expected(raw))
            })
            .collect();
        let f = fit_ab(100.0, &points);
        assert!(
            (f.a - 1.5).abs() < 0.01 && (f.b + 0.2).abs() < 0.01,
            "{f:?}"
        );
        let best = fit(&points);
        assert_eq!(best.s, 100.0, "{best:?}");
        assert!(brier(&f, &points) < 0.01);
    }
}
