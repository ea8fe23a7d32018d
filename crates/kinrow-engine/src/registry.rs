//! The top floor of the engines: the one registry. Every engine kinrow offers is a
//! variant of [`EngineKind`] with one [`Row`] in [`ROWS`]: its name, what it does, the
//! unit and [`Scale`] of its scores, the request fields it reads, what a level's node cap
//! and the server's lanes need to know of its cost, and how to build it. The server's
//! `/v1/engines`, the OpenAPI enum, the levels, the value scale, the CLI and the tests
//! that run every engine all read the rows. Adding an engine is its folder plus its
//! variant and its row here.

use crate::core::analyze::Engine;
use crate::core::types::{Analysis, Scale};
use crate::search::pro::ProRoot;
use crate::search::{auto, greedy, mcts, minimax, perfect, priority, threat};
use Parameter::*;

/// Every engine kinrow offers, in the order of [`ROWS`] (the default first).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// The default: `perfect` when the position is provable within the budget, else
    /// the pattern search (or `minimax`) with threat-space search at its root.
    Auto,
    /// Exhaustive game-tree search.
    Perfect,
    /// Alpha-beta over the window potential.
    Minimax,
    /// Monte Carlo tree search (PUCT with a window prior, solver, tactical playouts).
    Mcts,
    /// Weighs every cell by the attacks (runs of marks) a mark there makes and spoils.
    Threat,
    /// Pattern rules give every cell a priority and an action (basic, prevent, destroy).
    Priority,
    /// Every piece on every target, one ply, scored by the window potential.
    Greedy,
}

/// What an engine's search costs, for the server's lanes (`crates/kinrow-server/src/api/pool.rs`): which
/// searches are cheap enough to run on the HTTP worker.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cost {
    /// A tree search: cheap on a nearly full board without special pieces.
    Tree,
    /// A search that spends its budget whatever the board (playouts): never cheap.
    Playouts,
    /// One ply over every cell: cheap up to a board size, which special pieces in hand
    /// divide by `special` (each piece is tried on every target).
    OnePly {
        /// The divisor of the cheap board size when special pieces are in hand.
        special: usize,
    },
}

/// One engine's row: everything the rest of the house needs to know of it.
pub struct Row {
    /// The engine.
    pub kind: EngineKind,
    /// Its name in the API.
    pub name: &'static str,
    /// One sentence on what it does.
    pub description: &'static str,
    /// The unit of its own score (`raw` in the API; `value` is the common scale).
    pub score_unit: &'static str,
    /// The parameters of the API's `engine` object that it reads.
    pub parameters: &'static [Parameter],
    /// A conservative node rate (about half of what `kinrow bench` measures on 15x15x5
    /// and 9x9x5 on one core): a level's node cap is this times the time budget. `None`
    /// for the engines whose strength does not count nodes.
    pub nodes_per_second: Option<f64>,
    /// Every branch is a root move: it looks one ply.
    pub one_ply: bool,
    /// It honours `mistake_probability` (`perfect` inside its search, the one-ply
    /// engines at the root); the others refuse it rather than ignore it.
    pub mistakes: bool,
    /// What its search costs, for the server's lanes.
    pub cost: Cost,
    /// The scale of an answer's `raw`.
    pub scale: fn(&Analysis) -> Scale,
    /// Builds the engine.
    pub build: fn() -> Box<dyn Engine>,
}

