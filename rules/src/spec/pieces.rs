//! The piece keys of a definition: Fairy-Stockfish's built-in types, its
//! custom pieces and the king, each with its letter and Betza movement.

use super::betza;
use super::ini::Entry;
use super::reader::Reader;
use super::{PieceSpec, SpecError};
use crate::position::MAX_KINDS;

/// Fairy-Stockfish's built-in piece types in its own order, with their
/// movement. Types whose moves Fairy-Stockfish special-cases in code
/// are left out, so a definition using them is refused rather than
/// played differently; the soldier's and janggi cannon's special cases
/// are the engine's `soldier` and `janggi_cannon` flags.
const BUILT_IN: &[(&str, &str)] = &[
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("met", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("khon", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("dragon", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    // Janggi's cannon: a hopper; its screen and its prey may not be
    // cannons (the engine's `janggi_cannon` flag).
    ("janggiCannon", "pR"),
    // Fairy-Stockfish's soldier: forward, and sideways too from its
    // `soldierPromotionRank` on (the engine's `soldier` flag).
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    // One step straight, then two diagonally outwards, each unblocked.
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

const CUSTOM: usize = 25;

pub(super) fn is_piece_key(key: &str) -> bool {
    key == "king"
        || BUILT_IN.iter().any(|(n, _)| *n == key)
        || key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| (1..=CUSTOM).contains(&n))
}

/// The piece types a definition plays, in Fairy-Stockfish's type order,
/// with their letters and movement (`line`: the section's, for errors).
pub(super) fn read(
    r: &Reader,
    entries: &[Entry],
    line: usize,
) -> Result<Vec<PieceSpec>, SpecError> {
    // Pieces, in Fairy-Stockfish's type order, as `add_piece` and
    // `remove_piece` leave them: a letter given to one type takes it from
    // any other.
    let mut types: Vec<(String, Option<char>, String, usize)> = BUILT_IN
        .iter()
        .map(|(n, b)| (n.to_string(), None, b.to_string(), line))
        .chain((1..=CUSTOM).map(|i| (format!("customPiece{i}"), None, String::new(), line)))
        .chain(std::iter::once((
            "king".to_string(),
            None,
            "K".to_string(),
            line,
        )))
        .collect();
    for (n, l) in [
        ("pawn", 'p'),
        ("knight", 'n'),
        ("bishop", 'b'),
        ("rook", 'r'),
        ("queen", 'q'),
        ("king", 'k'),
    ] {
        if let Some(t) = types.iter_mut().find(|t| t.0 == n) {
            t.1 = Some(l);
        }
    }
    for i in 0..types.len() {
        let Some(e) = r.get(&types[i].0) else {
            continue;
        };
        let mut chars = e.value.chars();
        match chars.next() {
            Some(c) if c.is_ascii_alphabetic() => {
                let c = c.to_ascii_lowercase();
                let twice = entries.iter().find(|o| {
                    o.key != e.key
                        && is_piece_key(&o.key)
                        && o.value.chars().next().map(|l| l.to_ascii_lowercase()) == Some(c)
                });
                if let Some(o) = twice {
                    let later = if o.line > e.line { o } else { e };
                    return Err(SpecError::key(
                        later.line,
                        &later.key,
                        format_args!(
                            "uses the letter `{c}`, which `{}` uses too",
                            if later.key == e.key { &o.key } else { &e.key }
                        ),
                    ));
                }
                for t in types.iter_mut() {
                    if t.1 == Some(c) {
                        t.1 = None;
                    }
                }
                types[i].1 = Some(c);
                types[i].3 = e.line;
                let rest = chars.as_str();
                if types[i].0 == "king" && !rest.is_empty() {
                    // A royal piece with its own movement (`king = k:N`,
                    // Fairy-Stockfish's custom royal).
                    let b = rest.strip_prefix(':').ok_or_else(|| {
                        SpecError::key(e.line, &e.key, "needs `letter` or `letter:Betza`")
                    })?;
                    types[i].2 = b.to_string();
                } else if types[i].0.starts_with("customPiece") {
                    let b = rest
                        .strip_prefix(':')
                        .ok_or_else(|| SpecError::key(e.line, &e.key, "needs `letter:Betza`"))?;
                    if b.contains('e') {
                        return Err(SpecError::key(
                            e.line,
                            &e.key,
                            "en passant (`e`) for a custom piece is not supported by this engine",
                        ));
                    }
                    types[i].2 = b.to_string();
                } else if !rest.is_empty() {
                    return Err(SpecError::key(
                        e.line,
                        &e.key,
                        format_args!("takes a letter alone here, not `{}`", e.value),
                    ));
                }
            }
            Some('-') => types[i].1 = None,
            _ => {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!("must be a letter or `-`, not `{}`", e.value),
                ))
            }
        }
    }
    let mut pieces = Vec::new();
    for (n, letter, b, l) in types {
        let Some(letter) = letter else { continue };
        let movement = betza::parse(&b).map_err(|err| SpecError::at(l, err.0))?;
        pieces.push(PieceSpec {
            pawn: n == "pawn",
            king: n == "king",
            soldier: n == "soldier",
            janggi_cannon: n == "janggiCannon",
            synonym: None,
            name: n,
            letter,
            betza: b,
            movement,
        });
    }
    if pieces.len() > MAX_KINDS {
        return Err(SpecError::at(
            line,
            format!(
                "{} piece types; at most {MAX_KINDS} are supported",
                pieces.len()
            ),
        ));
    }
    Ok(pieces)
}
