//! What the agents, the arena, the review and the resamplers need of a game:
//! [`AgentGame`], one impl per game ([`texas42`], [`doubles`]).
//!
//! Generic code that builds agents or reviews deals is bounded by
//! `G: AgentGame` and reached from a registered game with
//! [`bones_env::on_game!`], so a new game that does not implement this trait
//! fails to compile at every place that needs it, not at run time. The agents
//! that play every game (`random`, `model:PATH`, `onnx:PATH`, `exec:COMMAND`)
//! are built by the [`AgentFactory`](crate::AgentFactory) for any
//! `AgentGame`; what a game adds is here.
//!
//! ```
//! use bones_agents::{AgentGame, AgentRng, AgentSpec};
//! use bones_env::{on_game, AnyGame, Game, GameState, Episode};
//! use rand::SeedableRng;
//!
//! /// Redraws what seat 0 cannot see, for any game with agents.
//! fn redraw<G: AgentGame>(game: &G) -> bool {
//!     let state = game.new_state(7, Episode::Hand);
//!     let mut rng = AgentRng::seed_from_u64(1);
//!     let world = game.resample(&state, 0, &mut rng).unwrap();
//!     world.view(0).legal() == state.view(0).legal()
//! }
//! # use bones_env::SeatView;
//! for name in ["texas42", "doubles"] {
//!     let game = AnyGame::new(name, None, None).unwrap();
//!     assert!(on_game!(game, g => redraw(&g)));
//! }
//! ```

mod doubles;
mod texas42;

use crate::agent::{Agent, AgentRng, ViewOf};
use crate::policy::PolicyLoader;
use crate::resample::ResampleError;
use crate::review::ReviewGame;
use crate::seat_request::SeatRequest;
use crate::spec::{AgentSpec, SpecError};
use bones_env::position::ViewError;
use bones_env::{Game, GameState};
use serde_json::{Map, Value};

/// A game the agents play: the agents written for it, how to redraw what a
/// seat cannot see, how a seat view is read back, and (its supertrait
/// [`ReviewGame`]) how a finished deal is reviewed. Its seat views are
/// what an outside program is sent ([`SeatRequest`]).
pub trait AgentGame: ReviewGame + Game<State: GameState<View: SeatRequest>> {
    /// The agent of `spec` among those written for this game (`heuristic`,
    /// `highest`, `pimc`, `search`: the specs that play every game never reach
    /// here), loading networks with `models` (`None`: this program cannot), or
    /// [`SpecError::WrongGame`] naming the specs that do play it.
    fn game_agent(
        &self,
        spec: &AgentSpec,
        models: Option<&dyn PolicyLoader>,
    ) -> Result<Box<dyn Agent<ViewOf<Self>>>, SpecError>;

    /// The game and a state of it whose view for the view's `seat` is `view`
    /// (a seat view object, docs/interfaces/cli.md "Seat views"): what `bones
    /// serve` plays from when a request gives a view instead of a record.
    fn position(view: &Map<String, Value>) -> Result<(Self, Self::State), ViewError>;

    /// A state `seat` cannot tell from `state`, drawn uniformly among the
    /// deals consistent with its view ([`crate::resample`]).
    fn resample(&self, state: &Self::State, seat: usize, rng: &mut AgentRng) -> Result<Self::State, ResampleError>;

    /// A one-deal state whose seat to move has the view `view`: the dominoes
    /// it cannot see drawn uniformly among the deals consistent with the view
    /// (the `pimc` samplers); the game totals are not kept.
    fn world_of(&self, view: &ViewOf<Self>, rng: &mut AgentRng) -> Result<Self::State, ResampleError>;
}

/// A state `seat` cannot tell from `state`, drawn uniformly among the deals
/// consistent with its view (see the module docs), for any game of the
/// registry ([`AgentGame::resample`], after checking the seat). Errors: a seat not at the table, a
/// finished episode, no consistent deal.
pub fn resample<G: AgentGame>(
    game: &G,
    state: &G::State,
    seat: usize,
    rng: &mut AgentRng,
) -> Result<G::State, ResampleError> {
    let players = game.num_players();
    if seat >= players {
        return Err(ResampleError::Seat { seat, players });
    }
    game.resample(state, seat, rng)
}

/// The error of a spec written for other games than `game`.
pub(crate) fn wrong_game(spec: &AgentSpec, game: &'static str, reason: &str) -> SpecError {
    SpecError::WrongGame { spec: spec.to_string(), game, reason: reason.into() }
}
