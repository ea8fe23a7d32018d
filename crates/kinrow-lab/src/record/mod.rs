//! The lab's game record: one game a line of JSON, the same for every command that
//! writes games (`kinrow arena --out`, `kinrow selfplay`, `kinrow steadiness --out`) and
//! readable by every command that reads them (arena's resume, `kinrow judge`, `kinrow
//! tune`, `kinrow bench --replay`, steadiness's resume). One line of self-play (wrapped
//! here):
//!
//! ```text
//! {"game":7,"rules":{"m":15,"n":15,"k":5,"overline":true,"variant":"free","gravity":false,
//!  "opening":"free","pieces":[[0,0,0],[0,0,0]]},"x":"auto","o":"auto",
//!  "opening":[{"row":7,"col":7,"piece":"mark"},{"row":8,"col":6,"piece":"mark"},...],
//!  "moves":[{"row":8,"col":8,"piece":"mark"},...],"result":"x","winner":"auto",
//!  "values":[-12,40,...],"outcomes":"uuu...w",
//!  "siblings":[{"at":0,"move":{"row":6,"col":4,"piece":"mark"},"value":-388,"outcome":"u"},...]}
//! ```
//!
//! Every line has:
//! - `game`: the game's index in its run (its seed and opening derive from it; 0 when
//!   a line has none);
//! - `rules`: the board (`m` columns, `n` rows), `k` in a row, whether a longer line
//!   wins (`overline`), the `variant` (`free`, `renju`, `caro`), `gravity`, the
//!   `opening` rule (`free`, `pro`, `swap2`, ...) and the special pieces each player
//!   holds at the start (`pieces`: x's then o's `[block, remove, bomb]`); all but `m`,
//!   `n` and `k` may be left out (free, no gravity, no pieces);
//! - `x`, `o`: the labels of the contestants that played them (self-play: the engine
//!   on both sides);
//! - `opening`: the moves placed before the contestants took over; `moves`: every move
//!   after them, in order. A move is `{"row", "col", "piece"}`: row 0 is the top row,
//!   column 0 the left one, as in the API; `piece` is `mark` when left out;
//! - `result`: `x`, `o` or `draw` (a line without one, say one written by hand for
//!   `kinrow judge`, gets the final position's); `winner`, where a side won, is its
//!   label.
//!
//! A match (`kinrow arena --out`) adds `x_engine` (0 when engine A played x), `forfeit`
//! (why the loser forfeited), `decisions` (a swap opening's, in words), `mean_ms`, and
//! per engine (A, B) its moves `counts` and total `think_ms`, and `search`: for each
//! move of `moves` in turn, what the mover's search said of it, `{"depth", "nodes",
//! "value", "mate"}`, each left out where the engine did not say (a kinrow engine: its
//! completed depth, its nodes and its score in its own units; an external engine: the
//! depth, evaluation and node count of its last `MESSAGE` lines, as Rapfi's `Depth 9-14
//! | Eval -118 | Node 150K` says them; `mate` is a forced result's plies to the five,
//! positive when the mover wins, negative when it loses, 0 when uncounted, and then
//! `value` is left out). Lines written before it are read with no `search`.
//!
//! A game an engine played with itself (`selfplay`, `steadiness`) adds, for each move
//! of `moves` in turn:
//! - `values`: the searching side's value of the position in thousandths (-1000 a loss,
//!   1000 a win, on the API's value scale);
//! - `outcomes`: what the search proved there, one letter a move: `w`, `l`, `d`, or `u`
//!   (unproven);
//! - `last_depth` (`steadiness`): the value the last completed depth alone read;
//! - `siblings` (`kinrow selfplay --siblings N`): moves the game did not play, each
//!   searched like a game move: `{"at": j, "move", "value", "outcome"}` says that a
//!   `move` played instead of `moves[j]` left a position worth `value` (thousandths, to
//!   the side to move there) with the search's `outcome`. They show `kinrow tune`
//!   positions off the game's path, which is what a search's leaves mostly are.
//!
//! The reader also takes the two earlier forms, which committed data holds: self-play
//! lines with the rules as `"M,N,K"` (plus `variant` and `exact`, exactly k in a row),
//! every move as one string of cells (`"h8 g9 ..."`: a column letter, `a` the left
//! column, and a row number, `1` the top row), `opening` as how many of them the
//! opening placed and each sibling as `[j, cell, value, outcome]`; and match lines
//! written before the rules carried a variant, gravity, an opening rule or pieces.

