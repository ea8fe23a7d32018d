//! Watching a search while it runs: progress reports, a stop flag, and how many lines.
//!
//! A caller that wants more than the final [`Analysis`](crate::core::types::Analysis) attaches a
//! [`Watch`] to the search's [`Budget`](crate::core::budget::Budget) (`Budget::new(..).watched(..)`);
//! every child budget cut from it shares the same watch. Then:
//!
//! - **stop**: [`Watch::stop`] may be called from any thread; the budget polls the flag
//!   where it checks its deadline (every 256 nodes), so the search returns its best so
//!   far as if its time had run out.
//! - **progress**: the iterative searches call [`Budget::report`](crate::core::budget::Budget::report)
//!   at each completed iteration (`minimax`, `auto`'s pattern search), `perfect` at each
//!   settled root move, `mcts` every [`REPORT_EVERY`] of its playouts; and while a long
//!   iteration runs, the budget repeats the last report with the nodes and time so far
//!   every [`REPORT_EVERY`] ([`Watch::heartbeat`]). A report carries the depth, the
//!   nodes of the whole search, the time since the watch started, and the best lines.
//! - **lines**: [`Watch::lines`] (`multipv`) asks the tree searches for that many best
//!   moves with exact values (not only bounds) and each with its own principal variation.
//!
//! - **anytime**: a watch made [`Watch::anytime`] keeps the last report even with no
//!   observer, so that a caller whose deadline passes before the engine returns can
//!   answer with the last completed iteration ([`Watch::last`], [`Progress::analysis`]).
//!
//! Without a watch a budget does none of this, and a search is exactly what it was.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::types::Scale;
use crate::core::path::{Route, SearchPath};
use crate::core::types::{Analysis, Evaluation, MoveEval, SearchStats};
use kinrow_game::{Move, Position};

/// The longest time between two progress reports of a running search.
pub const REPORT_EVERY: Duration = Duration::from_millis(250);

/// The most lines (`multipv`) a search reports.
pub const MAX_LINES: usize = 10;

/// One of the best moves so far, with its evaluation and its principal variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The line's first move.
    pub mv: Move,
    /// Its value for the side to move.
    pub eval: Evaluation,
    /// `mcts` only: the move's win rate (its value maps from it, see [`crate::service::value`]).
    pub win_rate: Option<f64>,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// What a running search has found so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The deepest completed depth (plies; `mcts`: the tree's depth).
    pub depth: u32,
    /// Nodes of the whole search so far (never fewer than the last report's).
    pub nodes: u64,
    /// Time since the watch started.
    pub elapsed: Duration,
    /// The unit of the lines' scores (which fit maps them to values).
    pub scale: Scale,
    /// The best lines, best first (at least one; at most [`Watch::lines`]).
    pub lines: Vec<Line>,
    /// Every root move the search has valued so far, each with its own depth and bound
    /// (in the unit of `scale`); empty where the engine reports only its lines.
    pub moves: Vec<MoveEval>,
}

impl Progress {
    /// The report as an engine's answer on `position`: its best line is the chosen
    /// move; the lines, then the other moves the search valued, then every other cell a
    /// legal move targets, listed unsearched (ranked below them, no value), as a finished
    /// answer lists them; `complete` false. `None` without a line.
    pub fn analysis(&self, position: &Position) -> Option<Analysis> {
        let best = self.lines.first()?;
        let route = match self.scale {
            Scale::Perfect => Some(Route::Perfect),
            Scale::Pattern | Scale::Learned => Some(Route::PatternSearch),
            Scale::Minimax => Some(Route::Minimax),
            _ => None,
        };
        Some(Analysis {
            best: best.mv,
            evaluation: best.eval.clone(),
            moves: self.every_move(position),
            pv: best.pv.clone(),
            win_rates: self
                .lines
                .iter()
                .filter_map(|l| Some((l.mv, l.win_rate?)))
                .collect(),
            lines: if self.lines.len() > 1 {
                self.lines.iter().map(|l| l.pv.clone()).collect()
            } else {
                Vec::new()
            },
            stats: SearchStats {
                nodes: self.nodes,
                depth: self.depth,
                elapsed: self.elapsed,
                complete: false,
                exact: false,
                best_proven: false,
                path: route.map(|route| SearchPath {
                    route: Some(route),
                    notes: (self.scale == Scale::Learned)
                        .then_some(crate::core::path::Note::LearnedEvaluation)
                        .into_iter()
                        .collect(),
                }),
                threads: 1,
                parity_shift: 0.0,
            },
        })
    }

