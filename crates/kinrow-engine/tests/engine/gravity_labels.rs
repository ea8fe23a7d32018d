//! Every column of Connect Four positions against a reference solver, and each label
//! against a search of the position after its move.
//!
//! `data/connect4_columns.txt` holds 1,914 random positions of every stage (1-40 stones)
//! with the score of each column from BitBully (PyPI `bitbully` 0.0.79, MIT: an
//! independent solver with its own opening book), made by `python
//! scripts/connect4-reference.py 52 2000 0 41`. Each column's outcome and plies must be
//! kinrow's `perfect`'s. The CI checks the positions of at most 11 stones (answered from
//! the book) and of 22 or more (quick to solve); `every_column_of_every_position` checks
//! all of them (the middle game takes seconds a position: `--ignored`, release build;
//! docs/performance.md has the run).

use std::time::Duration;

use kinrow_engine::Engine;
use kinrow_engine::EngineKind;
use kinrow_engine::Perfect;
use kinrow_engine::SearchContext;
use kinrow_engine::{Analysis, Bound, Limits, MoveEval, Outcome};
use kinrow_engine::{Note, Route, SearchPath};
use kinrow_game::{Position, Rules};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const REFERENCE: &str = include_str!("data/connect4_columns.txt");

fn connect_four() -> Rules {
    Rules::mnk(7, 6, 4)
        .and_then(|r| r.with_gravity(true))
        .unwrap()
}

/// The reference's lines: moves and each column's score (`None`: a full column).
fn reference() -> Vec<(String, Vec<Option<i32>>)> {
    REFERENCE
        .lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let moves = words.next().unwrap().to_string();
            let scores = words.map(|w| w.parse().ok()).collect::<Vec<_>>();
            assert_eq!(scores.len(), 7, "{line}");
            (moves, scores)
        })
        .collect()
}

/// A column's outcome and plies in the reference's unit: the winner's stones left after
/// its winning stone, plus one (positive when the mover wins), 0 a draw, `None` when
/// not proven.
fn unit(cells: u32, stones: u32, outcome: Outcome, plies: Option<u32>) -> Option<i32> {
    let v = |p: u32| (cells as i32 + 2 - (stones + p) as i32) / 2;
    match (outcome, plies) {
        (Outcome::Draw, _) => Some(0),
        (Outcome::Win, Some(p)) => Some(v(p)),
        (Outcome::Loss, Some(p)) => Some(-v(p)),
        _ => None,
    }
}

fn solve(position: &Position, ctx: &mut SearchContext) -> Analysis {
    let limits = Limits::with_time(Duration::from_secs(600));
    let a = Perfect.analyze_with(position, &limits, ctx, &mut StdRng::seed_from_u64(1));
    assert!(a.stats.complete, "not solved");
    a
}

/// Checks every column of the reference's positions whose stones `keep` accepts;
/// returns how many columns.
fn check(keep: impl Fn(usize) -> bool) -> usize {
    let rules = connect_four();
    let mut ctx = SearchContext::new();
    let mut columns = 0;
    for (moves, want) in reference().into_iter().filter(|(m, _)| keep(m.len())) {
        let p = Position::from_column_digits(&rules, &moves, "board").unwrap();
        let a = solve(&p, &mut ctx);
        let stones = moves.len() as u32;
        for (c, want) in want.iter().enumerate() {
            let got = a
                .moves
                .iter()
                .find(|e| e.mv.cell() % 7 == c)
                .map(|e| unit(42, stones, e.eval.outcome, e.eval.plies));
            assert_eq!(got, want.map(Some), "{moves}: column {}", c + 1);
            columns += 1;
        }
        assert_eq!(a.moves.len(), want.iter().flatten().count(), "{moves}");
    }
    columns
}

#[test]
fn every_column_of_the_book_s_and_the_late_positions() {
    let columns = check(|stones| stones <= 11 || stones >= 22);
    assert_eq!(columns, (1019 + 220) * 7);
}

#[test]
#[ignore]
fn every_column_of_every_position() {
    assert_eq!(check(|_| true), 1914 * 7);
}

/// A random game of `stones` stones that nobody has won.
fn random_position(stones: usize, rng: &mut StdRng) -> Position {
    let rules = connect_four();
    'again: loop {
        let mut p = Position::empty(&rules);
        for _ in 0..stones {
            let moves = p.legal_moves();
            p.play(moves[rng.random_range(0..moves.len())]);
            if p.is_over() {
                continue 'again;
            }
        }
        return p;
    }
}

