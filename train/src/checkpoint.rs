//! Checkpoints, written atomically: each goes into a temporary folder that is
//! renamed into place when complete, then the `latest` pointer file is replaced
//! (write + rename). A killed run loses at most one checkpoint interval.
//!
//! ```text
//! runs/NAME/checkpoints/update-000120/  model.bpk  optim.bpk  state.json  config.toml
//!                                       resume.json  pool/00.bpk …  games-0.bin
//!                                       manifest.json (written last: each file's size and SHA-256)
//!                                       (critic.bpk: the oracle critic, when the config has one)
//! runs/NAME/checkpoints/latest          "update-000120"
//! runs/NAME/checkpoints/best            "update-000100" (best evaluation so far)
//! ```
//!
//! `resume.json`, `pool/` and `games-*.bin` are what a resumed run needs
//! beyond the networks, optimizer and counters to play on as the run that was
//! never stopped ([`Resume`]): the opponent pool's snapshots and the games in
//! progress. (A checkpoint of a run with bid rounds, which were removed, is
//! refused by its config.)

use crate::config::TrainConfig;
use crate::critic::{Critic, CriticConfig};
pub use bones_policy::folder::{best, latest, load_model, write_atomic, CheckpointError, RunState, BEST_EVAL};
use bones_policy::folder::{io, load_weights, pointer, read_run_state};
use bones_policy::manifest;
use bones_policy::model::{PolicyNet, PolicyNetConfig};
use burn::optim::ModuleOptimizer;
use burn::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a checkpoint holds, besides the networks and counters, for a resumed
/// run to play on exactly as the run that was never stopped.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Resume {
    /// Changes to the opponent pool so far (the actor-learner and remote
    /// workers resend the pool when it changes).
    pub pool_version: u64,
    /// The opponent pool's snapshots as burnpack records, oldest first (`pool/NN.bpk`).
    #[serde(skip)]
    pub pool: Vec<Vec<u8>>,
    /// The games in progress, one `VecEnv::save` per collector (`games-W.bin`;
    /// the synchronous loop's one, none for the actor-learner's workers).
    #[serde(skip)]
    pub games: Vec<Vec<u8>>,
}

/// What [`save`] writes.
pub struct Contents<'a> {
    /// The policy.
    pub model: &'a PolicyNet,
    /// The oracle critic, under `critic = "oracle"`.
    pub critic: Option<&'a Critic>,
    /// The optimizer of both.
    pub optim: &'a ModuleOptimizer,
    /// The counters.
    pub state: &'a RunState,
    /// The run's config.
    pub cfg: &'a TrainConfig,
    /// The pool and the games.
    pub resume: &'a Resume,
}

/// `resume.json`'s counts, beside the pool version, to check the files against.
#[derive(Serialize, Deserialize)]
struct ResumeFile {
    #[serde(flatten)]
    resume: Resume,
    pool: usize,
    games: usize,
}

fn pool_file(i: usize) -> String {
    format!("pool/{i:02}.bpk")
}

fn games_file(worker: usize) -> String {
    format!("games-{worker}.bin")
}

/// The policy's shape for a config and game.
pub fn policy_config(cfg: &TrainConfig, obs_len: usize, num_actions: usize) -> PolicyNetConfig {
    cfg.model.policy(obs_len, num_actions)
}

/// The oracle critic's shape for a config: the policy's width and depth over
/// the observation plus `oracle_len` floats of hidden hands.
pub fn critic_config(cfg: &TrainConfig, obs_len: usize, oracle_len: usize) -> CriticConfig {
    CriticConfig::new(obs_len + oracle_len).with_hidden(cfg.model.hidden).with_depth(cfg.model.depth)
}

/// Saves a checkpoint named `name` under `root`, its manifest last; points
/// `latest` at it, and `best` too when `best` is set. Keeps the two newest
/// plus the best.
pub fn save(root: &Path, name: &str, contents: Contents<'_>, best: bool) -> Result<PathBuf, CheckpointError> {
    let Contents { model, critic, optim, state, cfg, resume } = contents;
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
    bones_policy::folder::save_model(model, &tmp)?;
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
    if !resume.pool.is_empty() {
        std::fs::create_dir_all(tmp.join("pool")).map_err(io(&tmp))?;
    }
    let files = resume.pool.iter().enumerate().map(|(i, b)| (pool_file(i), b));
    for (file, bytes) in files.chain(resume.games.iter().enumerate().map(|(w, b)| (games_file(w), b))) {
        let path = tmp.join(file);
        std::fs::write(&path, bytes).map_err(io(&path))?;
    }
    let counts = ResumeFile { resume: resume.clone(), pool: resume.pool.len(), games: resume.games.len() };
    let resume_json = serde_json::to_vec_pretty(&counts).expect("the resume counts serialise");
    std::fs::write(tmp.join("resume.json"), resume_json).map_err(io(&tmp))?;
    manifest::write(&tmp)?;
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

/// The checkpoints under `root` a resumed run may start from, best first: the
/// one `latest` names, then the others (`update-*`), newest first.
pub fn resumable(root: &Path) -> Vec<PathBuf> {
    let mut dirs = updates(root);
    dirs.reverse();
    let latest = pointer(root, "latest");
    if let Some(i) = latest.and_then(|l| dirs.iter().position(|d| *d == l)) {
        let first = dirs.remove(i);
        dirs.insert(0, first);
    }
    dirs.into_iter().map(|d| root.join(d)).collect()
}

/// The names of the checkpoints under `root`, oldest first.
fn updates(root: &Path) -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("update-"))
        .collect();
    dirs.sort();
    dirs
}

fn prune(root: &Path) -> Result<(), CheckpointError> {
    let keep: Vec<String> = ["latest", "best"].iter().filter_map(|p| pointer(root, p)).collect();
    let dirs = updates(root);
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

/// Reads the training config saved beside a network (a checkpoint or a model
/// folder), once the folder's manifest (if any) checks out.
pub fn read_config(dir: &Path) -> Result<TrainConfig, CheckpointError> {
    manifest::verify(dir)?;
    let cfg_path = dir.join("config.toml");
    let text = std::fs::read_to_string(&cfg_path).map_err(io(&cfg_path))?;
    TrainConfig::from_toml(&text, &cfg_path.display().to_string())
        .map_err(|e| CheckpointError::Format { path: cfg_path.display().to_string(), message: e.to_string() })
}

/// Reads a checkpoint's config and counters.
pub fn read_meta(dir: &Path) -> Result<(TrainConfig, RunState), CheckpointError> {
    Ok((read_config(dir)?, read_run_state(dir)?))
}

/// Reads a checkpoint's pool and games (none from a checkpoint written before
/// they were saved: a resumed run then starts with an empty pool and new games).
pub fn read_resume(dir: &Path) -> Result<Resume, CheckpointError> {
    let path = dir.join("resume.json");
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resume::default()),
        Err(e) => return Err(io(&path)(e)),
    };
    let file: ResumeFile = serde_json::from_slice(&text)
        .map_err(|e| CheckpointError::Format { path: path.display().to_string(), message: e.to_string() })?;
    let read = |name: String| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(io(&path))
    };
    Ok(Resume {
        pool: (0..file.pool).map(|i| read(pool_file(i))).collect::<Result<_, _>>()?,
        games: (0..file.games).map(|w| read(games_file(w))).collect::<Result<_, _>>()?,
        ..file.resume
    })
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
