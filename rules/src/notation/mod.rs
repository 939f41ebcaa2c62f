//! Notation shared by all variants: comments, SAN-style and coordinate
//! writing, and one reader that understands SAN, coordinates and Game
//! Courier forms by matching what it reads against the legal moves.
//!
//! Syntax errors (the text is not a move in any form) are kept apart from
//! meaning errors (a well-formed move the rules forbid), and the latter say
//! why and list what the named piece may do.
//!
//! Each seam has its file: `pattern` (the grammar a move text is read by),
//! `read` (finding the legal move a text names), `explain_illegal` (why a
//! well-formed move is not legal), `marks` (a check or mate mark typed
//! after a move, held against it) and `write` (SAN and its marks); the
//! candidate a variant describes each legal move by is here, shared by all.

mod explain_illegal;
mod marks;
mod pattern;
mod read;
#[cfg(test)]
mod read_checks;
mod write;

pub(crate) use explain_illegal::Explain;
pub(crate) use marks::{check_mark_claim, split_mark};
pub(crate) use read::{
    exact_among_named, exact_among_named_or_castling, moves_named_in, read_move,
    read_move_with_aliases,
};
// Outside this module, only the variants' tests ask what castles.
#[cfg(test)]
pub(crate) use read::is_castling;
#[cfg(test)]
pub(crate) use read_checks::{
    check_candidates_read_among_named, check_reading_among_named, positions_to_read_in,
};
pub(crate) use write::{check_mark, marked_displays, san, with_san_displays};

use crate::geometry::Square;

/// Split `text` at the first `//` into the move and its comment.
pub(crate) fn split_comment(text: &str) -> (&str, Option<&str>) {
    match text.find("//") {
        Some(i) => (&text[..i], Some(&text[i + 2..])),
        None => (text, None),
    }
}

/// What a reader needs to know of one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Square left (none for drops).
    pub from: Option<Square>,
    /// Square the moving piece ends on.
    pub to: Square,
    /// Upper-case letter of the moving (or dropped) piece.
    pub letter: char,
    /// Whether SAN omits the letter (pawns).
    pub pawn: bool,
    pub capture: bool,
    pub drop: bool,
    /// Letter of the piece after promotion (upper case), if any.
    pub promotion: Option<char>,
    /// `Some(true)` king-side castling, `Some(false)` queen-side.
    pub castle: Option<bool>,
    /// The move's written forms (matched exactly, before any structure).
    pub forms: Vec<String>,
    /// The form shown to people in alternatives.
    pub display: String,
}
