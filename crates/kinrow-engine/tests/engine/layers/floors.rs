//! The floors and the order of the house: no import closes a circle (Tarjan's algorithm
//! on the rooms' arrows), the engine imports down its floors, the crates name only the
//! crates below them.

use std::collections::{BTreeMap, BTreeSet};

use super::source::*;

/// The engine's floors, bottom up: a room's floor is its first module below the crate.
const FLOORS: [&str; 7] = [
    "core", "eval", "board", "search", "external", "registry", "service",
];

/// The imports in `kinrow-engine` that run against its floors, each with its reason.
/// (None at present.)
const AGAINST_THE_FLOORS: [(&str, &str); 0] = [];

/// The strongly connected components of more than one room (Tarjan's algorithm).
fn circles(g: &Graph) -> Vec<Vec<Room>> {
    struct State<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a Room, usize>,
        low: BTreeMap<&'a Room, usize>,
        stack: Vec<&'a Room>,
        on_stack: BTreeSet<&'a Room>,
        out: Vec<Vec<Room>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Room) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(next) = s.g.arrows.get(v) {
            for w in next {
                let w = s.g.rooms.get(w).expect("a room");
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for r in &g.rooms {
        if !s.index.contains_key(r) {
            visit(&mut s, r);
        }
    }
    s.out
}

/// The engine floor of a room (its index in [`FLOORS`]), `None` outside the engine.
fn floor(r: &Room) -> Option<usize> {
    if r.first().map(String::as_str) != Some("kinrow_engine") {
        return None;
    }
    FLOORS
        .iter()
        .position(|f| r.get(1).map(String::as_str) == Some(f))
}

#[test]
fn the_rooms_are_read() {
    let g = graph();
    // Enough rooms in every crate that a broken reader cannot pass as an empty house.
    for (krate, at_least) in [
        ("kinrow_game", 10),
        ("kinrow_engine", 60),
        ("kinrow_server", 30),
        ("kinrow_lab", 20),
    ] {
        let n = g.rooms.iter().filter(|r| r[0] == krate).count();
        assert!(n >= at_least, "{krate}: {n} rooms");
    }
    // Known arrows: the board reads the evaluation's tables, auto runs the threat search.
    let has = |from: &str, to: &str| {
        g.arrows
            .iter()
            .any(|(f, ts)| name(f).starts_with(from) && ts.iter().any(|t| name(t).starts_with(to)))
    };
    assert!(has("kinrow_engine::board", "kinrow_engine::eval"));
    assert!(has(
        "kinrow_engine::search::auto",
        "kinrow_engine::search::tss"
    ));
    assert!(has("kinrow_server::api", "kinrow_engine::registry"));
    assert!(has("kinrow_engine::eval::classes", "kinrow_game::lines"));
}

#[test]
fn no_import_closes_a_circle() {
    let g = graph();
    let found: Vec<String> = circles(&g)
        .iter()
        .map(|c| c.iter().map(name).collect::<Vec<_>>().join(" <-> "))
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_engine_imports_down_its_floors() {
    let g = graph();
    let mut against = Vec::new();
    for (from, tos) in &g.arrows {
        for to in tos {
            if let (Some(f), Some(t)) = (floor(from), floor(to)) {
                if t > f {
                    against.push(format!("{} -> {}", name(from), name(to)));
                }
            }
        }
    }
    let allowed: BTreeSet<String> = AGAINST_THE_FLOORS
        .iter()
        .map(|(arrow, _)| arrow.to_string())
        .collect();
    let unnamed: Vec<&String> = against.iter().filter(|a| !allowed.contains(*a)).collect();
    assert!(
        unnamed.is_empty(),
        "imports against the engine's floors:\n{}",
        unnamed
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        against.len() <= 3,
        "at most three imports against the floors"
    );
    // Every room of the engine stands on a floor.
    for r in g
        .rooms
        .iter()
        .filter(|r| r[0] == "kinrow_engine" && r.len() > 1)
    {
        assert!(floor(r).is_some(), "{} is on no floor", name(r));
    }
}

#[test]
fn the_layers_of_the_workspace_hold() {
    let g = graph();
    let krate = |r: &Room| CRATES.iter().position(|c| *c == r[0]).unwrap();
    for (from, tos) in &g.arrows {
        for to in tos {
            let (f, t) = (krate(from), krate(to));
            // game < engine < server, lab; server and lab never name each other.
            let ok = t <= f.min(1) || t == f;
            assert!(ok, "{} -> {}", name(from), name(to));
        }
    }
    if std::env::var_os("KINROW_LAYERS_PRINT").is_some()
        || std::env::args().any(|a| a == "--nocapture")
    {
        for r in &g.rooms {
            let out: Vec<String> = g.arrows.get(r).into_iter().flatten().map(name).collect();
            println!("{}  ->  {}", name(r), out.join(", "));
        }
    }
}
