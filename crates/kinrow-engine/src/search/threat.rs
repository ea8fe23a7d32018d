//! `threat`: weigh every cell by the attacks a mark there makes and spoils.
//!
//! After a gomoku bot write-up (five in a row on an unbounded sheet), generalised to
//! any `k`. An *attack* is a run of one player's marks on a line; its *power* is the
//! number of marks, its *potential* the number of its ends (0, 1, 2) that are empty.
//! To weigh an empty cell, put an `x` there and collect the attacks through it on the
//! four lines, then the same with an `o`: the weight sums both, so a cell scores for
//! attacking and for spoiling alike.
//!
//! On each line, scanning `k` cells to each side (one more to see the far end of a run
//! that reaches the edge of the scan):
//! - the *central* attack is the run through the cell;
//! - *broken* attacks are runs beyond one or more empty cells; their weight is divided
//!   by `1 + the empty cells between` them and the central attack;
//! - a line with fewer than `k` cells free of the opponent and of blocks around the cell
//!   has no room for a line and counts nothing; attacks with potential 0 count nothing.
//!
//! The weight of an attack depends on `d = k - power` (marks still missing) and its
//! potential. The write-up's table is for `k = 5` (power 1..4 is `d` 4..1); kinrow
//! reads it by `d`, so the same table serves every `k`:
//!
//! | d = k - power   | potential 1 | potential 2 |
//! |-----------------|-------------|-------------|
//! | 1               | 6           | 100         |
//! | 2               | 4           | 7           |
//! | 3               | 2           | 5           |
//! | 4               | 0.1         | 0.25        |
//! | d > 4           | 0.1 / 2^(d-4) | 0.25 / 2^(d-4) |
//!
//! (`d = 0`, five in a row in the write-up, "prohibitively high": a mark that completes
//! the mover's own `k` scores [`THREAT_WIN`], above everything; one on the cell where the
//! opponent would complete `k` adds [`BLOCK`].)
//!
//! *Break points* are attacks the other side must answer at once: power `k - 1` with an
//! open end; power `k - 2` with both ends open and room for `k + 1`; a central attack
//! and the broken attack one empty cell beyond it whose powers add up to `k - 1` (or
//! `k - 2` when both are open at both ends). Those one mark short of `k` are *fours*.
//! Two break points of one player through one cell (a double threat) add [`FORK`] for
//! the opponent's and [`OWN_FORK`] for the mover's (the write-up's 100; one's own fork
//! comes first, so it outranks the opponent's). A threat that cannot be answered at all
//! (an open four, two fours, or a four with another break point) adds [`DECISIVE`] for
//! the opponent's and [`OWN_DECISIVE`] for the mover's instead: without that tier, a
//! double open three of one's own would outrank blocking the opponent's open three,
//! which wins first. The mover's own line weights count [`ATTACK`] (1.25) times: the
//! same attack is worth more to the side that plays it now.
//!
//! Tactics and special pieces: a move after which the opponent can complete `k` at once
//! loses [`LOSS`]. A `block` on an empty cell is worth the opponent's part of the cell's
//! weight (it spoils, it does not build). A `remove` of an opponent mark is worth half of
//! that mark's own weight for the opponent (what they lose, halved because the cell is
//! open to them again); of a block, nothing. A `bomb` sums that for the opponent's marks
//! it clears, minus the same for the mover's own. Between equal scores a mark goes
//! before a special piece, then the seeded random number decides.
//!
//! Speed: an empty cell with no piece within `k + 1` along any of its lines weighs what
//! its distances to the edges say; those weights come from a small table, so only the
//! cells near pieces are scanned.

use rand::rngs::StdRng;
use rand::RngExt;

use crate::core::analyze::Engine;
use crate::core::budget::Budget;
use crate::core::context::SearchContext;
use crate::core::patterns::{can_win_after, changed_cells, finish, reopened, winning_cells};
use crate::core::types::{Analysis, Bound, Evaluation, Limits, MoveEval, Outcome};
use kinrow_game::{Cell, Move, Piece, Player, Position, DIRECTIONS};

