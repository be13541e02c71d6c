//! Building the agent of a spec for a game.
//!
//! `random` and `model:PATH` play every game: the first picks among the legal
//! actions, the second is a trained policy fed the seat's observation. The
//! agents written for each game (`heuristic`, `highest`, `pimc`) are found by
//! the game's type in `game_agent`, the one place here that knows which game
//! has which of them; a game without any gets a clear [`SpecError::WrongGame`].
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

use std::any::Any;

use crate::agent::{Agent, ViewOf};
use crate::exec::ExecAgent;
use crate::heuristic::doubles::{DoublesHeuristic, HighestAgent};
use crate::heuristic::texas42::Texas42Heuristic;
use crate::pimc::doubles::DoublesPimc;
use crate::pimc::PimcAgent;
use crate::policy::{ObservingAgent, PolicyLoader};
use crate::random::RandomAgent;
use crate::search::SearchAgent;
use crate::spec::{AgentSpec, SpecError};
use bones_env::{Doubles, DoublesView, Game, Texas42, Texas42View};

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

const NO_LOADER: &str = "this program cannot load trained policies (the `bones` binary and the Python package can)";

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
    pub fn build<G: Game>(&self, spec: &AgentSpec, game: &G) -> Result<Box<dyn Agent<ViewOf<G>>>, SpecError> {
        match spec {
            AgentSpec::Random => Ok(Box::new(RandomAgent)),
            AgentSpec::Model { path } => {
                let loader =
                    self.models.ok_or_else(|| SpecError::NotAvailable { spec: spec.to_string(), reason: NO_LOADER })?;
                let policy = loader
                    .load(path, game.name(), game.obs_len(), game.num_actions())
                    .map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason })?;
                Ok(Box::new(ObservingAgent::new(policy, game.obs_len())))
            }
            AgentSpec::Onnx { path, observation } => {
                let loader =
                    self.models.ok_or_else(|| SpecError::NotAvailable { spec: spec.to_string(), reason: NO_LOADER })?;
                let policy = loader
                    .load_onnx(path, *observation, game.name(), game.obs_len(), game.num_actions())
                    .map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason })?;
                Ok(Box::new(ObservingAgent::new(policy, game.obs_len())))
            }
            AgentSpec::Exec { argv, limit_ms, .. } => {
                let any: &dyn Any = game;
                let name = spec.to_string();
                if any.is::<Texas42>() {
                    let agent: Box<dyn Agent<Texas42View>> =
                        Box::new(ExecAgent::<Texas42View>::start(name, argv, *limit_ms)?);
                    return Ok(cast(agent));
                }
                if any.is::<Doubles>() {
                    let agent: Box<dyn Agent<DoublesView>> =
                        Box::new(ExecAgent::<DoublesView>::start(name, argv, *limit_ms)?);
                    return Ok(cast(agent));
                }
                Err(SpecError::WrongGame {
                    spec: name,
                    game: game.name(),
                    reason: "outside programs are sent seat views of Texas 42 and Doubles only".into(),
                })
            }
            AgentSpec::Search(options) => {
                let loader =
                    self.models.ok_or_else(|| SpecError::NotAvailable { spec: spec.to_string(), reason: NO_LOADER })?;
                let any: &dyn Any = game;
                if !any.is::<Texas42>() {
                    return Err(SpecError::WrongGame {
                        spec: spec.to_string(),
                        game: game.name(),
                        reason: "the policy-guided search is built for Texas 42 only; use `heuristic`, `highest`, \
                                 `random` or `model:PATH`"
                            .into(),
                    });
                }
                let path = match &options.model {
                    Some(p) => p.clone(),
                    None => loader.shipped(game.name()).ok_or_else(|| SpecError::BadModel {
                        spec: spec.to_string(),
                        reason: format!("no shipped model (models/{}) here: give one with `model=PATH`", game.name()),
                    })?,
                };
                let policy = loader
                    .load(&path, game.name(), game.obs_len(), game.num_actions())
                    .map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason })?;
                let agent: Box<dyn Agent<Texas42View>> =
                    Box::new(SearchAgent::new(policy, options.clone(), game.obs_len()));
                Ok(cast(agent))
            }
            _ => game_agent(spec, game),
        }
    }
}

/// The agents written for one game, looked up by the game's type.
fn game_agent<G: Game>(spec: &AgentSpec, game: &G) -> Result<Box<dyn Agent<ViewOf<G>>>, SpecError> {
    let wrong =
        |reason: &str| SpecError::WrongGame { spec: spec.to_string(), game: game.name(), reason: reason.into() };
    let any: &dyn Any = game;
    if any.is::<Texas42>() {
        let agent: Box<dyn Agent<Texas42View>> = match spec {
            AgentSpec::Heuristic => Box::new(Texas42Heuristic::default()),
            AgentSpec::Pimc { worlds } => Box::new(PimcAgent::new(*worlds)),
            _ => {
                return Err(wrong("`highest` is the Doubles baseline (highest pip total); use `random` or `heuristic`"))
            }
        };
        return Ok(cast(agent));
    }
    if any.is::<Doubles>() {
        let agent: Box<dyn Agent<DoublesView>> = match spec {
            AgentSpec::Heuristic => Box::new(DoublesHeuristic::default()),
            AgentSpec::Highest => Box::new(HighestAgent),
            AgentSpec::Pimc { worlds } => Box::new(DoublesPimc::new(*worlds)),
            _ => return Err(wrong("`search` is built for Texas 42; use `pimc`, `heuristic`, `highest` or `random`")),
        };
        return Ok(cast(agent));
    }
    Err(wrong("only `random` and `model:PATH` play every game"))
}

/// The same agent typed by the view of the game it was built for (`W` is `V`:
/// the caller checked the game's type).
fn cast<V: 'static, W: 'static>(agent: Box<dyn Agent<V>>) -> Box<dyn Agent<W>> {
    let boxed: Box<dyn Any> = Box::new(agent);
    *boxed.downcast::<Box<dyn Agent<W>>>().expect("the view of the game whose type was checked")
}
