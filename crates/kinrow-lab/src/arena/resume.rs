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

use super::contest::{ArenaConfig, GameRecord, GameResult};
use super::record::read_games;
use kinrow_game::{Move, Player};

/// The games of `text` (an `--out` file of an earlier run of this match), by game number.
pub fn recorded_games(
    config: &ArenaConfig,
    openings: &[Vec<Move>],
    text: &str,
) -> Result<BTreeMap<usize, GameRecord>, String> {
    let games = read_games(text)?;
    let mut out = BTreeMap::new();
    for (line, read) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .zip(games)
    {
        let at = |why: String| format!("line {}: {why}", line.0 + 1);
        let v: serde_json::Value = serde_json::from_str(line.1).map_err(|e| at(e.to_string()))?;
        let index = v["game"]
            .as_u64()
            .map(|i| i as usize)
            .filter(|&i| i < config.games)
            .ok_or_else(|| at(format!("no game number below {}", config.games)))?;
        // Under swap and swap2 the opening's decisions gave x to one engine; otherwise
        // colours alternate.
        let x_engine = match v["x_engine"].as_u64() {
            Some(e @ (0 | 1)) if config.rules.opening().has_phase() => e as usize,
            _ => index % 2,
        };
        let (x, o) = (
            config.engines[x_engine].label(),
            config.engines[1 - x_engine].label(),
        );
        let r = &config.rules;
        let same_rules = read.rules == *r;
        let same_opening =
            config.rules.opening().has_phase() || read.opening == openings[index / 2];
        if read.x != x || read.o != o || !same_rules || !same_opening {
            return Err(at(format!(
                "game {index} was played by another match (contestants, rules or opening differ)"
            )));
        }
        let result = match v["result"].as_str() {
            Some("x") => GameResult::Won(Player::X),
            Some("o") => GameResult::Won(Player::O),
            Some("draw") => GameResult::Draw,
            other => return Err(at(format!("result {other:?} is not x, o or draw"))),
        };
        let pair = |key: &str| -> [f64; 2] {
            let a = &v[key];
            [a[0].as_f64().unwrap_or(0.0), a[1].as_f64().unwrap_or(0.0)]
        };
        let (counts, think_ms) = (pair("counts"), pair("think_ms"));
        let game = GameRecord {
            index,
            x_engine,
            opening: read.opening,
            moves: read.moves,
            result,
            think: think_ms.map(|ms| Duration::from_secs_f64(ms.max(0.0) / 1000.0)),
            counts: counts.map(|c| c as u32),
            forfeit: v["forfeit"].as_str().map(str::to_string),
            decisions: v["decisions"]
                .as_array()
                .map(|d| {
                    d.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
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
        let line = format!("{}\n", game_json(config, game));
        let mut f = self.file.lock().expect("no panic while writing");
        f.write_all(line.as_bytes())?;
        f.flush()
    }
}

fn move_json(mv: Move, m: usize) -> serde_json::Value {
    let c = mv.coord(m);
    serde_json::json!({ "row": c.row, "col": c.col, "piece": mv.piece.as_str() })
}

/// One game as a JSON object (one line of the `--out` file).
pub fn game_json(config: &ArenaConfig, g: &GameRecord) -> serde_json::Value {
    let m = config.rules.m();
    let label = |e: usize| config.engines[e].label().to_string();
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
                   "overline": config.rules.overline(),
                   "variant": config.rules.variant().as_str(),
                   "gravity": config.rules.gravity(),
                   "opening": config.rules.opening().as_str(),
                   "pieces": config.rules.hands().map(|h| [h.block, h.remove, h.bomb]) },
        "x": label(g.x_engine),
        "x_engine": g.x_engine,
        "o": label(1 - g.x_engine),
        "opening": g.opening.iter().map(|&mv| move_json(mv, m)).collect::<Vec<_>>(),
        "moves": g.moves.iter().map(|&mv| move_json(mv, m)).collect::<Vec<_>>(),
        "result": match g.result {
            GameResult::Won(p) => p.as_str(),
            GameResult::Draw => "draw",
        },
        "winner": g.winner_engine().map(label),
        "forfeit": g.forfeit,
        "decisions": g.decisions,
        "mean_ms": { "x": ms(g.x_engine), "o": ms(1 - g.x_engine) },
        // Engine A's and B's moves and total thinking time, read back on resuming.
        "counts": g.counts,
        "think_ms": g.think.map(|t| t.as_secs_f64() * 1000.0),
    })
}