/// The score of a mark that completes the mover's own `k`.
pub const THREAT_WIN: f64 = 1e9;
/// Subtracted from a move after which the opponent can complete `k` at once.
pub const LOSS: f64 = 1e7;
/// Added to the cell where the opponent would complete `k`.
pub const BLOCK: f64 = 1e5;
/// Added for two break points of the opponent through one cell (none a four).
pub const FORK: f64 = 100.0;
/// Added for two break points of the mover through one cell.
pub const OWN_FORK: f64 = 120.0;
/// Added where a mark makes a threat that cannot be answered for the opponent: an
/// open four, two fours, or a four and a break point.
pub const DECISIVE: f64 = 300.0;
/// The same for the mover.
pub const OWN_DECISIVE: f64 = 400.0;
/// The mover's own attacks count this much more than the same attacks of the opponent:
/// the mover plays first.
pub const ATTACK: f64 = 1.25;
/// The share of a cleared mark's weight that a `remove` or `bomb` is worth.
const CLEAR_SHARE: f64 = 0.5;

/// The `threat` engine. Stateless: build it once and share it.
#[derive(Clone, Debug, Default)]
pub struct Threat;

/// The weight of an attack that misses `d >= 1` marks to `k`, with `potential` open ends.
pub fn attack_weight(d: usize, potential: u32) -> f64 {
    let (one, two) = match d {
        0 | 1 => (6.0, 100.0),
        2 => (4.0, 7.0),
        3 => (2.0, 5.0),
        _ => {
            let scale = 0.5f64.powi(d as i32 - 4);
            (0.1 * scale, 0.25 * scale)
        }
    };
    match potential {
        0 => 0.0,
        1 => one,
        _ => two,
    }
}

/// What a cell on a scanned line holds, seen from one player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum St {
    Own,
    Empty,
    /// An opponent mark, a block, or off the board.
    Stop,
}

/// One line through one cell for one player: the summed attack weight and whether it
/// holds a break point.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
struct LineEval {
    weight: f64,
    break_point: bool,
    /// The break point is a four: one more mark completes `k`.
    four: bool,
    /// Power `k - 1` open at both ends: it cannot be stopped.
    open_four: bool,
}

/// Evaluates one line through a cell holding the player's mark. `back[i]` and
/// `fwd[i]` are the cells at distance `i + 1` on either side, `k + 1` of each.
fn line_eval(back: &[St], fwd: &[St], k: usize) -> LineEval {
    let run = |s: &[St]| s.iter().take_while(|&&x| x == St::Own).count();
    let (rb, rf) = (run(back), run(fwd));
    let power = 1 + rb + rf;
    if power >= k {
        // A completed line (or an overline): the win check handles it.
        return LineEval::default();
    }
    let room = |s: &[St]| s.iter().take(k).take_while(|&&x| x != St::Stop).count();
    let span = 1 + room(back) + room(fwd);
    if span < k {
        return LineEval::default();
    }
    let open_b = back.get(rb) == Some(&St::Empty);
    let open_f = fwd.get(rf) == Some(&St::Empty);
    let potential = open_b as u32 + open_f as u32;
    let mut weight = attack_weight(k - power, potential);
    let open_four = potential == 2 && power + 1 == k;
    let mut four = potential >= 1 && power + 1 >= k;
    let mut break_point = four || (potential == 2 && power + 2 >= k && span > k);
    for (side, r, open) in [(back, rb, open_b), (fwd, rf, open_f)] {
        if !open {
            continue;
        }
        let mut gaps = 0;
        let mut i = r;
        let limit = k.min(side.len());
        while i < limit {
            match side[i] {
                St::Stop => break,
                St::Empty => {
                    gaps += 1;
                    i += 1;
                }
                St::Own => {
                    let start = i;
                    while i < side.len() && side[i] == St::Own {
                        i += 1;
                    }
                    let p = i - start;
                    if p >= k {
                        break;
                    }
                    let pot = 1 + (side.get(i) == Some(&St::Empty)) as u32;
                    weight += attack_weight(k - p, pot) / (1 + gaps) as f64;
                    let both_open = (potential == 2 && pot == 2) as usize;
                    if gaps == 1 && power + p + both_open + 1 >= k {
                        break_point = true;
                        four |= power + p + 1 >= k;
                    }
                }
            }
        }
    }
    LineEval {
        weight,
        break_point,
        four,
        open_four,
    }
}

