//! The house's layers, read from the code: every module of every crate is a room, every
//! path it names into another room an arrow (a `use` tree, a path in an expression or a
//! type, a path in a string such as `deserialize_with = "super::forms::never"`). Paths
//! are read with `syn` from the module tree each crate's `lib.rs` declares; a module
//! under `#[cfg(test)]` is left out (it may reach anywhere in its crate). A name a
//! module only re-exports (`pub use`) counts for the room that defines it.
//!
//! The arrows must not close a circle, and inside the engine crate they must not run
//! up its floors (core < eval < board < search < external < registry < service) except where
//! [`AGAINST_THE_FLOORS`] names them. Between crates Cargo holds the order (game <
//! engine < server, lab < the binary): a crate cannot name one it does not depend on.
//!
//! Each crate has a front door: the names its `lib.rs` re-exports. Outside a crate (the
//! crates above it, the binary, the root tests, the benches, test code included), a path
//! into it names one of those names and goes no deeper than the room that name stands
//! for: `kinrow_engine::Limits`, `kinrow_engine::value::values`, never
//! `kinrow_engine::core::types::Limits` or `kinrow_engine::gravity::book::Book`.
//!
//! A crate embeds (`include_str!`, `include_bytes!`) only files in its own folder, and
//! no module is read from elsewhere with `#[path]`: shared test data lives in
//! `kinrow-fixtures`.
//!
//! `cargo test -p kinrow-engine --test engine layers -- --nocapture` prints the rooms
//! by floor with their arrows out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The crates of the workspace, bottom up.
const CRATES: [&str; 4] = [
    "kinrow_game",
    "kinrow_engine",
    "kinrow_server",
    "kinrow_lab",
];

/// The engine's floors, bottom up: a room's floor is its first module below the crate.
const FLOORS: [&str; 7] = [
    "core", "eval", "board", "search", "external", "registry", "service",
];

/// The imports in `kinrow-engine` that run against its floors, each with its reason.
/// (None at present.)
const AGAINST_THE_FLOORS: [(&str, &str); 0] = [];

/// A room: `kinrow_engine::search::perfect::memo`, as segments.
type Room = Vec<String>;

struct Crate {
    name: &'static str,
    /// Every room of the crate and the file it is read from.
    rooms: BTreeMap<Room, PathBuf>,
    /// Re-exports: a room's `pub use` names -> the absolute path they stand for.
    reexports: BTreeMap<Room, BTreeMap<String, Vec<String>>>,
    /// Every path each room names, absolute.
    paths: BTreeMap<Room, BTreeSet<Vec<String>>>,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// Reads one file (the room `room`) and the modules it declares.
fn read_room(krate: &mut Crate, room: Room, file: &Path, dir_of_children: PathBuf) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
    krate.rooms.insert(room.clone(), file.to_path_buf());
    let mut reader = Reader {
        krate_name: krate.name,
        module: room.clone(),
        paths: BTreeSet::new(),
        reexports: BTreeMap::new(),
        children: Vec::new(),
    };
    reader.visit_file(&ast);
    krate
        .paths
        .entry(room.clone())
        .or_default()
        .extend(reader.paths);
    for (module, names) in reader.reexports {
        krate.reexports.entry(module).or_default().extend(names);
    }
    for child in reader.children {
        let flat = dir_of_children.join(format!("{child}.rs"));
        let nested = dir_of_children.join(&child).join("mod.rs");
        let (file, dir) = if flat.exists() {
            (flat, dir_of_children.join(&child))
        } else {
            (nested, dir_of_children.join(&child))
        };
        let mut child_room = room.clone();
        child_room.push(child);
        read_room(krate, child_room, &file, dir);
    }
}

/// Collects the paths of one file. `module` is the module being read (an inline module
/// inside the file extends it; its paths count for the file's room).
struct Reader {
    krate_name: &'static str,
    module: Room,
    paths: BTreeSet<Vec<String>>,
    reexports: BTreeMap<Room, BTreeMap<String, Vec<String>>>,
    children: Vec<String>,
}

impl Reader {
    /// The absolute path of `segs` written in the current module; `None` for a path
    /// that names nothing of the workspace (std, a local name, an external crate).
    fn absolute(&self, segs: &[String]) -> Option<Vec<String>> {
        let first = segs.first()?;
        let mut out;
        let mut rest = segs;
        match first.as_str() {
            "crate" => {
                out = vec![self.krate_name.to_string()];
                rest = &segs[1..];
            }
            "self" => {
                out = self.module.clone();
                rest = &segs[1..];
            }
            "super" => {
                out = self.module.clone();
                while rest.first().is_some_and(|s| s == "super") {
                    out.pop();
                    rest = &rest[1..];
                }
            }
            name if CRATES.contains(&name) => {
                out = Vec::new();
            }
            _ => return None,
        }
        out.extend(rest.iter().cloned());
        Some(out)
    }

