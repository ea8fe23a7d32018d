//! The Gomocup ("pbrain") protocol's vocabulary, the one place both of its ends read and
//! write it: the manager's end ([`super::manager`], the pool and [`super::brain`]: kinrow
//! running other programs) and the brain's end (the lab's `kinrow pbrain`: kinrow run by
//! a manager). Nothing here does I/O; a round-trip test per message keeps the two ends
//! agreed.
//!
//! - Commands, manager to brain ([`Command`]): `START n`, `RECTSTART m,n`, `RESTART`,
//!   `BEGIN`, `TURN x,y`, `TAKEBACK x,y`, `BOARD` .. `DONE`, `SWAP2BOARD` .. `DONE`,
//!   `INFO key value` ([`Info`]), `ABOUT`, `END`.
//! - Coordinates: a cell is `x,y`, column then row, from 0 ([`cell_text`],
//!   [`parse_pair`]). A `BOARD` line is `x,y,field`, the field 1 for the receiver's own
//!   stone and 2 for its opponent's ([`Field`], [`stones_command`],
//!   [`parse_board_line`]); `SWAP2BOARD` sends its stones in the order placed, x first.
//! - The rule mask of `INFO rule` (bits 1 exactly five, 2 continuous game, 4 renju,
//!   8 caro): [`rule_mask`] and [`rules_of_mask`], through the game crate's
//!   `Variant::gomocup_rule` and `Variant::from_gomocup_rule`, its one table.
//! - Answers, brain to manager: `OK`, a move `x,y` ([`parse_move`]), stones
//!   `x,y x,y ..` ([`stones_text`], [`parse_stones`]), `SWAP`, `ERROR reason`,
//!   `UNKNOWN reason`, and `MESSAGE` lines: kinrow writes its search in Rapfi's brief
//!   shape ([`Brief`]) and reads other brains' with [`Thinking::in_message`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use kinrow_game::{Coord, Rules, Variant};

/// A command from the manager to the brain (one line; `BOARD` and `SWAP2BOARD` are
/// followed by their stone lines and `DONE`, see [`stones_command`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new game on an n x n board.
    Start(usize),
    /// `RECTSTART m,n`: a new game on a board of m columns and n rows.
    RectStart(usize, usize),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain moves first on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played x,y; the brain answers its move.
    Turn(usize, usize),
    /// `TAKEBACK x,y`: the stone at x,y is removed.
    Takeback(usize, usize),
    /// `BOARD`: the whole position follows, one `x,y,field` a line, then `DONE`.
    Board,
    /// `SWAP2BOARD`: the swap2 opening's stones follow, then `DONE`.
    Swap2Board,
    /// `INFO key value`.
    Info(Info),
    /// `ABOUT`: the brain's name and version.
    About,
    /// `END`: the brain exits.
    End,
    /// Any other command word, as sent (answered `UNKNOWN`).
    Unknown(String),
}

impl Command {
    /// `START n` for a square board, `RECTSTART m,n` otherwise.
    pub fn start(m: usize, n: usize) -> Command {
        if m == n {
            Command::Start(m)
        } else {
            Command::RectStart(m, n)
        }
    }

    /// Reads a command line (any case; not a stone line between `BOARD` and `DONE`); an
    /// error names the command and what it got instead of its arguments.
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let pair = |command: &str, what: &str| {
            parse_pair(rest).ok_or_else(|| format!("{command} needs {what}, got {rest:?}"))
        };
        Ok(match word.to_ascii_uppercase().as_str() {
            "START" => match rest.parse() {
                Ok(side) => Command::Start(side),
                Err(_) => return Err(format!("START needs a board size, got {rest:?}")),
            },
            "RECTSTART" => {
                let (m, n) = pair("RECTSTART", "width,height")?;
                Command::RectStart(m, n)
            }
            "RESTART" => Command::Restart,
            "BEGIN" => Command::Begin,
            "TURN" => {
                let (x, y) = pair("TURN", "x,y")?;
                Command::Turn(x, y)
            }
            "TAKEBACK" => {
                let (x, y) = pair("TAKEBACK", "x,y")?;
                Command::Takeback(x, y)
            }
            "BOARD" => Command::Board,
            "SWAP2BOARD" => Command::Swap2Board,
            "INFO" => Command::Info(Info::parse(rest)?),
            "ABOUT" => Command::About,
            "END" => Command::End,
            _ => Command::Unknown(word.to_string()),
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(side) => write!(f, "START {side}"),
            Command::RectStart(m, n) => write!(f, "RECTSTART {m},{n}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Turn(x, y) => write!(f, "TURN {x},{y}"),
            Command::Takeback(x, y) => write!(f, "TAKEBACK {x},{y}"),
            Command::Board => f.write_str("BOARD"),
            Command::Swap2Board => f.write_str("SWAP2BOARD"),
            Command::Info(info) => write!(f, "{info}"),
            Command::About => f.write_str("ABOUT"),
            Command::End => f.write_str("END"),
            Command::Unknown(word) => f.write_str(word),
        }
    }
}

/// `INFO key value`: a setting of the game or the match. The keys kinrow sends or acts
/// on have their variant; times are in milliseconds. A key with a value of the wrong
/// kind is an error only where the brain acts on it (the times, `thread_num`, `rule`);
/// the rest are kept as [`Info::Other`], which brains accept silently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: the most a move may take.
    TimeoutTurn(u64),
    /// `timeout_match`: the whole match's clock (0: none).
    TimeoutMatch(u64),
    /// `time_left`: what is left of the match's clock.
    TimeLeft(u64),
    /// `thread_num`: the threads the brain may use (at least 1).
    ThreadNum(usize),
    /// `rule`: the rule mask ([`rule_mask`]).
    Rule(u32),
    /// `max_memory`: the bytes the brain may use.
    MaxMemory(u64),
    /// `max_node`: a node limit per move (not every brain takes one).
    MaxNode(u64),
    /// `max_depth`: a depth limit per move (not every brain takes one).
    MaxDepth(u64),
    /// Any other key, or a value of the wrong kind for a key the brain ignores.
    Other {
        /// The key, in lower case.
        key: String,
        /// The value, as sent.
        value: String,
    },
}

