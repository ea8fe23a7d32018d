//! `perfect`: exact game-tree search to the end of the game.
//!
//! Every legal move gets its outcome from the mover's side, `win`, `draw` or `loss` with
//! the number of plies to the end, or `unknown` where the budget ran out. The choice is
//! win over draw over unknown over loss, the fastest win and the slowest loss, and a
//! random one (from the seeded RNG) among equals.
//!
//! Boards of up to 128 cells are solved on bit sets ([`search`]): each distinct root
//! move (root moves that are images of each other under a symmetry of the position are
//! searched once) is first decided as win, draw or loss with the null window `(-1, 1)`,
//! then the number of plies of every win and loss is pinned by a binary search of null
//! windows ("a win within t plies?"; one wide window when pieces that clear cells make
//! the game's length open). The transposition table is shared by all of these searches.
//! Larger boards get only what two plies prove (wins now, losses to a threat left open).
//!
//! With a `mistake_probability` p > 0 the engine searches as the write-up does: at every
//! node each branch is overlooked with probability p, and an overlooked branch is
//! `unknown` ([`careless`]).
//!
//! Under renju and caro the same depth-first search runs with p = 0 on the position
//! itself, whose legal moves leave out x's forbidden cells and whose wins follow the
//! variant (the bit sets know only free rules): outcomes are exact, plies those of the
//! first win found; boards over 128 cells get the two-ply answer.

mod bits;
mod board;
mod careless;
pub mod gravity;
mod memo;
mod search;
mod verdict;

use rand::rngs::StdRng;

use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::progress::Line;
use crate::core::root;
use crate::core::root::WinScale;
use crate::core::root::{Choice, RootResults};
use crate::core::tt::{budget_bits, TranspositionTable};
use crate::core::types::Scale;
use crate::core::types::{Analysis, Bound, Evaluation, Limits, MoveEval, Outcome};
use kinrow_game::{Move, Piece, Position};

use bits::Bits;
use board::Layout;
use search::{Solver, PERFECT_WIN};
use verdict::{PvTail, Verdict};

/// The exact solver.
#[derive(Clone, Debug, Default)]
pub struct Perfect;

/// The score of an outcome: `10000 - plies` for a win ([`WinScale::OUTCOME`]; 1 when the
/// plies are not known), 0 for a draw, -1 for unknown, `-10000 + plies` for a loss (-5000
/// when the plies are not known). So win > draw > unknown > loss, faster wins and slower
/// losses first.
pub fn outcome_score(outcome: Outcome, plies: Option<u32>) -> f64 {
    match (outcome, plies) {
        (Outcome::Win | Outcome::Loss, Some(p)) => WinScale::OUTCOME.proven(outcome, p),
        (Outcome::Win, None) => 1.0,
        (Outcome::Draw, _) => 0.0,
        (Outcome::Unknown, _) => -1.0,
        (Outcome::Loss, None) => -5000.0,
    }
}

impl Engine for Perfect {
    fn analyze_in(
        &self,
        position: &Position,
        limits: &Limits,
        budget: &mut Budget,
        ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        // The bit-set solvers know only plain lines (freestyle's), not renju's or caro's.
        let variant = !position.geometry().variant.plain_lines();
        // The bit-set solvers (free rules, no mistakes) prove every move exactly.
        let mut bitsets = false;
        let mut best_proven = false;
        let (verdicts, pv_tail, depth) = if limits.mistake_probability > 0.0 {
            careless::analyze(position, limits.mistake_probability, budget, rng)
        } else if gravity::applies(position) {
            let (verdicts, pv_tail, depth, proven) = gravity::analyze(position, budget, ctx);
            best_proven = proven;
            (verdicts, pv_tail, depth)
        } else if (variant || position.gravity()) && position.cells().len() <= 128 {
            // (gravity: a board past 128 bits with its sentinel row, or exactly k)
            careless::analyze(position, 0.0, budget, rng)
        } else if variant && position.cells().len() <= 128 {
            // Renju and caro: the bit-set solver knows only free rules, so the search
            // runs on the position itself (its moves and wins follow the variant),
            // without mistakes: exact outcomes, the plies of the first win found.
            careless::analyze(position, 0.0, budget, rng)
        } else if variant || position.gravity() {
            shallow(position)
        } else if memo::applies(position) && budget.lines() == 1 {
            bitsets = true;
            // (The table keeps the best moves' lines only: multipv solves afresh.)
            // A search limited by nodes starts as if nothing were kept, so that its
            // answer does not depend on what ran before it (see [`crate::core::context`]).
            let mut fresh = memo::SolvedPositions::default();
            let table = if budget.node_limit().is_none() {
                ctx.kept::<memo::SolvedPositions>()
            } else {
                &mut fresh
            };
            solve_remembered(position, table, budget)
        } else if position.m() * position.n() <= 64 {
            bitsets = true;
            solve::<u64>(position, budget)
        } else if position.m() * position.n() <= 128 {
            bitsets = true;
            solve::<u128>(position, budget)
        } else {
            shallow(position)
        };
        let mut analysis = finish(position, verdicts, pv_tail, depth, budget, rng);
        analysis.stats.exact = bitsets && analysis.stats.complete;
        analysis.stats.best_proven = best_proven || analysis.stats.complete;
        analysis
    }
}

