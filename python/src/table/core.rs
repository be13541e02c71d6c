//! The typed table behind `bones._bones.Table`: [`Core`], an `Env<G>` of one
//! game with agents in some seats, used by the class through the object-safe
//! [`DynTable`] and built for the concrete game by [`Build`] (through
//! [`bones_env::on_game!`]).

use crate::errors::{env_error, illegal, spec_error, BonesError, RestoreError};
use crate::game::{legal_pairs, PyGame};
use crate::position;
use bones_agents::resample::ResampleError;
use bones_agents::table::{self as seats, TableError};
use bones_agents::{AgentRng, AgentSpec};
use bones_env::registry::AnyState;
use bones_env::{Action, ActionMask, Env, EnvError, Episode, GameState};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// Why a step failed, before it becomes a Python exception.
pub enum StepError {
    /// An illegal action: the message, the action's name and the legal actions.
    Illegal(String, String, Vec<(usize, &'static str)>),
    /// Any other env error.
    Env(EnvError),
    /// An agent in a seat chose an illegal action.
    Agent(String),
}

impl StepError {
    pub(super) fn into_py(self, py: Python<'_>, action: i64) -> PyErr {
        match self {
            StepError::Illegal(msg, name, legal) => illegal(py, msg, action, &name, &legal),
            StepError::Env(e) => env_error(e),
            StepError::Agent(msg) => BonesError::new_err(msg),
        }
    }
}

/// The object-safe face of [`Core`].
pub trait DynTable: Send {
    /// Starts an episode dealt from `seed`; the agents' stream restarts from `agent_seed`.
    fn reset(&mut self, seed: u64, agent_seed: u64) -> Result<(), StepError>;
    /// Applies the acting seat's action, then lets the agents play.
    fn step(&mut self, a: Action) -> Result<(), StepError>;
    /// The last time step's facts: seat, terminated, truncated, steps, rewards.
    fn last(&self) -> (Option<usize>, bool, bool, u32, [f32; 4]);
    /// Each seat's reward on the last transition.
    fn transition_rewards(&self) -> [f32; 4];
    /// Writes `seat`'s observation and legal mask (zero unless it is to move).
    fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [i8]);
    /// The legal actions of the seat to move.
    fn legal(&self) -> ActionMask;
    /// The state and the agents' stream as bytes.
    fn save(&self) -> Vec<u8>;
    /// The table as text.
    fn render(&self) -> String;
    /// The current state, for agents acting from outside.
    fn state_any(&self) -> AnyState<'_>;
    /// The winning side of a finished game episode.
    fn winning_side(&self) -> Option<usize>;
    /// What `save` would write for this table with the dominoes `seat` cannot
    /// see drawn again from `seed` (uniformly among the consistent deals).
    fn resample(&self, seat: usize, seed: u64) -> Result<Vec<u8>, ResampleError>;
    /// `seat`'s information as text ([`position::info_text`]).
    fn info_text(&self, seat: usize) -> String;
    /// The outcome of the deal the last action finished, as a dict
    /// ([`position::outcome_dict`]); None while it is played.
    fn deal_outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>>;
}

/// An environment of `G` and the agents of its seats: a
/// [`bones_agents::Table`] on the environment, which plays the agents.
pub struct Core<G: PyGame> {
    pub(super) table: seats::Table<G, Env<G>>,
}

/// What [`Core::save`] writes (bincode).
#[derive(Serialize, Deserialize)]
struct Saved {
    env: Vec<u8>,
    #[serde(with = "bones_env::deal::rng_serde")]
    rng: AgentRng,
    /// (seat, action) of this episode, for `render`.
    log: Vec<(u8, u8)>,
}

impl<G: PyGame> Core<G> {
    /// Plays the agents' seats until a seat without an agent is to move or the episode ends.
    fn advance(&mut self) -> Result<(), StepError> {
        self.table.advance().map_err(|e| StepError::Agent(e.to_string()))
    }

    fn env(&self) -> &Env<G> {
        self.table.board()
    }

    /// What [`DynTable::save`] writes, with the environment's bytes `env`.
    fn save_with(&self, env: Vec<u8>) -> Vec<u8> {
        let log = self.table.history().iter().map(|&(seat, a)| (seat as u8, a as u8)).collect();
        let saved = Saved { env, rng: self.table.rng().clone(), log };
        bincode::serde::encode_to_vec(&saved, bincode::config::standard()).expect("plain data always encodes")
    }
}

impl<G: PyGame> DynTable for Core<G> {
    fn reset(&mut self, seed: u64, agent_seed: u64) -> Result<(), StepError> {
        self.table.reset(seed, AgentRng::seed_from_u64(agent_seed));
        self.advance()
    }