/// The one table of engines, in the order of [`EngineKind`]'s variants.
pub const ROWS: &[Row] = &[
    Row {
        kind: EngineKind::Auto,
        name: "auto",
        description: "The strongest choice for the position: proves it with perfect when that fits the budget (small boards, late positions); otherwise, for k >= 4 without special pieces, threat-space search at the root (forced wins by continuous fours and threats played, the opponent's stopped) and a pattern alpha-beta (PVS over k-window counts, moves by threat class, VCF at the leaves, TT, killers, history); else minimax. Never misses a win now or an immediate loss it can stop.",
        score_unit: "the unit of the path taken (stats.path): perfect's outcome score; pattern search: own minus opponent's window score (10^(marks-1) per open k-window), +-(1e15 - plies) for threat-space proofs; minimax's window potential",
        parameters: &[TimeMs, Depth, Nodes, Seed, Level, Multipv, Threads],
        nodes_per_second: Some(400_000.0),
        one_ply: false,
        mistakes: false,
        cost: Cost::Tree,
        scale: auto::scale,
        build: || Box::new(auto::Auto),
    },
    Row {
        kind: EngineKind::Perfect,
        name: "perfect",
        description: "Exhaustive game-tree search: every move gets win, draw or loss (unknown where the budget ran out) with the plies to the end; the fastest win, the slowest loss, random among equals; mistake_probability makes it overlook branches.",
        score_unit: "outcome: 10000 - plies for a win, 0 for a draw, -1 for unknown, -10000 + plies for a loss",
        parameters: &[TimeMs, Nodes, MistakeProbability, Seed, Level, Multipv],
        nodes_per_second: Some(400_000.0),
        one_ply: false,
        mistakes: true,
        cost: Cost::Tree,
        scale: |_| Scale::Perfect,
        build: || Box::new(perfect::Perfect),
    },
    Row {
        kind: EngineKind::Minimax,
        name: "minimax",
        description: "Depth-limited alpha-beta with iterative deepening over the open-window potential, with a transposition table and symmetry reduction.",
        score_unit: "window potential (own minus opponent's, 4^marks per open window) after the searched depth; 10^15 - plies for a forced win",
        parameters: &[TimeMs, Depth, Nodes, Seed, Level, Multipv],
        nodes_per_second: Some(1_000_000.0),
        one_ply: false,
        mistakes: false,
        cost: Cost::Tree,
        scale: |_| Scale::Minimax,
        build: || Box::new(minimax::Minimax),
    },
    Row {
        kind: EngineKind::Mcts,
        name: "mcts",
        description: "Monte Carlo tree search (PUCT with a k-window prior and a solver) within the budget; playouts take immediate wins and stop immediate losses",
        score_unit: "share of the root's playouts through the move (0..1); evaluation.raw is the chosen move's win rate (1 win, 0.5 draw, 0 loss); each move's value maps from its win rate, not its share",
        parameters: &[TimeMs, Nodes, Seed, Level, Multipv],
        nodes_per_second: Some(50_000.0),
        one_ply: false,
        mistakes: false,
        cost: Cost::Playouts,
        scale: |_| Scale::Mcts,
        build: || Box::new(mcts::Mcts::default()),
    },
    Row {
        kind: EngineKind::Threat,
        name: "threat",
        description: "Weighs every cell by the runs of marks a mark there would make for itself and spoil for the opponent (a gomoku bot's attack table generalised to any k), with a bonus for double threats; one ply.",
        score_unit: "cell weight: summed attack weights for both players (an open k-1 run weighs 100; the mover's count 1.25 times), +100/+120 for a double threat, +300/+400 for one that cannot be answered, +1e5 on the opponent's winning cell, 1e9 for a win, minus 1e7 for a move that lets the opponent win at once",
        parameters: &[MistakeProbability, Seed, Level, Multipv],
        nodes_per_second: None,
        one_ply: true,
        mistakes: true,
        cost: Cost::OnePly { special: 1 },
        scale: |_| Scale::Threat,
        build: || Box::new(threat::Threat),
    },
    Row {
        kind: EngineKind::Priority,
        name: "priority",
        description: "Gives every cell a priority and an action by pattern rules (win 100, stop the opponent's win 95, destroy a mark held back by a clearable block 90, extend or stop a k-2 run 75/74, next to an own mark 50) and plays the best cell it holds the pieces for.",
        score_unit: "rule priority: 100 win, 95 prevent the opponent's win, 90 destroy, 75 extend an own k-2 run, 74 prevent an opponent's, 50 next to an own mark, 0 any other empty cell, -1 none (an occupied cell only a held remove or bomb could target)",
        parameters: &[MistakeProbability, Seed, Level, Multipv],
        nodes_per_second: None,
        one_ply: true,
        mistakes: true,
        cost: Cost::OnePly { special: 1 },
        scale: |_| Scale::Priority,
        build: || Box::new(priority::Priority),
    },
    Row {
        kind: EngineKind::Greedy,
        name: "greedy",
        description: "Tries every piece in hand on every legal target one ply deep and plays the one that most raises its own line potential and lowers the opponent's; no lookahead beyond an immediate win or loss.",
        score_unit: "change of window potential (own gain plus the opponent's loss; a window with j own marks weighs 4^j); a win scores 100*k*4^k, a move that lets the opponent win at once loses that much",
        parameters: &[MistakeProbability, Seed, Level, Multipv],
        nodes_per_second: None,
        one_ply: true,
        mistakes: true,
        cost: Cost::OnePly { special: 4 },
        scale: |_| Scale::Greedy,
        build: || Box::new(greedy::Greedy),
    },
];

/// A search parameter of the API's `engine` object that an engine reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Parameter {
    /// `time_ms`: the time budget.
    TimeMs,
    /// `depth`: the depth limit in plies.
    Depth,
    /// `nodes`: the node limit.
    Nodes,
    /// `mistake_probability`: the chance to overlook each move weighed.
    MistakeProbability,
    /// `seed`: the seed of the engine's random choices.
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

    /// The engine's row in [`ROWS`].
    pub fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// The engine's name in the API.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Finds an engine by its API name.
    pub fn parse(name: &str) -> Option<EngineKind> {
        ROWS.iter().find(|r| r.name == name).map(|r| r.kind)
    }

    /// One sentence on what the engine does.
    pub fn description(self) -> &'static str {
        self.row().description
    }

    /// The unit of the engine's own score (`raw` in the API; `value` is the common scale).
    pub fn score_unit(self) -> &'static str {
        self.row().score_unit
    }

    /// The parameters of the API's `engine` object that this engine reads.
    pub fn parameters(self) -> &'static [Parameter] {
        self.row().parameters
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

    /// Builds the engine, wrapped so that it honours the pro and long pro opening rules
    /// at its root ([`ProRoot`]).
    pub fn build(self) -> Box<dyn Engine> {
        let searches = matches!(
            self,
            EngineKind::Auto | EngineKind::Minimax | EngineKind::Mcts
        );
        Box::new(ProRoot::new(
            searches,
            self.row().scale,
            (self.row().build)(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row sits at its variant's index, and every engine has one.
    #[test]
    fn the_rows_follow_the_variants() {
        assert_eq!(ROWS.len(), EngineKind::ALL.len());
        for (i, row) in ROWS.iter().enumerate() {
            assert_eq!(row.kind as usize, i, "{}", row.name);
            assert_eq!(EngineKind::ALL[i], row.kind);
            assert_eq!(EngineKind::parse(row.name), Some(row.kind));
            assert_eq!(row.mistakes, row.one_ply || row.kind == EngineKind::Perfect);
        }
    }
}
