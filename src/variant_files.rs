//! `MISSIVE_VARIANTS_DIR`: variants from definition files alone. Every
//! `*.ini` file in the directory (Fairy-Stockfish's `variants.ini` syntax)
//! is read at start, in name order, and each section becomes a variant
//! offered beside the built-in ones; no code change is needed to add one.
//! A file the rules engine refuses stops the start with its name and line,
//! so a mistake is found when it is made, not when someone picks the game.

use anyhow::anyhow;
use std::path::{Path, PathBuf};

/// Read every `*.ini` file of `dir` into the variant list; the ids added.
pub fn load(dir: &Path) -> anyhow::Result<Vec<&'static str>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        anyhow!(
            "MISSIVE_VARIANTS_DIR {}: cannot read the directory: {e}",
            dir.display()
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ini") && p.is_file())
        .collect();
    files.sort();
    let mut ids = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| anyhow!("{}: cannot read the file: {e}", file.display()))?;
        let added = missive_rules::add_definitions(&text).map_err(|e| {
            anyhow!(
                "{}: {e}; correct the definition or move the file out of MISSIVE_VARIANTS_DIR",
                file.display()
            )
        })?;
        ids.extend(added);
    }
    Ok(ids)
}
