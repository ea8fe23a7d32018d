//! The JSON of a whole `/v1/suggest` answer, written by hand: the same bytes as
//! `serde_json::to_vec(&answer)` (a test holds them equal), at about half the cost.
//!
//! Why by hand: a 3x3 answer is ~1.5 KB of mostly keys, small numbers and a few fixed
//! words, and serde's derived writer scans every key for characters to escape and
//! copies it in pieces; on the load test's 3x3 `perfect` request the answer's JSON was
//! the largest stage of the server's own work. Keys and enum names here are literals
//! known to need no escaping; numbers, free-text strings and the rarely-large `rules`
//! object still go through serde_json, so they are written exactly as it writes them.

use serde::Serialize;

use super::engine::LimitsUsed;
use super::position::{MoveDto, PieceName, Side};
use super::state::{AfterDto, GameStatus};
use super::suggest::{
    ActionName, BoundName, EvaluationDto, MoveEvalDto, OutcomeName, StatsDto, SuggestResponse,
};

/// `answer` as JSON, appended to `out`.
pub fn write(out: &mut Vec<u8>, answer: &SuggestResponse) {
    let mut w = Writer(out);
    w.raw(b"{\"move\":");
    w.mv(&answer.mv);
    w.raw(b",\"to_move\":");
    w.raw(side(answer.to_move));
    w.raw(b",\"engine\":");
    w.value(&answer.engine);
    w.raw(b",\"evaluation\":");
    w.evaluation(&answer.evaluation);
    w.raw(b",\"scores\":[");
    for (r, row) in answer.scores.iter().enumerate() {
        if r > 0 {
            w.raw(b",");
        }
        w.raw(b"[");
        for (c, &cell) in row.iter().enumerate() {
            if c > 0 {
                w.raw(b",");
            }
            w.opt_f64(cell);
        }
        w.raw(b"]");
    }
    w.raw(b"],\"moves\":[");
    for (i, m) in answer.moves.iter().enumerate() {
        if i > 0 {
            w.raw(b",");
        }
        w.move_eval(m);
    }
    w.raw(b"],\"pv\":");
    w.moves(&answer.pv);
    w.raw(b",\"after\":");
    w.after(&answer.after);
    w.raw(b",\"stats\":");
    w.stats(&answer.stats);
    w.raw(b",\"limits\":");
    w.limits(&answer.limits);
    w.raw(b"}");
}

/// The output buffer and the pieces of an answer.
struct Writer<'a>(&'a mut Vec<u8>);

