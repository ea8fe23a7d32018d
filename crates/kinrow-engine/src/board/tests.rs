//! The board against [`Position`] and against a recount from scratch: random games of
//! marks, blocks, removes and bombs, moves taken back at random, with and without
//! overlines (exactly k), on boards of every shape.

use proptest::prelude::*;

use super::*;
use crate::eval;
use kinrow_game::{Hand, Move, Rules, Undo, Variant};

/// Everything the board keeps, recounted from `pos` alone, compared with `board`
/// (kept move by move) and with a board built afresh from `pos`.
fn check<W: WeightScheme>(pos: &Position, board: &LineBoard<W>) {
    let blocks = [pos.hand(Player::X).block, pos.hand(Player::O).block];
    let fresh = LineBoard::<W>::new(pos);
    let k = pos.k() as usize;
    let windows = pos.geometry().windows();
    let cells: Vec<u8> = pos.cells().iter().map(|&c| content_of(c)).collect();
    assert_eq!(board.cells(), &cells[..]);
    // The key of the cells is the game's; the blocks in hand are xored on top.
    let cells_key = (0..cells.len()).fold(0, |h, c| h ^ game_cell_key(c, pos.cell(c)));
    let hand_key = blocks_key(0, blocks[0]) ^ blocks_key(1, blocks[1]);
    assert_eq!(board.hash(), cells_key ^ hand_key, "hash");
    assert_eq!(board.hash(), fresh.hash(), "hash");
    let mut score = [0i64; 2];
    let mut sets = [[0usize; 3]; 2];
    let mut ones = [0u32; 2];
    let mut sums = vec![[0i64; 2]; cells.len()];
    for (w, window) in windows.all.iter().enumerate() {
        let of = |v: u8| {
            window
                .cells
                .iter()
                .filter(|&&c| cells[c as usize] == v)
                .count()
        };
        let (count, blocked) = ([of(stone(0)) as u8, of(stone(1)) as u8], of(BLOCK) as u8);
        assert_eq!(board.counts(w), [count[0], count[1], blocked], "window {w}");
        for p in 0..2 {
            let open = blocked == 0 && count[1 - p] == 0;
            let need = k - count[p] as usize;
            assert_eq!(board.need(w, p), open.then_some(need), "window {w}");
            if open {
                score[p] += W::window(k, count[p] as usize);
                ones[p] += (need == 1) as u32;
                if W::SETS && (1..=2).contains(&need) {
                    sets[p][need] += 1;
                    let set = &board.sets[p][need];
                    assert_eq!(set[board.slot[w][p] as usize], w as u32);
                }
            }
            if blocked == 0 && W::CELL_SUMS {
                for &c in window.cells.iter() {
                    sums[c as usize][p] += W::cell_share(k, count, p);
                }
            }
        }
    }
    assert_eq!(board.score(), score, "score");
    assert_eq!(board.score(), fresh.score(), "score");
    if W::CELL_SUMS {
        assert_eq!(board.sums, sums, "cell sums");
    }
    assert_eq!(
        [board.fours(0), board.fours(1)],
        ones,
        "windows missing one mark"
    );
    let kept = board.sets.each_ref().map(|s| [0, s[1].len(), s[2].len()]);
    assert_eq!(kept, sets, "set sizes");
    if let (Some(codes), Some(fresh)) = (board.codes(), LineCodes::new(pos.geometry(), &cells)) {
        for c in (0..cells.len()).filter(|&c| cells[c] == EMPTY) {
            let (a, b) = (codes.lines(c), fresh.lines(c));
            for d in 0..4 {
                assert_eq!((a[d].gain, a[d].shape), (b[d].gain, b[d].shape), "codes");
            }
            assert_eq!(codes.gains(c), board.gains(c), "codes' gains");
        }
    }
}

/// The board's win queries against the position's own win detection.
fn check_wins<W: WeightScheme>(pos: &Position, board: &mut LineBoard<W>) {
    let mut wins = Vec::new();
    for player in Player::BOTH {
        let p = player.index();
        board.win_cells(p, &mut wins);
        wins.sort_unstable();
        let expected: Vec<u16> = (0..pos.cells().len())
            .filter(|&c| pos.cell(c) == Cell::Empty && pos.wins_at(c, player))
            .map(|c| c as u16)
            .collect();
        assert_eq!(wins, expected, "win cells of {player}");
        assert_eq!(board.has_win(p), !expected.is_empty());
    }
}

