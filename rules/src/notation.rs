//! Notation shared by all variants: comments, SAN-style and coordinate
//! writing, and one reader that understands SAN, coordinates and Game
//! Courier forms by matching what it reads against the legal moves.
//!
//! Syntax errors (the text is not a move in any form) are kept apart from
//! meaning errors (a well-formed move the rules forbid), and the latter say
//! why and list what the named piece may do.

use crate::errors::MoveError;
use crate::geometry::Square;
use crate::moves::Move;

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

/// SAN without check marks: `Nbd2`, `exd5`, `e8=Q`, `O-O`, `N@e5`.
pub(crate) fn san(cands: &[Candidate], i: usize) -> String {
    let c = &cands[i];
    if let Some(king_side) = c.castle {
        return if king_side {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let mut s = String::new();
    if c.drop {
        s.push(c.letter);
        s.push('@');
        s.push_str(&c.to.name());
        return s;
    }
    let from = c.from.expect("a board move has an origin");
    if c.pawn {
        if c.capture {
            s.push((b'a' + from.file()) as char);
        }
    } else {
        s.push(c.letter);
        let rivals: Vec<Square> = cands
            .iter()
            .filter(|o| {
                !o.drop
                    && o.castle.is_none()
                    && !o.pawn
                    && o.letter == c.letter
                    && o.to == c.to
                    && o.from != c.from
            })
            .filter_map(|o| o.from)
            .collect();
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|r| r.file() != from.file());
            let rank_unique = rivals.iter().all(|r| r.rank() != from.rank());
            if file_unique {
                s.push((b'a' + from.file()) as char);
            } else if rank_unique {
                s.push_str(&(from.rank() + 1).to_string());
            } else {
                s.push_str(&from.name());
            }
        }
    }
    if c.capture {
        s.push('x');
    }
    s.push_str(&c.to.name());
    if let Some(p) = c.promotion {
        s.push('=');
        s.push(p);
    }
    s
}

/// What the reader made of the text.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
struct Pattern {
    letter: Option<char>,
    from: Option<Square>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Option<Square>,
    drop: bool,
    promotion: Option<char>,
    castle: Option<bool>,
    /// Whether the text said which piece a pawn becomes.
    said_promotion: bool,
}

impl Pattern {
    fn matches(&self, c: &Candidate) -> bool {
        if let Some(k) = self.castle {
            return c.castle == Some(k);
        }
        if self.drop != c.drop {
            return false;
        }
        if let Some(l) = self.letter {
            if c.letter != l && !(c.castle.is_some() && self.from.is_some()) {
                return false;
            }
        } else if !self.drop && self.from.is_none() && !c.pawn {
            return false;
        }
        if self.from.is_some() && self.from != c.from {
            return false;
        }
        if let Some(f) = self.from_file {
            if c.from.map(|s| s.file()) != Some(f) {
                return false;
            }
        }
        if let Some(r) = self.from_rank {
            if c.from.map(|s| s.rank()) != Some(r) {
                return false;
            }
        }
        if self.to.is_some() && self.to != Some(c.to) {
            return false;
        }
        if self.said_promotion && self.promotion != c.promotion {
            return false;
        }
        true
    }
}

fn square_at_end(s: &str) -> Option<(Square, &str)> {
    // A square is a file letter and one or two digits.
    let bytes = s.as_bytes();
    let n = bytes.len();
    for digits in [2usize, 1] {
        if n > digits
            && bytes[n - digits..].iter().all(|b| b.is_ascii_digit())
            && bytes[n - digits - 1].is_ascii_lowercase()
        {
            if let Some(sq) = Square::parse(&s[n - digits - 1..]) {
                return Some((sq, &s[..n - digits - 1]));
            }
        }
    }
    None
}

fn parse_label(label: &str) -> Option<char> {
    let l = label.trim().trim_start_matches('+');
    let mut chars = l.chars();
    let c = chars.next()?;
    if c.is_ascii_alphabetic() && chars.next().is_none() {
        Some(c.to_ascii_uppercase())
    } else {
        None
    }
}

