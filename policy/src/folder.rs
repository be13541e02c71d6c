//! Model and checkpoint folders: what they hold and how to read them.
//!
//! ```text
//! models/texas42/                       model.bpk  config.toml  model.json  model.onnx  ...
//! runs/NAME/checkpoints/update-000120/  model.bpk  optim.bpk  state.json  config.toml
//! runs/NAME/checkpoints/latest          "update-000120"
//! runs/NAME/checkpoints/best            "update-000100" (best evaluation so far)
//! ```
//!
//! `config.toml` is the training run's whole config (bones-train's
//! `TrainConfig`); a folder is read here through [`ModelConfig`], the part of
//! it that says which network this is and what it was trained to play.
//! Writing checkpoints is the trainer's (`bones_train::checkpoint`).
//!
//! A config saved before an option was removed names it (`bid_hidden = 0`):
//! at the value that meant "off" it is passed over, at any other it is
//! refused by name (bones-agents' list of what was removed).

use crate::model::{PolicyNet, PolicyNetConfig};
use bones_agents::removed::{self, Setting};
use bones_env::{registry, AnyGame, GameError, RewardMode};
use burn::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::{Path, PathBuf};

pub use crate::error::{io, CheckpointError};

/// Counters of a run, restored by `--resume` and kept in `model.json`.
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

/// Width of the hidden layers of a folder whose config does not say.
pub const DEFAULT_HIDDEN: usize = 256;
/// Number of hidden layers of a folder whose config does not say.
pub const DEFAULT_DEPTH: usize = 2;

/// What a folder's `config.toml` says about its network, its `[model]`
/// section: the game it plays, the reward its value head estimates and its
/// shape. The trainer's config holds it as that section; its other sections
/// (the training hyperparameters) are the trainer's and are ignored here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelConfig {
    /// Game: `texas42` or `doubles` (the registry's name).
    pub game: String,
    /// Doubles players (2, 3 or 4); ignored by Texas 42.
    pub players: u8,
    /// Rules: a preset name (`standard`, `full`) or a JSON rules object.
    pub rules: String,
    /// Texas 42 hand reward, the one the value head estimates: `marks`, `points`
    /// or `marks+points` (marks plus point difference / 42: denser, but it also
    /// pays the bidder for the points of a contract it fails, which teaches
    /// overbidding); evaluation counts the arena's score (marks; game points
    /// under `points` scoring). Doubles ignores it.
    #[serde(with = "reward_mode")]
    pub reward: RewardMode,
    /// Multiply rewards by this (Doubles points are large: 1/target is a good scale).
    #[serde(serialize_with = "shortest_f32")]
    pub reward_scale: f32,
    /// Width of the hidden layers.
    pub hidden: usize,
    /// Number of hidden layers.
    pub depth: usize,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            game: "texas42".into(),
            players: 4,
            rules: "standard".into(),
            reward: RewardMode::Marks,
            reward_scale: 1.0,
            hidden: DEFAULT_HIDDEN,
            depth: DEFAULT_DEPTH,
        }
    }
}

impl ModelConfig {
    /// Reads a folder's `config.toml`: its `[model]` section, or the whole
    /// file in the old flat form (every key at the top, as configs were saved
    /// before the sections). A removed key of the network's is passed over at
    /// its "off" value and refused at any other; the error is one line (with
    /// the line of the text where TOML says).
    pub fn from_toml(text: &str) -> Result<ModelConfig, String> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let mut fields = match table.remove("model") {
            Some(toml::Value::Table(model)) => model,
            _ => table,
        };
        // The network's keys only: a key of the training's that was removed
        // (label files) changes nothing about the network the folder holds.
        drop_removed_keys(&mut fields, Some("model"))?;
        fields.try_into().map_err(|e| toml_error(text, &e))
    }

    /// The game the network plays, through the registry: `game` under `rules`
    /// with `players`, its hand rewards shaped by `reward`.
    pub fn game(&self) -> Result<AnyGame, GameError> {
        // `players` matters only to games played by several counts (Doubles).
        let several = registry::entry(&self.game).is_some_and(|g| g.players.len() > 1);
        let game = AnyGame::from_rules_text(&self.game, &self.rules, several.then_some(usize::from(self.players)))?;
        Ok(game.with_reward(self.reward))
    }

    /// The network's shape for a game's observation and action lengths.
    pub fn policy(&self, obs_len: usize, num_actions: usize) -> PolicyNetConfig {
        PolicyNetConfig::new(obs_len, num_actions).with_hidden(self.hidden).with_depth(self.depth)
    }
}

/// A config value as bones-agents' list of what was removed reads it.
pub fn removed_setting(value: &toml::Value) -> Setting<'_> {
    match value {
        toml::Value::String(s) => Setting::Text(s),
        toml::Value::Integer(n) => Setting::Number(*n as f64),
        toml::Value::Float(x) => Setting::Number(*x),
        _ => Setting::Other,
    }
}

