//! Reading record lines: the format and its two earlier forms (self-play lines with
//! `"M,N,K"` rules, one string of cells and siblings as tuples; match lines without a
//! variant, gravity, an opening rule or pieces), every move checked for legality on the
//! way.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use kinrow_engine::Outcome;
use kinrow_game::{Move, Position, Rules, Variant};

use super::line::{outcome_of_letter, MoveLine, RulesLine, SiblingLine};
use super::{GameResult, MoveSearch, RecordedGame, Sibling};

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

impl LineIn {
    /// The rules, from the object or from the earlier `"M,N,K"` with its `variant` and
    /// `exact` beside it.
    fn to_rules(&self) -> Result<Rules, String> {
        match &self.rules {
            RulesIn::Object(r) => r.to_rules(),
            RulesIn::Text(mnk) => {
                rules_from_text(mnk, self.variant.as_deref().unwrap_or("free"), self.exact)
            }
        }
    }
}

/// The opening's moves and the game's after it: two lists of moves, or the earlier
/// self-play form's one string of cells with how many of them the opening placed.
fn opening_and_moves(
    opening: Option<OpeningIn>,
    moves: Option<MovesIn>,
    rules: &Rules,
) -> Result<(Vec<Move>, Vec<Move>), String> {
    let to_moves = |moves: &[MoveLine]| -> Result<Vec<Move>, String> {
        moves.iter().map(|mv| mv.to_move(rules)).collect()
    };
    match (opening, moves) {
        (Some(OpeningIn::Count(count)), Some(MovesIn::Cells(cells))) => {
            let mut all = cells
                .split_whitespace()
                .map(|w| legacy_cell(w, rules))
                .collect::<Result<Vec<_>, _>>()?;
            if count > all.len() {
                return Err(format!(
                    "opening {count} is longer than the game's {} moves",
                    all.len()
                ));
            }
            let after = all.split_off(count);
            Ok((all, after))
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
            Ok((opening, moves))
        }
    }
}

/// Plays the moves from the empty board, each checked for legality, until the game is
/// over; the position reached.
fn replay(rules: &Rules, moves: &[Move]) -> Result<Position, String> {
    let mut p = Position::empty(rules);
    for &mv in moves {
        if p.is_over() {
            break;
        }
        p.try_play(mv).map_err(|e| e.to_string())?;
    }
    Ok(p)
}

/// The line's `result`, or where it has none the final position's.
fn result_of(result: Option<String>, last: &Position) -> Result<GameResult, String> {
    match result {
        Some(name) => {
            GameResult::parse(&name).ok_or_else(|| format!("result {name:?} is not x, o or draw"))
        }
        None => Ok(GameResult::of(last.winner())),
    }
}

/// A sibling from either form.
fn sibling_of(sibling: SiblingIn, rules: &Rules) -> Result<Sibling, String> {
    let (at, mv, value, outcome) = match sibling {
        SiblingIn::Object(s) => (s.at, s.mv.to_move(rules)?, s.value, s.outcome),
        SiblingIn::Tuple(at, cell, value, outcome) => {
            (at, legacy_cell(&cell, rules)?, value, outcome)
        }
    };
    Ok(Sibling {
        at,
        mv,
        value,
        outcome: outcome_of_letter(outcome)?,
    })
}

/// The outcomes' letters, one a move.
fn outcomes_of(letters: &str) -> Result<Vec<Outcome>, String> {
    letters.chars().map(outcome_of_letter).collect()
}

impl TryFrom<LineIn> for RecordedGame {
    type Error = String;

    fn try_from(line: LineIn) -> Result<RecordedGame, String> {
        let rules = line.to_rules()?;
        let (opening, moves) = opening_and_moves(line.opening, line.moves, &rules)?;
        let all: Vec<Move> = opening.iter().chain(&moves).copied().collect();
        let last = replay(&rules, &all)?;
        let result = result_of(line.result, &last)?;
        let siblings = line
            .siblings
            .into_iter()
            .map(|s| sibling_of(s, &rules))
            .collect::<Result<_, _>>()?;
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
            outcomes: outcomes_of(&line.outcomes)?,
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