    /// The lines (at the depth and bound reported for their moves, else exact at the
    /// report's depth), the other valued moves best first, then every other cell a legal
    /// move targets, unsearched and ranked below them (as a finished answer lists them).
    fn every_move(&self, position: &Position) -> Vec<MoveEval> {
        // A line's move keeps the depth and bound the engine reported for it.
        let mut moves: Vec<MoveEval> = self
            .lines
            .iter()
            .map(
                |l| match self.moves.iter().find(|e| e.mv == l.mv && e.evaluated) {
                    Some(e) => MoveEval {
                        eval: l.eval.clone(),
                        ..e.clone()
                    },
                    None => MoveEval::searched(l.mv, l.eval.clone(), self.depth),
                },
            )
            .collect();
        let mut valued: Vec<MoveEval> = self
            .moves
            .iter()
            .filter(|e| e.evaluated && moves.iter().all(|m| m.mv != e.mv))
            .cloned()
            .collect();
        valued.sort_by(|a, b| b.eval.score.total_cmp(&a.eval.score));
        moves.extend(valued);
        super::types::score_every_cell(position, &mut moves);
        moves
    }
}

type Observer = Box<dyn Fn(&Progress) + Send + Sync>;

/// What a caller watches of a running search (see the module docs).
pub struct Watch {
    stop: AtomicBool,
    observer: Option<Observer>,
    /// Keep the last report even without an observer (an anytime answer).
    keep: bool,
    lines: usize,
    /// Whether the caller shows every cell's value ([`Watch::showing_cells`]).
    every_cell: bool,
    start: Instant,
    /// The most nodes any report or heartbeat counted: [`Watch::nodes`].
    nodes: AtomicU64,
    /// The last report and when it was sent.
    last: Mutex<Option<(Instant, Progress)>>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("stopped", &self.stopped())
            .field("observed", &self.observer.is_some())
            .field("lines", &self.lines)
            .field("every_cell", &self.every_cell)
            .finish()
    }
}

impl Watch {
    /// A watch asking for `lines` best lines (clamped to 1..=[`MAX_LINES`]), with no observer.
    pub fn new(lines: usize) -> Watch {
        Watch {
            stop: AtomicBool::new(false),
            observer: None,
            keep: false,
            lines: lines.clamp(1, MAX_LINES),
            every_cell: true,
            start: Instant::now(),
            nodes: AtomicU64::new(0),
            last: Mutex::new(None),
        }
    }

    /// The same watch, handing every report to `observer` (on the search's thread).
    pub fn observed(mut self, observer: impl Fn(&Progress) + Send + Sync + 'static) -> Watch {
        self.observer = Some(Box::new(observer));
        self
    }

    /// The same watch, asking the search for its reports (each completed iteration)
    /// and keeping the last one, observed or not: see [`Watch::last`].
    pub fn anytime(mut self) -> Watch {
        self.keep = true;
        self
    }

    /// The same watch, saying whether the caller shows every cell's value. One that
    /// shows only the chosen move and its value (an answer trimmed by `include` to
    /// neither `scores` nor `moves`) passes false: the search then keeps no share of its
    /// budget for valuing the other cells.
    pub fn showing_cells(mut self, shown: bool) -> Watch {
        self.every_cell = shown;
        self
    }

    /// Whether the caller shows every cell's value ([`Watch::showing_cells`]; true by
    /// default).
    pub fn every_cell(&self) -> bool {
        self.every_cell
    }

    /// The last report of the search: its last completed iteration (`None` before
    /// the first one, or when the watch neither is observed nor keeps reports).
    pub fn last(&self) -> Option<Progress> {
        let last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        last.as_ref().map(|(_, p)| p.clone())
    }

    /// How many best lines the search reports.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Asks the search to stop as soon as it polls its budget.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once [`Watch::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True when progress is wanted at all (observed, or kept for an anytime answer).
    pub fn observing(&self) -> bool {
        self.observer.is_some() || self.keep
    }

    /// Time since the watch started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Nodes of the whole search so far, as far as its reports and heartbeats have told
    /// (they come every 256 nodes of the searching thread): a caller's own clock can show
    /// that the search goes on, also before its first report.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// True when the last report is [`REPORT_EVERY`] old (or there was none yet).
    pub fn due(&self) -> bool {
        self.observing()
            && self
                .last
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .is_none_or(|(at, _)| at.elapsed() >= REPORT_EVERY)
    }

    /// Hands `progress` to the observer and keeps it as the last report (reports
    /// without a line are dropped).
    pub fn report(&self, progress: Progress) {
        if !self.observing() || progress.lines.is_empty() {
            return;
        }
        self.nodes.fetch_max(progress.nodes, Ordering::Relaxed);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        // Nodes never go back (a heartbeat from a part of the search whose nodes are
        // charged to its parent only when it ends may have shown them already).
        let mut progress = progress;
        if let Some((_, before)) = last.as_ref() {
            progress.nodes = progress.nodes.max(before.nodes);
        }
        if let Some(observer) = &self.observer {
            observer(&progress);
        }
        *last = Some((Instant::now(), progress));
    }

