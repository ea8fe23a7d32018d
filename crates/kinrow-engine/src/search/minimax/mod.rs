//! `minimax`: depth-limited alpha-beta (negamax) with iterative deepening inside the
//! budget, over the window-potential heuristic of the m,n,k minimax write-up.
//!
//! A player's potential counts every k-window they can still complete, weighted `4^own`
//! by their marks in it; a position is worth the side to move's potential minus the
//! opponent's ([`crate::eval`]), updated incrementally on every move (only the
//! windows through the changed cells). A won position is worth `MINIMAX_WIN - plies`, so quick
//! wins and slow losses are preferred. Where the write-up cached evaluations by a base-3
//! key of the board and skipped symmetric children, this search keeps a Zobrist
//! transposition table with bounds and best moves, and searches root moves that are
//! images of each other under a symmetry of the position once.
//!
//! On boards of more than [`search::FULL_WIDTH_CELLS`] cells only candidates are searched:
//! empty cells within two of a piece and the special-piece moves aimed at strong lines.
//! Every other legal move still gets a score: its static value, shifted below the
//! lowest candidate's.
//!
//! The root ([`Minimax::analyze`]) keeps one [`RootMove`] per move with its value and,
//! where proven, its outcome: the place where a threat-space search can later put a
//! forced win or loss it found before the root driver ([`crate::core::root`])
//! assembles the answer. The threat-space search's nodes come out of the same budget.

mod gravity;
mod search;

use rand::rngs::StdRng;

use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::path::{Note, SearchPath};
use crate::core::progress::Line;
use crate::core::root;
use crate::core::root::WinScale;
use crate::core::root::{Choice, RootResults};
use crate::core::tt::TranspositionTable;
use crate::core::types::Scale;
use crate::core::types::{Analysis, Bound, Evaluation, Limits, MoveEval, Outcome};
use crate::search::tss;
use crate::search::tss::RootPlan;
use kinrow_game::{Move, Player, Position, Symmetry};

use search::{Searcher, MATE, MINIMAX_WIN};

/// The alpha-beta engine.
#[derive(Clone, Debug, Default)]
pub struct Minimax;

/// The deepest iteration tried when no depth is given.
const MAX_DEPTH: u32 = 64;

/// One searched root move.
#[derive(Copy, Clone, Debug)]
struct RootMove {
    mv: Move,
    /// The value from the last completed iteration (fail-soft: exact for the best move,
    /// an upper bound for the others).
    value: i64,
    /// True when `value` is exact rather than a bound.
    exact: bool,
    /// True once an iteration has searched it (else `value` is its static value).
    searched: bool,
    /// The depth of the iteration `value` comes from (1 for a static value: the move
    /// and the evaluation after it).
    depth: u32,
    /// A proven result, when the search (or a proof search) found one.
    outcome: Outcome,
    plies: Option<u32>,
}

impl Engine for Minimax {
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let tt = TranspositionTable::growing_for_budget(
            budget.time().as_millis(),
            position.cells().len(),
        );
        let mut s = Searcher::new(position, tt, budget);
        let classes = Classes::new(position);
        let mut roots = root_moves(&mut s, &classes);

        // Threat-space search first (k >= 4): a forced win is played without searching;
        // against the opponent's forced win only the moves that may stop it are searched.
        let threats = root_threats(position, s.budget);
        let proven_win = match &threats.plan {
            RootPlan::Win(proof) => Some((classes.rep(proof.first_move()), proof.plies())),
            _ => None,
        };
        let defence: Option<Vec<Move>> = match &threats.plan {
            RootPlan::Defend { moves, .. } => {
                let reps: Vec<Move> = moves.iter().map(|&mv| classes.rep(mv)).collect();
                if !reps.is_empty() {
                    roots.retain(|r| reps.contains(&r.mv));
                    for &rep in &reps {
                        push_root(&mut roots, rep);
                    }
                }
                Some(reps)
            }
            _ => None,
        };
        if let Some((rep, _)) = proven_win {
            push_root(&mut roots, rep);
        }

        let max_depth = match proven_win {
            Some(_) => 0,
            None => limits
                .depth
                .unwrap_or(MAX_DEPTH)
                .clamp(1, MAX_DEPTH)
                .min(game_length_bound(position).max(1)),
        };
        let completed = deepen(&mut s, &mut roots, max_depth);
        let reached_end = !s.budget.stopped() && completed >= game_length_bound(position);
        settle(&mut s, &mut roots, reached_end);

