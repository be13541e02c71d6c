//! A trained policy as an agent (`model:PATH`): it acts from the seat's
//! observation only (the view's encoding), greedily or by sampling.
//!
//! PATH is a checkpoint folder (`runs/NAME/checkpoints/update-000120`), a run
//! folder (its best checkpoint, else its latest), or a model folder holding
//! `model.bpk` and `config.toml`.
//!
//! The shipped models (the default network of `search`, `bones play`, …) are
//! found by [`models_search`]: `--models DIR` ([`set_models_dir`]), else
//! `BONES_MODELS`, else `models` next to the program, else `./models`.

use crate::folder;
use crate::inference::{choose, legal_probs, Actor};
use crate::model::PolicyNet;
use crate::onnx::OnnxPolicy;
use crate::sparse::SparseRows;
use bones_agents::policy::Wanted;
use bones_agents::{AgentFactory, AgentRng, Policy as DecidePolicy, PolicyLoader};
use bones_env::{Action, ActionMask};
use burn::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

/// A loaded policy acting for one seat at a time.
pub struct PolicyAgent {
    model: PolicyNet,
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

/// The environment variable naming the shipped models' folder (the second
/// place looked, after `--models DIR`).
pub const MODELS_VARIABLE: &str = "BONES_MODELS";

/// The flag naming the shipped models' folder (the first place looked).
pub const MODELS_FLAG: &str = "--models";

/// `--models DIR` as the program was given it (see [`set_models_dir`]).
static MODELS_DIR: RwLock<Option<PathBuf>> = RwLock::new(None);

/// Makes `dir` the first place [`models_search`] (and so [`shipped_model`])
/// looks, for the whole process: what `bones --models DIR` does before it runs
/// a command. A folder that does not exist is then an error of the search, not
/// a reason to look elsewhere. `None` forgets it.
pub fn set_models_dir(dir: Option<PathBuf>) {
    *MODELS_DIR.write().unwrap_or_else(|e| e.into_inner()) = dir;
}

/// Where a place to look for the shipped models comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ModelsSource {
    /// `--models DIR` ([`set_models_dir`]).
    Flag,
    /// The `BONES_MODELS` environment variable.
    Variable,
    /// A `models` folder next to the running program.
    BesideProgram,
    /// `models` in the current folder.
    CurrentFolder,
}

impl ModelsSource {
    /// Whether the user named this place: then it must exist.
    pub fn explicit(self) -> bool {
        matches!(self, ModelsSource::Flag | ModelsSource::Variable)
    }
}

impl std::fmt::Display for ModelsSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ModelsSource::Flag => MODELS_FLAG,
            ModelsSource::Variable => MODELS_VARIABLE,
            ModelsSource::BesideProgram => "next to the program",
            ModelsSource::CurrentFolder => "in the current folder",
        })
    }
}

/// One place looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelsPlace {
    /// Where the place comes from.
    pub source: ModelsSource,
    /// The folder (as given, or as built: relative where the source is).
    pub path: PathBuf,
}

impl std::fmt::Display for ModelsPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.path.display(), self.source)
    }
}

/// A place the user named (`--models DIR`, `BONES_MODELS`) that is not a
/// folder: `--models DIR: no such folder …`, `BONES_MODELS=DIR: no such folder …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelsError {
    /// The place named.
    pub place: ModelsPlace,
}

impl std::fmt::Display for ModelsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.place.path.display();
        match self.place.source {
            ModelsSource::Variable => write!(f, "{MODELS_VARIABLE}={path}")?,
            source => write!(f, "{source} {path}")?,
        }
        f.write_str(": no such folder (it should hold the model folders texas42/, doubles/)")
    }
}

impl std::error::Error for ModelsError {}

/// Where the shipped models were looked for and found: what
/// [`models_search`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelsSearch {
    /// Every place looked at, in order, up to the one found (or the error).
    pub looked: Vec<ModelsPlace>,
    /// The folder the shipped models are in (`found.path.join(GAME)`); `None`
    /// when no place holds them, or on an error.
    pub found: Option<ModelsPlace>,
    /// `--models DIR` or `BONES_MODELS` names a folder that does not exist:
    /// the search stopped there.
    pub error: Option<ModelsError>,
}

