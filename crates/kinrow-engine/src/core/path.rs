//! The typed path of a search, as an answer's `stats.path` shows it: the route `auto`
//! took and the notes on what decided the root. A ground-floor file: it imports no other
//! part of the engines.

use std::fmt;

/// Which way a search took, as `stats.path` shows it: the route (for `auto`) and what
/// decided the root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPath {
    /// The search that gave the answer, for an engine that has more than one.
    pub route: Option<Route>,
    /// What else happened, in order.
    pub notes: Vec<Note>,
}

/// The search that gave `auto`'s answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The exact solver (small boards).
    Perfect,
    /// The threat-space search and the pattern alpha-beta.
    PatternSearch,
    /// The general alpha-beta (special pieces, boards the patterns do not cover).
    Minimax,
}

/// Something that decided or changed the answer at the root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A proof was tried first and ran out of budget.
    PerfectRanOut,
    /// The moves that proof settled show its outcomes (win, draw or loss, their plies),
    /// not the later search's estimates.
    PerfectKept,
    /// A threat-space search found a forced win.
    ThreatSpaceWin,
    /// Only the moves that may stop the opponent's forced win by fours were searched.
    ThreatSpaceDefence,
    /// The same against a forced win by threats (VCT).
    ThreatSpaceDefenceVct,
    /// The root's guard dropped the search's choice: the opponent had a proven forced
    /// win by threats after it.
    ThreatSpaceGuard,
    /// The last check changed the move (a win now, or an immediate loss stopped).
    SafetyCheck,
    /// The pattern search evaluated with the learned weights (`auto:eval=learned`).
    LearnedEvaluation,
}

impl Route {
    /// The name in `stats.path`.
    pub fn as_str(self) -> &'static str {
        match self {
            Route::Perfect => "perfect",
            Route::PatternSearch => "pattern search",
            Route::Minimax => "minimax",
        }
    }
}

impl Note {
    /// The words in `stats.path`.
    pub fn as_str(self) -> &'static str {
        match self {
            Note::PerfectRanOut => "perfect ran out",
            Note::PerfectKept => "its proofs kept",
            Note::ThreatSpaceWin => "threat-space win",
            Note::ThreatSpaceDefence => "threat-space defence",
            Note::ThreatSpaceDefenceVct => "threat-space defence (vct)",
            Note::ThreatSpaceGuard => "threat-space guard",
            Note::SafetyCheck => "safety check",
            Note::LearnedEvaluation => "learned evaluation",
        }
    }
}

impl SearchPath {
    /// A path with only a route.
    pub fn route(route: Route) -> SearchPath {
        SearchPath {
            route: Some(route),
            notes: Vec::new(),
        }
    }

    /// A path with only a note.
    pub fn note(note: Note) -> SearchPath {
        SearchPath {
            route: None,
            notes: vec![note],
        }
    }
}

/// `route: note, note`, `route`, or `note, note` (as the API has always shown it).
impl fmt::Display for SearchPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let notes: Vec<&str> = self.notes.iter().map(|n| n.as_str()).collect();
        match (self.route, notes.is_empty()) {
            (Some(r), true) => f.write_str(r.as_str()),
            (Some(r), false) => write!(f, "{}: {}", r.as_str(), notes.join(", ")),
            (None, _) => f.write_str(&notes.join(", ")),
        }
    }
}
