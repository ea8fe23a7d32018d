//! `kinrow judge --turning`: where the lost games turned, and whether the loser walked
//! into a forced win the judge saw at once.
//!
//! For every decisive game (a forfeit aside) whose loser is one of `--engines` (every
//! contestant when omitted), the external judge searches the position before each of
//! the loser's moves after the opening and the position right after it, in a fresh
//! process each, with the same time. Before the move it gives the loser's value with
//! its own best move (its root evaluation); after it, the opponent's evaluation, read
//! as the loser's value of the move played. A value is *lost* when the judge reports a
//! forced win for the opponent or puts the loser's winning probability below
//! `--lost-below`.
//!
//! The *turning move* is the first of the loser's moves after which every value stayed
//! lost to the end of the game. It is *tactical* when the judge reported a forced win
//! for the opponent right after it (a win the loser could have seen by reading the
//! threats), *positional* otherwise. Before it, each move's *loss* is the loser's value
//! with the judge's best move less its value after the move played (never below 0;
//! forced results count as `±cap`), as `kinrow judge` measures quiet moves. A game in
//! which the loser's values were lost from its first judged move has no turning move
//! inside the judged part and is counted apart, and so is one the judge never saw lost.
//!
//! The report gives per loser: its lost games, how many turned tactically or
//! positionally, the median ply of the turn, and the mean loss per move before the turn
//! with its standard error; `--out` gets one JSON line per game: its moves as the judge
//! saw them (evaluations, the plies of a forced result, the depth it reached, its own
//! move before each), and for the turning move the position before it (`position`,
//! every move from the empty board as Gomocup `x,y`), the judge's move there
//! (`judge_move`) and the judge's mate distance and depth right after it
//! (`turning_plies`, `turning_depth`): what `kinrow turning-suite build` keeps.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use super::openings::cell_text;
use super::parallel::in_parallel;
use crate::books::openings::{judge_said, judge_spec, JudgeSaid};
use crate::measuring::judge::{mean_and_error, JudgeArgs, Judgement};
use crate::output::{print_line, Progress};
use crate::record::{read_games, Turn};
use kinrow_engine::{Eval, ExternalSpec};
use kinrow_game::{Cell, Move, Player};

/// One of the loser's moves as the judge saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The ply of the move (moves before it, the opening's included).
    pub ply: usize,
    /// The judge's root evaluation before the move, for the loser (None: it gave none).
    pub before: Option<Eval>,
    /// The judge's evaluation after the move, for the opponent (None: it gave none, or
    /// the move ended the game).
    pub after: Option<Eval>,
    /// The plies to the five of a forced result before the move, where the judge
    /// counted them.
    pub before_plies: Option<u32>,
    /// The same after the move.
    pub after_plies: Option<u32>,
    /// The depth the judge reached before the move.
    pub before_depth: Option<u32>,
    /// The depth it reached after it.
    pub after_depth: Option<u32>,
    /// The judge's own move before the move (None: it gave no evaluation).
    pub best: Option<Move>,
}

impl Judged {
    /// Whether the loser's value after the move is lost (a forced win for the opponent,
    /// or a winning probability below `lost_below`); None when the judge gave none.
    fn lost(&self, scale: f64, lost_below: f64) -> Option<bool> {
        match self.after? {
            Eval::Mate { win } => Some(win),
            after => Some(Judgement::win_probability(after, scale) < lost_below),
        }
    }

    /// The loss of the move in the judge's units (see the module text), where both
    /// evaluations exist.
    fn loss(&self, cap: i64) -> Option<i64> {
        // The root evaluation is the loser's own: the opposite of its value seen as the
        // opponent's; the one after the move is the opponent's.
        let before = -Judgement::mover_value(self.before?, cap);
        let after = Judgement::mover_value(self.after?, cap);
        Some((before - after).max(0))
    }
}

/// Where one lost game turned.
#[derive(Clone, Debug, PartialEq)]
pub struct Turning {
    /// Index in the loser's judged moves of the turning move; None when every judged
    /// move was already lost (the game turned before the judged part, or in the
    /// opening).
    pub at: Option<usize>,
    /// The judge reported a forced win for the opponent right after the turning move.
    pub tactical: bool,
    /// The judge saw the loser's last value lost (else the game is counted apart: the
    /// judge missed the win at this time).
    pub seen_lost: bool,
    /// The losses of the moves before the turning move (those the judge valued twice).
    pub losses_before: Vec<i64>,
}

