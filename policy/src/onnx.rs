//! An ONNX network as a policy (`onnx:PATH`): a network written by any
//! framework, run by tract (a pure-Rust ONNX runtime).
//!
//! PATH is a model folder holding `model.onnx` and `model.json` (as
//! `bones export` writes), or a `.onnx` file given with the observation
//! version it reads (`onnx:observation=V:FILE.onnx`). Before the network is
//! run, everything that can disagree is checked against the game being
//! played: `model.json`'s game, observation version and length (and
//! `observation=V`, which must agree with it), the game's current observation
//! version, and the network's input and output shapes against the
//! observation length and the action count.
//!
//! The network has one input, float32 `[batch, obs_len]` (a symbolic batch, or
//! a fixed batch of 1, which [`OnnxPolicy::logits`] then runs row by row), and
//! gives the raw action scores `[batch, num_actions]`: the output named
//! [`ONNX_LOGITS`] (the name `bones export` gives it), else the graph's only
//! output, else its only output of `num_actions` columns. Other outputs (the
//! value head) are dropped before the graph is optimised. It decides as
//! `model:PATH` does: the highest-scoring legal action, lowest id on ties.

use crate::export::ONNX_LOGITS;
use crate::inference::choose;
use bones_agents::{AgentRng, Policy};
use bones_env::registry::AnyGame;
use bones_env::{Action, ActionMask};
use serde_json::Value;
use std::path::{Path, PathBuf};
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::infer::{Factoid, GenericFactoid};

/// The network file of a model folder.
pub const ONNX_FILE: &str = "model.onnx";
/// The metadata file of a model folder.
pub const METADATA_FILE: &str = "model.json";

/// Why an ONNX policy cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum OnnxError {
    /// The path names nothing.
    #[error("{path}: no such file or folder")]
    NotFound {
        /// The path given.
        path: PathBuf,
    },
    /// A file the policy needs is missing or unreadable.
    #[error("cannot read {path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// `model.json` is not a model folder's metadata.
    #[error("{path} is not a bones model.json: {message}")]
    Metadata {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// The game is unknown to this build.
    #[error("unknown game `{0}`")]
    UnknownGame(String),
    /// The model folder is for another game.
    #[error("{path} is a {found} model, not {expected}")]
    WrongGame {
        /// The model.json.
        path: PathBuf,
        /// Its game.
        found: String,
        /// The game played.
        expected: String,
    },
    /// A bare `.onnx` file was given without `observation=V`.
    #[error(
        "{path} is a bare .onnx file: give the observation version it reads, \
         `onnx:observation=V:{path}` (the current {game} observation is version {current})"
    )]
    VersionNeeded {
        /// The file.
        path: PathBuf,
        /// The game played.
        game: String,
        /// Its current observation version.
        current: u32,
    },
    /// `observation=V` disagrees with the folder's `model.json`.
    #[error("observation={given} was given, but {path} says the network reads observation version {found}")]
    VersionDisagrees {
        /// The model.json.
        path: PathBuf,
        /// The version given in the spec.
        given: u32,
        /// The version in model.json.
        found: u64,
    },
    /// The network reads another observation version than the game writes.
    #[error(
        "the network reads {game} observation version {found} ({origin}), but this build writes version \
         {expected}: re-export or retrain it for version {expected}"
    )]
    WrongVersion {
        /// The game played.
        game: String,
        /// Where `found` comes from (`model.json`, `observation=V`).
        origin: String,
        /// The version the network reads.
        found: u64,
        /// The game's current version.
        expected: u32,
    },
    /// `model.json` gives another observation length than the game's.
    #[error("{path} gives an observation length of {found}, but {game}'s observation has {expected} floats")]
    WrongLength {
        /// The model.json.
        path: PathBuf,
        /// The game played.
        game: String,
        /// The length in model.json.
        found: u64,
        /// The game's observation length.
        expected: usize,
    },
    /// The file is not an ONNX model tract can read.
    #[error("{path} is not an ONNX model this runtime (tract) can read: {message}")]
    NotOnnx {
        /// The file.
        path: PathBuf,
        /// tract's reason.
        message: String,
    },
    /// The network's inputs or outputs are not what a policy has.
    #[error("{path}: {message}")]
    Graph {
        /// The file.
        path: PathBuf,
        /// What was found and what was expected.
        message: String,
    },
}