    /// Repeats the last report with `nodes` and the time now, when it is
    /// [`REPORT_EVERY`] old: a long iteration still shows that the search goes on.
    pub fn heartbeat(&self, nodes: u64) {
        self.nodes.fetch_max(nodes, Ordering::Relaxed);
        let Some(observer) = &self.observer else {
            return;
        };
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, progress)) = last.as_mut() {
            if at.elapsed() >= REPORT_EVERY {
                progress.nodes = progress.nodes.max(nodes);
                progress.elapsed = self.start.elapsed();
                observer(progress);
                *at = Instant::now();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Outcome;
    use std::sync::Arc;

    fn progress(depth: u32) -> Progress {
        Progress {
            depth,
            nodes: 10,
            elapsed: Duration::ZERO,
            scale: Scale::Minimax,
            lines: vec![Line {
                mv: Move::mark(4),
                eval: Evaluation {
                    score: 1.0,
                    outcome: Outcome::Unknown,
                    plies: None,
                },
                win_rate: None,
                pv: vec![Move::mark(4)],
            }],
            moves: Vec::new(),
        }
    }

    fn unknown(score: f64) -> Evaluation {
        Evaluation {
            score,
            outcome: Outcome::Unknown,
            plies: None,
        }
    }

    /// A late answer lists every legal move as a finished one does: the line first, the
    /// other move the iteration valued with its own depth and bound, then the rest
    /// unsearched below them (a page shows them as having no value, not as missing).
    #[test]
    fn a_late_answer_lists_every_legal_move() {
        let mut p = Position::empty(&kinrow_game::Rules::mnk(3, 3, 3).unwrap());
        p.play(Move::mark(0));
        let bounded = MoveEval {
            bound: crate::core::types::Bound::Upper,
            ..MoveEval::searched(Move::mark(8), unknown(-2.0), 2)
        };
        let report = Progress {
            moves: vec![
                MoveEval::searched(Move::mark(4), unknown(1.0), 3),
                bounded.clone(),
            ],
            ..progress(3)
        };
        let a = report.analysis(&p).unwrap();
        assert_eq!(a.best, Move::mark(4));
        assert_eq!(a.moves.len(), 8, "every empty cell: {:?}", a.moves);
        assert_eq!(
            a.moves[0],
            MoveEval::searched(Move::mark(4), unknown(1.0), 3)
        );
        assert_eq!(
            a.moves[1], bounded,
            "the other valued move keeps its depth and bound"
        );
        assert!(a.moves[2..]
            .iter()
            .all(|e| !e.evaluated && e.eval.score < -2.0));
        assert!(
            a.moves.iter().all(|e| e.mv != Move::mark(0)),
            "never an occupied cell"
        );
    }

    /// A line whose distance the engine reported only as a bound (a `perfect` win not
    /// pinned) keeps that bound and depth in a late answer, never shown as exact.
    #[test]
    fn a_late_answers_line_keeps_its_reported_bound() {
        let p = Position::empty(&kinrow_game::Rules::mnk(3, 3, 3).unwrap());
        let won = MoveEval {
            bound: crate::core::types::Bound::Lower,
            ..MoveEval::searched(Move::mark(4), unknown(1.0), 7)
        };
        let report = Progress {
            moves: vec![won.clone()],
            ..progress(3)
        };
        let a = report.analysis(&p).unwrap();
        assert_eq!(a.moves[0], won);
    }

    #[test]
    fn reports_reach_the_observer_and_a_heartbeat_waits_for_its_interval() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let watch = Watch::new(3).observed(move |p: &Progress| sink.lock().unwrap().push(p.nodes));
        assert!(watch.due());
        watch.heartbeat(5); // nothing reported yet: nothing to repeat
        assert_eq!(watch.nodes(), 5, "but the nodes are known");
        watch.report(progress(1));
        assert!(!watch.due());
        watch.heartbeat(50); // too soon
        assert_eq!(*seen.lock().unwrap(), vec![10]);
        *watch.last.lock().unwrap() = Some((Instant::now() - REPORT_EVERY, progress(1)));
        watch.heartbeat(50);
        assert_eq!(*seen.lock().unwrap(), vec![10, 50]);
        watch.heartbeat(40); // nodes never go back
        assert_eq!(watch.nodes(), 50);
    }

    #[test]
    fn lines_are_clamped_and_stop_is_sticky() {
        assert_eq!(Watch::new(0).lines(), 1);
        assert_eq!(Watch::new(99).lines(), MAX_LINES);
        let w = Watch::new(1);
        assert!(!w.stopped() && !w.observing());
        w.stop();
        assert!(w.stopped());
    }
}