    fn add(&mut self, segs: Vec<String>) {
        if let Some(p) = self.absolute(&segs) {
            self.paths.insert(p);
        }
    }

    /// Every leaf of a use tree as segments (a glob keeps its prefix).
    fn leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                Self::leaves(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                let mut p = prefix.clone();
                if name != "self" {
                    p.push(name.clone());
                }
                let alias = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name
                };
                out.push((p, alias));
            }
            syn::UseTree::Rename(r) => {
                let mut p = prefix.clone();
                p.push(r.ident.to_string());
                out.push((p, r.rename.to_string()));
            }
            syn::UseTree::Glob(_) => out.push((prefix.clone(), "*".into())),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    Self::leaves(t, prefix, out);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Reader {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_test_only(&m.attrs) {
            return;
        }
        match &m.content {
            None => self.children.push(m.ident.to_string()),
            Some(_) => {
                self.module.push(m.ident.to_string());
                syn::visit::visit_item_mod(self, m);
                self.module.pop();
            }
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if !is_test_only(&i.attrs) {
            syn::visit::visit_item_impl(self, i);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_test_only(&u.attrs) {
            return;
        }
        let mut leaves = Vec::new();
        Self::leaves(&u.tree, &mut Vec::new(), &mut leaves);
        let public = !matches!(u.vis, syn::Visibility::Inherited);
        for (segs, alias) in leaves {
            // A path relative to the module: a child module by name.
            let segs = if self.absolute(&segs).is_none()
                && segs.first().is_some_and(|s| s != "std" && s != "core")
            {
                let mut s = vec!["self".to_string()];
                s.extend(segs);
                s
            } else {
                segs
            };
            let Some(abs) = self.absolute(&segs) else {
                continue;
            };
            // A re-export is no arrow of its own: the name counts for the room
            // that defines it, wherever it is named through this one.
            if public {
                if alias != "*" {
                    self.reexports
                        .entry(self.module.clone())
                        .or_default()
                        .insert(alias, abs);
                }
            } else {
                self.paths.insert(abs);
            }
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if segs.len() > 1 {
            self.add(segs);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
        let v = s.value();
        let is_path = v.contains("::")
            && v.split("::")
                .all(|w| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_'));
        if is_path {
            self.add(v.split("::").map(str::to_string).collect());
        }
    }
}

fn read_crate(name: &'static str, dir: &str) -> Crate {
    let src = workspace().join(dir).join("src");
    let mut krate = Crate {
        name,
        rooms: BTreeMap::new(),
        reexports: BTreeMap::new(),
        paths: BTreeMap::new(),
    };
    read_room(
        &mut krate,
        vec![name.to_string()],
        &src.join("lib.rs"),
        src.clone(),
    );
    krate
}

/// The room `path` names: its longest prefix that is a room, after following
/// re-exports to the room that defines the name.
fn target(
    rooms: &BTreeSet<Room>,
    reexports: &BTreeMap<Room, BTreeMap<String, Vec<String>>>,
    path: &[String],
) -> Option<Room> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let mut n = path.len();
        while n > 0 && !rooms.contains(&path[..n].to_vec()) {
            n -= 1;
        }
        if n == 0 {
            return None;
        }
        let room = path[..n].to_vec();
        let followed = path
            .get(n)
            .and_then(|name| reexports.get(&room)?.get(name))
            .filter(|to| to.as_slice() != path.as_slice());
        match followed {
            Some(to) => {
                let mut next = to.clone();
                next.extend(path[n + 1..].iter().cloned());
                path = next;
            }
            None => return Some(room),
        }
    }
    None
}

struct Graph {
    rooms: BTreeSet<Room>,
    arrows: BTreeMap<Room, BTreeSet<Room>>,
    /// Every room's `pub use` names -> the absolute path each stands for.
    reexports: BTreeMap<Room, BTreeMap<String, Vec<String>>>,
}

fn graph() -> Graph {
    let crates = [
        read_crate("kinrow_game", "crates/kinrow-game"),
        read_crate("kinrow_engine", "crates/kinrow-engine"),
        read_crate("kinrow_server", "crates/kinrow-server"),
        read_crate("kinrow_lab", "crates/kinrow-lab"),
    ];
    let rooms: BTreeSet<Room> = crates
        .iter()
        .flat_map(|c| c.rooms.keys().cloned())
        .collect();
    let mut reexports = BTreeMap::new();
    for c in &crates {
        for (room, names) in &c.reexports {
            reexports.insert(room.clone(), names.clone());
        }
    }
    let mut arrows: BTreeMap<Room, BTreeSet<Room>> = BTreeMap::new();
    for c in &crates {
        for (room, paths) in &c.paths {
            // An inline module's paths count for the file's room.
            let from = (0..=room.len())
                .rev()
                .map(|n| room[..n].to_vec())
                .find(|r| rooms.contains(r))
                .expect("a room");
            for p in paths {
                if let Some(to) = target(&rooms, &reexports, p) {
                    // A module naming its own ancestor's items or its own children's
                    // declarations is no arrow when it is itself.
                    if to != from {
                        arrows.entry(from.clone()).or_default().insert(to);
                    }
                }
            }
        }
    }
    Graph {
        rooms,
        arrows,
        reexports,
    }
}

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

fn name(r: &Room) -> String {
    r.join("::")
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

/// Every path that names `krate` in the Rust files under `dir` (test code and macro
/// bodies included), with the file it is in.
fn paths_into(krate: &str, dir: &Path) -> Vec<(PathBuf, Vec<String>)> {
    /// Collects the paths of one file that start with the crate's name.
    struct Into<'k> {
        krate: &'k str,
        found: Vec<Vec<String>>,
    }
    impl Into<'_> {
        /// Paths written inside a macro's tokens: `a::b::c` as identifiers and `::`.
        fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
            let mut path: Vec<String> = Vec::new();
            let mut colons = 0;
            for tt in tokens {
                match tt {
                    proc_macro2::TokenTree::Ident(i) if path.is_empty() || colons == 2 => {
                        path.push(i.to_string());
                        colons = 0;
                    }
                    proc_macro2::TokenTree::Punct(p) if p.as_char() == ':' && !path.is_empty() => {
                        colons += 1;
                    }
                    other => {
                        self.push(std::mem::take(&mut path));
                        colons = 0;
                        match other {
                            proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                            proc_macro2::TokenTree::Ident(i) => path.push(i.to_string()),
                            _ => {}
                        }
                    }
                }
            }
            self.push(path);
        }
        fn push(&mut self, path: Vec<String>) {
            if path.len() > 1 && path[0] == self.krate {
                self.found.push(path);
            }
        }
    }
    impl<'ast> Visit<'ast> for Into<'_> {
        fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
            let mut leaves = Vec::new();
            Reader::leaves(&u.tree, &mut Vec::new(), &mut leaves);
            for (segs, _) in leaves {
                self.push(segs);
            }
        }
        fn visit_path(&mut self, p: &'ast syn::Path) {
            self.push(p.segments.iter().map(|s| s.ident.to_string()).collect());
            syn::visit::visit_path(self, p);
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            self.tokens(m.tokens.clone());
            syn::visit::visit_macro(self, m);
        }
    }
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut all = Vec::new();
    files(dir, &mut all);
    let mut out = Vec::new();
    for file in all {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let mut into = Into {
            krate,
            found: Vec::new(),
        };
        into.visit_file(&ast);
        out.extend(into.found.into_iter().map(|p| (file.clone(), p)));
    }
    out
}