impl Writer<'_> {
    fn raw(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// A value as serde_json writes it (numbers, free text, small objects).
    fn value<T: Serialize + ?Sized>(&mut self, v: &T) {
        v.serialize(&mut serde_json::Serializer::new(&mut *self.0))
            .expect("writing JSON into a Vec cannot fail");
    }

    fn opt_f64(&mut self, v: Option<f64>) {
        match v {
            Some(x) => self.value(&x),
            None => self.raw(b"null"),
        }
    }

    fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            Some(x) => self.value(&x),
            None => self.raw(b"null"),
        }
    }

    fn mv(&mut self, m: &MoveDto) {
        self.raw(b"{\"row\":");
        self.value(&m.row);
        self.raw(b",\"col\":");
        self.value(&m.col);
        self.raw(b",\"piece\":");
        self.raw(piece(m.piece));
        self.raw(b"}");
    }

    fn moves(&mut self, moves: &[MoveDto]) {
        self.raw(b"[");
        for (i, m) in moves.iter().enumerate() {
            if i > 0 {
                self.raw(b",");
            }
            self.mv(m);
        }
        self.raw(b"]");
    }

    fn evaluation(&mut self, e: &EvaluationDto) {
        self.raw(b"{\"value\":");
        self.value(&e.value);
        self.raw(b",\"outcome\":");
        self.raw(outcome(e.outcome));
        self.raw(b",\"plies\":");
        self.opt_u32(e.plies);
        self.raw(b",\"raw\":");
        self.opt_f64(e.raw);
        self.raw(b"}");
    }

    fn move_eval(&mut self, m: &MoveEvalDto) {
        self.raw(b"{\"row\":");
        self.value(&m.row);
        self.raw(b",\"col\":");
        self.value(&m.col);
        self.raw(b",\"piece\":");
        self.raw(piece(m.piece));
        self.raw(b",\"value\":");
        self.opt_f64(m.value);
        self.raw(if m.evaluated {
            b",\"evaluated\":true,\"depth\":"
        } else {
            b",\"evaluated\":false,\"depth\":"
        });
        self.opt_u32(m.depth);
        self.raw(b",\"bound\":");
        self.raw(match m.bound {
            None => b"null",
            Some(BoundName::Upper) => b"\"upper\"",
            Some(BoundName::Lower) => b"\"lower\"",
        });
        self.raw(b",\"raw\":");
        self.opt_f64(m.raw);
        self.raw(b",\"outcome\":");
        self.raw(outcome(m.outcome));
        self.raw(b",\"plies\":");
        self.opt_u32(m.plies);
        self.raw(b",\"plies_bound\":");
        self.raw(match m.plies_bound {
            None => b"null",
            Some(BoundName::Upper) => b"\"upper\"",
            Some(BoundName::Lower) => b"\"lower\"",
        });
        self.raw(b",\"action\":");
        self.raw(match m.action {
            None => b"null",
            Some(ActionName::Basic) => b"\"basic\"",
            Some(ActionName::Prevent) => b"\"prevent\"",
            Some(ActionName::Destroy) => b"\"destroy\"",
        });
        if m.played {
            self.raw(b",\"played\":true");
        }
        if let Some(pv) = &m.pv {
            self.raw(b",\"pv\":");
            self.moves(pv);
        }
        self.raw(b"}");
    }

    fn after(&mut self, a: &AfterDto) {
        self.raw(b"{\"rules\":");
        self.value(&a.rules);
        self.raw(b",\"board\":");
        self.value(&a.board);
        self.raw(b",\"to_move\":");
        self.raw(side(a.to_move));
        self.raw(b",\"status\":");
        self.raw(match a.status {
            GameStatus::InProgress => b"\"in_progress\"",
            GameStatus::XWins => b"\"x_wins\"",
            GameStatus::OWins => b"\"o_wins\"",
            GameStatus::Draw => b"\"draw\"",
        });
        self.raw(b",\"winner\":");
        match a.winner {
            Some(s) => self.raw(side(s)),
            None => self.raw(b"null"),
        }
        self.raw(b",\"winning_line\":");
        self.value(&a.winning_line);
        self.raw(b",\"forbidden\":");
        self.value(&a.forbidden);
        self.raw(b",\"playable\":");
        self.value(&a.playable);
        self.raw(b",\"moves\":");
        self.value(&a.moves);
        self.raw(b"}");
    }

    fn stats(&mut self, s: &StatsDto) {
        self.raw(b"{\"nodes\":");
        self.value(&s.nodes);
        self.raw(b",\"depth\":");
        self.value(&s.depth);
        self.raw(b",\"elapsed_ms\":");
        self.value(&s.elapsed_ms);
        self.raw(b",\"queued_ms\":");
        self.value(&s.queued_ms);
        self.raw(if s.complete {
            b",\"complete\":true,\"stopped\":"
        } else {
            b",\"complete\":false,\"stopped\":"
        });
        self.value(&s.stopped);
        self.raw(b",\"seed\":");
        self.value(&s.seed);
        self.raw(b",\"path\":");
        self.value(&s.path);
        self.raw(b",\"threads\":");
        self.value(&s.threads);
        self.raw(b"}");
    }

    fn limits(&mut self, l: &LimitsUsed) {
        self.raw(b"{\"time_ms\":");
        self.value(&l.time_ms);
        self.raw(b",\"depth\":");
        self.opt_u32(l.depth);
        self.raw(b",\"nodes\":");
        self.value(&l.nodes);
        self.raw(b",\"mistake_probability\":");
        self.value(&l.mistake_probability);
        self.raw(b",\"level\":");
        self.value(&l.level);
        self.raw(b",\"threads\":");
        self.value(&l.threads);
        self.raw(b"}");
    }
}

fn side(s: Side) -> &'static [u8] {
    match s {
        Side::X => b"\"x\"",
        Side::O => b"\"o\"",
    }
}