/// Finds the turning move of a lost game among the loser's `moves` (in order).
pub fn turning(moves: &[Judged], cap: i64, scale: f64, lost_below: f64) -> Turning {
    let lost: Vec<Option<bool>> = moves.iter().map(|m| m.lost(scale, lost_below)).collect();
    // The first move from which every value stays lost (a move the judge gave no value
    // after does not end the run).
    let from = lost
        .iter()
        .rposition(|&l| l == Some(false))
        .map_or(0, |i| i + 1);
    let seen_lost = lost[from..].contains(&Some(true));
    let at = (from > 0 && seen_lost).then_some(from);
    let tactical = at.is_some_and(|i| matches!(moves[i].after, Some(Eval::Mate { win: true })));
    Turning {
        at,
        tactical,
        seen_lost,
        losses_before: moves[..from].iter().filter_map(|m| m.loss(cap)).collect(),
    }
}

/// One lost game to judge.
struct Lost {
    line: usize,
    loser: String,
    turns: Vec<Turn>,
}

fn lost_games(args: &JudgeArgs, text: &str) -> Result<Vec<Lost>, String> {
    let wanted: Option<Vec<&str>> = args
        .engines
        .as_deref()
        .map(|e| e.split(',').map(str::trim).collect());
    let mut out = Vec::new();
    for (line, game) in read_games(text).map_err(|e| format!("--games: {e}"))? {
        let Some(winner) = game.result.winner() else {
            continue;
        };
        if game.forfeit.is_some() {
            continue;
        }
        let loser: Player = winner.opponent();
        let label = game.label(loser).to_string();
        if wanted
            .as_ref()
            .is_some_and(|w| !w.contains(&label.as_str()))
        {
            continue;
        }
        let turns = game
            .turns()
            .into_iter()
            .filter(|t| t.position.to_move() == loser)
            .collect();
        out.push(Lost {
            line,
            loser: label,
            turns,
        });
    }
    Ok(out)
}

/// The judge's two evaluations around one of the loser's moves. A judge may answer a
/// win in one move without an evaluation (Rapfi does): a position where the side to
/// move completes a line at once counts as its forced win.
fn judge_move(spec: &ExternalSpec, turn: &Turn, time: Duration) -> Result<Judged, String> {
    let rules = turn.position.rules();
    let judge = |moves: &[Move]| -> Result<Option<JudgeSaid>, String> {
        let mut p = kinrow_game::Position::empty(&rules);
        for &mv in moves {
            p.try_play(mv).map_err(|e| e.to_string())?;
        }
        let me = p.to_move();
        let now = (!p.is_over())
            .then(|| (0..p.cells().len()).find(|&c| p.cell(c) == Cell::Empty && p.wins_at(c, me)))
            .flatten();
        if let Some(cell) = now {
            // A five at once: one ply to the five, no search.
            return Ok(Some(JudgeSaid {
                eval: Eval::Mate { win: true },
                plies: Some(1),
                depth: None,
                best: Move::mark(cell),
            }));
        }
        // A judge that misses its deadline on a loaded machine gets two more tries.
        let mut tries = 1;
        loop {
            match judge_said(spec, &rules, moves, time) {
                Err(e) if tries < JUDGE_TRIES => {
                    eprintln!(
                        "kinrow judge --turning: ply {}: {e}; trying again",
                        moves.len()
                    );
                    tries += 1;
                }
                said => return said,
            }
        }
    };
    let before = judge(&turn.history)?;
    let mut moves = turn.history.clone();
    moves.push(turn.played);
    let after = judge(&moves)?;
    Ok(Judged {
        ply: turn.history.len(),
        before: before.map(|s| s.eval),
        after: after.map(|s| s.eval),
        before_plies: before.and_then(|s| s.plies),
        after_plies: after.and_then(|s| s.plies),
        before_depth: before.and_then(|s| s.depth),
        after_depth: after.and_then(|s| s.depth),
        best: before.map(|s| s.best),
    })
}

/// Searches of one position a judge gets before its failure ends the run.
const JUDGE_TRIES: usize = 3;

/// An evaluation as [`eval_json`] wrote it.
fn eval_of_json(v: &serde_json::Value) -> Result<Option<Eval>, String> {
    match v {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(s) if s == "+M" => Ok(Some(Eval::Mate { win: true })),
        serde_json::Value::String(s) if s == "-M" => Ok(Some(Eval::Mate { win: false })),
        other => other
            .as_i64()
            .map(|s| Some(Eval::Score(s)))
            .ok_or_else(|| format!("{other} is not an evaluation")),
    }
}

