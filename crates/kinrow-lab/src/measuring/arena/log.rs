//! What a running match keeps and shows as its games end, whether it plays a fixed
//! number of games or until the SPRT decides: every game so far (the recorded ones
//! first), the `--out` file each game is appended to, the `--verbose` line and the
//! progress line with engine A's score.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::contest::{ArenaConfig, GameRecord};
use super::resume::Ledger;
use super::summary::summarize;
use crate::output::Progress;

/// The log of one match.
pub(super) struct MatchLog<'a> {
    config: &'a ArenaConfig,
    verbose: bool,
    ledger: Option<Ledger>,
    meter: Progress,
    games: Mutex<Vec<GameRecord>>,
    failed: Mutex<Option<std::io::Error>>,
}

impl<'a> MatchLog<'a> {
    /// A log that starts from the games `recorded` in `--out` (appending to `ledger`).
    pub(super) fn new(
        config: &'a ArenaConfig,
        verbose: bool,
        recorded: &BTreeMap<usize, GameRecord>,
        ledger: Option<Ledger>,
    ) -> MatchLog<'a> {
        MatchLog {
            config,
            verbose,
            ledger,
            meter: Progress::new("arena", "games", recorded.len(), config.games),
            games: Mutex::new(recorded.values().cloned().collect()),
            failed: Mutex::new(None),
        }
    }

    /// One game ended: its `--verbose` line, its line in `--out`, and the progress line
    /// with A's score and `more` after it.
    pub(super) fn game(&self, g: &GameRecord, more: &str) {
        if self.verbose {
            print_game(self.config, g);
        }
        if let Some(ledger) = &self.ledger {
            if let Err(e) = ledger.append(self.config, g) {
                self.failed
                    .lock()
                    .expect("no panic holding it")
                    .get_or_insert(e);
            }
        }
        let s = {
            let mut games = self.games.lock().expect("no panic holding it");
            games.push(g.clone());
            summarize(&games)
        };
        let sep = if more.is_empty() { "" } else { ", " };
        self.meter.advance(&format!(
            "{} {}-{}-{} ({:.1}%){sep}{more}",
            self.config.engines[0].label(),
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.score
        ));
    }

    /// Every game in game order, or the first error writing `--out`.
    pub(super) fn finish(self) -> Result<Vec<GameRecord>, String> {
        if let Some(e) = self.failed.into_inner().expect("threads finished") {
            return Err(format!("cannot write the games: {e}"));
        }
        let mut games = self.games.into_inner().expect("threads finished");
        games.sort_by_key(|g| g.index);
        Ok(games)
    }
}

/// The `--verbose` line of one finished game.
fn print_game(config: &ArenaConfig, g: &GameRecord) {
    let who = |e: usize| config.engines[e].label();
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
    if !g.decisions.is_empty() {
        eprintln!("          opening: {}", g.decisions.join(", "));
    }
    if let Some(why) = &g.forfeit {
        eprintln!("          forfeit: {why}");
    }
}
