//! Reading back the games that `kinrow arena --out` writes: one JSON object a line with
//! the rules, the two contestants' labels, the opening and the moves played after it
//! (each `{"row", "col", "piece"}`). Replays and the quiet-move judgement start here.

use kinrow_game::{Hand, Move, Opening, Piece, Player, Position, Rules, Variant};

/// One recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    /// Its line in the file, from 1.
    pub line: usize,
    /// The game played.
    pub rules: Rules,
    /// The labels of the contestants that played x and o.
    pub x: String,
    /// See `x`.
    pub o: String,
    /// The opening's moves, played before the contestants took over.
    pub opening: Vec<Move>,
    /// The contestants' moves after the opening.
    pub moves: Vec<Move>,
}

impl RecordedGame {
    /// The label of the contestant that played `player`.
    pub fn label(&self, player: Player) -> &str {
        match player {
            Player::X => &self.x,
            Player::O => &self.o,
        }
    }

    /// The position before each move after the opening, with the history that reached
    /// it and the move then played; stops where the game is over.
    pub fn turns(&self) -> Vec<Turn> {
        let mut p = Position::empty(&self.rules);
        let mut history = Vec::with_capacity(self.opening.len() + self.moves.len());
        for &mv in &self.opening {
            p.play(mv);
            history.push(mv);
        }
        let mut out = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            if p.is_over() {
                break;
            }
            out.push(Turn {
                position: p.clone(),
                history: history.clone(),
                played: mv,
            });
            p.play(mv);
            history.push(mv);
        }
        out
    }
}

/// One move of a recorded game, with the position it was played in.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The position before the move.
    pub position: Position,
    /// Every move from the empty board to `position`.
    pub history: Vec<Move>,
    /// The move played there.
    pub played: Move,
}

/// Reads every game of `text` (blank lines skipped); every move is checked for
/// legality on the way, so [`RecordedGame::turns`] replays them safely.
pub fn read_games(text: &str) -> Result<Vec<RecordedGame>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| read_game(l, i + 1).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// A hand of special pieces as the arena writes it, `[block, remove, bomb]`; games
/// written before hands were recorded (none at all) held none.
fn hand(v: &serde_json::Value) -> Result<Hand, String> {
    if v.is_null() {
        return Ok(Hand::default());
    }
    let count = |i: usize| {
        v[i].as_u64()
            .and_then(|c| u8::try_from(c).ok())
            .ok_or(format!("rules.pieces: {v} is not [block, remove, bomb]"))
    };
    Ok(Hand::new(count(0)?, count(1)?, count(2)?))
}

fn read_game(line: &str, number: usize) -> Result<RecordedGame, String> {
    let game: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let r = &game["rules"];
    let num = |key: &str| r[key].as_u64().ok_or(format!("rules.{key} is missing"));
    let rules = Rules::new(
        num("m")?,
        num("n")?,
        num("k")?,
        r["overline"].as_bool().unwrap_or(true),
        [hand(&r["pieces"][0])?, hand(&r["pieces"][1])?],
    )
    .map_err(|e| e.to_string())?;
    // Games written before the variants carry none: they were free.
    let variant = match r["variant"].as_str() {
        None => Variant::Free,
        Some(name) => Variant::parse(name).ok_or(format!("rules.variant {name:?} is unknown"))?,
    };
    let rules = rules
        .with_variant(variant)
        .and_then(|rules| rules.with_gravity(r["gravity"].as_bool().unwrap_or(false)))
        .map_err(|e| e.to_string())?;
    // Games written before the opening rules carry none: they were free.
    let opening = match r["opening"].as_str() {
        None => Opening::Free,
        Some(name) => Opening::parse(name).ok_or(format!("rules.opening {name:?} is unknown"))?,
    };
    let rules = rules.with_opening(opening).map_err(|e| e.to_string())?;
    let m = rules.m();
    let parse = |v: &serde_json::Value| -> Result<Move, String> {
        let (row, col) = (v["row"].as_u64(), v["col"].as_u64());
        let piece = Piece::parse(v["piece"].as_str().unwrap_or("mark"));
        match (row, col, piece) {
            (Some(r), Some(c), Some(p)) if (c as usize) < m => {
                Ok(Move::new(r as usize * m + c as usize, p))
            }
            _ => Err(format!("bad move {v}")),
        }
    };
    let list = |key: &str| -> Result<Vec<Move>, String> {
        game[key]
            .as_array()
            .map_or(&[][..], |a| a.as_slice())
            .iter()
            .map(parse)
            .collect()
    };
    let label = |key: &str| game[key].as_str().unwrap_or_default().to_string();
    let recorded = RecordedGame {
        line: number,
        rules,
        x: label("x"),
        o: label("o"),
        opening: list("opening")?,
        moves: list("moves")?,
    };
    let mut p = Position::empty(&recorded.rules);
    for &mv in recorded.opening.iter().chain(&recorded.moves) {
        if p.is_over() {
            break;
        }
        p.try_play(mv).map_err(|e| e.to_string())?;
    }
    Ok(recorded)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"{"game":0,"rules":{"m":7,"n":7,"k":4,"overline":true},"x":"auto","o":"pbrain:/e","opening":[{"row":3,"col":3,"piece":"mark"}],"moves":[{"row":2,"col":2,"piece":"mark"},{"row":3,"col":4,"piece":"mark"}],"result":"draw"}"#;

    #[test]
    fn games_are_read_with_labels_and_turns() {
        let games = read_games(&format!("\n{GAME}\n")).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(
            (g.line, g.x.as_str(), g.o.as_str()),
            (2, "auto", "pbrain:/e")
        );
        assert_eq!(g.opening, vec![Move::mark(3 * 7 + 3)]);
        let turns = g.turns();
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[1].history.len(), 2);
        assert_eq!(turns[1].played, Move::mark(3 * 7 + 4));
        assert_eq!(turns[1].position.ply(), 2);
        // The opening's single mark is x's, so o plays the first move after it.
        assert_eq!(g.label(turns[0].position.to_move()), "pbrain:/e");
    }

    #[test]
    fn a_game_keeps_its_variant() {
        let renju = GAME.replace(r#""k":4"#, r#""k":5"#).replace(
            r#""overline":true"#,
            r#""overline":false,"variant":"renju""#,
        );
        let games = read_games(&renju).unwrap();
        assert_eq!(games[0].rules.variant(), Variant::Renju);
        assert_eq!(read_games(GAME).unwrap()[0].rules.variant(), Variant::Free);
        let unknown = GAME.replace(r#""overline":true"#, r#""variant":"gomoku""#);
        let err = read_games(&unknown).unwrap_err();
        assert!(err.contains("line 1") && err.contains("gomoku"), "{err}");
    }

    #[test]
    fn broken_games_are_rejected_with_their_line() {
        let twice = GAME.replace(r#""row":2,"col":2"#, r#""row":3,"col":3"#);
        assert!(read_games(&twice).unwrap_err().starts_with("line 1:"));
        assert!(read_games("{\"rules\":{}}").is_err());
        assert!(read_games("not json").is_err());
        let off = GAME.replace(r#""row":2,"col":2"#, r#""row":2,"col":9"#);
        assert!(read_games(&off).is_err());
    }
}