mod line;
mod reader;
mod writer;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use kinrow_engine::Outcome;
use kinrow_engine::{Eval, Thinking};
use kinrow_game::{Move, Player, Position, Rules};

pub use line::rules_json;
pub use reader::{open_text, read_game, read_games, read_text, rules_from_text};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A line (or the other side's forfeit) for this player.
    Won(Player),
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Player> {
        match self {
            GameResult::Won(p) => Some(p),
            GameResult::Draw => None,
        }
    }

    /// The result of a game `winner` won (a draw for `None`).
    pub fn of(winner: Option<Player>) -> GameResult {
        winner.map_or(GameResult::Draw, GameResult::Won)
    }

    /// The record's name: `x`, `o` or `draw`.
    pub fn as_str(self) -> &'static str {
        self.winner().map_or("draw", Player::as_str)
    }

    /// Reads [`GameResult::as_str`]'s name back.
    pub fn parse(name: &str) -> Option<GameResult> {
        match name {
            "draw" => Some(GameResult::Draw),
            "x" => Some(GameResult::Won(Player::X)),
            "o" => Some(GameResult::Won(Player::O)),
            _ => None,
        }
    }
}

/// A move searched instead of the game's (see the module text).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sibling {
    /// The index in [`RecordedGame::moves`] of the move it stands in for.
    pub at: usize,
    /// The move searched.
    pub mv: Move,
    /// The value of the position after it, in thousandths, to the side to move there.
    pub value: i16,
    /// What the search of that position proved.
    pub outcome: Outcome,
}

/// What a contestant's search said of one of its moves in a match (see the module
/// text); every field `None` where the engine did not say.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveSearch {
    /// The depth it completed (an external engine's nominal depth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The nodes it searched (Rapfi rounds them down to thousands from 10 000 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The mover's value of the position, in the engine's own units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// A forced result: the plies to the five, positive when the mover wins, negative
    /// when it loses, 0 when the engine did not count them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

impl MoveSearch {
    /// Whether the engine said nothing.
    pub fn is_empty(&self) -> bool {
        *self == MoveSearch::default()
    }

    /// What an external engine's `MESSAGE` lines (in order) say of its search on a board
    /// of `m` x `n`: the last depth, the last evaluation and the last node count given.
    pub fn from_messages(lines: &[String], m: usize, n: usize) -> MoveSearch {
        let mut out = MoveSearch::default();
        for line in lines {
            let t = Thinking::in_message(line, m, n);
            if t.depth.is_some() {
                out.depth = t.depth;
            }
            match t.eval {
                Some(Eval::Score(s)) => (out.value, out.mate) = (Some(s), None),
                Some(Eval::Mate { win }) => {
                    let plies = t.plies.map_or(0, |p| p as i32);
                    (out.value, out.mate) = (None, Some(if win { plies } else { -plies }));
                }
                None => {}
            }
            if let Some(nodes) = message_nodes(line) {
                out.nodes = Some(nodes);
            }
        }
        out
    }
}

