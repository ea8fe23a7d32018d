//! The JSON shapes a record line shares between its reader and its writer: a move
//! `{"row", "col", "piece"}`, the rules `{"m", "n", "k", ...}`, a sibling and the
//! one-letter outcomes.

use serde::{Deserialize, Serialize};

use kinrow_engine::Outcome;
use kinrow_game::{Hand, Move, Opening, Piece, Rules, Variant};

pub(super) fn outcome_letter(outcome: Outcome) -> char {
    match outcome {
        Outcome::Win => 'w',
        Outcome::Loss => 'l',
        Outcome::Draw => 'd',
        Outcome::Unknown => 'u',
    }
}

pub(super) fn outcome_of_letter(letter: char) -> Result<Outcome, String> {
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
pub(super) struct MoveLine {
    row: usize,
    col: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    piece: Option<String>,
}

impl MoveLine {
    pub(super) fn of(mv: Move, m: usize) -> MoveLine {
        let c = mv.coord(m);
        MoveLine {
            row: c.row,
            col: c.col,
            piece: Some(mv.piece.as_str().to_string()),
        }
    }

    pub(super) fn to_move(&self, rules: &Rules) -> Result<Move, String> {
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
pub(super) struct RulesLine {
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
    pub(super) fn of(rules: &Rules) -> RulesLine {
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

    pub(super) fn to_rules(&self) -> Result<Rules, String> {
        let hands = self
            .pieces
            .unwrap_or_default()
            .map(|[block, remove, bomb]| Hand::new(block, remove, bomb));
        let variant = match &self.variant {
            None => Variant::default(),
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

/// A sibling as the line holds it.
#[derive(Serialize, Deserialize)]
pub(super) struct SiblingLine {
    pub(super) at: usize,
    #[serde(rename = "move")]
    pub(super) mv: MoveLine,
    pub(super) value: i16,
    pub(super) outcome: char,
}
