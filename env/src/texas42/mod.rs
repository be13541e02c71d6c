//! Texas 42: four players in two partnerships; bidding, trump, seven tricks.
//!
//! [`Texas42`] holds the static facts (rules, first shaker, reward shaping);
//! [`Texas42State`] is a hand, or a whole game of hands to the target;
//! [`Texas42View`] is what one seat may know of it, and a seat's observation is
//! written from those facts alone.

pub mod actions;
mod bidding;
mod hand;
mod observe;
mod play;
pub(crate) mod record;
mod scoring;
mod view;

pub use actions::{
    parse_42, BID_1M, BID_30, DOUBLES, FOLLOW_ME, NAMES_42, NEL_O, NUM_ACTIONS_42, PASS, PLAY, PLUNGE, SEVENS, SPLASH,
    TRUMP_BLANKS,
};
pub use bidding::{bid_marks, bid_value, is_mark_bid};
pub use hand::{team, Hand, Outcome, Phase, Trick};
pub use observe::{OBS_LEN_42, OBS_SEGMENTS_42, OBS_VERSION_42};
pub use play::{
    closest_to_seven, legal_plays, next_in_play, sevens_distance, suit_table, winning_play, SuitTable, TABLES,
};
use view::SeatOfHand;
pub use view::Texas42View;

use crate::action::{ActionError, ActionMask, IllegalAction};
use crate::deal::{deal_texas42, rng_for_seed};
use crate::domino::DominoSet;
use crate::game::{Action, Contract, DealOutcome, Episode, Game, GameState};
use crate::observe::Segment;
use crate::rules::{Scoring, Texas42Rules};
use rand_chacha::ChaCha8Rng;

/// How hand rewards are shaped (game episodes always pay +1/-1 at the end).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum RewardMode {
    /// Marks won minus marks lost (under `points` scoring: game points / 42).
    #[default]
    Marks,
    /// Points taken minus points conceded, divided by 42.
    Points,
    /// `Marks` plus `Points`: the hand's result plus how well it was played, a
    /// denser signal for learning play (each part is 0 for a tied hand).
    MarksAndPoints,
}

impl RewardMode {
    /// Parses `marks`, `points` or `marks+points`.
    pub fn parse(s: &str) -> Option<RewardMode> {
        match s {
            "marks" => Some(RewardMode::Marks),
            "points" => Some(RewardMode::Points),
            "marks+points" => Some(RewardMode::MarksAndPoints),
            _ => None,
        }
    }
}

/// The game of Texas 42 under a set of rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
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
        s.hand = Hand::new(self.rules, dealer, hands);
        s
    }

    /// A state dealt from `seed` with the given first shaker.
    pub fn from_seed(&self, dealer: u8, seed: u64, episode: Episode) -> Texas42State {
        let mut rng = rng_for_seed(seed);
        let hands = deal_texas42(&mut rng);
        Texas42State {
            game: *self,
            hand: Hand::new(self.rules, dealer, hands),
            episode,
            totals: [0; 2],
            rng,
            winner: None,
            rewards: [0.0; 4],
            previous: None,
            hands_played: 0,
        }
    }
}

impl Game for Texas42 {
    type State = Texas42State;
    fn name(&self) -> &'static str {
        "texas42"
    }
    fn num_players(&self) -> usize {
        4
    }
    fn team_of(&self, seat: usize) -> usize {
        seat % 2
    }
    fn num_sides(&self) -> usize {
        2
    }
    fn rules_json(&self) -> serde_json::Value {
        self.rules.to_json()
    }
    fn num_actions(&self) -> usize {
        NUM_ACTIONS_42
    }
    fn obs_len(&self) -> usize {
        OBS_LEN_42
    }
    fn obs_segments(&self) -> &'static [Segment] {
        &OBS_SEGMENTS_42
    }
    fn obs_version(&self) -> u32 {
        OBS_VERSION_42
    }
    fn action_name(&self, a: Action) -> &'static str {
        NAMES_42.get(a).copied().unwrap_or("?")
    }
    fn parse_action(&self, name: &str) -> Result<Action, ActionError> {
        parse_42(name)
    }
    fn replay_record(
        record: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(Texas42, Texas42State, serde_json::Value), crate::record::json::RecordError> {
        record::replay(record)
    }
    fn new_state(&self, seed: u64, episode: Episode) -> Texas42State {
        self.from_seed(self.dealer, seed, episode)
    }
}

/// A Texas 42 hand in progress, or a whole game of hands.
#[derive(Clone, Debug)]
pub struct Texas42State {
    game: Texas42,
    hand: Hand,
    episode: Episode,
    totals: [u32; 2],
    rng: ChaCha8Rng,
    winner: Option<u8>,
    rewards: [f32; 4],
    previous: Option<Hand>,
    hands_played: u32,
}

