//! Outcome books for gravity boards (win, draw or loss alone, two bits a position): a
//! book made on a small board (its last level searched, the others backed up) must give
//! every position of every level the outcome the exact search gives it alone; its format
//! must read back to the same outcomes and refuse damage; and a search reading it must
//! give the same exact scores as one without it, with fewer nodes.

use std::time::Duration;

use kinrow_engine::gravity_outcomes::{self as outcomes, OutcomeBook};
use kinrow_engine::{Budget, LevelSolver};

/// The outcome book of `from..=to` stones of an `m` x `n` board with `k` in a row, as
/// `kinrow book --outcomes` makes it: the levels, their outcomes, and the file's bytes.
fn make(m: u32, n: u32, k: u32, from: u32, to: u32) -> (Vec<Vec<u64>>, Vec<Vec<i8>>, Vec<u8>) {
    let levels = outcomes::level_keys(m, n, k, from, to).unwrap();
    let mut solver = LevelSolver::new(m, n, k, 18).unwrap();
    let last: Vec<i8> = levels
        .last()
        .unwrap()
        .iter()
        .map(|&key| {
            let mut clock = Budget::with_time(Duration::from_secs(600));
            solver.outcome(key as u128, &mut clock).unwrap() as i8
        })
        .collect();
    let all = outcomes::back_up(m, n, k, &levels, last).unwrap();
    let bytes = outcomes::write(m, n, k, from, &all).unwrap();
    (levels, all, bytes)
}

/// The exact score of the position `key` by the search without any book.
fn exact(solver: &mut LevelSolver, key: u64) -> i32 {
    let mut clock = Budget::with_time(Duration::from_secs(600));
    solver.solve(key as u128, &mut clock).unwrap()
}

#[test]
fn every_position_of_a_small_outcome_book_agrees_with_the_solver() {
    for (m, n, k, from, to) in [(5, 4, 4, 6, 8), (4, 4, 3, 3, 5)] {
        let (levels, all, bytes) = make(m, n, k, from, to);
        let mut alone = LevelSolver::new(m, n, k, 20).unwrap().without_book();
        let book = OutcomeBook::parse(&bytes).unwrap();
        assert_eq!(
            (book.m, book.n, book.k, book.from, book.to),
            (m, n, k, from, to)
        );
        assert_eq!(book.len(), levels.iter().map(Vec::len).sum::<usize>());
        let mut seen = [0usize; 3];
        for (level, outcomes) in levels.iter().zip(&all) {
            assert!(!level.is_empty(), "{m}x{n}: an empty level");
            for (&key, &o) in level.iter().zip(outcomes) {
                let searched = exact(&mut alone, key).signum();
                assert_eq!(o as i32, searched, "{m}x{n}x{k}: position {key:x}, made");
                assert_eq!(book.get(key), Some(searched), "{m}x{n}x{k}: {key:x}, read");
                seen[(searched + 1) as usize] += 1;
            }
        }
        // A test that can fail: the levels hold losses, draws and wins alike.
        assert!(seen.iter().all(|&c| c > 0), "{m}x{n}: outcomes {seen:?}");
    }
}

#[test]
fn the_format_reads_back_and_refuses_damage() {
    let (levels, _, bytes) = make(5, 4, 4, 5, 6);
    let book = OutcomeBook::parse(&bytes).unwrap();
    assert_eq!(book.len(), levels[0].len() + levels[1].len());
    // Two bits a position after the header line.
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(bytes.len() - header, book.len().div_ceil(4));
    let text = String::from_utf8_lossy(&bytes[..header]).to_string();
    assert!(
        text.starts_with("kinrow-gravity-outcomes 5,4,4 stones 5-6 levels "),
        "{text}"
    );
    // Cut short, a count that is not the level's, a code that is no outcome, no header.
    assert!(OutcomeBook::parse(&bytes[..bytes.len() - 1]).is_err());
    let wrong = text.replacen(
        &format!("{},", levels[0].len()),
        &format!("{},", levels[0].len() + 1),
        1,
    );
    let mut bad = wrong.into_bytes();
    bad.extend_from_slice(&bytes[header..]);
    assert!(OutcomeBook::parse(&bad).is_err());
    let mut bad = bytes.clone();
    bad[header] |= 3;
    assert!(OutcomeBook::parse(&bad).unwrap_err().contains("no outcome"));
    assert!(OutcomeBook::parse(b"kinrow-gravity-book 5,4,4 depth 3\n").is_err());
    // No level 0: a book starts at one stone at least.
    assert!(outcomes::level_keys(5, 4, 4, 0, 2).is_err());
}

#[test]
fn a_search_reading_the_outcome_book_keeps_every_exact_score_with_fewer_nodes() {
    let (m, n, k) = (5, 4, 4);
    let (_, _, bytes) = make(m, n, k, 7, 8);
    let book: &'static OutcomeBook = Box::leak(Box::new(OutcomeBook::parse(&bytes).unwrap()));
    let shallower = outcomes::level_keys(m, n, k, 4, 4).unwrap().remove(0);
    let (mut with, mut without) = (0u64, 0u64);
    for &key in &shallower {
        let mut a = LevelSolver::new(m, n, k, 16).unwrap().with_outcomes(book);
        let mut b = LevelSolver::new(m, n, k, 16).unwrap();
        let hour = Duration::from_secs(3600);
        let (mut ca, mut cb) = (Budget::with_time(hour), Budget::with_time(hour));
        let (sa, sb) = (a.solve(key as u128, &mut ca), b.solve(key as u128, &mut cb));
        assert_eq!(
            sa, sb,
            "{key:x}: the exact score changed with the outcome book"
        );
        let (oa, ob) = (
            a.outcome(key as u128, &mut ca),
            b.outcome(key as u128, &mut cb),
        );
        assert_eq!(oa, ob, "{key:x}: the outcome changed with the outcome book");
        with += ca.nodes;
        without += cb.nodes;
    }
    assert!(
        with < without,
        "nodes with the book {with}, without {without}"
    );
}