/// The paths under `dirs` that reach past `krate`'s front door, one line each.
fn past_the_door(g: &Graph, krate: &str, dirs: &[&str]) -> (usize, Vec<String>) {
    let door = g
        .reexports
        .get(&vec![krate.to_string()])
        .cloned()
        .unwrap_or_default();
    let mut checked = 0;
    let mut past = BTreeSet::new();
    for dir in dirs {
        for (file, path) in paths_into(krate, &workspace().join(dir)) {
            checked += 1;
            let file = file
                .strip_prefix(workspace())
                .unwrap_or(&file)
                .to_path_buf();
            let shown = format!("{}: {}", file.display(), path.join("::"));
            if !door.contains_key(&path[1]) {
                past.insert(format!(
                    "{shown} (`{}` is not re-exported by lib.rs)",
                    path[1]
                ));
                continue;
            }
            // What the path names through the door; it may name items of the room the
            // door's name stands for (or the item it is), never a module below that room.
            let mut through = door[&path[1]].clone();
            let depth = through.len();
            through.extend(path[2..].iter().cloned());
            let deepest_room = (1..=through.len())
                .rev()
                .find(|&n| g.rooms.contains(&through[..n]))
                .unwrap_or(0);
            if deepest_room > depth {
                past.insert(format!("{shown} (a module below `{}`)", path[1]));
            }
        }
    }
    (checked, past.into_iter().collect())
}