impl Info {
    /// Reads what follows `INFO`: a key (any case), white space, a value.
    pub fn parse(text: &str) -> Result<Info, String> {
        let Some((key, value)) = text.split_once(char::is_whitespace) else {
            return Err(format!("INFO needs a key and a value, got {text:?}"));
        };
        let (key, value) = (key.to_ascii_lowercase(), value.trim());
        let ms = || {
            value
                .parse()
                .map_err(|_| format!("{key} {value:?} is not milliseconds"))
        };
        let number = || value.parse::<u64>().ok();
        Ok(match key.as_str() {
            "timeout_turn" => Info::TimeoutTurn(ms()?),
            "timeout_match" => Info::TimeoutMatch(ms()?),
            "time_left" => Info::TimeLeft(ms()?),
            "thread_num" => match value.parse::<usize>() {
                Ok(n) if n >= 1 => Info::ThreadNum(n),
                _ => return Err(format!("thread_num {value:?} is not at least 1")),
            },
            "rule" => match value.parse() {
                Ok(mask) => Info::Rule(mask),
                Err(_) => return Err(format!("rule {value:?} is not a number")),
            },
            "max_memory" if number().is_some() => Info::MaxMemory(number().unwrap_or(0)),
            "max_node" if number().is_some() => Info::MaxNode(number().unwrap_or(0)),
            "max_depth" if number().is_some() => Info::MaxDepth(number().unwrap_or(0)),
            _ => Info::Other {
                key,
                value: value.to_string(),
            },
        })
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Info::TimeoutTurn(ms) => write!(f, "INFO timeout_turn {ms}"),
            Info::TimeoutMatch(ms) => write!(f, "INFO timeout_match {ms}"),
            Info::TimeLeft(ms) => write!(f, "INFO time_left {ms}"),
            Info::ThreadNum(n) => write!(f, "INFO thread_num {n}"),
            Info::Rule(mask) => write!(f, "INFO rule {mask}"),
            Info::MaxMemory(bytes) => write!(f, "INFO max_memory {bytes}"),
            Info::MaxNode(nodes) => write!(f, "INFO max_node {nodes}"),
            Info::MaxDepth(depth) => write!(f, "INFO max_depth {depth}"),
            Info::Other { key, value } => write!(f, "INFO {key} {value}"),
        }
    }
}

/// Whose stone a `BOARD` line holds, from the receiver's side: field 1 its own, 2 its
/// opponent's. (Field 3, a winning line of the continuous game, is not spoken here.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// 1: the receiver's own stone.
    Own,
    /// 2: its opponent's.
    Theirs,
}

impl Field {
    /// The number written on the line.
    pub fn number(self) -> u8 {
        match self {
            Field::Own => 1,
            Field::Theirs => 2,
        }
    }

    /// The field numbered `number`, if it is one spoken here.
    pub fn of(number: u8) -> Option<Field> {
        match number {
            1 => Some(Field::Own),
            2 => Some(Field::Theirs),
            _ => None,
        }
    }
}

