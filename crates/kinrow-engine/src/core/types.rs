//! The ground floor of the engines: the types every engine shares (the [`Limits`] of a
//! search, the [`Analysis`] it answers, the [`Scale`] of its scores) and the root
//! ordering helpers. It imports nothing of the engines but the [`SearchPath`] type.

use std::time::Duration;

use rand::rngs::StdRng;

use super::path::SearchPath;
use kinrow_game::{Move, Piece, Position};

/// The most threads one search runs on: [`Limits::threads`] is cut to it.
pub const MAX_THREADS: usize = 64;

/// The number of cores of this machine (at least 1): the default of the threads a
/// caller runs searches on.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// How much work a search may do. Every engine checks these and reports what it used.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock budget for the whole analysis.
    pub time: Duration,
    /// Maximum search depth in plies, for the engines that search a tree.
    pub depth: Option<u32>,
    /// Maximum number of nodes (positions visited, or playouts for `mcts`).
    pub nodes: Option<u64>,
    /// `perfect` only: probability of overlooking each branch at every node.
    pub mistake_probability: f64,
    /// Threads of `auto`'s pattern search (1 to [`MAX_THREADS`]; the other engines and
    /// paths run on one).
    pub threads: usize,
    /// The time the search aims to answer by, within `time` (the time manager of a
    /// player on a match clock, [`super::timeman`]): once past it, `auto`'s pattern search stops after an
    /// iteration that left its best move where it was; an iteration that changed it,
    /// or a position under threat, may go on to `time`. `None`: the search uses `time`.
    pub target: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_millis(1000),
            depth: None,
            nodes: None,
            mistake_probability: 0.0,
            threads: 1,
            target: None,
        }
    }
}

impl Limits {
    /// Limits with only a time budget.
    pub fn with_time(time: Duration) -> Limits {
        Limits {
            time,
            ..Limits::default()
        }
    }
}

/// The proven result of a move or position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins with best play.
    Win,
    /// Best play draws.
    Draw,
    /// The side to move loses against best play.
    Loss,
    /// Not proven: the budget ran out, the engine does not prove, or (for `perfect`
    /// with a mistake probability) the branch was overlooked.
    Unknown,
}

impl Outcome {
    /// The API name: `win`, `draw`, `loss`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
            Outcome::Unknown => "unknown",
        }
    }
}

/// The `priority` engine's action for a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play an own mark.
    Basic,
    /// Disturb the opponent: a block if held, else a mark.
    Prevent,
    /// Remove or bomb an opponent piece.
    Destroy,
}

impl Action {
    /// The API name: `basic`, `prevent`, `destroy`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Basic => "basic",
            Action::Prevent => "prevent",
            Action::Destroy => "destroy",
        }
    }
}

/// The value of a move (or of the position) for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Higher is better for the side to move; the unit is the engine's own
    /// ([`EngineKind::score_unit`]).
    pub score: f64,
    /// The proven result for the side to move, or `Unknown`.
    pub outcome: Outcome,
    /// Plies to the end of the game where the outcome is proven.
    pub plies: Option<u32>,
}

/// What a move's score is: its value at the depth it reports, or only a bound of it (a
/// move a principal-variation search refuted with a null window is known to be no better
/// than its score, not how much worse).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// The score is the move's value at its depth.
    #[default]
    Exact,
    /// The move's value at its depth is at most the score.
    Upper,
    /// The move's value at its depth is at least the score.
    Lower,
}

impl Bound {
    /// The API name: `upper` or `lower`; `None` for an exact value.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Bound::Exact => None,
            Bound::Upper => Some("upper"),
            Bound::Lower => Some("lower"),
        }
    }
}

