//! The actor-learner's two halves in Python, `bones.Learner` and
//! `bones.RolloutWorker` (bones-train's `remote`): a learner owns the run
//! folder and the update, a worker one shard of the games, and they trade
//! bytes, so any transport connects them (`bones.ray` uses Ray's object
//! store). The Rust work runs with the GIL released.

use crate::errors::BonesError;
use crate::game::to_json;
use bones_train::config::field_path;
use bones_train::remote;
use bones_train::TrainConfig;
use burn::prelude::Device;
use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::Mutex;

create_exception!(
    bones,
    TrainError,
    BonesError,
    "A training run that cannot start or go on: a bad config, a run folder that cannot be written or resumed, bytes of another run or update."
);

create_exception!(
    bones,
    ShardRefused,
    TrainError,
    "A rollout shard the learner refused (inconsistent or unreadable): nothing was counted and the learner is where it was. `index` is the shard's place in the list given, `worker` the worker it says it is of (None when unreadable)."
);

fn train_error(e: bones_train::TrainError) -> PyErr {
    if let bones_train::TrainError::Shard { index, worker, .. } = &e {
        let (index, worker) = (*index, *worker);
        let err = ShardRefused::new_err(e.to_string());
        Python::attach(|py| {
            let value = err.value(py);
            let _ = value.setattr("index", index);
            let _ = value.setattr("worker", worker);
        });
        return err;
    }
    TrainError::new_err(e.to_string())
}

/// The config `config` (a preset name, a TOML file, or TOML text) with
/// `workers` and the fields in `overrides` (config field names, alone or with
/// their section: `seed` or `run.seed`) set.
fn train_config(config: &str, workers: Option<usize>, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<TrainConfig> {
    let bad = |e: String| TrainError::new_err(format!("config: {e}"));
    let cfg = if config.contains('\n') {
        TrainConfig::from_toml(config, "the config text")
    } else {
        TrainConfig::load(config)
    }
    .map_err(|e| bad(e.to_string()))?;
    let mut fields = serde_json::to_value(&cfg).map_err(|e| bad(e.to_string()))?;
    if let Some(w) = workers {
        fields["run"]["workers"] = w.into();
    }
    if let Some(o) = overrides {
        for (key, value) in o.iter() {
            let key: String = key.extract().map_err(|_| bad("override keys are config field names".into()))?;
            let (section, name) = field_path(&key).ok_or_else(|| bad(format!("`{key}` is not a config field")))?;
            fields[section][name] = to_json(&value)?;
        }
    }
    let cfg: TrainConfig = serde_json::from_value(fields).map_err(|e| bad(e.to_string()))?;
    // Checks the result as a config file would be checked.
    TrainConfig::from_toml(&cfg.to_toml(), "the config").map_err(|e| bad(e.to_string()))
}

/// The learner of a run: its folder, networks, optimizer, opponent pool and
/// counters; it updates from the rollout shards of `workers` workers.
#[pyclass(module = "bones._bones", name = "Learner")]
pub struct Learner {
    inner: Mutex<Option<remote::Learner>>,
}

const FINISHED: &str = "the learner has finished (`finish` was called)";

/// Why a learner or worker whose lock is poisoned is not used again.
const POISONED: &str = "failed (it panicked) in an earlier call and is not used again: resume the run from its \
                        last checkpoint (the learner) or start a new one (a worker)";

impl Learner {
    /// `f` on the learner, holding the GIL (quick reads only).
    fn with<T>(&self, f: impl FnOnce(&mut remote::Learner) -> PyResult<T>) -> PyResult<T> {
        let mut guard = self.inner.lock().map_err(|_| TrainError::new_err(format!("the learner {POISONED}")))?;
        f(guard.as_mut().ok_or_else(|| TrainError::new_err(FINISHED))?)
    }

    /// `f` on the learner with the GIL released. The lock is taken and
    /// dropped without the GIL, so a thread waiting for it never holds the
    /// GIL that its holder needs back.
    fn detached<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut remote::Learner) -> Result<T, bones_train::TrainError> + Send,
    ) -> PyResult<T> {
        let result = py.detach(|| {
            let mut guard = self.inner.lock().map_err(|_| format!("the learner {POISONED}"))?;
            Ok::<_, String>(guard.as_mut().map(f))
        });
        result.map_err(TrainError::new_err)?.ok_or_else(|| TrainError::new_err(FINISHED))?.map_err(train_error)
    }
}

