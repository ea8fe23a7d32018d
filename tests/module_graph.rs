//! The house's import graph: every file of `src/` is a room (a module), every path it
//! names into another room (`use crate::..`, `super::..`, a child module by name, the
//! paths in attributes like `deserialize_with = "super::forms::never"`; a name a
//! `mod.rs` only re-exports counts for the room that defines it) an arrow. The arrows
//! must not close a circle, neither between files nor between the top-level modules,
//! and `engine/mod.rs` must not import the engines (the registry does that, one floor
//! up). A method defined in a child file (`impl Position` in `game/board/gravity.rs`)
//! and called by name in its parent is not a path, so it draws no arrow.
//!
//! `cargo test --test module_graph -- --nocapture` prints the rooms by floor
//! (`KINROW_GRAPH_SRC=dir` reads another tree's `src/`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One room: its module path (`crate::api::dto::state`), the modules it declares and
/// the names it re-exports (`pub use types::Analysis`: `Analysis` -> its own path).
struct Room {
    path: Vec<String>,
    children: BTreeSet<String>,
    reexports: BTreeMap<String, Vec<String>>,
    text: String,
}

/// The names `text` (of the room at `path`) re-exports, each with its absolute path.
fn reexports(path: &[String], text: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut rest = text;
    while let Some(at) = rest.find("pub use ") {
        let after = &rest[at + "pub use ".len()..];
        let end = after.find(';').unwrap_or(after.len());
        let chars: Vec<char> = after[..end].chars().collect();
        for p in paths_at(&chars, 0) {
            if let Some(last) = p.last().filter(|l| *l != "*") {
                out.insert(last.clone(), absolute(path, &p));
            }
        }
        rest = &after[end..];
    }
    out
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of `file` under `src`; `None` for the binary and test-only files.
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts == ["main"] || parts.last().is_some_and(|l| l == "tests") {
        return None;
    }
    if parts == ["lib"] || parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    let mut path = vec!["crate".to_string()];
    path.extend(parts);
    Some(path)
}