/// The judged moves of the games an earlier run wrote to `text` (its `--out`), by the
/// game's line, to go on from.
fn judged_before(
    text: &str,
    rules: &kinrow_game::Rules,
) -> Result<BTreeMap<usize, Vec<Judged>>, String> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let at = |e: String| format!("--out line {}: {e}", i + 1);
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        let number = |v: &serde_json::Value, k: &str| v.get(k).and_then(serde_json::Value::as_u64);
        let game = number(&v, "line").ok_or_else(|| at("line is missing".into()))? as usize;
        let moves = v["moves"]
            .as_array()
            .ok_or_else(|| at("moves is missing".into()))?;
        let judged = moves
            .iter()
            .map(|j| {
                Ok(Judged {
                    ply: number(j, "ply").ok_or("ply is missing")? as usize,
                    before: eval_of_json(&j["before"])?,
                    after: eval_of_json(&j["after"])?,
                    before_plies: number(j, "before_plies").map(|p| p as u32),
                    after_plies: number(j, "after_plies").map(|p| p as u32),
                    before_depth: number(j, "before_depth").map(|p| p as u32),
                    after_depth: number(j, "after_depth").map(|p| p as u32),
                    best: j["best"]
                        .as_str()
                        .map(|t| super::openings::cell_move(t, rules))
                        .transpose()?,
                })
            })
            .collect::<Result<Vec<_>, String>>()
            .map_err(at)?;
        out.insert(game, judged);
    }
    Ok(out)
}

fn eval_json(e: Option<Eval>) -> serde_json::Value {
    match e {
        None => serde_json::Value::Null,
        Some(Eval::Score(s)) => serde_json::json!(s),
        Some(Eval::Mate { win }) => serde_json::json!(if win { "+M" } else { "-M" }),
    }
}

/// `kinrow judge --turning`: returns the exit code.
pub fn main(args: &JudgeArgs) -> i32 {
    match run(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow judge --turning: {e}");
            1
        }
    }
}

/// The `--out` line of one lost game: where it turned, and every judged move of the
/// loser with the judge's evaluations before and after it.
fn game_line(args: &JudgeArgs, game: &Lost, judged: &[Judged], t: &Turning) -> serde_json::Value {
    let m = game.turns.first().map_or(15, |t| t.position.m());
    let turn_move = t.at.map(|i| &game.turns[i]);
    let at = t.at.map(|i| &judged[i]);
    let rules = game.turns.first().map(|t| t.position.rules());
    let text = |mv: Move| cell_text(mv, m);
    serde_json::json!({
        "games": args.games.display().to_string(),
        "line": game.line,
        "loser": game.loser,
        "rules": rules.as_ref().map(|r| format!("{},{},{}", r.m(), r.n(), r.k())),
        "variant": rules.as_ref().map(|r| r.variant().as_str()),
        "exact": rules.as_ref().is_some_and(|r| !r.overline()),
        "turning_ply": at.map(|j| j.ply),
        "turning_move": turn_move.map(|tm| text(tm.played)),
        "position": turn_move.map(|tm| tm.history.iter().map(|&mv| text(mv)).collect::<Vec<_>>().join(" ")),
        "judge_move": at.and_then(|j| j.best).map(text),
        "turning_plies": at.and_then(|j| j.after_plies),
        "turning_depth": at.and_then(|j| j.after_depth),
        "tactical": t.tactical,
        "mean_loss_before": mean_and_error(&t.losses_before.iter().map(|&l| l as f64).collect::<Vec<_>>()).0,
        "moves": judged.iter().zip(&game.turns).map(|(j, tu)| serde_json::json!({
            "ply": j.ply,
            "played": text(tu.played),
            "best": j.best.map(text),
            "before": eval_json(j.before),
            "after": eval_json(j.after),
            "before_plies": j.before_plies,
            "after_plies": j.after_plies,
            "before_depth": j.before_depth,
            "after_depth": j.after_depth,
        })).collect::<Vec<_>>(),
    })
}

/// Per loser: lost games, tactical and positional turns, turns before the judged part,
/// turns the judge never saw lost, the turns' plies, the losses before the turns.
#[derive(Default)]
struct Tally {
    games: usize,
    tactical: usize,
    positional: usize,
    early: usize,
    unseen: usize,
    plies: Vec<usize>,
    losses: Vec<f64>,
}

