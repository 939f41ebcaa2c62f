//! Lionized Chess notation: footnote 15 (records), Game Courier, reading
//! both, and saying why a move is not legal.

use super::lionization::{bit, has_route, is_regular, reach, Lionized};
use super::*;
use crate::errors::MoveError;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, NO_SQUARE};
use crate::piece::{Kind, Piece};
use crate::position::Position;
use crate::variant::Notation;

impl LionizedChess {
    /// Footnote 15: start, any square captured where the mover did not end,
    /// end, then the (upper-case) letter of the piece a Pawn swapped with.
    pub(crate) fn footnote(m: &Move) -> String {
        let mut s = m.from.name();
        if matches!(m.kind, MoveKind::EnPassant | MoveKind::TwoLeg) {
            s.push_str(&m.extra[0].name());
        }
        s.push_str(&m.to.name());
        if let Some(p) = m.piece {
            s.push(LETTERS[p.kind as usize]);
        }
        s
    }

    /// Game Courier: `L a2-a5`, `F b6-c7; F c7-b6`, `P a7-a8; C*a8`.
    pub(super) fn game_courier(pos: &Position, m: &Move) -> String {
        let piece = pos.get(m.from).expect("a piece on the origin");
        let label = Self::cased(LETTERS[piece.kind as usize], piece.color);
        match m.kind {
            MoveKind::TwoLeg => format!(
                "{label} {}-{}; {label} {}-{}",
                m.from, m.extra[0], m.extra[0], m.to
            ),
            _ => {
                let mut s = format!("{label} {}-{}", m.from, m.to);
                if let Some(p) = m.piece {
                    s.push_str(&format!(
                        "; {}*{}",
                        Self::cased(LETTERS[p.kind as usize], p.color),
                        m.to
                    ));
                }
                s
            }
        }
    }

    pub(crate) fn format_move(&self, pos: &Position, m: &Move, notation: Notation) -> String {
        match notation {
            Notation::Coordinate | Notation::Display => Self::footnote(m),
            Notation::GameCourier => Self::game_courier(pos, m),
        }
    }