/// The checks a policy file passes: the game's facts.
struct Expect<'a> {
    game: &'a str,
    obs_len: usize,
    num_actions: usize,
}

/// An ONNX network acting as a policy: greedy, like `model:PATH`.
pub struct OnnxPolicy {
    plan: Arc<TypedRunnableModel>,
    /// The batch is symbolic (any number of rows per run); else it is 1.
    batched: bool,
    obs_len: usize,
    num_actions: usize,
    mask: Vec<f32>,
}

impl std::fmt::Debug for OnnxPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxPolicy")
            .field("batched", &self.batched)
            .field("obs_len", &self.obs_len)
            .field("num_actions", &self.num_actions)
            .finish_non_exhaustive()
    }
}

impl OnnxPolicy {
    /// Loads the network at `path` (a model folder or a `.onnx` file, read as
    /// observation version `observation`) for `game`, whose observation has
    /// `obs_len` floats and which has `num_actions` actions.
    pub fn load(
        path: &Path,
        observation: Option<u32>,
        game: &str,
        obs_len: usize,
        num_actions: usize,
    ) -> Result<OnnxPolicy, OnnxError> {
        let current = AnyGame::new(game, None, None).map_err(|_| OnnxError::UnknownGame(game.to_string()))?;
        let expected = current.obs_version();
        let file = if path.is_dir() {
            let meta = path.join(METADATA_FILE);
            check_metadata(&meta, observation, game, expected, obs_len)?;
            path.join(ONNX_FILE)
        } else if path.is_file() {
            match observation {
                None => {
                    return Err(OnnxError::VersionNeeded {
                        path: path.to_path_buf(),
                        game: game.to_string(),
                        current: expected,
                    })
                }
                Some(v) if v != expected => {
                    return Err(OnnxError::WrongVersion {
                        game: game.to_string(),
                        origin: format!("observation={v}"),
                        found: v.into(),
                        expected,
                    })
                }
                Some(_) => path.to_path_buf(),
            }
        } else {
            return Err(OnnxError::NotFound { path: path.to_path_buf() });
        };
        if !file.is_file() {
            return Err(OnnxError::Read { path: file, message: "no such file".to_string() });
        }
        let (plan, batched) = build(&file, &Expect { game, obs_len, num_actions })?;
        let policy = OnnxPolicy { plan, batched, obs_len, num_actions, mask: vec![0.0; num_actions] };
        // A first run, so that a network tract parses but cannot run fails here,
        // with a reason, rather than at the first decision.
        let rows = if batched { 2 } else { 1 };
        policy.run(&vec![0.0; rows * obs_len], rows).map_err(|message| OnnxError::Graph {
            path: file.clone(),
            message: format!("the network does not run on a zero observation: {message}"),
        })?;
        Ok(policy)
    }

    /// The logits of `rows` observations (`rows × obs_len` floats).
    fn run(&self, obs: &[f32], rows: usize) -> Result<Vec<f32>, String> {
        if obs.len() != rows * self.obs_len {
            return Err(format!("{} floats for {rows} observations of {}", obs.len(), self.obs_len));
        }
        if !self.batched && rows != 1 {
            let mut out = Vec::with_capacity(rows * self.num_actions);
            for row in obs.chunks(self.obs_len) {
                out.extend(self.run(row, 1)?);
            }
            return Ok(out);
        }
        let input = Tensor::from_shape(&[rows, self.obs_len], obs).map_err(|e| format!("{e:#}"))?;
        let outputs = self.plan.run(tvec!(input.into_tvalue())).map_err(|e| format!("{e:#}"))?;
        let logits = outputs.first().ok_or("the network gave no output")?;
        let logits = logits.cast_to::<f32>().map_err(|e| format!("{e:#}"))?;
        let view = logits.to_plain_array_view::<f32>().map_err(|e| format!("{e:#}"))?;
        if view.len() != rows * self.num_actions {
            return Err(format!(
                "the network gave {} scores for {rows} observations, expected {} per observation",
                view.len(),
                self.num_actions
            ));
        }
        Ok(view.iter().copied().collect())
    }
}

impl Policy for OnnxPolicy {
    /// [`Policy::try_decide`]; a failure panics with its reason (drivers call
    /// [`bones_agents::agent::act_contained`], which reports it): it is never
    /// replaced by another action.
    fn decide(&mut self, obs: &[f32], legal: ActionMask, rng: &mut AgentRng) -> Action {
        self.try_decide(obs, legal, rng).unwrap_or_else(|e| panic!("the ONNX policy failed: {e}"))
    }

