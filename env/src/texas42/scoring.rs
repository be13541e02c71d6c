//! When a hand is settled (early end) and what it scores (marks or points).

use super::actions::NEL_O;
use super::bidding::{bid_marks, bid_value};
use super::hand::{team, Hand, Outcome};
use crate::action::Action;
use crate::rules::Scoring;

impl Hand {
    /// Whether the contract is settled after the last trick: `Some(made)`.
    ///
    /// With early end (marks scoring only) a point bid b stops once the bidders
    /// hold b points or the defenders more than 42 - b; Nel-O stops once the bidder
    /// wins a trick; every other contract (mark bids, Plunge, Splash, Sevens) stops
    /// once the defenders win a trick. Otherwise all 7 tricks are played.
    pub(crate) fn settled(&self) -> Option<bool> {
        let early = self.rules.stops_early();
        let all_played = self.trick == 7;
        let us = team(self.bidder);
        let bid = bid_value(self.high_bid as Action);
        if self.declaration as Action == NEL_O {
            let lost = self.tricks_won[self.bidder as usize] > 0;
            return (all_played || (early && lost)).then_some(!lost);
        }
        if bid < 42 {
            let (ours, theirs) = (self.points[us] as u32, self.points[1 - us] as u32);
            if early && ours >= bid {
                return Some(true);
            }
            if early && theirs > 42 - bid {
                return Some(false);
            }
            return all_played.then_some(ours >= bid);
        }
        let defenders_won =
            self.tricks_won[(self.bidder as usize + 1) % 4] + self.tricks_won[(self.bidder as usize + 3) % 4] > 0;
        (all_played || (early && defenders_won)).then_some(!defenders_won)
    }

    /// What the finished hand awards each team: marks, or game points under
    /// `points` scoring. Zero for a thrown-in hand or one still in progress.
    pub fn award(&self) -> [u32; 2] {
        let made = match self.outcome {
            Some(Outcome::Settled { made }) => made,
            _ => return [0, 0],
        };
        let us = team(self.bidder);
        let bid = self.high_bid as Action;
        let mut award = [0u32; 2];
        match self.rules.scoring {
            Scoring::Marks => {
                award[if made { us } else { 1 - us }] = bid_marks(bid);
            }
            Scoring::Points if bid_value(bid) < 42 => {
                if made {
                    award = [self.points[0] as u32, self.points[1] as u32];
                } else {
                    award[1 - us] = self.points[1 - us] as u32 + bid_value(bid);
                }
            }
            Scoring::Points => {
                award[if made { us } else { 1 - us }] = bid_value(bid);
            }
        }
        award
    }
}
