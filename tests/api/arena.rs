//! `kinrow arena`: engine specs, Elo arithmetic, openings, determinism under threads,
//! and the real binary's output file.

use std::time::Duration;

use kinrow_engine::EngineKind;
use kinrow_game::{Position, Rules, Variant};
use kinrow_lab::measuring::arena;
use kinrow_lab::measuring::arena::{ArenaConfig, Contestant, EngineSpec, GameResult};

fn config(games: usize, threads: usize, seed: u64) -> ArenaConfig {
    ArenaConfig {
        engines: [
            Contestant::parse("mcts:nodes=400").unwrap(),
            Contestant::parse("mcts:nodes=100").unwrap(),
        ],
        rules: Rules::mnk(7, 7, 4).unwrap(),
        games,
        time: Duration::from_secs(10),
        seed,
        threads,
        opening_plies: None,
        fixed_openings: None,
    }
}

#[test]
fn engine_specs_parse_with_parameters_and_reject_nonsense() {
    let s = EngineSpec::parse("mcts:nodes=500:time_ms=20").unwrap();
    assert_eq!(s.kind, EngineKind::Mcts);
    assert_eq!(s.nodes, Some(500));
    assert_eq!(
        s.limits(Duration::from_millis(100)).time,
        Duration::from_millis(20)
    );
    assert!(EngineSpec::parse("nosuch")
        .unwrap_err()
        .contains("unknown engine"));
    assert!(EngineSpec::parse("mcts:nodes=x").is_err());
    assert!(EngineSpec::parse("mcts:colour=red").is_err());
    // Every engine takes a level; only perfect and the one-ply engines overlook branches.
    assert_eq!(EngineSpec::parse("auto:level=3").unwrap().level, Some(3));
    assert!(EngineSpec::parse("auto:level=11").is_err());
    assert!(EngineSpec::parse("auto:level=0").is_err());
    let threaded = EngineSpec::parse("auto:threads=2").unwrap();
    assert_eq!(threaded.threads, Some(2));
    assert_eq!(threaded.limits(Duration::from_millis(50)).threads, 2);
    assert_eq!(
        EngineSpec::parse("auto")
            .unwrap()
            .limits(Duration::ZERO)
            .threads,
        1
    );
    assert!(EngineSpec::parse("auto:threads=0").is_err());
    assert!(EngineSpec::parse("auto:threads=65").is_err());
    assert!(EngineSpec::parse("auto:threads=x").is_err());
    assert!(EngineSpec::parse("minimax:threads=2")
        .unwrap_err()
        .contains("does not read"));
    assert!(EngineSpec::parse("greedy:mistake_probability=0.2").is_ok());
    assert!(EngineSpec::parse("minimax:mistake_probability=0.2")
        .unwrap_err()
        .contains("does not read"));
    // mcts has no depth parameter.
    assert!(EngineSpec::parse("mcts:depth=3")
        .unwrap_err()
        .contains("does not read"));
}

#[test]
fn elo_follows_the_score() {
    assert_eq!(arena::elo_from_score(0.5), 0.0);
    assert!((arena::elo_from_score(0.75) - 190.85).abs() < 0.1);
    assert!(arena::elo_from_score(1.0).is_infinite());
    assert!(arena::elo_from_score(0.25) < 0.0);
}

#[test]
fn openings_are_seeded_legal_and_differ() {
    let rules = Rules::mnk(15, 15, 5).unwrap();
    let quick = |pair| arena::opening_judged(&rules, 4, 11, pair, arena::Judge::Quick);
    let a = quick(0);
    assert_eq!(a, quick(0));
    assert_eq!(a.len(), 4);
    let mut p = Position::empty(&rules);
    for &mv in &a {
        p.try_play(mv).unwrap();
    }
    assert!(!p.is_over());
    let distinct: std::collections::HashSet<_> = (0..8).map(quick).collect();
    assert!(distinct.len() >= 6, "{}", distinct.len());
}

