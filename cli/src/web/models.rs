//! Trained policies shared by the games of a server: each `model:PATH` is
//! loaded once and every bot playing it asks the same network (one decision at
//! a time), so an open game costs no copy of the weights.

use bones_agents::{AgentRng, Policy, PolicyLoader};
use bones_env::{Action, ActionMask};
use bones_policy::agent::PolicyAgent;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Models kept loaded at most (a request may name any model folder).
const MAX_MODELS: usize = 16;

/// A loaded policy, shared by the bots that play it.
type SharedAgent = Arc<Mutex<PolicyAgent>>;

/// A [`PolicyLoader`] that keeps what it loaded (greedy policies), by folder and game.
#[derive(Default)]
pub struct SharedModels {
    loaded: Mutex<HashMap<(PathBuf, String), SharedAgent>>,
}

impl SharedModels {
    /// An empty cache.
    pub fn new() -> SharedModels {
        SharedModels::default()
    }
}

impl PolicyLoader for SharedModels {
    fn load(&self, path: &Path, game: &str, obs_len: usize, num_actions: usize) -> Result<Box<dyn Policy>, String> {
        let key = (std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()), game.to_string());
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(agent) = loaded.get(&key) {
            return Ok(Box::new(Shared(agent.clone())));
        }
        let agent = Arc::new(Mutex::new(PolicyAgent::load(path, game, obs_len, num_actions)?));
        if loaded.len() < MAX_MODELS {
            loaded.insert(key, agent.clone());
        }
        Ok(Box::new(Shared(agent)))
    }

    /// ONNX networks are not kept: each bot loads its own (see `ModelLoader`).
    fn load_onnx(
        &self,
        path: &Path,
        observation: Option<u32>,
        game: &str,
        obs_len: usize,
        num_actions: usize,
    ) -> Result<Box<dyn Policy>, String> {
        bones_policy::agent::ModelLoader.load_onnx(path, observation, game, obs_len, num_actions)
    }

    fn shipped(&self, game: &str) -> Option<PathBuf> {
        bones_policy::agent::shipped_model(game)
    }
}

/// One bot's handle on a shared policy.
struct Shared(SharedAgent);

impl Policy for Shared {
    fn decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Action {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).decide(obs, legal, rng)
    }

    fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).logits(obs, rows)
    }
}
