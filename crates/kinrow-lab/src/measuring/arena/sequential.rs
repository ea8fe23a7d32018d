//! `kinrow arena --sprt`: a match that plays pairs of games until the sequential test
//! ([`super::sprt`]) decides, or the match's `--games` (its most) are played.
//!
//! The unit is the pair: both games of one opening, one with each colour, played one
//! after the other by the same worker, so a pair's result is known as soon as its second
//! game ends. Workers (`--concurrency`) take the next unplayed pair in order; when the
//! test decides, no worker starts another pair and the pairs under way finish (their
//! games count, as fishtest counts the games in flight). Openings are drawn per pair
//! when it starts, from the match's seed, so a long test does not wait for ten thousand
//! openings first. Games already recorded in `--out` count first; a test they decide
//! plays nothing more.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::contest::{ArenaConfig, GameRecord};
use super::log::MatchLog;
use super::openings::pair_opening;
use super::sprt::{pair_score, Decision, Sprt};
use super::summary::{elo_from_score, report, summarize, summary_json};
use super::{play_game, resume_from, write_summary, ArenaArgs};

/// A's half points in game `g`: 2 for a win, 1 for a draw, 0 for a loss.
fn half_points(g: &GameRecord) -> u32 {
    match g.winner_engine() {
        Some(0) => 2,
        Some(_) => 0,
        None => 1,
    }
}

/// The pairs of a match as their games end: each pair's games so far and half points,
/// and the pentanomial counts of the complete pairs (A scored 0, ½, 1, 1½ or 2 points).
#[derive(Default)]
pub struct PairTally {
    pairs: BTreeMap<usize, (u32, u32)>,
    counts: [u32; 5],
}

impl PairTally {
    /// Counts one more game (each game once).
    pub fn add(&mut self, g: &GameRecord) {
        let e = self.pairs.entry(g.index / 2).or_insert((0, 0));
        e.0 += 1;
        e.1 += half_points(g);
        if e.0 == 2 {
            self.counts[e.1 as usize] += 1;
        }
    }

    /// The pentanomial counts of the complete pairs.
    pub fn counts(&self) -> [u32; 5] {
        self.counts
    }
}

/// The pentanomial counts of the complete pairs among `games`.
pub fn pentanomial<'a>(games: impl IntoIterator<Item = &'a GameRecord>) -> [u32; 5] {
    let mut tally = PairTally::default();
    for g in games {
        tally.add(g);
    }
    tally.counts()
}

/// Plays `config`'s match pair by pair on `config.threads` workers until `test` decides
/// over the pairs of `recorded` and the new games, or every game is played. `on_game`
/// hears of every new game as it ends, with the counts so far. Returns the decision.
pub fn play_until_decided(
    config: &ArenaConfig,
    test: &Sprt,
    recorded: &BTreeMap<usize, GameRecord>,
    on_game: &(dyn Fn(&GameRecord, &[u32; 5]) + Sync),
) -> Decision {
    let mut tally = PairTally::default();
    for g in recorded.values() {
        tally.add(g);
    }
    let first = test.decide(&tally.counts());
    let tally = Mutex::new(tally);
    if first != Decision::Continue {
        return first;
    }
    let pairs: Vec<usize> = (0..config.games.div_ceil(2))
        .filter(|&j| (2 * j..(2 * j + 2).min(config.games)).any(|i| !recorded.contains_key(&i)))
        .collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // The decision at the first crossing of a bound stands: a game another thread
    // still had in flight ends after it and is counted, but cannot undo the test's
    // stop (it once left a passed test at LLR 2.92 of 2.94, reported undecided).
    let decided: Mutex<Option<Decision>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..config.threads.max(1) {
            s.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&pair) = pairs.get(k) else { break };
                let opening = pair_opening(config, pair);
                for index in 2 * pair..(2 * pair + 2).min(config.games) {
                    if recorded.contains_key(&index) {
                        continue;
                    }
                    let g = play_game(config, index, &opening);
                    let counts = {
                        let mut t = tally.lock().expect("not poisoned");
                        t.add(&g);
                        t.counts()
                    };
                    let now = test.decide(&counts);
                    if now != Decision::Continue {
                        let mut first = decided.lock().expect("not poisoned");
                        if first.is_none() {
                            *first = Some(now);
                        }
                        stop.store(true, Ordering::Relaxed);
                    }
                    on_game(&g, &counts);
                }
            });
        }
    });
    let counts = tally.into_inner().expect("workers finished").counts();
    decided
        .into_inner()
        .expect("workers finished")
        .unwrap_or_else(|| test.decide(&counts))
}

