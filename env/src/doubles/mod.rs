//! Doubles: the draw game of docs/rules.md where every double is a spinner, for 2, 3
//! or 4 players, each for themself.
//!
//! [`Doubles`] holds the rules; [`DoublesState`] is one round, or a whole game of
//! rounds to the target (`Episode::Game`). A [`Round`] is the allocation-free
//! state of one round (hands, boneyard in draw order, [`Board`], history).
//! [`DoublesView`] is what one seat may know of a state, and a seat's
//! observation is written from those facts alone.
//!
//! Action ids (stable; see [`actions`] for the table): 0..7 opening doubles
//! `0-0` … `6-6`; 7..56 attachments by domino in dense order (`n-n@n` one id,
//! `h-l@h` then `h-l@l`); 56 `draw`; 57 `pass`.
//!
//! Rewards (zero-sum, per seat; unused seats get 0): a round episode pays each
//! seat its round score minus the mean of all players' round scores when the round
//! ends; a game episode pays +1 to the winner and -1/(n-1) to the others when the
//! game ends (and nothing on the rounds before).

//! The modules depend on each other in one direction only: `actions` ←
//! `board` ← `play` (a round) ← `facts` (a seat's public facts) ← `observe`
//! (the vector written from them) ← `view` ← `game` (the game and its state)
//! ← `record`, `position` (a round from a seat's view); this file puts the
//! registry's [`Game`] face on them.

pub mod actions;
mod board;
mod facts;
mod game;
mod observe;
mod play;
mod position;
pub(crate) mod record;
mod resample;
mod view;

pub use actions::{
    action_name, attach_action, decode, open_action, parse_doubles, played_domino, Move, ATTACH, DRAW, NAMES_DOUBLES,
    NUM_ACTIONS_DOUBLES, OPEN, PASS,
};
pub use board::Board;
pub use game::{highest_pip_action, highest_pip_in, DealError, Doubles, DoublesState};
pub use observe::{OBS_LEN_DOUBLES, OBS_SEGMENTS_DOUBLES, OBS_VERSION_DOUBLES};
pub use play::{hand_size, highest_double, End, Round, BONEYARD_FLOOR, MAX_BONEYARD, NO_SEAT};
pub use record::DoublesRecord;
pub use view::DoublesView;

use crate::action::ActionError;
use crate::deal::rng_for_seed;
use crate::game::{Action, Episode, Game};
use crate::observe::Segment;
use crate::series::Series;

impl Game for Doubles {
    type State = DoublesState;
    fn name(&self) -> &'static str {
        "doubles"
    }
    fn num_players(&self) -> usize {
        self.rules.players as usize
    }
    fn num_actions(&self) -> usize {
        NUM_ACTIONS_DOUBLES
    }
    fn rules_json(&self) -> serde_json::Value {
        self.rules.to_json()
    }
    fn obs_len(&self) -> usize {
        OBS_LEN_DOUBLES
    }
    fn obs_segments(&self) -> &'static [Segment] {
        &OBS_SEGMENTS_DOUBLES
    }
    fn obs_version(&self) -> u32 {
        OBS_VERSION_DOUBLES
    }
    fn action_name(&self, a: Action) -> &'static str {
        action_name(a)
    }
    fn parse_action(&self, name: &str) -> Result<Action, ActionError> {
        parse_doubles(name)
    }
    fn replay_record(
        record: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(Doubles, DoublesState, serde_json::Value), crate::record::json::RecordError> {
        crate::record::typed::replay::<DoublesRecord>(record)
    }
    fn new_state(&self, seed: u64, episode: Episode) -> DoublesState {
        let mut rng = rng_for_seed(seed);
        let round = self.deal_round(&mut rng);
        Series::new(*self, round, episode, rng)
    }
}
