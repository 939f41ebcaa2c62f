//! The house's shape (docs/architecture.md, "The layer rule"): every `crate::` path in
//! `src/` points to a layer at or below its own, and no two files import
//! each other, however indirectly; the same holds in the rules crate
//! (`rules/src`), where no two folders import each other either. Reads the
//! source as text: nothing here runs the server.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: the first path segment of a module (its folder
/// or file under `src/`) decides its layer. A module imports only from its
/// own layer or lower ones.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["util", "config", "metrics", "variant_files"]),
    ("domain", &["domain"]),
    ("db", &["db"]),
    // The use cases, in one order: a game's end is announced
    // (`game::finish`'s listeners, wired in `lib.rs`), so `game` never names
    // the ratings or tournaments that hear of it.
    ("posted variants", &["posted"]),
    ("ratings", &["ratings"]),
    ("game", &["game"]),
    ("clocks", &["clocks"]),
    ("tournaments", &["tournaments"]),
    ("accounts", &["accounts"]),
    ("mail", &["mail", "push"]),
    ("jobs", &["jobs"]),
    ("web", &["web"]),
    (
        "entry",
        &[
            "",
            "app",
            "main",
            "rules_cli",
            "user_cli",
            "variant_cli",
            "tournament_cli",
            "mail_in",
            "populate",
        ],
    ),
];

fn layer_of(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|(_, tops)| tops.contains(&top))
}

/// A source file by module path (`game::play`; the crate root is "").
struct Source {
    module: String,
    text: String,
}

fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

fn sources(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = strip_comments(&std::fs::read_to_string(&path).unwrap());
                out.push(Source {
                    module: module_of(src, &path),
                    text,
                });
            }
        }
    }
    out.sort_by(|a, b| a.module.cmp(&b.module));
    out
}

/// The text without comments and string literals, so a path named in
/// prose or a message is not taken for an import.
fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'r' && b.get(i + 1) == Some(&b'#') && b.get(i + 2) == Some(&b'"') {
            i += 3;
            while i + 1 < b.len() && !(b[i] == b'"' && b[i + 1] == b'#') {
                i += 1;
            }
            i += 2;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A char literal such as '"' (a lifetime has no closing quote).
            i += 3;
        } else {
            let ch = text[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Every path a file names that starts at the crate (`crate::`, and in the
/// binary `missive::`) or is relative to it (`super::`, `self::` in a `use`),
/// written out from the crate root. `use` trees are expanded.
fn paths_named(module: &str, text: &str, root_names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let resolve = |path: &str| -> Option<String> {
        let mut segs: Vec<&str> = path.split("::").map(str::trim).collect();
        let mut base: Vec<&str> = if module.is_empty() {
            Vec::new()
        } else {
            module.split("::").collect()
        };
        match segs.first().copied() {
            Some(s) if root_names.contains(&s) => {
                segs.remove(0);
                Some(segs.join("::"))
            }
            Some("super") => {
                while segs.first() == Some(&"super") {
                    segs.remove(0);
                    base.pop()?;
                }
                base.extend(segs);
                Some(base.join("::"))
            }
            Some("self") => {
                segs.remove(0);
                base.extend(segs);
                Some(base.join("::"))
            }
            _ => None,
        }
    };
    // `use` statements, trees expanded.
    let mut rest = text;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let Some(end) = after.find(';') else { break };
        for p in expand_use(after[..end].trim()) {
            // `use super::*` is the idiom of an inline test module, whose
            // `super` is the file's own module, not its parent.
            if p == "super" {
                continue;
            }
            if let Some(r) = resolve(&p) {
                out.push(r);
            }
        }
        rest = &after[end..];
    }
    // Paths in expressions and types: `crate::a::b::f(...)`.
    for root in root_names {
        let needle = format!("{root}::");
        let mut rest = text;
        while let Some(at) = find_word(rest, &needle[..needle.len() - 2]) {
            let after = &rest[at..];
            if !after[root.len()..].starts_with("::") {
                rest = &rest[at + root.len()..];
                continue;
            }
            let len = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(after.len());
            let mut path = after[..len].trim_end_matches(':');
            // A called path ends in a function, never a module: the rules
            // crate's `crate::variant("chess")` calls the root's `variant`,
            // not the module of that name.
            if after[len..].starts_with('(') {
                path = path.rsplit_once("::").map_or(path, |(head, _)| head);
            }
            // `crate::{...}` is a use tree, read above.
            if let Some(r) = resolve(path).filter(|r| !r.is_empty()) {
                out.push(r);
            }
            rest = &rest[at + len.max(1)..];
        }
    }
    out
}

/// Where `word` starts in `text` as a whole word.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let word_char = |c: char| c.is_alphanumeric() || c == '_';
        if !before.is_some_and(word_char) && !after.is_some_and(word_char) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// `a::{b, c::{d, e}}` into `a::b`, `a::c::d`, `a::c::e` (aliases and
/// globs dropped, `self` in a group meaning the group's prefix).
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    expand_into("", &tree, &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim().trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let prefix = join(prefix, head);
        for part in split_top(inner) {
            if part.trim() == "self" {
                out.push(prefix.clone());
            } else if !part.trim().is_empty() {
                expand_into(&prefix, &part, out);
            }
        }
    } else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        let path = path.trim_end_matches("::*");
        if !path.is_empty() && path != "*" {
            out.push(join(prefix, path));
        }
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}::{b}"),
    }
}

