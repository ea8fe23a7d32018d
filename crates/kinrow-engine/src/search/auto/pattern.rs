//! `auto`'s path for k >= 4 without special pieces: threat-space search at the root,
//! then the pattern search.
//!
//! The root's threat searches, in order: the mover's VCF; the opponent's VCF if the
//! mover passed (then only the moves that may stop it are searched, each checked for
//! an opponent VCF after it, and the others are proven lost); the mover's VCT (only
//! with `auto:root_vct=on`: since issue 58 step 6 the main search, with its verdicts
//! and quiescence, gets those nodes instead); and,
//! when nothing else was found, the opponent's VCT if the mover passed (with the fewest
//! quiet threats, up to [`OPP_VCT_DEPTH`]). That one is answered the same way: the
//! possible defences (the cells of its proof, the mover's fours, and the marks that
//! give the mover a line one short of a four, to answer a later threat with a four)
//! are checked for an opponent VCT after them, one more quiet threat at a time while
//! the time lasts; those that held out against the deepest finished check are
//! searched, with any the time did not let it check that deep (a check that stops
//! part-way must not leave the search only the first few defences it happened to
//! reach). A forced win of the mover is played at once, and so is the centre of an
//! empty board. Each of these searches takes its share of the one [`Budget`], and the
//! pattern search gets what they left.

use rand::rngs::StdRng;
use rand::RngExt;

use std::time::Instant;

use super::guard;
use super::root_counts::RootCounters;
use super::score::PATTERN_MATE;
use super::search::{PatternSearch, RootMove};
use super::tactics::{Guard, RootVct, Tactics};
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::path::{Note, Route, SearchPath};
use crate::core::root;
use crate::core::root::WinScale;
use crate::core::root::{Choice, RootResults};
use crate::core::types::{Analysis, Bound, Evaluation, MoveEval, Outcome};
use crate::eval::EvalChoice;
use crate::search::tss;
use crate::search::tss::{RootPlan, Tss, Verdict};
use kinrow_game::{Move, Position};

/// The share of the budget the root's threat searches may use.
const TSS_SHARE: f64 = 0.2;
/// Quiet threats the root's VCT may chain (one more at a time while its time lasts).
const VCT_DEPTH: u32 = 8;
/// Quiet threats the opponent's VCT (the one the side to move must stop) may chain.
/// Longer threats are left to the search: many of them are not real (the solver does
/// not see every counter-threat), and answering them all makes `auto` play passively
/// from the first moves on (1 played better than 2 or 3: docs/strength.md, "Where
/// `auto`'s constants come from").
const OPP_VCT_DEPTH: u32 = 1;
/// The share of the budget the search for the opponent's VCT may use.
const THREAT_SHARE: f64 = 0.15;
/// The share of the budget for checking the defences against it.
const CHECK_SHARE: f64 = 0.45;
/// Quiet threats of the opponent's VCT after a defence, at most (checked deepening).
const CHECK_DEPTH: u32 = 5;
/// Root moves searched (the best by the ordering score), when no threat narrows them.
const ROOT_WIDTH: usize = 24;
/// The share of what the root's threat searches left that the main search leaves for
/// valuing the moves it did not value exactly ([`value_moves`]).
const VALUE_SHARE: f64 = 0.1;

/// Whether `auto` values every cell (the one-ply pass before the main search and the
/// best bounds searched again after it, with [`VALUE_SHARE`] of the budget). It costs
/// play at an equal budget (docs/strength.md), so it is done only where the cells are
/// shown: on by default, off for a caller whose [`Budget::every_cell`] is false (an API
/// answer trimmed to the move) and for a player that answers only a move (the Gomocup
/// brain, the arena's engines unless `auto:cells=on`). Kept in the [`SearchContext`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CellValues(pub bool);

impl Default for CellValues {
    fn default() -> CellValues {
        CellValues(true)
    }
}

