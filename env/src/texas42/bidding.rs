//! Bidding and declaring: the first two phases of a hand.
//!
//! Point bids 30..41; mark bids open at 1 or 2 marks while the high bid is below
//! them, and once the high bid is k >= 2 marks only k+1 marks may follow. Plunge
//! (4 doubles, 4 marks) and Splash (3 doubles, 3 marks) only before any other
//! non-pass bid. After three passes the shaker must bid (`all_pass = forced`) or
//! the hand is thrown in (`redeal`). Under `dropped30` every bid and the
//! declaration are forced: the seat left of the shaker bids 30, the others pass,
//! and the bidder declares [`dropped30_trump`] of its hand.

use super::actions::*;
use super::hand::{Hand, Outcome, Phase};
use crate::action::Action;
use crate::action::ActionMask;
use crate::domino::DominoSet;
use crate::rules::{AllPass, Variant};

/// Value of a bid action in points (marks count 42 each; `pass` is 0).
#[inline]
pub const fn bid_value(a: Action) -> u32 {
    match a {
        BID_30..BID_1M => 30 + (a - BID_30) as u32,
        BID_1M..PLUNGE => 42 * (a - BID_1M + 1) as u32,
        PLUNGE => 4 * 42,
        SPLASH => 3 * 42,
        _ => 0,
    }
}

/// Marks at stake for a winning bid (1 for any point bid).
#[inline]
pub const fn bid_marks(a: Action) -> u32 {
    let v = bid_value(a);
    if v < 42 {
        1
    } else {
        v / 42
    }
}

/// The pip trump a `dropped30` bidder declares with `hand` (walt's and the mk5
/// arena's static key, greatest first): 42 less the count its offs expose,
/// then how many trumps it holds, then whether it holds the trump double, then
/// the count it holds, then the higher pip. An off is a domino of the hand that
/// is neither a trump nor a double; each of its two numbers exposes every count
/// domino of that number the hand does not hold and that is not a trump.
pub fn dropped30_trump(hand: DominoSet) -> u8 {
    let counts = DominoSet::FULL.iter().filter(|d| d.count() > 0).fold(DominoSet::EMPTY, |s, d| s | d.bit());
    let held_count: u32 = hand.iter().map(|d| d.count() as u32).sum();
    let key = |trump: u8| {
        let trumps = hand & DominoSet::with_pip(trump);
        let mut sides = DominoSet::EMPTY;
        for off in (hand - trumps - DominoSet::DOUBLES).iter() {
            sides |= DominoSet::with_pip(off.high()) | DominoSet::with_pip(off.low());
        }
        let exposed: u32 =
            ((counts & sides) - hand - DominoSet::with_pip(trump)).iter().map(|d| d.count() as u32).sum();
        let double = hand.contains(crate::domino::Domino::new(trump, trump));
        (42 - exposed, trumps.len(), double, held_count, trump)
    };
    (0..=6u8).max_by_key(|&t| key(t)).unwrap_or(0)
}

/// Whether the bid is an ordinary mark bid (`1m` … `7m`).
#[inline]
pub const fn is_mark_bid(a: Action) -> bool {
    a >= BID_1M && a < PLUNGE
}

impl Hand {
    /// Legal bids of the seat to move.
    pub(crate) fn bid_mask(&self) -> ActionMask {
        if self.rules.dropped30 {
            return ActionMask(1 << if self.num_bids == 0 { BID_30 } else { PASS });
        }
        let high = bid_value(self.high_bid as Action);
        let opening = self.high_bid as Action == PASS;
        let mut m = 0u64;
        let forced = opening && self.num_bids == 3 && self.rules.all_pass == AllPass::Forced;
        if !forced {
            m |= 1 << PASS;
        }
        // Point bids above the high bid.
        for p in high.max(29) + 1..=41 {
            m |= 1 << (BID_30 + (p - 30) as usize);
        }
        // Opening mark bids (1m, 2m) while the high bid is below them.
        for k in 1..=2u32 {
            if 42 * k > high {
                m |= 1 << (BID_1M + k as usize - 1);
            }
        }
        // One more mark over a high bid of k >= 2 marks.
        if high >= 84 {
            let k = high / 42 + 1;
            if k <= 7 {
                m |= 1 << (BID_1M + k as usize - 1);
            }
        }
        if opening {
            let doubles = (self.hands[self.to_move as usize] & DominoSet::DOUBLES).len();
            if self.rules.variants.has(Variant::Plunge) && doubles >= 4 {
                m |= 1 << PLUNGE;
            }
            if self.rules.variants.has(Variant::Splash) && doubles >= 3 {
                m |= 1 << SPLASH;
            }
        }
        ActionMask(m)
    }

