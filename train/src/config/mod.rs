//! The training configuration: one struct in sections (`[run]`, `[model]`,
//! `[ppo]`, `[opponents]`, `[eval]`, `[checkpoints]`), a doc line per field,
//! loaded from `configs/*.toml` and saved into the run folder. Its `[model]`
//! section is bones-policy's `ModelConfig`, what a model folder's reader reads.
//!
//! `configs/cpu-quick.toml` is the one place the defaults are written: it
//! gives every key, [`TrainConfig::default`] is it, and a key another file
//! leaves out takes its value there. `keys` reads a file's keys against it (the
//! old flat form, removed keys, unknown keys). Values are typed when the file
//! is read (`values`: the agent specs of `teacher` and `opponent`, the path of
//! `init`) and written back as they were given, `f32`s as their shortest
//! decimal.

pub mod flags;
mod keys;
mod values;

pub use values::GivenSpec;

use bones_env::{AnyGame, GameError};
use bones_policy::folder::{bad_choice, shortest_f32, ModelConfig};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Why a configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config `{path}`: {source}")]
    Read {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Bad TOML, an unknown key or a bad value.
    #[error("bad config `{path}`: {message}")]
    Parse {
        /// The path (or preset name).
        path: String,
        /// What was wrong.
        message: String,
    },
    /// No built-in preset of that name.
    #[error("unknown config preset `{0}`: expected a path to a TOML file or one of cpu-quick, cpu-full, gpu, smoke")]
    UnknownPreset(String),
}

/// Every hyperparameter of a PPO self-play run, in the sections of its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// `[run]`: the seed, the run's length, its threads and where it starts.
    pub run: RunSection,
    /// `[model]`: the game and the network that learns it (what a model
    /// folder's reader reads).
    pub model: ModelConfig,
    /// `[ppo]`: the rollouts and the PPO update.
    pub ppo: PpoSection,
    /// `[opponents]`: who plays the other side's seats.
    pub opponents: OpponentsSection,
    /// `[eval]`: evaluation against baselines during the run.
    pub eval: EvalSection,
    /// `[checkpoints]`: how often the run saves itself.
    pub checkpoints: CheckpointsSection,
}

/// `[run]`: the seed, the run's length, its threads and where it starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    /// Seed of everything random in the run (deals, sampling, minibatches, init).
    pub seed: u64,
    /// Stop after this many self-play hands (rounds for Doubles).
    pub total_hands: u64,
    /// Threads that step the games (in each rollout worker).
    pub env_threads: usize,
    /// Rollout workers (the actor-learner): N threads each play a shard of the
    /// `num_envs` games while the learner updates on the last rollout; 0: the
    /// synchronous loop (rollout, then update, on one thread of control).
    pub workers: usize,
    /// With workers, the rollout of update k is played with the weights after
    /// update k - policy_lag (exactly; 0: workers and learner take turns).
    pub policy_lag: usize,
    /// On the CPU, compute the input layer from the observation's non-zero
    /// entries (gather-and-sum; the same result as the dense layer, several times
    /// cheaper); `false` multiplies the whole observation. GPUs always use the dense layer.
    pub sparse_input: bool,
    /// Start the policy from these weights instead of a fresh initialisation: a
    /// model folder (`models/texas42`), a checkpoint folder or a run folder (its
    /// best checkpoint, else its latest, as in `model:PATH`), trained for the
    /// same game with the same `hidden` and `depth`; empty (`None`): fresh.
    /// Ignored on `--resume` (the checkpoint has the weights).
    #[serde(deserialize_with = "values::init", serialize_with = "values::write_path")]
    pub init: Option<PathBuf>,
}