impl crate::core::context::Kept for CellValues {
    fn bytes(&self) -> usize {
        0
    }
}
/// The best moves whose null-window bound is searched again with an open window.
const EXACT_TOP: usize = 10;
/// After a forced win at the root, the candidates (by the ordering) checked for a forced
/// win of their own ([`prove_other_wins`]).
const PROVE_TOP: usize = 12;
/// The share of what the root's proof left that those checks may use.
const PROVE_SHARE: f64 = 0.8;

/// True when the pattern path applies: k >= 4 and nobody holds a special piece.
pub fn applies(position: &Position) -> bool {
    // (Its moves are any empty cells near the stones: not under gravity.)
    position.k() >= 4 && !position.has_special_pieces() && !position.gravity()
}

fn eval(score: f64, outcome: Outcome, plies: Option<u32>) -> Evaluation {
    Evaluation {
        score,
        outcome,
        plies,
    }
}

/// When the opponent would win by continuous threats if the side to move passed: the
/// moves that may stop that win, as a [`RootPlan::Defend`]. The defences (the cells of
/// the threat's main line first, then by `scored`) are checked for an opponent VCT
/// after them one depth at a time (from the quiet threats the opponent's threat needs,
/// up to [`CHECK_DEPTH`]) while the time lasts; a
/// defence proven lost at one depth is not checked deeper, and when the time runs out
/// within a depth the defences that passed it and those it did not reach are kept.
/// Besides the plan it returns, when all of them fell, the defences that held out
/// against the deepest check. Its nodes count in `budget`.
fn defend_vct(
    position: &Position,
    budget: &mut Budget,
    scored: &[(i64, u16)],
) -> (RootPlan, Vec<Move>) {
    let opp = position.to_move().opponent();
    let mut t = Tss::new(position);
    // The opponent's threat, found at the fewest quiet threats: a defence is checked
    // from that depth on (at smaller depths nothing falls).
    let mut threat = None;
    let mut share = budget.share(THREAT_SHARE);
    for depth in 0..=OPP_VCT_DEPTH {
        match t.vct(&mut share, opp, depth) {
            Verdict::Win(p) => {
                threat = Some((p, depth));
                break;
            }
            Verdict::NoProof => continue,
            _ => break,
        }
    }
    drop(share);
    let Some((threat, threat_depth)) = threat else {
        return (RootPlan::Quiet, Vec::new());
    };
    let line = threat.main_line();
    let mut alive = t.vct_defences(opp, &threat);
    alive.sort_by_key(|mv| {
        let on_line = line.iter().position(|m| m.cell() == mv.cell());
        let rank = scored.iter().position(|&(_, c)| c as usize == mv.cell());
        (on_line.unwrap_or(usize::MAX), rank.unwrap_or(usize::MAX))
    });
    let mut check = budget.share(CHECK_SHARE);
    let mut lost = Vec::new();
    let mut hardest = Vec::new();
    for depth in threat_depth..=CHECK_DEPTH.max(threat_depth) {
        let mut passed = Vec::new();
        let mut fallen = Vec::new();
        let mut unchecked = Vec::new();
        for &mv in &alive {
            if check.expired() {
                unchecked.push(mv);
                continue;
            }
            let verdict = t.vct_after(&mut check.rest(), mv, depth);
            match verdict {
                Verdict::Win(p) => fallen.push((mv, p.plies() + 1)),
                Verdict::OutOfTime => unchecked.push(mv),
                _ => passed.push(mv),
            }
        }
        if passed.is_empty() && unchecked.is_empty() {
            hardest = fallen.iter().map(|&(mv, _)| mv).collect();
            lost.extend(fallen);
            alive = passed;
            break;
        }
        lost.extend(fallen);
        if !unchecked.is_empty() {
            // Out of time within this depth: what passed it and what it could not
            // check (those passed the depth before) are all searched. Keeping only
            // what passed let one or two defences, the first in the order, decide the
            // move, which played worse (docs/strength.md).
            alive = passed;
            alive.extend(unchecked);
            break;
        }
        alive = passed;
    }
    let plan = RootPlan::Defend {
        moves: alive,
        lost,
        threat_plies: threat.plies() + 1,
    };
    (plan, hardest)
}