/// One evaluated move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEval {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move.
    pub eval: Evaluation,
    /// Only the `priority` engine sets this.
    pub action: Option<Action>,
    /// False for a move the engine listed without searching it (ranked below every
    /// searched move by its move ordering only, or not at all): its score is no value.
    pub evaluated: bool,
    /// The plies the value was searched to, this move included (1: the move and the
    /// engine's checks after it); 0 for a move not evaluated.
    pub depth: u32,
    /// Whether the score is the value or only a bound of it.
    pub bound: Bound,
}

impl MoveEval {
    /// `mv` valued `eval` by a search `depth` plies deep (exact: no bound).
    pub fn searched(mv: Move, eval: Evaluation, depth: u32) -> MoveEval {
        MoveEval {
            mv,
            eval,
            action: None,
            evaluated: true,
            depth,
            bound: Bound::Exact,
        }
    }

    /// `mv` listed without a search: `eval.score` is only its rank.
    pub fn unsearched(mv: Move, eval: Evaluation) -> MoveEval {
        MoveEval {
            mv,
            eval,
            action: None,
            evaluated: false,
            depth: 0,
            bound: Bound::Exact,
        }
    }
}

/// Gives every cell that some legal move targets, and that no evaluated move does, an
/// entry: its first legal move, ranked below every evaluated move and unproven.
pub(crate) fn score_every_cell(position: &Position, moves: &mut Vec<MoveEval>) {
    let cells = position.cells().len();
    let mut covered = vec![false; cells];
    for e in moves.iter() {
        covered[e.mv.cell()] = true;
    }
    let floor = moves
        .iter()
        .map(|e| e.eval.score)
        .fold(f64::INFINITY, f64::min);
    let floor = if floor.is_finite() { floor } else { 0.0 };
    let mut rank = 0.0;
    for mv in position.legal_moves() {
        if !covered[mv.cell()] {
            covered[mv.cell()] = true;
            rank += 1.0;
            moves.push(MoveEval::unsearched(
                mv,
                Evaluation {
                    score: floor - rank,
                    outcome: Outcome::Unknown,
                    plies: None,
                },
            ));
        }
    }
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// Positions visited (playouts for `mcts`).
    pub nodes: u64,
    /// Deepest completed depth in plies (1 for one-ply engines).
    pub depth: u32,
    /// The wall-clock time the engine took.
    pub elapsed: Duration,
    /// True when the search finished rather than hit a limit.
    pub complete: bool,
    /// True when every move's outcome is proven exactly, a win with its fewest plies and
    /// a loss with its most (`perfect`'s complete solve on bit sets, without mistakes):
    /// no later check can prove more ([`crate::service::value::prove_wins_now`] skips it).
    pub exact: bool,
    /// True when the chosen move's outcome is proven and no other move can do better,
    /// though some are not settled (`perfect` under gravity, e.g. a proven draw where the
    /// opening book shows nothing wins): `auto` takes such a proof as it is.
    pub best_proven: bool,
    /// Which way the search went (`auto`'s route, what decided the root); shown as
    /// e.g. `"pattern search: threat-space defence"`.
    pub path: Option<SearchPath>,
    /// The threads the search ran on (more than 1 only where `auto`'s pattern search
    /// ran on several, [`Limits::threads`]).
    pub threads: u32,
    /// What was added to every unproven move's score so that the chosen move's reads
    /// as the mean of the search's last two completed iterations ([`Budget::parity_shift`]);
    /// 0 when nothing was averaged. The score of the last iteration alone is the
    /// evaluation's less this.
    pub parity_shift: f64,
}

impl Default for SearchStats {
    fn default() -> SearchStats {
        SearchStats {
            nodes: 0,
            depth: 0,
            elapsed: Duration::ZERO,
            complete: false,
            exact: false,
            best_proven: false,
            path: None,
            threads: 1,
            parity_shift: 0.0,
        }
    }
}