/// Each column's label is what a search of the position after its move says, seen from
/// the other side one ply later: a win in p plies there is a loss in p - 1 after it (a
/// win in 1 ends the game), a draw a draw. Positions of 24-34 stones (seeded), and of
/// 9-11 stones, whose children the book answers.
#[test]
fn a_label_agrees_with_a_search_after_its_move() {
    let mut rng = StdRng::seed_from_u64(52);
    let mut ctx = SearchContext::new();
    let mut labels = 0;
    for i in 0..40 {
        let stones = if i % 4 == 0 {
            rng.random_range(9..=11)
        } else {
            rng.random_range(24..=34)
        };
        let p = random_position(stones, &mut rng);
        let a = solve(&p, &mut ctx);
        for e in &a.moves {
            let mut after = p.clone();
            after.play(e.mv);
            if after.is_over() {
                assert_eq!((e.eval.outcome, e.eval.plies), (Outcome::Win, Some(1)));
                continue;
            }
            let b = solve(&after, &mut ctx);
            let want = match b.evaluation.outcome {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                o => o,
            };
            assert_eq!(e.eval.outcome, want, "{:?} after {:?}", p.cells(), e.mv);
            if want != Outcome::Draw {
                assert_eq!(e.eval.plies, b.evaluation.plies.map(|p| p + 1));
            }
            labels += 1;
        }
    }
    assert!(labels > 150, "{labels} labels");
}

/// `auto` on Connect Four openings (issue 52): from "4444" only the centre column keeps
/// the first player's win, and `auto` plays it, proven; on "577511671162" (12 stones, the
/// book's last level: a draw) one column draws and every other loses, and `auto` plays
/// the draw, taking `perfect`'s proof once that column is proven.
#[test]
fn auto_keeps_the_win_and_the_draw_of_the_opening() {
    let rules = connect_four();
    let auto = EngineKind::Auto.build();
    let p = Position::from_column_digits(&rules, "4444", "board").unwrap();
    let limits = Limits::with_time(Duration::from_secs(1));
    let a = auto.analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
    assert_eq!(a.best.cell() % 7, 3);
    assert_eq!(
        (a.evaluation.outcome, a.evaluation.plies),
        (Outcome::Win, Some(37))
    );
    assert!(a.stats.complete);
    let p = Position::from_column_digits(&rules, "577511671162", "board").unwrap();
    // A node budget, so that the machine's load does not decide: half of it is
    // perfect's, which proves the draw and the book shows that nothing wins.
    let limits = Limits {
        nodes: Some(3_000_000),
        ..Limits::with_time(Duration::from_secs(600))
    };
    let a = auto.analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
    assert_eq!(a.best.cell() % 7, 3, "{:?}", a.stats.path);
    assert_eq!(a.evaluation.outcome, Outcome::Draw, "{:?}", a.stats.path);
    assert_eq!(a.stats.path, Some(SearchPath::route(Route::Perfect)));
}

/// The empty board: `perfect` answers every column exactly at once (the book), and
/// picks the centre, the only win.
#[test]
fn the_empty_board_is_answered_at_once() {
    let p = Position::empty(&connect_four());
    let a = solve(&p, &mut SearchContext::new());
    assert_eq!(a.stats.nodes, 0);
    assert_eq!(a.best.cell() % 7, 3);
    assert!(a
        .moves
        .iter()
        .all(|e| e.eval.outcome != Outcome::Unknown && e.eval.plies.is_some()));
}

/// What a column's answer `e` shows against the reference's score `want` on a board of
/// `stones` stones: `None` where unproven, else whether the proof agrees: the outcome,
/// and the plies exact, or as a bound (`bound` not exact: `perfect` ran out before
/// pinning them) no fewer than the exact distance.
fn agrees(e: &MoveEval, stones: u32, want: i32) -> Option<bool> {
    let outcome = match want.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    };
    if e.eval.outcome == Outcome::Unknown {
        return None;
    }
    let plies = match (e.eval.outcome, e.eval.plies) {
        (Outcome::Draw, _) | (_, None) => true,
        (o, Some(p)) => {
            let shown = unit(42, stones, o, Some(p)).unwrap();
            if e.bound == Bound::Exact {
                shown == want
            } else {
                // At most `p` plies: the end comes no later, so no fewer stones are left.
                shown.abs() <= want.abs()
            }
        }
    };
    Some(e.eval.outcome == outcome && plies)
}