/// `[ppo]`: the rollouts and the PPO update (after CleanRL's ppo.py).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PpoSection {
    /// Games played in lockstep; one batched forward pass per step over all of them.
    pub num_envs: usize,
    /// Decisions per game per rollout (rollout size = num_envs * num_steps).
    pub num_steps: usize,
    /// Adam learning rate.
    pub learning_rate: f64,
    /// Anneal the learning rate linearly to zero over the run.
    pub anneal_lr: bool,
    /// Discount factor (1.0: hands are short and undiscounted).
    #[serde(serialize_with = "shortest_f32")]
    pub gamma: f32,
    /// GAE lambda.
    #[serde(serialize_with = "shortest_f32")]
    pub gae_lambda: f32,
    /// Minibatches per epoch.
    pub num_minibatches: usize,
    /// Epochs over each rollout.
    pub update_epochs: usize,
    /// Normalise advantages within each minibatch.
    pub norm_adv: bool,
    /// Surrogate clipping coefficient (also clips the value loss).
    #[serde(serialize_with = "shortest_f32")]
    pub clip_coef: f32,
    /// Use the clipped value loss.
    pub clip_vloss: bool,
    /// Entropy bonus coefficient.
    #[serde(serialize_with = "shortest_f32")]
    pub ent_coef: f32,
    /// Value loss coefficient.
    #[serde(serialize_with = "shortest_f32")]
    pub vf_coef: f32,
    /// Clip the global gradient norm to this (0: no clipping).
    #[serde(serialize_with = "shortest_f32")]
    pub max_grad_norm: f32,
    /// Stop an update's epochs early once approx KL exceeds this (0: never).
    #[serde(serialize_with = "shortest_f32")]
    pub target_kl: f32,
    /// Critic for the advantages: `public` (the policy's value head, which sees
    /// what the seat sees) or `oracle` (a separate network of the same shape that
    /// also sees every hidden hand; training only: the policy acts from the seat's
    /// view, and its value head still learns, for export).
    pub critic: CriticKind,
    /// An agent spec the policy also learns to imitate (expert iteration with a
    /// search as the teacher, e.g. `pimc:worlds=128` for Doubles); empty
    /// (`None`): none. At each learner decision with a choice the teacher picks
    /// an action from the seat's view, and the loss adds `teacher_coef` times
    /// the policy's cross-entropy against it.
    #[serde(deserialize_with = "values::teacher", serialize_with = "values::write_spec")]
    pub teacher: Option<GivenSpec>,
    /// Weight of the cross-entropy against the teacher's actions.
    #[serde(serialize_with = "shortest_f32")]
    pub teacher_coef: f32,
}

/// `[opponents]`: who plays the other side's seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentsSection {
    /// Share of the games whose opponents are a past snapshot instead of the current policy.
    #[serde(serialize_with = "shortest_f32")]
    pub opponent_share: f32,
    /// A frozen opponent: an agent spec that plays the other side's seats in
    /// every game, so that the policy learns a best response to it (`bones
    /// exploit`); empty (`None`): self-play (the snapshot pool, `opponent_share`).
    #[serde(deserialize_with = "values::opponent", serialize_with = "values::write_spec")]
    pub opponent: Option<GivenSpec>,
    /// Add the current policy to the snapshot pool every this many updates.
    pub snapshot_every: usize,
    /// Snapshots kept in the pool (oldest dropped first).
    pub pool_size: usize,
}

/// The most duplicate deals an evaluation may play (`eval_hands`).
pub const MAX_EVAL_HANDS: usize = 1_000_000;

/// `[eval]`: evaluation against baselines during the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalSection {
    /// Evaluate against `random` and `heuristic` every this many updates (0: only at the end).
    pub eval_every: usize,
    /// Duplicate deals per evaluation (each played twice, seats swapped):
    /// 1 to [`MAX_EVAL_HANDS`] (every run evaluates, at least after its last update).
    pub eval_hands: usize,
}

/// `[checkpoints]`: how often the run saves itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointsSection {
    /// Write a checkpoint every this many updates (and always at the end, and
    /// at every new best evaluation).
    pub checkpoint_every: usize,
}

/// Built-in presets, the same files as `configs/NAME.toml`.
const PRESETS: [(&str, &str); 4] = [
    ("cpu-quick", include_str!("../../../configs/cpu-quick.toml")),
    ("cpu-full", include_str!("../../../configs/cpu-full.toml")),
    ("gpu", include_str!("../../../configs/gpu.toml")),
    ("smoke", include_str!("../../../configs/smoke.toml")),
];

/// The defaults: `configs/cpu-quick.toml`, every key in its section.
fn defaults() -> &'static toml::Table {
    static DEFAULTS: OnceLock<toml::Table> = OnceLock::new();
    DEFAULTS.get_or_init(|| toml::from_str(PRESETS[0].1).expect("configs/cpu-quick.toml is TOML"))
}

impl Default for TrainConfig {
    /// The `cpu-quick` preset (`bones train` without `--config`).
    fn default() -> Self {
        defaults().clone().try_into().expect("configs/cpu-quick.toml gives every key")
    }
}

/// Where the advantages' values come from (the config's `critic`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum CriticKind {
    /// `public`: the policy's value head, which sees what the seat sees.
    #[default]
    Public,
    /// `oracle`: a separate network that also sees every hidden hand.
    Oracle,
}

impl CriticKind {
    /// Every kind, in the order the error message lists them.
    pub const ALL: [CriticKind; 2] = [CriticKind::Public, CriticKind::Oracle];

    /// The name in config files.
    pub fn as_str(self) -> &'static str {
        match self {
            CriticKind::Public => "public",
            CriticKind::Oracle => "oracle",
        }
    }
}

impl fmt::Display for CriticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<CriticKind> for &'static str {
    fn from(kind: CriticKind) -> &'static str {
        kind.as_str()
    }
}

impl TryFrom<String> for CriticKind {
    type Error = String;
    fn try_from(s: String) -> Result<CriticKind, String> {
        CriticKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| bad_choice("critic", &s, &CriticKind::ALL.map(CriticKind::as_str)))
    }
}