/// Large boards: o moves after the opening, and the arena's openings are even by the
/// short search and confirmed even by the longer one.
#[test]
fn large_board_openings_leave_o_to_move_and_are_judged_even() {
    for (m, n, k) in [(9, 9, 5), (15, 15, 5), (19, 19, 5)] {
        let rules = Rules::mnk(m, n, k).unwrap();
        assert_eq!(arena::default_opening_plies(&rules) % 2, 1, "{m},{n},{k}");
    }
    let rules = Rules::mnk(15, 15, 5).unwrap();
    let (mut even, mut confirmed) = (0, 0);
    for pair in 0..6 {
        let mut p = Position::empty(&rules);
        for mv in arena::opening(&rules, 5, 1, pair) {
            p.try_play(mv).unwrap();
        }
        let value = arena::searched_value(&p).expect("15x15x5 is judged by the search");
        assert!(
            value.is_finite() && value.abs() < 300.0,
            "pair {pair}: {value}"
        );
        if (value - arena::even_value(&p)).abs() <= arena::EVEN_BAND {
            even += 1;
        }
        let deep = arena::confirmed_value(&p).expect("judged by the longer search too");
        if (deep - arena::even_value(&p)).abs() <= arena::EVEN_BAND {
            confirmed += 1;
        }
    }
    assert!(even >= 3, "{even} of 6 openings within the band");
    assert!(
        confirmed >= 4,
        "{confirmed} of 6 openings confirmed within the band"
    );
}

#[test]
fn colours_alternate_and_results_do_not_depend_on_threads() {
    let one = arena::run(&config(4, 1, 5), &|_| {});
    let two = arena::run(&config(4, 2, 5), &|_| {});
    assert_eq!(one.len(), 4);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.index, b.index);
        assert_eq!(a.opening, b.opening);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.result, b.result);
        assert_eq!(a.x_engine, a.index % 2);
    }
    // Pairs share their opening.
    assert_eq!(one[0].opening, one[1].opening);
    let s = arena::summarize(&one);
    assert_eq!(s.wins + s.draws + s.losses, 4);
    assert!((0.0..=1.0).contains(&s.score));
    assert!(s.elo_low <= s.elo && s.elo <= s.elo_high);
    // Every game is a finished, legal game.
    for g in &one {
        replays_legally(&Rules::mnk(7, 7, 4).unwrap(), g);
    }
}

/// Replays `g` under `rules`: every move legal (under renju never on a forbidden cell),
/// the game over, and its result the position's.
fn replays_legally(rules: &Rules, g: &arena::GameRecord) {
    let mut p = Position::empty(rules);
    for &mv in g.opening.iter().chain(&g.moves) {
        assert!(p.forbidden(mv.cell()).is_none(), "{mv:?}");
        p.try_play(mv).unwrap();
    }
    assert!(p.is_over());
    match g.result {
        GameResult::Won(w) => assert_eq!(p.winner(), Some(w)),
        GameResult::Draw => assert_eq!(p.winner(), None),
    }
}

#[test]
fn the_binary_prints_a_summary_and_writes_the_games() {
    let out = std::env::temp_dir().join(format!("kinrow-arena-{}.jsonl", std::process::id()));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args([
            "arena",
            "--engines",
            "mcts:nodes=200,mcts:nodes=50",
            "--rules",
            "5,5,4",
        ])
        .args([
            "--games",
            "4",
            "--seed",
            "3",
            "--threads",
            "2",
            "--pieces",
            "0,1,0",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("4 games"), "{text}");
    assert!(text.contains("Elo difference"), "{text}");
    assert!(text.contains("mean time per move"), "{text}");
    let lines = std::fs::read_to_string(&out).unwrap();
    let games: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    assert_eq!(games[1]["x"], "mcts:nodes=50");
    assert!(!games[0]["moves"].as_array().unwrap().is_empty());
    std::fs::remove_file(&out).ok();
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["arena", "--engines", "mcts"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// `kinrow arena` with `args` after the fixed match below; its exit code and stderr.
fn arena_run(engines: &str, out: &std::path::Path) -> (Option<i32>, String) {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["arena", "--engines", engines, "--rules", "5,5,4"])
        .args([
            "--games",
            "4",
            "--seed",
            "3",
            "--threads",
            "2",
            "--pieces",
            "0,1,0",
        ])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stderr).into(),
    )
}

/// Each recorded game's number, moves and result.
fn games_of(path: &std::path::Path) -> Vec<(u64, String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let g: serde_json::Value = serde_json::from_str(l).unwrap();
            let n = g["game"].as_u64().unwrap();
            (n, g["moves"].to_string(), g["result"].to_string())
        })
        .collect()
}