/// [`solve`] for a small board, through a table of solved positions ([`memo`]): a
/// position solved before is answered from the table, a complete new solve is remembered.
fn solve_remembered(
    position: &Position,
    table: &mut memo::SolvedPositions,
    budget: &mut Budget,
) -> (Vec<Verdict>, PvTail, u32) {
    let solved = match table.recall(position) {
        Some(solved) => solved,
        None => {
            let (verdicts, pv_tail, depth) = solve::<u64>(position, budget);
            if budget.stopped() || verdicts.iter().any(|v| v.outcome == Outcome::Unknown) {
                return (verdicts, pv_tail, depth);
            }
            let best = verdicts
                .iter()
                .map(|v| outcome_score(v.outcome, v.plies))
                .fold(f64::MIN, f64::max);
            let lines = verdicts
                .iter()
                .filter(|v| outcome_score(v.outcome, v.plies) == best)
                .map(|v| (v.mv, pv_tail(v.mv)))
                .collect();
            table.remember(
                position,
                memo::Solved {
                    verdicts,
                    depth,
                    lines,
                },
            )
        }
    };
    let verdicts = solved.verdicts.clone();
    let depth = solved.depth;
    (verdicts, Box::new(move |mv| solved.line_after(mv)), depth)
}

/// Hands the verdicts to the root driver: scores, the chosen move (random among the
/// best), the order, the line after it.
fn finish(
    position: &Position,
    verdicts: Vec<Verdict>,
    pv_tail: PvTail,
    depth: u32,
    budget: &Budget,
    rng: &mut StdRng,
) -> Analysis {
    let moves: Vec<MoveEval> = verdicts.iter().map(|v| move_eval(v, depth)).collect();
    let complete = !budget.stopped() && moves.iter().all(|e| e.eval.outcome != Outcome::Unknown);
    let results = RootResults {
        choice: Choice::AmongBest,
        line_after: pv_tail,
        ..RootResults::new(moves, depth, complete)
    };
    root::finish(position, results, budget, rng)
}

