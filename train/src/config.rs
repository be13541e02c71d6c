//! The training configuration: one struct, a doc line per field, loaded from
//! `configs/*.toml` (unknown keys are an error) and saved into the run folder.

use bones_env::{AnyGame, GameError, RewardMode};
use bones_policy::folder::{bad_choice, reward_mode, ModelConfig, DEFAULT_DEPTH, DEFAULT_HIDDEN};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

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

/// Every hyperparameter of a PPO self-play run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Game: `texas42` or `doubles`.
    pub game: String,
    /// Doubles players (2, 3 or 4); ignored by Texas 42.
    pub players: u8,
    /// Rules: a preset name (`standard`, `full`) or a JSON rules object.
    pub rules: String,
    /// Seed of everything random in the run (deals, sampling, minibatches, init).
    pub seed: u64,
    /// Stop after this many self-play hands (rounds for Doubles).
    pub total_hands: u64,
    /// Games played in lockstep; one batched forward pass per step over all of them.
    pub num_envs: usize,
    /// Decisions per game per rollout (rollout size = num_envs * num_steps).
    pub num_steps: usize,
    /// Threads that step the games (in each rollout worker).
    pub env_threads: usize,
    /// Rollout workers (the actor-learner): N threads each play a shard of the
    /// `num_envs` games while the learner updates on the last rollout; 0: the
    /// synchronous loop (rollout, then update, on one thread of control).
    pub workers: usize,
    /// With workers, the rollout of update k is played with the weights after
    /// update k - policy_lag (exactly; 0: workers and learner take turns).
    pub policy_lag: usize,
    /// Adam learning rate.
    pub learning_rate: f64,
    /// Anneal the learning rate linearly to zero over the run.
    pub anneal_lr: bool,
    /// Discount factor (1.0: hands are short and undiscounted).
    pub gamma: f32,
    /// GAE lambda.
    pub gae_lambda: f32,
    /// Minibatches per epoch.
    pub num_minibatches: usize,
    /// Epochs over each rollout.
    pub update_epochs: usize,
    /// Normalise advantages within each minibatch.
    pub norm_adv: bool,
    /// Surrogate clipping coefficient (also clips the value loss).
    pub clip_coef: f32,
    /// Use the clipped value loss.
    pub clip_vloss: bool,
    /// Entropy bonus coefficient.
    pub ent_coef: f32,
    /// Value loss coefficient.
    pub vf_coef: f32,
    /// Clip the global gradient norm to this (0: no clipping).
    pub max_grad_norm: f32,
    /// Stop an update's epochs early once approx KL exceeds this (0: never).
    pub target_kl: f32,
    /// Texas 42 hand reward: `marks`, `points` or `marks+points` (marks plus point
    /// difference / 42: denser, but it also pays the bidder for the points of a
    /// contract it fails, which teaches overbidding); evaluation counts the arena's score
    /// (marks; game points under `points` scoring).
    /// Doubles ignores it.
    #[serde(with = "reward_mode")]
    pub reward: RewardMode,
    /// Multiply rewards by this (Doubles points are large: 1/target is a good scale).
    pub reward_scale: f32,
    /// Width of the hidden layers.
    pub hidden: usize,
    /// Number of hidden layers.
    pub depth: usize,
    /// Critic for the advantages: `public` (the policy's value head, which sees
    /// what the seat sees) or `oracle` (a separate network of the same shape that
    /// also sees every hidden hand; training only: the policy acts from the seat's
    /// view, and its value head still learns, for export).
    pub critic: CriticKind,
    /// On the CPU, compute the input layer from the observation's non-zero
    /// entries (gather-and-sum; the same result as the dense layer, several times
    /// cheaper); `false` multiplies the whole observation. GPUs always use the dense layer.
    pub sparse_input: bool,
    /// Share of the games whose opponents are a past snapshot instead of the current policy.
    pub opponent_share: f32,
    /// A frozen opponent: an agent spec that plays the other side's seats in
    /// every game, so that the policy learns a best response to it (`bones
    /// exploit`); empty: self-play (the snapshot pool, `opponent_share`).
    pub opponent: String,
    /// Add the current policy to the snapshot pool every this many updates.
    pub snapshot_every: usize,
    /// Snapshots kept in the pool (oldest dropped first).
    pub pool_size: usize,
    /// Evaluate against `random` and `heuristic` every this many updates (0: only at the end).
    pub eval_every: usize,
    /// Duplicate deals per evaluation (each played twice, seats swapped).
    pub eval_hands: usize,
    /// Write a checkpoint every this many updates (and always at the end).
    pub checkpoint_every: usize,
    /// An agent spec the policy also learns to imitate (expert iteration with a
    /// search as the teacher, e.g. `pimc:worlds=128` for Doubles); empty: none.
    /// At each learner decision with a choice the teacher picks an action from
    /// the seat's view, and the loss adds `teacher_coef` times the policy's
    /// cross-entropy against it.
    pub teacher: String,
    /// Weight of the cross-entropy against the teacher's actions.
    pub teacher_coef: f32,
    /// Start the policy from these weights instead of a fresh initialisation: a
    /// model folder (`models/texas42`), a checkpoint folder or a run folder (its
    /// best checkpoint, else its latest, as in `model:PATH`), trained for the
    /// same game with the same `hidden` and `depth`; empty: fresh. Ignored on
    /// `--resume` (the checkpoint has the weights).
    pub init: String,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            game: "texas42".into(),
            players: 4,
            rules: "standard".into(),
            seed: 1,
            total_hands: 200_000,
            num_envs: 256,
            num_steps: 32,
            env_threads: 2,
            workers: 0,
            policy_lag: 1,
            learning_rate: 3e-4,
            anneal_lr: true,
            gamma: 1.0,
            gae_lambda: 0.95,
            num_minibatches: 4,
            update_epochs: 4,
            norm_adv: true,
            clip_coef: 0.2,
            clip_vloss: true,
            ent_coef: 0.01,
            vf_coef: 0.5,
            max_grad_norm: 0.5,
            target_kl: 0.0,
            reward: RewardMode::Marks,
            reward_scale: 1.0,
            hidden: DEFAULT_HIDDEN,
            depth: DEFAULT_DEPTH,
            critic: CriticKind::Public,
            sparse_input: true,
            opponent_share: 0.2,
            snapshot_every: 10,
            pool_size: 8,
            eval_every: 20,
            eval_hands: 200,
            checkpoint_every: 10,
            opponent: String::new(),
            teacher: String::new(),
            teacher_coef: 1.0,
            init: String::new(),
        }
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

