//! Opening books for gravity boards: a book made level by level (the last level solved,
//! the others backed up) must give every position the score the exact search gives it
//! alone, with a fresh table; the text format must read back to the same book; and a
//! search given the book answers its positions without searching.

use std::collections::HashMap;
use std::time::Duration;

use kinrow_engine::gravity_book as book;
use kinrow_engine::gravity_book::Book;
use kinrow_engine::Budget;
use kinrow_engine::LevelSolver;

fn make(m: u32, n: u32, k: u32, depth: u32) -> (Vec<Vec<u128>>, HashMap<u128, i8>) {
    let levels = book::levels(m, n, k, depth).unwrap();
    let mut solver = LevelSolver::new(m, n, k, 18).unwrap();
    let mut scores = HashMap::new();
    for &key in levels.last().unwrap() {
        let mut clock = Budget::with_time(Duration::from_secs(600));
        scores.insert(key, solver.solve(key, &mut clock).unwrap() as i8);
    }
    book::back_up(m, n, k, &levels, &mut scores).unwrap();
    (levels, scores)
}

#[test]
fn backed_up_scores_equal_the_search_s() {
    for (m, n, k, depth) in [(5, 4, 4, 4), (4, 4, 3, 5), (6, 4, 4, 2)] {
        let (levels, scores) = make(m, n, k, depth);
        // Every level but the last was backed up: each must equal a fresh search.
        for level in &levels[..levels.len() - 1] {
            for &key in level {
                let mut fresh = LevelSolver::new(m, n, k, 16).unwrap();
                let mut clock = Budget::with_time(Duration::from_secs(600));
                let searched = fresh.solve(key, &mut clock).unwrap();
                assert_eq!(
                    scores[&key] as i32, searched,
                    "{m}x{n}x{k}: position {key:x}"
                );
            }
        }
        assert_eq!(levels[0].len(), 1);
        assert_eq!(
            scores.len(),
            levels.iter().map(Vec::len).sum::<usize>(),
            "{m}x{n}x{k}: one score per position"
        );
    }
}

#[test]
fn mirror_images_share_one_key_and_won_positions_are_left_out() {
    // 4 columns: after one stone, the columns 1 and 4 (and 2 and 3) are mirror images.
    let levels = book::levels(4, 4, 3, 3).unwrap();
    assert_eq!(levels[1].len(), 2);
    // 3 in a row needs 5 stones: every sequence of 3 stones is a game (4^3 = 64
    // sequences, fewer positions), and none is left out for a win yet.
    assert!(levels[3].len() > levels[2].len());
    let won = book::levels(4, 4, 2, 3).unwrap();
    // Two in a row: the positions where the third stone made a line are left out.
    assert!(won[3].len() < levels[3].len());
}

#[test]
fn the_text_format_reads_back() {
    let (_, scores) = make(5, 4, 4, 3);
    let made = Book::new(5, 4, 4, 3, scores.clone());
    let text = made.write();
    let read = Book::parse(&text).unwrap();
    assert_eq!((read.m, read.n, read.k, read.depth), (5, 4, 4, 3));
    assert_eq!(read.len(), scores.len());
    for (&key, &score) in &scores {
        assert_eq!(read.get(key), Some(score as i32));
    }
    assert!(Book::parse("not a book\n").is_err());
    assert!(Book::parse("kinrow-gravity-book 5,4,4 depth 3\nzz 1\n").is_err());
}

#[test]
fn the_search_answers_book_positions_at_once() {
    let (levels, scores) = make(5, 4, 4, 4);
    let book: &'static Book = Box::leak(Box::new(Book::new(5, 4, 4, 4, scores.clone())));
    let mut solver = LevelSolver::new(5, 4, 4, 16).unwrap().with_book(book);
    for level in &levels {
        for &key in level {
            let mut clock = Budget::with_time(Duration::from_secs(60));
            assert_eq!(solver.solve(key, &mut clock), Some(scores[&key] as i32));
            // One node per null-window search, each answered by the book.
            assert!(clock.nodes <= 3, "{key:x}: {} nodes", clock.nodes);
        }
    }
}

