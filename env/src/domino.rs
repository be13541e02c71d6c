//! Dominoes of the double-six set and a zero-cost bit set of them.
//!
//! The 28 dominoes have a fixed dense order: `index = high*(high+1)/2 + low`, so
//! `0-0`=0, `1-0`=1, `1-1`=2, `2-0`=3, … `6-6`=27. A [`DominoSet`] is a `u32` with
//! one bit per index.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};
use std::str::FromStr;

/// One domino of the double-six set, stored as its dense index (0..28).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Domino(u8);

/// `(high, low)` of each dense index.
const ENDS: [(u8, u8); 28] = {
    let mut t = [(0u8, 0u8); 28];
    let mut h = 0;
    while h < 7 {
        let mut l = 0;
        while l <= h {
            t[(h * (h + 1) / 2 + l) as usize] = (h, l);
            l += 1;
        }
        h += 1;
    }
    t
};

/// Why a domino name did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a domino: expected two pips 0..6 joined by `-`, like `6-4`")]
pub struct ParseDominoError(pub String);

impl Domino {
    /// All 28 dominoes in dense order.
    pub const ALL: [Domino; 28] = {
        let mut t = [Domino(0); 28];
        let mut i = 0;
        while i < 28 {
            t[i] = Domino(i as u8);
            i += 1;
        }
        t
    };

    /// The domino with these two ends (in either order). Panics if a pip is above 6.
    pub const fn new(a: u8, b: u8) -> Domino {
        assert!(a <= 6 && b <= 6, "pips are 0..6");
        let (h, l) = if a >= b { (a, b) } else { (b, a) };
        Domino(h * (h + 1) / 2 + l)
    }

    /// The domino with this dense index. Panics if `i >= 28`.
    pub const fn from_index(i: usize) -> Domino {
        assert!(i < 28, "domino index is 0..28");
        Domino(i as u8)
    }

    /// Dense index 0..28.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The higher end.
    #[inline]
    pub const fn high(self) -> u8 {
        ENDS[self.0 as usize].0
    }

    /// The lower end.
    #[inline]
    pub const fn low(self) -> u8 {
        ENDS[self.0 as usize].1
    }

    /// Both ends equal.
    #[inline]
    pub const fn is_double(self) -> bool {
        self.high() == self.low()
    }

    /// Pip total.
    #[inline]
    pub const fn pips(self) -> u8 {
        self.high() + self.low()
    }

    /// Whether one end shows `n`.
    #[inline]
    pub const fn has(self, n: u8) -> bool {
        self.high() == n || self.low() == n
    }

    /// The end opposite to `n` (for a domino that has `n`).
    #[inline]
    pub const fn other(self, n: u8) -> u8 {
        if self.high() == n {
            self.low()
        } else {
            self.high()
        }
    }

    /// Texas 42 count: 10 for `5-5` and `6-4`, 5 for `5-0`, `4-1`, `3-2`, else 0.
    #[inline]
    pub const fn count(self) -> u8 {
        match (self.high(), self.low()) {
            (5, 5) | (6, 4) => 10,
            (5, 0) | (4, 1) | (3, 2) => 5,
            _ => 0,
        }
    }

    /// The one-element set.
    #[inline]
    pub const fn bit(self) -> DominoSet {
        DominoSet(1 << self.0)
    }
}

impl fmt::Display for Domino {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.high(), self.low())
    }
}

impl fmt::Debug for Domino {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.high(), self.low())
    }
}

impl FromStr for Domino {
    type Err = ParseDominoError;
    /// Parses `6-4` (and `4-6`).
    fn from_str(s: &str) -> Result<Domino, ParseDominoError> {
        let b = s.as_bytes();
        if b.len() == 3 && b[1] == b'-' && (b'0'..=b'6').contains(&b[0]) && (b'0'..=b'6').contains(&b[2]) {
            Ok(Domino::new(b[0] - b'0', b[2] - b'0'))
        } else {
            Err(ParseDominoError(s.to_string()))
        }
    }
}

/// A set of dominoes as a `u32` bit set (bit `i` = domino with dense index `i`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct DominoSet(pub u32);

impl DominoSet {
    /// No dominoes.
    pub const EMPTY: DominoSet = DominoSet(0);
    /// All 28 dominoes.
    pub const FULL: DominoSet = DominoSet((1 << 28) - 1);
    /// The seven doubles.
    pub const DOUBLES: DominoSet = {
        let mut m = 0u32;
        let mut n = 0;
        while n < 7 {
            m |= 1 << Domino::new(n, n).0;
            n += 1;
        }
        DominoSet(m)
    };

    /// Every domino with an end showing `n` (7 dominoes).
    #[inline]
    pub const fn with_pip(n: u8) -> DominoSet {
        DominoSet(PIP_MASKS[n as usize])
    }

