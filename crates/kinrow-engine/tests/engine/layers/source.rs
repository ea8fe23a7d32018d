//! The source reader of the layer tests: each crate's module tree read with `syn` from
//! its `lib.rs` into rooms, the paths each room names, its re-exports, and the arrows
//! between rooms they make; and every path into a crate written under a folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The crates of the workspace, bottom up.
pub(super) const CRATES: [&str; 4] = [
    "kinrow_game",
    "kinrow_engine",
    "kinrow_server",
    "kinrow_lab",
];

/// A room: `kinrow_engine::search::perfect::memo`, as segments.
pub(super) type Room = Vec<String>;

struct Crate {
    name: &'static str,
    /// Every room of the crate and the file it is read from.
    rooms: BTreeMap<Room, PathBuf>,
    /// Re-exports: a room's `pub use` names -> the absolute path they stand for.
    reexports: BTreeMap<Room, BTreeMap<String, Vec<String>>>,
    /// Every path each room names, absolute.
    paths: BTreeMap<Room, BTreeSet<Vec<String>>>,
}

pub(super) fn workspace() -> PathBuf {
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

pub(super) struct Graph {
    pub(super) rooms: BTreeSet<Room>,
    pub(super) arrows: BTreeMap<Room, BTreeSet<Room>>,
    /// Every room's `pub use` names -> the absolute path each stands for.
    pub(super) reexports: BTreeMap<Room, BTreeMap<String, Vec<String>>>,
}

pub(super) fn graph() -> Graph {
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

pub(super) fn name(r: &Room) -> String {
    r.join("::")
}

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

/// Every path that names `krate` in the Rust files under `dir` (test code and macro
/// bodies included), with the file it is in.
pub(super) fn paths_into(krate: &str, dir: &Path) -> Vec<(PathBuf, Vec<String>)> {
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
