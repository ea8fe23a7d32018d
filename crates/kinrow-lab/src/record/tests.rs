//! The record format's tests: reading, writing and the earlier forms.

use super::*;
use kinrow_game::{Hand, Opening, Piece, Variant};

/// An arena line as `kinrow arena --out` writes it.
const MATCH: &str = r#"{"game":0,"rules":{"m":7,"n":7,"k":4,"overline":true},"x":"auto","o":"pbrain:/e","opening":[{"row":3,"col":3,"piece":"mark"}],"moves":[{"row":2,"col":2,"piece":"mark"},{"row":3,"col":4,"piece":"mark"}],"result":"draw"}"#;

/// A self-play line in the earlier form, with siblings.
const SELFPLAY: &str = r#"{"game":3,"rules":"15,15,5","variant":"free","opening":3,"moves":"h9 i5 k11 j5 k9","values":[358,33],"outcomes":"uw","result":"o","siblings":[[0,"g5",-388,"u"],[1,"h4",1000,"w"]]}"#;

fn mark(rules: &Rules, row: usize, col: usize) -> Move {
    Move::mark(row * rules.m() + col)
}

#[test]
fn games_are_read_with_labels_and_turns() {
    let games = read_games(&format!("\n{MATCH}\n")).unwrap();
    assert_eq!(games.len(), 1);
    let (line, g) = &games[0];
    assert_eq!(
        (*line, g.x.as_str(), g.o.as_str()),
        (2, "auto", "pbrain:/e")
    );
    assert_eq!(g.opening, vec![Move::mark(3 * 7 + 3)]);
    assert_eq!(g.result, GameResult::Draw);
    let turns = g.turns();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[1].history.len(), 2);
    assert_eq!(turns[1].played, Move::mark(3 * 7 + 4));
    assert_eq!(turns[1].position.ply(), 2);
    // The opening's single mark is x's, so o plays the first move after it.
    assert_eq!(g.label(turns[0].position.to_move()), "pbrain:/e");
    // Without a result, the final position's (here nobody won).
    let bare = MATCH.replace(r#","result":"draw""#, "");
    assert_eq!(read_game(&bare).unwrap().result, GameResult::Draw);
}