/// Read `text` as one of the move patterns; `None` if it fits no grammar.
fn read_pattern(text: &str) -> Option<Pattern> {
    let t = text.trim();
    let plain = t.trim_end_matches(['#', '!', '?', '+']);
    match plain {
        "O-O" | "0-0" => {
            return Some(Pattern {
                castle: Some(true),
                ..Default::default()
            })
        }
        "O-O-O" | "0-0-0" => {
            return Some(Pattern {
                castle: Some(false),
                ..Default::default()
            })
        }
        _ => {}
    }
    // Game Courier: parts joined by ';'; `LABEL from-to`, `from-to`, `LABEL*sq`.
    if t.contains('-') || t.contains('*') || t.contains(';') {
        let mut p = Pattern::default();
        for (i, part) in t.split(';').map(str::trim).enumerate() {
            if let Some((label, sq)) = part.split_once('*') {
                let sq = Square::parse(sq.trim())?;
                let letter = parse_label(label)?;
                if i == 0 {
                    p.drop = true;
                    p.letter = Some(letter);
                    p.to = Some(sq);
                } else {
                    if p.to != Some(sq) {
                        return None;
                    }
                    p.promotion = Some(letter);
                    p.said_promotion = true;
                }
            } else if let Some((left, right)) = part.split_once('-') {
                if i > 0 {
                    return None;
                }
                let (label, from) = match left.trim().rsplit_once(' ') {
                    Some((l, f)) => (Some(parse_label(l)?), f),
                    None => (None, left.trim()),
                };
                p.letter = label;
                p.from = Some(Square::parse(from.trim())?);
                p.to = Some(Square::parse(right.trim())?);
            } else {
                return None;
            }
        }
        return Some(p);
    }
    // Drops in SAN style: `N@e5`.
    if let Some((label, sq)) = plain.split_once('@') {
        return Some(Pattern {
            drop: true,
            letter: Some(parse_label(label)?),
            to: Some(Square::parse(sq)?),
            ..Default::default()
        });
    }
    // Coordinates: `g1f3`, `e7e8q`, `e7e8=Q`.
    let coord = plain.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '=');
    let suffix = &plain[coord.len()..];
    if let Some((to, rest)) = square_at_end(coord) {
        if let Some((from, "")) = square_at_end(rest) {
            let mut p = Pattern {
                from: Some(from),
                to: Some(to),
                ..Default::default()
            };
            let promo = suffix.trim_start_matches('=');
            if !promo.is_empty() {
                p.promotion = Some(parse_label(promo)?);
                p.said_promotion = true;
            }
            return Some(p);
        }
    }
    // SAN: [Piece][file][rank][x]square[=Promo]
    let (body, promo) = match plain.split_once('=') {
        Some((b, pr)) => (b, Some(pr)),
        None => {
            let b = plain.trim_end_matches(|c: char| c.is_ascii_uppercase());
            let pr = &plain[b.len()..];
            (b, (!pr.is_empty()).then_some(pr))
        }
    };
    let (to, mut rest) = square_at_end(body)?;
    let mut p = Pattern {
        to: Some(to),
        ..Default::default()
    };
    if let Some(pr) = promo {
        p.promotion = Some(parse_label(pr)?);
        p.said_promotion = true;
    }
    rest = rest.strip_suffix(['x', ':']).unwrap_or(rest);
    let mut chars = rest.chars().peekable();
    if let Some(&c) = chars.peek() {
        if c.is_ascii_uppercase() {
            p.letter = Some(c);
            chars.next();
        }
    }
    let rest: String = chars.collect();
    if !rest.is_empty() {
        if let Some(sq) = Square::parse(&rest) {
            p.from = Some(sq);
        } else {
            let mut cs = rest.chars();
            let first = cs.next()?;
            let tail: String = cs.collect();
            if first.is_ascii_lowercase() {
                p.from_file = Some(first as u8 - b'a');
                if !tail.is_empty() {
                    return None;
                }
            } else if first.is_ascii_digit() {
                let r: u8 = rest.parse().ok()?;
                if r == 0 {
                    return None;
                }
                p.from_rank = Some(r - 1);
            } else {
                return None;
            }
        }
    }
    Some(p)
}

/// How a variant explains a well-formed move that is not legal.
pub(crate) trait Explain {
    /// Name of the piece on a square from the mover's view, for messages
    /// ("Knight"); `None` when the square is empty or not on the board.
    fn piece_on(&self, sq: Square) -> Option<(bool, String)>;
    /// Why the mover may not move from `from` to `to` (when both are known).
    fn why_not(&self, from: Option<Square>, to: Option<Square>) -> Option<String>;
    /// Whether `sq` is a playable square of the board.
    fn on_board(&self, sq: Square) -> bool;
    /// Name of a piece type by its upper-case letter.
    fn piece_name(&self, letter: char) -> String;
}

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