/// Built-in presets, the same files as `configs/NAME.toml`.
const PRESETS: [(&str, &str); 4] = [
    ("cpu-quick", include_str!("../../configs/cpu-quick.toml")),
    ("cpu-full", include_str!("../../configs/cpu-full.toml")),
    ("gpu", include_str!("../../configs/gpu.toml")),
    ("smoke", include_str!("../../configs/smoke.toml")),
];

impl TrainConfig {
    /// Parses TOML text (`origin` names it in errors).
    pub fn from_toml(text: &str, origin: &str) -> Result<TrainConfig, ConfigError> {
        let parse = |message: String| ConfigError::Parse { path: origin.into(), message };
        let mut table: toml::Table = toml::from_str(text).map_err(|e| parse(e.to_string()))?;
        drop_removed_keys(&mut table).map_err(parse)?;
        let cfg: TrainConfig = table.try_into().map_err(|e: toml::de::Error| parse(e.to_string()))?;
        cfg.validate().map_err(|message| ConfigError::Parse { path: origin.into(), message })?;
        cfg.game().map_err(|e| ConfigError::Parse { path: origin.into(), message: e.to_string() })?;
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

    /// The config as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a config serialises")
    }

    /// Checks ranges; returns what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let check = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        check((2..=4).contains(&self.players), "`players` must be 2, 3 or 4")?;
        check(self.num_envs >= 1, "`num_envs` must be at least 1")?;
        check(self.num_steps >= 1, "`num_steps` must be at least 1")?;
        check(self.env_threads >= 1, "`env_threads` must be at least 1")?;
        check(
            self.workers <= self.num_envs,
            "`workers` must be at most `num_envs` (each worker plays a share of the games)",
        )?;
        check(self.policy_lag <= 16, "`policy_lag` must be at most 16 updates")?;
        check(self.learning_rate > 0.0, "`learning_rate` must be positive")?;
        check((0.0..=1.0).contains(&self.gamma), "`gamma` must be in 0..=1")?;
        check((0.0..=1.0).contains(&self.gae_lambda), "`gae_lambda` must be in 0..=1")?;
        check(self.num_minibatches >= 1, "`num_minibatches` must be at least 1")?;
        check(self.update_epochs >= 1, "`update_epochs` must be at least 1")?;
        check(self.clip_coef > 0.0, "`clip_coef` must be positive")?;
        check(self.hidden >= 1 && self.depth >= 1, "`hidden` and `depth` must be at least 1")?;
        check((0.0..=1.0).contains(&self.opponent_share), "`opponent_share` must be in 0..=1")?;
        check(self.snapshot_every >= 1, "`snapshot_every` must be at least 1")?;
        check(self.checkpoint_every >= 1, "`checkpoint_every` must be at least 1")?;
        check(self.teacher_coef >= 0.0, "`teacher_coef` must be at least 0")?;
        if let Some(spec) = self.opponent_spec() {
            spec.map_err(|e| format!("`opponent`: {e}"))?;
        }
        if let Some(spec) = self.teacher_spec() {
            spec.map_err(|e| format!("`teacher`: {e}"))?;
        }
        Ok(())
    }

    /// The frozen opponent's agent spec, parsed (`None`: self-play).
    pub fn opponent_spec(&self) -> Option<Result<bones_agents::AgentSpec, bones_agents::SpecError>> {
        (!self.opponent.trim().is_empty()).then(|| self.opponent.parse())
    }

    /// The teacher's agent spec, parsed (`None`: no teacher).
    pub fn teacher_spec(&self) -> Option<Result<bones_agents::AgentSpec, bones_agents::SpecError>> {
        (!self.teacher.trim().is_empty()).then(|| self.teacher.parse())
    }

    /// Whether the advantages come from the oracle critic (it sees every hand).
    pub fn oracle_critic(&self) -> bool {
        self.critic == CriticKind::Oracle
    }

    /// Self-play decisions per rollout.
    pub fn batch_size(&self) -> usize {
        self.num_envs * self.num_steps
    }
}