/// Analyses `position` on the pattern path within `budget` (at most `depth` plies, the
/// alpha-beta on `threads` threads), starting a search by time from the table `ctx` kept.
pub fn analyze(
    position: &Position,
    (depth, threads): (Option<u32>, usize),
    budget: &mut Budget,
    ctx: &mut SearchContext,
    rng: &mut StdRng,
) -> Analysis {
    let threads = threads.clamp(1, crate::core::types::MAX_THREADS);
    let tactics = *ctx.kept::<Tactics>();
    let mut counts = RootCounters {
        answers: 1,
        ..RootCounters::default()
    };
    let (plan_start, plan_clock) = (budget.nodes, Instant::now());
    // With `root_vct=off` only the VCFs run (a VCT of depth 0 is none), with
    // `root_vct=opponent` the opponent's VCT too.
    let vct_depth = match tactics.root.root_vct {
        RootVct::On => VCT_DEPTH,
        RootVct::Off | RootVct::Opponent => 0,
    };
    let vcts = tactics.root.root_vct != RootVct::Off;
    let plan = tss::plan(position, &mut budget.share(TSS_SHARE), vct_depth);
    // On an empty board only the centre is searched: the ordering puts the most
    // central cell first among the equally scored ones, and a search only tells
    // cells near the middle apart by the noise of where its horizon falls. The other
    // cells get values of their own afterwards ([`value_moves`]).
    let opening = position.empties() as usize == position.cells().len();
    let mut scored = Vec::new();
    PatternSearch::new(position, 1024).candidates(&mut scored, usize::MAX);
    let mut note = None;
    let mut hardest = Vec::new();
    let plan = match plan {
        RootPlan::Quiet if vcts => {
            let (plan, held) = defend_vct(position, budget, &scored);
            hardest = held;
            if matches!(plan, RootPlan::Defend { .. }) {
                note = Some(Note::ThreatSpaceDefenceVct);
            }
            plan
        }
        plan => plan,
    };
    // A search by time starts from the last table `ctx` kept; one limited by nodes
    // starts empty, so that it gives the same answer whatever ran before it.
    let keep = budget.node_limit().is_none();
    let (mut roots, mut proven) = root_moves(position, &plan, &hardest, &scored, opening);
    counts.plan_nodes = budget.nodes - plan_start;
    counts.plan_micros = plan_clock.elapsed().as_micros() as u64;
    match &plan {
        RootPlan::Win(_) => counts.plan_wins = 1,
        RootPlan::Defend { .. } => {
            if note == Some(Note::ThreatSpaceDefenceVct) {
                counts.plan_vct_defences = 1;
            } else {
                counts.plan_vcf_defences = 1;
            }
            let first = scored.first().map(|&(_, c)| c);
            counts.plan_moved_first =
                u64::from(first.is_some_and(|c| !roots.iter().any(|r| r.cell == c)));
        }
        RootPlan::Quiet => {}
    }
    // In a quiet position the search takes turns with the root's guard (unless
    // `guard=off`).
    let guarding =
        matches!(plan, RootPlan::Quiet) && roots.len() > 1 && tactics.root.guard != Guard::Off;
    let eval = *ctx.kept::<EvalChoice>();
    let mut s = if keep {
        PatternSearch::keeping_table(position, 1 << 18, ctx.kept(), eval)
    } else {
        PatternSearch::evaluating(position, 1 << 18, eval)
    };
    // Every cell's own value first (about a node each), and the main search leaves a
    // share of the time for the best moves' values that are only bounds.
    let cells = ctx.kept::<CellValues>().0 && budget.every_cell();
    // A forced move (one root left, the others proven lost) is searched only a few
    // plies by the time manager: enough to play it. Where its value is shown, it is
    // searched as deep as the budget allows, as a move chosen alone is, so that the
    // value shows what a search of the position after it finds (an only defence that
    // loses showed -0.3 from depth 4, where the position after it is lost).
    s.chosen_root = opening || (cells && roots.len() == 1);
    s.tactics = tactics;

    note = match &plan {
        RootPlan::Win(_) => Some(Note::ThreatSpaceWin),
        RootPlan::Defend { .. } => note.or(Some(Note::ThreatSpaceDefence)),
        RootPlan::Quiet => note,
    };
    let max_depth = depth.unwrap_or(64).clamp(1, 64);
    let mut lost: Vec<(Move, u32)> = match &plan {
        RootPlan::Defend { lost, .. } => lost.clone(),
        _ => Vec::new(),
    };
    let shallow = if cells {
        shallow_values(position, &mut s, budget)
    } else {
        vec![None; position.cells().len()]
    };
    let mut main = budget.all_but(if cells { VALUE_SHARE } else { 0.0 });
    let completed = if roots.is_empty() {
        0
    } else if guarding {
        let found = guard::search(
            position,
            &mut s,
            &mut roots,
            (max_depth, threads),
            &mut main,
            &mut counts,
        );
        if !found.refuted.is_empty() {
            note = note.or(Some(Note::ThreatSpaceGuard));
        }
        for &(c, plies) in &found.refuted {
            if roots.iter().any(|r| r.cell == c) {
                // Every move fell, this one last: it is played, shown as lost.
                lost.push((Move::mark(c as usize), plies));
            } else {
                proven.push((c, Outcome::Loss, plies));
            }
        }
        found.completed
    } else {
        let mut rest = main.rest();
        // Under threat the time manager's target does not apply: the search takes its time.
        if matches!(plan, RootPlan::Defend { .. }) {
            rest.untarget();
        }
        let range = (1, max_depth);
        let (nodes, clock) = (rest.nodes, Instant::now());
        let completed = s
            .iterate_threads(&mut rest, position, &mut roots, range, threads)
            .0;
        counts.search_nodes = rest.nodes - nodes;
        counts.search_micros = clock.elapsed().as_micros() as u64;
        completed
    };
    counts.flush();
    drop(main);
    let ran = if roots.is_empty() { 1 } else { threads };
    // The lines of the best roots (the chosen move's, and more with multipv), read from
    // the table before it goes back to the context.
    let lines: Vec<Vec<Move>> = roots
        .iter()
        .take(budget.lines().max(1))
        .map(|r| s.line(r.cell, completed.max(1) as usize))
        .collect();
    if keep {
        s.leave_table(ctx.kept());
    }

    // Among equal values the search's own order decides (it ranks by the deepest
    // iteration, then by the ordering score); the RNG is not needed here.
    let _ = rng.random::<u32>();
    let mut moves = rank_moves(position, &proven, &roots, &lost, &scored);
    if cells {
        value_moves(position, &mut s, &mut moves, &shallow, budget);
        if matches!(plan, RootPlan::Win(_)) {
            prove_other_wins(position, &mut moves, &scored, budget);
        }
    }
    let results = RootResults {
        choice: Choice::Ranked,
        line_after: Box::new(|mv| match &plan {
            RootPlan::Win(proof) if proof.first_move() == mv => proof.main_line()[1..].to_vec(),
            _ => lines
                .iter()
                .find(|l| l[0] == mv)
                .map_or_else(Vec::new, |l| l[1..].to_vec()),
        }),
        path: Some(SearchPath {
            route: Some(Route::PatternSearch),
            notes: (eval.learned(&position.rules()).is_some())
                .then_some(Note::LearnedEvaluation)
                .into_iter()
                .chain(note)
                .collect(),
        }),
        ..RootResults::new(moves, completed, matches!(plan, RootPlan::Win(_)))
    };
    let mut analysis = root::finish(position, results, budget, rng);
    analysis.stats.threads = ran as u32;
    analysis
}

