//! `mcts`: Monte Carlo tree search with a heuristic prior (PUCT) and a solver.
//!
//! Every iteration walks down the tree from the root, at each node picking the child
//! with the best `Q + c * P * sqrt(N) / (1 + n)` (`Q` its win rate, `P` its prior from the
//! k-windows its cell advances and spoils, `N` and `n` the visit counts), expands the node
//! it ends on (from its second visit) and scores the leaf with a playout, crediting the
//! result to every node on the way. A playout first takes an immediate win and stops an
//! immediate loss (for both sides, as long as there is one); on boards of up to 64
//! cells it then plays random moves to the end, on larger boards it stops there and
//! scores the position with a logistic of the window-potential difference (measured in
//! the arena: random playouts to the end were clearly weaker there).
//!
//! A node whose side to move can win at once gets that move as its only child; one
//! whose opponent threatens to win at once gets only the moves that can stop it
//! (marks and blocks on the threatened cells, removes, bombs). Proven results (a win,
//! a draw, a loss) travel up the tree as in MCTS-solver, so short forced wins are
//! found and reported with their length. On boards of more than 64 cells the tree
//! only considers cells within two of a piece; a result that rests on that
//! restriction is not reported as proven.
//!
//! Special pieces: the tree tries every block (on the candidate cells), remove and bomb
//! the side to move holds; playouts use marks only, and a playout that fills the board
//! counts as a draw.
//!
//! Reported numbers: each move's `score` is its share of the root's playouts (the
//! `scores` grid is the visit share); the analysis' `evaluation.score` is the chosen
//! move's win rate (1 a win, 0.5 a draw, 0 a loss, averaged over its playouts).
//! [`Mcts::search`] gives every root move's visits and win rate.
//!
//! Memory: the tree is one array of nodes that stops growing at [`MAX_TREE_BYTES`]
//! (playouts go on from its leaves), grown by doubling up to that cap and never past it,
//! so that one search holds at most that much (and half again while the array moves).

mod lines;
mod shape;
mod sim;
mod tree;

use rand::rngs::StdRng;
use rand::Rng;

use self::shape::FastRng;
use self::sim::Sim;
use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::root;
use crate::core::root::{Choice, RootResults};
use crate::core::types::Scale;
use crate::core::types::{Analysis, Bound, Evaluation, Limits, MoveEval, Outcome};
use kinrow_game::{Move, Piece, Position};

/// The proven value of a node for the player who made its move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Draw,
    Loss,
}

#[derive(Clone, Debug)]
struct Node {
    mv: Move,
    first_child: u32,
    n_children: u32,
    visits: u32,
    /// Sum of results for the player who made `mv` (1 win, 0.5 draw, 0 loss).
    value: f32,
    prior: f32,
    proof: Proof,
    /// The proof rests on a move list restricted to cells near pieces.
    soft: bool,
    /// Plies from the parent position to the end of the game, where proven.
    plies: u16,
    expanded: bool,
    /// The children cover every legal move, or the omitted ones lose at once.
    complete: bool,
}

impl Node {
    fn new(mv: Move, prior: f32) -> Node {
        Node {
            mv,
            first_child: 0,
            n_children: 0,
            visits: 0,
            value: 0.0,
            prior,
            proof: Proof::Unknown,
            soft: false,
            plies: 0,
            expanded: false,
            complete: false,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.n_children) as usize
    }

    fn win_rate(&self) -> Option<f64> {
        match self.proof {
            Proof::Win if !self.soft => Some(1.0),
            Proof::Loss if !self.soft => Some(0.0),
            _ if self.visits > 0 => Some(f64::from(self.value) / f64::from(self.visits)),
            Proof::Draw => Some(0.5),
            _ => None,
        }
    }
}

/// One root move as the search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Playouts through this move.
    pub visits: u32,
    /// Mean result of those playouts for the side to move (1 win, 0.5 draw, 0 loss);
    /// 1 or 0 for a proven win or loss; `None` when never visited.
    pub win_rate: Option<f64>,
    /// The heuristic prior (a probability over the root's tree moves).
    pub prior: f64,
    /// The proven result for the side to move, or `Unknown`.
    pub outcome: Outcome,
    /// Plies to the end where proven.
    pub plies: Option<u32>,
}

/// What [`Mcts::search`] found: the root's tree moves and the chosen one.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The moves the tree considered at the root (a subset of the legal moves on
    /// large boards, or when the opponent threatens to win at once).
    pub root: Vec<RootMove>,
    /// Index into `root` of the chosen move.
    pub best: usize,
    /// The principal variation (most visited line).
    pub pv: Vec<Move>,
    /// With `multipv` ([`Budget::lines`]): the line of every root tree move.
    pub lines: Vec<Vec<Move>>,
    /// True when the opponent threatens to win at once, so every mark or block that is
    /// not in `root` loses in two plies.
    pub forced: bool,
    /// Playouts run.
    pub playouts: u64,
    /// The deepest the tree grew, in plies.
    pub max_depth: u32,
    /// True when the root's value is proven.
    pub solved: bool,
}

