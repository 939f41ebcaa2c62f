//! The list of variants the server offers, which grows when definition
//! text is added at start (the server's `MISSIVE_VARIANTS_DIR`): a new
//! variant needs a definition file, not a code change.
//!
//! The list is a leaked slice swapped whole under a lock, so
//! [`current`] can keep handing out `&'static` slices: lists are only
//! added to at start, a few times at most, so what is leaked is small.

use super::{definition_variants, seeds};
use crate::generic::Generic;
use crate::spec::builtin::{generic_library, generic_specs};
use crate::spec::SpecError;
use crate::variant::Variant;
use std::sync::{Mutex, OnceLock, RwLock};

type List = &'static [&'static dyn Variant];

/// The seeds, then the definition variants. A definition that changes
/// nothing of the `chess` definition (FSF's `normal`) is FIDE chess, which
/// the seed `chess` plays faster and with FIDE's dead-position rule: it is
/// not offered twice (a record tagged `normal` reads as chess).
fn base() -> Vec<&'static dyn Variant> {
    let seeds = seeds();
    let specs = generic_specs().1;
    let bare = |s: &crate::spec::Spec| {
        let mut s = s.clone();
        s.name.clear();
        s.display_name = None;
        s.start_fen_line = 0;
        format!("{s:?}")
    };
    let fide: Vec<String> = specs
        .iter()
        .filter(|s| s.name == "chess")
        .map(bare)
        .collect();
    let same_as_fide: Vec<&str> = specs
        .iter()
        .filter(|s| fide.contains(&bare(s)))
        .map(|s| s.name.as_str())
        .collect();
    let mut out = seeds.clone();
    out.extend(
        definition_variants()
            .iter()
            .copied()
            .filter(|d| !seeds.iter().any(|s| s.id() == d.id()) && !same_as_fide.contains(&d.id())),
    );
    out
}

fn list() -> &'static RwLock<List> {
    static LIST: OnceLock<RwLock<List>> = OnceLock::new();
    LIST.get_or_init(|| RwLock::new(Box::leak(base().into_boxed_slice())))
}

/// Posted variants' versions offered so far: found by id, not listed
/// among [`current`] (a posted variant may be private, and its versions
/// are one variant to players).
fn posted_list() -> &'static RwLock<List> {
    static LIST: OnceLock<RwLock<List>> = OnceLock::new();
    LIST.get_or_init(|| RwLock::new(&[]))
}

/// The posted version offered under `id`.
pub(crate) fn posted(id: &str) -> Option<&'static dyn Variant> {
    let list = *posted_list().read().unwrap_or_else(|e| e.into_inner());
    list.iter().copied().find(|v| v.id() == id)
}

/// Every variant offered now.
pub(crate) fn current() -> List {
    *list().read().unwrap_or_else(|e| e.into_inner())
}

/// The texts added so far, in order (later ones may use earlier ones'
/// sections as templates).
fn texts() -> &'static Mutex<Vec<String>> {
    static TEXTS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    TEXTS.get_or_init(Default::default)
}

/// The line of `[name` in `text` (1-based), for messages.
fn section_line(text: &str, name: &str) -> usize {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix('[')
                .and_then(|r| r.strip_prefix(name))
                .is_some_and(|r| r.starts_with([']', ':']))
        })
        .map_or(1, |i| i + 1)
}

/// Add the variants `text` defines (Fairy-Stockfish's `variants.ini`
/// syntax; templates may be any built-in definition or one added before)
/// to [`current`]; their ids are returned. The same text added again
/// changes nothing (a server started twice in one process); a name already
/// taken by another variant, a key the engine does not support or a start
/// position that does not fit is refused with its line, and then nothing
/// of `text` is added.
pub(crate) fn add(text: &str) -> Result<Vec<&'static str>, SpecError> {
    let mut texts = texts().lock().unwrap_or_else(|e| e.into_inner());
    let mut lib = generic_library();
    for earlier in texts.iter() {
        lib.add(earlier)?;
    }
    let specs = lib.add(text)?;
    let already = texts.iter().any(|t| t == text);
    let now = current();
    let mut new: Vec<&'static dyn Variant> = Vec::new();
    let mut ids = Vec::new();
    for spec in specs {
        let name = spec.name.clone();
        let line = section_line(text, &name);
        if let Some(v) = now.iter().find(|v| v.id() == name) {
            if already {
                ids.push(v.id());
                continue;
            }
            return Err(SpecError::at(
                line,
                format!("a variant named `{name}` is already offered; give this one another name"),
            ));
        }
        let start_line = spec.start_fen_line;
        let g = Generic::new(spec).map_err(|e| {
            SpecError::at(
                start_line.max(line),
                format!("the start position of `{name}` does not fit: {e}"),
            )
        })?;
        let v: &'static dyn Variant = Box::leak(Box::new(g));
        ids.push(v.id());
        new.push(v);
    }
    if !new.is_empty() {
        let mut list = list().write().unwrap_or_else(|e| e.into_inner());
        let mut grown: Vec<&'static dyn Variant> = list.to_vec();
        grown.extend(new);
        *list = Box::leak(grown.into_boxed_slice());
    }
    if !already {
        texts.push(text.to_string());
    }
    Ok(ids)
}

