//! `kinrow steadiness`: do the values hold still? An engine plays itself from the
//! balanced openings of a file at a fixed time a move, and every turn's value (on the
//! API's scale, for the side to move) is recorded twice: as answered (the mean of the
//! search's last two depths, see `engine::root`) and as the last depth alone would
//! have read (the evaluation less `stats.parity_shift`). The moves are the same either
//! way, so the two series are compared over exactly the same games.
//!
//! A **reversal** ([`reversals`]): a side's value at least [`FIRM`] one way and, on that
//! side's next turn, at least [`OTHER_WAY`] the other way. One that follows a
//! **blunder** by the opponent in between is counted apart: the opponent's move lost at
//! least [`BLUNDER`] by its own value at its next turn (a loss of the game counts as
//! -1), or it changed a proven outcome (it proved a win, and on its next turn no longer
//! did; or it moved from a position not proven lost into one its opponent then proved
//! won). The summary also gives the mean change of a side's value from one of its turns
//! to the next, where neither is proven ([`Swings`]): reversals are rare, the swings
//! under them are not.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::measuring::arena::{read_openings, EngineSpec};
use crate::output::Progress;
use crate::record::{rules_from_text, GameResult, RecordedGame};
use kinrow_engine::value;
use kinrow_engine::{Analysis, Outcome};
use kinrow_game::{Position, Rules};

/// A value at least this far one way is firm.
pub const FIRM: f64 = 0.9;
/// On the side's next turn, at least this far the other way reverses it.
pub const OTHER_WAY: f64 = 0.3;
/// The opponent's move blundered when its own value fell by at least this much.
pub const BLUNDER: f64 = 0.5;

/// `kinrow steadiness`'s flags.
#[derive(clap::Args, Debug)]
pub struct SteadinessArgs {
    /// The engine and its parameters, as for `kinrow arena`; it plays both sides.
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Games, the i-th from the file's opening i (cycling).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Time a move, in milliseconds (a `time_ms` in `--engine` wins).
    #[arg(long, default_value_t = 200)]
    pub time_ms: u64,
    /// The openings, as for `kinrow arena --openings`.
    #[arg(long, default_value = "openings/15x15-freestyle.txt")]
    pub openings: PathBuf,
    /// The rules as `M,N,K` (freestyle).
    #[arg(long, default_value = "15,15,5", value_name = "M,N,K")]
    pub rules: String,
    /// Games also go to this file, one line of the game record each (with `values`,
    /// `last_depth` and `outcomes`); a run started again with the same command reads
    /// the games there and plays only the missing ones.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The seed of the engines' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One turn of a game, for the side to move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Turn {
    /// The value of the position for the side to move.
    pub value: f64,
    /// What the search proved.
    pub outcome: Outcome,
}

/// The reversals of one series of values.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reversals {
    /// Every reversal.
    pub all: usize,
    /// Those after an opponent's blunder.
    pub after_blunder: usize,
}

impl Reversals {
    /// The reversals no blunder explains.
    pub fn counted(&self) -> usize {
        self.all - self.after_blunder
    }

    fn add(&mut self, other: Reversals) {
        self.all += other.all;
        self.after_blunder += other.after_blunder;
    }
}

/// The reversals in `turns` (one a ply, each for the side to move then; the last may
/// be the game's end: the side to move lost (-1, proven) or drew (0, proven)).
pub fn reversals(turns: &[Turn]) -> Reversals {
    let mut r = Reversals::default();
    for i in 0..turns.len().saturating_sub(2) {
        let (now, next) = (turns[i].value, turns[i + 2].value);
        let reversed = (now >= FIRM && next <= -OTHER_WAY) || (now <= -FIRM && next >= OTHER_WAY);
        if !reversed {
            continue;
        }
        r.all += 1;
        // The opponent moved at i + 1; its next turn is i + 3.
        let theirs = turns[i + 1];
        let fell = turns
            .get(i + 3)
            .is_some_and(|later| theirs.value - later.value >= BLUNDER);
        let threw_win = theirs.outcome == Outcome::Win
            && turns.get(i + 3).is_some_and(|t| t.outcome != Outcome::Win);
        let into_loss = theirs.outcome != Outcome::Loss && turns[i + 2].outcome == Outcome::Win;
        if fell || threw_win || into_loss {
            r.after_blunder += 1;
        }
    }
    r
}

/// How much a side's unproven value moves from one of its turns to the next.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Swings {
    /// Pairs of a side's consecutive turns, both unproven.
    pub pairs: usize,
    /// The sum of the changes' sizes.
    pub total: f64,
    /// Pairs whose value moved by at least [`BLUNDER`].
    pub large: usize,
}