    pub(crate) fn parse_move(
        &self,
        pos: &Position,
        legal: &[Move],
        text: &str,
    ) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Empty);
        }
        // Exact written forms first.
        let norm = normalize(t);
        let exact: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                normalize(&Self::footnote(m)) == norm
                    || normalize(&Self::game_courier(pos, m)) == norm
            })
            .collect();
        if let [m] = exact.as_slice() {
            return Ok(**m);
        }
        let req = read_request(t).ok_or_else(|| MoveError::Syntax {
            input: t.to_string(),
            reason: "expected a move such as “e2e4”, “e5e7f6”, “a7a8C”, “L a2-a5” or “F b6-c7; F c7-b6”.".into(),
        })?;
        self.resolve(pos, legal, t, &req)
    }

    /// Find the legal move a reading names, or explain why there is none.
    pub(super) fn resolve(
        &self,
        pos: &Position,
        legal: &[Move],
        input: &str,
        req: &Request,
    ) -> Result<Move, MoveError> {
        let illegal = |reason: String, alternatives: Vec<String>| MoveError::Illegal {
            input: input.to_string(),
            reason,
            alternatives,
        };
        let piece = self.mover(pos, req).map_err(|r| illegal(r, vec![]))?;
        let own: Vec<String> = legal
            .iter()
            .filter(|m| m.from == req.from)
            .map(Self::footnote)
            .collect();
        let swap = Self::check_letters(req, piece).map_err(|r| illegal(r, own.clone()))?;
        // A two-leg reading whose middle square holds no enemy is the plain
        // move to the end square, provided the route exists.
        let enemy_on =
            |sq: Square| matches!(pos.get(sq), Some(p) if p.color == pos.side.opponent());
        let (mid, route) = match (req.via, req.legs) {
            (Some(v), true) if !enemy_on(v) => (None, Some(v)),
            (v, _) => (v, None),
        };
        let mut found = matching(legal, req.from, req.to, mid, swap);
        if found.is_empty() && mid.is_none() && route.is_none() && swap.is_none() {
            // `c5d6` for en passant is accepted too.
            found = legal
                .iter()
                .filter(|m| m.from == req.from && m.to == req.to && m.kind == MoveKind::EnPassant)
                .collect();
        }
        let [m] = found.as_slice() else {
            return Err(illegal(
                self.why_not(pos, legal, req, piece, mid, swap),
                own,
            ));
        };
        if let Some(v) = route {
            if !route_exists(pos, piece, req.from, v, req.to) {
                let reason = format!(
                    "the {} on {} cannot reach {} by way of {v}; write the move as {}.",
                    NAMES[piece.kind as usize],
                    req.from,
                    req.to,
                    Self::footnote(m)
                );
                return Err(illegal(reason, own));
            }
        }
        Ok(**m)
    }

    /// The mover's piece named by a reading, or why there is none.
    pub(super) fn mover(&self, pos: &Position, req: &Request) -> Result<Piece, String> {
        for sq in [Some(req.from), req.via, Some(req.to)]
            .into_iter()
            .flatten()
        {
            if !self.geometry.contains(sq) {
                return Err(format!("{sq} is not a square of this board."));
            }
        }
        match pos.get(req.from) {
            None => Err(format!("there is no piece on {}.", req.from)),
            Some(p) if p.color != pos.side => Err(format!(
                "the {} on {} is not yours to move.",
                NAMES[p.kind as usize], req.from
            )),
            Some(p) => Ok(p),
        }
    }

    /// Check the piece label and read the swap letter of a reading.
    pub(super) fn check_letters(req: &Request, piece: Piece) -> Result<Option<Kind>, String> {
        if let Some(l) = req.label {
            if Self::kind_of(l) != Some(piece.kind) {
                let other = Self::kind_of(l)
                    .map(|k| NAMES[k as usize])
                    .unwrap_or("piece of this variant");
                return Err(format!(
                    "the piece on {} is a {}, not a {other}.",
                    req.from, NAMES[piece.kind as usize]
                ));
            }
        }
        match req.swap {
            None => Ok(None),
            Some(c) => match Self::kind_of(c) {
                Some(k) if is_regular(k) => Ok(Some(k)),
                _ => Err(format!("a Pawn may only switch places with a captured Regular piece (L, H, C, M or F), not “{c}”.")),
            },
        }
    }

    /// Why the mover's piece cannot make the move read (the reading is well
    /// formed and names one of the mover's pieces).
    pub(super) fn why_not(
        &self,
        pos: &Position,
        legal: &[Move],
        req: &Request,
        piece: Piece,
        mid: Option<Square>,
        swap: Option<Kind>,
    ) -> String {
        let from = req.from;
        let to = req.to;
        let name = NAMES[piece.kind as usize];
        let us = pos.side;
        let lion = Lionized::of(pos, us);
        let is_lion = lion.contains(from);
        if is_lion && lion.len() < 2 {
            return format!("the {name} on {from} is Lionized and you have no other Lionized piece, so it cannot move at all.");
        }
        if let Some(k) = swap {
            if piece.kind != PAWN || pos.relative_rank(to, us) != pos.height - 1 {
                return "only a Pawn reaching the last rank may switch places with a captured piece.".into();
            }
            if pos.hand(us, k) == 0 {
                return format!(
                    "no captured {} of yours is available to switch places with.",
                    NAMES[k as usize]
                );
            }
        }
        if let Some(x) = mid {
            let enemy = matches!(pos.get(x), Some(p) if p.color == us.opponent());
            if !enemy && !req.legs {
                return format!("a three-square move names the square of a piece captured on the way, and there is no enemy piece on {x}; a route that captures nothing there is written with the start and end squares only.");
            }
            if piece.kind != PAWN && !(is_lion && lion.len() >= 2) {
                return format!("only a Lionized piece with a Lionized partner moves in two legs; the {name} on {from} is not Lionized.");
            }
        }
        if piece.kind == KING && from.rank() == to.rank() && from.file().abs_diff(to.file()) == 2 {
            return "there is no castling in Lionized Chess.".into();
        }
        if piece.kind == LIONIZER && pos.get(to).is_some() {
            return "the Lionizer moves only to an empty square; it never captures.".into();
        }
        if let Some(p) = pos.get(to) {
            if p.color == us && to != from {
                return format!(
                    "you cannot capture your own {} on {to}.",
                    NAMES[p.kind as usize]
                );
            }
        }
        if to == from && mid.is_none() {
            return "a turn may not leave the position unchanged.".into();
        }
        let mut pseudo = Vec::new();
        self.pseudo_moves(pos, &mut pseudo);
        if !matching(&pseudo, from, to, mid, swap).is_empty()
            && matching(legal, from, to, mid, swap).is_empty()
        {
            return if self.in_check(pos) {
                "your King is in check and this move does not get it out of check.".into()
            } else {
                "it would leave your King in check.".into()
            };
        }
        if mid.is_none() && is_regular(piece.kind) && !is_lion {
            let open = Position::empty(&self.geometry);
            if reach(&open, piece.kind, us, from, NO_SQUARE) & bit(to) != 0 {
                return format!("the {name} on {from} is blocked: a square it must pass on the way to {to} is occupied.");
            }
        }
        match mid {
            Some(x) => format!("the {name} on {from} cannot capture on {x} and go on to {to}."),
            None => format!("the {name} on {from} cannot go to {to}."),
        }
    }
}

