//! `kinrow label`: positions valued by a stronger teacher, written as game records
//! ([`RecordedGame`], with `values`, `outcomes` and `siblings`) that `kinrow tune` and
//! `kinrow fit` learn from.
//!
//! Two sources, one output:
//! - **A teacher over the Gomocup protocol** (`--teacher pbrain:PATH --games FILE..`):
//!   every position after the opening of each game, and the position after each of its
//!   siblings, is sent to the teacher as a `BOARD` under a node limit (`INFO max_node`,
//!   which Rapfi and Yixin-style brains take; `--time-ms` bounds the others). The
//!   teacher's last `MESSAGE` evaluation becomes the value, in thousandths of the API's
//!   scale: `2·σ(eval / scale) − 1`, with Rapfi's own mapping (`--scale 200`) by default;
//!   a forced result (`+M`/`-M`) becomes ±1000 and a proven outcome. Games are shared
//!   among `--threads` teacher processes, `--shard i/n` takes every n-th game, and a
//!   stopped run goes on from the games its `--out` already holds.
//! - **The teacher's own self-play** (`--rapfi-selfplay FILE..`): Rapfi's `selfplay`
//!   command writes one line a position (`--output-type txt`: board size, rule, the
//!   moves so far, the result for the side to move, then the move played with its eval
//!   and each further multi-PV move with its own); consecutive lines of one game extend
//!   each other. Each game becomes a record: the moves before its first line are the
//!   opening, the played moves the game, the multi-PV moves its siblings (the position
//!   after one is worth minus the eval to the side to move there). It is the same data
//!   at a fraction of the protocol's cost (no process round trip per position).

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::output::Progress;
use crate::record::{open_text, read_games, read_text, GameResult, RecordedGame, Sibling};
use kinrow_engine::Outcome;
use kinrow_engine::{gomocup, Eval, ExternalEngine, ExternalSpec};
use kinrow_game::{Move, Player, Position, Rules, Variant};

/// `kinrow label`'s flags.
#[derive(clap::Args, Debug)]
pub struct LabelArgs {
    /// The teacher, an engine that speaks the Gomocup protocol (`pbrain:PATH[:arg=..]`).
    #[arg(long, requires = "games", conflicts_with = "rapfi_selfplay")]
    pub teacher: Option<String>,
    /// Game records whose positions the teacher values (any game record: self-play with
    /// siblings, arena matches).
    #[arg(long, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Files Rapfi's `selfplay --output-type txt` wrote, to convert instead.
    #[arg(long, num_args = 1..)]
    pub rapfi_selfplay: Vec<PathBuf>,
    /// Where the labelled games go (appended to; a run goes on from what is there). A
    /// name ending in `.gz` is written compressed (conversion only).
    #[arg(long)]
    pub out: PathBuf,
    /// The teacher's node limit per position (`INFO max_node`).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// The teacher's time limit per position (`INFO timeout_turn`), a bound for brains
    /// that ignore the node limit; generous, because a labelling run shares the machine
    /// at a low priority and a starved teacher must not count as a broken one.
    #[arg(long, default_value_t = 30_000)]
    pub time_ms: u64,
    /// The teacher's units per logit: its eval `v` means a win probability
    /// `1 / (1 + exp(-v / scale))` (Rapfi: 200).
    #[arg(long, default_value_t = 200.0)]
    pub scale: f64,
    /// Teacher processes at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// `i/n`: label only the games whose index is `i` modulo `n` (shards of one run on
    /// several machines; their outputs concatenate).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// The label the games carry as both players' (default: the teacher's).
    #[arg(long)]
    pub label: Option<String>,
}

/// `kinrow label`: returns the exit code.
pub fn main(args: LabelArgs) -> i32 {
    let started = Instant::now();
    let result = if !args.rapfi_selfplay.is_empty() {
        convert(&args)
    } else if let Some(teacher) = &args.teacher {
        ExternalSpec::from_pbrain(teacher).and_then(|spec| by_protocol(&args, &spec))
    } else {
        Err("give --teacher pbrain:PATH with --games, or --rapfi-selfplay FILES".into())
    };
    match result {
        Ok(mut summary) => {
            summary["seconds"] = started.elapsed().as_secs_f64().into();
            crate::output::print_line(&summary.to_string());
            0
        }
        Err(e) => {
            eprintln!("kinrow label: {e}");
            1
        }
    }
}