    fn step(&mut self, a: Action) -> Result<(), StepError> {
        match self.table.apply(a) {
            Ok(()) => {}
            Err(TableError::Illegal(EnvError::Illegal { action, legal, .. })) => {
                let game = self.table.game();
                let mask = self.table.state().legal_mask();
                let msg = format!("illegal action `{action}` (id {a}): the legal actions are {legal}");
                return Err(StepError::Illegal(msg, action, legal_pairs(game, mask)));
            }
            Err(TableError::Illegal(e)) => return Err(StepError::Env(e)),
            Err(TableError::Over) => return Err(StepError::Env(EnvError::EpisodeOver)),
            // Only after an agent's refused action (see `advance`).
            Err(e @ TableError::AgentToMove { .. }) => return Err(StepError::Agent(e.to_string())),
        }
        self.advance()
    }

    fn last(&self) -> (Option<usize>, bool, bool, u32, [f32; 4]) {
        let t = self.env().last();
        (t.seat, t.terminated, t.truncated, t.steps, t.rewards)
    }

    fn transition_rewards(&self) -> [f32; 4] {
        self.table.state().rewards()
    }

    fn observe(&self, seat: usize, obs: &mut [f32], mask: &mut [i8]) {
        let state = self.table.state();
        state.observe(seat, obs);
        mask.fill(0);
        if state.current_seat() == Some(seat) {
            for a in state.legal_mask().iter() {
                mask[a] = 1;
            }
        }
    }

    fn legal(&self) -> ActionMask {
        self.table.state().legal_mask()
    }

    fn save(&self) -> Vec<u8> {
        self.save_with(self.env().save())
    }

    fn render(&self) -> String {
        bones_env::render::render(self.env(), self.table.history())
    }

    fn state_any(&self) -> AnyState<'_> {
        G::any_state(self.table.state())
    }

    fn winning_side(&self) -> Option<usize> {
        self.table.state().winning_side()
    }

    fn resample(&self, seat: usize, seed: u64) -> Result<Vec<u8>, ResampleError> {
        let env = self.env();
        let players = env.game().num_players();
        if seat >= players {
            return Err(ResampleError::Seat { seat, players });
        }
        if env.last().terminated || env.last().truncated {
            return Err(ResampleError::Over);
        }
        let state = bones_agents::resample(env.game(), env.state(), seat, &mut AgentRng::seed_from_u64(seed))?;
        Ok(self.save_with(env.with_state(state).save()))
    }

    fn info_text(&self, seat: usize) -> String {
        position::info_text::<G>(self.table.state(), seat)
    }

    fn deal_outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.table.state().finished_deal().map(|o| position::outcome_dict(py, self.table.game(), &o)).transpose()
    }
}

/// Builds a [`Core`] for the concrete game (a registry visit).
pub(super) struct Build<'a> {
    pub(super) episode: Episode,
    pub(super) max_steps: Option<u32>,
    pub(super) specs: &'a [Option<AgentSpec>],
    pub(super) saved: Option<&'a [u8]>,
}

impl Build<'_> {
    pub(super) fn visit<G: PyGame>(self, game: G) -> PyResult<Box<dyn DynTable>> {
        let factory = bones_policy::agent::factory();
        let mut agents = Vec::new();
        for seat in 0..game.num_players() {
            agents.push(match self.specs.get(seat).and_then(|s| s.as_ref()) {
                Some(spec) => Some(factory.build(spec, &game).map_err(spec_error)?),
                None => None,
            });
        }
        let table = match self.saved {
            None => {
                let mut env = Env::new(game, self.episode);
                env.max_steps = self.max_steps;
                seats::Table::new(env, agents, AgentRng::seed_from_u64(0))
            }
            Some(bytes) => {
                let (saved, used): (Saved, usize) =
                    bincode::serde::decode_from_slice(bytes, bincode::config::standard())
                        .map_err(|e| RestoreError::new_err(format!("the saved environment cannot be decoded: {e}")))?;
                if used != bytes.len() {
                    return Err(RestoreError::new_err("the saved environment has bytes left over"));
                }
                let env = Env::restore(game, &saved.env).map_err(env_error)?;
                let log = saved.log.iter().map(|&(seat, a)| (usize::from(seat), Action::from(a))).collect();
                seats::Table::new(env, agents, saved.rng).with_history(log)
            }
        };
        Ok(Box::new(Core { table }))
    }
}
