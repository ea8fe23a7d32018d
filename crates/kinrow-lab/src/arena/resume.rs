//! A match that can stop and go on: `kinrow arena --out FILE` appends each game to the
//! file as soon as it ends, and a later run with the same `--out` reads the games already
//! there back and plays only the others. A recorded game counts for this match only when
//! its game number, contestants, rules and opening are the ones this match would give
//! it; anything else in the file is refused, so that two different matches never mix.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use super::contest::{ArenaConfig, GameRecord};
use crate::record::{read_games, RecordedGame};
use kinrow_game::Move;

/// The games of `text` (an `--out` file of an earlier run of this match), by game number.
pub fn recorded_games(
    config: &ArenaConfig,
    openings: &[Vec<Move>],
    text: &str,
) -> Result<BTreeMap<usize, GameRecord>, String> {
    let mut out = BTreeMap::new();
    for (line, read) in read_games(text)? {
        let at = |why: String| format!("line {line}: {why}");
        let index = read.game;
        if index >= config.games {
            return Err(at(format!("no game number below {}", config.games)));
        }
        // Under swap and swap2 the opening's decisions gave x to one engine; otherwise
        // colours alternate.
        let x_engine = match read.x_engine {
            Some(e @ (0 | 1)) if config.rules.opening().has_phase() => e,
            _ => index % 2,
        };
        let (x, o) = (
            config.engines[x_engine].label(),
            config.engines[1 - x_engine].label(),
        );
        let same_rules = read.rules == config.rules;
        let same_opening =
            config.rules.opening().has_phase() || read.opening == openings[index / 2];
        if read.x != x || read.o != o || !same_rules || !same_opening {
            return Err(at(format!(
                "game {index} was played by another match (contestants, rules or opening differ)"
            )));
        }
        let think_ms = read.think_ms.unwrap_or_default();
        let game = GameRecord {
            index,
            x_engine,
            opening: read.opening,
            moves: read.moves,
            result: read.result,
            think: think_ms.map(|ms| Duration::from_secs_f64(ms.max(0.0) / 1000.0)),
            counts: read.counts.unwrap_or_default(),
            forfeit: read.forfeit,
            decisions: read.decisions,
        };
        if out.insert(index, game).is_some() {
            return Err(at(format!("game {index} is recorded twice")));
        }
    }
    Ok(out)
}

/// The `--out` file, appended to one whole line per finished game.
pub struct Ledger {
    file: Mutex<File>,
}

impl Ledger {
    /// Opens `path` for appending (creating it), after the games already in it.
    pub fn open(path: &Path) -> Result<Ledger, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Ledger {
            file: Mutex::new(file),
        })
    }

    /// Appends `game` as one line and flushes it, so that a run stopped at any moment
    /// leaves only whole games behind.
    pub fn append(&self, config: &ArenaConfig, game: &GameRecord) -> std::io::Result<()> {
        let line = format!("{}\n", game.to_recorded(config).to_line());
        let mut f = self.file.lock().expect("no panic while writing");
        f.write_all(line.as_bytes())?;
        f.flush()
    }
}

impl GameRecord {
    /// The game as the record holds it (one line of the `--out` file).
    pub fn to_recorded(&self, config: &ArenaConfig) -> RecordedGame {
        let label = |e: usize| config.engines[e].label().to_string();
        RecordedGame {
            x: label(self.x_engine),
            o: label(1 - self.x_engine),
            x_engine: Some(self.x_engine),
            opening: self.opening.clone(),
            moves: self.moves.clone(),
            forfeit: self.forfeit.clone(),
            decisions: self.decisions.clone(),
            // Engine A's and B's moves and total thinking time, read back on resuming.
            counts: Some(self.counts),
            think_ms: Some(self.think.map(|t| t.as_secs_f64() * 1000.0)),
            ..RecordedGame::new(self.index, config.rules.clone(), self.result)
        }
    }
}
