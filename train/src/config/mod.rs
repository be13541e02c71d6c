//! The training configuration: one struct in sections (`[run]`, `[model]`,
//! `[ppo]`, `[opponents]`, `[eval]`, `[checkpoints]`), a doc line per field,
//! loaded from `configs/*.toml` and saved into the run folder. Its `[model]`
//! section is bones-policy's `ModelConfig`, what a model folder's reader reads.
//!
//! `configs/cpu-quick.toml` is the one place the defaults are written: it
//! gives every key, [`TrainConfig::default`] is it, and a key another file
//! leaves out takes its value there. `keys` reads a file's keys against it (the
//! old flat form, removed keys, unknown keys).

mod keys;

use bones_env::{AnyGame, GameError};
use bones_policy::folder::{bad_choice, ModelConfig};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
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
    /// same game with the same `hidden` and `depth`; empty: fresh. Ignored on
    /// `--resume` (the checkpoint has the weights).
    pub init: String,
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
    /// Critic for the advantages: `public` (the policy's value head, which sees
    /// what the seat sees) or `oracle` (a separate network of the same shape that
    /// also sees every hidden hand; training only: the policy acts from the seat's
    /// view, and its value head still learns, for export).
    pub critic: CriticKind,
    /// An agent spec the policy also learns to imitate (expert iteration with a
    /// search as the teacher, e.g. `pimc:worlds=128` for Doubles); empty: none.
    /// At each learner decision with a choice the teacher picks an action from
    /// the seat's view, and the loss adds `teacher_coef` times the policy's
    /// cross-entropy against it.
    pub teacher: String,
    /// Weight of the cross-entropy against the teacher's actions.
    pub teacher_coef: f32,
}