#[test]
fn a_stopped_match_goes_on_from_its_file() {
    let dir = std::env::temp_dir();
    let whole = dir.join(format!("kinrow-arena-whole-{}.jsonl", std::process::id()));
    let cut = dir.join(format!("kinrow-arena-cut-{}.jsonl", std::process::id()));
    let engines = "mcts:nodes=200,mcts:nodes=50";
    let (code, err) = arena_run(engines, &whole);
    assert_eq!(code, Some(0), "{err}");
    // Progress lines: done, rate, time left and the running score.
    assert!(err.contains("arena: 4/4 games (100.0%)"), "{err}");
    assert!(
        err.contains("left;") && err.contains("mcts:nodes=200 "),
        "{err}"
    );
    // A run stopped after two games and in the middle of writing the third.
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let third = &lines[2][..lines[2].len() / 2];
    std::fs::write(&cut, format!("{}\n{}\n{third}", lines[0], lines[1])).unwrap();
    let (code, err) = arena_run(engines, &cut);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("2 of 4 games already in the file"), "{err}");
    assert_eq!(games_of(&cut), games_of(&whole));
    // Another match's file is refused, and left as it was.
    let before = std::fs::read_to_string(&cut).unwrap();
    let (code, err) = arena_run("mcts:nodes=100,mcts:nodes=50", &cut);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("another match"), "{err}");
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), before);
    std::fs::remove_file(&whole).ok();
    std::fs::remove_file(&cut).ok();
}

/// An opening file of two openings, as `--openings` reads it.
fn opening_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("kinrow-{name}-{}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn opening_files_are_read_as_gomocup_coordinates_and_checked() {
    let rules = Rules::mnk(15, 15, 5).unwrap();
    let read = arena::read_openings("# comment\n7,7 8,6 6,8\n\n0,0\n", &rules).unwrap();
    assert_eq!(read.len(), 2);
    // x,y is column, row: 8,6 is row 6, column 8.
    assert_eq!(read[0][1].cell(), 6 * 15 + 8);
    for bad in ["7,7 7,7", "15,0", "7;7", ""] {
        assert!(arena::read_openings(bad, &rules).is_err(), "{bad:?}");
    }
    let spec = Contestant::parse("pbrain:/bin/engine:time_ms=50:arg=--fast").unwrap();
    match &spec {
        Contestant::Pbrain(p) => {
            assert_eq!(p.program, std::path::PathBuf::from("/bin/engine"));
            assert_eq!(p.args, ["--fast"]);
            assert_eq!(p.time_ms, Some(50));
        }
        other => panic!("{other:?}"),
    }
    assert!(Contestant::parse("pbrain:").is_err());
    assert!(Contestant::parse("pbrain:/bin/engine:depth=3").is_err());
}

/// kinrow's own Gomocup adapter as the external engine: every opening is played twice
/// with colours swapped, the pairs are counted, and nobody forfeits.
#[test]
fn the_arena_plays_an_external_gomocup_engine_from_an_opening_file() {
    let openings = opening_file("openings", "7,7 8,8 6,8\n7,7 7,8 8,6\n");
    let external = format!(
        "pbrain:{}:arg=pbrain:arg=--engine:arg=threat",
        env!("CARGO_BIN_EXE_kinrow")
    );
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["arena", "--engines", &format!("greedy,{external}")])
        .args(["--time-ms", "50", "--threads", "2", "--openings"])
        .arg(&openings)
        .output()
        .unwrap();
    std::fs::remove_file(&openings).ok();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(text.contains("4 games"), "{text}");
    assert!(text.contains("pairs: won both"), "{text}");
    assert!(text.contains("as x"), "{text}");
    assert!(!text.contains("forfeits"), "{text}");
}

/// An external engine that answers a move off the board forfeits the game.
#[test]
fn an_external_engine_that_plays_off_the_board_forfeits() {
    let script = opening_file(
        "bad-engine",
        "#!/bin/sh\nwhile read line; do case \"$line\" in START*) echo OK;; DONE*) echo 99,99;; END*) exit 0;; esac; done\n",
    );
    crate::support::make_executable(&script);
    let openings = opening_file("one-opening", "7,7 8,8 6,8\n");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["arena", "--engines"])
        .arg(format!("threat,pbrain:{}", script.display()))
        .arg("--openings")
        .arg(&openings)
        .output()
        .unwrap();
    std::fs::remove_file(&script).ok();
    std::fs::remove_file(&openings).ok();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    assert!(text.contains("threat: 2 wins"), "{text}");
    assert!(text.contains("forfeits: threat 0,"), "{text}");
}

/// What `kinrow openings` reads from a judge's `MESSAGE` lines.
#[test]
fn evaluations_are_read_from_engine_messages() {
    use kinrow_engine::Eval;
    let cases = [
        (
            "MESSAGE Speed 205K | Depth 15-26 | Eval -118 | Node 32K | Time 159ms",
            Some(Eval::Score(-118)),
        ),
        ("MESSAGE node:74075 eval:-47", Some(Eval::Score(-47))),
        (
            "MESSAGE Depth 9-20 | Eval +M15 | Time 3ms",
            Some(Eval::Mate { win: true }),
        ),
        (
            "MESSAGE Depth 9-20 | Eval -M*",
            Some(Eval::Mate { win: false }),
        ),
        ("MESSAGE depth: 6-13 best:[5,9] val=-47", None),
        ("MESSAGE Eval soon", None),
    ];
    for (line, want) in cases {
        assert_eq!(Eval::in_message(line), want, "{line}");
    }
}

