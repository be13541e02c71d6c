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
use crate::critic::{Critic, CriticConfig};
pub use bones_policy::folder::{best, latest, load_model, write_atomic, CheckpointError, RunState, BEST_EVAL};
use bones_policy::folder::{io, load_weights, pointer, read_run_state};
use bones_policy::model::{Policy, PolicyConfig};
use burn::optim::ModuleOptimizer;
use burn::prelude::*;
use std::path::{Path, PathBuf};

/// The policy's shape for a config and game.
pub fn policy_config(cfg: &TrainConfig, obs_len: usize, num_actions: usize) -> PolicyConfig {
    cfg.model.policy(obs_len, num_actions)
}

/// The oracle critic's shape for a config: the policy's width and depth over
/// the observation plus `oracle_len` floats of hidden hands.
pub fn critic_config(cfg: &TrainConfig, obs_len: usize, oracle_len: usize) -> CriticConfig {
    CriticConfig::new(obs_len + oracle_len).with_hidden(cfg.model.hidden).with_depth(cfg.model.depth)
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

/// A network's parameters as a burnpack record in memory (what
/// `save_file` writes), to carry it to another device or process.
pub fn record_bytes<M: burn::module::Module>(net: M) -> Vec<u8> {
    net.into_record().into_bytes().expect("a record serialises into memory").to_vec()
}

/// `net` with the parameters of the burnpack record in `bytes` (refused
/// unless every parameter is there with its shape).
pub fn from_record_bytes<M: burn::module::Module>(net: M, bytes: &[u8]) -> Result<M, burn::store::RecordError> {
    let record = burn::store::ModuleRecord::from_bytes(burn::tensor::Bytes::from_bytes_vec(bytes.to_vec()))?;
    net.try_load_record(record)
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
    Ok((read_config(dir)?, read_run_state(dir)?))
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