impl ModelsSearch {
    /// Looks for the shipped models' folder in this order: `flag` (`--models
    /// DIR`), `variable` (`BONES_MODELS`; empty counts as unset), a `models`
    /// folder in `program_dir` (the folder of the running program), `models`
    /// in `current` (the current folder: `""` keeps the path relative). The
    /// first two must exist if given (else [`ModelsSearch::error`]); the last
    /// two count only when they hold a model folder (a subfolder with
    /// `model.bpk`).
    pub fn among(
        flag: Option<PathBuf>,
        variable: Option<PathBuf>,
        program_dir: Option<PathBuf>,
        current: PathBuf,
    ) -> ModelsSearch {
        let mut search = ModelsSearch { looked: Vec::new(), found: None, error: None };
        let places = [
            (ModelsSource::Flag, flag),
            (ModelsSource::Variable, variable.filter(|v| !v.as_os_str().is_empty())),
            (ModelsSource::BesideProgram, program_dir.map(|d| d.join("models"))),
            (ModelsSource::CurrentFolder, Some(current.join("models"))),
        ];
        for (source, path) in places {
            let Some(path) = path else { continue };
            let place = ModelsPlace { source, path };
            search.looked.push(place.clone());
            if source.explicit() {
                if place.path.is_dir() {
                    search.found = Some(place);
                } else {
                    search.error = Some(ModelsError { place });
                }
                return search;
            }
            if !model_folders(&place.path).is_empty() {
                search.found = Some(place);
                return search;
            }
        }
        search
    }

    /// The model folders in the folder found (`texas42`, `doubles`, …: its
    /// subfolders holding `model.bpk`), by name.
    pub fn models(&self) -> Vec<String> {
        self.found.as_ref().map(|place| model_folders(&place.path)).unwrap_or_default()
    }

    /// One line: every place looked at, in order.
    pub fn looked_line(&self) -> String {
        let places: Vec<String> = self.looked.iter().map(|p| p.to_string()).collect();
        format!("models looked for in: {}", places.join(", "))
    }

    /// One line: the folder found and its models, or why there is none.
    pub fn found_line(&self) -> String {
        match (&self.found, &self.error) {
            (_, Some(e)) => format!("models found: none: {e}"),
            (Some(place), None) => match self.models() {
                names if names.is_empty() => format!("models found: {place}: no model folders in it"),
                names => format!("models found: {place}: {}", names.join(", ")),
            },
            (None, None) => format!("models found: none (give {MODELS_FLAG} DIR or set {MODELS_VARIABLE})"),
        }
    }
}

/// The subfolders of `dir` holding `model.bpk`, by name (none if `dir` cannot be read).
fn model_folders(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join(crate::folder::MODEL_FILE).is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// Where the shipped models are, for this process: `--models DIR` (as given
/// to [`set_models_dir`]), else the `BONES_MODELS` environment variable, else
/// a `models` folder next to the running program, else `./models` (see
/// [`ModelsSearch::among`]). It reads the file system on every call.
pub fn models_search() -> ModelsSearch {
    let flag = MODELS_DIR.read().unwrap_or_else(|e| e.into_inner()).clone();
    let variable = std::env::var_os(MODELS_VARIABLE).map(PathBuf::from);
    let program_dir = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf));
    ModelsSearch::among(flag, variable, program_dir, PathBuf::new())
}

/// The shipped model folder of `game` (`GAME` in the folder [`models_search`]
/// finds); `None` when there is none (or `--models DIR` / `BONES_MODELS` names
/// a folder that does not exist: [`models_search`] says so).
pub fn shipped_model(game: &str) -> Option<PathBuf> {
    models_search().found.map(|place| place.path.join(game)).filter(|p| p.is_dir())
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
    fn load(&self, path: &Path, wanted: Wanted<'_>) -> Result<Box<dyn DecidePolicy>, String> {
        Ok(Box::new(PolicyAgent::load(path, wanted.game, wanted.obs_len, wanted.num_actions)?))
    }

    fn load_onnx(
        &self,
        path: &Path,
        observation: Option<u32>,
        wanted: Wanted<'_>,
    ) -> Result<Box<dyn DecidePolicy>, String> {
        let Wanted { game, obs_len, num_actions } = wanted;
        OnnxPolicy::load(path, observation, game, obs_len, num_actions)
            .map(|policy| Box::new(policy) as Box<dyn DecidePolicy>)
            .map_err(|e| e.to_string())
    }

    fn shipped(&self, game: &str) -> Option<PathBuf> {
        shipped_model(game)
    }
}

/// The agent factory of the `bones` tools: every spec, `model:PATH` included.
pub fn factory() -> AgentFactory<'static> {
    AgentFactory::with_models(&ModelLoader)
}
