//! The module map of docs/architecture.md ("Module map") against the tree:
//! every file and folder under `src/` is named there by its path, and every
//! `src/` path named there exists. Reads the files as text: nothing here
//! runs the server.

use std::collections::BTreeSet;
use std::path::Path;

const DOC: &str = "docs/architecture.md";
const SECTION: &str = "## Module map";

/// Every `src/...` path named in backticks in the section: a file as
/// `src/game/play.rs`, a folder as `src/game/`.
fn named_in_map(doc: &str) -> BTreeSet<String> {
    let start = doc
        .find(SECTION)
        .unwrap_or_else(|| panic!("{DOC} has no {SECTION:?} section"));
    let body = &doc[start + SECTION.len()..];
    // The section runs to the next heading of the same level.
    let body = match body.find("\n## ") {
        Some(end) => &body[..end],
        None => body,
    };
    body.split('`')
        .skip(1)
        .step_by(2)
        // `src/` itself is the tree's root, named in prose.
        .filter(|s| s.starts_with("src/") && *s != "src/")
        .map(str::to_string)
        .collect()
}

/// Every file and folder under `src/`, written as the map writes them.
fn in_tree(root: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                out.insert(format!("{rel}/"));
                stack.push(path);
            } else {
                out.insert(rel);
            }
        }
    }
    out
}

fn listed(paths: &[&String]) -> String {
    let lines: Vec<&str> = paths.iter().map(|s| s.as_str()).collect();
    lines.join("\n    ")
}

#[test]
fn the_module_map_names_every_file_under_src_and_nothing_else() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join(DOC)).expect(DOC);
    let named = named_in_map(&doc);
    let tree = in_tree(root);
    let missing: Vec<&String> = tree.difference(&named).collect();
    let extra: Vec<&String> = named.difference(&tree).collect();
    let mut report = String::new();
    if !missing.is_empty() {
        report.push_str(&format!(
            "\n  in src/ but not in the map (add a line \"- `PATH`: what it does\" under its folder):\n    {}",
            listed(&missing)
        ));
    }
    if !extra.is_empty() {
        report.push_str(&format!(
            "\n  named in the map but not in src/ (remove or rename its line):\n    {}",
            listed(&extra)
        ));
    }
    assert!(
        report.is_empty(),
        "{DOC}, section {SECTION:?}, is out of step with src/:{report}"
    );
}

/// The reader itself: paths in backticks inside the section count, paths
/// outside it and other code spans do not.
#[test]
fn the_map_reader_takes_the_section_paths_only() {
    let doc = "# T\n`src/outside.rs`\n## Module map\nUnder `src/`:\n- `src/a/`: x `per_backend!`\n  - `src/a/b.rs`: y\n## Next\n`src/after.rs`\n";
    let named = named_in_map(doc);
    assert_eq!(
        named.into_iter().collect::<Vec<_>>(),
        vec!["src/a/".to_string(), "src/a/b.rs".to_string()]
    );
}
