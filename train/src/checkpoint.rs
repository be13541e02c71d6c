//! Checkpoints, written atomically: each goes into a temporary folder that is
//! renamed into place when complete, then the `latest` pointer file is replaced
//! (write + rename). A killed run loses at most one checkpoint interval.
//!
//! ```text
//! runs/NAME/checkpoints/update-000120/  model.bpk  optim.bpk  state.json  config.toml
//!                                       (critic.bpk: the oracle critic, when the config has one)
//! runs/NAME/checkpoints/latest          "update-000120"
//! runs/NAME/checkpoints/best            "update-000100" (best evaluation so far)
//! ```

use crate::config::TrainConfig;
use crate::model::{Critic, CriticConfig, Policy, PolicyConfig};
use burn::optim::ModuleOptimizer;
use burn::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Why a checkpoint could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// File system trouble.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// burn could not write or read the weights or optimizer state.
    #[error("checkpoint {path}: {message}")]
    Record {
        /// The path.
        path: String,
        /// What burn said.
        message: String,
    },
    /// A file is not what a checkpoint holds.
    #[error("checkpoint {path}: {message}")]
    Format {
        /// The path.
        path: String,
        /// What was wrong.
        message: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io { path: path.display().to_string(), source }
}

/// Counters of a run, restored by `--resume`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// Updates done.
    pub update: u64,
    /// Self-play hands finished.
    pub hands: u64,
    /// Self-play decisions taken.
    pub decisions: u64,
    /// Wall seconds spent so far.
    pub seconds: f64,
    /// Best evaluation score so far (the [`BEST_EVAL`] value), if any.
    pub best_eval: Option<f32>,
    /// Latest evaluation: name → value, in the order evaluated (read one with [`RunState::eval`]).
    pub last_eval: Vec<(String, f32)>,
}

/// The evaluation that ranks checkpoints (`best`): the win rate against the heuristic player.
pub const BEST_EVAL: &str = "win_rate_vs_heuristic";

impl RunState {
    /// The latest evaluation's value of `name` (`win_rate_vs_random`,
    /// `reward_per_hand_vs_heuristic`, …), if it was evaluated.
    pub fn eval(&self, name: &str) -> Option<f32> {
        self.last_eval.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// Writes `text` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// The policy's shape for a config and game.
pub fn policy_config(cfg: &TrainConfig, obs_len: usize, num_actions: usize) -> PolicyConfig {
    PolicyConfig::new(obs_len, num_actions).with_hidden(cfg.hidden).with_depth(cfg.depth)
}

/// The oracle critic's shape for a config: the policy's width and depth over
/// the observation plus `oracle_len` floats of hidden hands.
pub fn critic_config(cfg: &TrainConfig, obs_len: usize, oracle_len: usize) -> CriticConfig {
    CriticConfig::new(obs_len + oracle_len).with_hidden(cfg.hidden).with_depth(cfg.depth)
}

/// Saves a checkpoint named `name` under `root`; points `latest` at it, and
/// `best` too when `best` is set. Keeps the two newest plus the best.
#[allow(clippy::too_many_arguments)]
pub fn save(
    root: &Path,
    name: &str,
    model: &Policy,
    critic: Option<&Critic>,
    optim: &ModuleOptimizer,
    state: &RunState,
    cfg: &TrainConfig,
    best: bool,
) -> Result<PathBuf, CheckpointError> {
    std::fs::create_dir_all(root).map_err(io(root))?;
    let tmp = root.join(format!(".tmp-{name}"));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io(&tmp))?;
    let rec = |path: &Path, e: burn::store::RecordError| CheckpointError::Record {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let model_path = tmp.join("model.bpk");
    model.clone().save_file(&model_path).map_err(|e| rec(&model_path, e))?;
    if let Some(critic) = critic {
        let critic_path = tmp.join("critic.bpk");
        critic.clone().save_file(&critic_path).map_err(|e| rec(&critic_path, e))?;
    }
    let optim_path = tmp.join("optim.bpk");
    optim
        .save(&optim_path)
        .map_err(|e| CheckpointError::Record { path: optim_path.display().to_string(), message: e.to_string() })?;
    let state_json = serde_json::to_vec_pretty(state).expect("run state serialises");
    std::fs::write(tmp.join("state.json"), state_json).map_err(io(&tmp))?;
    std::fs::write(tmp.join("config.toml"), cfg.to_toml()).map_err(io(&tmp))?;
    let dir = root.join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
    }
    std::fs::rename(&tmp, &dir).map_err(io(&dir))?;
    write_atomic(&root.join("latest"), name.as_bytes())?;
    if best {
        write_atomic(&root.join("best"), name.as_bytes())?;
    }
    prune(root)?;
    Ok(dir)
}

fn pointer(root: &Path, which: &str) -> Option<String> {
    std::fs::read_to_string(root.join(which)).ok().map(|s| s.trim().to_string())
}

fn prune(root: &Path) -> Result<(), CheckpointError> {
    let keep: Vec<String> = ["latest", "best"].iter().filter_map(|p| pointer(root, p)).collect();
    let mut dirs: Vec<String> = std::fs::read_dir(root)
        .map_err(io(root))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("update-"))
        .collect();
    dirs.sort();
    let n = dirs.len();
    for (i, d) in dirs.iter().enumerate() {
        if i + 2 < n && !keep.contains(d) {
            let p = root.join(d);
            std::fs::remove_dir_all(&p).map_err(io(&p))?;
        }
    }
    Ok(())
}

