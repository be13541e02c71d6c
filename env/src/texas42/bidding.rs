//! Bidding and declaring: the first two phases of a hand.
//!
//! Point bids 30..41; mark bids open at 1 or 2 marks while the high bid is below
//! them, and once the high bid is k >= 2 marks only k+1 marks may follow. Plunge
//! (4 doubles, 4 marks) and Splash (3 doubles, 3 marks) only before any other
//! non-pass bid. After three passes the shaker must bid (`all_pass = forced`) or
//! the hand is thrown in (`redeal`).

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

/// Whether the bid is an ordinary mark bid (`1m` … `7m`).
#[inline]
pub const fn is_mark_bid(a: Action) -> bool {
    a >= BID_1M && a < PLUNGE
}

impl Hand {
    /// Legal bids of the seat to move.
    pub(crate) fn bid_mask(&self) -> ActionMask {
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
