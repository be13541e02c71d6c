//! Texas 42: four players in two partnerships; bidding, trump, seven tricks.
//!
//! [`Texas42`] holds the static facts (rules, first shaker, reward shaping);
//! [`Texas42State`] is a hand, or a whole game of hands to the target;
//! [`Texas42View`] is what one seat may know of it, and a seat's observation is
//! written from those facts alone.
//!
//! The modules depend on each other in one direction only: `actions` ←
//! `hand` ← `bidding`, `play`, `scoring` ← `facts` (a seat's public facts) ←
//! `observe` (the vector written from them) ← `view` ← `game` (the game and its
//! state) ← `record`, `position` (a hand from a seat's view); this file puts
//! the registry's [`Game`] face on them.

pub mod actions;
mod bidding;
mod facts;
mod game;
mod hand;
mod observe;
#[cfg(test)]
mod observe_tests;
mod play;
mod position;
pub(crate) mod record;
mod resample;
mod scoring;
mod view;

pub use actions::{
    parse_42, BID_1M, BID_30, DOUBLES, FOLLOW_ME, NAMES_42, NEL_O, NUM_ACTIONS_42, PASS, PLAY, PLUNGE, SEVENS, SPLASH,
    TRUMP_BLANKS,
};
pub use bidding::{bid_marks, bid_value, dropped30_trump, is_mark_bid};
pub use game::{Texas42, Texas42State};
pub use hand::{team, Hand, Outcome, Phase, Trick};
pub use observe::{OBS_LEN_42, OBS_SEGMENTS_42, OBS_VERSION_42};
pub use play::{
    closest_to_seven, legal_plays, next_in_play, sevens_distance, suit_table, winning_play, SuitTable, TABLES,
};
pub use record::Texas42Record;
pub use view::Texas42View;

use crate::action::ActionError;
pub use crate::game::RewardMode;
use crate::game::{Action, Episode, Game};
use crate::observe::Segment;

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
        crate::record::typed::replay::<Texas42Record>(record)
    }
    fn with_reward(self, reward: RewardMode) -> Texas42 {
        Texas42 { reward, ..self }
    }
    fn new_state(&self, seed: u64, episode: Episode) -> Texas42State {
        self.from_seed(self.dealer, seed, episode)
    }
}