/// The newest checkpoint folder under `root`, if any.
pub fn latest(root: &Path) -> Option<PathBuf> {
    pointer(root, "latest").map(|n| root.join(n)).filter(|p| p.is_dir())
}

/// The best checkpoint folder under `root`, if any.
pub fn best(root: &Path) -> Option<PathBuf> {
    pointer(root, "best").map(|n| root.join(n)).filter(|p| p.is_dir())
}

/// Reads the training config saved beside a network (a checkpoint or a model folder).
pub fn read_config(dir: &Path) -> Result<TrainConfig, CheckpointError> {
    let cfg_path = dir.join("config.toml");
    let text = std::fs::read_to_string(&cfg_path).map_err(io(&cfg_path))?;
    TrainConfig::from_toml(&text, &cfg_path.display().to_string())
        .map_err(|e| CheckpointError::Format { path: cfg_path.display().to_string(), message: e.to_string() })
}

/// Reads a checkpoint's config and counters.
pub fn read_meta(dir: &Path) -> Result<(TrainConfig, RunState), CheckpointError> {
    let cfg = read_config(dir)?;
    let state_path = dir.join("state.json");
    let text = std::fs::read_to_string(&state_path).map_err(io(&state_path))?;
    let state = serde_json::from_str(&text)
        .map_err(|e| CheckpointError::Format { path: state_path.display().to_string(), message: e.to_string() })?;
    Ok((cfg, state))
}

/// Loads the network in `dir` (a checkpoint or a model folder; its shape from `config.toml`) onto `device`.
pub fn load_model(dir: &Path, obs_len: usize, num_actions: usize, device: &Device) -> Result<Policy, CheckpointError> {
    let cfg = read_config(dir)?;
    load_weights(policy_config(&cfg, obs_len, num_actions).init(device), &dir.join("model.bpk"))
}

/// Loads the weights in `path` into a freshly initialised `module`.
fn load_weights<M: Module>(module: M, path: &Path) -> Result<M, CheckpointError> {
    module
        .try_load_file(path)
        .map_err(|e| CheckpointError::Record { path: path.display().to_string(), message: e.to_string() })
}

/// Loads the oracle critic of the checkpoint in `dir` onto `device`.
pub fn load_critic(dir: &Path, obs_len: usize, oracle_len: usize, device: &Device) -> Result<Critic, CheckpointError> {
    let cfg = read_config(dir)?;
    load_weights(critic_config(&cfg, obs_len, oracle_len).init(device), &dir.join("critic.bpk"))
}

/// Loads a checkpoint's optimizer state into `optim`.
pub fn load_optim(dir: &Path, optim: ModuleOptimizer) -> Result<ModuleOptimizer, CheckpointError> {
    let path = dir.join("optim.bpk");
    optim.load(&path).map_err(|e| CheckpointError::Record { path: path.display().to_string(), message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_state_reads_evaluations_by_name_in_the_saved_format() {
        // `state.json` as checkpoints have always written it: `last_eval` is a
        // list of [name, value] pairs.
        let saved = r#"{
  "update": 14,
  "hands": 126,
  "decisions": 1792,
  "seconds": 1.5,
  "best_eval": 0.25,
  "last_eval": [
    [
      "win_rate_vs_random",
      0.75
    ],
    [
      "reward_per_hand_vs_random",
      1.5
    ],
    [
      "win_rate_vs_heuristic",
      0.25
    ],
    [
      "reward_per_hand_vs_heuristic",
      -0.5
    ]
  ]
}"#;
        let state: RunState = serde_json::from_str(saved).unwrap();
        assert_eq!(state.eval("win_rate_vs_random"), Some(0.75));
        assert_eq!(state.eval("reward_per_hand_vs_heuristic"), Some(-0.5));
        assert_eq!(state.eval(BEST_EVAL), Some(0.25));
        assert_eq!(state.eval("win_rate_vs_nobody"), None);
        assert_eq!(RunState::default().eval(BEST_EVAL), None);
        assert_eq!(String::from_utf8(serde_json::to_vec_pretty(&state).unwrap()).unwrap(), saved);
    }
}