impl Texas42State {
    /// The current hand.
    pub fn hand(&self) -> &Hand {
        &self.hand
    }
    /// The hand that finished on the last action of a game episode, when a new
    /// one was dealt after it.
    pub fn previous_hand(&self) -> Option<&Hand> {
        self.previous.as_ref()
    }
    /// Game totals per team (marks, or points under `points` scoring).
    pub fn totals(&self) -> [u32; 2] {
        self.totals
    }
    /// The team that won the game (game episodes).
    pub fn winner(&self) -> Option<u8> {
        self.winner
    }
    /// Hands finished so far in this episode.
    pub fn hands_played(&self) -> u32 {
        self.hands_played
    }
    /// Hand or game episode.
    pub fn episode(&self) -> Episode {
        self.episode
    }
    /// The game (rules) this state is played under.
    pub fn game(&self) -> &Texas42 {
        &self.game
    }

    /// The public facts of `seat` (its legal actions only when it is to move).
    #[inline]
    fn seat_facts(&self, seat: usize) -> SeatOfHand<'_> {
        let f = SeatOfHand::new(&self.hand, seat as u8, self.totals, self.hands_played);
        if self.current_seat() == Some(seat) {
            f
        } else {
            f.not_acting()
        }
    }

    fn hand_rewards(&self) -> [f32; 4] {
        let h = &self.hand;
        let marks = || {
            let a = h.award();
            let d = a[0] as f32 - a[1] as f32;
            if self.game.rules.scoring == Scoring::Points {
                d / 42.0
            } else {
                d
            }
        };
        let points = || (h.points[0] as f32 - h.points[1] as f32) / 42.0;
        let diff = match self.game.reward {
            RewardMode::Marks => marks(),
            RewardMode::Points => points(),
            RewardMode::MarksAndPoints => marks() + points(),
        };
        [diff, -diff, diff, -diff]
    }

    fn finish_hand(&mut self) {
        self.hands_played += 1;
        if self.episode == Episode::Hand {
            self.rewards = self.hand_rewards();
            return;
        }
        let award = self.hand.award();
        self.totals[0] += award[0];
        self.totals[1] += award[1];
        let target = self.game.rules.target;
        let reached = [self.totals[0] >= target, self.totals[1] >= target];
        self.winner = match reached {
            [true, true] => Some(team(self.hand.bidder) as u8),
            [true, false] => Some(0),
            [false, true] => Some(1),
            [false, false] => None,
        };
        if let Some(w) = self.winner {
            let r = if w == 0 { 1.0 } else { -1.0 };
            self.rewards = [r, -r, r, -r];
        } else {
            self.previous = Some(self.hand);
            let hands = deal_texas42(&mut self.rng);
            self.hand = Hand::new(self.game.rules, (self.hand.dealer + 1) % 4, hands);
        }
    }
}

impl GameState for Texas42State {
    type View = Texas42View;
    #[inline]
    fn current_seat(&self) -> Option<usize> {
        (!self.is_terminal()).then_some(self.hand.to_move as usize)
    }
    #[inline]
    fn legal_mask(&self) -> ActionMask {
        if self.is_terminal() {
            ActionMask::EMPTY
        } else {
            self.hand.legal_mask()
        }
    }
    #[inline]
    fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        if self.is_terminal() {
            return Err(IllegalAction { action: a, legal: ActionMask::EMPTY });
        }
        self.hand.apply(a)?;
        self.rewards = [0.0; 4];
        self.previous = None;
        if self.hand.is_done() {
            self.finish_hand();
        }
        Ok(())
    }
    #[inline]
    fn is_terminal(&self) -> bool {
        match self.episode {
            Episode::Hand => self.hand.is_done(),
            Episode::Game => self.winner.is_some(),
        }
    }
    fn rewards(&self) -> [f32; 4] {
        self.rewards
    }
    /// Written from the seat's public facts read off the hand: what
    /// `self.view(seat).observe(out)` writes, without building the view.
    fn observe(&self, seat: usize, out: &mut [f32]) {
        observe::write(&self.seat_facts(seat), out)
    }
    fn view(&self, seat: usize) -> Texas42View {
        Texas42View::from_facts(&self.seat_facts(seat))
    }
    fn seat_hands(&self) -> [DominoSet; 4] {
        self.hand.hands
    }
    fn finished_deal(&self) -> Option<DealOutcome> {
        let h = self.previous.as_ref().or(self.hand.is_done().then_some(&self.hand))?;
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
        Some(DealOutcome {
            score,
            win: [share(score[0], score[1]), share(score[1], score[0]), 0.0, 0.0],
            points: Some([h.points[0] as f64, h.points[1] as f64, 0.0, 0.0]),
            contract,
        })
    }
    fn winning_side(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }
}