/// Solves `position` on bit sets of type `B`.
fn solve<B: Bits + 'static>(
    position: &Position,
    budget: &mut Budget,
) -> (Vec<Verdict>, PvTail, u32) {
    let shape = Layout::<B>::new(position.geometry()).expect("the board fits the bit set");
    let root = shape.state(position);
    let legal = position.legal_moves();
    // A small table that grows as the search fills it: tiny boards zero little memory.
    let most = budget_bits(budget.time().as_millis(), position.cells().len());
    let tt = TranspositionTable::growing(most.min(10), most);
    let mut solver = Solver::new(&shape, tt, budget);

    // Root moves that are images of each other under a symmetry fixing the root.
    let fixing: Vec<usize> = (0..shape.symmetries())
        .filter(|&s| s == 0 || shape.fixes(&root, s))
        .collect();
    let class_of = |mv: Move| {
        fixing
            .iter()
            .map(|&s| Move::new(shape.maps[s][mv.cell()] as usize, mv.piece))
            .min()
            .unwrap_or(mv)
    };
    let classes: Vec<Move> = legal.iter().map(|&mv| class_of(mv)).collect();
    let mut reps: Vec<Move> = classes.clone();
    reps.sort();
    reps.dedup();

    let me = root.side;
    let scan = solver.scan(&root, true);
    solver.order_scores(None);
    let mut keyed: Vec<(u64, Move)> = reps
        .iter()
        .map(|&mv| {
            let base = if mv.piece == Piece::Mark || mv.piece == Piece::Block {
                solver.score_of(mv.cell()) as u64
            } else {
                0
            };
            let threat = scan.threats[me ^ 1].has(mv.cell()) || scan.threats[me].has(mv.cell());
            let s = base + if threat { 1 << 40 } else { 0 };
            let s = if mv.piece == Piece::Mark { s * 2 } else { s };
            (s, mv)
        })
        .collect();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));

    let mut found: Vec<Verdict> = keyed.iter().map(|&(_, mv)| Verdict::unknown(mv)).collect();
    let draw_plies = if root.can_clear() {
        None
    } else {
        Some((shape.full & !root.occupied()).count())
    };
    settle(&mut solver, &root, &mut found, scan.threats[me], draw_plies);
    let depth = solver.max_ply;
    report(solver.budget, &found, depth);
    let lines = best_lines(&mut solver, position, &root, &found);
    let pv_tail = mapped_back(lines, &legal, &classes, &shape.maps, &fixing);

    let verdicts = legal
        .iter()
        .zip(&classes)
        .map(|(&mv, rep)| {
            let v = found
                .iter()
                .find(|v| v.mv == *rep)
                .copied()
                .unwrap_or(Verdict::unknown(*rep));
            Verdict { mv, ..v }
        })
        .collect();
    (verdicts, pv_tail, depth)
}