/// Split at commas outside braces.
fn split_top(s: &str) -> Vec<String> {
    let (mut depth, mut cur, mut out) = (0, String::new(), Vec::new());
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// The module a path lands in: its longest prefix that is a source file.
fn target<'a>(path: &str, modules: &'a BTreeSet<String>) -> Option<&'a String> {
    let segs: Vec<&str> = path.split("::").collect();
    (0..=segs.len())
        .rev()
        .find_map(|n| modules.get(&segs[..n].join("::")))
}

/// The server's binary: `main.rs` and the modules it declares, which name
/// the library as `missive::`.
const SERVER_BINARY: &[&str] = &["main", "rules_cli", "user_cli"];

/// Module -> the modules it names (not itself). `binary` lists the modules
/// that name the library by its crate name (`missive::`) as well as
/// `crate::`; the rules crate has none.
fn graph(sources: &[Source], binary: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    sources
        .iter()
        .map(|s| {
            let in_binary = binary.contains(&s.module.as_str());
            let roots: &[&str] = if in_binary {
                &["crate", "missive"]
            } else {
                &["crate"]
            };
            let deps = paths_named(&s.module, &s.text, roots)
                .iter()
                .filter_map(|p| target(p, &modules))
                .filter(|t| **t != s.module)
                .cloned()
                .collect();
            (s.module.clone(), deps)
        })
        .collect()
}

/// Imports that point up a layer, as "from -> to".
fn upward(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut bad = Vec::new();
    for (from, deps) in graph {
        let Some(lf) = layer_of(from) else {
            bad.push(format!("{from}: in no layer (add it to LAYERS)"));
            continue;
        };
        for to in deps {
            match layer_of(to) {
                Some(lt) if lt > lf => bad.push(format!(
                    "{from} ({}) imports {to} ({})",
                    LAYERS[lf].0, LAYERS[lt].0
                )),
                _ => {}
            }
        }
    }
    bad
}

/// The import cycles: strongly connected sets of more than one module.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative over a small graph.
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a str) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            let g = self.g;
            for w in g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut scc = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    scc.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if scc.len() > 1 {
                    scc.sort();
                    self.out.push(scc);
                }
            }
        }
    }
    let mut t = T {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

/// The folder graph: each module grouped by its first path segment (its
/// folder, or its file at the top: `game::play` and `game` are both
/// `game`), folder -> the other folders its modules name.
fn folders(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let folder = |module: &str| module.split("::").next().unwrap_or("").to_string();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, deps) in graph {
        let f = folder(from);
        let named = out.entry(f.clone()).or_default();
        named.extend(deps.iter().map(|d| folder(d)).filter(|t| *t != f));
    }
    out
}

/// The cycles, one a line, for a failed assertion (the crate root shows
/// as `(root)`).
fn listed(found: &[Vec<String>]) -> String {
    found
        .iter()
        .map(|c| {
            c.iter()
                .map(|m| if m.is_empty() { "(root)" } else { m.as_str() })
                .collect::<Vec<_>>()
                .join(" <-> ")
        })
        .collect::<Vec<_>>()
        .join("\n  ")
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The rules crate (`missive-rules`), whose root is named `crate` only.
fn rules_src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join("src")
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let g = graph(&sources(&src_dir()), SERVER_BINARY);
    let bad = upward(&g);
    assert!(
        bad.is_empty(),
        "imports that point up (docs/architecture.md, \"The layer rule\"):\n  {}",
        bad.join("\n  ")
    );
}

#[test]
fn no_import_cycle_in_src() {
    let g = graph(&sources(&src_dir()), SERVER_BINARY);
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "modules that import each other:\n  {}",
        listed(&found)
    );
}

