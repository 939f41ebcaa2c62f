//! Squares, files, ranks and regions as a definition writes them.

use super::ini::Entry;
use super::SpecError;
use crate::geometry::{Square, SquareSet};

/// A file as Fairy-Stockfish writes it: a letter or a 1-based number.
pub(super) fn file(e: &Entry, width: u8) -> Result<u8, SpecError> {
    let v = e.value.as_str();
    let f = match v.parse::<u8>() {
        Ok(n) if n >= 1 => Some(n - 1),
        Ok(_) => None,
        Err(_) => {
            let mut c = v.chars();
            match (c.next(), c.next()) {
                (Some(l), None) if l.is_ascii_lowercase() => Some(l as u8 - b'a'),
                _ => None,
            }
        }
    };
    f.filter(|&f| f < width).ok_or_else(|| {
        SpecError::key(
            e.line,
            &e.key,
            format_args!("names no file of the board: `{v}`"),
        )
    })
}

pub(super) fn rank(e: &Entry, height: u8) -> Result<u8, SpecError> {
    e.value
        .parse::<u8>()
        .ok()
        .filter(|&r| r >= 1 && r <= height)
        .map(|r| r - 1)
        .ok_or_else(|| {
            SpecError::key(
                e.line,
                &e.key,
                format_args!("names no rank of the board: `{}`", e.value),
            )
        })
}

/// A region: squares (`e4`), whole ranks (`*4`), whole files (`e*`).
pub(super) fn region(e: &Entry, width: u8, height: u8) -> Result<SquareSet, SpecError> {
    let mut set = SquareSet::EMPTY;
    let bad = |t: &str| {
        SpecError::key(
            e.line,
            &e.key,
            format_args!("has `{t}`, which is no square, `*N` or `x*` of the board"),
        )
    };
    for t in e.value.split_whitespace() {
        if t == "-" {
            break;
        }
        if let Some(r) = t.strip_prefix('*') {
            let r: u8 = r
                .parse()
                .ok()
                .filter(|&r| r >= 1 && r <= height)
                .ok_or_else(|| bad(t))?;
            for f in 0..width {
                set.insert(Square::new(f, r - 1));
            }
        } else if let Some(f) = t.strip_suffix('*') {
            let f = f
                .chars()
                .next()
                .filter(|c| c.is_ascii_lowercase() && f.len() == 1)
                .ok_or_else(|| bad(t))?;
            let f = f as u8 - b'a';
            if f >= width {
                return Err(bad(t));
            }
            for r in 0..height {
                set.insert(Square::new(f, r));
            }
        } else {
            let sq = Square::parse(t)
                .filter(|s| s.file() < width && s.rank() < height)
                .ok_or_else(|| bad(t))?;
            set.insert(sq);
        }
    }
    Ok(set)
}

pub(super) fn rank_set(width: u8, r: u8) -> SquareSet {
    (0..width).map(|f| Square::new(f, r)).collect()
}