/// Every empty cell's evaluation, best first: the proofs (wins first, losses last), the
/// searched `roots` by their value (`lost` says which of them are proven lost, and in
/// how many plies), then every other cell by its ordering score in `scored`, ranked
/// below the lowest searched root, even one the search saw lose (its tree is pruned, so
/// that is no proof, and an unsearched cell is no better known).
fn rank_moves(
    position: &Position,
    proven: &[(u16, Outcome, u32)],
    roots: &[RootMove],
    lost: &[(Move, u32)],
    scored: &[(i64, u16)],
) -> Vec<MoveEval> {
    let mut moves: Vec<MoveEval> = Vec::new();
    let mut done = vec![false; position.cells().len()];
    for &(c, outcome, plies) in proven {
        // A proof reads to the end of the game: its depth is its plies.
        moves.push(MoveEval::searched(
            Move::mark(c as usize),
            WinScale::SEARCH.eval(outcome, plies),
            plies,
        ));
        done[c as usize] = true;
    }
    let mut floor = f64::INFINITY;
    for r in roots {
        let lost_root = lost.iter().any(|&(m, _)| m.cell() == r.cell as usize);
        // A root the search never reached (the budget ran out first) has no value: it
        // is ranked with the cells not searched, by the ordering.
        if done[r.cell as usize] || (r.depth == 0 && !lost_root) {
            continue;
        }
        let mut e = r.move_eval();
        floor = floor.min(e.eval.score);
        // A root the search saw lose is proven: exact whatever the window.
        if let Some(&(_, plies)) = lost.iter().find(|&&(m, _)| m == e.mv) {
            e.eval.outcome = Outcome::Loss;
            e.eval.plies = Some(plies);
            e.bound = Bound::Exact;
        }
        moves.push(e);
        done[r.cell as usize] = true;
    }
    let floor = if floor.is_finite() { floor } else { 0.0 };
    let mut rank = 0.0;
    for &(_, c) in scored {
        if !done[c as usize] {
            rank += 1.0;
            moves.push(MoveEval::unsearched(
                Move::mark(c as usize),
                eval(floor - rank, Outcome::Unknown, None),
            ));
            done[c as usize] = true;
        }
    }
    for (c, &seen) in done.iter().enumerate() {
        if !seen && position.cell(c) == kinrow_game::Cell::Empty {
            moves.push(MoveEval::unsearched(
                Move::mark(c),
                eval(floor - rank - 1.0, Outcome::Unknown, None),
            ));
        }
    }
    // A stable sort: among equal values the order above decides.
    moves.sort_by(|a, b| b.eval.score.total_cmp(&a.eval.score));
    moves
}