    /// The best-scoring legal action; an error when the network fails or gives
    /// no legal action a finite score (all NaN or -inf).
    fn try_decide(&mut self, obs: &[f32], legal: ActionMask, _rng: &mut AgentRng) -> Result<Action, String> {
        let logits = self.run(obs, 1)?;
        legal.write_f32(&mut self.mask);
        let action = choose(&logits, &self.mask, None).0;
        if action < self.num_actions && legal.contains(action) && logits[action].is_finite() {
            Ok(action)
        } else {
            Err(format!(
                "the network gave no legal action a finite score (scores of the legal actions: {:?})",
                legal.iter().filter(|&a| a < logits.len()).map(|a| logits[a]).take(8).collect::<Vec<_>>()
            ))
        }
    }

    /// Panics, as the burn policy does, when `obs` is not `rows` observations
    /// (the caller's contract); the network's shapes were checked and it was
    /// run once when it was loaded.
    fn logits(&mut self, obs: &[f32], rows: usize) -> Vec<f32> {
        if rows == 0 {
            return Vec::new();
        }
        self.run(obs, rows).unwrap_or_else(|e| panic!("the ONNX policy failed: {e}"))
    }
}

/// Checks a folder's `model.json` against the game and `observation=V`.
fn check_metadata(
    path: &Path,
    observation: Option<u32>,
    game: &str,
    expected: u32,
    obs_len: usize,
) -> Result<(), OnnxError> {
    let text = std::fs::read_to_string(path).map_err(|e| OnnxError::Read {
        path: path.to_path_buf(),
        message: if e.kind() == std::io::ErrorKind::NotFound {
            format!("no such file (a folder needs {METADATA_FILE} and {ONNX_FILE}; for a bare .onnx file give it with `observation=V`)")
        } else {
            e.to_string()
        },
    })?;
    let meta = |message: String| OnnxError::Metadata { path: path.to_path_buf(), message };
    let json: Value = serde_json::from_str(&text).map_err(|e| meta(e.to_string()))?;
    let found = json.get("game").and_then(Value::as_str).ok_or_else(|| meta("no `game`".to_string()))?;
    if found != game {
        return Err(OnnxError::WrongGame {
            path: path.to_path_buf(),
            found: found.to_string(),
            expected: game.to_string(),
        });
    }
    let obs = json.get("observation").ok_or_else(|| meta("no `observation`".to_string()))?;
    let version =
        obs.get("version").and_then(Value::as_u64).ok_or_else(|| meta("no `observation.version`".to_string()))?;
    let length =
        obs.get("length").and_then(Value::as_u64).ok_or_else(|| meta("no `observation.length`".to_string()))?;
    if let Some(given) = observation {
        if u64::from(given) != version {
            return Err(OnnxError::VersionDisagrees { path: path.to_path_buf(), given, found: version });
        }
    }
    if version != u64::from(expected) {
        return Err(OnnxError::WrongVersion {
            game: game.to_string(),
            origin: path.display().to_string(),
            found: version,
            expected,
        });
    }
    if usize::try_from(length).ok() != Some(obs_len) {
        return Err(OnnxError::WrongLength {
            path: path.to_path_buf(),
            game: game.to_string(),
            found: length,
            expected: obs_len,
        });
    }
    Ok(())
}

/// A dimension for messages.
fn dim_text(d: &GenericFactoid<TDim>) -> String {
    match d {
        GenericFactoid::Only(d) => d.to_string(),
        GenericFactoid::Any => "?".to_string(),
    }
}

