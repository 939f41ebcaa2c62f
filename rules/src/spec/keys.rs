//! The keys of a definition and what each sets, with Fairy-Stockfish's
//! defaults (FIDE chess) for everything not set.

use super::ini::Entry;
use super::reader::Reader;
use super::squares::{file, rank, rank_set, region};
use super::{Regions, Spec, SpecError, Value, MAX_FILES, MAX_RANKS};
use crate::geometry::{Square, SquareSet};

/// Keys read as they are, each with the one meaning it has in Fairy-Stockfish.
const SETTINGS: &[&str] = &[
    "variantTemplate",
    "pieceToCharTable",
    "pocketSize",
    "maxRank",
    "maxFile",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionRank",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "doubleStepRank",
    "doubleStepRankMin",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingRookPieces",
    "castlingKingPiece",
    "castlingRookKingsideFile",
    "castlingRookQueensideFile",
    "checking",
    "pieceDrops",
    "capturesToHand",
    "firstRankPawnDrops",
    "promotionZonePawnDrops",
    "dropRegionWhite",
    "dropRegionBlack",
    "whiteDropRegion",
    "blackDropRegion",
    "mustCapture",
    "stalemateValue",
    "checkmateValue",
    "extinctionValue",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "whiteFlag",
    "blackFlag",
    "flagMove",
    "nMoveRule",
    "nFoldRule",
    "nFoldValue",
    // Repetition rules: the server's repetition handling reads
    // `nFoldRule`/`nFoldValue` only; see `Generic::repetition_rule`.
    "nFoldValueAbsolute",
    "perpetualCheckIllegal",
    "checkCounting",
    "flagPieceSafe",
    "extinctionClaim",
    "extinctionOpponentPieceCount",
    "stalematePieceCount",
    "countingRule",
    "makpongRule",
    "promotionLimit",
    "extinctionPseudoRoyal",
    "blastOnCapture",
    "blastImmuneTypes",
    "mutuallyImmuneTypes",
    "materialCounting",
    "moveRepetitionIllegal",
    "dropLoop",
    "shatarMateRule",
    "chess960",
    "mustDrop",
    "dropOppositeColoredBishop",
    "castlingDroppedPiece",
];

/// Missive's key for the name players see ("Capablanca chess"); the
/// section's own, never a template's.
pub(super) const DISPLAY_NAME: &str = "displayName";
/// The longest display name.
const DISPLAY_NAME_MAX: usize = 60;

