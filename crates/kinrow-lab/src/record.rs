//! The self-play game record: one game a line of JSON, written by `kinrow selfplay` and
//! read by `kinrow tune`.
//!
//! ```text
//! {"game":7,"rules":"15,15,5","variant":"free","opening":3,
//!  "moves":"h8 g9 i9 j10 ...","values":[-12,40,...],"outcomes":"uuu...w","result":"x"}
//! ```
//!
//! - `moves`: every mark of the game in order, the opening's first, each as a column
//!   letter (`a` is column 0) and a row number (`1` is row 0, the top row, as in the API);
//! - `opening`: how many of them the opening placed;
//! - `values`: for every move after the opening, the searching side's value of the
//!   position in thousandths (-1000 a loss, 1000 a win, on the API's value scale);
//! - `outcomes`: for the same moves, what the search proved: `w`, `l`, `d`, or `u`;
//! - `result`: `x`, `o` or `draw`;
//! - `siblings` (with `kinrow selfplay --siblings N`): moves the game did not play,
//!   each searched like a game move: `[j, cell, value, outcome]` says that after the
//!   `j`-th move after the opening was *not* played, a mark on `cell` instead left a
//!   position worth `value` (thousandths, to the side to move there) with the search's
//!   outcome (`w`, `l`, `d`, `u`). They show `kinrow tune` positions off the game's
//!   path, which is what a search's leaves mostly are.

use serde::{Deserialize, Serialize};

use kinrow_engine::core::types::Outcome;
use kinrow_game::{Move, Player, Position, Rules};

/// One recorded self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's index in its run (its seed derives from it).
    pub game: usize,
    /// `M,N,K`.
    pub rules: String,
    /// `free`, `renju` or `caro` (exactly-k freestyle is `free` with `exact`).
    pub variant: String,
    /// Exactly k in a row wins (no overlines).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// How many of `moves` the opening placed.
    pub opening: usize,
    /// Every mark of the game in order (`h8 g9 ...`).
    pub moves: String,
    /// The searching side's value after the opening, move by move, in thousandths.
    pub values: Vec<i16>,
    /// What the search proved at each of those moves: `w`, `l`, `d` or `u`.
    pub outcomes: String,
    /// `x`, `o` or `draw`.
    pub result: String,
    /// Moves the game did not play, each searched like a game move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub siblings: Vec<Sibling>,
}

/// A move searched instead of the game's: `(j, cell, value, outcome)`, see the module
/// text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sibling(pub usize, pub String, pub i16, pub char);

/// A cell as a column letter and a 1-based row (boards of up to 26 columns).
pub fn cell_name(cell: usize, m: usize) -> String {
    let (row, col) = (cell / m, cell % m);
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Reads [`cell_name`]'s notation back.
pub fn parse_cell(word: &str, m: usize, n: usize) -> Option<usize> {
    let mut chars = word.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let col = (letter as u8 - b'a') as usize;
    let row: usize = chars.as_str().parse().ok()?;
    (col < m && (1..=n).contains(&row)).then(|| (row - 1) * m + col)
}

/// An outcome as the record writes it: `w`, `l`, `d` or `u` (unknown).
pub fn outcome_letter(outcome: Outcome) -> char {
    match outcome {
        Outcome::Win => 'w',
        Outcome::Loss => 'l',
        Outcome::Draw => 'd',
        Outcome::Unknown => 'u',
    }
}

/// The result's name: `x`, `o` or `draw`.
pub fn result_name(winner: Option<Player>) -> &'static str {
    winner.map_or("draw", Player::as_str)
}

impl GameLine {
    /// The game's rules (checked), from `rules`, `variant` and `exact`.
    pub fn rules(&self) -> Result<Rules, String> {
        let v: Vec<u64> = self
            .rules
            .split(',')
            .map(|s| s.trim().parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("rules {:?} is not M,N,K", self.rules))?;
        if v.len() != 3 {
            return Err(format!("rules {:?} is not M,N,K", self.rules));
        }
        let variant = kinrow_game::Variant::parse(&self.variant)
            .ok_or_else(|| format!("unknown variant {:?}", self.variant))?;
        Rules::new(v[0], v[1], v[2], !self.exact, Default::default())
            .and_then(|r| r.with_variant(variant))
            .map_err(|e| e.to_string())
    }

    /// The game's moves, checked by replaying them from the empty board.
    pub fn replay(&self, rules: &Rules) -> Result<Vec<Move>, String> {
        let mut p = Position::empty(rules);
        let mut out = Vec::new();
        for word in self.moves.split_whitespace() {
            let cell = parse_cell(word, rules.m(), rules.n())
                .ok_or_else(|| format!("{word:?} is not a cell"))?;
            let mv = Move::mark(cell);
            p.try_play(mv).map_err(|e| format!("{word}: {e}"))?;
            out.push(mv);
        }
        Ok(out)
    }

    /// The winner (`None` for a draw).
    pub fn winner(&self) -> Result<Option<Player>, String> {
        match self.result.as_str() {
            "draw" => Ok(None),
            s => s
                .chars()
                .next()
                .filter(|_| s.len() == 1)
                .and_then(Player::from_char)
                .map(Some)
                .ok_or_else(|| format!("result {s:?} is not x, o or draw")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for cell in [0, 14, 15, 112, 224] {
            let name = cell_name(cell, 15);
            assert_eq!(parse_cell(&name, 15, 15), Some(cell), "{name}");
        }
        assert_eq!(cell_name(112, 15), "h8");
        assert_eq!(parse_cell("p1", 15, 15), None);
        assert_eq!(parse_cell("a16", 15, 15), None);
        assert_eq!(parse_cell("a0", 15, 15), None);
    }
}
