//! Game records: PGN and Game Courier-style logs, read and written, and
//! checked move by move with the rules.
//!
//! PGN follows the export format (seven-tag roster first, `Variant`,
//! `SetUp`/`FEN` for custom starts). Moves are written in the variant's
//! display notation unless that form contains characters PGN reserves, in
//! which case the coordinate form is used. A move's `//` comment becomes a
//! `{...}` comment; a time stamp becomes `{[%ts 2026-11-23T10:00:00Z]}`.
//!
//! The Game Courier log has one ply per line: `1. P e2-e4`, `1... p e7-e5 //
//! comment`, after header lines `// Key: value`.
//!
//! Each format's reader has its own file (`pgn_read`, `gc_log_read`), and
//! both writers share `write`; what they all share (the record, its errors,
//! move numbers and results) and the rules check are here.

mod gc_log_read;
mod pgn_read;
mod write;

pub use gc_log_read::parse_gc_log;
pub use pgn_read::parse_pgn;
pub use write::{pgn_move_text, tag_value, write_gc_log, write_pgn, write_pgn_as_written, Export};

use crate::game::{Game, ReplayError};
use crate::variant::Variant;
use std::fmt;

/// One move of a record, as text, with its comment and time stamp.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordMove {
    pub text: String,
    pub comment: Option<String>,
    /// ISO 8601 time stamp, if the record carries one.
    pub time: Option<String>,
}

/// A game record before it is checked against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Header tags in order (PGN tags, or the log's `// Key: value` lines).
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// The result token at the end of the movetext (`1-0`, `*`...).
    pub result: Option<String>,
}

impl Record {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
    pub fn set_tag(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((key.to_string(), value)),
        }
    }
    /// The variant id named by the `Variant` tag (`chess` when absent or
    /// a standard-chess name).
    pub fn variant_id(&self) -> String {
        match self.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
            None => "chess".into(),
            Some(v)
                if v.is_empty()
                    || v == "standard"
                    || v == "chess"
                    || v == "fide"
                    || v == "normal" =>
            {
                "chess".into()
            }
            Some(v) => v.replace(' ', "-"),
        }
    }
    /// The custom start position, if any.
    pub fn start_fen(&self) -> Option<&str> {
        self.tag("FEN").filter(|f| !f.trim().is_empty())
    }
}

/// Why a record cannot be read or does not follow the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a record (with a line number, 1-based).
    Syntax { line: usize, message: String },
    /// The record names a variant the server does not know.
    UnknownVariant(String),
    /// The start position or a move breaks the rules.
    Illegal(ReplayError),
    /// The result in the record disagrees with how the game ended.
    ResultMismatch { recorded: String, actual: String },
    /// The record has more plies than [`MAX_PLIES`].
    TooLong { plies: usize, max: usize },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, message } => write!(f, "line {line}: {message}"),
            RecordError::UnknownVariant(v) => write!(f, "unknown variant “{v}”"),
            RecordError::Illegal(e) => write!(f, "{e}"),
            RecordError::ResultMismatch { recorded, actual } => {
                write!(
                    f,
                    "the record says {recorded}, but the moves end with {actual}"
                )
            }
            RecordError::TooLong { plies, max } => {
                write!(f, "the record has {plies} plies; at most {max} are checked")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Longest record text accepted.
pub const MAX_RECORD_LEN: usize = 8 * 1024 * 1024;

/// Most plies a record may have to be checked (and so imported): checking
/// is linear in the plies, and this bounds the work one record can ask for.
pub const MAX_PLIES: usize = 10_000;

const TIME_STAMP: &str = "[%ts ";

/// The command annotation marking a move the server played from a
/// conditional line (`{[%missive conditional]}` in PGN, after `//` in a
/// log): a mark of the record, not words of the player's, so reading a
/// record drops it from the move's comment.
pub const CONDITIONAL_MARK: &str = "[%missive conditional]";

fn is_result(w: &str) -> bool {
    matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// `12.` / `12...` / `12.e4` → the rest after the number; `None` if not numbered.
fn strip_move_number(w: &str) -> Option<&str> {
    let digits = w.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || !w[digits..].starts_with('.') {
        return None;
    }
    Some(w[digits..].trim_start_matches('.'))
}

/// Read a record in either format (PGN when it has tags or no `1. X a1-b2`
/// shaped lines; the first game of a PGN file).
pub fn parse_any(text: &str) -> Result<Record, RecordError> {
    // A log has one numbered ply per line, in Game Courier form (`P e2-e4`,
    // `P*e5`, parts joined by `;`); PGN movetext puts several moves on a line.
    let one_ply = |l: &str| {
        let rest = strip_move_number(crate::notation::split_comment(l).0).unwrap_or("");
        let words: Vec<&str> = rest.split_whitespace().collect();
        let is_square_pair = |w: &str| {
            w.split_once('-').is_some_and(|(a, b)| {
                crate::geometry::Square::parse(a).is_some()
                    && crate::geometry::Square::parse(b).is_some()
            })
        };
        words.len() <= 1 || rest.contains(';') || (words.len() == 2 && is_square_pair(words[1]))
    };
    let looks_gc = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .all(|l| {
            l.starts_with("//") || is_result(l) || (strip_move_number(l).is_some() && one_ply(l))
        });
    if looks_gc && !text.trim_start().starts_with('[') {
        let rec = parse_gc_log(text)?;
        if rec.moves.is_empty() && rec.tags.is_empty() && rec.result.is_none() {
            return Err(RecordError::Syntax {
                line: 1,
                message: "no game found".into(),
            });
        }
        Ok(rec)
    } else {
        Ok(parse_pgn(text)?.remove(0))
    }
}

/// Check a record with the rules: the variant, the start position, every
/// move, and the recorded result against how the moves end.
pub fn check(
    rec: &Record,
    lookup: impl Fn(&str) -> Option<&'static dyn Variant>,
) -> Result<Game, RecordError> {
    let id = rec.variant_id();
    let variant = lookup(&id).ok_or(RecordError::UnknownVariant(id))?;
    if rec.moves.len() > MAX_PLIES {
        return Err(RecordError::TooLong {
            plies: rec.moves.len(),
            max: MAX_PLIES,
        });
    }
    let texts: Vec<&str> = rec.moves.iter().map(|m| m.text.as_str()).collect();
    let game = Game::replay(variant, rec.start_fen(), &texts).map_err(RecordError::Illegal)?;
    if let (Some(recorded), Some(outcome)) = (rec.result.as_deref(), game.outcome()) {
        if recorded != "*" && recorded != outcome.result_code() {
            return Err(RecordError::ResultMismatch {
                recorded: recorded.to_string(),
                actual: format!("{} ({})", outcome.result_code(), outcome.describe(variant)),
            });
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_any_tells_logs_from_pgn() {
        let pgn = parse_any("1. f3 e5\n2. g4 Qh4#\n0-1\n").unwrap();
        assert_eq!(pgn.moves.len(), 4);
        let pgn = parse_any("1. e4 e5 2. Nf3 *").unwrap();
        assert_eq!(pgn.moves.len(), 3);
        let log = parse_any("1. P e2-e4\n1... p e7-e5; // x\n2. N*e5\n").unwrap();
        assert_eq!(log.moves[0].text, "P e2-e4");
        assert_eq!(log.moves.len(), 3);
        assert!(parse_any("").is_err());
    }
}
