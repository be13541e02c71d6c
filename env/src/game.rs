//! The trait both games implement (OpenSpiel-like): [`Game`] holds the static
//! facts (action count, observation shape, rules), [`GameState`] the dynamic state.

use crate::action::{ActionError, ActionMask};
use crate::observe::Segment;
use crate::view::SeatView;

/// An action id in a game's dense action space.
pub type Action = usize;

/// What one episode covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Episode {
    /// One hand (Texas 42) or one round (Doubles).
    #[default]
    Hand,
    /// A whole game to the target; new deals come from the same random stream.
    Game,
}

/// Static facts and the constructor of states.
pub trait Game: Clone + Send + Sync + 'static {
    /// The dynamic state.
    type State: GameState;
    /// `texas42` or `doubles`.
    fn name(&self) -> &'static str;
    /// Seats at the table.
    fn num_players(&self) -> usize;
    /// The side a seat plays for (Texas 42: seats 0, 2 are team 0; Doubles: every
    /// seat for itself).
    fn team_of(&self, seat: usize) -> usize {
        seat
    }
    /// Size of the dense action space (at most 64).
    fn num_actions(&self) -> usize;
    /// Length of one seat's observation vector.
    fn obs_len(&self) -> usize;
    /// The observation layout: named segments in order.
    fn obs_segments(&self) -> &'static [Segment];
    /// Version of the observation layout.
    fn obs_version(&self) -> u32;
    /// Canonical name of an action id.
    fn action_name(&self, a: Action) -> &'static str;
    /// Parses an action name (canonical or an accepted alias).
    fn parse_action(&self, name: &str) -> Result<Action, ActionError>;
    /// A fresh state dealt from `seed`.
    fn new_state(&self, seed: u64, episode: Episode) -> Self::State;
}

/// The dynamic state of one game.
pub trait GameState: Clone + Send + Sync + 'static {
    /// What one seat may know of this state (see [`crate::view`]).
    type View: SeatView;
    /// The seat to act, or `None` when the episode is over.
    fn current_seat(&self) -> Option<usize>;
    /// The legal actions as a bit mask (empty when terminal).
    fn legal_mask(&self) -> ActionMask;
    /// Applies a legal action. On error the state is unchanged.
    fn apply(&mut self, a: Action) -> Result<(), crate::IllegalAction>;
    /// The episode is over.
    fn is_terminal(&self) -> bool;
    /// Reward earned by each seat on the last transition (zero-sum).
    fn rewards(&self) -> [f32; 4];
    /// Writes seat `seat`'s observation into `out` (length = `obs_len`): the
    /// same vector as `self.view(seat).observe(out)`.
    fn observe(&self, seat: usize, out: &mut [f32]);
    /// The view of `seat`: its own dominoes and the public information of the
    /// game; its legal actions are empty unless `seat` is to move.
    fn view(&self, seat: usize) -> Self::View;
}
