//! Shogi-style keys: pieces that promote to another type
//! (`promotedPieceType = p:g s:g`), and back when captured or demoted, and
//! the drop rules that come with them (nifu, immobile pieces).

use super::ini::Entry;
use super::{PieceSpec, SpecError};

/// The shogi-style rules of a variant, as Fairy-Stockfish's `Variant`
/// fields of the same names.
#[derive(Clone, Debug, Default)]
pub(crate) struct ShogiRules {
    /// Index = kind: the type it promotes to in the promotion region.
    pub(crate) promoted: Vec<Option<u8>>,
    /// Promotion only on a capture (micro shogi).
    pub(crate) promotion_on_capture: bool,
    /// A piece that could promote must (into, within or out of the zone).
    pub(crate) mandatory_promotion: bool,
    /// A promoted piece may turn back (Kyoto shogi).
    pub(crate) demotion: bool,
    /// A piece may be dropped already promoted (Kyoto shogi).
    pub(crate) drop_promoted: bool,
    /// The kind that may not be dropped on a file holding `count` of them.
    pub(crate) drop_no_doubled: Option<u8>,
    pub(crate) drop_no_doubled_count: u8,
    /// No move or drop to a square the piece could never leave.
    pub(crate) immobility_illegal: bool,
    /// Mate by a dropped shogi pawn loses for the side that drops it.
    pub(crate) pawn_drop_mate_illegal: bool,
    /// Moves written in shogi notation (`variantTemplate = shogi`).
    pub(crate) notation: bool,
}

/// Keys this module reads (the caller accepts them as known).
pub(super) const KEYS: &[&str] = &[
    "promotedPieceType",
    "piecePromotionOnCapture",
    "mandatoryPiecePromotion",
    "pieceDemotion",
    "dropPromoted",
    "dropNoDoubled",
    "dropNoDoubledCount",
    "immobilityIllegal",
    "shogiPawnDropMateIllegal",
];

fn find<'a>(entries: &'a [Entry], key: &str) -> Option<&'a Entry> {
    entries.iter().find(|e| e.key == key)
}

fn kind_of(pieces: &[PieceSpec], e: &Entry, c: char) -> Result<u8, SpecError> {
    pieces
        .iter()
        .position(|p| p.letter == c.to_ascii_lowercase())
        .map(|i| i as u8)
        .ok_or_else(|| {
            SpecError::key(
                e.line,
                &e.key,
                format_args!("names `{c}`, which is no piece of this variant"),
            )
        })
}

pub(super) fn read(entries: &[Entry], pieces: &[PieceSpec]) -> Result<ShogiRules, SpecError> {
    let mut promoted = vec![None; pieces.len()];
    if let Some(e) = find(entries, "promotedPieceType") {
        for pair in e.value.split_whitespace() {
            let mut cs = pair.chars();
            let (Some(from), Some(':'), Some(to), None) =
                (cs.next(), cs.next(), cs.next(), cs.next())
            else {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!("has `{pair}`; write pairs `letter:letter` (`-` for none)"),
                ));
            };
            let k = kind_of(pieces, e, from)?;
            promoted[k as usize] = if to == '-' {
                None
            } else {
                Some(kind_of(pieces, e, to)?)
            };
        }
    }
    let drop_no_doubled = match find(entries, "dropNoDoubled") {
        None => None,
        Some(e) if e.value == "-" => None,
        Some(e) => {
            let mut cs = e.value.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Some(kind_of(pieces, e, c)?),
                _ => {
                    return Err(SpecError::key(
                        e.line,
                        &e.key,
                        "takes one piece letter or `-`",
                    ))
                }
            }
        }
    };
    let drop_no_doubled_count = match find(entries, "dropNoDoubledCount") {
        None => 1,
        Some(e) => e
            .value
            .parse::<u8>()
            .ok()
            .filter(|n| *n <= 20)
            .ok_or_else(|| SpecError::key(e.line, &e.key, "must be a number from 0 to 20"))?,
    };
    Ok(ShogiRules {
        promoted,
        promotion_on_capture: super::reader::Reader { entries }
            .bool("piecePromotionOnCapture", false)?,
        mandatory_promotion: super::reader::Reader { entries }
            .bool("mandatoryPiecePromotion", false)?,
        demotion: super::reader::Reader { entries }.bool("pieceDemotion", false)?,
        drop_promoted: super::reader::Reader { entries }.bool("dropPromoted", false)?,
        drop_no_doubled,
        drop_no_doubled_count,
        immobility_illegal: super::reader::Reader { entries }.bool("immobilityIllegal", false)?,
        pawn_drop_mate_illegal: super::reader::Reader { entries }
            .bool("shogiPawnDropMateIllegal", false)?,
        notation: find(entries, "variantTemplate").is_some_and(|e| e.value == "shogi"),
    })
}