#[test]
fn no_crate_reaches_past_a_front_door() {
    let g = graph();
    let above_the_engine = [
        "crates/kinrow-server",
        "crates/kinrow-lab",
        "src",
        "tests",
        "benches",
    ];
    let above_the_server = ["src", "tests", "benches"];
    for (krate, dirs, at_least) in [
        ("kinrow_engine", &above_the_engine[..], 200),
        ("kinrow_server", &above_the_server[..], 20),
    ] {
        let (checked, past) = past_the_door(&g, krate, dirs);
        // Enough paths that a broken reader cannot pass as a house with no doors used.
        assert!(checked >= at_least, "{krate}: only {checked} paths read");
        assert!(
            past.is_empty(),
            "paths past {krate}'s front door (re-export the name at its lib.rs):\n{}",
            past.join("\n")
        );
    }
}

/// The packages of the workspace, each with its folder; the root package's folders are
/// `src`, `tests` and `benches` (the others hold no Rust).
const PACKAGES: [(&str, &[&str]); 6] = [
    ("kinrow", &["src", "tests", "benches"]),
    ("kinrow-game", &["crates/kinrow-game"]),
    ("kinrow-engine", &["crates/kinrow-engine"]),
    ("kinrow-server", &["crates/kinrow-server"]),
    ("kinrow-lab", &["crates/kinrow-lab"]),
    ("kinrow-fixtures", &["crates/kinrow-fixtures"]),
];

/// Every `include_str!`/`include_bytes!` with the file it resolves to, and every
/// `#[path]` module, in the Rust files under `dir`.
fn embeds_under(dir: &Path) -> (Vec<(PathBuf, PathBuf)>, Vec<PathBuf>) {
    struct Embeds<'f> {
        file: &'f Path,
        includes: Vec<(PathBuf, PathBuf)>,
        path_modules: Vec<PathBuf>,
    }
    impl<'ast> Visit<'ast> for Embeds<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            let name = m.path.segments.last().map(|s| s.ident.to_string());
            if matches!(name.as_deref(), Some("include_str" | "include_bytes")) {
                let lit: syn::LitStr = m.parse_body().unwrap_or_else(|e| {
                    panic!(
                        "{:?}: an include of no plain string literal: {e}",
                        self.file
                    )
                });
                let to = self.file.parent().expect("a folder").join(lit.value());
                self.includes.push((self.file.to_path_buf(), to));
            }
            syn::visit::visit_macro(self, m);
        }
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            if m.attrs.iter().any(|a| a.path().is_ident("path")) {
                self.path_modules.push(self.file.to_path_buf());
            }
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
            let path = entry.expect("an entry").path();
            if path.is_dir() && !path.ends_with("node_modules") {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut all = Vec::new();
    files(dir, &mut all);
    let (mut includes, mut path_modules) = (Vec::new(), Vec::new());
    for file in all {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let mut embeds = Embeds {
            file: &file,
            includes: Vec::new(),
            path_modules: Vec::new(),
        };
        embeds.visit_file(&ast);
        includes.extend(embeds.includes);
        path_modules.extend(embeds.path_modules);
    }
    (includes, path_modules)
}

#[test]
fn every_crate_embeds_only_its_own_files() {
    let root = workspace().canonicalize().expect("the workspace");
    let folder_of = |path: &Path| -> Option<&'static str> {
        let path = path.strip_prefix(&root).ok()?;
        PACKAGES
            .iter()
            .find(|(_, dirs)| dirs.iter().any(|d| path.starts_with(d)))
            .map(|(name, _)| *name)
            // The root package owns what no crate's folder holds (openapi/, data/...).
            .or_else(|| (!path.starts_with("crates")).then_some("kinrow"))
    };
    let (mut found, mut wrong, mut path_modules) = (0, Vec::new(), Vec::new());
    for (package, dirs) in PACKAGES {
        for dir in dirs {
            let (includes, modules) = embeds_under(&root.join(dir));
            path_modules.extend(modules);
            for (file, to) in includes {
                found += 1;
                let to = to
                    .canonicalize()
                    .unwrap_or_else(|e| panic!("{file:?} includes {to:?}: {e}"));
                if folder_of(&to) != Some(package) {
                    wrong.push(format!("{} includes {}", file.display(), to.display()));
                }
            }
        }
    }
    // The page's assets, the weights, the tables, the book, the OpenAPI document...
    assert!(found >= 20, "only {found} includes read");
    assert!(
        wrong.is_empty(),
        "includes of another crate's files (move the file into the crate that embeds it):\n{}",
        wrong.join("\n")
    );
    assert!(
        path_modules.is_empty(),
        "#[path] modules (a shared fixture goes in kinrow-fixtures):\n{:?}",
        path_modules
    );
}