        let mut moves = every_move(&mut s, position, &roots, &classes);
        // What the threat searches proved overrides the heuristic values.
        if let Some((rep, plies)) = proven_win {
            for e in moves.iter_mut().filter(|e| classes.rep(e.mv) == rep) {
                *e = MoveEval::searched(e.mv, WinScale::SEARCH.eval(Outcome::Win, plies), plies);
            }
        }
        if let (
            Some(reps),
            RootPlan::Defend {
                lost, threat_plies, ..
            },
        ) = (&defence, &threats.plan)
        {
            for e in moves.iter_mut() {
                let rep = classes.rep(e.mv);
                if reps.contains(&rep) {
                    continue;
                }
                let plies = lost
                    .iter()
                    .find(|(mv, _)| classes.rep(*mv) == rep)
                    .map_or(*threat_plies, |&(_, p)| p);
                *e = MoveEval::searched(e.mv, WinScale::SEARCH.eval(Outcome::Loss, plies), plies);
            }
        }
        let complete = !s.budget.stopped() || proven_win.is_some();
        // The nodes and time so far: the line below only reads the table.
        let spent = s.budget.clone();
        let plan = &threats.plan;
        let results = RootResults {
            choice: Choice::AmongBest,
            // The proof's line after a proven win, else the table's best moves.
            line_after: Box::new(move |best| {
                let mut pv = vec![best];
                if let RootPlan::Win(proof) = plan {
                    if proof.first_move() == best {
                        pv = proof.main_line();
                    }
                }
                if pv.len() > 1 {
                    return pv.split_off(1);
                }
                table_line(&mut s, best, completed)[1..].to_vec()
            }),
            path: threats.note().map(SearchPath::note),
            ..RootResults::new(moves, completed, complete)
        };
        root::finish(position, results, &spent, rng)
    }
}

/// The symmetries that fix a position: root moves that are images of each other under
/// one of them are searched once, as their class's representative.
struct Classes {
    fixing: Vec<Symmetry>,
    m: usize,
    n: usize,
}

impl Classes {
    fn new(position: &Position) -> Classes {
        let (m, n) = (position.m(), position.n());
        let fixing = Symmetry::all(m, n)
            .iter()
            .copied()
            .filter(|&sym| {
                sym == Symmetry::Identity
                    || ((!position.gravity() || sym == Symmetry::FlipCols)
                        && position.transformed(sym).cells() == position.cells())
            })
            .collect();
        Classes { fixing, m, n }
    }

    /// The representative of `mv`'s class: the least of its images.
    fn rep(&self, mv: Move) -> Move {
        self.fixing
            .iter()
            .map(|sym| Move::new(sym.map_index(mv.cell(), self.m, self.n), mv.piece))
            .min()
            .unwrap_or(mv)
    }
}

/// The candidates, best first by the move ordering, one per symmetry class.
fn root_moves(s: &mut Searcher, classes: &Classes) -> Vec<RootMove> {
    let mut scored = Vec::new();
    s.moves(&mut scored);
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut roots = Vec::new();
    for &(_, mv) in &scored {
        push_root(&mut roots, classes.rep(mv));
    }
    roots
}

/// Adds `rep` to `roots` unless it is there already.
fn push_root(roots: &mut Vec<RootMove>, rep: Move) {
    if !roots.iter().any(|r| r.mv == rep) {
        roots.push(RootMove {
            mv: rep,
            value: 0,
            exact: false,
            searched: false,
            depth: 1,
            outcome: Outcome::Unknown,
            plies: None,
        });
    }
}

