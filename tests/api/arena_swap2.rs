//! `kinrow arena --opening swap|swap2`: the engines take the opening's decisions, kinrow's
//! in process and external ones through `SWAP2BOARD`; what the arena refuses.

use std::time::Duration;

use kinrow_game::{Opening, Position, Rules};
use kinrow_lab::measuring::arena;
use kinrow_lab::measuring::arena::{ArenaConfig, Contestant, GameResult};

fn config(opening: Opening, engines: [&str; 2], games: usize) -> ArenaConfig {
    ArenaConfig {
        engines: engines.map(|e| Contestant::parse(e).unwrap()),
        rules: Rules::mnk(15, 15, 5)
            .unwrap()
            .with_opening(opening)
            .unwrap(),
        games,
        time: Duration::from_secs(10),
        seed: 3,
        threads: 1,
        opening_plies: None,
        fixed_openings: None,
    }
}

/// Every game starts with game i's first player (engine i % 2) placing three stones; the
/// side each engine plays follows from the last decision; the game replays legally.
#[test]
fn the_engines_place_and_choose_and_the_colours_follow_their_choices() {
    for opening in [Opening::Swap, Opening::Swap2] {
        let c = config(opening, ["auto:nodes=3000", "minimax:depth=2"], 4);
        let games = arena::run(&c, &|_| {});
        assert_eq!(games.len(), 4);
        for g in &games {
            let name = |e: usize| ["A", "B"][e];
            let first = g.index % 2;
            assert_eq!(g.decisions[0], format!("{} placed 3", name(first)), "{g:?}");
            let last = g.decisions.last().unwrap();
            let chooser = if last.starts_with('A') { 0 } else { 1 };
            let x = if last.ends_with("chose x") {
                chooser
            } else {
                1 - chooser
            };
            assert_eq!(g.x_engine, x, "{g:?}");
            let stones = if g.decisions.len() == 3 { 5 } else { 3 };
            assert_eq!(g.opening.len(), stones, "{g:?}");
            if opening == Opening::Swap {
                assert_eq!(g.decisions.len(), 2, "{g:?}");
            }
            assert!(g.forfeit.is_none(), "{g:?}");
            let mut p = Position::empty(&c.rules);
            for &mv in g.opening.iter().chain(&g.moves) {
                assert!(p.try_play(mv).is_ok(), "{g:?}");
            }
            assert!(p.is_over());
            match g.result {
                GameResult::Won(w) => assert_eq!(p.winner(), Some(w)),
                GameResult::Draw => assert_eq!(p.winner(), None),
            }
            assert_eq!(
                g.counts.iter().sum::<u32>() as usize,
                g.moves.len() + g.decisions.len()
            );
        }
    }
}

fn kinrow() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("kinrow-swap2-{}-{name}", std::process::id()))
}

/// kinrow's own Gomocup adapter as the external engine: the whole swap2 exchange over the
/// protocol, no forfeit; the file keeps the decisions, and a rerun finds every game.
#[test]
fn a_swap2_match_against_an_external_engine_runs_over_swap2board() {
    let out = temp("games.jsonl");
    std::fs::remove_file(&out).ok();
    let external = format!(
        "pbrain:{}:arg=pbrain:arg=--engine:arg=threat",
        env!("CARGO_BIN_EXE_kinrow")
    );
    let run = |out: &std::path::Path| {
        kinrow()
            .args(["arena", "--engines", &format!("greedy,{external}")])
            .args(["--opening", "swap2", "--games", "2", "--time-ms", "100"])
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    let first = run(&out);
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(text.contains("2 games"), "{text}");
    assert!(!text.contains("forfeits"), "{text}");
    let file = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<serde_json::Value> = file
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for (i, g) in lines.iter().enumerate() {
        assert_eq!(g["rules"]["opening"], "swap2");
        let decisions = g["decisions"].as_array().unwrap();
        assert!(decisions.len() >= 2, "{g}");
        assert_eq!(decisions[0], format!("{} placed 3", ["A", "B"][i]));
        assert!(g["forfeit"].is_null(), "{g}");
    }
    let again = run(&out);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("2 of 2 games already in the file"), "{err}");
    assert_eq!(String::from_utf8_lossy(&again.stdout), text);
    std::fs::remove_file(&out).ok();
}

/// An external engine whose `SWAP2BOARD` answer is not three free cells forfeits.
#[test]
fn a_malformed_swap2_answer_forfeits() {
    let script = temp("bad-engine");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in START*) echo OK;; DONE*) echo 7,7 7,7 8,8;; END*) exit 0;; esac; done\n",
    )
    .unwrap();
    crate::support::make_executable(&script);
    let run = kinrow()
        .args(["arena", "--opening", "swap2", "--games", "2", "--engines"])
        .arg(format!("greedy,pbrain:{}", script.display()))
        .output()
        .unwrap();
    std::fs::remove_file(&script).ok();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    // Game 1: the external engine proposes and forfeits; game 0: greedy proposes, the
    // external engine answers a repeated cell and forfeits.
    assert!(text.contains("greedy: 2 wins"), "{text}");
}

#[test]
fn what_cannot_play_an_opening_phase_is_refused() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--opening", "pro", "--engines", "auto,greedy"],
            "--opening",
        ),
        (
            &["--opening", "swap", "--engines", "auto,pbrain:/bin/true"],
            "swap2 only",
        ),
        (
            &["--opening", "swap2", "--engines", "auto,script"],
            "takes no opening decisions",
        ),
        (
            &[
                "--opening",
                "swap2",
                "--opening-plies",
                "3",
                "--engines",
                "auto,greedy",
            ],
            "do not apply",
        ),
    ];
    for (args, why) in cases {
        let run = kinrow().arg("arena").args(args).output().unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
    }
}