/// Gives the moves of `moves` (ranked by [`rank_moves`], the chosen one first) values of
/// their own within `budget`, with the searcher `s` of the main search (the same
/// evaluation, its table): first every move not valued yet takes its value from
/// `shallow` ([`shallow_values`]), then the best [`EXACT_TOP`] moves whose value is only
/// a null window's bound are searched again with an open window, up to their depth. What the budget does not reach keeps what it had. The
/// chosen move stays first; the rest are ranked again: proven wins, the moves the main
/// search valued, those valued here, those left unvalued, proven losses, each by score.
pub fn value_moves(
    position: &Position,
    s: &mut PatternSearch,
    moves: &mut [MoveEval],
    shallow: &[Option<Evaluation>],
    budget: &mut Budget,
) {
    // Per cell: valued by the main search (ranked above the cells valued here).
    let mut main = vec![false; position.cells().len()];
    for e in moves.iter().filter(|e| e.evaluated) {
        main[e.mv.cell()] = true;
    }
    for e in moves.iter_mut().filter(|e| !e.evaluated) {
        if let Some(v) = &shallow[e.mv.cell()] {
            *e = MoveEval::searched(e.mv, v.clone(), 1);
        }
    }
    rank_valued(moves, &main);
    // The bounds among the best: each gets an even share of what is left, deepening
    // one ply at a time up to its own depth, and the deepest value finished replaces the
    // bound, at its depth. A value found so usually ranks the move lower and another
    // bound moves up among the best: this goes on until none is left there.
    let mut tried = vec![false; position.cells().len()];
    loop {
        // (The chosen move too: after the guard refuted the search's first choice, the
        // next one may hold only a bound.)
        let bounds: Vec<usize> = (0..moves.len().min(EXACT_TOP))
            .filter(|&i| moves[i].bound == Bound::Upper && !tried[moves[i].mv.cell()])
            .collect();
        let Some(&i) = bounds.first() else {
            break;
        };
        let e = &mut moves[i];
        tried[e.mv.cell()] = true;
        let mut slice = budget.share_of_rest(1.0 / bounds.len() as f64);
        let mut exact = None;
        for depth in 1..=e.depth {
            match s.value_of(&mut slice, e.mv.cell() as u16, depth) {
                Some(v) => exact = Some((v, depth)),
                None => break,
            }
        }
        drop(slice);
        let Some((v, depth)) = exact else {
            break;
        };
        e.eval.score = v.clamp(-PATTERN_MATE, PATTERN_MATE) as f64;
        e.bound = Bound::Exact;
        e.depth = depth;
        rank_valued(moves, &main);
    }
}