/// The one variant a posted definition text defines (a section whose
/// template may be any built-in definition), read but not offered: a
/// posted text is checked before it is kept. More than one section, or
/// none, is refused: a posted variant is one game.
pub(crate) fn read_one(text: &str) -> Result<crate::spec::Spec, SpecError> {
    let mut specs = generic_library().add(text)?;
    match specs.len() {
        1 => Ok(specs.remove(0)),
        0 => Err(SpecError::at(
            1,
            "no variant is defined: start with a section line such as `[mygame:chess]`",
        )),
        n => Err(SpecError::at(
            section_line(text, &specs[1].name),
            format!("{n} variants are defined; post one section (its template may be any built-in variant)"),
        )),
    }
}

/// The engine for `spec` under `id` and `name`, or why its start position
/// does not fit (with the line).
fn engine(mut spec: crate::spec::Spec, id: &str, name: &str) -> Result<Generic, SpecError> {
    let line = spec.start_fen_line.max(1);
    royals_where_mate_is_the_goal(&spec, line)?;
    spec.name = id.to_string();
    spec.display_name = Some(name.to_string());
    Generic::new(spec)
        .map_err(|e| SpecError::at(line, format!("the start position does not fit: {e}")))
}

/// Where checkmate is how a game is won (no extinction or flag rule says
/// otherwise), each side must start with a royal piece: else no game of
/// it can be won, and the engine would play one that never ends.
fn royals_where_mate_is_the_goal(spec: &crate::spec::Spec, line: usize) -> Result<(), SpecError> {
    if spec.extinction_value.is_some() || spec.flag_piece.iter().any(Option::is_some) {
        return Ok(());
    }
    let Some(king) = spec.king_kind() else {
        return Err(SpecError::at(
            line,
            "checkmate is the goal but no piece type is royal: keep the `king`, or say how else a game is won (`extinctionValue`, `flagPiece`)",
        ));
    };
    let letter = spec.pieces[king as usize].letter;
    let placement = spec.start_fen.split_whitespace().next().unwrap_or("");
    for (side, l) in [
        ("White", letter.to_ascii_uppercase()),
        ("Black", letter.to_ascii_lowercase()),
    ] {
        if !placement.contains(l) {
            return Err(SpecError::at(
                line,
                format!("{side} starts without a king (`{l}`), and checkmate is the goal: put one in the start position"),
            ));
        }
    }
    Ok(())
}

/// A posted definition as a variant under `id` and `name`, not offered:
/// what a check plays. It is leaked, so only a process that ends soon
/// (the checker) or reads a text once should call it.
pub(crate) fn read_posted(
    text: &str,
    id: &str,
    name: &str,
) -> Result<&'static dyn Variant, SpecError> {
    let g = engine(read_one(text)?, id, name)?;
    Ok(Box::leak(Box::new(g)))
}

/// Offer a posted definition under `id` (the server's key for one version
/// of a posted variant) and `name`: from now on [`posted`] finds it. The
/// same id again returns what is offered already, unread.
pub(crate) fn offer_posted(
    text: &str,
    id: &str,
    name: &str,
) -> Result<&'static dyn Variant, SpecError> {
    if let Some(v) = posted(id) {
        return Ok(v);
    }
    let g = engine(read_one(text)?, id, name)?;
    let mut list = posted_list().write().unwrap_or_else(|e| e.into_inner());
    // Another thread may have offered it while this one read the text.
    if let Some(v) = list.iter().find(|v| v.id() == id) {
        return Ok(*v);
    }
    let v: &'static dyn Variant = Box::leak(Box::new(g));
    let mut grown: Vec<&'static dyn Variant> = list.to_vec();
    grown.push(v);
    *list = Box::leak(grown.into_boxed_slice());
    Ok(v)
}