/// The section and name of a config field given as `name` or `section.name`
/// (`learning_rate` and `ppo.learning_rate` are both `("ppo", "learning_rate")`);
/// `None` if there is no such field.
pub fn field_path(key: &str) -> Option<(&'static str, &'static str)> {
    keys::field_path(key, defaults())
}

impl TrainConfig {
    /// Parses TOML text (`origin` names it in errors): sections, or the old
    /// flat form (every key at the top, as configs and checkpoints were saved
    /// before the sections); a key it leaves out takes `cpu-quick`'s value.
    pub fn from_toml(text: &str, origin: &str) -> Result<TrainConfig, ConfigError> {
        let parse = |message: String| ConfigError::Parse { path: origin.into(), message };
        let table: toml::Table = toml::from_str(text).map_err(|e| parse(e.to_string()))?;
        let merged = keys::merge(table, defaults()).map_err(parse)?;
        // One line: TOML puts the key of a bad value (`in \`ppo.teacher\``) on a line of its own.
        let one_line = |e: toml::de::Error| e.to_string().lines().map(str::trim).collect::<Vec<_>>().join(" ");
        let cfg: TrainConfig = merged.try_into().map_err(|e| parse(one_line(e)))?;
        cfg.validate().map_err(parse)?;
        cfg.game().map_err(|e| parse(e.to_string()))?;
        Ok(cfg)
    }

    /// A built-in preset by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<TrainConfig, ConfigError> {
        if let Some((_, text)) = PRESETS.iter().find(|(n, _)| *n == name_or_path) {
            return TrainConfig::from_toml(text, name_or_path);
        }
        let path = Path::new(name_or_path);
        if !path.exists() && !name_or_path.contains('/') && !name_or_path.ends_with(".toml") {
            return Err(ConfigError::UnknownPreset(name_or_path.into()));
        }
        let text =
            std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: name_or_path.into(), source })?;
        TrainConfig::from_toml(&text, name_or_path)
    }

    /// The config as TOML, in sections.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config serialises")
    }

    /// Checks ranges; returns what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let check = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        let TrainConfig { run, model, ppo, opponents, eval, checkpoints, .. } = self;
        check((2..=4).contains(&model.players), "`players` must be 2, 3 or 4")?;
        check(ppo.num_envs >= 1, "`num_envs` must be at least 1")?;
        check(ppo.num_steps >= 1, "`num_steps` must be at least 1")?;
        check(run.env_threads >= 1, "`env_threads` must be at least 1")?;
        check(
            run.workers <= ppo.num_envs,
            "`workers` must be at most `num_envs` (each worker plays a share of the games)",
        )?;
        check(run.policy_lag <= 16, "`policy_lag` must be at most 16 updates")?;
        check(ppo.learning_rate > 0.0, "`learning_rate` must be positive")?;
        check((0.0..=1.0).contains(&ppo.gamma), "`gamma` must be in 0..=1")?;
        check((0.0..=1.0).contains(&ppo.gae_lambda), "`gae_lambda` must be in 0..=1")?;
        check(ppo.num_minibatches >= 1, "`num_minibatches` must be at least 1")?;
        check(ppo.update_epochs >= 1, "`update_epochs` must be at least 1")?;
        check(ppo.clip_coef > 0.0, "`clip_coef` must be positive")?;
        check(model.hidden >= 1 && model.depth >= 1, "`hidden` and `depth` must be at least 1")?;
        check((0.0..=1.0).contains(&opponents.opponent_share), "`opponent_share` must be in 0..=1")?;
        check(opponents.snapshot_every >= 1, "`snapshot_every` must be at least 1")?;
        check(
            (1..=MAX_EVAL_HANDS).contains(&eval.eval_hands),
            "`eval_hands` must be 1 to 1000000 (duplicate deals per evaluation: every run evaluates, and its `best` checkpoint is its best evaluation's)",
        )?;
        check(checkpoints.checkpoint_every >= 1, "`checkpoint_every` must be at least 1")?;
        check(ppo.teacher_coef >= 0.0, "`teacher_coef` must be at least 0")?;
        Ok(())
    }

    /// Whether the advantages come from the oracle critic (it sees every hand).
    pub fn oracle_critic(&self) -> bool {
        self.ppo.critic == CriticKind::Oracle
    }

    /// This config with `change` made (`cfg.with(|c| c.run.seed = 2)`).
    pub fn with(mut self, change: impl FnOnce(&mut TrainConfig)) -> TrainConfig {
        change(&mut self);
        self
    }

    /// Self-play decisions per rollout.
    pub fn batch_size(&self) -> usize {
        self.ppo.num_envs * self.ppo.num_steps
    }

    /// The game this config trains, through the registry: `game` under `rules`
    /// with `players`, its hand rewards shaped by `reward`.
    pub fn game(&self) -> Result<AnyGame, GameError> {
        self.model.game()
    }
}

#[cfg(test)]
mod tests;