/// After a forced win at the root the move is decided within milliseconds, and the
/// budget left shows which other cells win too (else a second winning cell keeps its
/// one-ply value, which may read as even: docs/strength.md, "Values against the judge's
/// suites"). Up to [`PROVE_TOP`] candidates by the ordering (`scored`) are played in turn
/// and the position after each is searched as the root searches its own: the opponent's
/// VCF first (then no proof), then the mover's VCF were the opponent to pass with every
/// defence checked for a VCF after it ([`tss::plan`]), else the mover's short VCT with
/// every defence checked ([`defend_vct`]). Where every defence falls the cell is proven
/// won, in the plies of the slowest defence; the moves are ranked again (wins first after
/// the chosen move). Runs only where the cells are shown, within [`PROVE_SHARE`] of what
/// is left.
fn prove_other_wins(
    position: &Position,
    moves: &mut [MoveEval],
    scored: &[(i64, u16)],
    budget: &mut Budget,
) {
    let won: Vec<bool> = {
        let mut w = vec![false; position.cells().len()];
        for e in moves.iter().filter(|e| e.eval.outcome == Outcome::Win) {
            w[e.mv.cell()] = true;
        }
        w
    };
    let candidates: Vec<usize> = scored
        .iter()
        .map(|&(_, c)| c as usize)
        .filter(|&c| !won[c])
        .take(PROVE_TOP)
        .collect();
    let mut part = budget.share_of_rest(PROVE_SHARE);
    for (i, &c) in candidates.iter().enumerate() {
        if part.expired() {
            break;
        }
        let mut after = position.clone();
        after.play(Move::mark(c));
        if after.is_over() {
            continue;
        }
        let mut slice = part.share_of_rest(1.0 / (candidates.len() - i) as f64);
        let all_fall = |plan: &RootPlan| match plan {
            RootPlan::Defend {
                moves,
                lost,
                threat_plies,
            } if moves.is_empty() => Some(
                lost.iter()
                    .map(|&(_, p)| p)
                    .max()
                    .unwrap_or(0)
                    .max(*threat_plies),
            ),
            _ => None,
        };
        let plies = match tss::plan(&after, &mut slice, 0) {
            RootPlan::Quiet if !slice.expired() => all_fall(&defend_vct(&after, &mut slice, &[]).0),
            plan => all_fall(&plan),
        };
        drop(slice);
        let Some(plies) = plies else {
            continue;
        };
        if let Some(e) = moves.iter_mut().skip(1).find(|e| e.mv.cell() == c) {
            *e = MoveEval::searched(
                e.mv,
                WinScale::SEARCH.eval(Outcome::Win, plies + 1),
                plies + 1,
            );
        }
    }
    if let Some(rest) = moves.get_mut(1..) {
        // The wins first, the quickest first; the rest as they were (a stable sort).
        let win = |e: &MoveEval| e.eval.outcome == Outcome::Win;
        rest.sort_by(|a, b| {
            win(b).cmp(&win(a)).then_with(|| match (win(a), win(b)) {
                (true, true) => b.eval.score.total_cmp(&a.eval.score),
                _ => std::cmp::Ordering::Equal,
            })
        });
    }
}

