//! Queries beside their rows (issue 67): outside `src/db/`, no file names
//! the diesel schema or diesel itself; the use cases, the mail, the jobs
//! and the handlers call `db::` functions. A file's test module (from its
//! `#[cfg(test)]` on) may build rows by hand.

use std::path::{Path, PathBuf};

/// What marks a file as querying the database itself.
const QUERYING: &[&str] = &["db::schema", "diesel::", "use diesel"];

/// The files under `src` outside `db/` that query the database, with what
/// gave them away.
fn querying_files(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("db") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let shipped = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: String = shipped
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            for mark in QUERYING {
                if code.contains(mark) {
                    let rel = path.strip_prefix(src).unwrap().display();
                    found.push(format!("src/{rel} ({mark})"));
                    break;
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_file_outside_db_queries_the_database() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = querying_files(&src);
    assert!(
        found.is_empty(),
        "these files query the database themselves; move the queries to src/db/ beside their rows:\n  {}",
        found.join("\n  ")
    );
}

/// The check itself: a planted query in a use case and in a handler is
/// found; one in `db/`, in a comment or in a test module is not.
#[test]
fn the_check_finds_a_planted_query() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "game/resign.rs",
            "use crate::db::schema::games;\nfn f() {}\n",
        ),
        (
            "web/routes/page.rs",
            "fn f(c: &mut C) { diesel::sql_query(\"SELECT 1\"); }\n",
        ),
        (
            "db/games.rs",
            "use crate::db::schema::games;\nuse diesel::prelude::*;\n",
        ),
        (
            "game/notes.rs",
            "// diesel::update once lived here\nfn f() {}\n",
        ),
        (
            "game/draw.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests { use diesel::prelude::*; }\n",
        ),
    ];
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    assert_eq!(
        querying_files(dir.path()),
        [
            "src/game/resign.rs (db::schema)",
            "src/web/routes/page.rs (diesel::)"
        ]
    );
}
