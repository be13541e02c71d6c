//! Export a trained policy for other front ends.
//!
//! A model folder holds:
//! - `model.onnx`: the network (opset 18, dynamic batch): input `obs`
//!   [batch, obs_len], outputs `logits` [batch, num_actions] (raw: set illegal
//!   actions to -inf before the softmax) and `value` [batch, 1];
//! - `weights.safetensors`: the same weights by parameter name;
//! - `model.bpk` + `config.toml`: burn's weights and the training config, so the
//!   folder is a `model:PATH` agent;
//! - `model.json`: everything a front end needs to build inputs and read outputs
//!   (game, observation version and segment table, action names in id order,
//!   rules, network shape) plus the training summary and evaluation figures.
//!
//! Every file is written to a temporary name and renamed into place.

use crate::folder::{self, write_atomic, CheckpointError, ModelConfig, RunState};
use crate::inference::{decide, Actor};
use crate::model::PolicyNet;
use crate::sparse::SparseRows;
use bones_env::vec_env::episode_seed;
use bones_env::{Episode, Game, RewardMode, VecEnv};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, SafetensorsStore};
use burn_onnx::export::{AxisSpec, InputSpec, OnnxExporter};
use onnx_ir::{Message, ModelProto};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Version of the model folder layout (`model.json`'s `format_version`).
pub const MODEL_FORMAT_VERSION: u32 = 1;

/// Names of the ONNX graph's input and outputs.
pub const ONNX_INPUT: &str = "obs";
/// Policy logits output.
pub const ONNX_LOGITS: &str = "logits";
/// Value output.
pub const ONNX_VALUE: &str = "value";

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The checkpoint could not be read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The checkpoint is for another game than the one given.
    #[error("{path} holds a {found} policy, not {expected}")]
    WrongGame {
        /// The checkpoint.
        path: String,
        /// Its game.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// burn-onnx could not export the network.
    #[error("ONNX export failed: {0}")]
    Onnx(String),
    /// The safetensors file could not be written.
    #[error("cannot write {path}: {message}")]
    Weights {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// An evaluation file is not JSON lines of `bones eval --json` objects.
    #[error("evaluation file {path}, line {line}: {message}")]
    Evaluation {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// A file or folder could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io { path: path.display().to_string(), source }
}

/// What to export and what to put beside it.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// `bones eval --json` results (one object per line) to record in `model.json`.
    pub evaluations: Vec<PathBuf>,
    /// Also write this many observations from self-play with burn's outputs
    /// (`parity.json` + `parity.bin`) for an ONNX runtime to compare against.
    pub parity_samples: usize,
    /// Seed of the self-play that records the parity samples.
    pub seed: u64,
}

/// The files an export wrote.
#[derive(Clone, Debug)]
pub struct ExportSummary {
    /// The checkpoint exported.
    pub checkpoint: PathBuf,
    /// The files written, in order.
    pub files: Vec<PathBuf>,
}

/// Exports the network in `checkpoint` (a checkpoint folder or a model folder)
/// for `game` (played under `rules`, a rules object) into `out`.
pub fn export<G: Game + Clone + Send + Sync + 'static>(
    game: &G,
    rules: Value,
    checkpoint: &Path,
    out: &Path,
    opts: &ExportOptions,
) -> Result<ExportSummary, ExportError>
where
    G::State: Send,
{
    let cfg = folder::read_model_config(checkpoint)?;
    let config_text = portable_config(&folder::config_text(checkpoint)?);
    if cfg.game != game.name() {
        return Err(ExportError::WrongGame {
            path: checkpoint.display().to_string(),
            found: cfg.game.clone(),
            expected: game.name().into(),
        });
    }
    let device = Device::flex();
    let (ol, na) = (game.obs_len(), game.num_actions());
    let model = folder::load_model(checkpoint, ol, na, &device)?;
    // Re-exporting a model folder keeps its run summary and, unless new ones
    // are given, its evaluations.
    let previous = read_model_json(checkpoint);
    let field = |k: &str| previous.as_ref().and_then(|v| v.get(k)).cloned();
    let run = folder::read_run_state(checkpoint)
        .ok()
        .or_else(|| serde_json::from_value(field("training")?.get("run")?.clone()).ok());
    let mut evaluations = read_evaluations(&opts.evaluations)?;
    if evaluations.is_empty() {
        evaluations = field("evaluation").and_then(|v| v.as_array().cloned()).unwrap_or_default();
    }
    std::fs::create_dir_all(out).map_err(io(out))?;

    let mut files = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> Result<(), ExportError> {
        let path = out.join(name);
        write_atomic(&path, bytes)?;
        files.push(path);
        Ok(())
    };
    put("model.onnx", &onnx_bytes(&model, ol, &device)?)?;
    put("weights.safetensors", &safetensors_bytes(&model, out)?)?;
    put(folder::MODEL_FILE, &burn_bytes(&model, out)?)?;
    put("config.toml", config_text.as_bytes())?;
    let source = field("training")
        .and_then(|t| t.get("checkpoint")?.as_str().map(portable_path))
        .unwrap_or_else(|| portable_path(&checkpoint.display().to_string()));
    let meta = model_json(game, rules, &cfg, &config_text, run.as_ref(), &source, evaluations);
    put("model.json", (serde_json::to_string_pretty(&meta).expect("JSON") + "\n").as_bytes())?;
    if opts.parity_samples > 0 {
        let (header, bin) = parity_samples(game, &model, &device, opts.parity_samples, opts.seed);
        put("parity.json", (header.to_string() + "\n").as_bytes())?;
        put("parity.bin", &bin)?;
    }
    Ok(ExportSummary { checkpoint: checkpoint.to_path_buf(), files })
}

/// Whether `path` names a place from the root of a file system: `/…`, or on
/// Windows `C:\…`, `C:/…` or `\\server\…` (whatever system reads it).
pub fn is_absolute_path(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with('/')
        || path.starts_with('\\')
        || (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/'))
}

/// A path as a file that ships with a model may record it (`model.json`'s
/// `training.checkpoint`, `config.toml`'s `init`): a relative path as it is;
/// an absolute one, a place on the machine that wrote it, cut to its last
/// components: from the run folder on for a checkpoint folder
/// (`/tmp/runs/NAME/checkpoints/update-N` → `NAME/checkpoints/update-N`),
/// else its final name.
pub fn portable_path(path: &str) -> String {
    if !is_absolute_path(path) {
        return path.to_string();
    }
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let keep = match parts.as_slice() {
        [.., _, "checkpoints", _] => 3,
        [.., _] => 1,
        [] => 0,
    };
    parts[parts.len() - keep..].join("/")
}

/// A training config's text with its `init` (the weights a run started from)
/// made portable ([`portable_path`]); every other line as it is.
pub fn portable_config(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let body = line.trim_end_matches(['\n', '\r']);
            let key = body.trim_start();
            if !key.starts_with("init") {
                return line.to_string();
            }
            let init =
                toml::from_str::<toml::Table>(body).ok().and_then(|t| t.get("init")?.as_str().map(str::to_string));
            match init.filter(|p| is_absolute_path(p)) {
                Some(path) => {
                    let indent = &body[..body.len() - key.len()];
                    let value = toml::Value::String(portable_path(&path));
                    format!("{indent}init = {value}{}", &line[body.len()..])
                }
                None => line.to_string(),
            }
        })
        .collect()
}