/// The spec of variant `name` (section at `line`) from its entries and
/// its templates'.
pub(super) fn build(name: &str, line: usize, entries: &[Entry]) -> Result<Spec, SpecError> {
    for e in entries {
        if !super::pieces::is_piece_key(&e.key)
            && !SETTINGS.contains(&e.key.as_str())
            && !super::shogi::KEYS.contains(&e.key.as_str())
            && !super::xiangqi::KEYS.contains(&e.key.as_str())
            && !super::xiangqi::is_mobility_key(&e.key)
            && e.key != DISPLAY_NAME
        {
            return Err(SpecError::key(
                e.line,
                &e.key,
                "is not supported by this engine",
            ));
        }
    }
    let r = Reader { entries };
    let display_name = match r.get(DISPLAY_NAME) {
        None => None,
        Some(e) => {
            let v = e.value.trim();
            if v.is_empty()
                || v.chars().count() > DISPLAY_NAME_MAX
                || v.chars().any(char::is_control)
            {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!("must be a name of 1 to {DISPLAY_NAME_MAX} characters"),
                ));
            }
            Some(v.to_string())
        }
    };
    let height = r.int("maxRank", 8, 99)? as u8;
    // maxFile is a file (letter or number) in Fairy-Stockfish.
    let width = match r.get("maxFile") {
        Some(e) => file(e, 26)? + 1,
        None => 8,
    };
    if width > MAX_FILES || height > MAX_RANKS || width < 1 || height < 1 {
        let e = r.get("maxFile").or(r.get("maxRank"));
        return Err(SpecError::at(
            e.map_or(line, |e| e.line),
            format!("the board is {width}x{height}; at most {MAX_FILES}x{MAX_RANKS} is supported"),
        ));
    }

    let mut pieces = super::pieces::read(&r, entries, line)?;
    let kinds = |key: &str| -> Result<Option<Vec<u8>>, SpecError> {
        let Some(e) = r.get(key) else { return Ok(None) };
        let mut out = Vec::new();
        for c in e.value.chars().filter(|c| !c.is_whitespace()) {
            if c == '-' {
                break;
            }
            if c == '*' {
                // Fairy-Stockfish's ALL_PIECES: every piece of a side together.
                out.push(u8::MAX);
                continue;
            }
            let k = pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_lowercase())
                .ok_or_else(|| {
                    SpecError::key(
                        e.line,
                        key,
                        format_args!("names `{c}`, which is no piece of this variant"),
                    )
                })?;
            out.push(k as u8);
        }
        Ok(Some(out))
    };
    let one_kind = |key: &str| -> Result<Option<Option<u8>>, SpecError> {
        Ok(kinds(key)?.map(|v| v.first().copied()))
    };

    let regions =
        |white: &[&str], black: &[&str], default: Regions| -> Result<Regions, SpecError> {
            let mut out = default;
            for (side, keys) in [(0, white), (1, black)] {
                for k in keys {
                    if let Some(e) = r.get(k) {
                        out[side] = region(e, width, height)?;
                    }
                }
            }
            Ok(out)
        };
    let everything: SquareSet = (0..height)
        .flat_map(|rk| (0..width).map(move |f| Square::new(f, rk)))
        .collect();

    let mut promotion_region = regions(
        &["promotionRegionWhite"],
        &["promotionRegionBlack"],
        [rank_set(width, 7.min(height - 1)), rank_set(width, 0)],
    )?;
    if let Some(e) = r.get("promotionRank") {
        let pr = rank(e, height)?;
        promotion_region = [
            (pr..height)
                .flat_map(|rk| (0..width).map(move |f| Square::new(f, rk)))
                .collect(),
            (0..height - pr)
                .flat_map(|rk| (0..width).map(move |f| Square::new(f, rk)))
                .collect(),
        ];
    }
    let mut promotion_types = [Vec::new(), Vec::new()];
    let default_promo: Vec<u8> = ["queen", "rook", "bishop", "knight"]
        .iter()
        .filter_map(|n| pieces.iter().position(|p| p.name == *n).map(|i| i as u8))
        .collect();
    for (side, keys) in [
        (0usize, ["promotionPieceTypes", "promotionPieceTypesWhite"]),
        (1, ["promotionPieceTypes", "promotionPieceTypesBlack"]),
    ] {
        promotion_types[side] = default_promo.clone();
        for k in keys {
            if let Some(v) = kinds(k)? {
                promotion_types[side] = v;
            }
        }
    }

    let mut promotion_limit = vec![0u8; pieces.len()];
    if let Some(e) = r.get("promotionLimit") {
        for item in e.value.split_whitespace() {
            let bad = || {
                SpecError::key(
                    e.line,
                    "promotionLimit",
                    format_args!("`{item}` is not `letter:count` for a piece of this variant"),
                )
            };
            let (letter, n) = item.split_once(':').ok_or_else(bad)?;
            let mut chars = letter.chars();
            let (Some(l), None) = (chars.next(), chars.next()) else {
                return Err(bad());
            };
            let k = pieces
                .iter()
                .position(|p| p.letter == l.to_ascii_lowercase())
                .ok_or_else(bad)?;
            promotion_limit[k] = n.trim().parse().map_err(|_| bad())?;
        }
    }

    let mut double_step_region = regions(
        &["doubleStepRegionWhite"],
        &["doubleStepRegionBlack"],
        [rank_set(width, 1), rank_set(width, 6.min(height - 1))],
    )?;
    if r.get("doubleStepRank").is_some() || r.get("doubleStepRankMin").is_some() {
        let e = r
            .get("doubleStepRank")
            .or(r.get("doubleStepRankMin"))
            .expect("one is set");
        return Err(SpecError::key(
            e.line,
            &e.key,
            "is not supported by this engine (use doubleStepRegionWhite/Black)",
        ));
    }
    if !r.bool("doubleStep", true)? {
        double_step_region = [SquareSet::EMPTY; 2];
    }
    let mut en_passant_region = [everything; 2];
    if let Some(e) = r.get("enPassantRegion") {
        let s = region(e, width, height)?;
        en_passant_region = [s, s];
    }
    en_passant_region = regions(
        &["enPassantRegionWhite"],
        &["enPassantRegionBlack"],
        en_passant_region,
    )?;

    let castling_kingside_file = match r.get("castlingKingsideFile") {
        Some(e) => file(e, width)?,
        None => 6,
    };
    let castling_queenside_file = match r.get("castlingQueensideFile") {
        Some(e) => file(e, width)?,
        None => 2,
    };
    let castling_king = match one_kind("castlingKingPiece")? {
        Some(k) => k,
        None => pieces.iter().position(|p| p.king).map(|i| i as u8),
    };
    let castling_rook_files = [
        match r.get("castlingRookKingsideFile") {
            Some(e) => file(e, width)?,
            None => width - 1,
        },
        match r.get("castlingRookQueensideFile") {
            Some(e) => file(e, width)?,
            None => 0,
        },
    ];
    let castling_rank = match r.get("castlingRank") {
        Some(e) => rank(e, height)?,
        None => 0,
    };
    let castling_rooks = kinds("castlingRookPieces")?.unwrap_or_else(|| {
        pieces
            .iter()
            .position(|p| p.name == "rook")
            .map(|i| vec![i as u8])
            .unwrap_or_default()
    });

    let drop_region = regions(
        &["dropRegionWhite", "whiteDropRegion"],
        &["dropRegionBlack", "blackDropRegion"],
        [everything; 2],
    )?;
    let flag_region = {
        let mut f = [SquareSet::EMPTY; 2];
        if let Some(e) = r.get("flagRegion") {
            let s = region(e, width, height)?;
            f = [s, s];
        }
        regions(
            &["flagRegionWhite", "whiteFlag"],
            &["flagRegionBlack", "blackFlag"],
            f,
        )?
    };
    let mut flag_piece = [None, None];
    for (side, k) in [(0, "flagPieceWhite"), (1, "flagPieceBlack")] {
        if let Some(v) = one_kind("flagPiece")? {
            flag_piece[side] = v;
        }
        if let Some(v) = one_kind(k)? {
            flag_piece[side] = v;
        }
    }

    let value_or = |key: &str, default: Option<Value>| -> Result<Option<Value>, SpecError> {
        Ok(r.value(key)?.unwrap_or(default))
    };
    let need = |key: &str, v: Option<Value>| -> Result<Value, SpecError> {
        v.ok_or_else(|| SpecError::key(r.get(key).map_or(line, |e| e.line), key, "cannot be none"))
    };
    let stalemate_value = need(
        "stalemateValue",
        value_or("stalemateValue", Some(Value::Draw))?,
    )?;
    let checkmate_value = need(
        "checkmateValue",
        value_or("checkmateValue", Some(Value::Loss))?,
    )?;
    let n_fold_value = need("nFoldValue", value_or("nFoldValue", Some(Value::Draw))?)?;
    let extinction_value = value_or("extinctionValue", None)?;
    let extinction_types = kinds("extinctionPieceTypes")?;
    let blast_immune = kinds("blastImmuneTypes")?.unwrap_or_default();
    let mutually_immune = kinds("mutuallyImmuneTypes")?.unwrap_or_default();

    let start_fen_line = r.get("startFen").map_or(line, |e| e.line);
    let start_fen = r.get("startFen").map_or(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
        |e| e.value.clone(),
    );
    if let Some(e) = r.get("pieceToCharTable") {
        if e.value != "-" {
            for c in e.value.chars().filter(|c| c.is_ascii_alphabetic()) {
                if !pieces.iter().any(|p| p.letter == c.to_ascii_lowercase()) {
                    return Err(SpecError::key(
                        e.line,
                        "pieceToCharTable",
                        format_args!("names `{c}`, which is no piece of this variant"),
                    ));
                }
            }
        }
    }
    let piece_drops = r.bool("pieceDrops", false)?;
    let pocket_size = r.int("pocketSize", 0, 99)?;
    let shogi = super::shogi::read(entries, &pieces)?;
    let xiangqi = super::xiangqi::read(entries, &mut pieces, height, &|e: &Entry| {
        region(e, width, height)
    })?;
    let check_counting = r.bool("checkCounting", false)?;
    let counting_rule = match r.get("countingRule") {
        None => None,
        Some(e) => match e.value.trim() {
            "none" => None,
            "makruk" => Some(super::CountingRule::Makruk),
            "asean" => Some(super::CountingRule::Asean),
            other => {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!(
                        "`{other}` is not supported by this engine (makruk, asean or none)"
                    ),
                ))
            }
        },
    };
    let material_counting = match r.get("materialCounting") {
        None => None,
        Some(e) => match e.value.trim() {
            "none" => None,
            "janggi" => Some(super::MaterialCounting::Janggi),
            "unweighted" => Some(super::MaterialCounting::Unweighted),
            "whitedrawodds" => Some(super::MaterialCounting::WhiteDrawOdds),
            "blackdrawodds" => Some(super::MaterialCounting::BlackDrawOdds),
            other => {
                return Err(SpecError::key(
                    e.line,
                    &e.key,
                    format_args!(
                        "`{other}` is not one of janggi, unweighted, whitedrawodds, blackdrawodds, none"
                    ),
                ))
            }
        },
    };
    let repetition_extras = r.bool("perpetualCheckIllegal", false)?
        || r.bool("nFoldValueAbsolute", false)?
        || r.bool("moveRepetitionIllegal", false)?;
    let spec = Spec {
        name: name.to_string(),
        display_name,
        width,
        height,
        start_fen: start_fen.clone(),
        start_fen_line,
        promotion_region,
        promotion_types,
        mandatory_pawn_promotion: r.bool("mandatoryPawnPromotion", true)?,
        promotion_limit,
        double_step_region,
        en_passant_region,
        castling: r.bool("castling", true)?,
        chess960: r.bool("chess960", false)?,
        castling_kingside_file,
        castling_queenside_file,
        castling_rank,
        castling_rook_files,
        castling_king,
        castling_rooks,
        checking: r.bool("checking", true)?,
        piece_drops,
        captures_to_hand: r.bool("capturesToHand", false)?,
        drop_loop: r.bool("dropLoop", false)?,
        must_drop: r.bool("mustDrop", false)?,
        drop_opposite_bishops: r.bool("dropOppositeColoredBishop", false)?,
        castling_dropped_piece: r.bool("castlingDroppedPiece", false)?,
        first_rank_pawn_drops: r.bool("firstRankPawnDrops", false)?,
        promotion_zone_pawn_drops: r.bool("promotionZonePawnDrops", false)?,
        drop_region,
        must_capture: r.bool("mustCapture", false)?,
        stalemate_value,
        checkmate_value,
        extinction_value,
        extinction_types,
        extinction_piece_count: r.int("extinctionPieceCount", 0, 64)? as u8,
        extinction_opponent_piece_count: r.int("extinctionOpponentPieceCount", 0, 64)? as u8,
        extinction_claim: r.bool("extinctionClaim", false)?,
        extinction_pseudo_royal: r.bool("extinctionPseudoRoyal", false)?,
        blast_on_capture: r.bool("blastOnCapture", false)?,
        blast_immune,
        mutually_immune,
        flag_move: r.bool("flagMove", false)?,
        flag_piece_safe: r.bool("flagPieceSafe", false)?,
        stalemate_piece_count: r.bool("stalematePieceCount", false)?,
        flag_piece,
        flag_region,
        n_move_rule: r.int("nMoveRule", 50, 1000)? as u16,
        n_fold_rule: r.int("nFoldRule", 3, 100)? as u8,
        n_fold_value,
        pockets: piece_drops || pocket_size > 0 || start_fen.contains('['),
        shogi,
        xiangqi,
        check_counting,
        repetition_extras,
        counting_rule,
        makpong: r.bool("makpongRule", false)?,
        material_counting,
        shatar_mate: r.bool("shatarMateRule", false)?,
        pieces,
    };
    let royal = spec.pieces.iter().any(|p| p.king);
    if !royal
        && spec.extinction_value.is_none()
        && spec.flag_region.iter().all(|s| s.is_empty())
        && spec.stalemate_value == Value::Draw
    {
        return Err(SpecError::at(line, format!("variant `{name}` has no king, no extinction rule and no flag region: it cannot be won")));
    }
    if spec.pieces.iter().all(|p| !p.king)
        && spec.checkmate_value != Value::Loss
        && spec.extinction_value.is_none()
    {
        return Err(SpecError::at(line, "a checkmate value needs a king"));
    }
    Ok(spec)
}
