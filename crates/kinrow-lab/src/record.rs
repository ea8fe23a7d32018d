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

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use kinrow_engine::Outcome;
use kinrow_engine::{Eval, Thinking};
use kinrow_game::{Hand, Move, Opening, Piece, Player, Position, Rules, Variant};

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

/// Reads one line of the format (either earlier form too); every move is checked for
/// legality on the way, so [`RecordedGame::turns`] replays them safely.
pub fn read_game(line: &str) -> Result<RecordedGame, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

/// Reads every game of `text` with its line number (from 1), blank lines skipped; an
/// error names its line.
pub fn read_games(text: &str) -> Result<Vec<(usize, RecordedGame)>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            read_game(l)
                .map(|g| (i + 1, g))
                .map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect()
}

/// Opens a file of records for reading, decompressing it where its name ends in `.gz`
/// (`kinrow label`'s shards).
pub fn open_text(path: &Path) -> Result<Box<dyn BufRead>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let read: Box<dyn Read> = if path.extension().is_some_and(|x| x == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    Ok(Box::new(BufReader::new(read)))
}

/// The whole text of `path`, decompressed where it is a `.gz`.
pub fn read_text(path: &Path) -> Result<String, String> {
    let mut text = String::new();
    open_text(path)?
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text)
}

/// The rules `M,N,K` (as the commands' `--rules` and the earlier self-play lines give
/// them) under `variant`, exactly `k` in a row winning when `exact`.
pub fn rules_from_text(mnk: &str, variant: &str, exact: bool) -> Result<Rules, String> {
    let bad = || format!("rules {mnk:?} is not M,N,K");
    let v: Vec<u64> = mnk
        .split(',')
        .map(|s| s.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let [m, n, k] = v[..] else {
        return Err(bad());
    };
    let variant = Variant::parse(variant).ok_or_else(|| format!("unknown variant {variant:?}"))?;
    Rules::new(m, n, k, !exact, Default::default())
        .and_then(|r| r.with_variant(variant))
        .map_err(|e| e.to_string())
}

fn outcome_letter(outcome: Outcome) -> char {
    match outcome {
        Outcome::Win => 'w',
        Outcome::Loss => 'l',
        Outcome::Draw => 'd',
        Outcome::Unknown => 'u',
    }
}

fn outcome_of_letter(letter: char) -> Result<Outcome, String> {
    Ok(match letter {
        'w' => Outcome::Win,
        'l' => Outcome::Loss,
        'd' => Outcome::Draw,
        'u' => Outcome::Unknown,
        _ => return Err(format!("outcome {letter:?} is not w, l, d or u")),
    })
}

/// A move as the line holds it.
#[derive(Serialize, Deserialize)]
struct MoveLine {
    row: usize,
    col: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    piece: Option<String>,
}

impl MoveLine {
    fn of(mv: Move, m: usize) -> MoveLine {
        let c = mv.coord(m);
        MoveLine {
            row: c.row,
            col: c.col,
            piece: Some(mv.piece.as_str().to_string()),
        }
    }

    fn to_move(&self, rules: &Rules) -> Result<Move, String> {
        let piece = match &self.piece {
            None => Piece::Mark,
            Some(name) => Piece::parse(name).ok_or_else(|| format!("piece {name:?} is unknown"))?,
        };
        if self.row >= rules.n() || self.col >= rules.m() {
            return Err(format!(
                "move ({}, {}) is off the board",
                self.row, self.col
            ));
        }
        Ok(Move::new(self.row * rules.m() + self.col, piece))
    }
}

/// The rules as the line holds them.
#[derive(Serialize, Deserialize)]
struct RulesLine {
    m: u64,
    n: u64,
    k: u64,
    #[serde(default = "yes")]
    overline: bool,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    opening: Option<String>,
    #[serde(default)]
    pieces: Option<[[u8; 3]; 2]>,
}

fn yes() -> bool {
    true
}

/// `rules` as a record line holds them (`{"m", "n", "k", "overline", "variant", "gravity",
/// "opening", "pieces"}`), for the other JSON the lab writes.
pub fn rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::to_value(RulesLine::of(rules)).expect("plain data")
}