/// Iterative deepening over `roots` up to `max_depth` while the budget runs; leaves them
/// best first with the values of the last completed iteration (a stopped iteration's
/// values are kept only for the first one) and returns the depth completed.
fn deepen(s: &mut Searcher, roots: &mut [RootMove], max_depth: u32) -> u32 {
    let mut completed = 0;
    let wanted = s.budget.lines();
    for depth in 1..=max_depth {
        if roots.is_empty() {
            // no candidate (a full board where no special move aims at a strong line):
            // every legal move gets its static value afterwards
            break;
        }
        let mut values = vec![None; roots.len()];
        // The `wanted`-th best value so far (the best, without multipv).
        let mut top: Vec<i64> = Vec::new();
        for (i, r) in roots.iter().enumerate() {
            // Search each move against `alpha - 1`, not `alpha`: a move as good as the
            // best so far then gets its exact value (so equals can be told apart from
            // moves that merely fail low at the same bound and the random choice among
            // equals never picks a worse move), and a worse move a bound below alpha.
            // With multipv N, alpha is the N-th best value: the N best get exact values.
            let alpha = if top.len() < wanted {
                -MINIMAX_WIN - 1
            } else {
                top[wanted - 1]
            };
            let bound = alpha - 1;
            let ch = s.make(r.mv);
            let v = -s.negamax(depth - 1, 1, -MINIMAX_WIN - 1, -bound);
            s.unmake(ch);
            if s.budget.stopped() {
                break;
            }
            values[i] = Some((v, v > bound));
            let at = top.partition_point(|&t| t >= v);
            top.insert(at, v);
        }
        if s.budget.stopped() && depth > 1 {
            break;
        }
        for (r, value) in roots.iter_mut().zip(values) {
            if let Some((v, exact)) = value {
                r.value = v;
                r.exact = exact;
                r.searched = true;
                r.depth = depth;
            }
        }
        if s.budget.stopped() {
            break;
        }
        completed = depth;
        // best first for the next iteration (stable: the old order breaks ties)
        roots.sort_by_key(|r| std::cmp::Reverse(r.value));
        let best = roots[0].value;
        s.budget
            .iteration_done(depth, (best.abs() < MATE).then_some(best as f64));
        if s.budget.observed() {
            let lines = report_lines(s, &roots[..wanted.min(roots.len())], depth);
            let moves = report_moves(s, roots);
            s.budget.report_moves(depth, Scale::Minimax, lines, moves);
        }
        if roots[0].value >= MATE || roots.iter().all(|r| r.value.abs() >= MATE) {
            break;
        }
    }
    completed
}

/// After the search: candidates it never reached get their static value, and mate
/// scores become proven outcomes (proofs only when every move was searched); when the
/// search reached the end of every line (`reached_end`), an exact value of 0 is a draw.
fn settle(s: &mut Searcher, roots: &mut [RootMove], reached_end: bool) {
    for r in roots.iter_mut() {
        if !r.searched {
            r.value = s.static_value(r.mv);
            r.exact = false;
        }
        if let Some((outcome, plies)) = mate_result(s, r) {
            r.outcome = outcome;
            r.plies = plies;
        } else if s.full_width && reached_end && r.exact && r.value == 0 {
            r.outcome = Outcome::Draw;
        }
    }
}

/// Every legal move's evaluation: symmetric images copy their class's, the rest score
/// statically below the lowest candidate.
fn every_move(
    s: &mut Searcher,
    position: &Position,
    roots: &[RootMove],
    classes: &Classes,
) -> Vec<MoveEval> {
    let floor = roots.iter().map(|r| r.value).min().unwrap_or(0);
    let legal = position.legal_moves();
    let mut statics = Vec::new();
    let mut moves = Vec::with_capacity(legal.len());
    for &mv in &legal {
        let rep = classes.rep(mv);
        if let Some(r) = roots.iter().find(|r| r.mv == rep) {
            let mut e = move_eval(mv, r.value, r.outcome, r.plies);
            e.depth = r.depth;
            // A move refuted against alpha - 1 is known only to be no better than its
            // value; a proven outcome is exact whatever the window.
            if r.searched && !r.exact && r.outcome == Outcome::Unknown {
                e.bound = Bound::Upper;
            }
            moves.push(e);
        } else {
            statics.push((mv, s.static_value(mv)));
        }
    }
    let top_static = statics.iter().map(|&(_, v)| v).max().unwrap_or(0);
    for (mv, v) in statics {
        let shifted = floor - 1 - (top_static - v);
        moves.push(MoveEval::unsearched(
            mv,
            move_eval(mv, shifted, Outcome::Unknown, None).eval,
        ));
    }
    moves
}

/// The line that starts with `first`: the table's best moves after it, up to `depth`
/// moves in all.
fn table_line(s: &mut Searcher, first: Move, depth: u32) -> Vec<Move> {
    let mut pv = vec![first];
    let mut changes = vec![s.make(first)];
    while pv.len() < depth.max(1) as usize && !s.pos.is_over() {
        match s.stored_move() {
            Some(mv) => {
                changes.push(s.make(mv));
                pv.push(mv);
            }
            None => break,
        }
    }
    while let Some(ch) = changes.pop() {
        s.unmake(ch);
    }
    pv
}