/// No two folders (`game`, `clocks`...) import each other in `src/` either.
#[test]
fn no_import_cycle_between_folders_in_src() {
    let g = folders(&graph(&sources(&src_dir()), SERVER_BINARY));
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "folders that import each other:\n  {}",
        listed(&found)
    );
}

#[test]
fn no_import_cycle_in_rules() {
    let g = graph(&sources(&rules_src_dir()), &[]);
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "rules modules that import each other:\n  {}",
        listed(&found)
    );
}

#[test]
fn no_import_cycle_between_folders_in_rules() {
    let g = folders(&graph(&sources(&rules_src_dir()), &[]));
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "rules folders that import each other:\n  {}",
        listed(&found)
    );
}

/// A scratch source tree of `(path, text)` files, for the check's own tests.
fn planted(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The check itself: a planted upward import (the domain naming the web
/// layer, a use case naming a job, the game naming the tournaments above
/// it) and a planted cycle are found, in every way a path can be written.
#[test]
fn the_check_finds_a_planted_upward_import_and_cycle() {
    let dir = planted(&[
        (
            "lib.rs",
            "pub mod domain; pub mod web; pub mod game; pub mod jobs; pub mod tournaments;",
        ),
        ("domain/mod.rs", "pub mod error;"),
        (
            "domain/error.rs",
            "// crate::web::Page in a comment is no import\nuse crate::{web::{self, Page}};\n",
        ),
        (
            "web/mod.rs",
            "pub struct Page; fn f() { let s = \"crate::jobs::x\"; }",
        ),
        ("game/mod.rs", "pub mod play; pub mod finish;"),
        ("game/play.rs", "use super::finish::end;\npub fn play() {}"),
        (
            "game/finish.rs",
            "pub fn end() { crate::game::play::play(); crate::jobs::run(); }",
        ),
        ("jobs/mod.rs", "pub fn run() {}"),
        (
            "game/resign.rs",
            "pub fn resign() { crate::tournaments::withdrawal::on_game_end(); }",
        ),
        ("tournaments/mod.rs", "pub mod withdrawal;"),
        (
            "tournaments/withdrawal.rs",
            "use crate::game::finish::end;\npub fn on_game_end() {}",
        ),
    ]);
    let src = dir.path();
    let g = graph(&sources(src), SERVER_BINARY);
    let up = upward(&g);
    assert_eq!(
        up,
        vec![
            "domain::error (domain) imports web (web)".to_string(),
            "game::finish (game) imports jobs (jobs)".to_string(),
            "game::resign (game) imports tournaments::withdrawal (tournaments)".to_string(),
        ],
        "{g:#?}"
    );
    assert_eq!(
        cycles(&g),
        vec![vec!["game::finish".to_string(), "game::play".to_string()]]
    );
    // Comments and strings name no module.
    assert!(!g["web"].contains("jobs"), "{g:#?}");
}

/// The folder check: two folders whose files name each other with no file
/// cycle between them (`game::play` names `clocks::state`,
/// `clocks::forfeit` names `game::finish`) are a folder cycle; a folder's
/// files naming each other are not; a root function called by name
/// (`crate::clocks()`) is not the module of that name.
#[test]
fn the_check_finds_a_planted_folder_cycle() {
    let dir = planted(&[
        (
            "lib.rs",
            "pub mod game; pub mod clocks; pub mod db; pub fn clocks() {}",
        ),
        ("game/mod.rs", "pub mod play; pub mod finish;"),
        (
            "game/play.rs",
            "use crate::clocks::state::left;\nuse super::finish::end;",
        ),
        ("game/finish.rs", "pub fn end() { crate::db::save(); }"),
        ("clocks/mod.rs", "pub mod state; pub mod forfeit;"),
        ("clocks/state.rs", "pub fn left() {}"),
        (
            "clocks/forfeit.rs",
            "pub fn forfeit() { crate::game::finish::end(); }",
        ),
        ("db.rs", "pub fn save() { crate::clocks(); }"),
    ]);
    let src = dir.path();
    let g = graph(&sources(src), &[]);
    assert!(cycles(&g).is_empty(), "{g:#?}");
    let f = folders(&g);
    assert_eq!(
        cycles(&f),
        vec![vec!["clocks".to_string(), "game".to_string()]],
        "{f:#?}"
    );
    assert!(!f["game"].contains("game"), "{f:#?}");
    assert_eq!(f["db"], BTreeSet::new());
}
