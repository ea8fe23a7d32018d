//! A match's totals: wins, draws and losses, pairs, colours, Elo with its interval,
//! and the printed report.

use std::time::Duration;

use super::contest::{ArenaConfig, GameRecord};

/// The match's totals, from engine A's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
    /// A's points per game (a win 1, a draw ½).
    pub score: f64,
    /// A's Elo advantage (infinite at a score of 0 or 1) and its 95% interval (Wilson).
    pub elo: f64,
    /// The interval's low end.
    pub elo_low: f64,
    /// The interval's high end.
    pub elo_high: f64,
    /// Mean time per move of A and B.
    pub mean_move: [Duration; 2],
    /// A's score (per game, a win 1 and a draw ½) in the games where A played x, and
    /// where it played o; `None` where it played no such game.
    pub score_as: [Option<f64>; 2],
    /// Pairs (the two games of one opening, one with each colour) that A won both of,
    /// split one to one, lost both of; pairs with a draw or an odd game out are `other`.
    pub pairs: Pairs,
    /// Games that A and that B lost by forfeit (an illegal move, an external engine's
    /// error or silence).
    pub forfeits: [u32; 2],
}

/// How the pairs of a match went for engine A.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs A won both games of.
    pub won_both: u32,
    /// Pairs of one win each.
    pub split: u32,
    /// Pairs A lost both games of.
    pub lost_both: u32,
    /// Pairs with a draw, and a game without its pair.
    pub other: u32,
}

/// A's points in game `g`: 1 for a win, ½ for a draw.
fn points(g: &GameRecord) -> f64 {
    match g.winner_engine() {
        Some(0) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn pairs(games: &[GameRecord]) -> Pairs {
    let mut out = Pairs::default();
    for pair in games.chunks(2) {
        match pair {
            [a, b] if a.index / 2 == b.index / 2 => match points(a) + points(b) {
                2.0 => out.won_both += 1,
                0.0 => out.lost_both += 1,
                1.0 if points(a) != 0.5 => out.split += 1,
                _ => out.other += 1,
            },
            _ => out.other += 1,
        }
    }
    out
}

/// Elo difference for a score fraction in `[0, 1]`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Totals a list of games.
pub fn summarize(games: &[GameRecord]) -> Summary {
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut think = [Duration::ZERO; 2];
    let mut counts = [0u32; 2];
    let mut forfeits = [0u32; 2];
    let mut as_colour = [(0.0, 0u32); 2];
    for g in games {
        let colour = if g.x_engine == 0 { 0 } else { 1 };
        as_colour[colour].0 += points(g);
        as_colour[colour].1 += 1;
        if let (Some(_), Some(w)) = (&g.forfeit, g.winner_engine()) {
            forfeits[1 - w] += 1;
        }
        match g.winner_engine() {
            Some(0) => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
        for e in 0..2 {
            think[e] += g.think[e];
            counts[e] += g.counts[e];
        }
    }
    let n = games.len().max(1) as f64;
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    // Wilson score interval with the binomial variance (conservative when there are
    // draws); unlike the plain normal approximation it stays finite at 0% and 100%.
    let z = 1.96f64;
    let centre = (score + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (score * (1.0 - score) / n + z * z / (4.0 * n * n)).sqrt();
    let mean = |e: usize| {
        if counts[e] == 0 {
            Duration::ZERO
        } else {
            think[e] / counts[e]
        }
    };
    Summary {
        wins,
        draws,
        losses,
        score,
        elo: elo_from_score(score),
        elo_low: elo_from_score(centre - half),
        elo_high: elo_from_score(centre + half),
        mean_move: [mean(0), mean(1)],
        score_as: as_colour.map(|(p, n)| (n > 0).then(|| p / f64::from(n))),
        pairs: pairs(games),
        forfeits,
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if e.abs() < 0.5 {
        "0".to_string()
    } else {
        format!("{e:+.0}")
    }
}

/// The summary as printed by `kinrow arena`.
pub fn report(config: &ArenaConfig, s: &Summary) -> String {
    let [a, b] = [config.engines[0].label(), config.engines[1].label()];
    let games = s.wins + s.draws + s.losses;
    let exact = if config.rules.overline() {
        ""
    } else {
        " exact"
    };
    let as_colour = |c: usize| match s.score_as[c] {
        Some(x) => format!("{:.1}%", x * 100.0),
        None => "-".to_string(),
    };
    let forfeits = if s.forfeits == [0, 0] {
        String::new()
    } else {
        format!("\nforfeits: {a} {}, {b} {}", s.forfeits[0], s.forfeits[1])
    };
    format!(
        "{a} vs {b} on {},{},{}{exact}: {games} games\n\
         {a}: {} wins, {} draws, {} losses; score {:.1}% (as x {}, as o {})\n\
         pairs: won both {}, split {}, lost both {}, other {}\n\
         Elo difference {} (95% interval {} .. {})\n\
         mean time per move: {a} {:.1} ms, {b} {:.1} ms{forfeits}",
        config.rules.m(),
        config.rules.n(),
        config.rules.k(),
        s.wins,
        s.draws,
        s.losses,
        s.score * 100.0,
        as_colour(0),
        as_colour(1),
        s.pairs.won_both,
        s.pairs.split,
        s.pairs.lost_both,
        s.pairs.other,
        fmt_elo(s.elo),
        fmt_elo(s.elo_low),
        fmt_elo(s.elo_high),
        s.mean_move[0].as_secs_f64() * 1000.0,
        s.mean_move[1].as_secs_f64() * 1000.0,
    )
}

/// The match's summary as JSON (`--summary`): the contestants, the rules (as the game
/// records hold them), the counts,
/// the score and the Elo difference with its interval.
pub fn summary_json(config: &ArenaConfig, s: &Summary) -> serde_json::Value {
    let finite = |x: f64| x.is_finite().then_some(x);
    serde_json::json!({
        "engines": [config.engines[0].label(), config.engines[1].label()],
        "rules": crate::record::rules_json(&config.rules),
        "seed": config.seed,
        "games": s.wins + s.draws + s.losses,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "score": s.score,
        "elo": finite(s.elo),
        "elo_low": finite(s.elo_low),
        "elo_high": finite(s.elo_high),
        "pairs": { "won_both": s.pairs.won_both, "split": s.pairs.split,
                   "lost_both": s.pairs.lost_both, "other": s.pairs.other },
        "mean_move_ms": [s.mean_move[0].as_secs_f64() * 1000.0,
                         s.mean_move[1].as_secs_f64() * 1000.0],
        "forfeits": s.forfeits,
    })
}
