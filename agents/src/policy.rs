//! Trained policies as agents see them: the [`Policy`] trait (an observation in,
//! an action or the raw scores out), the [`PolicyLoader`] that `model:PATH` and
//! `search` specs load them through, and [`ObservingAgent`], a policy playing a
//! seat from its view's observation.
//!
//! This crate has no network library: the trainer's crates implement
//! [`Policy`] and [`PolicyLoader`], and [`crate::factory`] and [`crate::search`]
//! use them.

use std::path::{Path, PathBuf};

use crate::agent::{Agent, AgentFailure, AgentRng};
use bones_env::{Action, ActionMask, Game, SeatView};

/// A trained policy for one game's encoding: it decides from an observation
/// vector and the legal actions.
pub trait Policy: Send {
    /// Chooses a legal action for observation `obs`.
    fn decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Action;

    /// Chooses as [`Policy::decide`] does, or says why it cannot (a network
    /// read from outside that fails or scores no legal action); policies that
    /// cannot fail keep the default, which is `decide`.
    fn try_decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Result<Action, String> {
        Ok(self.decide(obs, legal, rng))
    }

    /// The raw action scores of a batch: `obs` holds `rows` observations one
    /// after another; the result holds `rows` rows of `num_actions` logits (the
    /// policy is the softmax of a row over the legal actions). The `search`
    /// agent reads them to weigh its sampled worlds.
    fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32>;
}

/// The probability of `action` under the softmax of `logits` over `legal`.
pub fn legal_prob(logits: &[f32], legal: ActionMask, action: Action) -> f32 {
    let max = legal.iter().map(|a| logits[a]).fold(f32::NEG_INFINITY, f32::max);
    let z: f32 = legal.iter().map(|a| (logits[a] - max).exp()).sum();
    if legal.contains(action) {
        (logits[action] - max).exp() / z
    } else {
        0.0
    }
}

/// Why a spec that needs a trained policy cannot be built without a [`PolicyLoader`].
pub(crate) const NO_LOADER: &str =
    "this program cannot load trained policies (the `bones` binary and the Python package can)";

/// The policy a game asks a [`PolicyLoader`] for: trained for the game
/// `game`, reading `obs_len` floats of its observation and scoring its
/// `num_actions` actions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wanted<'a> {
    /// The game's registry name.
    pub game: &'a str,
    /// The observation's length.
    pub obs_len: usize,
    /// The action space's size.
    pub num_actions: usize,
}

impl Wanted<'static> {
    /// What a policy for `game` (its rules and players as they are) must be.
    pub fn of<G: Game>(game: &G) -> Wanted<'static> {
        Wanted { game: game.name(), obs_len: game.obs_len(), num_actions: game.num_actions() }
    }
}

/// Loads trained policies for `model:PATH` specs.
pub trait PolicyLoader: Sync {
    /// The policy at `path`, which must be the `wanted` one (trained for that
    /// game, observation length and action count); the reason when it cannot
    /// be loaded.
    fn load(&self, path: &Path, wanted: Wanted<'_>) -> Result<Box<dyn Policy>, String>;

    /// The ONNX network at `path` (`onnx:PATH`): a folder with `model.onnx` and
    /// `model.json`, or a `.onnx` file read as observation version
    /// `observation`; it must take the `wanted` game's observation and score
    /// its actions. The reason when it cannot be loaded.
    fn load_onnx(&self, path: &Path, observation: Option<u32>, wanted: Wanted<'_>) -> Result<Box<dyn Policy>, String> {
        let _ = (path, observation, wanted);
        Err("this program cannot run ONNX models (the `bones` binary and the Python package can)".to_string())
    }

    /// The shipped model of `game` (the policy `search` uses without
    /// `model=PATH`), if this loader knows one.
    fn shipped(&self, game: &str) -> Option<PathBuf> {
        let _ = game;
        None
    }
}

/// A policy acting for a seat: it writes the seat view's observation and asks
/// the policy.
pub struct ObservingAgent {
    policy: Box<dyn Policy>,
    obs: Vec<f32>,
}

impl ObservingAgent {
    /// `policy` for observations of `obs_len` floats.
    pub fn new(policy: Box<dyn Policy>, obs_len: usize) -> ObservingAgent {
        ObservingAgent { policy, obs: vec![0.0; obs_len] }
    }
}

impl<V: SeatView> Agent<V> for ObservingAgent {
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action {
        view.observe(&mut self.obs);
        self.policy.decide(&self.obs, view.legal(), rng)
    }

    fn try_act(&mut self, view: &V, rng: &mut AgentRng) -> Result<Action, AgentFailure> {
        view.observe(&mut self.obs);
        self.policy.try_decide(&self.obs, view.legal(), rng).map_err(|what| AgentFailure {
            what: format!("the policy failed: {what}"),
            got: "no action".to_string(),
            expected: "a legal action".to_string(),
        })
    }
}
