//! The top floor of the engines: the one registry. Every engine kinrow offers is a
//! variant of [`EngineKind`] with one row in each table below (its name, what it does,
//! the unit of its scores, the request fields it reads, how to build it); the server's
//! `/v1/engines`, the OpenAPI enum, the CLI and the tests that run every engine all
//! iterate [`EngineKind::ALL`]. Adding an engine is its folder plus its rows here.

use super::types::Engine;
use super::{auto, greedy, mcts, minimax, perfect, priority, threat};

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
    /// Every parameter, in the order of the API's `engine` object.
    pub const ALL: &'static [Parameter] = &[
        Parameter::Level,
        Parameter::Depth,
        Parameter::TimeMs,
        Parameter::Nodes,
        Parameter::MistakeProbability,
        Parameter::Seed,
        Parameter::Multipv,
        Parameter::Threads,
    ];

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

    /// The parameters of the API's `engine` object that this engine does not read and
    /// that a request may still give: they are accepted and ignored (so that a client
    /// can send one engine object to every engine). `mistake_probability` is not among
    /// them: above 0 it is refused by an engine that cannot honour it.
    pub fn ignored(self) -> Vec<Parameter> {
        Parameter::ALL
            .iter()
            .copied()
            .filter(|p| *p != Parameter::MistakeProbability && !self.parameters().contains(p))
            .collect()
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