/// A teacher's eval as a value in thousandths and what it proves, for the side to move.
pub fn teacher_value(eval: Eval, scale: f64) -> (i16, Outcome) {
    match eval {
        Eval::Mate { win: true } => (1000, Outcome::Win),
        Eval::Mate { win: false } => (-1000, Outcome::Loss),
        Eval::Score(v) => {
            let p = 1.0 / (1.0 + (-(v as f64) / scale).exp());
            (((2.0 * p - 1.0) * 1000.0).round() as i16, Outcome::Unknown)
        }
    }
}

/// Rapfi prints a forced result as a score this far from 0 or farther.
const RAPFI_MATE: i64 = 20_000;

/// One line of Rapfi's text data: the position's moves, the result for the side to
/// move, the move played with its eval, the other multi-PV moves with theirs.
#[derive(Debug, PartialEq)]
struct RapfiEntry {
    rules: Rules,
    position: Vec<Move>,
    result: GameResult,
    played: (Move, Option<Eval>),
    others: Vec<(Move, Option<Eval>)>,
}

/// Rapfi's move text `H8`: the column's letter (`A` the left one) and the row from 1.
fn rapfi_cells(text: &str, size: usize) -> Result<Vec<Move>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let col = bytes[i].to_ascii_uppercase();
        if !col.is_ascii_uppercase() {
            return Err(format!("{text:?}: {:?} is not a column", col as char));
        }
        let start = i + 1;
        i = start;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let row: usize = text[start..i]
            .parse()
            .map_err(|_| format!("{text:?}: a move without a row"))?;
        let (col, row) = ((col - b'A') as usize, row.wrapping_sub(1));
        if col >= size || row >= size {
            return Err(format!("{text:?}: a move off the {size}x{size} board"));
        }
        out.push(Move::mark(row * size + col));
    }
    Ok(out)
}

/// `H8(-118)`: a move and its eval; `H8` alone, a multi-PV move Rapfi left without a
/// value, has none.
fn rapfi_move(text: &str, size: usize) -> Result<(Move, Option<Eval>), String> {
    let (mv, eval) = match text.trim_end_matches(')').split_once('(') {
        Some((mv, eval)) => (mv, Some(eval)),
        None => (text, None),
    };
    let eval = match eval {
        None => None,
        Some(eval) => Some(match eval.parse::<i64>() {
            Ok(v) if v >= RAPFI_MATE => Eval::Mate { win: true },
            Ok(v) if v <= -RAPFI_MATE => Eval::Mate { win: false },
            Ok(v) => Eval::Score(v),
            Err(_) => return Err(format!("{text:?}: bad eval")),
        }),
    };
    match rapfi_cells(mv, size)?[..] {
        [one] => Ok((one, eval)),
        _ => Err(format!("{text:?} is not one move")),
    }
}

fn rapfi_entry(line: &str) -> Result<RapfiEntry, String> {
    let fields: Vec<&str> = line.trim().split(',').collect();
    let [size, rule, moves, result, pv] = fields[..] else {
        return Err("not SIZE,RULE,MOVES,RESULT,MOVE(EVAL)|..".into());
    };
    let size: usize = size.parse().map_err(|_| format!("size {size:?}"))?;
    let Some((variant, exact)) = Variant::from_gomocup_name(rule) else {
        return Err(format!("unknown rule {rule:?}"));
    };
    let rules = Rules::new(size as u64, size as u64, 5, !exact, Default::default())
        .and_then(|r| r.with_variant(variant))
        .map_err(|e| e.to_string())?;
    let position = rapfi_cells(moves, size)?;
    let to_move = if position.len() % 2 == 0 {
        Player::X
    } else {
        Player::O
    };
    let result = match result {
        "2" => GameResult::Won(to_move),
        "0" => GameResult::Won(to_move.opponent()),
        "1" => GameResult::Draw,
        _ => return Err(format!("result {result:?}")),
    };
    let mut pvs = pv.split('|').map(|m| rapfi_move(m, size));
    let played = pvs.next().ok_or("no move")??;
    let others = pvs.collect::<Result<_, _>>()?;
    Ok(RapfiEntry {
        rules,
        position,
        result,
        played,
        others,
    })
}

/// Builds the games of Rapfi's lines, in order, numbering them from `next_index`.
struct Converter {
    scale: f64,
    label: String,
    game: Option<(RecordedGame, Position)>,
    next_index: usize,
    /// Records cut short by a played move without a value.
    cut: usize,
}