impl Swings {
    fn add(&mut self, other: Swings) {
        self.pairs += other.pairs;
        self.total += other.total;
        self.large += other.large;
    }

    fn mean(&self) -> f64 {
        self.total / self.pairs.max(1) as f64
    }
}

/// The swings in `turns` (as for [`reversals`]).
pub fn swings(turns: &[Turn]) -> Swings {
    let mut s = Swings::default();
    for (now, next) in turns.iter().zip(turns.iter().skip(2)) {
        if now.outcome == Outcome::Unknown && next.outcome == Outcome::Unknown {
            let d = (next.value - now.value).abs();
            s.pairs += 1;
            s.total += d;
            s.large += usize::from(d >= BLUNDER);
        }
    }
    s
}

/// The turns of one series of `g` (`values` as answered, or `last_depth`), with the end
/// of the game.
fn turns(g: &RecordedGame, answered: bool) -> Vec<Turn> {
    let values = if answered { &g.values } else { &g.last_depth };
    let mut turns: Vec<Turn> = values
        .iter()
        .zip(&g.outcomes)
        .map(|(&v, &outcome)| Turn {
            value: v as f64 / 1000.0,
            outcome,
        })
        .collect();
    let (value, outcome) = match g.result {
        GameResult::Draw => (0.0, Outcome::Draw),
        GameResult::Won(_) => (-1.0, Outcome::Loss),
    };
    turns.push(Turn { value, outcome });
    turns
}

/// `analysis` as the last completed depth alone would have answered: the parity shift
/// taken back from every unproven score.
fn last_depth(analysis: &Analysis) -> Analysis {
    let mut a = analysis.clone();
    let shift = a.stats.parity_shift;
    for e in a.moves.iter_mut() {
        if e.eval.outcome == Outcome::Unknown {
            e.eval.score -= shift;
        }
    }
    if a.evaluation.outcome == Outcome::Unknown {
        a.evaluation.score -= shift;
    }
    a
}