/// The text that names other rooms: comments and `#[cfg(test)]` modules left out.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start() == "#[cfg(test)]" {
            break;
        }
        let line = match line.find("//") {
            // A `//` inside a string (a URL) is rare in these files; good enough.
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths written from position `at` of `s`: `a::b::{c, d::e}` gives `a::b::c` and
/// `a::b::d::e`.
fn paths_at(s: &[char], mut at: usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    loop {
        let start = at;
        while at < s.len() && is_ident(s[at]) {
            at += 1;
        }
        if at > start {
            prefix.push(s[start..at].iter().collect::<String>());
        }
        if at + 1 < s.len() && s[at] == ':' && s[at + 1] == ':' {
            at += 2;
            if at < s.len() && s[at] == '{' {
                // A group: each item at depth one, expanded.
                let mut out = Vec::new();
                let mut depth = 0;
                let mut item_start = at + 1;
                let mut i = at;
                while i < s.len() {
                    match s[i] {
                        '{' => depth += 1,
                        '}' | ',' if depth == 1 => {
                            let item: String = s[item_start..i].iter().collect();
                            let trimmed = item.trim();
                            if !trimmed.is_empty() && trimmed != "self" {
                                let chars: Vec<char> = trimmed.chars().collect();
                                for tail in paths_at(&chars, 0) {
                                    let mut p = prefix.clone();
                                    p.extend(tail);
                                    out.push(p);
                                }
                            } else if trimmed == "self" {
                                out.push(prefix.clone());
                            }
                            item_start = i + 1;
                            if s[i] == '}' {
                                break;
                            }
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                }
                return out;
            }
            continue;
        }
        return vec![prefix];
    }
}

/// Every path that starts at a word boundary with one of `roots` followed by `::`.
fn references(text: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(is_ident(s[i - 1]) || s[i - 1] == ':');
        if boundary && is_ident(s[i]) {
            let mut j = i;
            while j < s.len() && is_ident(s[j]) {
                j += 1;
            }
            let word: String = s[i..j].iter().collect();
            let followed = j + 1 < s.len() && s[j] == ':' && s[j + 1] == ':';
            let root = matches!(word.as_str(), "crate" | "super") || children.contains(&word);
            if followed && root {
                out.extend(paths_at(&s, i));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// `reference` written in `room`, as an absolute module path.
fn absolute(room: &[String], reference: &[String]) -> Vec<String> {
    let mut base: Vec<String>;
    let mut rest = reference;
    if reference[0] == "crate" {
        base = vec!["crate".to_string()];
        rest = &reference[1..];
    } else if reference[0] == "super" {
        base = room.to_vec();
        while rest.first().is_some_and(|w| w == "super") {
            base.pop();
            rest = &rest[1..];
        }
    } else {
        base = room.to_vec();
    }
    base.extend(rest.iter().cloned());
    base
}

struct Graph {
    rooms: Vec<Vec<String>>,
    arrows: BTreeMap<usize, BTreeSet<usize>>,
}

fn graph() -> Graph {
    // KINROW_GRAPH_SRC: another tree's src/ (e.g. an older commit's, to compare).
    let src = std::env::var("KINROW_GRAPH_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut list = Vec::new();
    files(&src, &mut list);
    let mut rooms: Vec<Room> = Vec::new();
    for file in list {
        let Some(path) = module_of(&src, &file) else {
            continue;
        };
        let text = code(&std::fs::read_to_string(&file).unwrap());
        let children = text
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let l = l.strip_prefix("pub ").unwrap_or(l);
                let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
                l.strip_prefix("mod ")?
                    .strip_suffix(';')
                    .map(str::to_string)
            })
            .collect();
        let reexports = reexports(&path, &text);
        rooms.push(Room {
            path,
            children,
            reexports,
            text,
        });
    }
    rooms.sort_by(|a, b| a.path.cmp(&b.path));
    let index: BTreeMap<Vec<String>, usize> = rooms
        .iter()
        .enumerate()
        .map(|(i, r)| (r.path.clone(), i))
        .collect();
    let mut arrows: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (from, room) in rooms.iter().enumerate() {
        for reference in references(&room.text, &room.children) {
            let mut target = absolute(&room.path, &reference);
            // The deepest room the path enters; through a re-export, the room that
            // defines the name (a `mod.rs` that only re-exports is not the target).
            let mut to = None;
            for _ in 0..8 {
                let Some((n, r)) = (1..=target.len())
                    .rev()
                    .find_map(|n| index.get(&target[..n]).map(|&r| (n, r)))
                else {
                    break;
                };
                to = Some(r);
                match target.get(n).and_then(|name| rooms[r].reexports.get(name)) {
                    Some(real) if r != from => {
                        let mut next = real.clone();
                        next.extend(target[n + 1..].iter().cloned());
                        target = next;
                    }
                    _ => break,
                }
            }
            if let Some(to) = to.filter(|&to| to != from) {
                arrows.entry(from).or_default().insert(to);
            }
        }
    }
    Graph {
        rooms: rooms.into_iter().map(|r| r.path).collect(),
        arrows,
    }
}

/// The circles of the graph: its strongly connected components of more than one room
/// (Tarjan's algorithm).
fn circles(g: &Graph) -> Vec<Vec<usize>> {
    struct State<'a> {
        g: &'a Graph,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(st: &mut State, v: usize) {
        st.index[v] = Some(st.next);
        st.low[v] = st.next;
        st.next += 1;
        st.stack.push(v);
        st.on_stack[v] = true;
        let targets: Vec<usize> = st.g.arrows.get(&v).into_iter().flatten().copied().collect();
        for w in targets {
            match st.index[w] {
                None => {
                    visit(st, w);
                    st.low[v] = st.low[v].min(st.low[w]);
                }
                Some(i) if st.on_stack[w] => st.low[v] = st.low[v].min(i),
                _ => {}
            }
        }
        if Some(st.low[v]) == st.index[v] {
            let mut component = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                st.out.push(component);
            }
        }
    }
    let n = g.rooms.len();
    let mut st = State {
        g,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if st.index[v].is_none() {
            visit(&mut st, v);
        }
    }
    st.out
}

/// Each room's floor: 0 for a room that imports no other, else one above the highest
/// room it imports (on a graph without circles).
fn floors(g: &Graph) -> Vec<usize> {
    fn floor(g: &Graph, v: usize, memo: &mut Vec<Option<usize>>) -> usize {
        if let Some(f) = memo[v] {
            return f;
        }
        memo[v] = Some(0);
        let f = g
            .arrows
            .get(&v)
            .into_iter()
            .flatten()
            .map(|&w| floor(g, w, memo) + 1)
            .max()
            .unwrap_or(0);
        memo[v] = Some(f);
        f
    }
    let mut memo = vec![None; g.rooms.len()];
    (0..g.rooms.len()).map(|v| floor(g, v, &mut memo)).collect()
}

fn name(g: &Graph, v: usize) -> String {
    g.rooms[v].join("::")
}

/// The graph with every room renamed by `group` (rooms of one group merge).
fn grouped(g: &Graph, group: impl Fn(&[String]) -> Option<String>) -> Graph {
    let names: Vec<Option<String>> = g.rooms.iter().map(|r| group(r)).collect();
    let mut rooms: Vec<String> = names.iter().flatten().cloned().collect();
    rooms.sort();
    rooms.dedup();
    let at = |n: &Option<String>| n.as_ref().map(|n| rooms.binary_search(n).unwrap());
    let mut arrows: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (&from, tos) in &g.arrows {
        for &to in tos {
            if let (Some(a), Some(b)) = (at(&names[from]), at(&names[to])) {
                if a != b {
                    arrows.entry(a).or_default().insert(b);
                }
            }
        }
    }
    Graph {
        rooms: rooms.iter().map(|r| vec![r.clone()]).collect(),
        arrows,
    }
}

fn print_circles(what: &str, g: &Graph, found: &[Vec<usize>]) {
    for c in found {
        let names: Vec<String> = c.iter().map(|&v| name(g, v)).collect();
        println!("{what} circle: {}", names.join(", "));
    }
}

#[test]
fn the_import_graph_has_no_circle() {
    let g = graph();
    let arrows: usize = g.arrows.values().map(BTreeSet::len).sum();
    let found = circles(&g);
    println!(
        "{} rooms, {arrows} arrows, {} file-level circles",
        g.rooms.len(),
        found.len()
    );
    print_circles("file-level", &g, &found);
    // The tower: the top-level modules.
    let top = grouped(&g, |r| r.get(1).cloned());
    let top_circles = circles(&top);
    print_circles("top-level", &top, &top_circles);
    let floor = floors(&top);
    for f in 0..=floor.iter().copied().max().unwrap_or(0) {
        let names: Vec<String> = (0..top.rooms.len())
            .filter(|&v| floor[v] == f)
            .map(|v| name(&top, v))
            .collect();
        println!("floor {f}: {}", names.join(" "));
    }
    // The files of api/.
    let api = grouped(&g, |r| {
        (r.get(1).map(String::as_str) == Some("api")).then(|| r.join("::"))
    });
    let api_circles = circles(&api);
    print_circles("api", &api, &api_circles);
    assert!(
        top_circles.is_empty(),
        "the top-level modules close a circle"
    );
    assert!(api_circles.is_empty(), "the files of api/ close a circle");
    assert!(
        found.is_empty(),
        "{} file-level circles (see the lines above)",
        found.len()
    );
}

#[test]
fn the_engines_floor_does_not_import_the_engines() {
    let g = graph();
    let engine = g
        .rooms
        .iter()
        .position(|r| r.join("::") == "crate::engine")
        .unwrap();
    let engines = [
        "perfect", "minimax", "mcts", "tss", "auto", "threat", "priority", "greedy",
    ];
    let imported: Vec<String> = g
        .arrows
        .get(&engine)
        .into_iter()
        .flatten()
        .map(|&v| name(&g, v))
        .filter(|n| {
            engines
                .iter()
                .any(|e| n.starts_with(&format!("crate::engine::{e}")))
        })
        .collect();
    assert!(
        imported.is_empty(),
        "engine/mod.rs imports {}",
        imported.join(", ")
    );
}

#[test]
fn paths_in_groups_are_expanded() {
    let none = BTreeSet::new();
    let refs = references("use crate::api::{dto::{A, b::C}, error};", &none);
    let joined: Vec<String> = refs.iter().map(|r| r.join("::")).collect();
    assert_eq!(
        joined,
        [
            "crate::api::dto::A",
            "crate::api::dto::b::C",
            "crate::api::error"
        ]
    );
    let children: BTreeSet<String> = ["routes".to_string()].into();
    let refs = references(
        "x.to(routes::suggest::suggest); other::routes::y",
        &children,
    );
    assert_eq!(refs, [vec!["routes", "suggest", "suggest"]]);
}