#[pymethods]
impl Learner {
    /// Starts the run of `config` (a preset name, a TOML file or TOML text,
    /// with `workers` and the config fields in `overrides` set) in the folder
    /// `out`, or with `resume=True` continues it from its latest checkpoint.
    #[new]
    #[pyo3(signature = (config, out, *, workers=None, resume=false, overrides=None))]
    fn new(
        py: Python<'_>,
        config: &str,
        out: PathBuf,
        workers: Option<usize>,
        resume: bool,
        overrides: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Learner> {
        let cfg = train_config(config, workers, overrides)?;
        let learner = py.detach(|| remote::Learner::new(cfg, &out, resume, Device::flex())).map_err(train_error)?;
        Ok(Learner { inner: Mutex::new(Some(learner)) })
    }

    /// The run's config as TOML text (what the workers are built from).
    #[getter]
    fn config(&self) -> PyResult<String> {
        self.with(|l| Ok(l.config().to_toml()))
    }

    /// The number of rollout workers that feed it (the config's `workers`).
    #[getter]
    fn workers(&self) -> PyResult<usize> {
        self.with(|l| Ok(l.config().run.workers))
    }

    /// Updates between the weights a rollout is played with and the update
    /// that learns from it (the config's `policy_lag`).
    #[getter]
    fn policy_lag(&self) -> PyResult<usize> {
        self.with(|l| Ok(l.config().run.policy_lag))
    }

    /// The hands the run plays in all (the config's `total_hands`).
    #[getter]
    fn total_hands(&self) -> PyResult<u64> {
        self.with(|l| Ok(l.config().run.total_hands))
    }

    /// The update the next rollout shards are for (updates done so far).
    #[getter]
    fn update_count(&self) -> PyResult<u64> {
        self.with(|l| Ok(l.state().update))
    }

    /// Self-play hands played so far.
    #[getter]
    fn hands(&self) -> PyResult<u64> {
        self.with(|l| Ok(l.state().hands))
    }

    /// Decisions taken so far (every seat's).
    #[getter]
    fn decisions(&self) -> PyResult<u64> {
        self.with(|l| Ok(l.state().decisions))
    }

    /// The latest evaluation against the baselines, `{name: value}`.
    #[getter]
    fn last_eval<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.with(|l| {
            let d = PyDict::new(py);
            for (k, v) in &l.state().last_eval {
                d.set_item(k, v)?;
            }
            Ok(d)
        })
    }

    /// Whether the run has played its hands.
    #[getter]
    fn finished(&self) -> PyResult<bool> {
        self.with(|l| Ok(l.finished()))
    }

    /// The opponent pool's version (it changes when a snapshot is added).
    #[getter]
    fn pool_version(&self) -> PyResult<u64> {
        self.with(|l| Ok(l.pool_version()))
    }

