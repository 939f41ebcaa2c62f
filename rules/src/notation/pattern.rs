//! The grammar of a move text: SAN, coordinates, Game Courier and drops,
//! read into a pattern of what the text says, before any legal move is
//! looked at. Apart so the grammar reads (and is tested) on its own.

use super::Candidate;
use crate::geometry::Square;

/// What the reader made of the text.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub(super) struct Pattern {
    pub(super) letter: Option<char>,
    pub(super) from: Option<Square>,
    pub(super) from_file: Option<u8>,
    pub(super) from_rank: Option<u8>,
    pub(super) to: Option<Square>,
    pub(super) drop: bool,
    pub(super) promotion: Option<char>,
    pub(super) castle: Option<bool>,
    /// Whether the text said which piece a pawn becomes.
    pub(super) said_promotion: bool,
}

impl Pattern {
    pub(super) fn matches(&self, c: &Candidate) -> bool {
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
pub(super) fn read_pattern(text: &str) -> Option<Pattern> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