/// The SPRT's state in words: the Elo from the pairs with its 95% interval, and the
/// log-likelihood ratio against its bounds.
fn standing(test: &Sprt, counts: &[u32; 5]) -> String {
    let elo = match pair_score(counts) {
        Some((s, lo, hi)) => format!(
            "Elo {:+.1} [{:+.1}, {:+.1}]",
            elo_from_score(s),
            elo_from_score(lo),
            elo_from_score(hi)
        ),
        None => "Elo -".to_string(),
    };
    format!(
        "{elo}, LLR {:.2} ({:.2}, {:.2})",
        test.llr(counts),
        test.lower_bound(),
        test.upper_bound()
    )
}

/// `kinrow arena --sprt`: plays until the test decides (resuming `--out`), prints the
/// match's report with the test's line, and writes `--summary`. Exit code 0 whatever
/// the decision; the decision is in the report and the summary.
pub(super) fn main(args: &ArenaArgs, config: &ArenaConfig, test: &Sprt) -> i32 {
    let (recorded, ledger) = match &args.out {
        None => (BTreeMap::new(), None),
        Some(path) => match resume_from(config, &|pair| pair_opening(config, pair), path) {
            Ok((games, ledger)) => (games, Some(ledger)),
            Err(e) => {
                eprintln!("kinrow arena: --out: {e}");
                return 2;
            }
        },
    };
    if !recorded.is_empty() {
        eprintln!(
            "arena: {} games already in the file count for the test",
            recorded.len()
        );
    }
    let log = MatchLog::new(config, args.verbose, &recorded, ledger);
    let on_game = |g: &GameRecord, counts: &[u32; 5]| log.game(g, &standing(test, counts));
    let decision = play_until_decided(config, test, &recorded, &on_game);
    let games = match log.finish() {
        Ok(games) => games,
        Err(e) => {
            eprintln!("kinrow arena: {e}");
            return 1;
        }
    };
    let counts = pentanomial(&games);
    let summary = summarize(&games);
    let verdict = match decision {
        Decision::H1 => "H1 accepted: A passes",
        Decision::H0 => "H0 accepted: A fails",
        Decision::Continue => "undecided: the games ran out",
    };
    let line = format!(
        "SPRT elo0 {} elo1 {} alpha {} beta {}: {verdict}; pairs {:?} (A scored 0, 1/2, 1, 3/2, 2); {}",
        test.elo0,
        test.elo1,
        test.alpha,
        test.beta,
        counts,
        standing(test, &counts)
    );
    if let Some(path) = &args.summary {
        let mut json = summary_json(config, &summary);
        json["sprt"] = serde_json::json!({
            "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
            "pentanomial": counts,
            "llr": test.llr(&counts),
            "lower_bound": test.lower_bound(),
            "upper_bound": test.upper_bound(),
            "decision": decision.as_str(),
            "elo": pair_score(&counts).map(|(s, lo, hi)| [elo_from_score(s), elo_from_score(lo), elo_from_score(hi)]),
        });
        if let Err(e) = write_summary(path, &json) {
            eprintln!("kinrow arena: {e}");
            return 1;
        }
    }
    crate::output::print_line(&format!("{}\n{line}", report(config, &summary)));
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;
    use kinrow_game::Player;

    fn game(index: usize, a_wins: Option<bool>) -> GameRecord {
        let x_engine = index % 2;
        let result = match a_wins {
            None => GameResult::Draw,
            Some(true) => GameResult::Won(if x_engine == 0 { Player::X } else { Player::O }),
            Some(false) => GameResult::Won(if x_engine == 0 { Player::O } else { Player::X }),
        };
        GameRecord {
            index,
            x_engine,
            opening: Vec::new(),
            moves: Vec::new(),
            search: Vec::new(),
            result,
            think: Default::default(),
            counts: [0; 2],
            forfeit: None,
            decisions: Vec::new(),
        }
    }

    #[test]
    fn pairs_are_counted_when_both_games_are_in() {
        let games = [
            game(0, Some(true)),
            game(1, Some(true)), // pair 0: 2 points
            game(2, None),
            game(3, Some(false)), // pair 1: ½ point
            game(5, Some(true)),  // pair 2: one game only
            game(6, Some(false)),
            game(7, Some(true)), // pair 3: 1 point
        ];
        assert_eq!(pentanomial(&games), [0, 1, 1, 0, 1]);
        // Any order.
        let mut reversed = games.to_vec();
        reversed.reverse();
        assert_eq!(pentanomial(&reversed), [0, 1, 1, 0, 1]);
    }
}