    /// The current weights as the behaviour policy of the rollout of `update`
    /// (default: the next update), as bytes for `RolloutWorker.set_weights`.
    #[pyo3(signature = (update=None))]
    fn weights<'py>(&self, py: Python<'py>, update: Option<u64>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.detached(py, |l| l.weights(update.unwrap_or(l.state().update)))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The opponent pool as bytes for `RolloutWorker.set_pool`.
    fn pool<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.detached(py, |l| Ok(l.pool()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The update of the current rollout from `batches`, one shard (bytes from
    /// `RolloutWorker.rollout`) of every worker in any order; then the logs,
    /// the pool, evaluation and checkpoints as in `bones train`.
    fn update(&self, py: Python<'_>, batches: Vec<Bound<'_, PyBytes>>) -> PyResult<()> {
        let shards: Vec<&[u8]> = batches.iter().map(|b| b.as_bytes()).collect();
        self.detached(py, |l| l.update(&shards))
    }

    /// Saves a checkpoint of the current update now; returns its folder.
    fn checkpoint(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |l| l.save().map(|p| p.display().to_string()))
    }

    /// Closes the run (a checkpoint exists after it) and returns its summary:
    /// `checkpoint`, `update`, `hands`, `decisions`, `hands_per_hour`,
    /// `decisions_per_s` and `last_eval`.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let learner = py
            .detach(|| self.inner.lock().map(|mut g| g.take()).map_err(|_| ()))
            .map_err(|_| TrainError::new_err(format!("the learner {POISONED}")))?;
        let s = py.detach(|| learner.ok_or(None)?.finish().map_err(Some)).map_err(|e| match e {
            Some(e) => train_error(e),
            None => TrainError::new_err(FINISHED),
        })?;
        let d = PyDict::new(py);
        d.set_item("checkpoint", s.checkpoint.display().to_string())?;
        d.set_item("update", s.state.update)?;
        d.set_item("hands", s.state.hands)?;
        d.set_item("decisions", s.state.decisions)?;
        d.set_item("hands_per_hour", s.hands_per_hour)?;
        d.set_item("decisions_per_s", s.decisions_per_s)?;
        let eval = PyDict::new(py);
        for (k, v) in &s.state.last_eval {
            eval.set_item(k, v)?;
        }
        d.set_item("last_eval", eval)?;
        Ok(d)
    }
}

/// Rollout worker `worker` of a run: one shard of its games, played with the
/// weights it is sent.
#[pyclass(module = "bones._bones", name = "RolloutWorker")]
pub struct RolloutWorker {
    inner: Mutex<remote::RolloutWorker>,
}

impl RolloutWorker {
    /// `f` on the worker, holding the GIL (quick reads only).
    fn with<T>(&self, f: impl FnOnce(&mut remote::RolloutWorker) -> T) -> PyResult<T> {
        let mut guard = self.inner.lock().map_err(|_| TrainError::new_err(format!("the worker {POISONED}")))?;
        Ok(f(&mut guard))
    }

    /// `f` on the worker with the GIL released (the lock taken without it, as
    /// for the learner).
    fn detached<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut remote::RolloutWorker) -> Result<T, bones_train::TrainError> + Send,
    ) -> PyResult<T> {
        py.detach(|| match self.inner.lock() {
            Ok(mut guard) => Ok(f(&mut guard).map_err(train_error)),
            Err(_) => Err(format!("the worker {POISONED}")),
        })
        .map_err(TrainError::new_err)?
    }
}

#[pymethods]
impl RolloutWorker {
    /// Worker `worker` of the run of `config` (the learner's `config` text, or
    /// a preset name or TOML file with `workers` and `overrides` as given to
    /// the learner). Its games are dealt when its first weights arrive.
    #[new]
    #[pyo3(signature = (config, worker, *, workers=None, overrides=None))]
    fn new(
        config: &str,
        worker: usize,
        workers: Option<usize>,
        overrides: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<RolloutWorker> {
        let cfg = train_config(config, workers, overrides)?;
        let w = remote::RolloutWorker::new(cfg, worker, Device::flex()).map_err(train_error)?;
        Ok(RolloutWorker { inner: Mutex::new(w) })
    }

    /// The version of the opponent pool it holds (0: the empty pool of a new run).
    #[getter]
    fn pool_version(&self) -> PyResult<u64> {
        self.with(|w| w.pool_version())
    }

    /// Takes the learner's opponent pool (`Learner.pool()`).
    fn set_pool(&self, py: Python<'_>, pool: &[u8]) -> PyResult<()> {
        self.detached(py, |w| w.set_pool(pool))
    }

    /// Takes the weights of one rollout (`Learner.weights()`); returns the pool
    /// version they are played with.
    fn set_weights(&self, py: Python<'_>, weights: &[u8]) -> PyResult<u64> {
        self.detached(py, |w| w.set_weights(weights))
    }

    /// Plays the rollout of the weights last set (each set plays one rollout);
    /// returns its shard as bytes for `Learner.update`.
    fn rollout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.detached(py, |w| w.rollout())?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// Registers the classes and the exception.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TrainError", m.py().get_type::<TrainError>())?;
    m.add("ShardRefused", m.py().get_type::<ShardRefused>())?;
    m.add_class::<Learner>()?;
    m.add_class::<RolloutWorker>()?;
    Ok(())
}
