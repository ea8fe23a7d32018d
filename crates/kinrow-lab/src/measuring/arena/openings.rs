//! The arena's openings: random marks near the centre, judged even by a search (the
//! engine's `balanced` openings, re-exported here), or read from an opening file.

use super::contest::ArenaConfig;
use super::parallel::in_parallel;
use kinrow_game::{Move, Position, Rules};

// The random openings themselves are the engine's (its tests draw the same positions).
pub use kinrow_engine::balanced::{
    confirmed_value, even_value, opening, opening_judged, searched_value, Judge, CONFIRM_NODES,
    EVEN_BAND, X_EDGE,
};

/// The default number of random opening marks for a board: 1 up to 16 cells, 2 up to
/// 64, else 5. On large boards the number is odd, so o moves first after the opening
/// with one mark fewer, which offsets x's first-move advantage there (15x15x5, `auto`
/// against itself, 20 games at 100 ms on seed 1: after 4 random marks x won 18 games,
/// after 5 x won 9 and o 11). Small boards stay even: on 7x7x4 (a first-player win)
/// x wins every game from 3 random marks whoever plays it, even `greedy` against `auto`.
pub fn default_opening_plies(rules: &Rules) -> usize {
    match rules.cells() {
        0..=16 => 1,
        17..=64 => 2,
        _ => 5,
    }
}

/// The opening of every pair of the match, each judged once (on `config.threads`
/// threads): the two games of a pair share it.
pub fn openings(config: &ArenaConfig) -> Vec<Vec<Move>> {
    if let Some(fixed) = &config.fixed_openings {
        return (0..config.games.div_ceil(2))
            .map(|pair| fixed[pair % fixed.len()].clone())
            .collect();
    }
    in_parallel(config.games.div_ceil(2), config.threads, |pair| {
        pair_opening(config, pair)
    })
}

/// The opening of pair `pair` of `config`'s match: its fixed one (the file's openings
/// in turn, from the first again once all were played: an SPRT may need more pairs than
/// the file has), none under an opening phase (the engines place the stones
/// themselves), else the seeded random one.
pub fn pair_opening(config: &ArenaConfig, pair: usize) -> Vec<Move> {
    if let Some(fixed) = &config.fixed_openings {
        return fixed[pair % fixed.len()].clone();
    }
    if config.rules.opening().has_phase() {
        return Vec::new();
    }
    let plies = config
        .opening_plies
        .unwrap_or_else(|| default_opening_plies(&config.rules));
    opening(&config.rules, plies, config.seed, pair)
}

/// `mv` as Gomocup `x,y` (column, row).
pub fn cell_text(mv: Move, m: usize) -> String {
    let c = mv.coord(m);
    format!("{},{}", c.col, c.row)
}

/// The mark at Gomocup `x,y` on `rules`' board.
pub fn cell_move(text: &str, rules: &Rules) -> Result<Move, String> {
    let bad = || format!("{text:?} is not x,y on a {}x{} board", rules.m(), rules.n());
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let (col, row): (usize, usize) = (
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    );
    if col >= rules.m() || row >= rules.n() {
        return Err(bad());
    }
    Ok(Move::mark(row * rules.m() + col))
}

/// Reads an opening file for `rules`: one opening a line, its moves as Gomocup
/// coordinates `x,y` (column, row, from 0) separated by white space, x's first and then
/// alternating; `#` starts a comment, and empty lines are skipped. Every opening must
/// be legal and leave the game in progress.
pub fn read_openings(text: &str, rules: &Rules) -> Result<Vec<Vec<Move>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let mut p = Position::empty(rules);
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let mv = cell_move(word, rules).map_err(|e| format!("line {}: {e}", i + 1))?;
            p.try_play(mv)
                .map_err(|e| format!("line {}: {word}: {e}", i + 1))?;
            moves.push(mv);
        }
        if p.is_over() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        out.push(moves);
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}