/// The network as ONNX with named input and outputs.
fn onnx_bytes(model: &PolicyNet, obs_len: usize, device: &Device) -> Result<Vec<u8>, ExportError> {
    let sample = |rows: usize| Tensor::<2>::zeros([rows, obs_len], device);
    let specs = [InputSpec::new([AxisSpec::dynamic("batch"), AxisSpec::Static])];
    let onnx = OnnxExporter::new()
        .export_dynamic(model, sample(2), sample(3), &specs, |m: &PolicyNet, x: Tensor<2>| m.forward(x))
        .map_err(|e| ExportError::Onnx(e.to_string()))?;
    let mut proto = ModelProto::parse_from_bytes(onnx.as_bytes()).map_err(|e| ExportError::Onnx(e.to_string()))?;
    let graph = proto.graph.mut_or_insert_default();
    if graph.input.len() != 1 || graph.output.len() != 2 {
        return Err(ExportError::Onnx(format!(
            "expected 1 input and 2 outputs, the exporter wrote {} and {}",
            graph.input.len(),
            graph.output.len()
        )));
    }
    let renames = [
        (graph.input[0].name.clone(), ONNX_INPUT),
        (graph.output[0].name.clone(), ONNX_LOGITS),
        (graph.output[1].name.clone(), ONNX_VALUE),
    ];
    let rename = |name: &mut String| {
        if let Some((_, new)) = renames.iter().find(|(old, _)| old == name) {
            *name = new.to_string();
        }
    };
    for v in graph.input.iter_mut().chain(graph.output.iter_mut()).chain(graph.value_info.iter_mut()) {
        rename(&mut v.name);
    }
    for node in graph.node.iter_mut() {
        node.input.iter_mut().for_each(rename);
        node.output.iter_mut().for_each(rename);
    }
    proto.write_to_bytes().map_err(|e| ExportError::Onnx(e.to_string()))
}