/// `word` (`BOARD` or `SWAP2BOARD`), one `x,y,field` line a stone, and `DONE`: a whole
/// command, ready to send.
pub fn stones_command(word: &str, stones: impl IntoIterator<Item = (Coord, Field)>) -> String {
    let mut text = String::from(word);
    for (cell, field) in stones {
        text.push_str(&format!("\n{},{}", cell_text(cell), field.number()));
    }
    text.push_str("\nDONE");
    text
}

/// A `BOARD` line: `x,y,field` as numbers (the field unchecked: see [`Field::of`]);
/// `None` when it is not three numbers.
pub fn parse_board_line(line: &str) -> Option<(usize, usize, u8)> {
    match line
        .split(',')
        .map(str::trim)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [x, y, field] => Some((x.parse().ok()?, y.parse().ok()?, field.parse().ok()?)),
        _ => None,
    }
}

/// A `SWAP2BOARD` line: `x,y`, or `x,y,field` with the field ignored (the order of the
/// lines gives the side); `None` when it is neither.
pub fn parse_swap2_line(line: &str) -> Option<(usize, usize)> {
    match line
        .split(',')
        .map(str::trim)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [x, y] | [x, y, _] => x.parse().ok().zip(y.parse().ok()),
        _ => None,
    }
}

/// A cell as the protocol writes it: `x,y`, column then row.
pub fn cell_text(cell: Coord) -> String {
    format!("{},{}", cell.col, cell.row)
}

/// Stones as a brain answers `SWAP2BOARD`: `x,y x,y ..`.
pub fn stones_text(cells: impl IntoIterator<Item = Coord>) -> String {
    let cells: Vec<String> = cells.into_iter().map(cell_text).collect();
    cells.join(" ")
}

/// `a,b` as two numbers of any type (`x,y`, `width,height`); `None` when it is not.
pub fn parse_pair<T: FromStr>(text: &str) -> Option<(T, T)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `INFO rule`'s bit mask for `rules`: 0 freestyle, 1 exactly five, 4 renju, 8 caro.
pub fn rule_mask(rules: &Rules) -> u32 {
    rules.variant().gomocup_rule(rules.overline())
}

/// The variant and whether only exactly five wins of an `INFO rule` mask; an error names
/// a mask with unknown bits or two variants at once.
pub fn rules_of_mask(mask: u32) -> Result<(Variant, bool), String> {
    Variant::from_gomocup_rule(mask)
}

/// The `MESSAGE` line kinrow writes before each move, in Rapfi's brief shape:
/// `MESSAGE Depth d | Eval e | Node n | Time t ms | Bestline x,y x,y ..`, the eval a
/// score in the brain's units, `+M<plies>` / `-M<plies>` for a proven win or loss
/// (`+M*` where the plies are unknown). [`Thinking::in_message`] reads it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brief {
    /// The depth reached.
    pub depth: u32,
    /// The evaluation for the side to move.
    pub eval: Eval,
    /// The plies to the five of a mate, where counted.
    pub plies: Option<u32>,
    /// The nodes searched.
    pub nodes: u64,
    /// The time taken.
    pub time: Duration,
    /// The best line, from the side to move.
    pub line: Vec<Coord>,
}

impl fmt::Display for Brief {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let eval = match (self.eval, self.plies) {
            (Eval::Score(score), _) => score.to_string(),
            (Eval::Mate { win }, plies) => {
                let sign = if win { '+' } else { '-' };
                match plies {
                    Some(p) => format!("{sign}M{p}"),
                    None => format!("{sign}M*"),
                }
            }
        };
        write!(
            f,
            "MESSAGE Depth {} | Eval {eval} | Node {} | Time {}ms | Bestline {}",
            self.depth,
            self.nodes,
            self.time.as_millis(),
            stones_text(self.line.iter().copied())
        )
    }
}

/// An evaluation an engine printed for the side to move, in its own units.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A score (Rapfi's `Eval -118`, Wine's `eval:-47`).
    Score(i64),
    /// A forced win (`+M15`, `+M*`) or loss (`-M15`) for the side to move.
    Mate {
        /// True for a win of the side to move.
        win: bool,
    },
}

impl Eval {
    /// The evaluation in a `MESSAGE` line: the token after the last word `eval`
    /// (any case, followed by a space or a colon), as a whole number or a mate `±M..`.
    pub fn in_message(line: &str) -> Option<Eval> {
        let token = eval_token(line)?;
        if let Some(m) = token.strip_prefix("+M") {
            return (m == "*" || m.parse::<u32>().is_ok()).then_some(Eval::Mate { win: true });
        }
        if let Some(m) = token.strip_prefix("-M") {
            return (m == "*" || m.parse::<u32>().is_ok()).then_some(Eval::Mate { win: false });
        }
        token.parse().ok().map(Eval::Score)
    }
}