/// A cell's weight for both players (indexed by [`Player::index`]): the summed line
/// weights and the number of lines holding a break point.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
struct CellEval {
    lines: [f64; 2],
    break_points: [u32; 2],
    fours: [u32; 2],
    open_fours: [u32; 2],
}

impl CellEval {
    fn add(&mut self, p: usize, e: LineEval) {
        self.lines[p] += e.weight;
        self.break_points[p] += e.break_point as u32;
        self.fours[p] += e.four as u32;
        self.open_fours[p] += e.open_four as u32;
    }
}

/// Room for the `k + 1` cells scanned on each side, for every `k` up to `MAX_SIDE + 1`.
const SCAN: usize = kinrow_game::MAX_SIDE + 3;

/// The weights of lines with no piece near the cell, by the number of board cells on
/// either side (each capped at `k + 1`): they depend on nothing else.
struct FarTable {
    k: usize,
    memo: Vec<Option<LineEval>>,
}

impl FarTable {
    fn new(k: usize) -> FarTable {
        FarTable {
            k,
            memo: vec![None; (k + 2) * (k + 2)],
        }
    }

    fn get(&mut self, back: usize, fwd: usize) -> LineEval {
        let len = self.k + 1;
        let (b, f) = (back.min(len), fwd.min(len));
        let slot = b * (len + 1) + f;
        if let Some(e) = self.memo[slot] {
            return e;
        }
        let side = |n: usize| -> Vec<St> {
            (0..len)
                .map(|i| if i < n { St::Empty } else { St::Stop })
                .collect()
        };
        let e = line_eval(&side(b), &side(f), self.k);
        self.memo[slot] = Some(e);
        e
    }
}

/// The board as the scan needs it: each cell's distance to the edge along each line.
struct Scanner<'a> {
    pos: &'a Position,
    m: usize,
    n: usize,
    k: usize,
    /// True for cells within `k + 1` of a piece along one of their lines.
    near: Vec<bool>,
    far: FarTable,
}