fn explain_illegal(
    input: &str,
    p: &Pattern,
    cands: &[Candidate],
    explain: &dyn Explain,
) -> MoveError {
    let illegal = |reason: String, mut alternatives: Vec<String>| {
        alternatives.sort();
        alternatives.dedup();
        MoveError::Illegal {
            input: input.to_string(),
            reason,
            alternatives,
        }
    };
    if p.castle.is_some() {
        let side = if p.castle == Some(true) {
            "king-side"
        } else {
            "queen-side"
        };
        return illegal(
            explain
                .why_not(None, None)
                .map(|w| format!("castling {side} is not possible: {w}"))
                .unwrap_or(format!("castling {side} is not possible now.")),
            vec![],
        );
    }
    if p.drop {
        let letter = p.letter.unwrap_or('?');
        let name = explain.piece_name(letter);
        let drops: Vec<String> = cands
            .iter()
            .filter(|c| c.drop && c.letter == letter)
            .map(|c| c.display.clone())
            .collect();
        if drops.is_empty() {
            return illegal(
                format!("you have no {name} that can be dropped now."),
                vec![],
            );
        }
        let why = explain
            .why_not(None, p.to)
            .unwrap_or_else(|| format!("a {name} cannot be dropped there."));
        return illegal(why, drops);
    }
    if let Some(from) = p.from {
        let own: Vec<String> = cands
            .iter()
            .filter(|c| c.from == Some(from))
            .map(|c| c.display.clone())
            .collect();
        return match explain.piece_on(from) {
            None => illegal(format!("there is no piece on {from}."), vec![]),
            Some((false, name)) => illegal(
                format!("the {name} on {from} is not yours to move."),
                vec![],
            ),
            Some((true, name)) => {
                if let (Some(l), false) = (p.letter, own.is_empty()) {
                    if cands.iter().any(|c| c.from == Some(from) && c.letter != l) {
                        return illegal(
                            format!(
                                "the piece on {from} is a {name}, not a {}.",
                                explain.piece_name(l)
                            ),
                            own,
                        );
                    }
                }
                let to_ok: Vec<&Candidate> = cands
                    .iter()
                    .filter(|c| c.from == Some(from) && Some(c.to) == p.to)
                    .collect();
                if !to_ok.is_empty() && p.said_promotion {
                    let options: Vec<String> = to_ok.iter().map(|c| c.display.clone()).collect();
                    return illegal(
                        format!("the {name} cannot become that piece here."),
                        options,
                    );
                }
                let why = explain.why_not(Some(from), p.to);
                let reason = match (why, p.to, own.is_empty()) {
                    (Some(w), _, _) => w,
                    (None, _, true) => format!("the {name} on {from} has no legal move."),
                    (None, Some(to), false) => format!("the {name} on {from} cannot go to {to}."),
                    (None, None, false) => format!("the {name} on {from} cannot move like that."),
                };
                illegal(reason, own)
            }
        };
    }
    // SAN with a piece letter (or a pawn) and a destination.
    let letter = p.letter;
    let pawn_move = letter.is_none();
    let name = letter
        .map(|l| explain.piece_name(l))
        .unwrap_or_else(|| "pawn".into());
    let same_kind: Vec<String> = cands
        .iter()
        .filter(|c| {
            !c.drop
                && c.castle.is_none()
                && if pawn_move {
                    c.pawn
                } else {
                    Some(c.letter) == letter && !c.pawn
                }
        })
        .map(|c| c.display.clone())
        .collect();
    let to = p.to.map(|t| t.to_string()).unwrap_or_default();
    let reason = explain.why_not(None, p.to).unwrap_or_else(|| {
        if same_kind.is_empty() {
            format!("no {name} of yours can move now.")
        } else {
            format!("no {name} of yours can go to {to} like that.")
        }
    });
    illegal(reason, same_kind)
}

/// SAN's mark for a move whose result is `gives_check`: `+`, `#` when the
/// side checked `has_reply()` is false, else nothing.
pub(crate) fn check_mark(gives_check: bool, has_reply: impl FnOnce() -> bool) -> &'static str {
    match (gives_check, gives_check && has_reply()) {
        (false, _) => "",
        (true, true) => "+",
        (true, false) => "#",
    }
}

/// Each candidate's display form followed by the mark `mark` gives its move.
pub(crate) fn marked_displays(
    legal: &[Move],
    cands: Vec<Candidate>,
    mark: impl Fn(&Move) -> &'static str,
) -> Vec<String> {
    legal
        .iter()
        .zip(cands)
        .map(|(m, c)| {
            let mut s = c.display;
            s.push_str(mark(m));
            s
        })
        .collect()
}

/// For the variants' tests of [`exact_among_named`]: the positions of
/// `fens`, and along `games` random games of 80 plies from the start (a
/// fixed sequence), where checks, promotions, drops and crowded
/// disambiguations turn up.
#[cfg(test)]
pub(crate) fn positions_to_read_in(
    v: &dyn crate::variant::Variant,
    fens: &[&str],
    games: usize,
) -> Vec<crate::position::Position> {
    let mut out: Vec<_> = fens.iter().map(|f| v.parse_fen(f).unwrap()).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..games {
        let mut pos = v.parse_fen(v.start_fen()).unwrap();
        for _ in 0..80 {
            let legal = v.legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = v.play(&pos, &legal[(seed >> 33) as usize % legal.len()]);
            out.push(pos.clone());
        }
    }
    out
}