fn piece(p: PieceName) -> &'static [u8] {
    match p {
        PieceName::Mark => b"\"mark\"",
        PieceName::Block => b"\"block\"",
        PieceName::Remove => b"\"remove\"",
        PieceName::Bomb => b"\"bomb\"",
    }
}

fn outcome(o: OutcomeName) -> &'static [u8] {
    match o {
        OutcomeName::Win => b"\"win\"",
        OutcomeName::Draw => b"\"draw\"",
        OutcomeName::Loss => b"\"loss\"",
        OutcomeName::Unknown => b"\"unknown\"",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::dto::SuggestRequest;
    use crate::api::extract::parse_body;
    use crate::api::routes::suggest::prepare_suggest;
    use crate::config::Config;

    /// The answer to `body` (a `/v1/suggest` request), built as the handler builds it.
    fn answer(body: &str) -> SuggestResponse {
        let config = Config::default();
        let request: SuggestRequest = parse_body(body.as_bytes()).unwrap();
        let (position, plan) = prepare_suggest(&request, &config).unwrap();
        let analysis = plan
            .engine()
            .analyze(&position, &plan.limits, &mut plan.rng());
        let limits = LimitsUsed {
            time_ms: LimitsUsed::whole_ms(plan.limits.time),
            depth: plan.limits.depth,
            nodes: plan.limits.nodes,
            mistake_probability: plan.limits.mistake_probability,
            level: plan.level,
            threads: 1,
        };
        SuggestResponse::new(&position, &plan, &analysis, (0.25, plan.seed), limits)
    }

    fn same_as_serde(answer: &SuggestResponse) {
        let mut lean = Vec::new();
        write(&mut lean, answer);
        let serde = serde_json::to_vec(answer).unwrap();
        assert_eq!(
            String::from_utf8(lean).unwrap(),
            String::from_utf8(serde).unwrap()
        );
    }

    #[test]
    fn the_answer_is_written_as_serde_writes_it() {
        let bodies = [
            r#"{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o.","..."],"engine":{"name":"perfect","seed":7}}"#,
            // A win on the board after the move: `winner` and `winning_line`.
            r#"{"rules":{"m":3,"n":3,"k":3},"board":["xx.","oo.","..."],"engine":{"name":"minimax","depth":2,"seed":1}}"#,
            // Special pieces: blocks, removes, bombs and `priority`'s actions.
            r#"{"rules":{"m":7,"n":7,"k":4,"pieces":{"x":{"block":1,"remove":1,"bomb":1},"o":{"remove":2}}},"board":[".......","..x....","..xo...","...o...",".......",".......","......."],"to_move":"x","engine":{"name":"priority","seed":3}}"#,
            // Lines per move (multipv), moves listed without a search, a node cap.
            r#"{"rules":{"m":9,"n":9,"k":5},"board":[".........",".........",".........","...x.....","....o....",".........",".........",".........","........."],"engine":{"name":"minimax","depth":3,"multipv":3,"seed":5}}"#,
            r#"{"rules":{"m":9,"n":9,"k":5},"engine":{"name":"mcts","nodes":300,"seed":9}}"#,
            // Gravity and renju.
            r#"{"rules":{"m":7,"n":6,"k":4,"gravity":true},"board":"4453","engine":{"name":"perfect","nodes":2000,"seed":2}}"#,
            r#"{"rules":{"m":15,"n":15,"k":5,"variant":"renju"},"engine":{"name":"threat","seed":4}}"#,
        ];
        for body in bodies {
            let mut a = answer(body);
            same_as_serde(&a);
            // The rare fields: a deadline answer, a path with a quote to escape, odd numbers.
            a.stats.stopped = Some("deadline".to_string());
            a.stats.path = Some("a \"path\"\n".to_string());
            a.stats.elapsed_ms = 1e-7;
            a.evaluation.raw = Some(-1.5e300);
            if let Some(m) = a.moves.first_mut() {
                m.played = true;
                m.plies_bound = Some(BoundName::Upper);
                m.raw = None;
            }
            a.limits.nodes = Some(u64::MAX);
            same_as_serde(&a);
        }
    }
}