impl RulesLine {
    fn of(rules: &Rules) -> RulesLine {
        RulesLine {
            m: rules.m() as u64,
            n: rules.n() as u64,
            k: u64::from(rules.k()),
            overline: rules.overline(),
            variant: Some(rules.variant().as_str().to_string()),
            gravity: rules.gravity(),
            opening: Some(rules.opening().as_str().to_string()),
            pieces: Some(rules.hands().map(|h| [h.block, h.remove, h.bomb])),
        }
    }

    fn to_rules(&self) -> Result<Rules, String> {
        let hands = self
            .pieces
            .unwrap_or_default()
            .map(|[block, remove, bomb]| Hand::new(block, remove, bomb));
        let variant = match &self.variant {
            None => Variant::Free,
            Some(name) => {
                Variant::parse(name).ok_or_else(|| format!("rules.variant {name:?} is unknown"))?
            }
        };
        let opening = match &self.opening {
            None => Opening::Free,
            Some(name) => {
                Opening::parse(name).ok_or_else(|| format!("rules.opening {name:?} is unknown"))?
            }
        };
        Rules::new(self.m, self.n, self.k, self.overline, hands)
            .and_then(|r| r.with_variant(variant))
            .and_then(|r| r.with_gravity(self.gravity))
            .and_then(|r| r.with_opening(opening))
            .map_err(|e| e.to_string())
    }
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "rules as {\"m\", \"n\", \"k\", ...} or as \"M,N,K\""
)]
enum RulesIn {
    Object(RulesLine),
    /// The earlier self-play form.
    Text(String),
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a list of moves (or, in the earlier self-play form, how many moves)"
)]
enum OpeningIn {
    Moves(Vec<MoveLine>),
    /// The earlier self-play form.
    Count(usize),
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a list of moves (or, in the earlier self-play form, one string of cells)"
)]
enum MovesIn {
    Moves(Vec<MoveLine>),
    /// The earlier self-play form.
    Cells(String),
}

#[derive(Serialize, Deserialize)]
struct SiblingLine {
    at: usize,
    #[serde(rename = "move")]
    mv: MoveLine,
    value: i16,
    outcome: char,
}

#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "a sibling as {\"at\", \"move\", \"value\", \"outcome\"} or [j, cell, value, outcome]"
)]
enum SiblingIn {
    Object(SiblingLine),
    /// The earlier self-play form.
    Tuple(usize, String, i16, char),
}

/// A line as read: the fields of the format and of the earlier forms.
#[derive(Deserialize)]
struct LineIn {
    #[serde(default)]
    game: usize,
    rules: RulesIn,
    /// The earlier self-play form's variant and exactly-k flag (beside `"M,N,K"`).
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    exact: bool,
    #[serde(default)]
    x: String,
    #[serde(default)]
    o: String,
    #[serde(default)]
    x_engine: Option<usize>,
    #[serde(default)]
    opening: Option<OpeningIn>,
    #[serde(default)]
    moves: Option<MovesIn>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    forfeit: Option<String>,
    #[serde(default)]
    decisions: Vec<String>,
    #[serde(default)]
    counts: Option<[u32; 2]>,
    #[serde(default)]
    think_ms: Option<[f64; 2]>,
    #[serde(default)]
    values: Vec<i16>,
    #[serde(default)]
    outcomes: String,
    #[serde(default)]
    siblings: Vec<SiblingIn>,
    #[serde(default)]
    last_depth: Vec<i16>,
    #[serde(default)]
    search: Vec<MoveSearch>,
}