/// [`check_reading_among_named`] for a variant whose reader works from
/// [`Candidate`]s: `candidates` writes them for a position's legal moves,
/// and `full` reads a text among all of them as the reader did before.
#[cfg(test)]
pub(crate) fn check_candidates_read_among_named(
    v: &dyn crate::variant::Variant,
    positions: &[crate::position::Position],
    candidates: impl Fn(&crate::position::Position, &[Move]) -> Vec<Candidate>,
    always: impl Fn(&Move) -> bool,
    full: impl Fn(&crate::position::Position, &[Move], &[Candidate], &str) -> Result<Move, MoveError>,
) -> usize {
    let lists: Vec<(Vec<Move>, Vec<Candidate>)> = positions
        .iter()
        .map(|pos| {
            let legal = v.legal_moves(pos);
            let cands = candidates(pos, &legal);
            (legal, cands)
        })
        .collect();
    check_reading_among_named(
        lists.iter().map(|(legal, cands)| {
            (
                legal.clone(),
                cands.iter().map(|c| c.forms.clone()).collect(),
            )
        }),
        always,
        |p, text| v.parse_move(&positions[p], &lists[p].0, text),
        |p, text| full(&positions[p], &lists[p].0, &lists[p].1, text),
    )
}

/// For the variants' tests of [`exact_among_named`]: over `positions`
/// (each with its legal moves and their written forms, in order), every form
/// of every move that `always` does not keep names the move's destination,
/// and every form, as written, padded and marked, or spaced out, reads as
/// that move both through `parse` (the variant's reader) and through
/// `full` (reading among all the moves). Returns how many texts.
#[cfg(test)]
pub(crate) fn check_reading_among_named(
    positions: impl IntoIterator<Item = (Vec<Move>, Vec<Vec<String>>)>,
    always: impl Fn(&Move) -> bool,
    parse: impl Fn(usize, &str) -> Result<Move, MoveError>,
    full: impl Fn(usize, &str) -> Result<Move, MoveError>,
) -> usize {
    let mut checked = 0;
    for (p, (legal, forms)) in positions.into_iter().enumerate() {
        for (m, forms) in legal.iter().zip(&forms) {
            for f in forms {
                assert!(
                    always(m) || m.to.is_named_in(f),
                    "{f} does not name {}",
                    m.to
                );
                for text in [f.clone(), format!("  {f}! "), f.replace(' ', "  ")] {
                    let all = full(p, &text);
                    assert_eq!(all.as_ref(), Ok(m), "{text}");
                    assert_eq!(parse(p, &text), all, "{text}");
                    checked += 1;
                }
            }
        }
    }
    checked
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

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn patterns() {
        let p = read_pattern("Nbd2").unwrap();
        assert_eq!(
            (p.letter, p.from_file, p.to),
            (Some('N'), Some(1), Some(sq("d2")))
        );
        let p = read_pattern("exd5").unwrap();
        assert_eq!(
            (p.letter, p.from_file, p.to),
            (None, Some(4), Some(sq("d5")))
        );
        let p = read_pattern("e7e8q").unwrap();
        assert_eq!(
            (p.from, p.to, p.promotion),
            (Some(sq("e7")), Some(sq("e8")), Some('Q'))
        );
        let p = read_pattern("P e7-e8; Q*e8").unwrap();
        assert_eq!(
            (p.letter, p.from, p.to, p.promotion),
            (Some('P'), Some(sq("e7")), Some(sq("e8")), Some('Q'))
        );
        let p = read_pattern("C*e5").unwrap();
        assert!(p.drop);
        let p = read_pattern("j10j9").unwrap();
        assert_eq!((p.from, p.to), (Some(sq("j10")), Some(sq("j9"))));
        let p = read_pattern("Ng1f3").unwrap();
        assert_eq!(p.from, Some(sq("g1")));
        let p = read_pattern("R1a3").unwrap();
        assert_eq!(p.from_rank, Some(0));
        assert_eq!(read_pattern("O-O-O").unwrap().castle, Some(false));
        for bad in [
            "", "xyz", "e9e", "P e2-", "Z*", "--", ";", "Nz4", "e4-e5-e6", "é4",
        ] {
            assert!(read_pattern(bad).is_none(), "{bad}");
        }
    }
}