/// Passes over the removed keys of `fields` (the keys of the config section
/// `section`, or of the whole file in the flat form: `None`) that hold the
/// value that meant "off", and refuses the first that holds another, by name.
pub fn drop_removed_keys(fields: &mut toml::Table, section: Option<&str>) -> Result<(), String> {
    let gone: Vec<String> = fields.keys().filter(|k| removed::config_key(section, k).is_some()).cloned().collect();
    for name in gone {
        let (Some(entry), Some(value)) = (removed::config_key(section, &name), fields.remove(&name)) else {
            continue;
        };
        if !entry.is_off(removed_setting(&value)) {
            return Err(entry.refusal(&format!("{name} = {value}")));
        }
    }
    Ok(())
}

/// Serialises an `f32` config value as its shortest decimal (`0.95`), not the
/// `f64` it widens to (`0.949999988079071`, which TOML would write), so that a
/// config written back reads as it was given; reading it back gives the same
/// `f32`. (Should the decimal, read as an `f64` and narrowed, land on another
/// `f32`, the exact widening is written instead.)
pub fn shortest_f32<S: Serializer>(x: &f32, s: S) -> Result<S::Ok, S::Error> {
    let decimal: f64 = x.to_string().parse().unwrap_or(f64::from(*x));
    s.serialize_f64(if decimal as f32 == *x { decimal } else { f64::from(*x) })
}

/// Serde adapter for `reward`: [`RewardMode`] as `marks`, `points` or `marks+points`.
pub mod reward_mode {
    use super::*;

    /// Every mode with its name in config files.
    pub const NAMES: [(RewardMode, &str); 3] =
        [(RewardMode::Marks, "marks"), (RewardMode::Points, "points"), (RewardMode::MarksAndPoints, "marks+points")];

    /// The name of `mode` in config files.
    pub fn name(mode: RewardMode) -> &'static str {
        NAMES.iter().find(|(m, _)| *m == mode).map(|(_, n)| *n).expect("every reward mode has a name")
    }

    /// Writes the mode's name.
    pub fn serialize<S: Serializer>(mode: &RewardMode, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(name(*mode))
    }

    /// Reads a mode's name; anything else is an error naming the choices.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RewardMode, D::Error> {
        let s = String::deserialize(d)?;
        NAMES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(m, _)| *m)
            .ok_or_else(|| serde::de::Error::custom(bad_choice("reward", &s, &NAMES.map(|(_, n)| n))))
    }
}

/// The error for a string key outside its choices: names the key, the value and the choices.
pub fn bad_choice(key: &str, value: &str, expected: &[&str]) -> String {
    let expected: Vec<String> = expected.iter().map(|e| format!("\"{e}\"")).collect();
    let expected = match expected.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => expected.join(""),
    };
    format!("`{key}` must be {expected}, not \"{value}\"")
}

