//! A trained policy as an agent (`model:PATH`): it acts from the seat's
//! observation only (the view's encoding), greedily or by sampling.
//!
//! PATH is a checkpoint folder (`runs/NAME/checkpoints/update-000120`), a run
//! folder (its best checkpoint, else its latest), or a model folder holding
//! `model.bpk` and `config.toml`.

use crate::folder;
use crate::inference::{choose, legal_probs, Actor};
use crate::model::Policy;
use crate::onnx::OnnxPolicy;
use crate::sparse::SparseRows;
use bones_agents::{AgentFactory, AgentRng, Policy as DecidePolicy, PolicyLoader};
use bones_env::{Action, ActionMask};
use burn::prelude::*;
use std::path::{Path, PathBuf};

/// A loaded policy acting for one seat at a time.
pub struct PolicyAgent {
    model: Policy,
    device: Device,
    /// The same network for batches (input layer from the non-zero entries).
    actor: Actor,
    /// Sample from the policy instead of taking its most probable action.
    pub sample: bool,
    /// The rules the policy was trained under (a preset name or a rules object).
    pub trained_rules: String,
    mask: Vec<f32>,
}

/// What one forward pass says about one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyOutput {
    /// The chosen action (greedy, or sampled when the agent samples).
    pub action: Action,
    /// Probability of each legal action, in id order.
    pub policy: Vec<(Action, f32)>,
    /// The value head: the seat's expected reward.
    pub value: f32,
}

/// The shipped model folder of `game` (`models/GAME`): in the current folder, else
/// in the source tree the binary was built from; `None` when neither exists.
pub fn shipped_model(game: &str) -> Option<PathBuf> {
    let here = Path::new("models").join(game);
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("models").join(game);
    [here, built].into_iter().find(|p| p.is_dir())
}

/// The checkpoint folder a `model:PATH` names.
pub fn resolve(path: &Path) -> Result<PathBuf, String> {
    if path.join("model.bpk").is_file() {
        return Ok(path.to_path_buf());
    }
    let root = path.join("checkpoints");
    folder::best(&root)
        .or_else(|| folder::latest(&root))
        .ok_or_else(|| format!("{} holds no model.bpk and no checkpoints/ of a training run", path.display()))
}

impl PolicyAgent {
    /// Loads the policy at `path` for `game` (`texas42` or `doubles`).
    pub fn load(path: &Path, game: &str, obs_len: usize, num_actions: usize) -> Result<PolicyAgent, String> {
        let dir = resolve(path)?;
        let cfg = folder::read_model_config(&dir).map_err(|e| e.to_string())?;
        if cfg.game != game {
            return Err(format!("{} is a {} policy, not {game}", dir.display(), cfg.game));
        }
        let device = Device::flex();
        let model = folder::load_model(&dir, obs_len, num_actions, &device).map_err(|e| e.to_string())?;
        let actor = Actor::new(model.clone(), &device);
        Ok(PolicyAgent { model, device, actor, sample: false, trained_rules: cfg.rules, mask: vec![0.0; num_actions] })
    }

    /// Runs the policy on one observation (`obs_len` floats) with its legal
    /// actions: the action it takes, the probabilities of the legal actions and
    /// the value.
    pub fn evaluate(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> PolicyOutput {
        legal.write_f32(&mut self.mask);
        let (logits, value) = self.forward(obs);
        let action = choose(&logits, &self.mask, if self.sample { Some(rng) } else { None }).0;
        PolicyOutput { action, policy: legal_probs(&logits, &self.mask), value }
    }

    /// Logits and value for one observation.
    fn forward(&self, obs: &[f32]) -> (Vec<f32>, f32) {
        let x = Tensor::<2>::from_data(TensorData::new(obs.to_vec(), [1, obs.len()]), &self.device);
        let (logits, value) = self.model.forward(x);
        let logits = logits.into_data().try_to_vec::<f32>().expect("f32 logits");
        let value = value.into_data().try_to_vec::<f32>().expect("f32 value")[0];
        (logits, value)
    }
}

impl DecidePolicy for PolicyAgent {
    fn decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Action {
        self.evaluate(obs, legal, rng).action
    }

    fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32> {
        if rows == 0 {
            return Vec::new();
        }
        self.actor.forward(&SparseRows::from_dense(obs, obs.len() / rows)).0
    }
}

/// Loads `model:PATH` and `onnx:PATH` policies for [`bones_agents::AgentFactory`] (greedy).
#[derive(Copy, Clone, Debug, Default)]
pub struct ModelLoader;

impl PolicyLoader for ModelLoader {
    fn load(
        &self,
        path: &Path,
        game: &str,
        obs_len: usize,
        num_actions: usize,
    ) -> Result<Box<dyn DecidePolicy>, String> {
        Ok(Box::new(PolicyAgent::load(path, game, obs_len, num_actions)?))
    }

    fn load_onnx(
        &self,
        path: &Path,
        observation: Option<u32>,
        game: &str,
        obs_len: usize,
        num_actions: usize,
    ) -> Result<Box<dyn DecidePolicy>, String> {
        match OnnxPolicy::load(path, observation, game, obs_len, num_actions) {
            Ok(policy) => Ok(Box::new(policy)),
            Err(e) => Err(e.to_string()),
        }
    }

    fn shipped(&self, game: &str) -> Option<PathBuf> {
        shipped_model(game)
    }
}

/// The agent factory of the `bones` tools: every spec, `model:PATH` included.
pub fn factory() -> AgentFactory<'static> {
    AgentFactory::with_models(&ModelLoader)
}
