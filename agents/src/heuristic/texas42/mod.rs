//! The `heuristic` Texas 42 player, [`Texas42Heuristic`], and the hand
//! valuation it bids and declares from.
//!
//! One file per part: [`valuation`](mod@valuation) (the hand valuation, re-exported here),
//! the bidding and declaring here, and `play` (the play of the dominoes).
//!
//! # Bidding (each seat bids once)
//! - A **laydown** (no losers, all trumps are top trumps, and enough top trumps to
//!   pull the rest: `k + n >= 7`, or `n >= 3` with only off doubles and walkers
//!   besides) bids `2m` (or `1m` if `2m` is not legal).
//! - Otherwise the estimate sets the highest bid ([`Texas42Heuristic::max_bid`]):
//!   pass below 22, then up to 30 / 31 / 32 / 34 / 36 from estimates 22 / 27 / 29 /
//!   31 / 34, and `1m` from 36. These thresholds were calibrated on heuristic
//!   self-play (an estimate of 22 makes 30 about 57% of the time, 31 makes 34
//!   about 65%, 36 makes all seven tricks about 93%); moving them by a few points
//!   changes the result by less than 0.01 marks per hand.
//! - It bids the cheapest legal bid within its maximum (a single round, so the
//!   cheapest bid that wins the auction is the least risk; an opening bid with a
//!   maximum of 32 or more starts at 31), never overbids its partner unless it
//!   holds a laydown, and when forced (the shaker after three passes) bids 30.
//! - Variants, when enabled: **Plunge** (or, failing that, **Splash**) when the
//!   hand is a laydown with doubles as trump (the partner then names doubles and
//!   leads); **Sevens** (`1m`) when every domino is within one pip of 7, or within
//!   two with a 7-pip domino and four within one (made about 91% of the time in
//!   self-play); **Nel-O** (the smallest mark bid that allows it) with a hand of
//!   low dominoes ([`nello_hand`]: in every suit the hand's `i`-th lowest domino
//!   has at most `i` unseen dominoes below it, give or take one for at most three
//!   dominoes, and every domino has an unseen one above it in the suit it leads;
//!   made about 85% of the time at 2 marks in self-play).
//!
//! # Declaring
//! The trump with the best estimate among pip suits, doubles and follow-me; Nel-O
//! or Sevens when the bid was made for them (and legal). After a partner's
//! Plunge/Splash: doubles (the plunger holds them), unless this hand's own best
//! pip suit is a laydown.

mod play;
pub mod valuation;

pub use valuation::{best_valuation, declaration_of, nello_hand, sevens_hand, valuation, Valuation};

use crate::agent::{Agent, AgentRng};
use bones_env::texas42::actions::{BID_1M, BID_30, DOUBLES, NEL_O, PASS, PLUNGE, SEVENS, SPLASH};
use bones_env::texas42::{bid_value, is_mark_bid, Phase};
use bones_env::{Action, ActionMask, Texas42View};
use play::play;

/// The `heuristic` Texas 42 player (its bidding and declaring in the module
/// docs, its valuation in [`valuation`](mod@valuation), its play in `play`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Texas42Heuristic {
    /// The point estimates ([`Valuation::points`]) from which the seat bids up
    /// to 30, 31, 32, 34 and 36 (calibrated on heuristic self-play).
    pub bid_at: [f32; 5],
    /// The estimate from which it bids up to `1m` (a laydown bids `2m`).
    pub mark_at: f32,
}

impl Default for Texas42Heuristic {
    fn default() -> Self {
        Texas42Heuristic { bid_at: [22.0, 27.0, 29.0, 31.0, 34.0], mark_at: 36.0 }
    }
}

impl Texas42Heuristic {
    /// The highest bid, in points, this estimate supports (below 30: pass).
    pub fn max_bid(&self, estimate: f32) -> u32 {
        let levels = [30, 31, 32, 34, 36];
        let mut max = 0;
        for (t, b) in self.bid_at.iter().zip(levels) {
            if estimate >= *t {
                max = b;
            }
        }
        if estimate >= self.mark_at {
            max = 42;
        }
        max
    }
}