/// The token after the last word `eval` of `line` (any case, then spaces or colons).
fn eval_token(line: &str) -> Option<&str> {
    let lower = line.to_ascii_lowercase();
    let at = lower.rfind("eval")?;
    line[at + 4..]
        .trim_start_matches([':', ' '])
        .split_whitespace()
        .next()
}

/// The plies of a mate in `line`'s evaluation: 15 of `+M15` or `-M15` (Rapfi counts
/// them from the position to the five); `None` for a score or `+M*`.
pub fn mate_plies(line: &str) -> Option<u32> {
    let token = eval_token(line)?;
    let m = token
        .strip_prefix("+M")
        .or_else(|| token.strip_prefix("-M"))?;
    m.parse().ok()
}

/// `START n` for a square board, `RECTSTART m,n` otherwise.
pub fn start_command(m: usize, n: usize) -> String {
    Command::start(m, n).to_string()
}

/// The stones of `text` (`x,y x,y ..`, as a brain answers `SWAP2BOARD`), `None` when it
/// is not a list of stones.
pub fn parse_stones(text: &str) -> Option<Vec<Coord>> {
    text.split_whitespace()
        .map(|s| parse_pair(s).map(|(x, y)| Coord::new(y, x)))
        .collect()
}

/// `x,y` (column, row) as numbers; `None` for a line that is not a move.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    parse_pair(line)
}

/// What a brain said of its search in one `MESSAGE` line (Rapfi's and Yixin's style):
/// the depth after the word `depth`, the evaluation ([`Eval::in_message`]) with a mate's
/// plies, and the best line after the word `pv` or `bestline`, as `x,y` pairs or as
/// letter-and-number cells (`h8`: column h, the 8th row from the top); in a line with a
/// depth and no such word, the cells after its last `|` (Rapfi's per-depth line,
/// `Depth 10-9 | Eval -114 | Time 13ms | I8 I7 H7`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// The depth reached (the first number after `depth`: `8` of `Depth 8-14`).
    pub depth: Option<u32>,
    /// The evaluation for the side to move, in the brain's units.
    pub eval: Option<Eval>,
    /// The plies to the five of a mate evaluation where the brain counted them.
    pub plies: Option<u32>,
    /// The best line, from the side to move, cut at its first cell off a board of
    /// `m` x `n`.
    pub pv: Vec<Coord>,
}

impl Thinking {
    /// What `line` (a `MESSAGE` line) says, on a board of `m` columns and `n` rows.
    pub fn in_message(line: &str, m: usize, n: usize) -> Thinking {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == '|' || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        let after = |key: &str| {
            words.iter().position(|w| {
                w.trim_end_matches([':', '=']).eq_ignore_ascii_case(key)
                    || w.to_ascii_lowercase()
                        .strip_prefix(key)
                        .is_some_and(|r| r.starts_with([':', '=']))
            })
        };
        let depth = after("depth").and_then(|i| {
            let w = words[i];
            let inline = w.split_once([':', '=']).map(|(_, v)| v).unwrap_or("");
            let text = if inline.is_empty() {
                words.get(i + 1).copied().unwrap_or("")
            } else {
                inline
            };
            let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        });
        let pv = after("pv")
            .or_else(|| after("bestline"))
            .map(|i| {
                words[i + 1..]
                    .iter()
                    .map_while(|w| cell_of(w, m, n))
                    .collect()
            })
            .or_else(|| {
                depth?;
                let (_, tail) = line.rsplit_once('|')?;
                let cells: Option<Vec<Coord>> =
                    tail.split_whitespace().map(|w| cell_of(w, m, n)).collect();
                cells.filter(|c| !c.is_empty())
            })
            .unwrap_or_default();
        let eval = Eval::in_message(line);
        Thinking {
            depth,
            eval,
            plies: eval.and_then(|_| mate_plies(line)),
            pv,
        }
    }
}

/// A cell written `x,y` (column, row, from 0) or `h8` (a letter for the column from
/// `a`, then the row from 1 at the top); `None` when it is neither or off the board.
fn cell_of(word: &str, m: usize, n: usize) -> Option<Coord> {
    let (col, row) = match parse_move(word) {
        Some((x, y)) => (usize::try_from(x).ok()?, usize::try_from(y).ok()?),
        None => {
            let mut chars = word.chars();
            let letter = chars.next()?.to_ascii_lowercase();
            if !letter.is_ascii_lowercase() {
                return None;
            }
            let row: usize = chars.as_str().parse().ok()?;
            ((letter as u8 - b'a') as usize, row.checked_sub(1)?)
        }
    };
    (col < m && row < n).then(|| Coord::new(row, col))
}

#[cfg(test)]
mod tests;