/// Every empty cell's value for the side to move by a search of a mark there one ply
/// deep ([`PatternSearch::value_of`]: the move, then the opponent's forced replies, the
/// leaf's threat checks and the evaluation; a five is a win in one), indexed by cell;
/// `None` where `budget` stopped first (and on the stones). About one node a cell: it
/// runs before the main search, so that no deadline the main search overran can leave
/// the board without values.
pub fn shallow_values(
    position: &Position,
    s: &mut PatternSearch,
    budget: &mut Budget,
) -> Vec<Option<Evaluation>> {
    let me = position.to_move();
    let mut out = vec![None; position.cells().len()];
    for (c, slot) in out.iter_mut().enumerate() {
        if position.cell(c) != kinrow_game::Cell::Empty {
            continue;
        }
        if position.wins_at(c, me) {
            *slot = Some(WinScale::SEARCH.eval(Outcome::Win, 1));
            continue;
        }
        let Some(v) = s.value_of(budget, c as u16, 1) else {
            break;
        };
        // As for the roots: a search value near a win is no proof.
        let score = v.clamp(-PATTERN_MATE, PATTERN_MATE) as f64;
        *slot = Some(eval(score, Outcome::Unknown, None));
    }
    out
}

/// Ranks `moves` but the first (the chosen move): proven wins, the moves the main
/// search valued (`main`, by cell), those valued by a search of their own, those left
/// unvalued, proven losses; each by score, and among equal scores as they were.
fn rank_valued(moves: &mut [MoveEval], main: &[bool]) {
    let tier = |e: &MoveEval| match e.eval.outcome {
        Outcome::Win => 0,
        Outcome::Loss => 4,
        _ if !e.evaluated => 3,
        _ if main[e.mv.cell()] => 1,
        _ => 2,
    };
    if let Some(rest) = moves.get_mut(1..) {
        rest.sort_by(|a, b| {
            tier(a)
                .cmp(&tier(b))
                .then(b.eval.score.total_cmp(&a.eval.score))
        });
    }
}

/// [`value_moves`] for an answer already made (`analysis`, its chosen move first), with
/// a searcher of its own on the evaluation `ctx` keeps; the analysis' evaluation
/// becomes the chosen move's value.
pub fn value_unsearched(
    position: &Position,
    analysis: &mut Analysis,
    budget: &mut Budget,
    ctx: &mut SearchContext,
) {
    if analysis.moves.iter().all(|e| e.evaluated) {
        return;
    }
    let eval = *ctx.kept::<EvalChoice>();
    let mut s = PatternSearch::evaluating(position, 1 << 14, eval);
    s.tactics = *ctx.kept::<Tactics>();
    let shallow = shallow_values(position, &mut s, budget);
    value_moves(position, &mut s, &mut analysis.moves, &shallow, budget);
    if let Some(first) = analysis.moves.first() {
        if first.mv == analysis.best {
            analysis.evaluation = first.eval.clone();
        }
    }
    analysis.stats.nodes = budget.nodes;
}

