//! Building the agent of a spec for a game.
//!
//! `random`, `model:PATH`, `onnx:PATH` and `exec:COMMAND` play every game: the
//! first picks among the legal actions, the next two are trained policies fed
//! the seat's observation, the last an outside program sent the seat's view.
//! The agents written for each game (`heuristic`, `highest`, `pimc`, `search`)
//! come from the game's [`AgentGame::game_agent`]; a spec written for other
//! games gets a clear [`SpecError::WrongGame`].
//!
//! Trained policies come from a [`PolicyLoader`] that the caller passes in (the
//! trainer crate has the network library; this crate does not): an
//! [`AgentFactory`] without one refuses `model:PATH` with a message that says so.
//!
//! ```
//! use bones_agents::{AgentFactory, AgentSpec};
//! use bones_env::{Texas42, Texas42Rules};
//!
//! let game = Texas42::new(Texas42Rules::STANDARD);
//! let factory = AgentFactory::new();
//! assert!(factory.build(&AgentSpec::Heuristic, &game).is_ok());
//! let e = factory.build(&AgentSpec::Highest, &game).err().unwrap();
//! assert!(e.to_string().contains("Doubles"));
//! ```

use crate::agent::{Agent, ViewOf};
use crate::exec::ExecAgent;
use crate::game::AgentGame;
use crate::policy::{ObservingAgent, PolicyLoader, Wanted, NO_LOADER};
use crate::random::RandomAgent;
use crate::spec::{AgentSpec, SpecError};

/// Builds agents from specs; `model:PATH` goes through the loader it was given.
#[derive(Clone, Copy, Default)]
pub struct AgentFactory<'a> {
    models: Option<&'a dyn PolicyLoader>,
}

impl std::fmt::Debug for AgentFactory<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentFactory").field("loads_models", &self.models.is_some()).finish()
    }
}

impl<'a> AgentFactory<'a> {
    /// A factory for every spec but `model:PATH`.
    pub fn new() -> AgentFactory<'static> {
        AgentFactory { models: None }
    }

    /// A factory that loads `model:PATH` policies with `loader`.
    pub fn with_models(loader: &'a dyn PolicyLoader) -> AgentFactory<'a> {
        AgentFactory { models: Some(loader) }
    }

    /// The agent of `spec` for `game`, or why there is none.
    pub fn build<G: AgentGame>(&self, spec: &AgentSpec, game: &G) -> Result<Box<dyn Agent<ViewOf<G>>>, SpecError> {
        match spec {
            AgentSpec::Random => Ok(Box::new(RandomAgent)),
            AgentSpec::Model { path } => {
                let loader =
                    self.models.ok_or_else(|| SpecError::NotAvailable { spec: spec.to_string(), reason: NO_LOADER })?;
                let policy = loader
                    .load(path, Wanted::of(game))
                    .map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason })?;
                Ok(Box::new(ObservingAgent::new(policy, game.obs_len())))
            }
            AgentSpec::Onnx { path, observation } => {
                let loader =
                    self.models.ok_or_else(|| SpecError::NotAvailable { spec: spec.to_string(), reason: NO_LOADER })?;
                let policy = loader
                    .load_onnx(path, *observation, Wanted::of(game))
                    .map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason })?;
                Ok(Box::new(ObservingAgent::new(policy, game.obs_len())))
            }
            AgentSpec::Exec { argv, limit_ms, .. } => {
                Ok(Box::new(ExecAgent::<ViewOf<G>>::start(spec.to_string(), argv, *limit_ms)?))
            }
            _ => game.game_agent(spec, self.models),
        }
    }
}