fn play(
    spec: &EngineSpec,
    rules: &Rules,
    opening: &[kinrow_game::Move],
    args: &SteadinessArgs,
    index: usize,
) -> RecordedGame {
    let engine = spec.build();
    let mut contexts = [spec.context(), spec.context()];
    let mut rng =
        StdRng::seed_from_u64(args.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut p = Position::empty(rules);
    for &mv in opening {
        p.play(mv);
    }
    let (mut moves, mut values, mut raw, mut outcomes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let milli = |v: f64| (v * 1000.0).round() as i16;
    while !p.is_over() {
        let limits = spec.limits(Duration::from_millis(args.time_ms));
        let side = p.to_move().index();
        let mut analysis = engine.analyze_with(&p, &limits, &mut contexts[side], &mut rng);
        let mut before = last_depth(&analysis);
        raw.push(milli(value::values(spec.kind, &p, &mut before).evaluation));
        values.push(milli(
            value::values(spec.kind, &p, &mut analysis).evaluation,
        ));
        outcomes.push(analysis.evaluation.outcome);
        p.play(analysis.best);
        moves.push(analysis.best);
    }
    RecordedGame {
        x: spec.label.clone(),
        o: spec.label.clone(),
        opening: opening.to_vec(),
        moves,
        values,
        outcomes,
        last_depth: raw,
        ..RecordedGame::new(index, rules.clone(), GameResult::of(p.winner()))
    }
}

/// The games already in `out`, by index (unreadable lines are skipped).
fn games_done(out: Option<&PathBuf>) -> Vec<RecordedGame> {
    let Some(text) = out.and_then(|p| std::fs::read_to_string(p).ok()) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| crate::record::read_game(l).ok())
        .collect()
}

fn setup(
    args: &SteadinessArgs,
) -> Result<(EngineSpec, Rules, Vec<Vec<kinrow_game::Move>>), String> {
    let spec = EngineSpec::parse(&args.engine)?;
    let rules = rules_from_text(&args.rules, "free", false).map_err(|e| format!("--rules: {e}"))?;
    let text = std::fs::read_to_string(&args.openings)
        .map_err(|e| format!("--openings {}: {e}", args.openings.display()))?;
    let openings = read_openings(&text, &rules).map_err(|e| format!("--openings: {e}"))?;
    Ok((spec, rules, openings))
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// `kinrow steadiness`: returns the exit code.
pub fn main(args: SteadinessArgs) -> i32 {
    let (spec, rules, openings) = match setup(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kinrow steadiness: {e}");
            return 2;
        }
    };
    let mut games = games_done(args.out.as_ref());
    games.retain(|g| g.game < args.games);
    let mut file = match &args.out {
        Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("kinrow steadiness: {}: {e}", path.display());
                return 1;
            }
        },
        None => None,
    };
    let (start, load_at_start) = (Instant::now(), load());
    let progress = Progress::new("steadiness", "games", games.len(), args.games);
    for index in 0..args.games {
        if games.iter().any(|g| g.game == index) {
            continue;
        }
        let g = play(
            &spec,
            &rules,
            &openings[index % openings.len()],
            &args,
            index,
        );
        if let Some(f) = file.as_mut() {
            let line = g.to_line() + "\n";
            if let Err(e) = f.write_all(line.as_bytes()) {
                eprintln!("kinrow steadiness: writing: {e}");
                return 1;
            }
        }
        let (now, then) = (reversals(&turns(&g, true)), reversals(&turns(&g, false)));
        progress.advance(&format!(
            "game {index}: {} plies, result {}, reversals {} answered / {} last depth (load {})",
            g.values.len(),
            g.result.as_str(),
            now.counted(),
            then.counted(),
            load()
        ));
        games.push(g);
    }
    let mut totals = [(Reversals::default(), Swings::default()); 2];
    for g in &games {
        for (answered, t) in [true, false].into_iter().zip(totals.iter_mut()) {
            t.0.add(reversals(&turns(g, answered)));
            t.1.add(swings(&turns(g, answered)));
        }
    }
    let [answered, last] = totals;
    let series = |(r, s): (Reversals, Swings)| {
        serde_json::json!({"reversals": r.all, "after_blunder": r.after_blunder,
            "counted": r.counted(), "swing_pairs": s.pairs, "mean_swing": s.mean(),
            "swings_over_half": s.large})
    };
    let summary = serde_json::json!({
        "engine": args.engine,
        "games": games.len(),
        "turns": games.iter().map(|g| g.values.len()).sum::<usize>(),
        "time_ms": args.time_ms,
        "answered": series(answered),
        "last_depth": series(last),
        "load": {"start": load_at_start, "end": load()},
        "seconds": start.elapsed().as_secs_f64(),
    });
    crate::output::print_line(&summary.to_string());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(values: &[f64]) -> Vec<Turn> {
        values
            .iter()
            .map(|&value| Turn {
                value,
                outcome: Outcome::Unknown,
            })
            .collect()
    }

    /// o reads -0.99, +0.43, -0.99 on its turns while x reads +0.5 throughout: one
    /// reversal (+0.43 is not firm), not after a blunder of x's (its value never fell).
    #[test]
    fn a_swing_on_a_sides_next_turn_is_a_reversal() {
        let r = reversals(&turns(&[-0.99, 0.5, 0.43, 0.5, -0.99, 0.5]));
        assert_eq!(
            r,
            Reversals {
                all: 1,
                after_blunder: 0
            }
        );
        // Smaller swings are none.
        let r = reversals(&turns(&[-0.85, 0.5, 0.43, 0.5, 0.89, 0.5, 0.0]));
        assert_eq!(r.all, 0);
    }

    /// Swings pair each turn with the same side's next, skipping proven ones.
    #[test]
    fn swings_measure_a_sides_unproven_changes() {
        let mut t = turns(&[0.2, -0.1, 0.8, -0.1, 0.6, 0.0]);
        t[5].outcome = Outcome::Loss;
        let s = swings(&t);
        assert_eq!((s.pairs, s.large), (3, 1));
        assert!((s.total - 0.8).abs() < 1e-9, "{}", s.total);
    }

    /// x at -0.95 then +0.6 after o's value fell from 0.9 to -0.2: o blundered. The same
    /// when o threw a proven win away, or moved into a loss x then proved.
    #[test]
    fn a_reversal_after_the_opponents_blunder_is_counted_apart() {
        let r = reversals(&turns(&[-0.95, 0.9, 0.6, -0.2]));
        assert_eq!(
            r,
            Reversals {
                all: 1,
                after_blunder: 1
            }
        );
        assert_eq!(r.counted(), 0);
        let mut t = turns(&[-0.95, 1.0, 0.6, 0.8]);
        t[1].outcome = Outcome::Win;
        assert_eq!(reversals(&t).after_blunder, 1);
        let mut t = turns(&[-0.95, 0.2, 1.0, 0.1]);
        t[2].outcome = Outcome::Win;
        assert_eq!(reversals(&t).after_blunder, 1);
        // A proof the opponent still holds on its next turn was not thrown away.
        let mut t = turns(&[-0.95, 1.0, 0.6, 1.0]);
        t[1].outcome = Outcome::Win;
        t[3].outcome = Outcome::Win;
        assert_eq!(reversals(&t).counted(), 1);
        // A fall of the opponent's under the threshold is no blunder.
        assert_eq!(reversals(&turns(&[-0.95, 0.5, 0.6, 0.1])).counted(), 1);
    }
}