/// An engine's answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The chosen move.
    pub best: Move,
    /// The value of the position for the side to move (that of the chosen move).
    pub evaluation: Evaluation,
    /// Every evaluated move, best first. Every cell that some legal move targets is
    /// the target of at least one entry.
    pub moves: Vec<MoveEval>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// `mcts` only: each root move's win rate for the side to move (1 a win, ½ a draw,
    /// 0 a loss) over its playouts, which its `value` maps from ([`value`]); empty for
    /// the other engines.
    pub win_rates: Vec<(Move, f64)>,
    /// With more than one line asked for (`multipv`, [`Budget::lines`]): the principal
    /// variation of each of the best moves, each starting with its move, best first;
    /// empty otherwise.
    pub lines: Vec<Vec<Move>>,
    /// What the search did.
    pub stats: SearchStats,
}

impl Analysis {
    /// The board-shaped grid of scores: for every cell, the best score of any
    /// evaluated move that targets it, `None` where none does. Row-major, `m` columns.
    pub fn score_grid(&self, m: usize, n: usize) -> Vec<Vec<Option<f64>>> {
        let mut grid = vec![vec![None; m]; n];
        for e in &self.moves {
            let c = e.mv.coord(m);
            let slot: &mut Option<f64> = &mut grid[c.row][c.col];
            if slot.is_none_or(|s| e.eval.score > s) {
                *slot = Some(e.eval.score);
            }
        }
        grid
    }
}

/// Sorts `moves` best first: by score, then by piece (marks before special pieces)
/// and cell, so the order is deterministic.
pub fn sort_best_first(moves: &mut [MoveEval]) {
    moves.sort_by(|a, b| {
        b.eval
            .score
            .total_cmp(&a.eval.score)
            .then(piece_rank(a.mv.piece).cmp(&piece_rank(b.mv.piece)))
            .then(a.mv.cell.cmp(&b.mv.cell))
    });
}

/// Sorts `moves` best first ([`sort_best_first`]) and moves one of the moves that share
/// the top score, drawn from `rng`, to the front: equal moves vary with the seed, and
/// the same seed gives the same choice. Only exact scores may tie at the top: a bound
/// that merely equals the best must be kept below it by the caller.
pub fn pick_among_best(moves: &mut [MoveEval], rng: &mut StdRng) {
    sort_best_first(moves);
    let Some(top) = moves.first().map(|e| e.eval.score) else {
        return;
    };
    let ties = moves.iter().take_while(|e| e.eval.score == top).count();
    let pick = if ties > 1 {
        rand::RngExt::random_range(rng, 0..ties)
    } else {
        0
    };
    moves[..=pick].rotate_right(1);
}

fn piece_rank(p: Piece) -> u8 {
    p as u8
}

/// Whose scale an answer's `raw` is on: the engine's own, or for `auto` the path it took.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scale {
    /// Outcomes in plies (`perfect`, and `auto` where it solved).
    Perfect,
    /// `auto`'s pattern search (threat-space search and the pattern alpha-beta) over
    /// the window count.
    Pattern,
    /// `auto`'s pattern search over the learned evaluation (gomoku): its score is in
    /// thousandths of a logit of the expected result, so it maps without a fit.
    Learned,
    /// `minimax`'s line potentials.
    Minimax,
    /// `mcts`'s win rates.
    Mcts,
    /// `threat`'s threat scores.
    Threat,
    /// `priority`'s action scores.
    Priority,
    /// `greedy`'s one-ply scores.
    Greedy,
    /// An external brain's printed eval: its value comes through the brain's own unit
    /// (`crate::external::spec::BrainSpec::value`), not a fit.
    External,
}

impl Scale {
    /// The scale's name in tables and reports.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Perfect => "perfect",
            Scale::Pattern => "pattern search",
            Scale::Learned => "pattern search (learned evaluation)",
            Scale::Minimax => "minimax",
            Scale::Mcts => "mcts",
            Scale::Threat => "threat",
            Scale::Priority => "priority",
            Scale::Greedy => "greedy",
            Scale::External => "external brain",
        }
    }
}