/// Writes through a scratch file in `out` (the stores write to paths) and reads it back.
fn via_scratch(
    out: &Path,
    name: &str,
    write: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<Vec<u8>, ExportError> {
    let scratch = out.join(format!(".scratch-{name}"));
    write(&scratch).map_err(|message| ExportError::Weights { path: scratch.display().to_string(), message })?;
    let bytes = std::fs::read(&scratch).map_err(io(&scratch))?;
    std::fs::remove_file(&scratch).map_err(io(&scratch))?;
    Ok(bytes)
}

fn safetensors_bytes(model: &PolicyNet, out: &Path) -> Result<Vec<u8>, ExportError> {
    via_scratch(out, "weights.safetensors", |p| {
        let mut store = SafetensorsStore::from_file(p).overwrite(true);
        model.save_into(&mut store).map_err(|e| e.to_string())
    })
}

fn burn_bytes(model: &PolicyNet, out: &Path) -> Result<Vec<u8>, ExportError> {
    via_scratch(out, folder::MODEL_FILE, |p| model.clone().save_file(p).map_err(|e| e.to_string()))
}

fn read_model_json(dir: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("model.json")).ok()?).ok()
}

fn read_evaluations(paths: &[PathBuf]) -> Result<Vec<Value>, ExportError> {
    let mut all = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(io(path))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let bad =
                |message: String| ExportError::Evaluation { path: path.display().to_string(), line: i + 1, message };
            let v: Value = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            if v.get("agents").is_none() {
                return Err(bad("expected a `bones eval --json` object (it has no `agents`)".into()));
            }
            all.push(v);
        }
    }
    Ok(all)
}

