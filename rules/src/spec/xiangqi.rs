//! Xiangqi-style keys: pieces confined to a region of the board
//! (`mobilityRegionWhiteFers = d1 e2 ...`), the soldier that moves
//! sideways once across the river (`soldierPromotionRank`), the kings
//! that may not face each other (`flyingGeneral`), and the second letters
//! Fairy-Stockfish's built-in xiangqi gives its horse and elephant.

use super::ini::Entry;
use super::{PieceSpec, SpecError};
use crate::geometry::SquareSet;

#[derive(Clone, Debug, Default)]
pub(crate) struct XiangqiRules {
    /// Index = kind: where each colour's piece of that kind may stand.
    pub(crate) mobility: Vec<[Option<SquareSet>; 2]>,
    /// Relative rank (0-based) from which a soldier also steps sideways.
    pub(crate) soldier_rank: u8,
    pub(crate) flying_general: bool,
    /// Moves also written in WXF notation (`variantTemplate = xiangqi`).
    pub(crate) wxf: bool,
    /// Janggi's palace diagonals (`diagonalLines`): on these squares the
    /// chariot, cannon, soldier, king and advisors also move diagonally,
    /// to squares of the same set.
    pub(crate) diagonal_lines: SquareSet,
    /// Whether each side may pass (janggi: the king "moves" to its own
    /// square).
    pub(crate) pass: [bool; 2],
    /// Janggi's bikjang: kings facing each other must be parted, else the
    /// game ends (drawn, or by the count).
    pub(crate) bikjang: bool,
    /// Moves also written in janggi notation (`variantTemplate = janggi`).
    pub(crate) janggi_notation: bool,
}

pub(super) const KEYS: &[&str] = &[
    "soldierPromotionRank",
    "flyingGeneral",
    "pieceSynonyms",
    "diagonalLines",
    "pass",
    "passWhite",
    "passBlack",
    "bikjangRule",
];

/// Whether `key` is a mobility-region key (checked against the pieces in [`read`]).
pub(super) fn is_mobility_key(key: &str) -> bool {
    key.starts_with("mobilityRegionWhite") || key.starts_with("mobilityRegionBlack")
}

fn capitalized(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// Reads the keys; `region` reads a region value as the other keys do.
pub(super) fn read(
    entries: &[Entry],
    pieces: &mut [PieceSpec],
    height: u8,
    region: &dyn Fn(&Entry) -> Result<SquareSet, SpecError>,
) -> Result<XiangqiRules, SpecError> {
    let mut mobility = vec![[None, None]; pieces.len()];
    for e in entries.iter().filter(|e| is_mobility_key(&e.key)) {
        let (side, name) = match e.key.strip_prefix("mobilityRegionWhite") {
            Some(n) => (0, n),
            None => (1, e.key.trim_start_matches("mobilityRegionBlack")),
        };
        let kind = pieces
            .iter()
            .position(|p| capitalized(&p.name) == name)
            .ok_or_else(|| SpecError::key(e.line, &e.key, "names no piece type of this variant"))?;
        mobility[kind][side] = Some(region(e)?);
    }
    let soldier_rank = match entries.iter().find(|e| e.key == "soldierPromotionRank") {
        None => 0,
        Some(e) => e
            .value
            .parse::<u8>()
            .ok()
            .filter(|r| (1..=height).contains(r))
            .map(|r| r - 1)
            .ok_or_else(|| SpecError::key(e.line, &e.key, "names no rank of the board"))?,
    };
    let flying_general = super::reader::Reader { entries }.bool("flyingGeneral", false)?;
    let both = super::reader::Reader { entries }.bool("pass", false)?;
    let pass = [
        super::reader::Reader { entries }.bool("passWhite", both)?,
        super::reader::Reader { entries }.bool("passBlack", both)?,
    ];
    let diagonal_lines = match entries.iter().find(|e| e.key == "diagonalLines") {
        None => SquareSet::EMPTY,
        Some(e) => region(e)?,
    };
    // Missive's key for what Fairy-Stockfish's built-in xiangqi sets in
    // code: a second letter, read in FENs and written in SAN (`n:h`).
    if let Some(e) = entries.iter().find(|e| e.key == "pieceSynonyms") {
        for pair in e.value.split_whitespace() {
            let mut cs = pair.chars();
            let (Some(l), Some(':'), Some(syn), None) =
                (cs.next(), cs.next(), cs.next(), cs.next())
            else {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!("has `{pair}`; write pairs `letter:synonym`"),
                ));
            };
            let syn = syn.to_ascii_lowercase();
            if pieces.iter().any(|p| p.letter == syn) {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!("`{syn}` is already a piece's letter"),
                ));
            }
            let p = pieces
                .iter_mut()
                .find(|p| p.letter == l.to_ascii_lowercase())
                .ok_or_else(|| {
                    SpecError::key(
                        e.line,
                        &e.key,
                        format_args!("names `{l}`, which is no piece of this variant"),
                    )
                })?;
            p.synonym = Some(syn);
        }
    }
    Ok(XiangqiRules {
        mobility,
        soldier_rank,
        flying_general,
        wxf: entries
            .iter()
            .any(|e| e.key == "variantTemplate" && e.value == "xiangqi"),
        diagonal_lines,
        pass,
        bikjang: super::reader::Reader { entries }.bool("bikjangRule", false)?,
        janggi_notation: entries
            .iter()
            .any(|e| e.key == "variantTemplate" && e.value == "janggi"),
    })
}