impl Tally {
    /// Counts one lost game that turned as `t` says, its moves judged as `judged`.
    fn add(&mut self, t: &Turning, judged: &[Judged]) {
        self.games += 1;
        match t.at {
            Some(i) if t.tactical => {
                self.tactical += 1;
                self.plies.push(judged[i].ply);
            }
            Some(i) => {
                self.positional += 1;
                self.plies.push(judged[i].ply);
            }
            None if t.seen_lost => self.early += 1,
            None => self.unseen += 1,
        }
        self.losses
            .extend(t.losses_before.iter().map(|&l| l as f64));
    }
}

/// Prints the run's header and each loser's tally, a human line and a JSON line each.
fn report(judge: &str, args: &JudgeArgs, tally: &BTreeMap<String, Tally>) {
    print_line(&format!(
        "# lost games judged by {} at {} ms per search; lost below a winning probability of {} (1/(1+exp(-eval/{}))) or a forced win; loss capped at {}",
        judge, args.time_ms, args.lost_below, args.scale, args.cap
    ));
    for (label, t) in tally {
        let mut plies = t.plies.clone();
        plies.sort_unstable();
        let median = plies
            .get(plies.len() / 2)
            .map_or("-".into(), usize::to_string);
        let (loss, se) = mean_and_error(&t.losses);
        print_line(&format!(
            "{label}: {} lost games; turned on a forced win the judge saw at once in {} (tactical), positionally in {}, before the judged moves in {}, not seen lost by the judge in {}; median turning ply {median}; mean loss per move before the turn {loss:.1} ± {se:.1} ({} moves)",
            t.games, t.tactical, t.positional, t.early, t.unseen, t.losses.len()
        ));
        print_line(
            &serde_json::json!({
                "loser": label,
                "lost_games": t.games,
                "tactical": t.tactical,
                "positional": t.positional,
                "before_judged": t.early,
                "not_seen_lost": t.unseen,
                "turning_plies": t.plies,
                "mean_loss_before": loss,
                "mean_loss_before_se": se,
                "moves_before": t.losses.len(),
            })
            .to_string(),
        );
    }
}

/// `--out`, opened to append to (a run stopped part way goes on after its lines).
fn append_to(path: &std::path::Path) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("--out: cannot write {}: {e}", path.display()))
}