    crate::bits::bit_word_size!("dominoes");

    /// Membership.
    #[inline]
    pub const fn contains(self, d: Domino) -> bool {
        self.0 & (1 << d.0) != 0
    }

    /// Adds a domino.
    #[inline]
    pub fn insert(&mut self, d: Domino) {
        self.0 |= 1 << d.0;
    }

    /// Removes a domino.
    #[inline]
    pub fn remove(&mut self, d: Domino) {
        self.0 &= !(1 << d.0);
    }

    /// Dominoes in both sets.
    #[inline]
    pub const fn intersect(self, o: DominoSet) -> DominoSet {
        DominoSet(self.0 & o.0)
    }

    /// The domino with the lowest index.
    #[inline]
    pub const fn first(self) -> Option<Domino> {
        if self.0 == 0 {
            None
        } else {
            Some(Domino(self.0.trailing_zeros() as u8))
        }
    }

    /// The domino with the highest index.
    #[inline]
    pub const fn last(self) -> Option<Domino> {
        if self.0 == 0 {
            None
        } else {
            Some(Domino(31 - self.0.leading_zeros() as u8))
        }
    }

    /// Iterates in dense order.
    #[inline]
    pub fn iter(self) -> DominoIter {
        DominoIter(self.0)
    }

    /// Sum of pips.
    pub fn pips(self) -> u32 {
        self.iter().map(|d| d.pips() as u32).sum()
    }
}

const PIP_MASKS: [u32; 7] = {
    let mut t = [0u32; 7];
    let mut i = 0;
    while i < 28 {
        let (h, l) = ENDS[i];
        t[h as usize] |= 1 << i;
        t[l as usize] |= 1 << i;
        i += 1;
    }
    t
};

/// Iterator over a [`DominoSet`] in dense order.
#[derive(Clone)]
pub struct DominoIter(u32);

impl Iterator for DominoIter {
    type Item = Domino;
    #[inline]
    fn next(&mut self) -> Option<Domino> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Domino(i as u8))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for DominoIter {}

impl IntoIterator for DominoSet {
    type Item = Domino;
    type IntoIter = DominoIter;
    fn into_iter(self) -> DominoIter {
        self.iter()
    }
}

impl FromIterator<Domino> for DominoSet {
    fn from_iter<I: IntoIterator<Item = Domino>>(it: I) -> DominoSet {
        let mut s = DominoSet::EMPTY;
        for d in it {
            s.insert(d);
        }
        s
    }
}

impl BitOr for DominoSet {
    type Output = DominoSet;
    #[inline]
    fn bitor(self, o: DominoSet) -> DominoSet {
        DominoSet(self.0 | o.0)
    }
}
impl BitOrAssign for DominoSet {
    #[inline]
    fn bitor_assign(&mut self, o: DominoSet) {
        self.0 |= o.0;
    }
}
impl BitAnd for DominoSet {
    type Output = DominoSet;
    #[inline]
    fn bitand(self, o: DominoSet) -> DominoSet {
        DominoSet(self.0 & o.0)
    }
}
impl BitAndAssign for DominoSet {
    #[inline]
    fn bitand_assign(&mut self, o: DominoSet) {
        self.0 &= o.0;
    }
}
impl Sub for DominoSet {
    type Output = DominoSet;
    #[inline]
    fn sub(self, o: DominoSet) -> DominoSet {
        DominoSet(self.0 & !o.0)
    }
}
impl Not for DominoSet {
    type Output = DominoSet;
    #[inline]
    fn not(self) -> DominoSet {
        DominoSet(!self.0 & DominoSet::FULL.0)
    }
}

impl fmt::Debug for DominoSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_order_matches_rules() {
        assert_eq!(Domino::new(0, 0).index(), 0);
        assert_eq!(Domino::new(1, 0).index(), 1);
        assert_eq!(Domino::new(2, 0).index(), 3);
        assert_eq!(Domino::new(6, 6).index(), 27);
        for d in Domino::ALL {
            assert_eq!(d.to_string().parse::<Domino>().unwrap(), d);
            let rev = format!("{}-{}", d.low(), d.high());
            assert_eq!(rev.parse::<Domino>().unwrap(), d);
        }
    }

    #[test]
    fn count_totals_35_and_pip_suits_have_seven() {
        assert_eq!(Domino::ALL.iter().map(|d| d.count() as u32).sum::<u32>(), 35);
        for n in 0..7 {
            assert_eq!(DominoSet::with_pip(n).len(), 7);
        }
        assert_eq!(DominoSet::DOUBLES.len(), 7);
    }

    #[test]
    fn bad_domino_names_are_rejected() {
        for s in ["7-1", "6-", "64", "6-4-", "", "a-b", "6 4"] {
            assert!(s.parse::<Domino>().is_err(), "{s}");
        }
    }
}