/// `auto`'s answer for Connect Four `moves` at a budget of `nodes` (half of them
/// `perfect`'s), seeded.
fn auto_at(moves: &str, nodes: u64) -> (Position, Analysis) {
    let p = Position::from_column_digits(&connect_four(), moves, "board").unwrap();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::with_time(Duration::from_secs(600))
    };
    let a = EngineKind::Auto
        .build()
        .analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
    (p, a)
}

/// docs/performance.md ("auto keeps what perfect proved"): `auto` at a node budget
/// (`KINROW_AUTO_NODES`, default 400,000: what 150 ms buys here) on the first 60
/// positions of 12 and of 13 stones of the reference: the answers that fell back to
/// `minimax` (the proof ran out), the columns they show with a proven outcome and as
/// estimates, the proven ones that disagree with the reference (outcome, or plies below
/// the exact distance), and the chosen moves of a worse outcome than the best column's.
/// `KINROW_AUTO_VERBOSE` prints every fallback answer.
#[test]
#[ignore]
fn auto_shows_what_its_proof_settled_on_12_and_13_stones() {
    let nodes: u64 = std::env::var("KINROW_AUTO_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400_000);
    let verbose = std::env::var("KINROW_AUTO_VERBOSE").is_ok();
    println!("| stones | answers | fell back | columns there | shown proven | estimates | wrong | chosen of a worse outcome |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut wrong_in_all = 0;
    for stones in [12, 13] {
        let (mut answers, mut fell, mut columns, mut proven, mut wrong, mut worse) =
            (0, 0, 0, 0, 0, 0);
        for (moves, want) in reference()
            .into_iter()
            .filter(|(m, _)| m.len() == stones)
            .take(60)
        {
            answers += 1;
            let (_, a) = auto_at(&moves, nodes);
            let path = a.stats.path.clone().unwrap_or_default();
            if path.route == Some(Route::Perfect) {
                continue;
            }
            fell += 1;
            let mut shown = String::new();
            let mut by_column: Vec<&MoveEval> = a.moves.iter().collect();
            by_column.sort_by_key(|e| e.mv.cell() % 7);
            for e in by_column {
                let w = want[e.mv.cell() % 7].expect("a legal column has a score");
                columns += 1;
                match agrees(e, stones as u32, w) {
                    None => shown.push('?'),
                    Some(true) => {
                        proven += 1;
                        shown.push_str(e.eval.outcome.as_str().get(..1).unwrap());
                    }
                    Some(false) => {
                        proven += 1;
                        wrong += 1;
                        shown.push('X');
                    }
                }
            }
            let best = want.iter().flatten().map(|w| w.signum()).max().unwrap();
            let chosen = want[a.best.cell() % 7].unwrap().signum();
            if chosen < best {
                worse += 1;
            }
            if verbose {
                // What `perfect` alone proves with auto's share of the nodes.
                let p = Position::from_column_digits(&connect_four(), &moves, "board").unwrap();
                let limits = Limits {
                    nodes: Some(nodes / 2),
                    ..Limits::with_time(Duration::from_secs(600))
                };
                let proof = Perfect.analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
                let mut proved: Vec<_> = proof.moves.iter().collect();
                proved.sort_by_key(|e| e.mv.cell() % 7);
                let proved: String = proved
                    .iter()
                    .map(|e| e.eval.outcome.as_str().chars().next().unwrap())
                    .collect();
                println!(
                    "{moves} {path}: chose {} (ref {:?}), shown by column order {shown}, perfect alone {proved}",
                    a.best.cell() % 7 + 1,
                    want
                );
            }
        }
        let estimates = columns - proven;
        println!("| {stones} | {answers} | {fell} | {columns} | {proven} | {estimates} | {wrong} | {worse} |");
        wrong_in_all += wrong;
    }
    assert_eq!(wrong_in_all, 0);
}

/// `auto` on Connect Four positions of 12 and 13 stones where its proof runs out (issue
/// 62): at a node budget whose half (`perfect`'s share) settles some columns and not all
/// (or all, but not their distances), every column `perfect` settled shows that outcome in
/// `auto`'s answer, plies and bound included, not the later `minimax` estimate; no
/// column shows an outcome the reference does not give it; and the chosen move is of the
/// best outcome proven in the answer, first in `moves`, its evaluation the answer's.
#[test]
fn auto_keeps_the_columns_its_proof_settled() {
    const NODES: u64 = 200_000;
    let rules = connect_four();
    let mut unsettled = 0;
    for moves in [
        "4724657677234",
        "2324517457754",
        "1316446572273",
        "426233267577",
    ] {
        let (_, want) = reference().into_iter().find(|(m, _)| m == moves).unwrap();
        let stones = moves.len() as u32;
        let p = Position::from_column_digits(&rules, moves, "board").unwrap();
        let limits = Limits {
            nodes: Some(NODES / 2),
            ..Limits::with_time(Duration::from_secs(600))
        };
        let proof = Perfect.analyze(&p, &limits, &mut StdRng::seed_from_u64(1));
        let settled: Vec<&MoveEval> = proof
            .moves
            .iter()
            .filter(|e| e.eval.outcome != Outcome::Unknown)
            .collect();
        assert!(!settled.is_empty(), "{moves}: perfect settled nothing");
        unsettled += proof.moves.len() - settled.len();

        let (_, a) = auto_at(moves, NODES);
        let path = a.stats.path.clone().unwrap();
        assert_eq!(path.route, Some(Route::Minimax), "{moves}: {path}");
        assert!(path.notes.contains(&Note::PerfectKept), "{moves}: {path}");
        for s in &settled {
            let e = a.moves.iter().find(|e| e.mv == s.mv).unwrap();
            let col = s.mv.cell() % 7;
            assert_eq!(
                (e.eval.outcome, e.eval.plies, e.bound),
                (s.eval.outcome, s.eval.plies, s.bound),
                "{moves}: column {} as perfect proved it",
                col + 1
            );
        }
        for e in &a.moves {
            let col = e.mv.cell() % 7;
            let w = want[col].unwrap();
            assert_ne!(
                agrees(e, stones, w),
                Some(false),
                "{moves}: column {} shows {:?}, the reference {w}",
                col + 1,
                e.eval
            );
        }
        // The chosen move: first, the answer's evaluation, and none proven better.
        assert_eq!(a.moves[0].mv, a.best, "{moves}");
        assert_eq!(a.evaluation, a.moves[0].eval, "{moves}");
        let floor = |o: Outcome| match o {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss | Outcome::Unknown => 0,
        };
        let ceiling = |o: Outcome| match o {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win | Outcome::Unknown => 2,
        };
        let best = a.moves.iter().map(|e| floor(e.eval.outcome)).max().unwrap();
        assert!(
            ceiling(a.evaluation.outcome) >= best,
            "{moves}: {:?}",
            a.evaluation
        );
        // No proven loss ranks above a move that is not one.
        let first_loss = a.moves.iter().position(|e| e.eval.outcome == Outcome::Loss);
        if let Some(i) = first_loss {
            assert!(
                a.moves[i..].iter().all(|e| e.eval.outcome == Outcome::Loss),
                "{moves}: a loss above another move"
            );
        }
    }
    assert!(unsettled > 0, "every column settled everywhere");
}

/// Once its proof has proven the choice, `auto` carries the proof on with the rest of a
/// time budget instead of answering at half of it: on `157433767357` (12 stones; column 5
/// wins, column 4 draws, the rest lose) 400 ms proves column 5 within the first half
/// here, and the other 200 ms settle most of the other columns. When the first half
/// proved everything (a fast machine) or nothing (a loaded one), there is nothing to
/// carry on and only the labels are checked.
#[test]
fn auto_carries_a_proof_that_chose_on_with_the_rest_of_a_time_budget() {
    let moves = "157433767357";
    let want = [-3, -5, -2, 0, 2, -3, -3];
    let p = Position::from_column_digits(&connect_four(), moves, "board").unwrap();
    // The book read before the clock starts (a search waits for it otherwise).
    assert!(kinrow_engine::gravity_book::find(7, 6, 4).is_some());
    let budget = Duration::from_millis(400);
    let a = EngineKind::Auto.build().analyze(
        &p,
        &Limits::with_time(budget),
        &mut StdRng::seed_from_u64(1),
    );
    for e in &a.moves {
        let c = e.mv.cell() % 7;
        assert_ne!(
            agrees(e, 12, want[c]),
            Some(false),
            "{moves} column {}: {e:?}",
            c + 1
        );
    }
    let route = a.stats.path.as_ref().and_then(|p| p.route);
    eprintln!(
        "{route:?}, complete {}, {:?}",
        a.stats.complete, a.stats.elapsed
    );
    if route == Some(Route::Perfect) && !a.stats.complete {
        assert!(
            a.stats.elapsed >= budget * 3 / 4,
            "answered through perfect, incomplete, after {:?} of {budget:?}",
            a.stats.elapsed
        );
    }
}