fn run(args: &JudgeArgs) -> Result<(), String> {
    let spec = judge_spec(&args.judge)?;
    if args.cap <= 0 || args.scale.is_nan() || args.scale <= 0.0 {
        return Err("--cap and --scale must be positive".into());
    }
    if !(args.lost_below > 0.0 && args.lost_below < 0.5) {
        return Err("--lost-below must be between 0 and 0.5".into());
    }
    let text = std::fs::read_to_string(&args.games)
        .map_err(|e| format!("--games: cannot read {}: {e}", args.games.display()))?;
    let games = lost_games(args, &text)?;
    // A run stopped part way goes on after the games its --out holds (the same games
    // file and judge are the caller's to keep).
    let rules = games
        .first()
        .and_then(|g| g.turns.first())
        .map(|t| t.position.rules());
    let earlier = match (args.out.as_deref(), &rules) {
        (Some(path), Some(rules)) => judged_before(&crate::output::whole_lines(path)?, rules)?,
        _ => BTreeMap::new(),
    };
    let mut out = args.out.as_deref().map(append_to).transpose()?;
    let time = Duration::from_millis(args.time_ms);
    let done = games
        .iter()
        .filter(|g| earlier.contains_key(&g.line))
        .count();
    let progress = Progress::new("judge --turning", "lost games", done, games.len());
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for game in &games {
        let resumed = earlier.get(&game.line);
        let judged: Vec<Judged> = match resumed {
            Some(j) if j.len() == game.turns.len() => j.clone(),
            Some(_) => {
                return Err(format!(
                    "--out: line {} holds another game than --games line {}",
                    game.line, game.line
                ))
            }
            None => in_parallel(game.turns.len(), args.threads, |i| {
                judge_move(&spec, &game.turns[i], time)
            })
            .into_iter()
            .collect::<Result<_, _>>()?,
        };
        let t = turning(&judged, args.cap, args.scale, args.lost_below);
        tally
            .entry(game.loser.clone())
            .or_default()
            .add(&t, &judged);
        if let Some(f) = out.as_mut().filter(|_| resumed.is_none()) {
            let line = game_line(args, game, &judged, &t);
            writeln!(f, "{line}").map_err(|e| format!("--out: {e}"))?;
        }
        if resumed.is_some() {
            continue;
        }
        progress.advance(&format!(
            "line {}: {} turned at ply {} ({})",
            game.line,
            game.loser,
            t.at.map_or("-".into(), |i| judged[i].ply.to_string()),
            match t.at {
                None if !t.seen_lost => "the judge did not see it lost",
                None => "lost before the judged moves",
                Some(_) if t.tactical => "tactical: a forced win right after it",
                Some(_) => "positional",
            }
        ));
    }
    report(&spec.label, args, &tally);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(ply: usize, before: i64, after: Option<Eval>) -> Judged {
        Judged {
            ply,
            before: Some(Eval::Score(before)),
            after,
            before_plies: None,
            after_plies: None,
            before_depth: None,
            after_depth: None,
            best: None,
        }
    }

    const WIN: Option<Eval> = Some(Eval::Mate { win: true });

    #[test]
    fn the_turn_is_the_first_move_after_which_every_value_stays_lost() {
        let moves = [
            m(10, 20, Some(Eval::Score(-10))),
            m(12, 0, Some(Eval::Score(600))), // lost by value, but it recovers
            m(14, -500, Some(Eval::Score(30))), // not lost
            m(16, 0, WIN),                    // the turn: a forced win at once
            m(18, -1000, WIN),
        ];
        let t = turning(&moves, 1000, 200.0, 0.1);
        assert_eq!(t.at, Some(3));
        assert!(t.tactical);
        // The losses of the three moves before it: 20-10, 0-(-600), max(0, -500-(-30)).
        assert_eq!(t.losses_before, vec![10, 600, 0]);
    }

    #[test]
    fn an_earlier_runs_out_lines_come_back_as_the_judged_moves() {
        let rules = kinrow_game::Rules::mnk(15, 15, 5).unwrap();
        let text = concat!(
            r#"{"line":4,"moves":[{"ply":5,"played":"1,0","best":"2,3","before":-12,"after":10,"#,
            r#""before_plies":null,"after_plies":null,"before_depth":14,"after_depth":15},"#,
            r#"{"ply":7,"played":"12,12","best":null,"before":null,"after":"+M","after_plies":9}]}"#,
            "\n"
        );
        let back = judged_before(text, &rules).unwrap();
        let j = &back[&4];
        assert_eq!(j.len(), 2);
        assert_eq!(
            (j[0].before, j[0].after, j[0].before_depth, j[0].best),
            (
                Some(Eval::Score(-12)),
                Some(Eval::Score(10)),
                Some(14),
                Some(Move::mark(3 * 15 + 2))
            )
        );
        assert_eq!(
            (j[1].after, j[1].after_plies, j[1].best),
            (WIN, Some(9), None)
        );
        let bad = judged_before(r#"{"line":1,"moves":[{"ply":1,"after":"x"}]}"#, &rules);
        assert!(bad.unwrap_err().contains("--out line 1"));
    }

    #[test]
    fn a_turn_without_a_forced_win_is_positional_and_a_game_lost_throughout_has_none() {
        let slow = [
            m(10, 0, Some(Eval::Score(0))),
            m(12, 0, Some(Eval::Score(700))),
            m(14, -700, WIN),
        ];
        let t = turning(&slow, 1000, 200.0, 0.1);
        assert_eq!((t.at, t.tactical), (Some(1), false));
        let lost = [m(10, -900, WIN), m(12, -1000, WIN)];
        let t = turning(&lost, 1000, 200.0, 0.1);
        assert_eq!(
            (t.at, t.tactical, t.seen_lost, t.losses_before.len()),
            (None, false, true, 0)
        );
        // A move the judge gave no value after does not end a lost run.
        let gap = [
            m(10, 0, Some(Eval::Score(0))),
            m(12, 0, WIN),
            m(14, -1000, None),
            m(16, -1000, WIN),
        ];
        assert_eq!(turning(&gap, 1000, 200.0, 0.1).at, Some(1));
        let unseen = [
            m(10, 0, Some(Eval::Score(0))),
            m(12, 0, Some(Eval::Score(100))),
            m(14, 0, None),
        ];
        let t = turning(&unseen, 1000, 200.0, 0.1);
        assert_eq!(
            (t.at, t.seen_lost, t.losses_before),
            (None, false, vec![0, 100])
        );
    }
}