/// `[opponents]`: who plays the other side's seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentsSection {
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
        let cfg: TrainConfig = merged.try_into().map_err(|e: toml::de::Error| parse(e.to_string()))?;
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
        let opponent = &self.opponents.opponent;
        (!opponent.trim().is_empty()).then(|| opponent.parse())
    }

    /// The teacher's agent spec, parsed (`None`: no teacher).
    pub fn teacher_spec(&self) -> Option<Result<bones_agents::AgentSpec, bones_agents::SpecError>> {
        let teacher = &self.ppo.teacher;
        (!teacher.trim().is_empty()).then(|| teacher.parse())
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
mod tests {
    use super::*;
    use bones_env::RewardMode;

    fn configs_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
    }

    #[test]
    fn an_evaluation_of_no_deals_or_too_many_is_refused_naming_the_key_and_its_range() {
        for text in ["[eval]\neval_hands = 0", "eval_hands = 0", "[eval]\neval_hands = 1000001"] {
            let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
            assert!(e.contains("`eval_hands` must be 1 to 1000000 (") && !e.contains('\n'), "{text}: {e}");
        }
        let e = TrainConfig::default().with(|c| c.eval.eval_hands = 0).validate().unwrap_err();
        assert!(e.starts_with("`eval_hands` must be 1 to 1000000"), "{e}");
        for n in [1, MAX_EVAL_HANDS] {
            let cfg = TrainConfig::from_toml(&format!("[eval]\neval_hands = {n}"), "x").unwrap();
            assert_eq!(cfg.eval.eval_hands, n);
        }
    }

    #[test]
    fn presets_load_and_round_trip() {
        for (name, _) in PRESETS {
            let cfg = TrainConfig::load(name).unwrap();
            assert_eq!(TrainConfig::from_toml(&cfg.to_toml(), name).unwrap(), cfg);
        }
    }

    #[test]
    fn the_default_config_is_configs_cpu_quick_toml_which_gives_every_key() {
        let path = configs_dir().join("cpu-quick.toml");
        let file = TrainConfig::load(path.to_str().unwrap()).unwrap();
        assert_eq!(TrainConfig::default(), file);
        assert_eq!(TrainConfig::load("cpu-quick").unwrap(), file);
        assert_eq!(TrainConfig::from_toml("", "empty").unwrap(), file);
        // Every field is written there, in the order of the struct.
        let written: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let fields: toml::Table = toml::from_str(&file.to_toml()).unwrap();
        let names = |t: &toml::Table| -> Vec<String> {
            t.iter().flat_map(|(s, f)| f.as_table().unwrap().keys().map(move |n| format!("{s}.{n}"))).collect()
        };
        assert_eq!(names(&written), names(&fields));
    }

    #[test]
    fn every_config_file_in_configs_loads_and_gives_only_what_differs_from_cpu_quick() {
        let defaults = defaults();
        let mut files = 0;
        for entry in std::fs::read_dir(configs_dir()).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let cfg = TrainConfig::from_toml(&text, &path.display().to_string()).unwrap();
            cfg.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            files += 1;
            if path.file_stem().unwrap() == "cpu-quick" {
                continue;
            }
            let table: toml::Table = toml::from_str(&text).unwrap();
            for (section, fields) in &table {
                let fields =
                    fields.as_table().unwrap_or_else(|| panic!("{}: `{section}` outside a section", path.display()));
                for (name, value) in fields {
                    let default = &defaults[section.as_str()][name.as_str()];
                    let same = match (value.as_float(), default.as_float()) {
                        (Some(a), Some(b)) => a == b,
                        _ => value == default,
                    };
                    assert!(!same, "{}: `{section}.{name} = {value}` is cpu-quick's value", path.display());
                }
            }
        }
        assert!(files >= 7, "{files} config files");
    }

    #[test]
    fn reward_and_critic_parse_to_enums_and_serialise_to_the_same_strings() {
        for (text, reward) in
            [("marks", RewardMode::Marks), ("points", RewardMode::Points), ("marks+points", RewardMode::MarksAndPoints)]
        {
            let cfg = TrainConfig::from_toml(&format!("[model]\nreward = \"{text}\""), "x").unwrap();
            assert_eq!(cfg.model.reward, reward);
            assert!(cfg.to_toml().contains(&format!("reward = \"{text}\"\n")), "{}", cfg.to_toml());
        }
        for (text, critic) in [("public", CriticKind::Public), ("oracle", CriticKind::Oracle)] {
            let cfg = TrainConfig::from_toml(&format!("[ppo]\ncritic = \"{text}\""), "x").unwrap();
            assert_eq!(cfg.ppo.critic, critic);
            assert_eq!(cfg.oracle_critic(), critic == CriticKind::Oracle);
            assert!(cfg.to_toml().contains(&format!("critic = \"{text}\"\n")), "{}", cfg.to_toml());
        }
        let cfg = TrainConfig::from_toml("", "x").unwrap();
        assert_eq!((cfg.model.reward, cfg.ppo.critic), (RewardMode::Marks, CriticKind::Public));
    }

    #[test]
    fn the_models_saved_flat_configs_still_load_and_are_saved_in_sections() {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        for name in bones_env::GAMES.map(|g| g.name) {
            let path = models.join(name).join("config.toml");
            let text = std::fs::read_to_string(&path).unwrap();
            let cfg = TrainConfig::from_toml(&text, name).unwrap();
            let saved = cfg.to_toml();
            assert_eq!(TrainConfig::from_toml(&saved, name).unwrap(), cfg);
            assert!(saved.starts_with("[run]\n") && saved.contains("\n[model]\ngame = "), "{saved}");
            // Every line of the file comes back unchanged, in its section (comments
            // aside), but the removed bid rounds' keys at their "off" values.
            let bid_rounds = text.find("\n[bidding]\n").map_or(text.len(), |at| at + 1);
            for line in text[..bid_rounds].lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
                if line == "bid_hidden = 0" {
                    continue;
                }
                assert!(saved.lines().any(|l| l == line), "{name}: `{line}` not in\n{saved}");
            }
            assert!(bid_rounds == text.len() || text[bid_rounds..].lines().any(|l| l == "rounds = 0"), "{text}");
            assert!(!saved.contains("bid"), "{saved}");
        }
    }

    #[test]
    fn an_old_flat_config_loads_to_the_same_config_as_its_sections() {
        // configs/texas42-continue-2.toml as it was before the sections.
        let flat = "game = \"texas42\"\nrules = \"standard\"\nseed = 3\ntotal_hands = 2000000\nnum_envs = 512\n\
                    num_steps = 32\nenv_threads = 2\nlearning_rate = 0.00025\nhidden = 256\ndepth = 2\n\
                    update_epochs = 1\nnum_minibatches = 16\nent_coef = 0.02\ntarget_kl = 0.03\nreward = \"marks\"\n\
                    opponent_share = 0.2\nsnapshot_every = 20\npool_size = 8\neval_every = 50\neval_hands = 1000\n\
                    checkpoint_every = 10\ninit = \"models/texas42\"\n";
        let old = TrainConfig::from_toml(flat, "flat").unwrap();
        let path = configs_dir().join("texas42-continue-2.toml");
        assert_eq!(old, TrainConfig::load(path.to_str().unwrap()).unwrap());
        assert_ne!(old, TrainConfig::default());
        assert_eq!(
            (old.run.seed, old.model.hidden, old.ppo.learning_rate, old.eval.eval_hands),
            (3, 256, 0.00025, 1000)
        );
    }

    #[test]
    fn an_old_flat_config_that_leaves_keys_out_gets_the_defaults_of_the_flat_form() {
        let old = TrainConfig::from_toml("seed = 9\n", "flat").unwrap();
        let ppo = &old.ppo;
        assert_eq!(
            (old.run.seed, old.run.total_hands, old.model.hidden),
            (9, 200_000, bones_policy::folder::DEFAULT_HIDDEN)
        );
        assert_eq!((ppo.learning_rate, ppo.update_epochs, ppo.num_minibatches), (3e-4, 4, 4));
        assert_eq!((ppo.ent_coef, ppo.target_kl), (0.01, 0.0));
        // Every other key is cpu-quick's, and the sectioned form takes cpu-quick's throughout.
        assert_eq!((old.ppo.num_envs, old.eval.eval_every), (256, 20));
        let sectioned = TrainConfig::from_toml("[run]\nseed = 9\n", "sections").unwrap();
        assert_eq!((sectioned.run.total_hands, sectioned.ppo.learning_rate), (150_000, 0.001));
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
    fn a_config_saved_with_bid_rounds_off_loads_and_one_asking_for_them_is_refused_naming_the_removed_option() {
        // Every config and checkpoint saved while bid rounds existed holds these.
        let off = "[model]\nbid_hidden = 0\n\n[bidding]\nrounds = 0\nround_hands = 100000\nkeep_rounds = 4\n\
                   recent_weight = 0.5\nfit_epochs = 4\nfit_learning_rate = 0.001\nfit_minibatch = 512\n";
        assert_eq!(TrainConfig::from_toml(off, "old").unwrap(), TrainConfig::default());
        assert_eq!(TrainConfig::from_toml("[bidding]\nround_hands = 5\n", "old").unwrap(), TrainConfig::default());
        // configs/texas42-bidding.toml, the recipe measured.
        let bidding = "[run]\nseed = 46\ntotal_hands = 550000\n\n[model]\nhidden = 256\nbid_hidden = 64\n\n\
                       [bidding]\nrounds = 10\nround_hands = 50000\nfit_epochs = 2\nfit_minibatch = 1024\n";
        let bid_values = "`bid_hidden = 8`: bid values (fitted by bid rounds) were removed from the trainer (";
        for (text, starts) in [
            (bidding, "`[bidding] rounds = 10`: bid rounds were removed from the trainer ("),
            ("[bidding]\nrounds = 2\n", "`[bidding] rounds = 2`: bid rounds were removed from the trainer ("),
            ("[model]\nbid_hidden = 8\n", bid_values),
            ("bid_hidden = 8\n", bid_values),
        ] {
            let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
            let message = e.strip_prefix("bad config `x`: ").unwrap_or_else(|| panic!("{e}"));
            assert!(message.starts_with(starts), "{text}: {e}");
            assert!(
                e.contains("+0.004 marks/hand") && e.contains("the code is at commit ") && !e.contains('\n'),
                "{e}"
            );
            assert!(e.ends_with("delete the section") || e.ends_with("delete the key"), "{e}");
        }
        // In any other section the key is unknown, as any other.
        let e = TrainConfig::from_toml("[ppo]\nbid_hidden = 0\n", "x").unwrap_err().to_string();
        assert!(e.contains("unknown key `ppo.bid_hidden`"), "{e}");
    }

    #[test]
    fn an_unknown_key_is_one_line_naming_it_and_the_nearest_known_key() {
        for (text, says) in [
            ("learning_rat = 0.1", "unknown key `learning_rat` (did you mean `learning_rate`?)"),
            ("[ppo]\nlearning_rat = 0.1", "unknown key `ppo.learning_rat` (did you mean `ppo.learning_rate`?)"),
            ("[ppo]\nseed = 3", "unknown key `ppo.seed` (did you mean `run.seed`?)"),
            ("[model]\nhiden = 64", "unknown key `model.hiden` (did you mean `model.hidden`?)"),
            ("[evl]\neval_every = 3", "unknown section `[evl]` (did you mean `[eval]`?)"),
            ("seed = 3\n[run]\nseed = 4", "`run.seed` is given twice"),
        ] {
            let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
        }
    }

    #[test]
    fn a_key_may_be_named_alone_or_with_its_section() {
        assert_eq!(field_path("learning_rate"), Some(("ppo", "learning_rate")));
        assert_eq!(field_path("ppo.learning_rate"), Some(("ppo", "learning_rate")));
        assert_eq!(field_path("run.learning_rate"), None);
        assert_eq!(field_path("hidden_size"), None);
    }

    #[test]
    fn bad_values_are_errors() {
        let e = TrainConfig::from_toml("[model]\ngame = \"chess\"", "x").unwrap_err().to_string();
        assert!(e.contains("texas42"), "{e}");
        let e = TrainConfig::from_toml("[ppo]\ncritic = \"psychic\"", "x").unwrap_err().to_string();
        assert!(e.contains("`critic` must be \"public\" or \"oracle\", not \"psychic\""), "{e}");
        let e = TrainConfig::from_toml("reward = \"goals\"", "x").unwrap_err().to_string();
        assert!(e.contains("`reward` must be \"marks\", \"points\" or \"marks+points\", not \"goals\""), "{e}");
        let e = TrainConfig::from_toml("[ppo]\nnum_envs = 0", "x").unwrap_err().to_string();
        assert!(e.contains("`num_envs` must be at least 1"), "{e}");
        assert!(TrainConfig::load("no-such-preset").unwrap_err().to_string().contains("cpu-quick"));
    }
}
