//! `kinrow book --from-bitbully FILE`: Connect Four's book of every position of at most
//! 12 stones, converted from the BitBully project's database of every 12-stone position
//! with its exact distance (`book_12ply_distances.dat` in the PyPI package
//! `bitbully-databases`, MIT licence: crates/kinrow-engine/src/search/perfect/gravity/books/README.md).
//!
//! The database is a run of 5-byte entries: a position's Huffman code (4 bytes,
//! big-endian; the columns left to right, each bottom up, `10` a first-player stone, `11`
//! a second-player stone, `0` closing the column, then one `0`) and a signed byte, from
//! the side to move's view (the first player's, 12 stones being down): `100 - plies` for
//! a win `plies` plies away (the winning stone counted), `-(100 - plies)` for a loss, 0
//! a draw. A position or its mirror image is listed. Each score becomes the search's
//! (`cells + 1 - t` for a win with the board's t-th stone), the positions the database
//! leaves out are solved by kinrow's search, and the shallower levels are backed up by
//! negamax ([`gravity_book::back_up`]); the book is written in the binary format.
//!
//! `kinrow book --check BOOK --sample N`: N positions of the book's last level drawn at
//! random (seeded), each solved alone by the search without any book, and compared.
//! Positions whose side to move wins at once (the database leaves them out, and the
//! search answers them without a node) are drawn again, so that all N are the
//! database's.

use std::collections::HashMap;
use std::fs;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::output::print_line;
use kinrow_engine::gravity_book;
use kinrow_engine::gravity_book::Book;
use kinrow_engine::Budget;
use kinrow_engine::LevelSolver;

/// Connect Four, the only board of the database.
const M: u32 = 7;
const N: u32 = 6;
const K: u32 = 4;
/// The stones of every position of the database.
const DEPTH: u32 = 12;

/// The columns (bottom up, `true` for a first-player stone) of a Huffman code.
fn decode(code: u32) -> Option<Vec<Vec<bool>>> {
    let mut bit = 32;
    let mut next = || {
        bit -= 1;
        (code >> bit) & 1 == 1
    };
    let mut columns = Vec::new();
    let mut read = 0;
    for _ in 0..M {
        let mut column = Vec::new();
        // Each stone is two bits and a column closes with one; 32 bits hold them all.
        while read + 2 < 32 && next() {
            column.push(!next());
            read += 2;
        }
        read += 1;
        if column.len() > N as usize {
            return None;
        }
        columns.push(column);
    }
    Some(columns)
}

/// The search's score of a database score at 12 stones (42 cells).
fn score_of(db: i8) -> i8 {
    let cells = (M * N) as i32;
    let v = db as i32;
    let s = match v {
        0 => 0,
        v if v > 0 => cells + 1 - (DEPTH as i32 + 100 - v),
        v => -(cells + 1 - (DEPTH as i32 + 100 + v)),
    };
    s as i8
}

/// Converts `input` into the binary book `out`; prints a JSON summary.
pub fn convert(input: &str, out: &str) -> Result<(), String> {
    let start = Instant::now();
    let bytes = fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    if bytes.len() % 5 != 0 {
        return Err(format!(
            "{input}: {} bytes, not 5-byte entries",
            bytes.len()
        ));
    }
    let mut db: HashMap<u128, i8> = HashMap::with_capacity(bytes.len() / 5);
    for entry in bytes.chunks_exact(5) {
        let code = u32::from_be_bytes([entry[0], entry[1], entry[2], entry[3]]);
        let columns = decode(code).ok_or_else(|| format!("bad code {code:08x}"))?;
        let stones: usize = columns.iter().map(Vec::len).sum();
        if stones != DEPTH as usize {
            return Err(format!("code {code:08x}: {stones} stones"));
        }
        db.insert(
            gravity_book::key_of(M, N, K, &columns)?,
            score_of(entry[4] as i8),
        );
    }
    let read = db.len();
    let levels = gravity_book::levels(M, N, K, DEPTH)?;
    let last = levels.last().expect("level 12");
    let mut scores: HashMap<u128, i8> = HashMap::with_capacity(levels.iter().map(Vec::len).sum());
    let mut solver = LevelSolver::new(M, N, K, 24)?.without_book();
    let (mut missing, mut missing_nodes) = (0u64, 0u64);
    for &key in last {
        let score = match db.get(&key) {
            Some(&s) => s,
            None => {
                let mut clock = Budget::with_time(Duration::from_secs(3600));
                let s = solver
                    .solve(key, &mut clock)
                    .ok_or_else(|| format!("{key:x}: not solved"))?;
                missing += 1;
                missing_nodes += clock.nodes;
                s as i8
            }
        };
        scores.insert(key, score);
    }
    let unused = db.keys().filter(|k| !scores.contains_key(k)).count();
    drop(db);
    gravity_book::back_up(M, N, K, &levels, &mut scores)?;
    let written = Book::new(M, N, K, DEPTH, scores).write_binary()?;
    fs::write(out, &written).map_err(|e| format!("{out}: {e}"))?;
    let summary = serde_json::json!({
        "input": input,
        "database_entries": bytes.len() / 5,
        "database_positions": read,
        "database_positions_not_reached_in_a_game": unused,
        "positions_per_level": levels.iter().map(Vec::len).collect::<Vec<_>>(),
        "last_level_solved_by_kinrow": missing,
        "nodes_for_those": missing_nodes,
        "book": out,
        "book_bytes": written.len(),
        "seconds": start.elapsed().as_secs_f64(),
    });
    print_line(&summary.to_string());
    Ok(())
}