/// The node count in a `MESSAGE` line: the number after the word `node` or `nodes`
/// (`Node 150K`, `node:1234`), with Rapfi's `K`, `M`, `G` and `T` suffixes.
pub fn message_nodes(line: &str) -> Option<u64> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '|' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let lower = w.to_ascii_lowercase();
        let (key, inline) = match lower.split_once([':', '=']) {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (lower.clone(), String::new()),
        };
        if key != "node" && key != "nodes" {
            continue;
        }
        let text = if inline.is_empty() {
            words.get(i + 1).map(|w| w.to_ascii_lowercase())?
        } else {
            inline
        };
        let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
        let base: u64 = digits.parse().ok()?;
        let scale = match text[digits.len()..].chars().next() {
            Some('k') => 1_000,
            Some('m') => 1_000_000,
            Some('g') => 1_000_000_000,
            Some('t') => 1_000_000_000_000,
            _ => 1,
        };
        return base.checked_mul(scale);
    }
    None
}

/// One recorded game: one line of the format (see the module text).
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    /// The game's index in its run.
    pub game: usize,
    /// The game played.
    pub rules: Rules,
    /// The label of the contestant that played x (empty when unknown).
    pub x: String,
    /// See `x`.
    pub o: String,
    /// In a match, which engine (0 = A, 1 = B) played x.
    pub x_engine: Option<usize>,
    /// The opening's moves, played before the contestants took over.
    pub opening: Vec<Move>,
    /// The contestants' moves after the opening.
    pub moves: Vec<Move>,
    /// How it ended.
    pub result: GameResult,
    /// Why the loser forfeited, where it did.
    pub forfeit: Option<String>,
    /// A swap opening's decisions in words (`A placed 3`, `B chose x`).
    pub decisions: Vec<String>,
    /// In a match, the moves made by engine A and engine B.
    pub counts: Option<[u32; 2]>,
    /// In a match, engine A's and B's total thinking time in milliseconds.
    pub think_ms: Option<[f64; 2]>,
    /// The searching side's value at each move of `moves`, in thousandths.
    pub values: Vec<i16>,
    /// What the search proved at each move of `moves`.
    pub outcomes: Vec<Outcome>,
    /// Moves searched instead of the game's.
    pub siblings: Vec<Sibling>,
    /// The value the last completed depth alone read at each move of `moves`.
    pub last_depth: Vec<i16>,
    /// In a match, what the mover's search said of each move of `moves` (empty when the
    /// record has none).
    pub search: Vec<MoveSearch>,
}

/// One move of a recorded game, with the position it was played in.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The position before the move.
    pub position: Position,
    /// Every move from the empty board to `position`.
    pub history: Vec<Move>,
    /// The move played there.
    pub played: Move,
}

impl RecordedGame {
    /// Game `game` under `rules`, ended with `result`, with no moves and nothing else
    /// recorded yet.
    pub fn new(game: usize, rules: Rules, result: GameResult) -> RecordedGame {
        RecordedGame {
            game,
            rules,
            x: String::new(),
            o: String::new(),
            x_engine: None,
            opening: Vec::new(),
            moves: Vec::new(),
            result,
            forfeit: None,
            decisions: Vec::new(),
            counts: None,
            think_ms: None,
            values: Vec::new(),
            outcomes: Vec::new(),
            siblings: Vec::new(),
            last_depth: Vec::new(),
            search: Vec::new(),
        }
    }

    /// The label of the contestant that played `player`.
    pub fn label(&self, player: Player) -> &str {
        match player {
            Player::X => &self.x,
            Player::O => &self.o,
        }
    }

    /// The position before each move after the opening, with the history that reached
    /// it and the move then played; stops where the game is over.
    pub fn turns(&self) -> Vec<Turn> {
        let mut p = Position::empty(&self.rules);
        let mut history = Vec::with_capacity(self.opening.len() + self.moves.len());
        for &mv in &self.opening {
            p.play(mv);
            history.push(mv);
        }
        let mut out = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            if p.is_over() {
                break;
            }
            out.push(Turn {
                position: p.clone(),
                history: history.clone(),
                played: mv,
            });
            p.play(mv);
            history.push(mv);
        }
        out
    }

    /// The game as one line of the format, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a game record is JSON")
    }
}
