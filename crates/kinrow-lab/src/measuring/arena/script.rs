//! A scripted player, the yardstick for the levels: what a casual player does without
//! reading ahead. It wins at once when it can, blocks the opponent's win now, and
//! otherwise plays the cell whose k-windows hold the most of its own marks (extending
//! its threes to fours first) and, a little less, the opponent's (blocking theirs);
//! with probability `noise` it plays one of its five best cells at random instead.
//! Written `script[:noise=P]` in `--engines` (noise 0.1 when omitted).

use rand::rngs::StdRng;
use rand::RngExt;

use kinrow_engine::winning_cells;
use kinrow_game::{Cell, Move, Piece, Player, Position};

/// The default probability of a move among the five best instead of the best.
pub const DEFAULT_NOISE: f64 = 0.1;

/// A scripted contestant.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptSpec {
    /// The probability of playing one of the five best cells at random.
    pub noise: f64,
    /// The text it was parsed from.
    pub label: String,
}

impl ScriptSpec {
    /// Parses what follows `script` in `script[:noise=P]`.
    pub fn parse(text: &str, rest: &str) -> Result<ScriptSpec, String> {
        let mut spec = ScriptSpec {
            noise: DEFAULT_NOISE,
            label: text.trim().to_string(),
        };
        for part in rest.split(':').filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some(("noise", v)) => {
                    let p: f64 = v
                        .parse()
                        .map_err(|_| format!("{text:?}: noise={v:?} is not a number"))?;
                    if !(0.0..=1.0).contains(&p) {
                        return Err(format!("{text:?}: noise={v:?} is not between 0 and 1"));
                    }
                    spec.noise = p;
                }
                _ => return Err(format!("{text:?}: unknown parameter {part:?} (noise)")),
            }
        }
        Ok(spec)
    }
}

/// The scripted player's move in `position` (in progress).
pub fn script_move(position: &Position, noise: f64, rng: &mut StdRng) -> Move {
    let me = position.to_move();
    let legal = |c: usize| position.is_legal(Move::mark(c));
    if let Some(&c) = winning_cells(position, me).iter().find(|&&c| legal(c)) {
        return Move::mark(c);
    }
    if let Some(&c) = winning_cells(position, me.opponent())
        .iter()
        .find(|&&c| legal(c))
    {
        return Move::mark(c);
    }
    let mut scored: Vec<(f64, usize)> = (0..position.cells().len())
        .filter(|&c| position.cell(c) == Cell::Empty && legal(c))
        .map(|c| (cell_score(position, c, me), c))
        .collect();
    if scored.is_empty() {
        return position
            .legal_moves()
            .into_iter()
            .find(|m| m.piece == Piece::Mark)
            .unwrap_or_else(|| position.legal_moves()[0]);
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let top = scored.iter().take_while(|s| s.0 == scored[0].0).count();
    let pick = if noise > 0.0 && rng.random_bool(noise) {
        rng.random_range(0..scored.len().min(5))
    } else {
        rng.random_range(0..top)
    };
    Move::mark(scored[pick].1)
}

/// The weight of a mark of `me` on `cell`: over the k-windows through it that one
/// player alone holds marks in, 10 to the power of those marks, the opponent's at 0.8;
/// a small pull to the centre breaks ties on an empty board.
fn cell_score(position: &Position, cell: usize, me: Player) -> f64 {
    let windows = position.geometry().windows();
    let mut score = 0.0;
    for &w in windows.through(cell) {
        let (mut own, mut theirs, mut dead) = (0, 0, false);
        for &x in windows.all[w as usize].cells.iter() {
            match position.cell(x as usize) {
                Cell::Empty => {}
                Cell::Mark(p) if p == me => own += 1,
                Cell::Mark(_) => theirs += 1,
                Cell::Block => dead = true,
            }
        }
        if dead || (own > 0 && theirs > 0) {
            continue;
        }
        if theirs == 0 {
            score += 10f64.powi(own);
        }
        if own == 0 {
            score += 0.8 * 10f64.powi(theirs);
        }
    }
    let (m, n) = (position.m() as f64, position.n() as f64);
    let (r, c) = ((cell / position.m()) as f64, (cell % position.m()) as f64);
    score - 0.01 * ((r - (n - 1.0) / 2.0).abs() + (c - (m - 1.0) / 2.0).abs())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use kinrow_game::Rules;

    #[test]
    fn it_wins_blocks_and_extends() {
        let rules = Rules::mnk(9, 9, 5).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let e = ".........";
        // x to move wins at (4,4).
        let p = Position::new(
            &rules,
            Some(&[e, e, e, e, "xxxx.....", e, e, "oooo.....", e][..]),
            None,
        );
        assert_eq!(
            script_move(&p.unwrap(), 0.0, &mut rng),
            Move::mark(4 * 9 + 4)
        );
        // o to move blocks at (4,4).
        let p = Position::new(
            &rules,
            Some(&[e, e, e, e, "xxxx.....", e, e, "ooo......", e][..]),
            None,
        );
        assert_eq!(
            script_move(&p.unwrap(), 0.0, &mut rng),
            Move::mark(4 * 9 + 4)
        );
        // x to move extends its open three to a four.
        let p = Position::new(
            &rules,
            Some(&[e, e, "o........", e, "...xxx...", e, e, "oo.......", e][..]),
            None,
        );
        let mv = script_move(&p.unwrap(), 0.0, &mut rng);
        assert!([4 * 9 + 2, 4 * 9 + 6].contains(&mv.cell()), "{mv:?}");
        assert!(ScriptSpec::parse("script:noise=2", ":noise=2").is_err());
        assert_eq!(
            ScriptSpec::parse("script:noise=0.3", ":noise=0.3")
                .unwrap()
                .noise,
            0.3
        );
    }
}