/// Solves `sample` random positions of the last level of the binary book `path` alone
/// (no book) and compares each; prints a JSON summary, an error on any difference.
pub fn check(path: &str, sample: usize, seed: u64, table_bits: u32) -> Result<(), String> {
    let start = Instant::now();
    let bytes = fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let book = Book::parse_binary(&bytes)?;
    let loaded = start.elapsed().as_secs_f64();
    let last: Vec<(u128, i32)> = book
        .entries()
        .filter(|&(key, _)| gravity_book::stones_of_key(book.m, book.n, book.k, key) == book.depth)
        .collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut solver = LevelSolver::new(book.m, book.n, book.k, table_bits)?.without_book();
    let (mut nodes, mut wrong) = (0u64, Vec::new());
    let (mut outcomes, mut redrawn, mut i) = ([0usize; 3], 0u64, 0);
    while i < sample {
        let (key, want) = last[rng.random_range(0..last.len())];
        let mut clock = Budget::with_time(Duration::from_secs(3600));
        let got = solver
            .solve(key, &mut clock)
            .ok_or_else(|| format!("{key:x}: not solved"))?;
        if clock.nodes == 0 {
            // A win now: not a position of the database.
            redrawn += 1;
            continue;
        }
        i += 1;
        nodes += clock.nodes;
        outcomes[(want.signum() + 1) as usize] += 1;
        if got != want {
            eprintln!("book check: {key:x}: book {want}, search {got}");
            wrong.push(format!("{key:x}"));
        }
        if i % 500 == 0 {
            eprintln!(
                "book check: {i}/{sample}, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    let summary = serde_json::json!({
        "book": path,
        "positions": book.len(),
        "load_seconds": loaded,
        "checked": sample,
        "redrawn_wins_now": redrawn,
        "seed": seed,
        "level": book.depth,
        "losses_draws_wins": outcomes,
        "different": wrong.len(),
        "nodes": nodes,
        "seconds": start.elapsed().as_secs_f64(),
    });
    print_line(&summary.to_string());
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} positions differ: {}",
            wrong.len(),
            wrong.join(" ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The database's own examples (bitbully_databases.py): a position of 12 stones as
    /// rows from the top, 1 a first-player stone, 2 a second-player one, and its score.
    fn code_of(rows: [[u8; 7]; 6]) -> u32 {
        let mut bits = Vec::new();
        for c in 0..7 {
            for row in rows.iter().rev() {
                match row[c] {
                    0 => break,
                    1 => bits.extend([1, 0]),
                    _ => bits.extend([1, 1]),
                }
            }
            bits.push(0);
        }
        bits.push(0);
        bits.iter().fold(0u32, |acc, &b| (acc << 1) | b)
    }

    #[test]
    fn codes_decode_to_their_columns() {
        let rows = [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, 1, 0, 2, 0, 0, 0],
            [0, 2, 0, 1, 0, 2, 0],
            [0, 1, 0, 2, 0, 1, 0],
            [0, 2, 0, 1, 0, 2, 0],
        ];
        let columns = decode(code_of(rows)).unwrap();
        assert_eq!(columns[0], Vec::<bool>::new());
        assert_eq!(columns[1], vec![false, true, false, true]);
        assert_eq!(columns[3], vec![true, false, true, false, true]);
        assert_eq!(columns[5], vec![false, true, false]);
        assert_eq!(columns.iter().map(Vec::len).sum::<usize>(), 12);
    }

    #[test]
    fn scores_become_the_search_s() {
        // 71: the first player wins in 29 plies, with the 41st stone: 43 - 41.
        assert_eq!(score_of(71), 2);
        // -88: it loses in 12 plies, to the 24th stone.
        assert_eq!(score_of(-88), -(43 - 24));
        assert_eq!(score_of(0), 0);
    }
}