/// The legal moves from `from` to `to` that capture on `mid` on the way (or
/// capture at most on `to`) and swap for `swap`.
pub(super) fn matching(
    legal: &[Move],
    from: Square,
    to: Square,
    mid: Option<Square>,
    swap: Option<Kind>,
) -> Vec<&Move> {
    legal
        .iter()
        .filter(|m| {
            m.from == from
                && m.to == to
                && m.piece.map(|p| p.kind) == swap
                && match mid {
                    None => m.kind == MoveKind::Normal,
                    Some(x) => m.kind != MoveKind::Normal && m.extra[0] == x,
                }
        })
        .collect()
}

/// Whether the piece on `from` is a Lionized piece with a partner whose
/// power brings it to `via`, from where its own power reaches `to`.
pub(super) fn route_exists(
    pos: &Position,
    piece: Piece,
    from: Square,
    via: Square,
    to: Square,
) -> bool {
    let lion = Lionized::of(pos, piece.color);
    lion.contains(from)
        && lion.len() >= 2
        && has_route(pos, from, piece, lion.borrowed(piece.kind), via, to)
}

/// A move as read from text, before it is matched with the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Request {
    pub(super) label: Option<char>,
    pub(super) from: Square,
    /// The middle square: a captured square (footnote 15) or the junction of
    /// two Game Courier legs.
    pub(super) via: Option<Square>,
    pub(super) to: Square,
    pub(super) swap: Option<char>,
    /// Whether `via` came from two Game Courier legs (it need not hold a
    /// captured piece then).
    pub(super) legs: bool,
}