impl Converter {
    /// Takes one line; returns the game it ended, if the line starts another.
    fn take(&mut self, e: RapfiEntry) -> Result<Option<RecordedGame>, String> {
        let continues = self.game.as_ref().is_some_and(|(g, _)| {
            g.rules == e.rules
                && g.opening.len() + g.moves.len() == e.position.len()
                && g.opening.iter().chain(&g.moves).eq(e.position.iter())
        });
        let ended = if continues {
            None
        } else {
            let ended = self.game.take().map(|(g, _)| g);
            let mut p = Position::empty(&e.rules);
            for &mv in &e.position {
                p.try_play(mv).map_err(|err| format!("opening: {err}"))?;
            }
            let mut g = RecordedGame::new(self.next_index, e.rules.clone(), e.result);
            self.next_index += 1;
            g.x = self.label.clone();
            g.o = self.label.clone();
            g.opening = e.position.clone();
            self.game = Some((g, p));
            ended
        };
        let (g, p) = self.game.as_mut().expect("a game is open");
        let at = g.moves.len();
        for &(mv, eval) in &e.others {
            if mv == e.played.0 || !p.is_legal(mv) {
                return Err(format!("multi-PV move {mv:?} at move {at}"));
            }
            let Some(eval) = eval else { continue };
            let (value, outcome) = teacher_value(eval, self.scale);
            g.siblings.push(Sibling {
                at,
                mv,
                value: -value,
                outcome: match outcome {
                    Outcome::Win => Outcome::Loss,
                    Outcome::Loss => Outcome::Win,
                    o => o,
                },
            });
        }
        let Some(played) = e.played.1 else {
            // A played move without a value ends the record there (a game just begun
            // has no moves and is no record); the lines after it start one of their own.
            let cut = self
                .game
                .take()
                .map(|(g, _)| g)
                .filter(|g| !g.moves.is_empty());
            self.cut += 1;
            return Ok(ended.or(cut));
        };
        let (value, outcome) = teacher_value(played, self.scale);
        p.try_play(e.played.0)
            .map_err(|err| format!("move {at}: {err}"))?;
        g.moves.push(e.played.0);
        g.values.push(value);
        g.outcomes.push(outcome);
        Ok(ended)
    }
}

fn convert(args: &LabelArgs) -> Result<serde_json::Value, String> {
    let file =
        std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut out: Box<dyn Write> = if args.out.extension().is_some_and(|x| x == "gz") {
        Box::new(flate2::write::GzEncoder::new(
            file,
            flate2::Compression::default(),
        ))
    } else {
        Box::new(std::io::BufWriter::new(file))
    };
    let mut conv = Converter {
        scale: args.scale,
        label: args
            .label
            .clone()
            .unwrap_or_else(|| "rapfi selfplay".into()),
        game: None,
        next_index: 0,
        cut: 0,
    };
    let (mut games, mut positions, mut siblings, mut proven) = (0usize, 0usize, 0usize, 0usize);
    let mut write = |g: RecordedGame, out: &mut Box<dyn Write>| -> Result<(), String> {
        games += 1;
        positions += g.moves.len();
        siblings += g.siblings.len();
        proven += g
            .outcomes
            .iter()
            .filter(|&&o| o != Outcome::Unknown)
            .count();
        writeln!(out, "{}", g.to_line()).map_err(|e| e.to_string())
    };
    let progress = Progress::new("label", "files", 0, args.rapfi_selfplay.len());
    for path in &args.rapfi_selfplay {
        for (i, line) in open_text(path)?.lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: String| format!("{} line {}: {e}", path.display(), i + 1);
            if let Some(g) = conv.take(rapfi_entry(&line).map_err(at)?).map_err(at)? {
                write(g, &mut out)?;
            }
        }
        // A file ends its last game: the next file's games are others.
        if let Some((g, _)) = conv.game.take() {
            write(g, &mut out)?;
        }
        progress.advance(&path.display().to_string());
    }
    out.flush().map_err(|e| e.to_string())?;
    drop(out);
    Ok(serde_json::json!({
        "source": "rapfi selfplay",
        "out": args.out.display().to_string(),
        "games": games,
        "positions": positions,
        "siblings": siblings,
        "proven": proven,
        "cut": conv.cut,
        "scale": args.scale,
    }))
}

