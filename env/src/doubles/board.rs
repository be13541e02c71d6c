//! The Doubles board: the multiset of open-end numbers, the unlocked numbers and
//! the dominoes placed. Every double is a spinner, so the layout's shape does not
//! matter for play; only how many open ends show each number does.

use crate::domino::{Domino, DominoSet};
use serde::{Deserialize, Serialize};

/// For each set of numbers (bit n = number n), every domino showing one of
/// them, or (`doubles`) only their doubles.
const fn unions(doubles: bool) -> [u32; 128] {
    let mut t = [0u32; 128];
    let mut m = 0;
    while m < 128 {
        let mut n = 0;
        while n < 7 {
            if m & (1 << n) != 0 {
                let of = if doubles { Domino::new(n as u8, n as u8).bit() } else { DominoSet::with_pip(n as u8) };
                t[m] |= of.0;
            }
            n += 1;
        }
        m += 1;
    }
    t
}

/// For each set of numbers, every domino showing one of them.
const PIP_UNION: [u32; 128] = unions(false);

/// For each set of numbers, their doubles.
const DOUBLE_UNION: [u32; 128] = unions(true);

/// The board of one round (`Copy`, no heap).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Board {
    /// Number of open ends showing each number 0..6.
    pub open: [u8; 7],
    /// Bit `n` set once the double `n-n` is on the board.
    pub unlocked: u8,
    /// Dominoes on the board.
    pub placed: DominoSet,
}

impl Board {
    /// The empty board before the opening double.
    pub const EMPTY: Board = Board { open: [0; 7], unlocked: 0, placed: DominoSet::EMPTY };

    /// Bit `n` set when at least one open end shows `n`.
    #[inline]
    pub fn open_mask(&self) -> u8 {
        let mut m = 0;
        for (n, &c) in self.open.iter().enumerate() {
            m |= ((c != 0) as u8) << n;
        }
        m
    }

    /// Whether `n` is unlocked (`n-n` is on the board).
    #[inline]
    pub const fn is_unlocked(&self, n: u8) -> bool {
        self.unlocked & (1 << n) != 0
    }

    /// Whether the opening double has been played.
    #[inline]
    pub const fn is_open(&self) -> bool {
        !self.placed.is_empty()
    }

    /// Every domino not on the board that could be attached somewhere now: on an
    /// open end showing an unlocked `n`, any domino with `n`; on one showing a
    /// locked `n`, only `n-n`.
    #[inline]
    pub fn playable(&self) -> DominoSet {
        let open = self.open_mask() as usize;
        let unlocked = self.unlocked as usize;
        DominoSet(PIP_UNION[open & unlocked] | DOUBLE_UNION[open & !unlocked]) - self.placed
    }

    /// Whether `d` may be attached to an open end showing `end`.
    #[inline]
    pub fn can_attach(&self, d: Domino, end: u8) -> bool {
        end < 7
            && d.has(end)
            && self.open[end as usize] > 0
            && !self.placed.contains(d)
            && (d.is_double() || self.is_unlocked(end))
    }

    /// Places the opening double `n-n`: four open sides showing `n`.
    #[inline]
    pub fn open_with(&mut self, n: u8) {
        self.open[n as usize] = 4;
        self.unlocked |= 1 << n;
        self.placed.insert(Domino::new(n, n));
    }

    /// Attaches `d` to an open end showing `end` (which must be legal): a double
    /// covers that end and opens three sides; a non-double leaves its other number.
    #[inline]
    pub fn attach(&mut self, d: Domino, end: u8) {
        debug_assert!(self.can_attach(d, end), "{d} cannot go on {end}");
        self.open[end as usize] -= 1;
        if d.is_double() {
            self.open[end as usize] += 3;
            self.unlocked |= 1 << end;
        } else {
            self.open[d.other(end) as usize] += 1;
        }
        self.placed.insert(d);
    }

    /// Total number of open ends.
    pub fn open_ends(&self) -> u32 {
        self.open.iter().map(|&c| c as u32).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Domino {
        s.parse().unwrap()
    }

    #[test]
    fn opening_double_has_four_sides_and_locks_the_rest() {
        let mut b = Board::EMPTY;
        b.open_with(6);
        assert_eq!(b.open, [0, 0, 0, 0, 0, 0, 4]);
        assert_eq!(b.playable(), DominoSet::with_pip(6) - d("6-6").bit());
        for o in ["6-5", "6-0", "6-3", "6-1"] {
            b.attach(d(o), 6);
        }
        assert_eq!(b.open, [1, 1, 0, 1, 0, 1, 0]);
        // Only the doubles of the open numbers can be played now.
        assert_eq!(b.playable(), [d("0-0"), d("1-1"), d("3-3"), d("5-5")].into_iter().collect());
        assert!(!b.can_attach(d("5-4"), 5));
        b.attach(d("5-5"), 5);
        assert_eq!(b.open[5], 3);
        assert!(b.is_unlocked(5));
        assert!(b.can_attach(d("5-4"), 5));
        assert_eq!(b.open_ends(), 6);
    }
}