impl<'a> Scanner<'a> {
    fn new(pos: &'a Position) -> Scanner<'a> {
        let (m, n) = (pos.m(), pos.n());
        let k = pos.k() as usize;
        debug_assert!(k < SCAN, "k is at most MAX_SIDE + 1");
        let mut near = vec![false; m * n];
        for (c, &cell) in pos.cells().iter().enumerate() {
            if cell == Cell::Empty {
                continue;
            }
            let (r, col) = ((c / m) as isize, (c % m) as isize);
            for d in DIRECTIONS {
                let (dr, dc) = d.step();
                for sign in [-1isize, 1] {
                    for step in 1..=(k as isize + 1) {
                        let (rr, cc) = (r + sign * step * dr, col + sign * step * dc);
                        if rr < 0 || cc < 0 || rr >= n as isize || cc >= m as isize {
                            break;
                        }
                        near[rr as usize * m + cc as usize] = true;
                    }
                }
            }
        }
        Scanner {
            pos,
            m,
            n,
            k,
            near,
            far: FarTable::new(k),
        }
    }

    /// Board cells from `(r, c)` along `(dr, dc)`, not counting `(r, c)`.
    fn reach(&self, r: usize, c: usize, (dr, dc): (isize, isize)) -> usize {
        let along = |x: usize, dx: isize, size: usize| match dx {
            0 => usize::MAX,
            1 => size - 1 - x,
            _ => x,
        };
        along(r, dr, self.n).min(along(c, dc, self.m))
    }

    /// Both players' weights at `cell`, as if each in turn had a mark there.
    fn eval(&mut self, cell: usize) -> CellEval {
        let (r, c) = (cell / self.m, cell % self.m);
        let mut out = CellEval::default();
        let near = self.near[cell] || self.pos.cell(cell) != Cell::Empty;
        for d in DIRECTIONS {
            let (dr, dc) = d.step();
            let fwd_len = self.reach(r, c, (dr, dc));
            let back_len = self.reach(r, c, (-dr, -dc));
            if !near {
                let e = self.far.get(back_len, fwd_len);
                out.add(0, e);
                out.add(1, e);
                continue;
            }
            let len = self.k + 1;
            let mut raw = [[Cell::Block; SCAN]; 2];
            for (slots, (sign, avail)) in raw.iter_mut().zip([(-1isize, back_len), (1, fwd_len)]) {
                for (i, slot) in slots.iter_mut().take(len.min(avail)).enumerate() {
                    let step = sign * (i as isize + 1);
                    let rr = (r as isize + step * dr) as usize;
                    let cc = (c as isize + step * dc) as usize;
                    *slot = self.pos.cell(rr * self.m + cc);
                }
            }
            for p in Player::BOTH {
                let own = Cell::Mark(p);
                let mut st = [[St::Stop; SCAN]; 2];
                for (states, cells) in st.iter_mut().zip(&raw) {
                    for (s, &cell) in states.iter_mut().zip(cells).take(len) {
                        *s = match cell {
                            Cell::Empty => St::Empty,
                            x if x == own => St::Own,
                            _ => St::Stop,
                        };
                    }
                }
                out.add(p.index(), line_eval(&st[0][..len], &st[1][..len], self.k));
            }
        }
        out
    }
}

/// A player's value of a cell: line weights (the mover's times [`ATTACK`]) plus the
/// fork bonus.
fn value(e: &CellEval, p: Player, me: Player) -> f64 {
    let i = p.index();
    let own = p == me;
    let (bp, fours) = (e.break_points[i], e.fours[i]);
    let fork = if e.open_fours[i] >= 1 || fours >= 2 || (fours >= 1 && bp >= 2) {
        if own {
            OWN_DECISIVE
        } else {
            DECISIVE
        }
    } else if bp >= 2 {
        if own {
            OWN_FORK
        } else {
            FORK
        }
    } else {
        0.0
    };
    let bias = if own { ATTACK } else { 1.0 };
    e.lines[i] * bias + fork
}

impl Engine for Threat {
    fn analyze_in(
        &self,
        position: &Position,
        _limits: &Limits,
        budget: &mut Budget,
        _ctx: &mut SearchContext,
        rng: &mut StdRng,
    ) -> Analysis {
        let me = position.to_move();
        let opp = me.opponent();
        let mut pos = position.clone();
        let mut legal = Vec::new();
        pos.legal_moves_into(&mut legal);
        let their_wins = winning_cells(&pos, opp);
        let mut wins = vec![[false; 2]; pos.cells().len()];
        for c in winning_cells(&pos, me) {
            wins[c][me.index()] = true;
        }
        for &c in &their_wins {
            wins[c][opp.index()] = true;
        }
        let mut cache: Vec<Option<CellEval>> = vec![None; pos.cells().len()];
        let mut scored = Vec::with_capacity(legal.len());
        {
            let mut scan = Scanner::new(position);
            let mut eval = |c: usize| *cache[c].get_or_insert_with(|| scan.eval(c));
            for &mv in &legal {
                // Marks first among equal scores, then the seeded random number.
                let key = (rng.random::<u64>() >> 1) | ((mv.piece == Piece::Mark) as u64) << 63;
                let c = mv.cell();
                let mut won = false;
                let score = match mv.piece {
                    Piece::Mark if wins[c][me.index()] => {
                        won = true;
                        THREAT_WIN
                    }
                    Piece::Mark | Piece::Block => {
                        let e = eval(c);
                        let own = if mv.piece == Piece::Mark {
                            value(&e, me, me)
                        } else {
                            0.0
                        };
                        let block = if wins[c][opp.index()] { BLOCK } else { 0.0 };
                        own + value(&e, opp, me) + block
                    }
                    Piece::Remove | Piece::Bomb => {
                        let (cells, len) = changed_cells(position, mv);
                        cells[..len]
                            .iter()
                            .map(|&x| match position.cell(x) {
                                Cell::Mark(p) if p == opp => CLEAR_SHARE * value(&eval(x), opp, me),
                                Cell::Mark(_) => -CLEAR_SHARE * value(&eval(x), me, me),
                                _ => 0.0,
                            })
                            .sum()
                    }
                };
                let lost = !won && leaves_win(&mut pos, mv, &their_wins);
                let eval = if won {
                    Evaluation {
                        score,
                        outcome: Outcome::Win,
                        plies: Some(1),
                    }
                } else if lost {
                    Evaluation {
                        score: score - LOSS,
                        outcome: Outcome::Loss,
                        plies: Some(2),
                    }
                } else {
                    Evaluation {
                        score,
                        outcome: Outcome::Unknown,
                        plies: None,
                    }
                };
                scored.push((
                    MoveEval {
                        mv,
                        eval,
                        action: None,
                        evaluated: true,
                        depth: 1,
                        bound: Bound::Exact,
                    },
                    key,
                ));
            }
        }
        finish(position, scored, legal.len() as u64, budget, rng)
    }
}

/// Does `mv` leave the opponent (of the side to move) a mark that completes `k`?
fn leaves_win(pos: &mut Position, mv: Move, their_wins: &[usize]) -> bool {
    match mv.piece {
        Piece::Mark | Piece::Block => their_wins.iter().any(|&c| c != mv.cell()),
        Piece::Remove | Piece::Bomb => {
            let (changed, len) = changed_cells(pos, mv);
            let them = pos.to_move().opponent();
            let reopens = reopened(pos, them, &changed[..len]);
            let undo = pos.play_unchecked(mv);
            let r = can_win_after(pos, them, their_wins, &changed[..len], reopens);
            pos.undo(undo);
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kinrow_game::Rules;

    fn line(s: &str) -> Vec<St> {
        s.chars()
            .map(|c| match c {
                'x' => St::Own,
                '.' => St::Empty,
                _ => St::Stop,
            })
            .collect()
    }

    #[test]
    fn the_table_reads_by_marks_missing() {
        assert_eq!(attack_weight(1, 2), 100.0);
        assert_eq!(attack_weight(1, 1), 6.0);
        assert_eq!(attack_weight(4, 2), 0.25);
        assert_eq!(attack_weight(6, 1), 0.025);
        assert_eq!(attack_weight(2, 0), 0.0);
    }

    #[test]
    fn lines_k5() {
        // The scanned cell sits between `back` (read outwards) and `fwd`.
        // x x [x] x . : power 4, one end open: a break point, weight 6.
        let e = line_eval(&line("xx|||"), &line("x.|||"), 5);
        assert_eq!(e.weight, 6.0);
        assert!(e.break_point);
        // . x [x] x . . : an open three: a break point, 7.
        let e = line_eval(&line("x....."), &line("x....."), 5);
        assert_eq!(e.weight, 7.0);
        assert!(e.break_point);
        // . [x] . x x . : central one, broken two beyond a gap: 0.25 + 5/2, a break point.
        let e = line_eval(&line("......"), &line(".xx..."), 5);
        assert_eq!(e.weight, 0.25 + 2.5);
        assert!(e.break_point);
        // # [x] x x . # : no room for five.
        let e = line_eval(&line("|"), &line("xx.|"), 5);
        assert_eq!(e, LineEval::default());
    }

    #[test]
    fn far_cells_weigh_what_a_full_scan_says() {
        for (m, n, k) in [(15, 15, 5), (7, 4, 3), (64, 3, 2), (5, 5, 9)] {
            let rules = Rules::mnk(m, n, k).unwrap();
            let pos = Position::empty(&rules);
            let mut fast = Scanner::new(&pos);
            let mut full = Scanner::new(&pos);
            full.near.iter_mut().for_each(|x| *x = true);
            for c in 0..pos.cells().len() {
                assert_eq!(fast.eval(c), full.eval(c), "{m}x{n} k={k} cell {c}");
            }
        }
    }

    #[test]
    fn two_open_threes_through_a_cell_are_two_break_points() {
        let rules = Rules::mnk(15, 15, 5).unwrap();
        let mut rows = vec![".".repeat(15); 15];
        rows[7] = ".....xx........".into();
        rows[5] = ".......x.......".into();
        rows[6] = ".......x.......".into();
        rows[0] = "o.............o".into();
        rows[14] = "o.............o".into();
        let pos = Position::new(&rules, Some(&rows), None).unwrap();
        let mut scan = Scanner::new(&pos);
        let e = scan.eval(7 * 15 + 7);
        assert_eq!(e.break_points, [2, 0]);
        // Two open threes, and a lone open mark on each diagonal.
        assert_eq!(
            value(&e, Player::X, Player::X),
            (7.0 + 7.0 + 2.0 * 0.25) * ATTACK + OWN_FORK
        );
        // One cell further along the row: one broken three, one break point.
        assert_eq!(scan.eval(7 * 15 + 8).break_points, [1, 0]);
    }
}
