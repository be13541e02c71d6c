//! Trained policies shared by the games of a server: each `model:PATH` is
//! loaded once and every bot playing it asks the same network (one decision at
//! a time), so an open game costs no copy of the weights. A network that
//! panicked while one bot asked it is never asked again: the bots holding it
//! fail (their games end, saying why) and the next game loads it afresh.

use bones_agents::policy::Wanted;
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
    /// The folder of the shipped models (`GAME/` in it), if any.
    shipped: Option<PathBuf>,
}

impl SharedModels {
    /// An empty cache whose shipped models are `shipped/GAME` (`None`: none).
    pub fn new(shipped: Option<PathBuf>) -> SharedModels {
        SharedModels { loaded: Mutex::default(), shipped }
    }
}

impl PolicyLoader for SharedModels {
    fn load(&self, path: &Path, wanted: Wanted<'_>) -> Result<Box<dyn Policy>, String> {
        let key = (std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()), wanted.game.to_string());
        // Only the map's own methods run under this lock: a poisoned one still holds a whole map.
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(agent) = loaded.get(&key) {
            if !agent.is_poisoned() {
                return Ok(Box::new(Shared(agent.clone())));
            }
            loaded.remove(&key);
        }
        let agent = Arc::new(Mutex::new(PolicyAgent::load(path, wanted.game, wanted.obs_len, wanted.num_actions)?));
        if loaded.len() < MAX_MODELS {
            loaded.insert(key, agent.clone());
        }
        Ok(Box::new(Shared(agent)))
    }

    /// ONNX networks are not kept: each bot loads its own (see `ModelLoader`).
    fn load_onnx(&self, path: &Path, observation: Option<u32>, wanted: Wanted<'_>) -> Result<Box<dyn Policy>, String> {
        bones_policy::agent::ModelLoader.load_onnx(path, observation, wanted)
    }

    fn shipped(&self, game: &str) -> Option<PathBuf> {
        self.shipped.as_ref().map(|dir| dir.join(game)).filter(|p| p.is_dir())
    }
}

/// One bot's handle on a shared policy.
struct Shared(SharedAgent);

/// Why a shared network whose lock is poisoned is not asked.
const POISONED: &str = "the shared network failed (panicked) in another game, so it is not used again by this game";

impl Shared {
    fn agent(&self) -> Result<std::sync::MutexGuard<'_, PolicyAgent>, String> {
        self.0.lock().map_err(|_| POISONED.to_string())
    }
}

impl Policy for Shared {
    /// Panics when the network failed in another game (the bot's driver
    /// contains it and ends the game, saying why).
    fn decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Action {
        self.try_decide(obs, legal, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Result<Action, String> {
        Ok(self.agent()?.decide(obs, legal, rng))
    }

    fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32> {
        self.agent().unwrap_or_else(|e| panic!("{e}")).logits(obs, rows)
    }
}
