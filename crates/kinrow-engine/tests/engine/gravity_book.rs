//! Opening books for gravity boards: a book made level by level (the last level solved,
//! the others backed up) must give every position the score the exact search gives it
//! alone, with a fresh table; the text format must read back to the same book; and a
//! search given the book answers its positions without searching.

use std::collections::HashMap;
use std::time::Duration;

use kinrow_engine::core::budget::Budget;
use kinrow_engine::search::perfect::gravity::book;
use kinrow_engine::search::perfect::gravity::book::Book;
use kinrow_engine::search::perfect::gravity::level::LevelSolver;

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