#[test]
fn a_game_keeps_its_variant() {
    let renju = MATCH.replace(r#""k":4"#, r#""k":5"#).replace(
        r#""overline":true"#,
        r#""overline":false,"variant":"renju""#,
    );
    let games = read_games(&renju).unwrap();
    assert_eq!(games[0].1.rules.variant(), Variant::Renju);
    assert_eq!(
        read_games(MATCH).unwrap()[0].1.rules.variant(),
        Variant::Free
    );
    let unknown = MATCH.replace(r#""overline":true"#, r#""variant":"gomoku""#);
    let err = read_games(&unknown).unwrap_err();
    assert!(err.contains("line 1") && err.contains("gomoku"), "{err}");
}

#[test]
fn broken_games_are_rejected_with_their_line() {
    let twice = MATCH.replace(r#""row":2,"col":2"#, r#""row":3,"col":3"#);
    assert!(read_games(&twice).unwrap_err().starts_with("line 1:"));
    assert!(read_games("{\"rules\":{}}").is_err());
    assert!(read_games("not json").is_err());
    let off = MATCH.replace(r#""row":2,"col":2"#, r#""row":2,"col":9"#);
    assert!(read_games(&off).is_err());
    let below = MATCH.replace(r#""row":2,"col":2"#, r#""row":7,"col":0"#);
    assert!(read_games(&below).is_err());
    let result = MATCH.replace(r#""draw""#, r#""white""#);
    assert!(read_games(&result).unwrap_err().contains("white"));
    let outcome = SELFPLAY.replace(r#""uw""#, r#""uq""#);
    assert!(read_games(&outcome).is_err());
    let mixed = SELFPLAY.replace(r#""opening":3"#, r#""opening":[]"#);
    assert!(read_games(&mixed).is_err());
    let long = SELFPLAY.replace(r#""opening":3"#, r#""opening":6"#);
    assert!(read_games(&long).is_err());
}

/// A game with every field goes to a line and comes back the same.
#[test]
fn a_game_comes_back_from_its_line() {
    let rules = Rules::new(9, 9, 4, true, [Hand::new(0, 1, 0), Hand::new(1, 0, 0)])
        .unwrap()
        .with_gravity(false)
        .unwrap();
    let mut g = RecordedGame::new(5, rules.clone(), GameResult::Won(Player::O));
    g.x = "auto".into();
    g.o = "mcts:nodes=50".into();
    g.x_engine = Some(1);
    g.opening = vec![mark(&rules, 4, 4)];
    // o holds the block.
    g.moves = vec![
        Move::new(4 * 9 + 5, Piece::Block),
        mark(&rules, 3, 3),
        mark(&rules, 2, 2),
    ];
    g.forfeit = Some("x: no answer".into());
    g.decisions = vec!["A placed 3".into()];
    g.counts = Some([2, 1]);
    g.think_ms = Some([12.5, 3.25]);
    g.values = vec![-12, 40, 1000];
    g.outcomes = vec![Outcome::Unknown, Outcome::Unknown, Outcome::Win];
    g.siblings = vec![Sibling {
        at: 1,
        mv: mark(&rules, 0, 8),
        value: -388,
        outcome: Outcome::Draw,
    }];
    g.last_depth = vec![-10, 38, 1000];
    let line = g.to_line();
    assert_eq!(read_game(&line).unwrap(), g, "{line}");
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        v["rules"]["pieces"],
        serde_json::json!([[0, 1, 0], [1, 0, 0]])
    );
    assert_eq!(
        v["moves"][0],
        serde_json::json!({"row": 4, "col": 5, "piece": "block"})
    );
    assert_eq!(v["outcomes"], "uuw");
    assert_eq!(v["siblings"][0]["outcome"], "d");
    assert_eq!(
        (v["result"].as_str(), v["winner"].as_str()),
        (Some("o"), Some("mcts:nodes=50"))
    );
    // Engine B played x: o's mean time is engine A's.
    assert_eq!(v["mean_ms"], serde_json::json!({"x": 3.25, "o": 6.25}));

    // A bare game writes only what it has, and comes back too.
    let bare = RecordedGame::new(0, Rules::mnk(3, 3, 3).unwrap(), GameResult::Draw);
    let line = bare.to_line();
    for absent in [
        "x_engine", "winner", "forfeit", "mean_ms", "values", "siblings",
    ] {
        assert!(!line.contains(absent), "{line}");
    }
    assert_eq!(read_game(&line).unwrap(), bare);
}

/// A self-play line of the earlier form reads to the same moves, values, outcomes,
/// siblings and result, and writes the new form, which reads back the same.
#[test]
fn earlier_self_play_lines_are_read() {
    let g = read_game(SELFPLAY).unwrap();
    let rules = Rules::mnk(15, 15, 5).unwrap();
    assert_eq!(g.rules, rules);
    assert_eq!(g.game, 3);
    // h9 is column 7, row 8; i5 column 8, row 4; k11 column 10, row 10.
    let (h9, i5, k11) = (mark(&rules, 8, 7), mark(&rules, 4, 8), mark(&rules, 10, 10));
    assert_eq!(g.opening, vec![h9, i5, k11]);
    assert_eq!(g.moves, vec![mark(&rules, 4, 9), mark(&rules, 8, 10)]);
    assert_eq!(g.values, vec![358, 33]);
    assert_eq!(g.outcomes, vec![Outcome::Unknown, Outcome::Win]);
    assert_eq!(g.result, GameResult::Won(Player::O));
    assert_eq!(
        g.siblings,
        vec![
            Sibling {
                at: 0,
                mv: mark(&rules, 4, 6),
                value: -388,
                outcome: Outcome::Unknown
            },
            Sibling {
                at: 1,
                mv: mark(&rules, 3, 7),
                value: 1000,
                outcome: Outcome::Win
            },
        ]
    );
    assert_eq!(read_game(&g.to_line()).unwrap(), g);
    // Exactly k, and the other variants.
    let exact = SELFPLAY.replace(r#""variant":"free""#, r#""variant":"free","exact":true"#);
    assert!(!read_game(&exact).unwrap().rules.overline());
    let renju = SELFPLAY.replace(r#""variant":"free""#, r#""variant":"renju""#);
    assert_eq!(read_game(&renju).unwrap().rules.variant(), Variant::Renju);
    // Cells off the board are refused.
    let off = SELFPLAY.replace("k9", "p9");
    assert!(read_game(&off).unwrap_err().contains("p9"));
}

/// A match line written before the rules carried more than m, n, k and overline,
/// and one with every field of the arena's: both read, the latter with its timing.
#[test]
fn earlier_match_lines_are_read() {
    let old = r#"{"game":1,"rules":{"m":7,"n":7,"k":4,"overline":true},"x":"a","o":"b","opening":[{"row":3,"col":3,"piece":"mark"}],"moves":[{"row":2,"col":2,"piece":"mark"}],"result":"o","winner":"b","forfeit":null,"mean_ms":{"x":1.0,"o":2.0},"counts":[1,0],"think_ms":[2.0,0.0]}"#;
    let g = read_game(old).unwrap();
    let rules = g.rules.clone();
    assert_eq!(rules, Rules::mnk(7, 7, 4).unwrap());
    assert_eq!(
        (g.x_engine, g.counts, g.think_ms),
        (None, Some([1, 0]), Some([2.0, 0.0]))
    );
    assert_eq!(g.moves, vec![mark(&rules, 2, 2)]);
    assert_eq!(g.forfeit, None);
    let full = r#"{"game":0,"rules":{"m":15,"n":15,"k":5,"overline":true,"variant":"free","gravity":false,"opening":"swap2","pieces":[[0,0,0],[0,0,0]]},"x":"A","x_engine":1,"o":"B","opening":[],"moves":[{"row":7,"col":7,"piece":"mark"}],"result":"x","winner":"A","forfeit":"o: no answer","decisions":["B placed 3","A chose x"],"mean_ms":{"x":5.0,"o":0.0},"counts":[0,1],"think_ms":[0.0,5.0]}"#;
    let g = read_game(full).unwrap();
    assert_eq!(g.rules.opening(), Opening::Swap2);
    assert_eq!(g.x_engine, Some(1));
    assert_eq!(g.decisions.len(), 2);
    assert_eq!(g.forfeit.as_deref(), Some("o: no answer"));
    let again: serde_json::Value = serde_json::from_str(&g.to_line()).unwrap();
    assert_eq!(
        again,
        serde_json::from_str::<serde_json::Value>(full).unwrap()
    );
}

#[test]
fn an_external_engines_messages_give_its_depth_nodes_and_value() {
    let lines = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // Rapfi: per-depth lines, then the summary with its node count in thousands.
    let rapfi = lines(&[
        "MESSAGE Depth 8-12 | Eval 31 | Time 20ms | H8 I9",
        "MESSAGE Speed 899K | Depth 11-11 | Eval -149 | Node 150K | Time 170ms",
        "MESSAGE Bestline I8 I7 H7",
    ]);
    assert_eq!(
        MoveSearch::from_messages(&rapfi, 15, 15),
        MoveSearch {
            depth: Some(11),
            nodes: Some(150_000),
            value: Some(-149),
            mate: None,
        }
    );
    // A forced result replaces the score: a loss in 8 plies, an uncounted win.
    let mates = lines(&[
        "MESSAGE Depth 5 | Eval 40",
        "MESSAGE Depth 6 | Eval -M8 | Node 2698",
    ]);
    let s = MoveSearch::from_messages(&mates, 15, 15);
    assert_eq!((s.value, s.mate, s.nodes), (None, Some(-8), Some(2698)));
    let s = MoveSearch::from_messages(&lines(&["MESSAGE Depth 3 | Eval +M*"]), 15, 15);
    assert_eq!((s.depth, s.mate), (Some(3), Some(0)));
    // Wine's form; and an engine that says nothing.
    let s = MoveSearch::from_messages(&lines(&["MESSAGE node:1234 eval:-47"]), 15, 15);
    assert_eq!((s.nodes, s.value, s.depth), (Some(1234), Some(-47), None));
    assert!(MoveSearch::from_messages(&[], 15, 15).is_empty());
    assert_eq!(message_nodes("MESSAGE Nodes: 2M"), Some(2_000_000));
    assert_eq!(message_nodes("MESSAGE Node"), None);
}

#[test]
fn a_match_line_without_search_reads_and_writes_none() {
    let g = read_game(MATCH).unwrap();
    assert!(g.search.is_empty());
    assert!(!g.to_line().contains("search"));
}

#[test]
fn rules_from_text_checks_them() {
    assert_eq!(
        rules_from_text("7,6,4", "free", false).unwrap(),
        Rules::mnk(7, 6, 4).unwrap()
    );
    assert!(rules_from_text("7,6", "free", false).is_err());
    assert!(rules_from_text("7,6,4", "gomoku", false).is_err());
    assert!(rules_from_text("15,15,4", "renju", false).is_err());
}