pub(super) fn normalize(s: &str) -> String {
    s.trim()
        .trim_end_matches(['#', '!', '?', '+'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Read a footnote-15 string or a Game Courier move.
pub(super) fn read_request(text: &str) -> Option<Request> {
    let t = text.trim().trim_end_matches(['#', '!', '?', '+']).trim();
    if t.contains(['-', ';', '*']) {
        read_game_courier(t)
    } else {
        read_footnote(t)
    }
}

/// A square name: a lower-case file letter and one or two digits.
pub(super) fn take_square(s: &str) -> Option<(Square, &str)> {
    let bytes = s.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..]
        .iter()
        .take(2)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    Some((Square::parse(&s[..1 + digits])?, &s[1 + digits..]))
}

/// `e5a4`, `e5e7f6`, `a2b1C`.
pub(super) fn read_footnote(t: &str) -> Option<Request> {
    let mut rest = t;
    let mut sqs = Vec::new();
    while let Some((sq, r)) = take_square(rest) {
        sqs.push(sq);
        rest = r;
        if sqs.len() > 3 {
            return None;
        }
    }
    let swap = match rest {
        "" => None,
        s => {
            let s = s.trim_start_matches('=');
            let mut cs = s.chars();
            let c = cs.next()?;
            if !c.is_ascii_alphabetic() || cs.next().is_some() {
                return None;
            }
            Some(c.to_ascii_uppercase())
        }
    };
    let (from, via, to) = match sqs.as_slice() {
        [a, b] => (*a, None, *b),
        [a, m, b] => (*a, Some(*m), *b),
        _ => return None,
    };
    Some(Request {
        label: None,
        from,
        via,
        to,
        swap,
        legs: false,
    })
}

/// One part of a Game Courier move.
pub(super) enum GcPart {
    Move(Option<char>, Square, Square),
    Drop(char, Square),
}

pub(super) fn read_gc_label(label: &str) -> Option<char> {
    let mut cs = label.trim().chars();
    let c = cs.next()?;
    (c.is_ascii_alphabetic() && cs.next().is_none()).then_some(c)
}

pub(super) fn read_gc_part(part: &str) -> Option<GcPart> {
    if let Some((label, sq)) = part.split_once('*') {
        return Some(GcPart::Drop(
            read_gc_label(label)?,
            Square::parse(sq.trim())?,
        ));
    }
    let (left, right) = part.split_once('-')?;
    let (label, from) = match left.trim().rsplit_once(' ') {
        Some((l, f)) => (Some(read_gc_label(l)?), f),
        None => (None, left.trim()),
    };
    Some(GcPart::Move(
        label,
        Square::parse(from.trim())?,
        Square::parse(right.trim())?,
    ))
}

/// `L a2-a5`, `F b6-c7; F c7-b6`, `b6-c7; c7-b6`, `P a7-a8; C*a8`.
pub(super) fn read_game_courier(t: &str) -> Option<Request> {
    let parts: Vec<GcPart> = t
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(read_gc_part)
        .collect::<Option<_>>()?;
    match parts.as_slice() {
        [GcPart::Move(label, from, to)] => Some(Request {
            label: *label,
            from: *from,
            via: None,
            to: *to,
            swap: None,
            legs: false,
        }),
        [GcPart::Move(label, from, to), GcPart::Drop(c, at)] if at == to => Some(Request {
            label: *label,
            from: *from,
            via: None,
            to: *to,
            swap: Some(c.to_ascii_uppercase()),
            legs: false,
        }),
        [GcPart::Move(label, from, mid), GcPart::Move(label2, mid2, to)]
            if mid == mid2 && mid != to =>
        {
            if let (Some(a), Some(b)) = (label, label2) {
                if !a.eq_ignore_ascii_case(b) {
                    return None;
                }
            }
            Some(Request {
                label: label.or(*label2),
                from: *from,
                via: Some(*mid),
                to: *to,
                swap: None,
                legs: true,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lionization::squares;
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn horse_turns_match_the_rulings() {
        // From e4: Hot Horse f6, g3, d2, c5; Cold Horse d6, c3, f2, g5.
        let v = LionizedChess::new();
        let pos = v.parse_fen("k7/8/8/8/8/8/8/7K w - - 0 1").unwrap();
        let names = |m: u64| {
            let mut v: Vec<String> = squares(m).map(|s| s.name()).collect();
            v.sort();
            v
        };
        assert_eq!(
            names(reach(&pos, HOT_HORSE, Color::White, sq("e4"), NO_SQUARE)),
            ["c5", "d2", "f6", "g3"]
        );
        assert_eq!(
            names(reach(&pos, COLD_HORSE, Color::Black, sq("e4"), NO_SQUARE)),
            ["c3", "d6", "f2", "g5"]
        );
    }

    #[test]
    fn requests_read() {
        let r = read_request("e5e7f6").unwrap();
        assert_eq!((r.from, r.via, r.to), (sq("e5"), Some(sq("e7")), sq("f6")));
        let r = read_request("a2b1C").unwrap();
        assert_eq!((r.from, r.to, r.swap), (sq("a2"), sq("b1"), Some('C')));
        let r = read_request("F b6-c7; F c7-b6").unwrap();
        assert_eq!(
            (r.from, r.via, r.to, r.legs),
            (sq("b6"), Some(sq("c7")), sq("b6"), true)
        );
        let r = read_request("p a7-a8; c*a8").unwrap();
        assert_eq!(r.swap, Some('C'));
        for bad in [
            "",
            "e5",
            "e5e6e7e8",
            "e5e7f6CC",
            "a-b",
            "L e5-e6; M e6-e7",
            "e5-e6; e7-e8",
            "e2e4;;x",
            "é4é5",
        ] {
            assert!(read_request(bad).is_none(), "{bad}");
        }
    }
}
