//! The move-suggesting AIs. Every engine implements [`Engine`]: given a position that
//! is still in progress, limits and a seeded RNG, it returns an [`Analysis`] with the
//! chosen move, every evaluated move with its score (and outcome where proven), the
//! principal variation and search statistics.
//!
//! What every engine shares:
//! - [`budget`]: the one [`Budget`] (time and nodes) a search runs on; a search's phases
//!   take child shares of it that add up, so `nodes` is a total and `stats.nodes` is
//!   what was searched;
//! - [`context`]: the [`SearchContext`] the caller owns and passes in, holding what
//!   engines keep between searches (no `thread_local!`), and the server's [`ContextPool`];
//! - [`root`]: the one root driver that turns an engine's root results into the
//!   [`Analysis`] (every cell scored, order, seeded choice, PV, stats, the typed
//!   [`SearchPath`]), and the [`WinScale`]s of proven wins and losses.
//!
//! [`EngineKind`] is the one registry: the server's `/v1/engines`, the OpenAPI enum,
//! the CLI and the tests that run every engine all iterate [`EngineKind::ALL`].

pub mod auto;
pub mod board;
pub mod budget;
pub mod context;
pub mod eval;
pub mod greedy;
pub mod level;
pub mod mcts;
pub mod minimax;
pub mod patterns;
pub mod perfect;
pub mod priority;
pub mod progress;
pub mod review;
pub mod root;
pub mod tactics;
pub mod threat;
pub mod tss;
pub mod tt;
pub mod value;

use std::time::Duration;

use rand::rngs::StdRng;

use crate::game::{Move, Piece, Position};

pub use budget::Budget;
pub use context::{ContextPool, SearchContext};
pub use root::{Note, Route, SearchPath, WinScale};

/// The most threads one search runs on: [`Limits::threads`] is cut to it.
pub const MAX_THREADS: usize = 64;

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
    /// player on a match clock): once past it, `auto`'s pattern search stops after an
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
    Win,
    Draw,
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
    pub outcome: Outcome,
    /// Plies to the end of the game where the outcome is proven.
    pub plies: Option<u32>,
}

/// One evaluated move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEval {
    pub mv: Move,
    pub eval: Evaluation,
    /// Only the `priority` engine sets this.
    pub action: Option<Action>,
    /// False for a move the engine listed without searching it (ranked below every
    /// searched move by its move ordering only, or not at all): its score is no value.
    pub evaluated: bool,
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// Positions visited (playouts for `mcts`).
    pub nodes: u64,
    /// Deepest completed depth in plies (1 for one-ply engines).
    pub depth: u32,
    pub elapsed: Duration,
    /// True when the search finished rather than hit a limit.
    pub complete: bool,
    /// Which way the search went (`auto`'s route, what decided the root); shown as
    /// e.g. `"pattern search: threat-space defence"`.
    pub path: Option<SearchPath>,
    /// The threads the search ran on (more than 1 only where `auto`'s pattern search
    /// ran on several, [`Limits::threads`]).
    pub threads: u32,
}

impl Default for SearchStats {
    fn default() -> SearchStats {
        SearchStats {
            nodes: 0,
            depth: 0,
            elapsed: Duration::ZERO,
            complete: false,
            path: None,
            threads: 1,
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

/// A move-suggesting AI.
pub trait Engine: Send + Sync {
    /// Analyses `position`, which must be in progress (`!position.is_over()`), within
    /// `budget` (its time and nodes; `limits` gives the rest: depth, mistakes), counting
    /// every node it visits in `budget.nodes`, keeping what it keeps between calls in
    /// `ctx`, and drawing any randomness from `rng` so that the same seed gives the same
    /// answer. A composite engine hands its parts shares of `budget`.
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis;

    /// [`Engine::analyze_in`] with a budget of `limits` and the state kept in `ctx`.
    fn analyze_with(
        &self,
        position: &Position,
        limits: &Limits,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        self.analyze_in(position, limits, &mut Budget::new(limits), ctx, rng)
    }

    /// [`Engine::analyze_with`] a new context: nothing kept from earlier searches.
    fn analyze(&self, position: &Position, limits: &Limits, rng: &mut StdRng) -> Analysis {
        self.analyze_with(position, limits, &mut SearchContext::new(), rng)
    }
}

/// Every engine kinrow offers: the one registry.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// The default: `perfect` when the position is provable within the budget, else
    /// `minimax` with threat-space search at its root.
    Auto,
    /// Every piece on every target, one ply, scored by the window potential.
    Greedy,
    Perfect,
    Minimax,
    /// Weighs every cell by the attacks (runs of marks) a mark there makes and spoils.
    Threat,
    /// Pattern rules give every cell a priority and an action (basic, prevent, destroy).
    Priority,
    /// Monte Carlo tree search (PUCT with a window prior, solver, tactical playouts).
    Mcts,
}

/// A search parameter of the API's `engine` object that an engine reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Parameter {
    TimeMs,
    Depth,
    Nodes,
    MistakeProbability,
    Seed,
    /// The difficulty, 1..=10 ([`level`]).
    Level,
    /// How many best moves come with their own line ([`progress`]).
    Multipv,
    /// Threads of `auto`'s pattern search ([`Limits::threads`]).
    Threads,
}

impl Parameter {
    /// The field name in the API's `engine` object.
    pub fn as_str(self) -> &'static str {
        match self {
            Parameter::TimeMs => "time_ms",
            Parameter::Depth => "depth",
            Parameter::Nodes => "nodes",
            Parameter::MistakeProbability => "mistake_probability",
            Parameter::Seed => "seed",
            Parameter::Level => "level",
            Parameter::Multipv => "multipv",
            Parameter::Threads => "threads",
        }
    }
}