impl TrainConfig {
    /// What the config says about the network it trains (the part a model
    /// folder's reader needs).
    pub fn model(&self) -> ModelConfig {
        ModelConfig {
            game: self.game.clone(),
            players: self.players,
            rules: self.rules.clone(),
            reward: self.reward,
            reward_scale: self.reward_scale,
            hidden: self.hidden,
            depth: self.depth,
        }
    }

    /// The game this config trains, through the registry: `game` under `rules`
    /// with `players`, its hand rewards shaped by `reward`.
    pub fn game(&self) -> Result<AnyGame, GameError> {
        self.model().game()
    }
}

/// Keys of attempts removed from the trainer (issue 45: label files made once
/// by `bones label`), each with the value that meant "off". A config or a
/// checkpoint saved before the removal holds them at those values and still
/// loads; any other value is refused, since the run it asks for no longer exists.
/// Whether a removed key's value is the one that meant "off".
type IsOff = fn(&toml::Value) -> bool;

const REMOVED_KEYS: [(&str, IsOff); 3] = [
    ("labels", |v| v.as_str().is_some_and(|s| s.trim().is_empty())),
    ("label_share", |v| v.as_float() == Some(1.0) || v.as_integer() == Some(1)),
    ("label_temperature", |v| v.as_float() == Some(0.0) || v.as_integer() == Some(0)),
];