/// The progress report's lines after a completed `depth`: `roots` (the best first)
/// with their values and lines.
fn report_lines(s: &mut Searcher, roots: &[RootMove], depth: u32) -> Vec<Line> {
    roots
        .iter()
        .map(|r| {
            let outcome = match r.value {
                v if s.full_width && v >= MATE => Outcome::Win,
                v if s.full_width && v <= -MATE => Outcome::Loss,
                _ => Outcome::Unknown,
            };
            let plies = (outcome != Outcome::Unknown).then(|| (MINIMAX_WIN - r.value.abs()) as u32);
            Line {
                mv: r.mv,
                eval: Evaluation {
                    score: r.value as f64,
                    outcome,
                    plies,
                },
                win_rate: None,
                pv: table_line(s, r.mv, depth),
            }
        })
        .collect()
}

/// What a root's mate score proves on a full-width search: a win or loss when the value
/// is exact, or an upper bound at a loss; its plies only where exact.
fn mate_result(s: &Searcher, r: &RootMove) -> Option<(Outcome, Option<u32>)> {
    if !(s.full_width && r.value.abs() >= MATE && (r.exact || r.value < 0)) {
        return None;
    }
    let outcome = if r.value > 0 {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    Some((
        outcome,
        r.exact.then(|| (MINIMAX_WIN - r.value.abs()) as u32),
    ))
}

/// Every searched root with its value from the last completed iteration, as a late answer
/// shows it: exact, or the upper bound a fail-soft null window left; a proven result only
/// where [`mate_result`] finds one.
fn report_moves(s: &Searcher, roots: &[RootMove]) -> Vec<MoveEval> {
    roots
        .iter()
        .filter(|r| r.searched)
        .map(|r| {
            let proof = mate_result(s, r);
            let (outcome, plies) = proof.unwrap_or((Outcome::Unknown, None));
            MoveEval {
                depth: r.depth.max(1),
                // A proven result is exact whatever the window (as in the answer).
                bound: if r.exact || proof.is_some() {
                    Bound::Exact
                } else {
                    Bound::Upper
                },
                ..move_eval(r.mv, r.value, outcome, plies)
            }
        })
        .collect()
}

/// The share of the budget the root's threat-space search may use.
const TSS_SHARE: f64 = 0.25;
/// Quiet threats the root's VCT may chain.
const TSS_VCT_DEPTH: u32 = 2;

/// What the root's threat-space search found.
struct RootThreats {
    plan: RootPlan,
}

impl RootThreats {
    fn note(&self) -> Option<Note> {
        match self.plan {
            RootPlan::Win(_) => Some(Note::ThreatSpaceWin),
            RootPlan::Defend { .. } => Some(Note::ThreatSpaceDefence),
            RootPlan::Quiet => None,
        }
    }
}

/// Runs [`tss::plan`] on a share of `budget` when `k >= 4` (its nodes count there).
fn root_threats(position: &Position, budget: &mut Budget) -> RootThreats {
    // The threat-space search knows no gravity: its cells need not be landing cells.
    if position.k() < 4 || position.gravity() {
        return RootThreats {
            plan: RootPlan::Quiet,
        };
    }
    let plan = tss::plan(position, &mut budget.share(TSS_SHARE), TSS_VCT_DEPTH);
    RootThreats { plan }
}

/// `mv` valued `value` (exact, one ply deep until the caller says otherwise).
fn move_eval(mv: Move, value: i64, outcome: Outcome, plies: Option<u32>) -> MoveEval {
    let eval = Evaluation {
        score: value as f64,
        outcome,
        plies,
    };
    MoveEval::searched(mv, eval, 1)
}

/// An upper bound on the plies left in the game: every ply fills at most one empty
/// cell, except that a remove (one ply) can empty one cell and a bomb (one ply) nine.
fn game_length_bound(position: &Position) -> u32 {
    let mut plies = position.empties();
    for p in Player::BOTH {
        let h = position.hand(p);
        plies += 10 * h.bomb as u32 + 2 * h.remove as u32;
    }
    plies
}