    pub(crate) fn apply_bid(&mut self, a: Action) {
        let seat = self.to_move;
        self.bids[self.num_bids as usize] = a as u8;
        self.num_bids += 1;
        if a != PASS {
            self.high_bid = a as u8;
            self.bidder = seat;
        }
        if self.num_bids < 4 {
            self.to_move = (seat + 1) % 4;
        } else if self.high_bid as Action == PASS {
            self.phase = Phase::Done;
            self.outcome = Some(Outcome::Redeal);
        } else {
            let special = matches!(self.high_bid as Action, PLUNGE | SPLASH);
            self.declarer = if special { (self.bidder + 2) % 4 } else { self.bidder };
            self.phase = Phase::Declaring;
            self.to_move = self.declarer;
        }
    }

    /// Legal declarations for the winning bid.
    pub(crate) fn declare_mask(&self) -> ActionMask {
        if self.rules.dropped30 {
            let trump = dropped30_trump(self.hands[self.declarer as usize]);
            return ActionMask(1 << (TRUMP_BLANKS + trump as usize));
        }
        // Seven pip suits, doubles and follow-me are always allowed.
        let mut m: u64 = ((1u64 << 9) - 1) << TRUMP_BLANKS;
        let bid = self.high_bid as Action;
        if is_mark_bid(bid) {
            let marks = bid_marks(bid);
            if self.rules.variants.has(Variant::NelO) && marks >= self.rules.nello_min_marks as u32 {
                m |= 1 << NEL_O;
            }
            if self.rules.variants.has(Variant::Sevens) {
                m |= 1 << SEVENS;
            }
        }
        ActionMask(m)
    }

    pub(crate) fn apply_declare(&mut self, a: Action) {
        self.declaration = a as u8;
        self.phase = Phase::Playing;
        self.tricks[0].leader = self.declarer;
        self.to_move = self.declarer;
    }

    /// Bid action of `seat` (None if it has not bid yet).
    pub fn bid_of(&self, seat: u8) -> Option<Action> {
        let i = (seat + 3 - self.dealer) % 4; // bidding order starts left of the shaker
        (i < self.num_bids).then(|| self.bids[i as usize] as Action)
    }
}

#[cfg(test)]
mod tests {
    use super::dropped30_trump;
    use crate::domino::{Domino, DominoSet};

    fn hand(s: &str) -> DominoSet {
        s.split_whitespace().map(|d| d.parse::<Domino>().unwrap()).collect()
    }

    // Each hand's keys were worked out by hand from the mk5 arena's
    // `hand_metrics.best_trump` (42 - exposed count, trumps, double, count, pip).

    #[test]
    fn the_trump_that_exposes_the_least_count_is_declared() {
        // Fours: the offs 1-0 3-1 6-3 6-5 expose 5-0 and 3-2 (4-1 and 6-4 are trumps, 5-5 is
        // held): 42 - 10 = 32; every other trump leaves 27 or less.
        assert_eq!(dropped30_trump(hand("0-0 1-0 3-1 4-4 5-5 6-3 6-5")), 4);
        // Threes: 27, four trumps; every other trump 22 or less.
        assert_eq!(dropped30_trump(hand("0-0 2-0 3-0 3-1 4-3 5-3 6-2")), 3);
    }

    #[test]
    fn at_equal_exposure_more_trumps_then_the_trump_double_then_the_higher_pip_decide() {
        // Fours 32 with no trump, sixes 32 with three and the 6-6: sixes.
        assert_eq!(dropped30_trump(hand("2-2 3-0 5-2 5-5 6-0 6-2 6-6")), 6);
        // Ones and fives both 32 with two trumps; fives holds 5-5.
        assert_eq!(dropped30_trump(hand("6-6 6-5 6-4 6-3 5-5 2-1 1-0")), 5);
        // Fours and sixes both 37, two trumps, no double: the higher pip.
        assert_eq!(dropped30_trump(hand("3-2 4-1 5-1 5-4 5-5 6-1 6-2")), 6);
    }
}