/// Writes `bytes` to `path` atomically (a temporary file, then a rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    // The whole name plus the process: `a.bin` and `a.json` never share a
    // temporary file, nor do two processes writing the same file.
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(name);
    let written =
        std::fs::write(&tmp, bytes).map_err(io(&tmp)).and_then(|()| std::fs::rename(&tmp, path).map_err(io(path)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The folder a pointer file (`latest`, `best`) under `root` names, if any.
pub fn pointer(root: &Path, which: &str) -> Option<String> {
    std::fs::read_to_string(root.join(which)).ok().map(|s| s.trim().to_string())
}

/// The newest checkpoint folder under `root`, if any.
pub fn latest(root: &Path) -> Option<PathBuf> {
    pointer(root, "latest").map(|n| root.join(n)).filter(|p| p.is_dir())
}

/// The best checkpoint folder under `root`, if any.
pub fn best(root: &Path) -> Option<PathBuf> {
    pointer(root, "best").map(|n| root.join(n)).filter(|p| p.is_dir())
}

/// The text of the `config.toml` beside a network.
pub fn config_text(dir: &Path) -> Result<String, CheckpointError> {
    let cfg_path = dir.join("config.toml");
    std::fs::read_to_string(&cfg_path).map_err(io(&cfg_path))
}

/// A TOML error in one line: what was wrong and on which line of `text`.
pub fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let message: Vec<&str> = e.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    match e.span() {
        Some(span) => {
            format!("line {}: {}", text[..span.start.min(text.len())].lines().count().max(1), message.join(", "))
        }
        None => message.join(", "),
    }
}

/// Reads what the `config.toml` beside a network (a checkpoint or a model
/// folder) says about it, once the folder's manifest (if any) checks out.
pub fn read_model_config(dir: &Path) -> Result<ModelConfig, CheckpointError> {
    crate::manifest::verify(dir)?;
    let cfg_path = dir.join("config.toml");
    let format = |message: String| CheckpointError::Format { path: cfg_path.display().to_string(), message };
    let text = config_text(dir)?;
    let cfg = ModelConfig::from_toml(&text).map_err(|e| format(format!("bad config: {e}")))?;
    cfg.game().map_err(|e| format(format!("bad config: {e}")))?;
    Ok(cfg)
}

/// Reads a checkpoint's counters (`state.json`).
pub fn read_run_state(dir: &Path) -> Result<RunState, CheckpointError> {
    let state_path = dir.join("state.json");
    let text = std::fs::read_to_string(&state_path).map_err(io(&state_path))?;
    serde_json::from_str(&text)
        .map_err(|e| CheckpointError::Format { path: state_path.display().to_string(), message: e.to_string() })
}

/// The file of a folder's network.
pub const MODEL_FILE: &str = "model.bpk";

/// Loads the network in `dir` (a checkpoint or a model folder; its shape from
/// `config.toml`) onto `device`.
pub fn load_model(
    dir: &Path,
    obs_len: usize,
    num_actions: usize,
    device: &Device,
) -> Result<PolicyNet, CheckpointError> {
    let cfg = read_model_config(dir)?;
    load_weights(cfg.policy(obs_len, num_actions).init(device), &dir.join(MODEL_FILE))
}

/// Writes `model` into the folder `dir` (a folder being written, renamed into
/// place when complete) as [`MODEL_FILE`].
pub fn save_model(model: &PolicyNet, dir: &Path) -> Result<(), CheckpointError> {
    let path = dir.join(MODEL_FILE);
    model
        .clone()
        .save_file(&path)
        .map_err(|e| CheckpointError::Record { path: path.display().to_string(), message: e.to_string() })
}

/// Loads the weights in `path` into a freshly initialised `module`.
pub fn load_weights<M: Module>(module: M, path: &Path) -> Result<M, CheckpointError> {
    module
        .try_load_file(path)
        .map_err(|e| CheckpointError::Record { path: path.display().to_string(), message: e.to_string() })
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

    #[test]
    fn the_shipped_models_configs_read_as_model_configs() {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        for name in bones_env::GAMES.map(|g| g.name) {
            let cfg = read_model_config(&models.join(name)).unwrap();
            assert_eq!(cfg.game, name);
            assert!(cfg.hidden >= 1 && cfg.depth >= 1);
        }
    }

    #[test]
    fn a_model_config_is_read_from_the_model_section_or_from_the_old_flat_form() {
        let flat = ModelConfig::from_toml("seed = 3\ngame = \"doubles\"\nplayers = 3\nhidden = 64\n").unwrap();
        let sections =
            ModelConfig::from_toml("[run]\nseed = 3\n\n[model]\ngame = \"doubles\"\nplayers = 3\nhidden = 64\n")
                .unwrap();
        assert_eq!(flat, sections);
        assert_eq!((sections.game.as_str(), sections.players, sections.hidden), ("doubles", 3, 64));
    }

    #[test]
    fn a_model_config_saved_with_bid_values_off_loads_and_one_with_bid_values_is_refused_by_name() {
        // Every config saved while bid rounds existed holds `bid_hidden = 0` and `[bidding] rounds = 0`.
        let off = ModelConfig::from_toml("[model]\nhidden = 64\nbid_hidden = 0\n\n[bidding]\nrounds = 0\n").unwrap();
        assert_eq!(off, ModelConfig { hidden: 64, ..ModelConfig::default() });
        assert_eq!(ModelConfig::from_toml("hidden = 64\nbid_hidden = 0\n").unwrap(), off, "the flat form");
        for text in ["[model]\nbid_hidden = 64\n", "bid_hidden = 64\n"] {
            let e = ModelConfig::from_toml(text).unwrap_err();
            assert!(e.starts_with("`bid_hidden = 64`: bid values (fitted by bid rounds) were removed"), "{e}");
            assert!(e.contains("the code is at commit ") && e.ends_with("delete the key") && !e.contains('\n'), "{e}");
        }
        // A removed key of the training's changes nothing about the network.
        let labels = ModelConfig::from_toml("hidden = 64\nlabels = \"runs/l.bin\"\nlabel_share = 0.5\n").unwrap();
        assert_eq!(labels, off);
    }

    #[test]
    fn an_f32_is_written_as_its_shortest_decimal_and_reads_back_the_same() {
        #[derive(Serialize, Deserialize)]
        struct Holder {
            #[serde(serialize_with = "shortest_f32")]
            x: f32,
        }
        let written = |x: f32| toml::to_string(&Holder { x }).unwrap();
        for (x, text) in
            [(0.95f32, "0.95"), (0.2, "0.2"), (0.02, "0.02"), (0.03, "0.03"), (1.0, "1.0"), (1e-5, "0.00001")]
        {
            assert_eq!(written(x), format!("x = {text}\n"));
        }
        // Widened, 0.95 would be written 0.949999988079071.
        assert_ne!(written(0.95), format!("x = {}\n", f64::from(0.95f32)));
        // Any f32 reads back bit for bit (a stride through every bit pattern).
        for bits in (0..u32::MAX).step_by(40_503) {
            let x = f32::from_bits(bits);
            if x.is_finite() {
                let back: Holder = toml::from_str(&written(x)).unwrap();
                assert_eq!(back.x.to_bits(), bits, "{x:e} written as {}", written(x));
            }
        }
    }

    #[test]
    fn a_bad_reward_in_a_model_config_names_the_choices() {
        let e = toml::from_str::<ModelConfig>("reward = \"goals\"").unwrap_err().to_string();
        assert!(e.contains("`reward` must be \"marks\", \"points\" or \"marks+points\", not \"goals\""), "{e}");
    }
}