/// The root moves to search, in the ordering's order, and the cells the threat-space
/// `plan` proved: its winning cell, or against the opponent's forced win every cell but
/// the defences (`hardest`, those that held out against the deepest check, are still
/// searched when every defence is proven lost: the opponent may not find the win).
fn root_moves(
    position: &Position,
    plan: &RootPlan,
    hardest: &[Move],
    scored: &[(i64, u16)],
    opening: bool,
) -> (Vec<RootMove>, Vec<(u16, Outcome, u32)>) {
    let mut roots: Vec<RootMove> = Vec::new();
    let mut proven: Vec<(u16, Outcome, u32)> = Vec::new();
    match plan {
        RootPlan::Win(proof) => {
            proven.push((proof.cell() as u16, Outcome::Win, proof.plies()));
        }
        RootPlan::Defend {
            moves,
            lost,
            threat_plies,
        } => {
            let hold: Vec<Move> = if !moves.is_empty() {
                moves.clone()
            } else if !hardest.is_empty() {
                hardest.to_vec()
            } else {
                lost.iter().map(|&(mv, _)| mv).collect()
            };
            for c in 0..position.cells().len() {
                if position.cell(c) != kinrow_game::Cell::Empty {
                    continue;
                }
                let mv = Move::mark(c);
                if hold.contains(&mv) {
                    roots.push(RootMove::new(c as u16));
                } else {
                    let plies = lost
                        .iter()
                        .find(|(m, _)| *m == mv)
                        .map_or(*threat_plies, |&(_, p)| p);
                    proven.push((c as u16, Outcome::Loss, plies));
                }
            }
            roots.sort_by_key(|r| scored.iter().position(|&(_, c)| c == r.cell));
        }
        RootPlan::Quiet => {
            roots = scored
                .iter()
                .take(if opening { 1 } else { ROOT_WIDTH })
                .map(|&(_, c)| RootMove::new(c))
                .collect();
        }
    }
    (roots, proven)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::auto::score::PATTERN_WIN;
    use kinrow_game::Rules;

    fn root(cell: u16, value: i64) -> RootMove {
        RootMove {
            value,
            depth: 4,
            ..RootMove::new(cell)
        }
    }

    fn position() -> Position {
        let mut p = Position::empty(&Rules::mnk(9, 9, 5).unwrap());
        for c in [40, 41, 31] {
            p.play(Move::mark(c));
        }
        p
    }

    /// When the search saw every root it searched lose, those roots still rank above
    /// the cells it did not search; proofs stay first and last.
    #[test]
    fn unsearched_cells_rank_below_roots_the_search_saw_lose() {
        let p = position();
        let roots = [root(30, -(PATTERN_WIN - 9)), root(50, -(PATTERN_WIN - 5))];
        let scored = [(90, 32), (80, 30), (70, 49), (60, 50)];
        let proven = [(22, Outcome::Loss, 3)];
        let moves = rank_moves(&p, &proven, &roots, &[], &scored);
        let cells: Vec<usize> = moves.iter().map(|e| e.mv.cell()).collect();
        assert_eq!(&cells[..4], &[30, 50, 32, 49]);
        assert_eq!(*cells.last().unwrap(), 22);
        assert_eq!(moves.len(), 81 - 3);
        assert!(moves.windows(2).all(|w| w[0].eval.score >= w[1].eval.score));
        assert!(moves[..2]
            .iter()
            .all(|e| e.eval.outcome == Outcome::Unknown));
    }

    /// A proven win comes first, searched roots follow by value, and cells nobody
    /// scored come after every scored one.
    #[test]
    fn wins_first_then_roots_by_value_then_scored_cells() {
        let p = position();
        let roots = [root(30, 40), root(50, 120)];
        let scored = [(90, 32), (10, 49)];
        let proven = [(23, Outcome::Win, 5)];
        let moves = rank_moves(&p, &proven, &roots, &[(Move::mark(30), 7)], &scored);
        let cells: Vec<usize> = moves.iter().map(|e| e.mv.cell()).collect();
        assert_eq!(&cells[..5], &[23, 50, 30, 32, 49]);
        assert_eq!(moves[0].eval.outcome, Outcome::Win);
        assert_eq!(moves[2].eval.outcome, Outcome::Loss);
        assert_eq!(moves[2].eval.plies, Some(7));
        assert!(moves[5..]
            .iter()
            .all(|e| e.eval.score < moves[4].eval.score));
    }
}