fn drop_removed_keys(table: &mut toml::Table) -> Result<(), String> {
    for (key, is_off) in REMOVED_KEYS {
        if let Some(v) = table.remove(key) {
            if !is_off(&v) {
                return Err(format!(
                    "`{key} = {v}`: label files were removed from the trainer (they never beat the shipped \
                     networks; the code is at commit eb35706); delete the key"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_load_and_round_trip() {
        for (name, _) in PRESETS {
            let cfg = TrainConfig::load(name).unwrap();
            assert_eq!(TrainConfig::from_toml(&cfg.to_toml(), name).unwrap(), cfg);
        }
    }

    #[test]
    fn every_config_file_in_configs_loads_and_validates() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let cfg = TrainConfig::from_toml(&text, &path.display().to_string()).unwrap();
            cfg.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            files += 1;
        }
        assert!(files >= 7, "{files} config files");
    }

    #[test]
    fn reward_and_critic_parse_to_enums_and_serialise_to_the_same_strings() {
        for (text, reward) in
            [("marks", RewardMode::Marks), ("points", RewardMode::Points), ("marks+points", RewardMode::MarksAndPoints)]
        {
            let cfg = TrainConfig::from_toml(&format!("reward = \"{text}\""), "x").unwrap();
            assert_eq!(cfg.reward, reward);
            assert!(cfg.to_toml().contains(&format!("reward = \"{text}\"\n")), "{}", cfg.to_toml());
        }
        for (text, critic) in [("public", CriticKind::Public), ("oracle", CriticKind::Oracle)] {
            let cfg = TrainConfig::from_toml(&format!("critic = \"{text}\""), "x").unwrap();
            assert_eq!(cfg.critic, critic);
            assert_eq!(cfg.oracle_critic(), critic == CriticKind::Oracle);
            assert!(cfg.to_toml().contains(&format!("critic = \"{text}\"\n")), "{}", cfg.to_toml());
        }
        let cfg = TrainConfig::from_toml("", "x").unwrap();
        assert_eq!((cfg.reward, cfg.critic), (RewardMode::Marks, CriticKind::Public));
    }

    #[test]
    fn the_models_saved_configs_still_load_and_round_trip() {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        for name in bones_env::GAMES.map(|g| g.name) {
            let path = models.join(name).join("config.toml");
            let text = std::fs::read_to_string(&path).unwrap();
            let cfg = TrainConfig::from_toml(&text, name).unwrap();
            assert_eq!(TrainConfig::from_toml(&cfg.to_toml(), name).unwrap(), cfg);
            // Every line of the saved file comes back unchanged (comments aside).
            let saved = cfg.to_toml();
            for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
                assert!(saved.lines().any(|l| l == line), "{name}: `{line}` not in\n{saved}");
            }
        }
    }

    #[test]
    fn a_config_saved_before_labels_were_removed_still_loads_and_a_live_label_file_is_refused() {
        let old = TrainConfig::from_toml("labels = \"\"\nlabel_share = 1.0\nlabel_temperature = 0.0\n", "old").unwrap();
        assert_eq!(old, TrainConfig::default());
        let e = TrainConfig::from_toml("labels = \"runs/labels/search.bin\"", "x").unwrap_err().to_string();
        assert!(e.contains("label files were removed") && e.contains("delete the key"), "{e}");
        let e = TrainConfig::from_toml("label_share = 0.25", "x").unwrap_err().to_string();
        assert!(e.contains("`label_share = 0.25`"), "{e}");
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        let e = TrainConfig::from_toml("learning_rat = 0.1", "x").unwrap_err().to_string();
        assert!(e.contains("learning_rat"), "{e}");
        let e = TrainConfig::from_toml("game = \"chess\"", "x").unwrap_err().to_string();
        assert!(e.contains("texas42"), "{e}");
        let e = TrainConfig::from_toml("critic = \"psychic\"", "x").unwrap_err().to_string();
        assert!(e.contains("`critic` must be \"public\" or \"oracle\", not \"psychic\""), "{e}");
        let e = TrainConfig::from_toml("reward = \"goals\"", "x").unwrap_err().to_string();
        assert!(e.contains("`reward` must be \"marks\", \"points\" or \"marks+points\", not \"goals\""), "{e}");
        assert!(TrainConfig::load("no-such-preset").unwrap_err().to_string().contains("cpu-quick"));
    }
}
