//! What people see of a variant played from its definition, worked out
//! from the definition alone: its family, its pieces' names, a short rules
//! text and the legend's notes. Nothing here knows a variant by its name,
//! so a new definition file gets all of it without a code change.

use crate::family::Family;
use crate::geometry::{Square, SquareSet};
use crate::piece::Color;
use crate::spec::{PieceSpec, Spec, Value};

/// Where a definition belongs, from its settings: no royal piece and no
/// check (Breakthrough, Clobber), a losing goal, another goal (a region,
/// extinction), drops, the old pieces, a large board, else chess.
pub(crate) fn family(spec: &Spec) -> Family {
    let has = |name: &str| spec.pieces.iter().any(|p| p.name == name);
    if spec.king_kind().is_none() && spec.extinction_value.is_none() {
        // Nothing to mate or wipe out: a race of pawns, a capture game.
        return if spec.must_capture || spec.stalemate_value == Value::Win {
            Family::Losing
        } else {
            Family::Other
        };
    }
    let loses_to_win = spec.checkmate_value == Value::Win
        || spec.stalemate_value == Value::Win
        || spec.extinction_value == Some(Value::Win)
        || spec.must_capture;
    if loses_to_win {
        return Family::Losing;
    }
    // Pseudo-royal extinction (sho shogi, coregal, atomic) is won by mate.
    if spec.flag_piece.iter().any(Option::is_some)
        || (spec.extinction_value.is_some() && !spec.extinction_pseudo_royal)
    {
        return Family::Goals;
    }
    // Shogi's promotion (a piece turning into another type in the zone)
    // and xiangqi's confinement (palace, own half) mark those families
    // before drops and board size do.
    if spec.shogi.promoted.iter().any(Option::is_some) {
        return Family::Shogi;
    }
    if spec.pieces.iter().any(|p| p.soldier)
        || spec
            .xiangqi
            .mobility
            .iter()
            .any(|m| m.iter().any(Option::is_some))
    {
        return Family::Xiangqi;
    }
    if spec.piece_drops {
        return Family::Drops;
    }
    if !has("queen") && (has("fers") || has("alfil") || has("met") || has("khon")) {
        return Family::Chaturanga;
    }
    if spec.width > 8 || spec.height > 8 {
        return Family::LargeBoard;
    }
    Family::Chess
}

/// A standard piece's name for a movement written in Betza's notation,
/// where it has one.
fn standard_name(betza: &str) -> Option<&'static str> {
    Some(match betza {
        "K" => "Commoner",
        "Q" => "Queen",
        "R" => "Rook",
        "B" => "Bishop",
        "N" => "Knight",
        "F" => "Ferz",
        "W" => "Wazir",
        "A" => "Alfil",
        "D" => "Dabbabah",
        "C" | "L" => "Camel",
        "Z" | "J" => "Zebra",
        "BN" | "NB" => "Archbishop",
        "RN" | "NR" => "Chancellor",
        "QN" | "NQ" => "Amazon",
        "NN" => "Nightrider",
        "gQ" => "Grasshopper",
        "KN" | "NK" => "Centaur",
        "WF" | "FW" => "Commoner",
        _ => return None,
    })
}

