//! The front doors: outside a crate (and in the engine's own test binary), a path into it
//! names one of the names its `lib.rs` re-exports and goes no deeper than the room that
//! name stands for; the engine and the server declare every module private, so that the
//! face is the only way in.

use std::collections::BTreeSet;

use super::source::*;

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
    // The engine's own test binary goes through the face too (its modules are private).
    let above_the_engine = [
        "crates/kinrow-engine/tests",
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

/// The modules `lib.rs` of the crate in `dir` declares `pub`.
fn public_modules(dir: &str) -> Vec<String> {
    let lib = workspace().join(dir).join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap_or_else(|e| panic!("{lib:?}: {e}"));
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{lib:?}: {e}"));
    ast.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if !matches!(m.vis, syn::Visibility::Inherited) => {
                Some(m.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_engine_and_the_server_keep_their_modules_private() {
    for dir in ["crates/kinrow-engine", "crates/kinrow-server"] {
        let public = public_modules(dir);
        assert!(
            public.is_empty(),
            "{dir}: public modules {public:?} (make them private and re-export what the \
             crates above use at lib.rs)"
        );
    }
    // The reader sees a public module where there is one.
    assert_eq!(public_modules("crates/kinrow-game"), ["codes"]);
}
