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
#[cfg(test)]
use crate::record::MoveSearch;
use crate::record::{read_games, RecordedGame};
use kinrow_game::Move;

/// The games of `text` (an `--out` file of an earlier run of this match), by game number.
pub fn recorded_games(
    config: &ArenaConfig,
    opening_of: &dyn Fn(usize) -> Vec<Move>,
    text: &str,
) -> Result<BTreeMap<usize, GameRecord>, String> {
    let mut out = BTreeMap::new();
    // Both games of a pair share its opening, which may cost a judged search to draw
    // (an SPRT's lazy draws): each pair's is drawn once.
    let mut openings: BTreeMap<usize, Vec<Move>> = BTreeMap::new();
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
        let same_opening = config.rules.opening().has_phase()
            || read.opening
                == *openings
                    .entry(index / 2)
                    .or_insert_with(|| opening_of(index / 2));
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
            search: read.search,
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
            search: self.search.clone(),
            forfeit: self.forfeit.clone(),
            decisions: self.decisions.clone(),
            // Engine A's and B's moves and total thinking time, read back on resuming.
            counts: Some(self.counts),
            think_ms: Some(self.think.map(|t| t.as_secs_f64() * 1000.0)),
            ..RecordedGame::new(self.index, config.rules.clone(), self.result)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measuring::arena::{Contestant, GameResult};
    use kinrow_game::{Player, Rules};

    fn config() -> ArenaConfig {
        ArenaConfig {
            engines: [
                Contestant::parse("greedy").unwrap(),
                Contestant::parse("threat").unwrap(),
            ],
            rules: Rules::mnk(7, 7, 4).unwrap(),
            games: 2,
            time: Duration::from_millis(10),
            seed: 1,
            threads: 1,
            opening_plies: None,
            fixed_openings: None,
        }
    }

    /// A game goes to its line and comes back as the same game of the match.
    #[test]
    fn a_game_comes_back_from_the_file() {
        let config = config();
        let openings = [vec![Move::mark(24)]];
        let game = GameRecord {
            index: 1,
            x_engine: 1,
            opening: openings[0].clone(),
            moves: vec![Move::mark(16), Move::mark(17)],
            search: vec![
                MoveSearch {
                    depth: Some(7),
                    nodes: Some(52_000),
                    value: Some(-35),
                    mate: None,
                },
                MoveSearch {
                    depth: Some(12),
                    nodes: Some(150_000),
                    value: None,
                    mate: Some(9),
                },
            ],
            result: GameResult::Won(Player::O),
            think: [Duration::from_millis(3), Duration::from_millis(8)],
            counts: [1, 1],
            forfeit: Some("x: no answer".into()),
            decisions: Vec::new(),
        };
        let line = game.to_recorded(&config).to_line();
        let back = recorded_games(&config, &|p| openings[p].clone(), &line).unwrap();
        let read = &back[&1];
        assert_eq!(
            (read.x_engine, &read.moves, read.result, read.counts),
            (1, &game.moves, game.result, game.counts)
        );
        assert_eq!((read.think, &read.forfeit), (game.think, &game.forfeit));
        // Both movers' depths, nodes and values come back move for move.
        assert_eq!(read.search, game.search);
        assert!(line.contains(r#""search":[{"depth":7,"nodes":52000,"value":-35},{"depth":12,"nodes":150000,"mate":9}]"#), "{line}");
        // Another match's engines are refused.
        let mut other = config.clone();
        other.engines.swap(0, 1);
        let err = recorded_games(&other, &|p| openings[p].clone(), &line).unwrap_err();
        assert!(err.contains("another match"), "{err}");
    }

    /// A line as the arena wrote it before the rules carried a variant, gravity, an
    /// opening rule and pieces still resumes its match.
    #[test]
    fn an_earlier_line_resumes() {
        let line = r#"{"game":0,"rules":{"m":7,"n":7,"k":4,"overline":true},"x":"greedy","o":"threat","opening":[{"row":3,"col":3,"piece":"mark"}],"moves":[{"row":2,"col":2,"piece":"mark"}],"result":"draw","winner":null,"forfeit":null,"decisions":[],"mean_ms":{"x":2.0,"o":0.0},"counts":[1,0],"think_ms":[2.0,0.0]}"#;
        let openings = [vec![Move::mark(24)]];
        let games = recorded_games(&config(), &|p| openings[p].clone(), line).unwrap();
        let g = &games[&0];
        assert_eq!(
            (g.x_engine, g.result, g.counts),
            (0, GameResult::Draw, [1, 0])
        );
        assert_eq!(g.think[0], Duration::from_millis(2));
        assert_eq!(g.moves, vec![Move::mark(2 * 7 + 2)]);
    }
}