/// The name players see: Fairy-Stockfish's piece type in words
/// (`archbishop` → Archbishop, `shogiPawn` → Shogi pawn); a custom piece
/// by what it moves as (`customPiece1 = a:NB` → Archbishop), else by its
/// letter (Fairy piece A).
pub(crate) fn piece_name(p: &PieceSpec) -> String {
    if p.king {
        return "King".into();
    }
    if p.pawn {
        return "Pawn".into();
    }
    if let Some(rest) = p.name.strip_prefix("customPiece") {
        if rest.chars().all(|c| c.is_ascii_digit()) {
            return match standard_name(&p.betza) {
                Some(n) => n.to_string(),
                None => format!("Fairy piece {}", p.letter.to_ascii_uppercase()),
            };
        }
    }
    match p.name.as_str() {
        "fers" => return "Ferz".into(),
        "dabbaba" => return "Dabbabah".into(),
        _ => {}
    }
    // camelCase to words, the first upper case.
    let mut out = String::new();
    for (i, c) in p.name.chars().enumerate() {
        if i == 0 {
            out.push(c.to_ascii_uppercase());
        } else if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Ranks (1-based, as written) that hold squares of `set`, from White's side.
fn ranks_of(set: &SquareSet) -> Vec<u8> {
    let mut r: Vec<u8> = set.iter().map(|s| s.rank() + 1).collect();
    r.sort_unstable();
    r.dedup();
    r
}

fn ranks_text(ranks: &[u8]) -> String {
    match ranks {
        [] => "nowhere".into(),
        [r] => format!("rank {r}"),
        [a, .., b] if (*b - *a) as usize + 1 == ranks.len() => format!("ranks {a}–{b}"),
        _ => format!(
            "ranks {}",
            ranks
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Names of `kinds`, joined (`Queen, Rook, Bishop or Knight`).
fn names_of(spec: &Spec, kinds: &[u8]) -> String {
    let names: Vec<String> = kinds
        .iter()
        .filter_map(|&k| spec.pieces.get(k as usize))
        .map(piece_name)
        .collect();
    match names.as_slice() {
        [] => "nothing".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn value_words(v: Value) -> &'static str {
    match v {
        Value::Win => "wins",
        Value::Loss => "loses",
        Value::Draw => "is a draw",
    }
}

/// A short rules text from the definition's settings: board, pieces and
/// how each moves (Betza's notation), pawns, castling, drops, how the game
/// ends. The legend under it draws every piece's moves.
pub(crate) fn rules_text(spec: &Spec) -> String {
    let mut paras = Vec::new();
    paras.push(format!(
        "{}, as Fairy-Stockfish defines it, on a {}×{} board. This text is written from the variant's definition; the legend below draws where each piece moves.",
        spec.name, spec.width, spec.height
    ));
    let pieces: Vec<String> = spec
        .pieces
        .iter()
        .map(|p| {
            let how = if p.pawn {
                "the pawn: steps forward, captures one step diagonally forward".to_string()
            } else {
                format!("moves as Betza {}", p.betza)
            };
            let royal = if p.king { ", royal" } else { "" };
            format!(
                "{} ({}{royal}) {how}",
                piece_name(p),
                p.letter.to_ascii_uppercase()
            )
        })
        .collect();
    paras.push(format!("Pieces: {}.", pieces.join("; ")));
    let mut pawn = Vec::new();
    if spec.pawn_kind().is_some() {
        let white = 0;
        let double = ranks_of(&spec.double_step_region[white]);
        if !double.is_empty() {
            pawn.push(format!(
                "White's pawns may step two squares from {} (Black's from the mirrored ranks)",
                ranks_text(&double)
            ));
        }
        if !spec.en_passant_region[white].is_empty() {
            pawn.push("en passant is allowed".to_string());
        }
        let promo = ranks_of(&spec.promotion_region[white]);
        if !promo.is_empty() && !spec.promotion_types[white].is_empty() {
            pawn.push(format!(
                "a pawn reaching {} promotes to {}{}",
                ranks_text(&promo),
                names_of(spec, &spec.promotion_types[white]),
                if spec.mandatory_pawn_promotion {
                    ""
                } else {
                    " (or may stay a pawn)"
                }
            ));
        }
    }
    if spec.castling && spec.chess960 {
        pawn.push("the back rank is shuffled for each game (bishops on both colours, the king between its rooks); castling puts king and rook where they go in chess, whatever their start (enter it as O-O or as the king taking its rook, e1h1)".into());
    } else if spec.castling {
        pawn.push("the king castles with a rook as in chess".into());
    } else if spec.king_kind().is_some() {
        pawn.push("there is no castling".into());
    }
    if !pawn.is_empty() {
        let mut s = pawn.join("; ");
        s[..1].make_ascii_uppercase();
        paras.push(format!("{s}."));
    }
    if spec.piece_drops {
        let mut s = String::from(if spec.captures_to_hand {
            "Captured pieces go to the captor's hand; instead of moving, a player may drop a piece from their hand on an empty square"
        } else {
            "Instead of moving, a player may drop a piece from their hand on an empty square"
        });
        if !spec.first_rank_pawn_drops {
            s.push_str(" (pawns not on the first or last rank)");
        }
        if spec.must_drop {
            s.push_str("; while a player holds pieces, they must drop one instead of moving");
        }
        if spec.drop_opposite_bishops {
            s.push_str(
                "; no drop may leave the bishops unable to stand on squares of both colours",
            );
        }
        if spec.castling_dropped_piece {
            s.push_str("; a king dropped on its file of the first rank may castle with a rook dropped in the corner");
        }
        if spec.drop_loop {
            s.push_str("; a captured promoted piece goes to hand as what it became, not as a pawn");
        }
        paras.push(format!("{s}."));
    }
    let mut end = Vec::new();
    if spec.must_capture {
        end.push("Capturing is compulsory.".to_string());
    }
    if spec.king_kind().is_some() && spec.checking {
        end.push(format!(
            "Checkmate: the mated side {}.",
            match spec.checkmate_value {
                Value::Loss => "loses",
                Value::Win => "wins",
                Value::Draw => "draws",
            }
        ));
    }
    end.push(format!(
        "A player with no legal move {} (stalemate).",
        match spec.stalemate_value {
            Value::Loss => "loses",
            Value::Win => "wins",
            Value::Draw => "draws",
        }
    ));
    if let Some(v) = spec.extinction_value {
        let what = match &spec.extinction_types {
            Some(kinds) => names_of(spec, kinds).replace(" or ", ", "),
            None => "all its pieces".into(),
        };
        end.push(format!(
            "A side that has lost {} of its {what} {} (extinction).",
            if spec.extinction_piece_count == 0 {
                "the last".to_string()
            } else {
                format!("all but {}", spec.extinction_piece_count)
            },
            match v {
                Value::Loss => "loses",
                Value::Win => "wins",
                Value::Draw => "draws",
            }
        ));
    }
    for color in [Color::White, Color::Black] {
        let c = color.index();
        if let Some(flag) = spec.flag_piece[c] {
            let squares = spec.flag_region[c]
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>();
            let region = if squares.len() <= 6 {
                squares.join(", ")
            } else {
                ranks_text(&ranks_of(&spec.flag_region[c]))
            };
            end.push(format!(
                "{} wins by bringing a {} to {region}.",
                color.name(),
                piece_name(&spec.pieces[flag as usize])
            ));
        }
    }
    if spec.n_move_rule > 0 {
        end.push(format!(
            "{} moves by each side without a capture or pawn move draw.",
            spec.n_move_rule
        ));
    }
    if spec.n_fold_rule > 0 {
        end.push(format!(
            "The {}-fold repetition of a position {}.",
            spec.n_fold_rule,
            value_words(spec.n_fold_value)
        ));
    }
    paras.push(end.join(" "));
    let special = special_rules(spec);
    if !special.is_empty() {
        paras.push(special.join(" "));
    }
    paras.push(
        "Moves may be entered in SAN as Fairy-Stockfish writes it (Nf3, Ah3, P@e4 for a drop) or in coordinates (g1f3, e7e8q); records show SAN.".into(),
    );
    paras.join("\n\n")
}

/// Sentences for the rules a definition sets beyond chess's usual keys.
fn special_rules(spec: &Spec) -> Vec<String> {
    use crate::spec::{CountingRule, MaterialCounting};
    let mut out = Vec::new();
    if spec.pieces.iter().any(|p| p.janggi_cannon) {
        out.push("The cannon moves and captures only by hopping over exactly one piece, which may not be a cannon, and it never captures a cannon.".to_string());
    }
    if !spec.xiangqi.diagonal_lines.is_empty() {
        let lines: Vec<String> = spec
            .xiangqi
            .diagonal_lines
            .iter()
            .map(|s| s.name())
            .collect();
        out.push(format!(
            "Inside the palaces, pieces also move along the diagonals through {}: the chariot slides, the cannon hops, the king and advisors step, and soldiers step diagonally forward.",
            lines.join(", ")
        ));
    }
    if spec.xiangqi.pass.iter().any(|&p| p) {
        out.push("Instead of moving, a player may pass (enter the king's move to its own square, as Ke2); passing out of check is not allowed. When both sides pass in turn the game ends.".to_string());
    }
    if spec.xiangqi.bikjang {
        out.push("Bikjang: when the kings face each other on a file with nothing between, the player to move must part them or pass; if they still face each other after that move, the game ends.".to_string());
    }
    match spec.material_counting {
        Some(MaterialCounting::Janggi) => out.push("A game that would end drawn (bikjang, passes, stalemate, the move-count rule, repetition) is won on points: chariot 13, cannon 7, horse 5, elephant 3, advisor 3, soldier 2; Black (Han) wins a tie.".to_string()),
        Some(MaterialCounting::Unweighted) => out.push("A game that would end drawn is won by the side with more pieces.".to_string()),
        Some(MaterialCounting::WhiteDrawOdds) => out.push("White has draw odds: every game that would end drawn is a win for White.".to_string()),
        Some(MaterialCounting::BlackDrawOdds) => out.push("Black has draw odds: every game that would end drawn (stalemate, the move-count rule, repetition) is a win for Black.".to_string()),
        None => {}
    }
    match spec.counting_rule {
        Some(CountingRule::Makruk) => out.push("Counting: once no pawns are left, a side reduced to its king counts the moves its opponent has to mate it (8 against two rooks, 16 against one, 22 against two khons, 32 against two knights, 44 against one khon, else 64), and with pieces on both sides the board's honour gives 64; when the count runs out the game is drawn. The count stands in the FEN after the castling field.".to_string()),
        Some(CountingRule::Asean) => out.push("Counting: once no pawns are left, a side reduced to its king counts the moves its opponent has to mate it (16 against a rook, 44 against a khon, 64 against a knight); when the count runs out the game is drawn.".to_string()),
        None => {}
    }
    if spec.shatar_mate {
        out.push("A mate given by knights alone loses for the side that gives it; a mate wins only if a check of the unbroken series of checks that led to it was given by a knight, rook or bers, else it is a draw.".to_string());
    }
    if spec.makpong {
        out.push(
            "Makpong: a king in check may not move, except to capture the piece giving check."
                .to_string(),
        );
    }
    if spec.promotion_limit.iter().any(|&n| n > 0) {
        let limits: Vec<String> = spec
            .promotion_limit
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(k, n)| format!("{} {n}", piece_name(&spec.pieces[k])))
            .collect();
        out.push(format!(
            "A pawn may promote only to a piece of which fewer than these stand on the board: {}.",
            limits.join(", ")
        ));
    }
    if spec.blast_on_capture {
        out.push("Every capture is an explosion: the capturing piece and every piece but pawns on the eight squares around are removed too.".to_string());
        if !spec.blast_immune.is_empty() {
            out.push(format!(
                "{} are not harmed by explosions.",
                names_of(spec, &spec.blast_immune)
            ));
        }
        if !spec.mutually_immune.is_empty() {
            out.push(format!(
                "A {} may not capture another.",
                names_of(spec, &spec.mutually_immune)
            ));
        }
    }
    if spec.extinction_pseudo_royal {
        if let Some(kinds) = &spec.extinction_types {
            out.push(format!(
                "While a side has only {} {} left, it may not leave one attacked{}; with no legal move and one attacked, it is mated.",
                if spec.extinction_piece_count >= 8 { "its".to_string() } else { (spec.extinction_piece_count + 1).to_string() },
                names_of(spec, kinds),
                if spec.blast_on_capture { " nor blow it up itself (kings that touch cannot capture each other)" } else { "" }
            ));
        }
    }
    out
}

/// The legend's notes: what the board shows beyond the pieces.
pub(crate) fn legend_notes(spec: &Spec) -> Vec<String> {
    let mut out = Vec::new();
    if spec.pockets {
        out.push("Pieces in hand are shown with counts above the board for the side at the top and below it for the side at the bottom; a drop is written with @ (N@f3).".into());
    }
    let flags: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .filter(|c| spec.flag_piece[c.index()].is_some())
        .map(|c| c.name().to_string())
        .collect();
    if !flags.is_empty() {
        out.push(format!(
            "{} win{} by reaching the goal squares named in the rules.",
            flags.join(" and "),
            if flags.len() == 1 { "s" } else { "" }
        ));
    }
    if !palace_lines(spec).is_empty() {
        out.push("The crossed diagonals mark each side's palace, the nine squares around their crossing, which the King never leaves.".into());
    }
    out
}

/// The palaces' diagonals, drawn on the board: each side's king region
/// when it is a 3x3 block (xiangqi, janggi and their kin), corner to
/// corner.
pub(crate) fn palace_lines(spec: &Spec) -> Vec<(Square, Square)> {
    let Some(regions) = spec
        .king_kind()
        .and_then(|k| spec.xiangqi.mobility.get(k as usize))
    else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for region in regions.iter().flatten() {
        let squares: Vec<Square> = region.iter().collect();
        let (Some(lo_f), Some(hi_f), Some(lo_r), Some(hi_r)) = (
            squares.iter().map(|s| s.file()).min(),
            squares.iter().map(|s| s.file()).max(),
            squares.iter().map(|s| s.rank()).min(),
            squares.iter().map(|s| s.rank()).max(),
        ) else {
            continue;
        };
        if squares.len() == 9 && hi_f == lo_f + 2 && hi_r == lo_r + 2 {
            lines.push((Square::new(lo_f, lo_r), Square::new(hi_f, hi_r)));
            lines.push((Square::new(hi_f, lo_r), Square::new(lo_f, hi_r)));
        }
    }
    lines
}

/// How deep `missive perft` counts from the start: boards over 64 squares
/// branch more, so one ply less (xiangqi's depth 5 is 133 million nodes,
/// about 12 s; crazyhouse's depth 6 120 million, about 6 s).
pub(crate) fn max_perft_depth(spec: &Spec) -> u32 {
    if spec.width as u32 * spec.height as u32 > 64 {
        5
    } else {
        6
    }
}