/// The Monte Carlo tree search engine.
#[derive(Clone, Debug)]
pub struct Mcts {
    /// The PUCT exploration constant.
    pub exploration: f32,
    /// The tree stops growing at this many nodes (playouts go on from its leaves);
    /// by default [`MAX_TREE_BYTES`] of nodes.
    pub max_tree_nodes: usize,
    /// Random plies of a playout before it stops and the static evaluation scores it;
    /// `None`: by board size (0 on boards of more than 64 cells, where random
    /// playouts measured weaker than the evaluation, else play to the end).
    pub playout_plies: Option<u32>,
    /// The evaluation's logistic scale, in units of `4^(k-2)`.
    pub eval_scale: f32,
    /// Priors are the window scores raised to this power, normalised.
    pub prior_power: f32,
}

impl Default for Mcts {
    fn default() -> Self {
        Mcts {
            exploration: 2.0,
            max_tree_nodes: MAX_TREE_BYTES / std::mem::size_of::<Node>(),
            playout_plies: None,
            eval_scale: 2.0,
            prior_power: 1.0,
        }
    }
}

/// The most memory one search's tree takes: 32 MiB, a million nodes of 32 bytes. (The
/// earlier cap of 1.5 million nodes let a Vec's doubling allocate 2 million, and a long
/// 64x64 search took 100-150 MB with both the old and the new array alive.)
pub const MAX_TREE_BYTES: usize = 32 << 20;

struct Tree {
    nodes: Vec<Node>,
    /// The array's capacity never grows past this many nodes (see [`Tree::reserve`]).
    max_nodes: usize,
    exploration: f32,
    prior_power: f32,
    /// The side to move at the root (0 for x, 1 for o).
    root_player: usize,
    scratch_moves: Vec<Move>,
    scratch_cells: Vec<u16>,
    max_depth: u32,
}

impl Mcts {
    /// Runs the search and reports every root tree move with its visits and win rate.
    pub fn search(
        &self,
        position: &Position,
        budget: &mut Budget,
        rng: &mut StdRng,
    ) -> SearchReport {
        let root_sim = Sim::new(position);
        let mut sim = root_sim.clone();
        let mut fast = FastRng::new(rng.next_u64());
        let mut tree = Tree {
            nodes: Vec::with_capacity(4096.min(self.max_tree_nodes.max(1))),
            max_nodes: self.max_tree_nodes,
            exploration: self.exploration,
            prior_power: self.prior_power,
            root_player: position.to_move().index(),
            scratch_moves: Vec::new(),
            scratch_cells: Vec::new(),
            max_depth: 0,
        };
        tree.nodes.push(Node::new(Move::mark(0), 1.0));
        tree.expand(0, &mut sim);
        let forced = {
            let mut threats = Vec::new();
            sim.winning_cells(1 - sim.to_move(), &mut threats);
            sim.winning_cell(sim.to_move()).is_none() && !threats.is_empty()
        };
        let mut path: Vec<usize> = Vec::with_capacity(64);
        let playout_plies =
            self.playout_plies
                .unwrap_or(if sim.shape.restrict { 0 } else { u32::MAX });
        let eval_scale = self.eval_scale * 4f32.powi(position.k().saturating_sub(2).min(20) as i32);
        let mut playouts = 0u64;
        while tree.nodes[0].proof == Proof::Unknown && !budget.stopped() {
            playouts += 1;
            sim.copy_from(&root_sim);
            path.clear();
            path.push(0);
            let mut node = 0;
            let winner = loop {
                if tree.nodes[node].proof != Proof::Unknown {
                    break tree.proven_value(node, path.len() - 1);
                }
                if !tree.nodes[node].expanded {
                    let grow = tree.nodes[node].visits > 0
                        && tree.nodes.len() + sim.near().len() * 2 < self.max_tree_nodes;
                    if !grow {
                        break sim.playout(&mut fast, playout_plies, eval_scale);
                    }
                    tree.expand(node, &mut sim);
                    if tree.nodes[node].proof != Proof::Unknown {
                        break tree.proven_value(node, path.len() - 1);
                    }
                }
                let child = tree.select(node);
                sim.play(tree.nodes[child].mv);
                path.push(child);
                node = child;
                if let Some(w) = sim.winner {
                    let n = &mut tree.nodes[child];
                    n.proof = Proof::Win;
                    n.plies = 1;
                    break if w == 0 { 1.0 } else { 0.0 };
                }
            };
            tree.max_depth = tree.max_depth.max(path.len() as u32 - 1);
            tree.backup(&path, winner);
            // (Before the budget's own check, which would repeat the last report instead.)
            if playouts % 256 == 0 && budget.report_due() {
                let lines = tree.root_lines(budget.lines());
                budget.report(tree.max_depth, Scale::Mcts, lines);
            }
            // An iteration costs tens of microseconds: reading the time every time is cheap.
            if !budget.tick() {
                budget.expired();
            }
        }
        let root = &tree.nodes[0];
        let report_moves: Vec<RootMove> = root
            .children()
            .map(|c| {
                let ch = &tree.nodes[c];
                let (outcome, plies) = tree.outcome(c);
                RootMove {
                    mv: ch.mv,
                    visits: ch.visits,
                    win_rate: ch.win_rate(),
                    prior: f64::from(ch.prior),
                    outcome,
                    plies,
                }
            })
            .collect();
        let best_node = tree
            .best_child(0)
            .expect("a position in progress has a move");
        let pv = tree.line_from(best_node);
        let lines = if budget.lines() > 1 {
            root.children().map(|c| tree.line_from(c)).collect()
        } else {
            Vec::new()
        };
        budget.report(tree.max_depth, Scale::Mcts, tree.root_lines(budget.lines()));
        SearchReport {
            best: best_node - root.first_child as usize,
            root: report_moves,
            pv,
            lines,
            forced,
            playouts,
            max_depth: tree.max_depth,
            solved: root.proof != Proof::Unknown && !root.soft,
        }
    }
}