/// Plays `mv` on both, the board following every cell the move changed.
fn play<W: WeightScheme>(pos: &mut Position, board: &mut LineBoard<W>, mv: Move) -> Undo {
    let before = pos.cells().to_vec();
    let undo = pos.play_unchecked(mv);
    follow(pos, board, &before);
    undo
}

/// The board follows every cell that differs from `before`, and the blocks in hand.
fn follow<W: WeightScheme>(pos: &Position, board: &mut LineBoard<W>, before: &[Cell]) {
    for player in Player::BOTH {
        let p = player.index();
        while board.blocks(p) != pos.hand(player).block {
            board.hand_block(
                p,
                if board.blocks(p) > pos.hand(player).block {
                    -1
                } else {
                    1
                },
            );
        }
    }
    for (c, &old) in before.iter().enumerate() {
        if pos.cell(c) != old {
            board.set(c, content_of(pos.cell(c)));
        }
    }
}

/// A random game of `steps` on `rules`: each step plays the legal move picked by the
/// step's number, or takes back the last move when the step says so.
fn replay<W: WeightScheme>(rules: &Rules, steps: &[(u16, bool)], codes: bool) {
    let mut pos = Position::empty(rules);
    let mut board = LineBoard::<W>::new(&pos);
    if codes {
        board = board.with_codes();
    }
    let mut history = Vec::new();
    for &(pick, back) in steps {
        if back || pos.is_over() {
            let Some(undo) = history.pop() else { continue };
            let before = pos.cells().to_vec();
            pos.undo(undo);
            follow(&pos, &mut board, &before);
        } else {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                continue;
            }
            let mv = legal[pick as usize % legal.len()];
            history.push(play(&mut pos, &mut board, mv));
        }
        check(&pos, &board);
        if W::SETS && !pos.is_over() {
            check_wins(&pos, &mut board);
        }
    }
}

fn rules() -> impl Strategy<Value = Rules> {
    let hands = (0u8..3, 0u8..2, 0u8..2);
    let variant = prop::sample::select(Variant::ALL.to_vec());
    (2u64..10, 2u64..10, 1u64..7, any::<bool>(), hands, variant).prop_map(
        |(m, n, k, overline, (block, remove, bomb), variant)| {
            let hand = Hand::new(block, remove, bomb);
            let rules = Rules::new(m, n, k, overline, [hand, hand]).unwrap();
            // Renju wants k = 5, and the variants marks only: else freestyle.
            let marks_only = Rules::new(m, n, k, overline, Default::default()).unwrap();
            marks_only.with_variant(variant).unwrap_or(rules)
        },
    )
}

fn steps() -> impl Strategy<Value = Vec<(u16, bool)>> {
    prop::collection::vec((any::<u16>(), prop::bool::weighted(0.25)), 1..60)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Under the pattern scheme, with line codes.
    #[test]
    fn the_pattern_board_follows_every_move_and_undo(rules in rules(), steps in steps()) {
        replay::<Pattern>(&rules, &steps, true);
    }

    /// Under `minimax`'s scheme, whose sums also equal the evaluation's own recount.
    #[test]
    fn the_potential_board_follows_every_move_and_undo(rules in rules(), steps in steps()) {
        replay::<Potential>(&rules, &steps, false);
    }
}