/// The metadata a front end needs, plus how the model was made and how strong it is.
fn model_json<G: Game>(
    game: &G,
    rules: Value,
    cfg: &ModelConfig,
    config_text: &str,
    run: Option<&RunState>,
    checkpoint: &str,
    evaluations: Vec<Value>,
) -> Value {
    let mut offset = 0;
    let segments: Vec<Value> = game
        .obs_segments()
        .iter()
        .map(|s| {
            let v = json!({ "name": s.name, "offset": offset, "length": s.len, "contents": s.doc });
            offset += s.len;
            v
        })
        .collect();
    let actions: Vec<&str> = (0..game.num_actions()).map(|a| game.action_name(a)).collect();
    let mut training = Map::new();
    // The whole training config, in the file's key order.
    let config: toml::Table = toml::from_str(config_text).expect("config.toml parsed once already");
    training.insert("config".into(), serde_json::to_value(config).expect("config serialises"));
    if let Some(run) = run {
        training.insert("run".into(), serde_json::to_value(run).expect("run state serialises"));
    }
    training.insert("checkpoint".into(), json!(checkpoint));
    json!({
        "format": "bones-model",
        "format_version": MODEL_FORMAT_VERSION,
        "game": game.name(),
        "players": game.num_players(),
        "rules_preset": cfg.rules,
        "rules": rules,
        "observation": {
            "version": game.obs_version(),
            "length": game.obs_len(),
            "segments": segments,
        },
        "actions": actions,
        "network": {
            "kind": "mlp",
            "hidden": cfg.hidden,
            "depth": cfg.depth,
            "activation": "relu",
            "inputs": { ONNX_INPUT: ["batch", game.obs_len()] },
            "outputs": { ONNX_LOGITS: ["batch", game.num_actions()], ONNX_VALUE: ["batch", 1] },
            "masking": "set the logits of illegal actions to -inf, then softmax",
            "value": value_doc(game.name(), cfg),
        },
        "training": training,
        "evaluation": evaluations,
    })
}

/// What the value output estimates, in the units the network was trained in.
fn value_doc(game: &str, cfg: &ModelConfig) -> String {
    let reward = match (game, cfg.reward) {
        ("doubles", _) => "the round's score minus the mean of all seats' scores",
        (_, RewardMode::Points) => "the hand's point difference / 42",
        (_, RewardMode::MarksAndPoints) => "marks won minus lost this hand plus the point difference / 42",
        (_, RewardMode::Marks) => "marks won minus lost this hand",
    };
    format!("the acting seat's expected reward ({reward}) times reward_scale {}", cfg.reward_scale)
}

/// Observations of the policy playing itself (sampling), with burn's outputs
/// for them: a JSON header and little-endian f32 rows `obs | logits | value`.
fn parity_samples<G: Game + Clone + Send + Sync + 'static>(
    game: &G,
    model: &PolicyNet,
    device: &Device,
    n: usize,
    seed: u64,
) -> (Value, Vec<u8>)
where
    G::State: Send,
{
    let (ol, na) = (game.obs_len(), game.num_actions());
    let envs_n = 64;
    let mut envs = VecEnv::new(game.clone(), Episode::Hand, envs_n, episode_seed(seed, usize::MAX, 0), 1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let actor = Actor::new(model.clone(), device);
    let mut obs = Vec::with_capacity(n * ol + envs_n * ol);
    while obs.len() < n * ol {
        obs.extend_from_slice(&envs.obs);
        let actions: Vec<usize> =
            decide(&actor, &SparseRows::from_dense(&envs.obs, ol), &envs.mask, na, Some(&mut rng))
                .iter()
                .map(|d| d.action)
                .collect();
        envs.step(&actions).expect("the policy picks legal actions");
    }
    obs.truncate(n * ol);
    let x = Tensor::<2>::from_data(TensorData::new(obs.clone(), [n, ol]), device);
    let (logits, values) = model.forward(x);
    let logits: Vec<f32> = logits.into_data().try_to_vec::<f32>().expect("f32 logits");
    let values: Vec<f32> = values.into_data().try_to_vec::<f32>().expect("f32 values");
    let mut bin = Vec::with_capacity(n * (ol + na + 1) * 4);
    for r in 0..n {
        let row = obs[r * ol..(r + 1) * ol].iter().chain(&logits[r * na..(r + 1) * na]).chain(&values[r..r + 1]);
        for x in row {
            bin.extend_from_slice(&x.to_le_bytes());
        }
    }
    let header = json!({
        "rows": n,
        "layout": "little-endian f32 rows: obs | logits | value",
        "obs_len": ol,
        "num_actions": na,
        "seed": seed,
    });
    (header, bin)
}