impl Agent<Texas42View> for Texas42Heuristic {
    fn act(&mut self, v: &Texas42View, _rng: &mut AgentRng) -> Action {
        let a = match v.phase {
            Phase::Bidding => bid(self, v),
            Phase::Declaring => declare(v),
            _ => play(v),
        };
        debug_assert!(v.legal.contains(a), "heuristic chose an illegal action {a}");
        if v.legal.contains(a) {
            a
        } else {
            v.legal.iter().next().expect("a legal action")
        }
    }
}

/// The lowest legal bid (point or mark) with value in `lo..=hi` points.
fn cheapest_bid(legal: ActionMask, lo: u32, hi: u32) -> Option<Action> {
    legal
        .iter()
        .filter(|&a| (BID_30..=BID_1M + 6).contains(&a))
        .filter(|&a| (lo..=hi).contains(&bid_value(a)))
        .min_by_key(|&a| bid_value(a))
}

fn bid(me: &Texas42Heuristic, v: &Texas42View) -> Action {
    let legal = v.legal;
    let hand = v.hand;
    let best = best_valuation(hand);
    let partner_high = v.bidder == Some(v.partner());
    let variants = v.rules.variants;
    let doubles_laydown = valuation(hand, 7).laydown;
    let nothing_bid = v.high_bid == PASS;

    // Special bids first (each legal only when its variant is on and it may be made).
    if doubles_laydown && legal.contains(PLUNGE) {
        return PLUNGE;
    }
    if doubles_laydown && legal.contains(SPLASH) {
        return SPLASH;
    }
    if !partner_high {
        use bones_env::Variant;
        if variants.has(Variant::Sevens) && sevens_hand(hand) && !best.laydown {
            if let Some(a) = cheapest_bid(legal, 42, 42) {
                return a;
            }
        }
        if variants.has(Variant::NelO) && nello_hand(hand, v.rules.nello_doubles) && best.points < 30.0 {
            let min = 42 * v.rules.nello_min_marks.max(1) as u32;
            if let Some(a) = cheapest_bid(legal, min, min.max(84)) {
                return a;
            }
        }
    }
    if best.laydown && !(partner_high && v.high_bid >= BID_1M) {
        if let Some(a) = cheapest_bid(legal, 84, 84).or_else(|| cheapest_bid(legal, 42, 42)) {
            return a;
        }
    }
    if legal.contains(PASS) {
        if partner_high {
            return PASS;
        }
        let max = me.max_bid(best.points);
        if max < 30 {
            return PASS;
        }
        // Make the cheapest bid that wins the auction; open a little higher to
        // shut out weaker opponents when the hand is comfortably strong.
        let floor = if nothing_bid && (32..42).contains(&max) { 31 } else { 30 };
        return cheapest_bid(legal, floor, max).or_else(|| cheapest_bid(legal, 30, max)).unwrap_or(PASS);
    }
    // Forced to bid.
    cheapest_bid(legal, 30, 30).or_else(|| legal.iter().next()).expect("a legal bid")
}

fn declare(v: &Texas42View) -> Action {
    let legal = v.legal;
    let hand = v.hand;
    let best = best_valuation(hand);
    let bid = v.high_bid;
    // Partner plunged or splashed: name doubles unless our own hand is a laydown.
    if v.bidder != Some(v.seat) && matches!(bid, PLUNGE | SPLASH) {
        if best.laydown && legal.contains(declaration_of(best.trump)) {
            return declaration_of(best.trump);
        }
        return DOUBLES;
    }
    if is_mark_bid(bid) && !best.laydown {
        if legal.contains(SEVENS) && sevens_hand(hand) {
            return SEVENS;
        }
        if legal.contains(NEL_O) && nello_hand(hand, v.rules.nello_doubles) {
            return NEL_O;
        }
    }
    let a = declaration_of(best.trump);
    if legal.contains(a) {
        a
    } else {
        legal.iter().next().expect("a legal declaration")
    }
}