impl EngineKind {
    /// Every engine, the default first.
    pub const ALL: &'static [EngineKind] = &[
        EngineKind::Auto,
        EngineKind::Perfect,
        EngineKind::Minimax,
        EngineKind::Mcts,
        EngineKind::Threat,
        EngineKind::Priority,
        EngineKind::Greedy,
    ];

    /// The engine's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Auto => "auto",
            EngineKind::Greedy => "greedy",
            EngineKind::Perfect => "perfect",
            EngineKind::Minimax => "minimax",
            EngineKind::Threat => "threat",
            EngineKind::Priority => "priority",
            EngineKind::Mcts => "mcts",
        }
    }

    /// Finds an engine by its API name.
    pub fn parse(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// One sentence on what the engine does.
    pub fn description(self) -> &'static str {
        match self {
            EngineKind::Auto => "The strongest choice for the position: proves it with perfect when that fits the budget (small boards, late positions); otherwise, for k >= 4 without special pieces, threat-space search at the root (forced wins by continuous fours and threats played, the opponent's stopped) and a pattern alpha-beta (PVS over k-window counts, moves by threat class, VCF at the leaves, TT, killers, history); else minimax. Never misses a win now or an immediate loss it can stop.",
            EngineKind::Greedy => "Tries every piece in hand on every legal target one ply deep and plays the one that most raises its own line potential and lowers the opponent's; no lookahead beyond an immediate win or loss.",
            EngineKind::Perfect => "Exhaustive game-tree search: every move gets win, draw or loss (unknown where the budget ran out) with the plies to the end; the fastest win, the slowest loss, random among equals; mistake_probability makes it overlook branches.",
            EngineKind::Minimax => "Depth-limited alpha-beta with iterative deepening over the open-window potential, with a transposition table and symmetry reduction.",
            EngineKind::Threat => "Weighs every cell by the runs of marks a mark there would make for itself and spoil for the opponent (a gomoku bot's attack table generalised to any k), with a bonus for double threats; one ply.",
            EngineKind::Priority => "Gives every cell a priority and an action by pattern rules (win 100, stop the opponent's win 95, destroy a mark held back by a clearable block 90, extend or stop a k-2 run 75/74, next to an own mark 50) and plays the best cell it holds the pieces for.",
            EngineKind::Mcts => "Monte Carlo tree search (PUCT with a k-window prior and a solver) within the budget; playouts take immediate wins and stop immediate losses",
        }
    }

    /// The unit of the engine's own score (`raw` in the API; `value` is the common scale).
    pub fn score_unit(self) -> &'static str {
        match self {
            EngineKind::Auto => "the unit of the path taken (stats.path): perfect's outcome score; pattern search: own minus opponent's window score (10^(marks-1) per open k-window), +-(1e15 - plies) for threat-space proofs; minimax's window potential",
            EngineKind::Greedy => "change of window potential (own gain plus the opponent's loss; a window with j own marks weighs 4^j); a win scores 100*k*4^k, a move that lets the opponent win at once loses that much",
            EngineKind::Perfect => "outcome: 10000 - plies for a win, 0 for a draw, -1 for unknown, -10000 + plies for a loss",
            EngineKind::Minimax => "window potential (own minus opponent's, 4^marks per open window) after the searched depth; 10^15 - plies for a forced win",
            EngineKind::Threat => "cell weight: summed attack weights for both players (an open k-1 run weighs 100; the mover's count 1.25 times), +100/+120 for a double threat, +300/+400 for one that cannot be answered, +1e5 on the opponent's winning cell, 1e9 for a win, minus 1e7 for a move that lets the opponent win at once",
            EngineKind::Priority => "rule priority: 100 win, 95 prevent the opponent's win, 90 destroy, 75 extend an own k-2 run, 74 prevent an opponent's, 50 next to an own mark, 0 any other empty cell, -1 none (an occupied cell only a held remove or bomb could target)",
            EngineKind::Mcts => "share of the root's playouts through the move (0..1); evaluation.raw is the chosen move's win rate (1 win, 0.5 draw, 0 loss); each move's value maps from its win rate, not its share",
        }
    }

    /// The parameters of the API's `engine` object that this engine reads.
    pub fn parameters(self) -> &'static [Parameter] {
        use Parameter::*;
        match self {
            EngineKind::Auto => &[TimeMs, Depth, Nodes, Seed, Level, Multipv, Threads],
            EngineKind::Minimax => &[TimeMs, Depth, Nodes, Seed, Level, Multipv],
            EngineKind::Perfect => &[TimeMs, Nodes, MistakeProbability, Seed, Level, Multipv],
            EngineKind::Mcts => &[TimeMs, Nodes, Seed, Level, Multipv],
            EngineKind::Threat | EngineKind::Priority | EngineKind::Greedy => {
                &[MistakeProbability, Seed, Level, Multipv]
            }
        }
    }

    /// Builds the engine.
    pub fn build(self) -> Box<dyn Engine> {
        match self {
            EngineKind::Auto => Box::new(auto::Auto),
            EngineKind::Greedy => Box::new(greedy::Greedy),
            EngineKind::Perfect => Box::new(perfect::Perfect),
            EngineKind::Minimax => Box::new(minimax::Minimax),
            EngineKind::Threat => Box::new(threat::Threat),
            EngineKind::Priority => Box::new(priority::Priority),
            EngineKind::Mcts => Box::new(mcts::Mcts::default()),
        }
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