#[test]
fn the_binary_format_reads_back() {
    let (levels, scores) = make(5, 4, 4, 3);
    let made = Book::new(5, 4, 4, 3, scores.clone());
    let bytes = made.write_binary().unwrap();
    // A header line, then one byte a position.
    let header = bytes.iter().position(|&b| b == b'\n').unwrap();
    assert_eq!(bytes.len() - header - 1, scores.len());
    let read = Book::parse_binary(&bytes).unwrap();
    assert_eq!((read.m, read.n, read.k, read.depth), (5, 4, 4, 3));
    for (&key, &score) in &scores {
        assert_eq!(read.get(key), Some(score as i32));
    }
    assert_eq!(read.entries().count(), scores.len());
    // A book that lacks a position of a level cannot be written in this format.
    let mut partial = scores.clone();
    partial.remove(&levels[3][0]);
    assert!(Book::new(5, 4, 4, 3, partial).write_binary().is_err());
    // A header whose counts do not match the enumeration is refused.
    let mut cut = bytes.clone();
    cut.pop();
    assert!(Book::parse_binary(&cut).is_err());
    assert!(
        Book::parse_binary(b"kinrow-gravity-book-scores 5,4,4 depth 3 levels 1,1\n\x00\x00")
            .is_err()
    );
}

/// The committed Connect Four book: the known values of the first positions (John
/// Tromp's: the first player wins with the 41st stone, by the centre), a 12-stone
/// example of the database's own documentation, and a sample of its last level against
/// the search alone (`kinrow book --check` runs 10,000: docs/performance.md).
#[test]
fn the_committed_connect_four_book() {
    let book = book::find(7, 6, 4).expect("the committed book");
    assert_eq!(book.depth, 12);
    assert_eq!(book.len(), 9_188_816);
    let columns = |cols: [&[bool]; 7]| cols.map(|c| c.to_vec()).to_vec();
    let empty: &[bool] = &[];
    // The empty board: a win with the 41st stone, 43 - 41.
    let key = book::key_of(7, 6, 4, &columns([empty; 7])).unwrap();
    assert_eq!(book.get(key), Some(2));
    // After the centre the second player loses to that 41st stone; after an edge
    // column, it wins with the 40th (43 - 40).
    let mut centre = [empty; 7];
    centre[3] = &[false];
    assert_eq!(
        book.get(book::key_of(7, 6, 4, &columns(centre)).unwrap()),
        Some(-2)
    );
    let mut edge = [empty; 7];
    edge[0] = &[false];
    assert_eq!(
        book.get(book::key_of(7, 6, 4, &columns(edge)).unwrap()),
        Some(3)
    );
    // bitbully_databases.py's example 6: the first player, to move, loses in 12 plies
    // (to the 24th stone). Columns bottom up, `true` for the first player's stones.
    let example = [
        empty,
        &[true, true][..],
        &[true, false, false, true][..],
        &[false, true, false, true][..],
        empty,
        &[false][..],
        &[false][..],
    ];
    let key = book::key_of(7, 6, 4, &columns(example)).unwrap();
    assert_eq!(book.get(key), Some(-(43 - 24)));
    // Held compactly (packed keys: well under the 83 MB of plain u64 keys and i8
    // scores), and every packed key reads back, in order, with its own score.
    assert!(book.bytes() < 45_000_000, "{} bytes", book.bytes());
    let mut previous: Option<u128> = None;
    for (key, score) in book.entries() {
        assert_eq!(book.get(key), Some(score), "{key:x}");
        let stones = book::stones_of_key(7, 6, 4, key);
        if let Some(p) = previous.filter(|&p| book::stones_of_key(7, 6, 4, p) == stones) {
            assert!(p < key, "{p:x} before {key:x}");
        }
        previous = Some(key);
    }
    // A position no game reaches (a line of four already stands) is not in it.
    let mut won = [empty; 7];
    won[0] = &[false, false, false, false];
    won[1] = &[true, true, true];
    assert_eq!(
        book.get(book::key_of(7, 6, 4, &columns(won)).unwrap()),
        None
    );
    // A sample of the last level against the search without the book.
    let last: Vec<(u128, i32)> = book
        .entries()
        .filter(|&(key, _)| book::stones_of_key(7, 6, 4, key) == 12)
        .collect();
    let mut solver = LevelSolver::new(7, 6, 4, 20).unwrap().without_book();
    let mut state = 52u64;
    for _ in 0..6 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (key, score) = last[(state >> 33) as usize % last.len()];
        let mut clock = Budget::with_time(Duration::from_secs(600));
        assert_eq!(solver.solve(key, &mut clock), Some(score), "{key:x}");
    }
}
