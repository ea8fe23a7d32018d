//! A match and its games: the two contestants, the match's settings, and the record
//! of each game played.

use std::time::Duration;

use super::script::ScriptSpec;
use super::spec::EngineSpec;
use crate::record::{GameResult, MoveSearch};
use kinrow_engine::ExternalSpec;
use kinrow_game::{Move, Player, Rules};

/// One side of a match: a kinrow engine (`name[:key=value]*`), an external Gomocup
/// engine (`pbrain:PATH[:key=value]*`, see [`ExternalSpec`]) or the scripted player
/// (`script[:noise=P]`, see [`ScriptSpec`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Contestant {
    /// One of kinrow's engines.
    Kinrow(EngineSpec),
    /// An external engine speaking the Gomocup protocol.
    Pbrain(ExternalSpec),
    /// The scripted player.
    Script(ScriptSpec),
}

impl Contestant {
    /// Parses one contestant of `--engines`.
    pub fn parse(text: &str) -> Result<Contestant, String> {
        let text_t = text.trim();
        if let Some(rest) = text_t.strip_prefix("pbrain:") {
            return ExternalSpec::parse(text, rest).map(Contestant::Pbrain);
        }
        match text_t.strip_prefix("script") {
            Some(rest) if rest.is_empty() || rest.starts_with(':') => {
                ScriptSpec::parse(text, rest).map(Contestant::Script)
            }
            _ => EngineSpec::parse(text).map(Contestant::Kinrow),
        }
    }

    /// Its label in the results: the text it was parsed from.
    pub fn label(&self) -> &str {
        match self {
            Contestant::Kinrow(s) => &s.label,
            Contestant::Pbrain(s) => &s.label,
            Contestant::Script(s) => &s.label,
        }
    }

    /// Its time per move: its own `time_ms`, else the match's.
    pub fn turn_time(&self, default_time: Duration) -> Duration {
        let own = match self {
            Contestant::Kinrow(s) => s.time_ms,
            Contestant::Pbrain(s) => s.time_ms,
            Contestant::Script(_) => None,
        };
        own.map_or(default_time, Duration::from_millis)
    }
}

/// A whole match.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Engine A and engine B.
    pub engines: [Contestant; 2],
    /// The game played.
    pub rules: Rules,
    /// Games in the match (pairs of games from one opening).
    pub games: usize,
    /// Time per move unless an engine's spec says otherwise.
    pub time: Duration,
    /// The seed of the openings and of every engine's random choices.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Random marks in each opening; `None` picks by board size.
    pub opening_plies: Option<usize>,
    /// Openings read from a file (`--openings`): pair `i` plays `fixed[i]`, and no
    /// random openings are drawn.
    pub fixed_openings: Option<Vec<Vec<Move>>>,
}

/// One played game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's place in the match.
    pub index: usize,
    /// Which engine (0 = A, 1 = B) played x.
    pub x_engine: usize,
    /// The opening's moves, played before the engines took over.
    pub opening: Vec<Move>,
    /// The engines' moves after the opening.
    pub moves: Vec<Move>,
    /// What the mover's search said of each of `moves` (depth, nodes, value).
    pub search: Vec<MoveSearch>,
    /// How it ended.
    pub result: GameResult,
    /// Total thinking time and number of moves per engine (A, B).
    pub think: [Duration; 2],
    /// Moves made by engine A and engine B.
    pub counts: [u32; 2],
    /// Why the loser forfeited (an illegal move, an external engine's error or silence),
    /// `None` when the game was played out.
    pub forfeit: Option<String>,
    /// The opening's decisions in words (swap and swap2), e.g. `A placed 3`, `B chose x`.
    pub decisions: Vec<String>,
}

impl GameRecord {
    /// The winning engine (0 = A, 1 = B), `None` for a draw.
    pub fn winner_engine(&self) -> Option<usize> {
        match self.result {
            GameResult::Won(Player::X) => Some(self.x_engine),
            GameResult::Won(Player::O) => Some(1 - self.x_engine),
            GameResult::Draw => None,
        }
    }
}
