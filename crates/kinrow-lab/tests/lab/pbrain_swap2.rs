//! `kinrow pbrain`'s `SWAP2BOARD`: the three decisions of the swap2 opening as the
//! Gomocup managers send and read them, and what the brain refuses.

use kinrow_engine::parse_stones;
use kinrow_engine::EngineKind;
use kinrow_lab::pbrain::Brain;

/// A brain on 15x15 with a node cap per decision, so every answer replays exactly.
fn brain() -> Brain {
    let mut b = Brain::new(EngineKind::Auto, 5, 1);
    b.nodes = Some(20_000);
    for line in ["START 15", "INFO timeout_turn 5000", "INFO rule 0"] {
        let out = b.handle(line);
        assert!(out.is_empty() || out == ["OK"], "{line}: {out:?}");
    }
    b
}

/// Sends `SWAP2BOARD`, `stones` and `DONE`; returns the answer lines.
fn swap2(b: &mut Brain, stones: &[&str]) -> Vec<String> {
    assert!(b.handle("SWAP2BOARD").is_empty());
    for s in stones {
        assert!(b.handle(s).is_empty(), "{s}");
    }
    moves(b.handle("DONE"))
}

/// `lines` without the `MESSAGE` line that comes before a move.
fn moves(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect()
}

fn on_board(c: &kinrow_game::Coord) -> bool {
    c.row < 15 && c.col < 15
}

#[test]
fn on_the_empty_board_the_brain_places_three_stones_near_the_centre() {
    let out = swap2(&mut brain(), &[]);
    assert_eq!(out.len(), 1, "{out:?}");
    let stones = parse_stones(&out[0]).unwrap_or_else(|| panic!("not stones: {out:?}"));
    assert_eq!(stones.len(), 3, "{out:?}");
    assert!(stones.iter().all(on_board), "{out:?}");
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
    // The proposal is replayed by the opponent: it is a valid swap2 position.
    let mut other = brain();
    let text: Vec<String> = stones
        .iter()
        .map(|c| format!("{},{}", c.col, c.row))
        .collect();
    let refs: Vec<&str> = text.iter().map(String::as_str).collect();
    let answer = swap2(&mut other, &refs);
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0] == "SWAP" || parse_stones(&answer[0]).is_some_and(|s| s.len() <= 2),
        "{answer:?}"
    );
}

/// Two x stones side by side at the centre and o's stone in a corner: x is far better,
/// so the second player swaps to x.
#[test]
fn the_second_player_takes_x_when_x_is_far_better() {
    let out = swap2(&mut brain(), &["7,7", "0,0", "8,7"]);
    assert_eq!(out, ["SWAP"]);
}

/// Five stones with x's three scattered on the edges and o's two side by side at the
/// centre, o to move: the first player keeps o and plays o's move at once.
#[test]
fn the_first_player_keeps_o_and_moves_when_o_is_far_better() {
    let mut b = brain();
    let out = swap2(&mut b, &["0,0", "7,7", "14,0", "8,7", "0,14"]);
    assert_eq!(out.len(), 1, "{out:?}");
    let mv = parse_stones(&out[0]).unwrap_or_else(|| panic!("not a move: {out:?}"));
    assert_eq!(mv.len(), 1, "{out:?}");
    let taken = ["0,0", "7,7", "14,0", "8,7", "0,14"];
    assert!(!taken.contains(&out[0].as_str()), "{out:?}");
    // The brain plays o from here: the opponent's x move comes by TURN.
    let next = moves(b.handle("TURN 14,14"));
    assert_eq!(next.len(), 1, "{next:?}");
    assert!(parse_stones(&next[0]).is_some_and(|s| s.len() == 1 && on_board(&s[0])));
}

#[test]
fn wrong_stone_counts_and_repeated_or_off_board_stones_are_errors() {
    let mut b = brain();
    let cases: [&[&str]; 4] = [
        &["7,7"],
        &["7,7", "8,8", "7,7"],
        &["7,7", "8,8", "15,3"],
        &["7,7", "8,8", "9,9", "10,10"],
    ];
    for stones in cases {
        let out = swap2(&mut b, stones);
        assert_eq!(out.len(), 1, "{stones:?}: {out:?}");
        assert!(out[0].starts_with("ERROR"), "{stones:?}: {out:?}");
    }
    assert!(b.handle("SWAP2BOARD").is_empty());
    let out = b.handle("seven,seven");
    assert!(out[0].starts_with("ERROR SWAP2BOARD line"), "{out:?}");
    // The brain is back to commands.
    assert_eq!(b.handle("ABOUT").len(), 1);
    let mut fresh = Brain::new(EngineKind::Auto, 5, 1);
    assert!(fresh.handle("SWAP2BOARD")[0].starts_with("ERROR SWAP2BOARD before START"));
}