impl Engine for Mcts {
    fn analyze_in(
        &self,
        position: &Position,
        _limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let report = self.search(position, budget, rng);
        let total: u64 = report.root.iter().map(|r| u64::from(r.visits)).sum();
        let share = |visits: u32| {
            if total == 0 {
                0.0
            } else {
                f64::from(visits) / total as f64
            }
        };
        let mut legal = Vec::new();
        position.legal_moves_into(&mut legal);
        let in_tree: std::collections::HashMap<Move, &RootMove> =
            report.root.iter().map(|r| (r.mv, r)).collect();
        let moves: Vec<MoveEval> = legal
            .iter()
            .map(|&mv| {
                let eval = match in_tree.get(&mv) {
                    Some(r) => Evaluation {
                        score: share(r.visits),
                        outcome: r.outcome,
                        plies: r.plies,
                    },
                    None if report.forced && matches!(mv.piece, Piece::Mark | Piece::Block) => {
                        Evaluation {
                            score: 0.0,
                            outcome: Outcome::Loss,
                            plies: Some(2),
                        }
                    }
                    None => Evaluation {
                        score: 0.0,
                        outcome: Outcome::Unknown,
                        plies: None,
                    },
                };
                let evaluated = in_tree.get(&mv).is_some_and(|r| r.visits > 0)
                    || eval.outcome != Outcome::Unknown;
                MoveEval {
                    mv,
                    eval,
                    action: None,
                    evaluated,
                    // A value of playouts through the tree: as deep as the tree went.
                    depth: if evaluated { report.max_depth } else { 0 },
                    bound: Bound::Exact,
                }
            })
            .collect();
        let chosen = &report.root[report.best];
        let evaluation = Evaluation {
            score: chosen.win_rate.unwrap_or(0.5),
            outcome: chosen.outcome,
            plies: chosen.plies,
        };
        let (chosen_mv, best_line) = (chosen.mv, report.pv[1..].to_vec());
        let lines = report.lines;
        let win_rates = report
            .root
            .iter()
            .filter_map(|r| r.win_rate.map(|w| (r.mv, w)))
            .collect();
        let results = RootResults {
            choice: Choice::Chosen(chosen.mv, evaluation),
            line_after: Box::new(move |mv| match lines.iter().find(|l| l[0] == mv) {
                _ if mv == chosen_mv => best_line.clone(),
                Some(line) => line[1..].to_vec(),
                None => Vec::new(),
            }),
            ..RootResults::new(moves, report.max_depth, report.solved)
        };
        let mut analysis = root::finish(position, results, budget, rng);
        analysis.win_rates = win_rates;
        analysis
    }
}

#[cfg(test)]
mod memory_tests {
    use super::*;

    fn tree(max_nodes: usize) -> Tree {
        Tree {
            nodes: Vec::with_capacity(4096),
            max_nodes,
            exploration: 2.0,
            prior_power: 1.0,
            root_player: 0,
            scratch_moves: Vec::new(),
            scratch_cells: Vec::new(),
            max_depth: 0,
        }
    }

    #[test]
    fn a_node_is_32_bytes_and_the_default_tree_fits_its_cap() {
        assert_eq!(std::mem::size_of::<Node>(), 32);
        let max = Mcts::default().max_tree_nodes;
        assert_eq!(max * 32, MAX_TREE_BYTES);
    }

    #[test]
    fn the_array_grows_by_doubling_up_to_the_cap_and_never_past_it() {
        let mut t = tree(100_000);
        let mut capacities = Vec::new();
        while t.nodes.len() + 300 < t.max_nodes {
            t.reserve(300);
            for _ in 0..300 {
                t.nodes.push(Node::new(Move::mark(0), 1.0));
            }
            if capacities.last() != Some(&t.nodes.capacity()) {
                capacities.push(t.nodes.capacity());
            }
        }
        assert_eq!(capacities, vec![4096, 8192, 16384, 32768, 65536, 100_000]);
        // One expansion past the cap still gets its room.
        t.reserve(1000);
        assert!(t.nodes.capacity() >= t.nodes.len() + 1000);
    }
}
