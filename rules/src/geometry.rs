//! Board geometry: squares, names, board shapes with holes.
//!
//! Squares use a fixed stride of 16 whatever the board width, so a square's
//! file and rank are bit fields and every board up to 16x16 shares one
//! indexing scheme (and one 256-entry board array).

use std::fmt;

/// Largest board edge supported.
pub(crate) const MAX_EDGE: u8 = 16;
/// Number of square slots in a board array.
pub(crate) const SLOTS: usize = 256;

/// A square, `file + 16 * rank`, both counted from 0 at White's lower left.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((rank << 4) | (file & 15))
    }
    pub const fn from_index(i: u8) -> Square {
        Square(i)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn file(self) -> u8 {
        self.0 & 15
    }
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }
    /// The square `(dx, dy)` away, if that stays within a `width` x `height` rectangle.
    #[inline]
    pub fn offset(self, dx: i8, dy: i8, width: u8, height: u8) -> Option<Square> {
        let f = self.file() as i16 + dx as i16;
        let r = self.rank() as i16 + dy as i16;
        if f < 0 || r < 0 || f >= width as i16 || r >= height as i16 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }
    /// Algebraic name: file letter then rank number (`a1`, `j10`).
    pub fn name(self) -> String {
        let mut s = String::with_capacity(3);
        self.push_name(&mut s);
        s
    }
    /// Parse an algebraic square name (`a1`..`p16`), without checking any board.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        if file >= MAX_EDGE || rank == 0 || rank > MAX_EDGE {
            return None;
        }
        Some(Square::new(file, rank - 1))
    }
}

impl Square {
    /// The name's bytes: the file letter and the rank number, written as
    /// one string (every written move names squares, and formatting the
    /// letter and the number one by one was a good part of writing a move
    /// list).
    fn name_bytes(self) -> ([u8; 3], usize) {
        let rank = self.rank() + 1;
        let mut buf = [b'a' + self.file(), 0, 0];
        let len = if rank >= 10 {
            buf[1] = b'0' + rank / 10;
            buf[2] = b'0' + rank % 10;
            3
        } else {
            buf[1] = b'0' + rank;
            2
        };
        (buf, len)
    }

    /// Append the square's name to `out`, allocating nothing else (a board
    /// picture names every square).
    pub fn push_name(self, out: &mut String) {
        let (buf, len) = self.name_bytes();
        for &b in &buf[..len] {
            out.push(b as char);
        }
    }

    /// Whether `text` has this square's name in it (`e1` is in `e10` too).
    pub fn is_named_in(self, text: &str) -> bool {
        let (buf, len) = self.name_bytes();
        text.as_bytes().windows(len).any(|w| w == &buf[..len])
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (buf, len) = self.name_bytes();
        // Letters a-p and digits: always ASCII.
        f.write_str(std::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of squares as a 256-bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet([0; 4]);
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.0[sq.index() >> 6] >> (sq.index() & 63) & 1 == 1
    }
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() >> 6] |= 1 << (sq.index() & 63);
    }
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.index() >> 6] &= !(1 << (sq.index() & 63));
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        (0..SLOTS)
            .filter(|&i| self.0[i >> 6] >> (i & 63) & 1 == 1)
            .map(|i| Square(i as u8))
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

/// A rectangular board with squares cut out (holes are never part of play).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
    pub holes: SquareSet,
}

impl Geometry {
    pub fn rect(width: u8, height: u8) -> Geometry {
        assert!(width >= 1 && height >= 1 && width <= MAX_EDGE && height <= MAX_EDGE);
        Geometry {
            width,
            height,
            holes: SquareSet::EMPTY,
        }
    }
    /// A rectangle with the named squares removed.
    pub fn with_holes(width: u8, height: u8, holes: &[&str]) -> Geometry {
        let mut g = Geometry::rect(width, height);
        for h in holes {
            g.holes.insert(Square::parse(h).expect("valid hole name"));
        }
        g
    }
    pub fn contains(&self, sq: Square) -> bool {
        sq.file() < self.width && sq.rank() < self.height
    }
    pub fn is_hole(&self, sq: Square) -> bool {
        self.holes.contains(sq)
    }
    /// Every playable square, rank 1 first, files left to right.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.height)
            .flat_map(move |r| (0..self.width).map(move |f| Square::new(f, r)))
            .filter(|s| !self.holes.contains(*s))
    }
    pub fn square_count(&self) -> usize {
        self.squares().count()
    }
    /// Parse a square name and check it is a playable square of this board.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        Square::parse(s).filter(|sq| self.contains(*sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_up_to_16() {
        for r in 0..16 {
            for f in 0..16 {
                let s = Square::new(f, r);
                assert_eq!(Square::parse(&s.name()), Some(s));
            }
        }
        assert_eq!(Square::new(11, 11).name(), "l12");
        for r in 0..16u8 {
            for f in 0..16u8 {
                let s = Square::new(f, r);
                let expected = format!("{}{}", (b'a' + f) as char, r + 1);
                assert_eq!(s.to_string(), expected);
                assert_eq!(format!("[{s}]"), format!("[{expected}]"));
            }
        }
        assert_eq!(Square::parse("j10"), Some(Square::new(9, 9)));
    }

    #[test]
    fn bad_names_rejected() {
        for s in [
            "", "a", "a0", "a01", "A1", "a17", "q1", "1a", "a1x", "é1", "a١",
        ] {
            assert_eq!(Square::parse(s), None, "{s}");
        }
    }

    #[test]
    fn holes_are_not_squares() {
        let g = Geometry::with_holes(6, 8, &["a1", "f1", "a8", "f8"]);
        assert_eq!(g.square_count(), 44);
        assert!(g.is_hole(Square::parse("a1").unwrap()));
        assert_eq!(g.parse_square("g1"), None);
    }
}
