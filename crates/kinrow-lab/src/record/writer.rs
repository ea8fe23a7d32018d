//! Writing record lines: a [`RecordedGame`] as one line of the format, in its order,
//! with the fields a game does not have left out.

use serde::{Serialize, Serializer};

use kinrow_game::Move;

use super::line::{outcome_letter, MoveLine, RulesLine, SiblingLine};
use super::{MoveSearch, RecordedGame};

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

impl RecordedGame {
    /// The mean time per move of the engine that played each side, in a match.
    fn mean_ms(&self) -> Option<MeanMs> {
        match (self.x_engine, self.counts, self.think_ms) {
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
        }
    }

    /// The winner's label, where a side won and has one.
    fn winner_label(&self) -> Option<&str> {
        self.result
            .winner()
            .map(|p| self.label(p))
            .filter(|l| !l.is_empty())
    }

    /// The siblings as the line holds them.
    fn sibling_lines(&self) -> Vec<SiblingLine> {
        let m = self.rules.m();
        self.siblings
            .iter()
            .map(|s| SiblingLine {
                at: s.at,
                mv: MoveLine::of(s.mv, m),
                value: s.value,
                outcome: outcome_letter(s.outcome),
            })
            .collect()
    }

    /// What the searches said of the moves, left out where none said anything.
    fn search_written(&self) -> &[MoveSearch] {
        if self.search.iter().all(MoveSearch::is_empty) {
            &[]
        } else {
            &self.search
        }
    }
}

impl Serialize for RecordedGame {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.rules.m();
        let list = |moves: &[Move]| moves.iter().map(|&mv| MoveLine::of(mv, m)).collect();
        LineOut {
            game: self.game,
            rules: RulesLine::of(&self.rules),
            x: &self.x,
            x_engine: self.x_engine,
            o: &self.o,
            opening: list(&self.opening),
            moves: list(&self.moves),
            result: self.result.as_str(),
            winner: self.winner_label(),
            forfeit: self.forfeit.as_deref(),
            decisions: &self.decisions,
            mean_ms: self.mean_ms(),
            counts: self.counts,
            think_ms: self.think_ms,
            values: &self.values,
            outcomes: self.outcomes.iter().copied().map(outcome_letter).collect(),
            siblings: self.sibling_lines(),
            last_depth: &self.last_depth,
            search: self.search_written(),
        }
        .serialize(s)
    }
}
