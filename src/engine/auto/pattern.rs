//! `auto`'s path for k >= 4 without special pieces: threat-space search at the root
//! (a forced win is played; against the opponent's forced win only the moves that may
//! stop it are searched, the others are proven lost), then the pattern search.

use rand::rngs::StdRng;
use rand::RngExt;

use super::search::{PatternSearch, RootMove, MATE};
use crate::engine::tss::{self, RootPlan};
use crate::engine::{Analysis, Clock, Evaluation, Limits, MoveEval, Outcome, SearchStats};
use crate::game::{Move, Position};

/// The share of the budget the root's threat searches may use.
const TSS_SHARE: f64 = 0.2;
/// Quiet threats the root's VCT may chain.
const VCT_DEPTH: u32 = 2;
/// Root moves searched (the best by the ordering score), when no threat narrows them.
const ROOT_WIDTH: usize = 24;
/// A proven win or loss in `plies` shows with this score (sign by outcome).
const PROVEN: f64 = 1e15;

/// True when the pattern path applies: k >= 4 and nobody holds a special piece.
pub fn applies(position: &Position) -> bool {
    position.k() >= 4 && !position.has_special_pieces()
}

fn eval(score: f64, outcome: Outcome, plies: Option<u32>) -> Evaluation {
    Evaluation {
        score,
        outcome,
        plies,
    }
}

/// Analyses `position` on the pattern path.
pub fn analyze(position: &Position, limits: &Limits, rng: &mut StdRng) -> Analysis {
    let clock = Clock::start(limits);
    let tss_limits = Limits {
        time: limits.time.mul_f64(TSS_SHARE),
        nodes: limits.nodes.map(|n| (n as f64 * TSS_SHARE) as u64),
        ..Limits::default()
    };
    let (plan, tss_nodes) = tss::plan(position, Clock::start(&tss_limits), VCT_DEPTH);
    let rest = Limits {
        time: clock.remaining(),
        nodes: limits.nodes,
        ..Limits::default()
    };
    let mut s = PatternSearch::new(position, Clock::start(&rest), 1 << 18);
    let mut scored = Vec::new();
    s.candidates(&mut scored);

    let mut roots: Vec<RootMove> = Vec::new();
    let mut proven: Vec<(u16, Outcome, u32)> = Vec::new();
    let mut note = None;
    match &plan {
        RootPlan::Win(proof) => {
            proven.push((proof.cell() as u16, Outcome::Win, proof.plies()));
            note = Some("threat-space win");
        }
        RootPlan::Defend {
            moves,
            lost,
            threat_plies,
        } => {
            note = Some("threat-space defence");
            // When every defence is proven lost too, they are still searched: the
            // opponent may not find the win, and they hold out longest.
            let hold: Vec<Move> = if moves.is_empty() {
                lost.iter().map(|&(mv, _)| mv).collect()
            } else {
                moves.clone()
            };
            for c in 0..position.cells().len() {
                if position.cell(c) != crate::game::Cell::Empty {
                    continue;
                }
                let mv = Move::mark(c);
                if hold.contains(&mv) {
                    roots.push(RootMove {
                        cell: c as u16,
                        value: 0,
                    });
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
                .take(ROOT_WIDTH)
                .map(|&(_, c)| RootMove { cell: c, value: 0 })
                .collect();
        }
    }
    let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
    let completed = if roots.is_empty() {
        0
    } else {
        s.iterate(&mut roots, max_depth)
    };

    // Every empty cell gets a score: proofs first, then searched roots, then the rest
    // by their ordering score below the lowest root.
    let mut moves: Vec<MoveEval> = Vec::new();
    let mut done = vec![false; position.cells().len()];
    for &(c, outcome, plies) in &proven {
        let score = if outcome == Outcome::Win {
            PROVEN - plies as f64
        } else {
            -PROVEN + plies as f64
        };
        moves.push(MoveEval {
            mv: Move::mark(c as usize),
            eval: eval(score, outcome, Some(plies)),
            action: None,
        });
        done[c as usize] = true;
    }
    for r in &roots {
        if done[r.cell as usize] {
            continue;
        }
        // Search values near a win are not proofs (inner nodes see only the best moves).
        let score = r.value.clamp(-MATE, MATE) as f64;
        let mv = Move::mark(r.cell as usize);
        let (outcome, plies) = match &plan {
            RootPlan::Defend { lost, .. } => lost
                .iter()
                .find(|&&(m, _)| m == mv)
                .map_or((Outcome::Unknown, None), |&(_, p)| (Outcome::Loss, Some(p))),
            _ => (Outcome::Unknown, None),
        };
        moves.push(MoveEval {
            mv,
            eval: eval(score, outcome, plies),
            action: None,
        });
        done[r.cell as usize] = true;
    }
    let floor = moves
        .iter()
        .filter(|e| e.eval.score.abs() < PROVEN / 2.0)
        .map(|e| e.eval.score)
        .fold(f64::INFINITY, f64::min);
    let floor = if floor.is_finite() { floor } else { 0.0 };
    let mut rank = 0.0;
    for &(_, c) in &scored {
        if !done[c as usize] {
            rank += 1.0;
            moves.push(MoveEval {
                mv: Move::mark(c as usize),
                eval: eval(floor - rank, Outcome::Unknown, None),
                action: None,
            });
            done[c as usize] = true;
        }
    }
    for (c, &seen) in done.iter().enumerate() {
        if !seen && position.cell(c) == crate::game::Cell::Empty {
            moves.push(MoveEval {
                mv: Move::mark(c),
                eval: eval(floor - rank - 1.0, Outcome::Unknown, None),
                action: None,
            });
        }
    }
    // Among equal values the search's own order decides (it ranks by the deepest
    // iteration, then by the ordering score); the RNG is not needed here.
    let _ = rng.random::<u32>();
    let order: Vec<Move> = moves.iter().map(|e| e.mv).collect();
    moves.sort_by(|a, b| {
        b.eval.score.total_cmp(&a.eval.score).then(
            order
                .iter()
                .position(|&m| m == a.mv)
                .cmp(&order.iter().position(|&m| m == b.mv)),
        )
    });
    let best = moves[0].clone();
    let pv = match &plan {
        RootPlan::Win(proof) if proof.first_move() == best.mv => proof.main_line(),
        _ => vec![best.mv],
    };
    let complete = matches!(plan, RootPlan::Win(_));
    Analysis {
        best: best.mv,
        evaluation: best.eval,
        moves,
        pv,
        stats: SearchStats {
            nodes: s.clock.nodes + tss_nodes,
            depth: completed,
            elapsed: clock.elapsed(),
            complete,
            path: Some(match note {
                Some(n) => format!("pattern search: {n}"),
                None => "pattern search".into(),
            }),
        },
    }
}