/// A cell of the earlier self-play form: a column letter and a 1-based row.
fn legacy_cell(word: &str, rules: &Rules) -> Result<Move, String> {
    let bad = || format!("{word:?} is not a cell");
    let mut chars = word.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .ok_or_else(bad)?;
    let col = (letter as u8 - b'a') as usize;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if col < rules.m() && (1..=rules.n()).contains(&row) {
        Ok(Move::mark((row - 1) * rules.m() + col))
    } else {
        Err(bad())
    }
}

impl TryFrom<LineIn> for RecordedGame {
    type Error = String;

    fn try_from(line: LineIn) -> Result<RecordedGame, String> {
        let rules = match &line.rules {
            RulesIn::Object(r) => r.to_rules()?,
            RulesIn::Text(mnk) => {
                rules_from_text(mnk, line.variant.as_deref().unwrap_or("free"), line.exact)?
            }
        };
        let to_moves = |moves: &[MoveLine]| -> Result<Vec<Move>, String> {
            moves.iter().map(|mv| mv.to_move(&rules)).collect()
        };
        let (opening, moves) = match (line.opening, line.moves) {
            (Some(OpeningIn::Count(count)), Some(MovesIn::Cells(cells))) => {
                let mut all = cells
                    .split_whitespace()
                    .map(|w| legacy_cell(w, &rules))
                    .collect::<Result<Vec<_>, _>>()?;
                if count > all.len() {
                    return Err(format!(
                        "opening {count} is longer than the game's {} moves",
                        all.len()
                    ));
                }
                let after = all.split_off(count);
                (all, after)
            }
            (opening, moves) => {
                let mixed = "opening and moves mix the earlier self-play form with lists of moves";
                let opening = match opening {
                    None => Vec::new(),
                    Some(OpeningIn::Moves(list)) => to_moves(&list)?,
                    Some(OpeningIn::Count(_)) => return Err(mixed.into()),
                };
                let moves = match moves {
                    None => Vec::new(),
                    Some(MovesIn::Moves(list)) => to_moves(&list)?,
                    Some(MovesIn::Cells(_)) => return Err(mixed.into()),
                };
                (opening, moves)
            }
        };
        let mut p = Position::empty(&rules);
        for &mv in opening.iter().chain(&moves) {
            if p.is_over() {
                break;
            }
            p.try_play(mv).map_err(|e| e.to_string())?;
        }
        let result = match line.result {
            Some(name) => GameResult::parse(&name)
                .ok_or_else(|| format!("result {name:?} is not x, o or draw"))?,
            None => GameResult::of(p.winner()),
        };
        let siblings = line
            .siblings
            .into_iter()
            .map(|s| {
                let (at, mv, value, outcome) = match s {
                    SiblingIn::Object(s) => (s.at, s.mv.to_move(&rules)?, s.value, s.outcome),
                    SiblingIn::Tuple(at, cell, value, outcome) => {
                        (at, legacy_cell(&cell, &rules)?, value, outcome)
                    }
                };
                Ok(Sibling {
                    at,
                    mv,
                    value,
                    outcome: outcome_of_letter(outcome)?,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(RecordedGame {
            game: line.game,
            rules,
            x: line.x,
            o: line.o,
            x_engine: line.x_engine,
            opening,
            moves,
            result,
            forfeit: line.forfeit,
            decisions: line.decisions,
            counts: line.counts,
            think_ms: line.think_ms,
            values: line.values,
            outcomes: line
                .outcomes
                .chars()
                .map(outcome_of_letter)
                .collect::<Result<_, _>>()?,
            siblings,
            last_depth: line.last_depth,
            search: line.search,
        })
    }
}

impl<'de> Deserialize<'de> for RecordedGame {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RecordedGame, D::Error> {
        RecordedGame::try_from(LineIn::deserialize(d)?).map_err(D::Error::custom)
    }
}

#[derive(Serialize)]
struct MeanMs {
    x: f64,
    o: f64,
}

/// A line as written, in the format's order.
#[derive(Serialize)]
struct LineOut<'a> {
    game: usize,
    rules: RulesLine,
    x: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    x_engine: Option<usize>,
    o: &'a str,
    opening: Vec<MoveLine>,
    moves: Vec<MoveLine>,
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    decisions: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_ms: Option<MeanMs>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counts: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    think_ms: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    values: &'a [i16],
    #[serde(skip_serializing_if = "String::is_empty")]
    outcomes: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    siblings: Vec<SiblingLine>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    last_depth: &'a [i16],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    search: &'a [MoveSearch],
}

impl Serialize for RecordedGame {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.rules.m();
        let list = |moves: &[Move]| moves.iter().map(|&mv| MoveLine::of(mv, m)).collect();
        // The mean time per move of the engine that played each side, in a match.
        let mean_ms = match (self.x_engine, self.counts, self.think_ms) {
            (Some(x), Some(counts), Some(think)) if x < 2 => {
                let ms = |e: usize| {
                    if counts[e] == 0 {
                        0.0
                    } else {
                        think[e] / f64::from(counts[e])
                    }
                };
                Some(MeanMs {
                    x: ms(x),
                    o: ms(1 - x),
                })
            }
            _ => None,
        };
        LineOut {
            game: self.game,
            rules: RulesLine::of(&self.rules),
            x: &self.x,
            x_engine: self.x_engine,
            o: &self.o,
            opening: list(&self.opening),
            moves: list(&self.moves),
            result: self.result.as_str(),
            winner: self
                .result
                .winner()
                .map(|p| self.label(p))
                .filter(|l| !l.is_empty()),
            forfeit: self.forfeit.as_deref(),
            decisions: &self.decisions,
            mean_ms,
            counts: self.counts,
            think_ms: self.think_ms,
            values: &self.values,
            outcomes: self.outcomes.iter().copied().map(outcome_letter).collect(),
            siblings: self
                .siblings
                .iter()
                .map(|s| SiblingLine {
                    at: s.at,
                    mv: MoveLine::of(s.mv, m),
                    value: s.value,
                    outcome: outcome_letter(s.outcome),
                })
                .collect(),
            last_depth: &self.last_depth,
            search: if self.search.iter().all(MoveSearch::is_empty) {
                &[]
            } else {
                &self.search
            },
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An arena line as `kinrow arena --out` writes it.
    const MATCH: &str = r#"{"game":0,"rules":{"m":7,"n":7,"k":4,"overline":true},"x":"auto","o":"pbrain:/e","opening":[{"row":3,"col":3,"piece":"mark"}],"moves":[{"row":2,"col":2,"piece":"mark"},{"row":3,"col":4,"piece":"mark"}],"result":"draw"}"#;

    /// A self-play line in the earlier form, with siblings.
    const SELFPLAY: &str = r#"{"game":3,"rules":"15,15,5","variant":"free","opening":3,"moves":"h9 i5 k11 j5 k9","values":[358,33],"outcomes":"uw","result":"o","siblings":[[0,"g5",-388,"u"],[1,"h4",1000,"w"]]}"#;

    fn mark(rules: &Rules, row: usize, col: usize) -> Move {
        Move::mark(row * rules.m() + col)
    }

    #[test]
    fn games_are_read_with_labels_and_turns() {
        let games = read_games(&format!("\n{MATCH}\n")).unwrap();
        assert_eq!(games.len(), 1);
        let (line, g) = &games[0];
        assert_eq!(
            (*line, g.x.as_str(), g.o.as_str()),
            (2, "auto", "pbrain:/e")
        );
        assert_eq!(g.opening, vec![Move::mark(3 * 7 + 3)]);
        assert_eq!(g.result, GameResult::Draw);
        let turns = g.turns();
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[1].history.len(), 2);
        assert_eq!(turns[1].played, Move::mark(3 * 7 + 4));
        assert_eq!(turns[1].position.ply(), 2);
        // The opening's single mark is x's, so o plays the first move after it.
        assert_eq!(g.label(turns[0].position.to_move()), "pbrain:/e");
        // Without a result, the final position's (here nobody won).
        let bare = MATCH.replace(r#","result":"draw""#, "");
        assert_eq!(read_game(&bare).unwrap().result, GameResult::Draw);
    }

    #[test]
    fn a_game_keeps_its_variant() {
        let renju = MATCH.replace(r#""k":4"#, r#""k":5"#).replace(
            r#""overline":true"#,
            r#""overline":false,"variant":"renju""#,
        );
        let games = read_games(&renju).unwrap();
        assert_eq!(games[0].1.rules.variant(), Variant::Renju);
        assert_eq!(
            read_games(MATCH).unwrap()[0].1.rules.variant(),
            Variant::Free
        );
        let unknown = MATCH.replace(r#""overline":true"#, r#""variant":"gomoku""#);
        let err = read_games(&unknown).unwrap_err();
        assert!(err.contains("line 1") && err.contains("gomoku"), "{err}");
    }

    #[test]
    fn broken_games_are_rejected_with_their_line() {
        let twice = MATCH.replace(r#""row":2,"col":2"#, r#""row":3,"col":3"#);
        assert!(read_games(&twice).unwrap_err().starts_with("line 1:"));
        assert!(read_games("{\"rules\":{}}").is_err());
        assert!(read_games("not json").is_err());
        let off = MATCH.replace(r#""row":2,"col":2"#, r#""row":2,"col":9"#);
        assert!(read_games(&off).is_err());
        let below = MATCH.replace(r#""row":2,"col":2"#, r#""row":7,"col":0"#);
        assert!(read_games(&below).is_err());
        let result = MATCH.replace(r#""draw""#, r#""white""#);
        assert!(read_games(&result).unwrap_err().contains("white"));
        let outcome = SELFPLAY.replace(r#""uw""#, r#""uq""#);
        assert!(read_games(&outcome).is_err());
        let mixed = SELFPLAY.replace(r#""opening":3"#, r#""opening":[]"#);
        assert!(read_games(&mixed).is_err());
        let long = SELFPLAY.replace(r#""opening":3"#, r#""opening":6"#);
        assert!(read_games(&long).is_err());
    }

    /// A game with every field goes to a line and comes back the same.
    #[test]
    fn a_game_comes_back_from_its_line() {
        let rules = Rules::new(9, 9, 4, true, [Hand::new(0, 1, 0), Hand::new(1, 0, 0)])
            .unwrap()
            .with_gravity(false)
            .unwrap();
        let mut g = RecordedGame::new(5, rules.clone(), GameResult::Won(Player::O));
        g.x = "auto".into();
        g.o = "mcts:nodes=50".into();
        g.x_engine = Some(1);
        g.opening = vec![mark(&rules, 4, 4)];
        // o holds the block.
        g.moves = vec![
            Move::new(4 * 9 + 5, Piece::Block),
            mark(&rules, 3, 3),
            mark(&rules, 2, 2),
        ];
        g.forfeit = Some("x: no answer".into());
        g.decisions = vec!["A placed 3".into()];
        g.counts = Some([2, 1]);
        g.think_ms = Some([12.5, 3.25]);
        g.values = vec![-12, 40, 1000];
        g.outcomes = vec![Outcome::Unknown, Outcome::Unknown, Outcome::Win];
        g.siblings = vec![Sibling {
            at: 1,
            mv: mark(&rules, 0, 8),
            value: -388,
            outcome: Outcome::Draw,
        }];
        g.last_depth = vec![-10, 38, 1000];
        let line = g.to_line();
        assert_eq!(read_game(&line).unwrap(), g, "{line}");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            v["rules"]["pieces"],
            serde_json::json!([[0, 1, 0], [1, 0, 0]])
        );
        assert_eq!(
            v["moves"][0],
            serde_json::json!({"row": 4, "col": 5, "piece": "block"})
        );
        assert_eq!(v["outcomes"], "uuw");
        assert_eq!(v["siblings"][0]["outcome"], "d");
        assert_eq!(
            (v["result"].as_str(), v["winner"].as_str()),
            (Some("o"), Some("mcts:nodes=50"))
        );
        // Engine B played x: o's mean time is engine A's.
        assert_eq!(v["mean_ms"], serde_json::json!({"x": 3.25, "o": 6.25}));

        // A bare game writes only what it has, and comes back too.
        let bare = RecordedGame::new(0, Rules::mnk(3, 3, 3).unwrap(), GameResult::Draw);
        let line = bare.to_line();
        for absent in [
            "x_engine", "winner", "forfeit", "mean_ms", "values", "siblings",
        ] {
            assert!(!line.contains(absent), "{line}");
        }
        assert_eq!(read_game(&line).unwrap(), bare);
    }

    /// A self-play line of the earlier form reads to the same moves, values, outcomes,
    /// siblings and result, and writes the new form, which reads back the same.
    #[test]
    fn earlier_self_play_lines_are_read() {
        let g = read_game(SELFPLAY).unwrap();
        let rules = Rules::mnk(15, 15, 5).unwrap();
        assert_eq!(g.rules, rules);
        assert_eq!(g.game, 3);
        // h9 is column 7, row 8; i5 column 8, row 4; k11 column 10, row 10.
        let (h9, i5, k11) = (mark(&rules, 8, 7), mark(&rules, 4, 8), mark(&rules, 10, 10));
        assert_eq!(g.opening, vec![h9, i5, k11]);
        assert_eq!(g.moves, vec![mark(&rules, 4, 9), mark(&rules, 8, 10)]);
        assert_eq!(g.values, vec![358, 33]);
        assert_eq!(g.outcomes, vec![Outcome::Unknown, Outcome::Win]);
        assert_eq!(g.result, GameResult::Won(Player::O));
        assert_eq!(
            g.siblings,
            vec![
                Sibling {
                    at: 0,
                    mv: mark(&rules, 4, 6),
                    value: -388,
                    outcome: Outcome::Unknown
                },
                Sibling {
                    at: 1,
                    mv: mark(&rules, 3, 7),
                    value: 1000,
                    outcome: Outcome::Win
                },
            ]
        );
        assert_eq!(read_game(&g.to_line()).unwrap(), g);
        // Exactly k, and the other variants.
        let exact = SELFPLAY.replace(r#""variant":"free""#, r#""variant":"free","exact":true"#);
        assert!(!read_game(&exact).unwrap().rules.overline());
        let renju = SELFPLAY.replace(r#""variant":"free""#, r#""variant":"renju""#);
        assert_eq!(read_game(&renju).unwrap().rules.variant(), Variant::Renju);
        // Cells off the board are refused.
        let off = SELFPLAY.replace("k9", "p9");
        assert!(read_game(&off).unwrap_err().contains("p9"));
    }

    /// A match line written before the rules carried more than m, n, k and overline,
    /// and one with every field of the arena's: both read, the latter with its timing.
    #[test]
    fn earlier_match_lines_are_read() {
        let old = r#"{"game":1,"rules":{"m":7,"n":7,"k":4,"overline":true},"x":"a","o":"b","opening":[{"row":3,"col":3,"piece":"mark"}],"moves":[{"row":2,"col":2,"piece":"mark"}],"result":"o","winner":"b","forfeit":null,"mean_ms":{"x":1.0,"o":2.0},"counts":[1,0],"think_ms":[2.0,0.0]}"#;
        let g = read_game(old).unwrap();
        let rules = g.rules.clone();
        assert_eq!(rules, Rules::mnk(7, 7, 4).unwrap());
        assert_eq!(
            (g.x_engine, g.counts, g.think_ms),
            (None, Some([1, 0]), Some([2.0, 0.0]))
        );
        assert_eq!(g.moves, vec![mark(&rules, 2, 2)]);
        assert_eq!(g.forfeit, None);
        let full = r#"{"game":0,"rules":{"m":15,"n":15,"k":5,"overline":true,"variant":"free","gravity":false,"opening":"swap2","pieces":[[0,0,0],[0,0,0]]},"x":"A","x_engine":1,"o":"B","opening":[],"moves":[{"row":7,"col":7,"piece":"mark"}],"result":"x","winner":"A","forfeit":"o: no answer","decisions":["B placed 3","A chose x"],"mean_ms":{"x":5.0,"o":0.0},"counts":[0,1],"think_ms":[0.0,5.0]}"#;
        let g = read_game(full).unwrap();
        assert_eq!(g.rules.opening(), Opening::Swap2);
        assert_eq!(g.x_engine, Some(1));
        assert_eq!(g.decisions.len(), 2);
        assert_eq!(g.forfeit.as_deref(), Some("o: no answer"));
        let again: serde_json::Value = serde_json::from_str(&g.to_line()).unwrap();
        assert_eq!(
            again,
            serde_json::from_str::<serde_json::Value>(full).unwrap()
        );
    }

    #[test]
    fn an_external_engines_messages_give_its_depth_nodes_and_value() {
        let lines = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // Rapfi: per-depth lines, then the summary with its node count in thousands.
        let rapfi = lines(&[
            "MESSAGE Depth 8-12 | Eval 31 | Time 20ms | H8 I9",
            "MESSAGE Speed 899K | Depth 11-11 | Eval -149 | Node 150K | Time 170ms",
            "MESSAGE Bestline I8 I7 H7",
        ]);
        assert_eq!(
            MoveSearch::from_messages(&rapfi, 15, 15),
            MoveSearch {
                depth: Some(11),
                nodes: Some(150_000),
                value: Some(-149),
                mate: None,
            }
        );
        // A forced result replaces the score: a loss in 8 plies, an uncounted win.
        let mates = lines(&[
            "MESSAGE Depth 5 | Eval 40",
            "MESSAGE Depth 6 | Eval -M8 | Node 2698",
        ]);
        let s = MoveSearch::from_messages(&mates, 15, 15);
        assert_eq!((s.value, s.mate, s.nodes), (None, Some(-8), Some(2698)));
        let s = MoveSearch::from_messages(&lines(&["MESSAGE Depth 3 | Eval +M*"]), 15, 15);
        assert_eq!((s.depth, s.mate), (Some(3), Some(0)));
        // Wine's form; and an engine that says nothing.
        let s = MoveSearch::from_messages(&lines(&["MESSAGE node:1234 eval:-47"]), 15, 15);
        assert_eq!((s.nodes, s.value, s.depth), (Some(1234), Some(-47), None));
        assert!(MoveSearch::from_messages(&[], 15, 15).is_empty());
        assert_eq!(message_nodes("MESSAGE Nodes: 2M"), Some(2_000_000));
        assert_eq!(message_nodes("MESSAGE Node"), None);
    }

    #[test]
    fn a_match_line_without_search_reads_and_writes_none() {
        let g = read_game(MATCH).unwrap();
        assert!(g.search.is_empty());
        assert!(!g.to_line().contains("search"));
    }

    #[test]
    fn rules_from_text_checks_them() {
        assert_eq!(
            rules_from_text("7,6,4", "free", false).unwrap(),
            Rules::mnk(7, 6, 4).unwrap()
        );
        assert!(rules_from_text("7,6", "free", false).is_err());
        assert!(rules_from_text("7,6,4", "gomoku", false).is_err());
        assert!(rules_from_text("15,15,4", "renju", false).is_err());
    }
}
