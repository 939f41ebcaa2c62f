//! Reading a move: the legal move a text names, found first among the exact
//! written forms (of the moves to the squares the text names, when that
//! suffices), then by the text's pattern. Apart from the grammar it uses.

use super::explain_illegal::explain_illegal;
use super::pattern::read_pattern;
use super::{Candidate, Explain};
use crate::errors::MoveError;
use crate::moves::Move;

/// Read `text` as one of the candidates. Exact written forms win; then
/// SAN, coordinate and Game Courier patterns.
pub(crate) fn read_move(
    text: &str,
    cands: &[Candidate],
    explain: &dyn Explain,
) -> Result<usize, MoveError> {
    read_move_with_aliases(text, cands, explain, &[])
}

/// [`read_move`] for variants whose pieces are written with more than one
/// letter (Leap Chess: the FEN's `B` and SAN's `A` both name the Alfil).
/// Each `(alias, letter)` pair makes a piece or promotion letter `alias` in
/// the text read as the candidates' `letter`.
pub(crate) fn read_move_with_aliases(
    text: &str,
    cands: &[Candidate],
    explain: &dyn Explain,
    aliases: &[(char, char)],
) -> Result<usize, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::Empty);
    }
    if let Some(i) = exact_match(t, cands) {
        return Ok(i);
    }
    let Some(mut pattern) = read_pattern(t) else {
        return Err(MoveError::Syntax {
            input: t.to_string(),
            reason: "expected a move such as “e2e4”, “Nf3”, “N g1-f3” or “P*e5”.".into(),
        });
    };
    let alias = |c: char| aliases.iter().find(|(a, _)| *a == c).map_or(c, |&(_, l)| l);
    pattern.letter = pattern.letter.map(alias);
    pattern.promotion = pattern.promotion.map(alias);
    for sq in [pattern.from, pattern.to].into_iter().flatten() {
        if !explain.on_board(sq) {
            return Err(MoveError::Illegal {
                input: t.to_string(),
                reason: format!("{sq} is not a square of this board."),
                alternatives: vec![],
            });
        }
    }
    let found: Vec<usize> = (0..cands.len())
        .filter(|&i| pattern.matches(&cands[i]))
        .collect();
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(explain_illegal(t, &pattern, cands, explain)),
        _ => {
            // Promotions left unsaid: ask which piece.
            Err(MoveError::Ambiguous {
                input: t.to_string(),
                candidates: found.iter().map(|&i| cands[i].display.clone()).collect(),
            })
        }
    }
}

/// The one candidate that `text` writes exactly (one of its forms, up to
/// spacing and a trailing `#`, `!` or `?`), if exactly one does.
pub(crate) fn exact_match(text: &str, cands: &[Candidate]) -> Option<usize> {
    let norm = normalize(text);
    let mut exact =
        (0..cands.len()).filter(|&i| cands[i].forms.iter().any(|f| normalizes_to(f, &norm)));
    match (exact.next(), exact.next()) {
        (Some(i), None) => Some(i),
        _ => None,
    }
}

/// The legal move that `text` writes exactly, found among the moves to the
/// squares the text names (and those `always` keeps, for forms that name no
/// square, such as `O-O`), with `candidates` writing the forms of those
/// only: writing every legal move's forms was most of reading a move. It
/// rests on every form of every other move naming the move's destination
/// square; moves to one square stay together, so SAN's disambiguation is
/// what it is among all. `None` when no single move is written exactly: the
/// caller then reads the text among all the moves.
pub(crate) fn exact_among_named(
    text: &str,
    legal: &[Move],
    always: impl Fn(&Move) -> bool,
    candidates: impl FnOnce(&[Move]) -> Vec<Candidate>,
) -> Option<Move> {
    let named = moves_named_in(text, legal, always)?;
    exact_match(text.trim(), &candidates(&named)).map(|i| named[i])
}

/// [`exact_among_named`] for the variants that castle: a castling's `O-O`
/// names no square, so castlings are always among the moves tried.
pub(crate) fn exact_among_named_or_castling(
    text: &str,
    legal: &[Move],
    candidates: impl FnOnce(&[Move]) -> Vec<Candidate>,
) -> Option<Move> {
    exact_among_named(text, legal, is_castling, candidates)
}

/// Whether `m` castles: the one kind of move whose forms name no square.
pub(crate) fn is_castling(m: &Move) -> bool {
    m.kind == crate::moves::MoveKind::Castle
}

/// The legal moves to the squares `text` names, and those `always` keeps:
/// `None` when that is none of them or all of them (nothing to gain over
/// reading among all).
pub(crate) fn moves_named_in(
    text: &str,
    legal: &[Move],
    always: impl Fn(&Move) -> bool,
) -> Option<Vec<Move>> {
    let named: Vec<Move> = legal
        .iter()
        .filter(|m| always(m) || m.to.is_named_in(text))
        .copied()
        .collect();
    (!named.is_empty() && named.len() < legal.len()).then_some(named)
}

fn normalize(s: &str) -> String {
    s.trim()
        .trim_end_matches(['#', '!', '?'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `normalize(form) == norm` for a `norm` that [`normalize`] wrote, without
/// writing the form's normal text: a move text is compared with every form
/// of every legal move, and those strings were most of the comparing.
fn normalizes_to(form: &str, norm: &str) -> bool {
    let mut rest = norm;
    for (i, word) in form
        .trim()
        .trim_end_matches(['#', '!', '?'])
        .split_whitespace()
        .enumerate()
    {
        if i > 0 {
            match rest.strip_prefix(' ') {
                Some(r) => rest = r,
                None => return false,
            }
        }
        match rest.strip_prefix(word) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The allocation-free comparison answers as comparing the normal
        /// texts does, for forms and move texts alike.
        #[test]
        fn normalizes_to_is_comparing_normal_texts(
            form in "[ a-e1-4#!?Nx=+-]{0,12}",
            text in "[ a-e1-4#!?Nx=+-]{0,12}",
        ) {
            let norm = normalize(&text);
            prop_assert_eq!(normalizes_to(&form, &norm), normalize(&form) == norm);
            prop_assert!(normalizes_to(&text, &norm));
        }
    }
}