/// Reads, checks and optimises the network of `file`: the runnable plan
/// computing the logits only, and whether its batch is symbolic.
fn build(file: &Path, expect: &Expect<'_>) -> Result<(Arc<TypedRunnableModel>, bool), OnnxError> {
    let graph = |message: String| OnnxError::Graph { path: file.to_path_buf(), message };
    let tract = |e: TractError| graph(format!("{e:#}"));
    let mut model = tract_onnx::onnx()
        .model_for_path(file)
        .map_err(|e| OnnxError::NotOnnx { path: file.to_path_buf(), message: format!("{e:#}") })?;

    // The input: one float32 [batch, obs_len].
    let inputs = model.input_outlets().map_err(tract)?.to_vec();
    let names: Vec<String> = inputs.iter().map(|o| model.node(o.node).name.clone()).collect();
    if inputs.len() != 1 {
        return Err(graph(format!(
            "the network has {} inputs ({}); expected one, the observation [batch, {}]",
            inputs.len(),
            names.join(", "),
            expect.obs_len
        )));
    }
    let input_name = &names[0];
    let fact = model.input_fact(0).map_err(tract)?.clone();
    if let Some(dt) = fact.datum_type.concretize() {
        if dt != f32::datum_type() {
            return Err(graph(format!("input `{input_name}` is {dt:?}, expected float32")));
        }
    }
    let expected_shape = format!("[batch, {}] (the {} observation)", expect.obs_len, expect.game);
    let mut batch = None;
    if !fact.shape.is_open() {
        let dims: Vec<_> = fact.shape.dims().cloned().collect();
        let shown = format!("[{}]", dims.iter().map(dim_text).collect::<Vec<_>>().join(", "));
        let width = dims.get(1).and_then(|d| d.concretize()).and_then(|d| d.as_i64());
        if dims.len() != 2 || width.is_some_and(|w| usize::try_from(w).ok() != Some(expect.obs_len)) {
            return Err(graph(format!("input `{input_name}` has shape {shown}, expected {expected_shape}")));
        }
        match dims[0].concretize().and_then(|d| d.as_i64()) {
            Some(1) => batch = Some(1),
            Some(n) => {
                return Err(graph(format!(
                    "input `{input_name}` has a fixed batch of {n} ({shown}); expected a dynamic batch or 1"
                )))
            }
            None => {}
        }
    }
    let batched = batch.is_none();
    let batch_dim = match batch {
        Some(n) => TDim::Val(n),
        None => TDim::Sym(model.symbols.sym("batch")),
    };
    model
        .set_input_fact(
            0,
            InferenceFact::dt_shape(f32::datum_type(), tvec![batch_dim.clone(), expect.obs_len.to_dim()]),
        )
        .map_err(tract)?;

    // The output: the logits, [batch, num_actions].
    let outputs = model.output_outlets().map_err(tract)?.to_vec();
    let out_names: Vec<String> = outputs
        .iter()
        .map(|&o| model.outlet_label(o).map_or_else(|| model.node(o.node).name.clone(), str::to_string))
        .collect();
    let mut typed = model
        .into_typed()
        .map_err(|e| graph(format!("cannot analyse the network for input `{input_name}` {expected_shape}: {e:#}")))?;
    let width_of = |typed: &TypedModel, o: OutletId| {
        typed.outlet_fact(o).ok().and_then(|f| f.shape.iter().last().and_then(|d| d.as_i64()))
    };
    let typed_outputs = typed.output_outlets().map_err(tract)?.to_vec();
    let pick = match out_names.iter().position(|n| n == ONNX_LOGITS) {
        Some(i) => i,
        None if typed_outputs.len() == 1 => 0,
        None => {
            let fits: Vec<usize> = (0..typed_outputs.len())
                .filter(|&i| width_of(&typed, typed_outputs[i]) == i64::try_from(expect.num_actions).ok())
                .collect();
            match fits[..] {
                [i] => i,
                _ => {
                    return Err(graph(format!(
                        "the network has outputs {}; expected one named `{ONNX_LOGITS}`, a single output, or one \
                         output of {} scores",
                        out_names.join(", "),
                        expect.num_actions
                    )))
                }
            }
        }
    };
    let outlet = typed_outputs[pick];
    let out_name = &out_names[pick];
    let out = typed.outlet_fact(outlet).map_err(tract)?.clone();
    let shown = format!("[{}]", out.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "));
    let width = out.shape.iter().last().and_then(|d| d.as_i64());
    if out.shape.len() != 2 || out.shape[0] != batch_dim || width != i64::try_from(expect.num_actions).ok() {
        return Err(graph(format!(
            "output `{out_name}` has shape {shown}, expected [batch, {}] (the {} actions)",
            expect.num_actions, expect.game
        )));
    }
    if !out.datum_type.is_float() {
        return Err(graph(format!("output `{out_name}` is {:?}, expected float scores", out.datum_type)));
    }
    typed.select_output_outlets(&[outlet]).map_err(tract)?;
    let plan = typed
        .into_optimized()
        .and_then(|m| m.into_runnable())
        .map_err(|e| graph(format!("cannot prepare the network: {e:#}")))?;
    Ok((plan, batched))
}