/// Settles the root moves `found` (one per symmetry class, in search order) as far as
/// the budget allows: first win, draw or loss for each, then the plies of every win and
/// of every loss. `wins_now` are the cells where the side to move wins at once;
/// `draw_plies` the plies a drawn game lasts (None when pieces that clear cells make the
/// game's length open).
fn settle<B: Bits>(
    solver: &mut Solver<B>,
    root: &board::State<B>,
    found: &mut [Verdict],
    wins_now: B,
    draw_plies: Option<u32>,
) {
    let shape = solver.shape;
    // Pass 1: win, draw or loss.
    for i in 0..found.len() {
        report(solver.budget, found, solver.max_ply);
        let v = &mut found[i];
        if v.mv.piece == Piece::Mark && wins_now.has(v.mv.cell()) {
            *v = Verdict {
                mv: v.mv,
                outcome: Outcome::Win,
                plies: Some(1),
                plies_bound: Bound::Exact,
            };
            continue;
        }
        let child = shape.play(root, v.mv);
        let value = -solver.search(&child, 1, -1, 1);
        if solver.aborted {
            break;
        }
        v.outcome = match value {
            x if x >= 1 => Outcome::Win,
            x if x <= -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        if v.outcome == Outcome::Draw {
            v.plies = draw_plies;
        }
    }
    // Pass 2: the number of plies of every win, then of every loss.
    for want in [Outcome::Win, Outcome::Loss] {
        for i in 0..found.len() {
            report(solver.budget, found, solver.max_ply);
            let v = &mut found[i];
            if solver.aborted || v.outcome != want || v.plies.is_some() {
                continue;
            }
            let child = shape.play(root, v.mv);
            let plies = match draw_plies {
                Some(empties) => pin_plies(solver, &child, want == Outcome::Win, empties),
                None => {
                    // Pieces that clear cells make the game's length open: one wide window.
                    let value = if want == Outcome::Win {
                        -solver.search(&child, 1, -PERFECT_WIN, 0)
                    } else {
                        -solver.search(&child, 1, 0, PERFECT_WIN)
                    };
                    (PERFECT_WIN - value.abs()) as u32
                }
            };
            if solver.aborted {
                break;
            }
            v.plies = Some(plies);
        }
    }
}

/// The line after each of the best settled root moves (one, or more with multipv):
/// a win now where there is one, else the table's best move, while legal.
fn best_lines<B: Bits>(
    solver: &mut Solver<B>,
    position: &Position,
    root: &board::State<B>,
    found: &[Verdict],
) -> std::collections::HashMap<Move, Vec<Move>> {
    let shape = solver.shape;
    let mut line_of = std::collections::HashMap::new();
    let mut scores: Vec<f64> = found
        .iter()
        .map(|v| outcome_score(v.outcome, v.plies))
        .collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    let best = scores[(solver.budget.lines() - 1).min(scores.len() - 1)];
    for v in found {
        if v.outcome == Outcome::Unknown || outcome_score(v.outcome, v.plies) < best {
            continue;
        }
        let mut pos = position.clone();
        pos.play_unchecked(v.mv);
        let mut st = shape.play(root, v.mv);
        let mut tail = Vec::new();
        while !pos.is_over() && tail.len() < 64 {
            let scan = solver.scan(&st, false);
            let mv = if !scan.threats[st.side].none() {
                Some(Move::mark(scan.threats[st.side].first()))
            } else {
                solver.stored_move(&st)
            };
            match mv {
                Some(mv) if pos.is_legal(mv) => {
                    pos.play_unchecked(mv);
                    st = shape.play(&st, mv);
                    tail.push(mv);
                }
                _ => break,
            }
        }
        line_of.insert(v.mv, tail);
    }
    line_of
}

/// The principal variation after any legal move: the line of its class's representative
/// (`classes[i]` is `legal[i]`'s), mapped back by the symmetry in `fixing` that takes
/// the move to its representative.
fn mapped_back(
    line_of: std::collections::HashMap<Move, Vec<Move>>,
    legal: &[Move],
    classes: &[Move],
    maps: &[Vec<u16>],
    fixing: &[usize],
) -> PvTail {
    let (legal, classes, maps, fixing) = (
        legal.to_vec(),
        classes.to_vec(),
        maps.to_vec(),
        fixing.to_vec(),
    );
    Box::new(move |mv: Move| {
        let i = legal.iter().position(|&l| l == mv).unwrap_or(0);
        let rep = classes[i];
        let Some(tail) = line_of.get(&rep) else {
            return Vec::new();
        };
        let s = fixing
            .iter()
            .copied()
            .find(|&s| maps[s][mv.cell()] as usize == rep.cell())
            .unwrap_or(0);
        let back: Vec<usize> = (0..maps[s].len())
            .map(|c| maps[s].iter().position(|&x| x as usize == c).unwrap_or(c))
            .collect();
        tail.iter()
            .map(|m| Move::new(back[m.cell()], m.piece))
            .collect()
    })
}

/// A root move's verdict as the answer shows it.
fn move_eval(v: &Verdict, depth: u32) -> MoveEval {
    MoveEval {
        mv: v.mv,
        eval: Evaluation {
            score: outcome_score(v.outcome, v.plies),
            outcome: v.outcome,
            plies: v.plies,
        },
        action: None,
        evaluated: true,
        // A proof reads to the end of the game; an unproven move as deep as the search.
        depth: v.plies.unwrap_or(depth),
        // A win or loss whose plies only bound its distance has a score (which counts
        // the plies) that bounds the exact one: a win at least as fast, a loss no later.
        bound: match (v.plies_bound, v.outcome) {
            (Bound::Upper, Outcome::Win) => Bound::Lower,
            (Bound::Upper, Outcome::Loss) => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

/// Reports the root moves settled so far (the best first, with multipv the best few):
/// each with its outcome score and a line of one move (the table is read once the
/// search ends), and every settled move as the answer shows it.
fn report(budget: &Budget, found: &[Verdict], depth: u32) {
    if !budget.observed() {
        return;
    }
    let mut settled: Vec<Line> = found
        .iter()
        .filter(|v| v.outcome != Outcome::Unknown)
        .map(|v| Line {
            mv: v.mv,
            eval: Evaluation {
                score: outcome_score(v.outcome, v.plies),
                outcome: v.outcome,
                plies: v.plies,
            },
            win_rate: None,
            pv: vec![v.mv],
        })
        .collect();
    settled.sort_by(|a, b| b.eval.score.total_cmp(&a.eval.score));
    settled.truncate(budget.lines());
    // Every settled move with its bound: a late answer shows a distance not pinned as
    // the bound it is.
    let moves = found
        .iter()
        .filter(|v| v.outcome != Outcome::Unknown)
        .map(|v| move_eval(v, depth))
        .collect();
    budget.report_moves(depth, Scale::Perfect, settled, moves);
}

/// The number of plies of a root move known to win (`win`) or to lose, on a board
/// where the game lasts at most `empties` more plies: the fewest `t` (odd for wins,
/// even for losses) such that the game ends that way within `t` plies, by a binary
/// search over `t` with null windows ("a win within `t` plies?"), which cut far more
/// than one wide window does. The first probe leans to the short side (a quarter of
/// the range up: proofs about short games are the cheap ones), the second goes right
/// next to it, where the answer most often lies. `child` is the position after the
/// move.
fn pin_plies<B: Bits>(
    solver: &mut Solver<B>,
    child: &board::State<B>,
    win: bool,
    empties: u32,
) -> u32 {
    let parity = if win { 1 } else { 0 };
    let mut lo = if win { 1 } else { 2 };
    let mut hi = if empties % 2 == parity {
        empties
    } else {
        empties - 1
    }
    .max(lo);
    let mut next = None;
    let mut probes = 0;
    while lo < hi && !solver.aborted {
        let t = match next.take() {
            Some(t) if t >= lo && t < hi => t,
            _ => lo + 2 * ((hi - lo) / 4),
        };
        // Does the game end this way within t plies? For a win: the child's value is
        // at most -(PERFECT_WIN - t); for a loss: at least PERFECT_WIN - t.
        let within = if win {
            let edge = -(PERFECT_WIN - t as i32);
            solver.search(child, 1, edge, edge + 1) <= edge
        } else {
            let edge = PERFECT_WIN - t as i32 - 1;
            solver.search(child, 1, edge, edge + 1) > edge
        };
        if within {
            hi = t;
        } else {
            lo = t + 2;
        }
        if probes == 0 {
            // The answer is most often right next to the first probe: look there next.
            next = Some(if within { t.saturating_sub(2) } else { t + 2 });
        }
        probes += 1;
    }
    lo
}

/// What two plies prove on boards too large for the bit-set solver: a mark that wins
/// now wins in 1; a move that leaves the opponent a winning cell loses in 2; with no
/// k-window on the board at all, everything is a draw. The rest is unknown.
fn shallow(position: &Position) -> (Vec<Verdict>, PvTail, u32) {
    let me = position.to_move();
    let opp = me.opponent();
    let no_lines = position.geometry().windows().all.is_empty();
    let draw_plies = if position.hand(me).remove
        + position.hand(me).bomb
        + position.hand(opp).remove
        + position.hand(opp).bomb
        == 0
    {
        Some(position.empties())
    } else {
        None
    };
    let empties: Vec<usize> = (0..position.cells().len())
        .filter(|&c| !position.cell(c).is_piece())
        .collect();
    let their_wins: Vec<usize> = if no_lines {
        Vec::new()
    } else {
        empties
            .iter()
            .copied()
            .filter(|&c| position.wins_at(c, opp))
            .collect()
    };
    let verdicts = position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let (outcome, plies) = if no_lines {
                (Outcome::Draw, draw_plies)
            } else if mv.piece == Piece::Mark && position.wins_at(mv.cell(), me) {
                (Outcome::Win, Some(1))
            } else if matches!(mv.piece, Piece::Mark | Piece::Block)
                && their_wins.iter().any(|&c| c != mv.cell())
            {
                (Outcome::Loss, Some(2))
            } else {
                (Outcome::Unknown, None)
            };
            Verdict {
                mv,
                outcome,
                plies,
                plies_bound: Bound::Exact,
            }
        })
        .collect();
    (verdicts, Box::new(|_| Vec::new()), 2)
}