/// `minimax`'s reads (potential, gain, completes) against playing the mark and
/// recounting with the evaluation's from-scratch functions.
#[test]
fn a_marks_gain_and_completions_are_those_of_playing_it() {
    let hand = Hand::new(2, 1, 1);
    for (m, n, k, overline) in [(7, 6, 4, true), (6, 6, 3, false), (5, 5, 5, true)] {
        let rules = Rules::new(m, n, k, overline, [hand, hand]).unwrap();
        let mut seed = 7u64;
        for _game in 0..4 {
            let mut pos = Position::empty(&rules);
            let mut board = PotentialBoard::new(&pos);
            while !pos.is_over() {
                for player in Player::BOTH {
                    let p = player.index();
                    assert_eq!(board.potential(p) as f64, eval::potential(&pos, player));
                }
                let me = pos.to_move();
                for c in (0..pos.cells().len()).filter(|&c| pos.cell(c) == Cell::Empty) {
                    let mut after = pos.clone();
                    after.play_unchecked(Move::mark(c));
                    let value =
                        |q: &Position| eval::potential(q, me) - eval::potential(q, me.opponent());
                    let gain = value(&after) - value(&pos);
                    assert_eq!(board.gain(me.index(), c) as f64, gain, "gain at {c}");
                    let completing = pos
                        .geometry()
                        .windows()
                        .through(c)
                        .iter()
                        .filter(|&&w| board.need(w as usize, me.index()) == Some(1))
                        .count();
                    assert_eq!(board.completes(me.index(), c) as usize, completing);
                }
                let legal = pos.legal_moves();
                seed = splitmix64(seed);
                play(
                    &mut pos,
                    &mut board,
                    legal[(seed % legal.len() as u64) as usize],
                );
            }
        }
    }
}

/// The board of `rows` (marks put directly: no side to move is checked).
fn board_of(rules: &Rules, rows: &[&str]) -> PatternBoard {
    let cells = kinrow_game::parse_board(rows, rules.m(), rules.n()).unwrap();
    let mut board = PatternBoard::new(&Position::empty(rules));
    for (c, &cell) in cells.iter().enumerate() {
        if cell != Cell::Empty {
            board.put(c, content_of(cell));
        }
    }
    board
}

fn row_board(row: &str) -> PatternBoard {
    let rules = Rules::mnk(12, 3, 5).unwrap();
    board_of(&rules, &["............", row, "............"])
}

/// A three is a cell that makes an open four (or two fours): open and split threes
/// are, a three closed on one side or two loose pairs are not.
#[test]
fn threes_are_cells_that_make_two_winning_cells() {
    for (row, three) in [
        ("...xxx......", true),
        ("...xx.x.....", true),
        ("..oxxx......", false),
        ("oxxx........", false),
        ("..xx....xx..", false),
        ("..x.x.x.....", false),
        ("..xxx.o.....", true),
        ("..xxxo......", false),
    ] {
        assert_eq!(row_board(row).has_three(0), three, "{row}");
        assert!(!row_board(row).has_three(1), "{row}");
    }
}

/// With exactly k, a window whose completion would make six is no win, and a mark
/// that would make six in a row is not listed as a winning cell.
#[test]
fn exactly_k_wins_list_no_overline() {
    let rules = Rules::new(9, 1, 5, false, [Hand::default(); 2]).unwrap();
    for (row, wins) in [
        ("xxxx.....", vec![4]),
        ("xxxx.x...", vec![]),
        (".xxxx....", vec![0, 5]),
        ("x.xxxx...", vec![6]),
    ] {
        let mut board = board_of(&rules, &[row]);
        let mut out = Vec::new();
        board.win_cells(0, &mut out);
        out.sort_unstable();
        assert_eq!(out, wins, "{row}");
    }
}

/// Renju: x wins with exactly five, o with five or more. Caro: exactly k, and not
/// between two of the opponent's marks (the edge shuts nothing).
#[test]
fn the_variants_win_rules() {
    let renju = Rules::new(11, 1, 5, true, [Hand::default(); 2])
        .unwrap()
        .with_variant(Variant::Renju)
        .unwrap();
    let caro = Rules::new(11, 1, 5, true, [Hand::default(); 2])
        .unwrap()
        .with_variant(Variant::Caro)
        .unwrap();
    let cases: [(&Rules, &str, usize, Vec<u16>); 6] = [
        (&renju, "xxxx.x.....", 0, vec![]),
        (&renju, "oooo.o.....", 1, vec![4]),
        (&caro, "oxxxx.o....", 0, vec![]),
        (&caro, "oxxxx......", 0, vec![5]),
        (&caro, "xxxx.o.....", 0, vec![4]),
        (&caro, ".xxxx.x....", 0, vec![0]),
    ];
    for (rules, row, p, wins) in cases {
        let mut board = board_of(rules, &[row]);
        let mut out = Vec::new();
        board.win_cells(p, &mut out);
        out.sort_unstable();
        assert_eq!(out, wins, "{:?} {row}", rules.variant());
    }
}
