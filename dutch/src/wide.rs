//! Fixed-width two's-complement integers for the Dutch pairing's edge weights.
//!
//! Each edge weight packs every quality criterion (C.5-C.21) into one number,
//! most important bits first, so a maximum-weight matching optimises them in
//! order. That needs several hundred bits for a large tournament (each
//! criterion takes a field as wide as the score groups need), more than
//! `u128`; the few operations the matching needs are written here on `L`
//! 64-bit limbs rather than pulling in a general bignum crate (we never
//! multiply or divide, and a fixed width keeps the numbers on the stack).

use std::cmp::Ordering;

/// A signed integer of `64 * L` bits, least significant limb first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const L: usize>(pub [u64; L]);

impl<const L: usize> Default for Wide<L> {
    fn default() -> Self {
        Self([0; L])
    }
}

impl<const L: usize> Wide<L> {
    pub const ZERO: Self = Self([0; L]);

    pub fn small(v: u64) -> Self {
        let mut r = Self::ZERO;
        r.0[0] = v;
        r
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }

    fn negative(&self) -> bool {
        self.0[L - 1] >> 63 == 1
    }

    #[inline]
    pub fn add(&self, o: &Self) -> Self {
        let mut r = Self::ZERO;
        let mut carry = false;
        for i in 0..L {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            r.0[i] = s2;
            carry = c1 || c2;
        }
        r
    }

    #[inline]
    pub fn sub(&self, o: &Self) -> Self {
        let mut r = Self::ZERO;
        let mut borrow = false;
        for i in 0..L {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            r.0[i] = d2;
            borrow = b1 || b2;
        }
        r
    }

    pub fn add_small(&self, v: u64) -> Self {
        self.add(&Self::small(v))
    }

    pub fn sub_small(&self, v: u64) -> Self {
        self.sub(&Self::small(v))
    }

    pub fn or_small(&self, v: u64) -> Self {
        let mut r = *self;
        r.0[0] |= v;
        r
    }

    /// `self << n` (bits shifted past the top are lost).
    pub fn shl(&self, n: u32) -> Self {
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut r = Self::ZERO;
        for i in (limbs..L).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            r.0[i] = v;
        }
        r
    }

    /// `1 << n`.
    pub fn bit(n: u32) -> Self {
        Self::small(1).shl(n)
    }

    /// Arithmetic shift right by one (halving, rounding down).
    pub fn half(&self) -> Self {
        let mut r = Self::ZERO;
        for i in 0..L {
            let hi = if i + 1 < L {
                self.0[i + 1] << 63
            } else {
                self.0[i] & (1 << 63)
            };
            r.0[i] = (self.0[i] >> 1) | hi;
        }
        r
    }

    pub fn double(&self) -> Self {
        self.shl(1)
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Ord for Wide<L> {
    /// Signed comparison.
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative(), other.negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_across_limbs() {
        let a = Wide::<3>::bit(100);
        let b = a.sub_small(1);
        assert!(b < a);
        assert_eq!(b.add_small(1), a);
        assert_eq!(a.half(), Wide::bit(99));
        assert_eq!(a.double(), Wide::bit(101));
        let neg = Wide::<3>::ZERO.sub_small(5);
        assert!(neg < Wide::ZERO);
        assert_eq!(neg.half(), Wide::ZERO.sub_small(3));
        assert_eq!(Wide::<3>::small(3).shl(64).0, [0, 3, 0]);
        assert_eq!(Wide::<3>::small(3).shl(63).0, [1 << 63, 1, 0]);
    }
}
