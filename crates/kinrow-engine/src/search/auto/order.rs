//! How the pattern search ranks the empty cells near a piece before it searches the
//! best few: a linear score, fitted to the moves strong play chooses, of what a mark on
//! the cell makes for the side to move and what it spoils for the opponent. Per line
//! through the cell, the [`Shape`] a mark there makes of it; over the four lines,
//! combinations (a four with an open three, two open threes, two fours, two threats,
//! an open three with an open two); and log2 of what the mark adds to the player's
//! window score. The line codes' table holds each line's shapes and gains, so a cell's
//! score is four table reads and a few small-table lookups.

use crate::board::{LineReading, Shape};

/// What the ordering counts for one player, in thousandths of a logit.
struct OrderWeights {
    shape: [i64; 8],
    /// A four and an open three at once.
    four_three: i64,
    /// Two open threes.
    double_three: i64,
    /// Two fours (on two lines, or two completing cells on one).
    double_four: i64,
    /// Two lines made a three or better.
    two_threats: i64,
    /// An open three and an open two.
    three_two: i64,
    /// Per sixteenth of log2(1 + what the mark adds to the window score).
    log_gain: i64,
}

/// The weights for the side to move, then the opponent (a mark on the cell spoils what
/// the opponent would make there): a conditional logit fitted to the moves the winners
/// played at quiet positions of 960 arena games of `auto` against `mcts` (15x15x5,
/// 100 ms); on other games it puts the played move first more often than the window
/// gains alone (how much: docs/strength.md). Fives never occur at a quiet node; their
/// weights (not fitted) only rank the root's cells.
const WEIGHTS: [OrderWeights; 2] = [
    OrderWeights {
        shape: [0, 173, 868, 265, 1186, 851, 6994, 20000],
        four_three: 1754,
        double_three: -234,
        double_four: 5010,
        two_threats: 1237,
        three_two: 408,
        log_gain: 65,
    },
    OrderWeights {
        shape: [0, -6, 193, 479, 1446, 2507, 0, 10000],
        four_three: 1903,
        double_three: -888,
        double_four: 0,
        two_threats: 113,
        three_two: 24,
        log_gain: 5,
    },
];

/// A line's share of a player's combination key: three bits each count the lines made
/// a three, an open three, a four (open or not) and an open two.
const KEY: [u32; 8] = {
    let mut key = [0; 8];
    key[Shape::Three as usize] = 1;
    key[Shape::OpenThree as usize] = 1 << 3;
    key[Shape::Four as usize] = 1 << 6;
    key[Shape::OpenFour as usize] = 1 << 6;
    key[Shape::OpenTwo as usize] = 1 << 9;
    key
};

/// The combinations' part of the score for the mover (`side` 0) or the opponent, by
/// the player's combination key (a table, as the conditions' branches were costly).
static COMBINATIONS: [[i32; 1 << 12]; 2] = [combinations(0), combinations(1)];

const fn combinations(side: usize) -> [i32; 1 << 12] {
    let w = &WEIGHTS[side];
    let mut table = [0; 1 << 12];
    let mut key = 0;
    while key < table.len() {
        let (three, open_three, four, open_two) =
            (key & 7, (key >> 3) & 7, (key >> 6) & 7, (key >> 9) & 7);
        table[key] = (w.four_three * (four >= 1 && open_three >= 1) as i64
            + w.double_three * (open_three >= 2) as i64
            + w.double_four * (four >= 2) as i64
            + w.two_threats * (three + open_three + four >= 2) as i64
            + w.three_two * (open_three >= 1 && open_two >= 1) as i64) as i32;
        key += 1;
    }
    table
}

/// A candidate cell's score for the side to move `me`, from its four lines.
#[inline]
pub fn order_score(lines: [&LineReading; 4], me: usize) -> i64 {
    let (mut score, mut key, mut gain) = (0i64, [0u32; 2], [0i64; 2]);
    for line in lines {
        score += WEIGHTS[0].shape[line.shape[me] as usize]
            + WEIGHTS[1].shape[line.shape[me ^ 1] as usize];
        for p in 0..2 {
            key[p] += KEY[line.shape[p] as usize];
            gain[p] += line.gain[p] as i64;
        }
    }
    score
        + COMBINATIONS[0][key[me] as usize] as i64
        + COMBINATIONS[1][key[me ^ 1] as usize] as i64
        + WEIGHTS[0].log_gain * log2_sixteenths(gain[me])
        + WEIGHTS[1].log_gain * log2_sixteenths(gain[me ^ 1])
}

/// log2(1 + g) in sixteenths (4 bits of fraction, read off the bits below the top one).
fn log2_sixteenths(g: i64) -> i64 {
    let v = (g.max(0) + 1) as u64;
    let top = 63 - v.leading_zeros() as i64;
    let fraction = if top >= 4 {
        (v >> (top - 4)) & 15
    } else {
        (v << (4 - top)) & 15
    };
    top * 16 + fraction as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_in_sixteenths() {
        let cases = [
            (0, 0),
            (1, 16),
            (2, 24),
            (3, 32),
            (1023, 160),
            (1535, 168),
            (-5, 0),
        ];
        for (g, expected) in cases {
            assert_eq!(log2_sixteenths(g), expected, "log2(1 + {g})");
        }
    }
}