/// Renju and caro games between engines end without a forfeit, every move legal under
/// the variant (x never on a forbidden cell), the result the position's.
#[test]
fn renju_and_caro_games_are_played_to_the_end() {
    let pairs = [
        (Variant::Renju, "auto:nodes=300", "mcts:nodes=150"),
        (Variant::Renju, "minimax:nodes=300", "threat"),
        (Variant::Caro, "greedy", "priority"),
        (Variant::Caro, "perfect:nodes=300", "auto:nodes=300"),
    ];
    for (variant, a, b) in pairs {
        let rules = Rules::mnk(9, 9, 5).unwrap().with_variant(variant).unwrap();
        let config = ArenaConfig {
            engines: [Contestant::parse(a).unwrap(), Contestant::parse(b).unwrap()],
            rules: rules.clone(),
            opening_plies: Some(2),
            ..config(2, 1, 11)
        };
        for g in arena::run(&config, &|_| {}) {
            assert_eq!(g.forfeit, None, "{variant:?} {a} v {b}");
            replays_legally(&rules, &g);
        }
    }
}

#[test]
fn the_binary_takes_a_variant() {
    let out = std::env::temp_dir().join(format!("kinrow-arena-renju-{}.jsonl", std::process::id()));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["arena", "--engines", "greedy,threat", "--rules", "9,9,5"])
        .args(["--variant", "Renju", "--games", "2", "--opening-plies", "1"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines = std::fs::read_to_string(&out).unwrap();
    for line in lines.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["rules"]["variant"], "renju");
        assert!(game["forfeit"].is_null(), "{game}");
    }
    std::fs::remove_file(&out).ok();
    for (bad, rules) in [("gomoku", "9,9,5"), ("renju", "9,9,4")] {
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
            .args(["arena", "--engines", "greedy,threat", "--variant", bad])
            .args(["--rules", rules])
            .output()
            .unwrap();
        assert!(!run.status.success());
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains("variant") || err.contains("renju"), "{err}");
    }
}

/// `kinrow arena --sprt` with `extra` flags on a match whose result is plain (`auto`
/// against the one-ply `greedy` on 9x9, five in a row); its exit code, stdout, stderr.
fn sprt_run(extra: &[&str]) -> (Option<i32>, String, String) {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
        .args(["arena", "--engines", "auto,greedy", "--rules", "9,9,5"])
        .args(["--sprt", "0,100", "--nodes", "2000", "--concurrency", "2"])
        .args(["--games", "60", "--seed", "5"])
        .args(extra)
        .output()
        .unwrap();
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stdout).into(),
        String::from_utf8_lossy(&run.stderr).into(),
    )
}

#[test]
fn an_sprt_match_stops_when_the_test_decides_and_resumes_decided() {
    let dir = std::env::temp_dir();
    let out = dir.join(format!("kinrow-sprt-{}.jsonl", std::process::id()));
    let summary = dir.join(format!("kinrow-sprt-{}.json", std::process::id()));
    let (code, stdout, stderr) = sprt_run(&[
        "--out",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("H1 accepted: A passes"), "{stdout}");
    // The progress line shows the Elo and the LLR against its bounds.
    assert!(
        stderr.contains("LLR") && stderr.contains("(-2.94, 2.94)"),
        "{stderr}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(s["sprt"]["decision"], "H1");
    assert!(s["sprt"]["llr"].as_f64().unwrap() >= 2.94);
    let pairs: u64 = s["sprt"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    let played = s["games"].as_u64().unwrap();
    // It stopped early: the pairs under way finished, nothing more started.
    assert!(played < 60 && played >= 2 * pairs && pairs >= 3, "{s}");
    let lines = std::fs::read_to_string(&out).unwrap().lines().count() as u64;
    assert_eq!(lines, played);
    // Run again on the same file: the recorded games decide, nothing more is played.
    let (code, stdout, stderr) = sprt_run(&["--out", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let again = std::fs::read_to_string(&out).unwrap().lines().count() as u64;
    assert_eq!(again, lines);
    std::fs::remove_file(&out).ok();
    std::fs::remove_file(&summary).ok();
    // Nonsense bounds are refused.
    let (code, _, stderr) = sprt_run(&["--sprt", "5,0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--sprt"), "{stderr}");
}