/// `i/n` as `(i, n)`.
fn shard(text: Option<&str>) -> Result<(usize, usize), String> {
    let Some(text) = text else { return Ok((0, 1)) };
    let bad = || format!("--shard {text:?} is not I/N with I < N");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The game with every value replaced by the teacher's: the positions on its path and
/// after each sibling. Proven outcomes come from the teacher alone. `None` where the
/// teacher left a position without a value.
fn relabel(
    teacher: &mut ExternalEngine,
    g: &RecordedGame,
    args: &LabelArgs,
) -> Result<Option<RecordedGame>, String> {
    let turn = Duration::from_millis(args.time_ms);
    let mut out = g.clone();
    out.values.clear();
    out.outcomes.clear();
    out.last_depth.clear();
    out.siblings.clear();
    // A brain may answer a move that wins at once without a word of evaluation; any
    // other silent answer leaves the position unvalued, and the game is skipped.
    let ask = |teacher: &mut ExternalEngine, p: &Position, history: &[Move]| {
        let (mv, eval) = teacher.think(p, history, turn)?;
        match eval {
            Some(eval) => Ok(Some(teacher_value(eval, args.scale))),
            None if p.is_legal(mv) && p.wins_at(mv.cell(), p.to_move()) => {
                Ok(Some((1000, Outcome::Win)))
            }
            None => Ok::<_, String>(None),
        }
    };
    for (j, t) in g.turns().into_iter().enumerate() {
        let Some((value, outcome)) = ask(teacher, &t.position, &t.history)? else {
            return Ok(None);
        };
        out.values.push(value);
        out.outcomes.push(outcome);
        for sib in g.siblings.iter().filter(|s| s.at == j) {
            let mut p = t.position.clone();
            let mut history = t.history.clone();
            p.try_play(sib.mv).map_err(|e| format!("sibling: {e}"))?;
            history.push(sib.mv);
            if p.is_over() {
                continue;
            }
            let Some((value, outcome)) = ask(teacher, &p, &history)? else {
                return Ok(None);
            };
            out.siblings.push(Sibling {
                value,
                outcome,
                ..*sib
            });
        }
    }
    if let Some(label) = &args.label {
        out.x = label.clone();
        out.o = label.clone();
    }
    Ok(Some(out))
}

/// `g` relabelled by the `teacher` (started for its rules, or again when its rules
/// differ); a teacher that garbles an exchange is restarted and the game tried again, up
/// to three times, after which the game is left out (`None`) and the run goes on.
fn relabel_retried(
    teacher: &mut Option<(Rules, ExternalEngine)>,
    spec: &ExternalSpec,
    g: &RecordedGame,
    args: &LabelArgs,
    at: &str,
) -> Result<Option<RecordedGame>, String> {
    // A teacher that garbles an exchange (a brain may drop a command that
    // arrives while it still prints, more so on a loaded machine) is
    // started afresh and the game tried once more.
    let mut tries = 0;
    loop {
        tries += 1;
        let attempt = (|| {
            if teacher.as_ref().is_none_or(|(r, _)| r != &g.rules) {
                let turn = Duration::from_millis(args.time_ms);
                let mut t = ExternalEngine::start(spec, &g.rules, turn)?;
                t.info(gomocup::Info::MaxNode(args.nodes))?;
                *teacher = Some((g.rules.clone(), t));
            }
            let (_, t) = teacher.as_mut().expect("started");
            relabel(t, g, args)
        })();
        match attempt {
            Err(e) if tries < 3 => {
                eprintln!("label: {at}: {e}; restarting the teacher");
                *teacher = None;
            }
            Err(e) => {
                // Garbled three times: the game is left out, the run goes on.
                eprintln!("label: {at}: {e}; game left out");
                *teacher = None;
                return Ok(None);
            }
            done => return done,
        }
    }
}

fn by_protocol(args: &LabelArgs, spec: &ExternalSpec) -> Result<serde_json::Value, String> {
    let (i, n) = shard(args.shard.as_deref())?;
    let mut games = Vec::new();
    for path in &args.games {
        let text = read_text(path)?;
        for (line, g) in read_games(&text).map_err(|e| format!("{}: {e}", path.display()))? {
            if g.game % n == i {
                games.push((format!("{} line {line}", path.display()), g));
            }
        }
    }
    let done: HashSet<usize> = super::selfplay::games_done(&args.out)?;
    let todo: Vec<_> = games
        .iter()
        .filter(|(_, g)| !done.contains(&g.game))
        .collect();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    let file = Mutex::new(file);
    let progress = Progress::new("label", "games", games.len() - todo.len(), games.len());
    let next = AtomicUsize::new(0);
    let positions = AtomicUsize::new(0);
    let skipped = AtomicUsize::new(0);
    let failed = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.threads.max(1) {
            s.spawn(|| {
                let mut teacher: Option<(Rules, ExternalEngine)> = None;
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((at, g)) = todo.get(k) else { break };
                    let fail = |e: String| {
                        *failed.lock().expect("no panic holding it") = Some(format!("{at}: {e}"));
                        next.store(todo.len(), Ordering::Relaxed);
                    };
                    let labelled = relabel_retried(&mut teacher, spec, g, args, at);
                    match labelled {
                        Ok(None) => {
                            skipped.fetch_add(1, Ordering::Relaxed);
                            progress.advance("skipped: a position without the teacher's value");
                        }
                        Ok(Some(labelled)) => {
                            let line = labelled.to_line() + "\n";
                            if let Err(e) = file
                                .lock()
                                .expect("no panic holding it")
                                .write_all(line.as_bytes())
                            {
                                return fail(e.to_string());
                            }
                            let count = labelled.values.len() + labelled.siblings.len();
                            let total = positions.fetch_add(count, Ordering::Relaxed) + count;
                            let rate = total as f64 / start.elapsed().as_secs_f64().max(1e-9);
                            progress.advance(&format!("{total} positions, {rate:.0}/s"));
                        }
                        Err(e) => return fail(e),
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("threads finished") {
        return Err(e);
    }
    Ok(serde_json::json!({
        "source": spec.label,
        "out": args.out.display().to_string(),
        "games": games.len(),
        "labelled_now": todo.len(),
        "positions_now": positions.into_inner(),
        "skipped_now": skipped.into_inner(),
        "nodes": args.nodes,
        "scale": args.scale,
        "shard": [i, n],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rapfi_lines_become_one_game_with_siblings() {
        let lines = [
            "15,Freestyle,H8I9,0,J10(-118)|G7(-300)",
            "15,Freestyle,H8I9J10,2,G7(+150)",
            "15,Freestyle,H8I9J10G7,0,K11(-29990)",
            "15,Freestyle,H8,1,I8(0)",
        ];
        let mut conv = Converter {
            scale: 200.0,
            label: "t".into(),
            game: None,
            next_index: 0,
            cut: 0,
        };
        let mut games = Vec::new();
        for l in lines {
            let e = rapfi_entry(&l.replace("(+", "(")).unwrap();
            games.extend(conv.take(e).unwrap());
        }
        games.extend(conv.game.take().map(|(g, _)| g));
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.opening.len(), 2);
        assert_eq!(g.moves.len(), 3);
        // x to move at H8I9 lost: o won the game.
        assert_eq!(g.result, GameResult::Won(Player::O));
        // J10 is column 9, row 9 (from 0); G7 column 6, row 6.
        assert_eq!(g.moves[0], Move::mark(9 * 15 + 9));
        assert_eq!(g.siblings.len(), 1);
        assert_eq!(g.siblings[0].mv, Move::mark(6 * 15 + 6));
        // -300 for the mover is +300 for the side to move after the sibling.
        let expect = ((2.0 / (1.0 + (-1.5f64).exp()) - 1.0) * 1000.0).round() as i16;
        assert_eq!(g.siblings[0].value, expect);
        assert!(g.values[0] < 0 && g.values[1] > 0);
        assert_eq!(g.outcomes[2], Outcome::Loss);
        assert_eq!(g.values[2], -1000);
        assert_eq!(games[1].game, 1);
        assert_eq!(games[1].result, GameResult::Draw);
    }

    #[test]
    fn bad_lines_are_named() {
        assert!(rapfi_entry("15,Freestyle,H8,3,I8(0)").is_err());
        assert!(rapfi_entry("15,Freestyle,Z8,1,I8(0)").is_err());
        assert!(rapfi_entry("15,Gomoku,H8,1,I8(0)").is_err());
        assert!(rapfi_entry("15,Freestyle,H8,1,I8(x)").is_err());
        let silent = rapfi_entry("15,Freestyle,H8,1,I8(3)|J9").unwrap();
        assert_eq!(silent.others, vec![(Move::mark(8 * 15 + 9), None)]);
        assert_eq!(
            shard(Some("3/2")).unwrap_err(),
            "--shard \"3/2\" is not I/N with I < N"
        );
        assert_eq!(shard(Some("1/4")).unwrap(), (1, 4));
    }
}
