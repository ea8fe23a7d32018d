//! What a crate embeds: an `include_str!`/`include_bytes!` names only files in its own
//! crate's folder, and no module is read from elsewhere with `#[path]`.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

use super::source::*;

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
