//! The game of Texas 42 ([`Texas42`]: rules, first shaker, reward shaping) and
//! its state ([`Texas42State`]: a hand, or a whole game of hands), played as a
//! [`Series`] of deals.

use super::bidding::bid_value;
use super::facts::SeatOfHand;
use super::hand::{team, Hand, Outcome};
use super::observe;
use super::resample;
use super::view::Texas42View;
use crate::deal::{deal_texas42, rng_for_seed};
use crate::domino::DominoSet;
use crate::game::{Action, Contract, DealOutcome, DominoLedger, Episode, Game, GameState, RewardMode};
use crate::rules::{Scoring, Texas42Rules};
use crate::series::{DealGame, Series};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The game of Texas 42 under a set of rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Texas42 {
    /// Rule options.
    pub rules: Texas42Rules,
    /// The first shaker.
    pub dealer: u8,
    /// Reward shaping of hand episodes.
    pub reward: RewardMode,
}

impl Texas42 {
    /// Texas 42 under `rules`, seat 0 shaking first.
    pub fn new(rules: Texas42Rules) -> Texas42 {
        Texas42 { rules, dealer: 0, reward: RewardMode::Marks }
    }

    /// A state from explicit hands (hand episodes only; a game needs a seed).
    pub fn from_hands(&self, dealer: u8, hands: [DominoSet; 4]) -> Texas42State {
        let mut s = self.new_state(0, Episode::Hand);
        s.deal = Hand::new(self.rules, dealer, hands);
        s
    }

    /// A state dealt from `seed` with the given first shaker.
    pub fn from_seed(&self, dealer: u8, seed: u64, episode: Episode) -> Texas42State {
        let mut rng = rng_for_seed(seed);
        let hands = deal_texas42(&mut rng);
        Series::new(*self, Hand::new(self.rules, dealer, hands), episode, rng)
    }
}

/// A Texas 42 hand in progress, or a whole game of hands (the shaker moving
/// left after each).
pub type Texas42State = Series<Texas42>;

impl DealGame for Texas42 {
    type Deal = Hand;
    type View = Texas42View;
    crate::series::deal_methods!(Hand);
    fn next_deal(&self, rng: &mut ChaCha8Rng, last: &Hand) -> Hand {
        Hand::new(self.rules, (last.dealer + 1) % 4, deal_texas42(rng))
    }
    fn deal_rewards(&self, h: &Hand) -> [f32; 4] {
        let marks = || {
            let a = h.award();
            let d = a[0] as f32 - a[1] as f32;
            if self.rules.scoring == Scoring::Points {
                d / 42.0
            } else {
                d
            }
        };
        let points = || (h.points[0] as f32 - h.points[1] as f32) / 42.0;
        let diff = match self.reward {
            RewardMode::Marks => marks(),
            RewardMode::Points => points(),
            RewardMode::MarksAndPoints => marks() + points(),
        };
        [diff, -diff, diff, -diff]
    }
    fn deal_scores(&self, h: &Hand) -> [u32; 4] {
        let award = h.award();
        [award[0], award[1], 0, 0]
    }
    fn game_winner(&self, totals: &[u32; 4], last: &Hand) -> Option<usize> {
        let target = self.rules.target;
        match [totals[0] >= target, totals[1] >= target] {
            // Both teams reach the target on the same hand: the bidding team wins.
            [true, true] => Some(team(last.bidder)),
            [true, false] => Some(0),
            [false, true] => Some(1),
            [false, false] => None,
        }
    }
    fn win_rewards(&self, winner: usize) -> [f32; 4] {
        let r = if winner == 0 { 1.0 } else { -1.0 };
        [r, -r, r, -r]
    }
    fn outcome(&self, h: &Hand) -> DealOutcome {
        let award = h.award();
        let score = [award[0] as f64, award[1] as f64, 0.0, 0.0];
        let share = |me: f64, them: f64| {
            if me > them {
                1.0
            } else if me == them {
                0.5
            } else {
                0.0
            }
        };
        let contract = match h.outcome {
            Some(Outcome::Settled { made }) => {
                Some(Contract { side: team(h.bidder), made, bid_points: bid_value(h.high_bid as Action) })
            }
            _ => None,
        };
        DealOutcome {
            score,
            win: [share(score[0], score[1]), share(score[1], score[0]), 0.0, 0.0],
            points: Some([h.points[0] as f64, h.points[1] as f64, 0.0, 0.0]),
            contract,
        }
    }
    /// Written from the seat's public facts read off the hand: what
    /// `state.view(seat).observe(out)` writes, without building the view.
    fn observe(state: &Texas42State, seat: usize, out: &mut [f32]) {
        observe::write(&state.seat_facts(seat), out)
    }
    fn view(state: &Texas42State, seat: usize) -> Texas42View {
        Texas42View::from_facts(&state.seat_facts(seat))
    }
    /// The hands, the dominoes played to tricks; no boneyard.
    fn dominoes(h: &Hand) -> Option<DominoLedger> {
        let mut played = DominoSet::EMPTY;
        let mut set = DominoSet::EMPTY;
        for s in 0..4 {
            played |= h.dealt[s] - h.hands[s];
            set |= h.dealt[s];
        }
        Some(DominoLedger { hands: h.hands, played, boneyard: Vec::new(), set })
    }
    /// The other seats' dominoes dealt among them again, where the hand's
    /// public history still replays.
    fn resample_deal(deal: &Hand, seat: usize, seed: u64) -> Option<Hand> {
        resample::resample(deal, seat, seed)
    }
}

impl Series<Texas42> {
    /// The current hand.
    pub fn hand(&self) -> &Hand {
        &self.deal
    }
    /// The hand that finished on the last action of a game episode, when a new
    /// one was dealt after it.
    pub fn previous_hand(&self) -> Option<&Hand> {
        self.previous.as_ref()
    }
    /// Game totals per team (marks, or points under `points` scoring).
    pub fn totals(&self) -> [u32; 2] {
        [self.totals[0], self.totals[1]]
    }
    /// The team that won the game (game episodes).
    pub fn winner(&self) -> Option<u8> {
        self.winner.map(|w| w as u8)
    }
    /// Hands finished so far in this episode.
    pub fn hands_played(&self) -> u32 {
        self.deals_played
    }
    /// A copy of this state with the current hand replaced (game totals,
    /// shaker, hands played and the stream of later deals kept), for
    /// determinization: search agents sampling the hidden hands consistent
    /// with one seat's view. The caller keeps the hand consistent with the rules.
    pub fn with_hand(&self, hand: Hand) -> Texas42State {
        Texas42State { deal: hand, ..self.clone() }
    }

    /// The public facts of `seat` (its legal actions only when it is to move).
    #[inline]
    fn seat_facts(&self, seat: usize) -> SeatOfHand<'_> {
        let f = SeatOfHand::new(&self.deal, seat as u8, self.totals(), self.deals_played);
        if self.current_seat() == Some(seat) {
            f
        } else {
            f.not_acting()
        }
    }
}
