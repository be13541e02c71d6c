//! The actor-learner's two halves in Python, `bones.Learner` and
//! `bones.RolloutWorker` (bones-train's `remote`): a learner owns the run
//! folder and the update, a worker one shard of the games, and they trade
//! bytes, so any transport connects them (`bones.ray` uses Ray's object
//! store). The Rust work runs with the GIL released.

use crate::errors::BonesError;
use crate::game::to_json;
use bones_train::checkpoint::RunState;
use bones_train::config::flags::{FlagValue, FLAGS};
use bones_train::remote::{self, ByteTransport};
use bones_train::training::Progress;
use bones_train::TrainConfig;
use burn::prelude::Device;
use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

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
    let mut given: Vec<(String, serde_json::Value)> = Vec::new();
    if let Some(w) = workers {
        given.push(("run.workers".into(), w.into()));
    }
    if let Some(o) = overrides {
        for (key, value) in o.iter() {
            let key: String = key.extract().map_err(|_| bad("override keys are config field names".into()))?;
            given.push((key, to_json(&value)?));
        }
    }
    // Checks the result as a config file would be checked.
    cfg.with_overrides(given.iter().map(|(k, v)| (k.as_str(), v.clone()))).map_err(|e| bad(e.to_string()))
}

/// `bones train`'s flags, from bones-train's one table of them: a list of
/// dicts with `name`, `kind` (`switch`, `text`, `whole` or `game`), `shown`
/// (the value's name in usage lines), `min` and `max` (of a whole number),
/// `words` (the values a `game` takes), `default`, `field` (the config field
/// it overrides, `section.key`, or None) and `help`. `python -m bones.ray
/// train` builds its parser from it.
#[pyfunction]
fn train_flags(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    FLAGS
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            let kind = match f.value {
                FlagValue::Switch => "switch",
                FlagValue::Text { .. } => "text",
                FlagValue::Whole { .. } => "whole",
                FlagValue::Game => "game",
            };
            let (min, max) = match f.value {
                FlagValue::Whole { min, max, .. } => (Some(min), Some(max)),
                _ => (None, None),
            };
            d.set_item("name", f.name)?;
            d.set_item("kind", kind)?;
            d.set_item("shown", f.value.shown())?;
            d.set_item("min", min)?;
            d.set_item("max", max)?;
            d.set_item("words", f.value.words())?;
            d.set_item("default", f.default)?;
            d.set_item("field", f.field)?;
            d.set_item("help", f.help)?;
            Ok(d)
        })
        .collect()
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

    /// Trains until the run has played its hands, on `bones train --workers
    /// N`'s schedule, the bytes carried by `transport`: an object with
    /// `send(update, weights, pool)` (hand every worker the weights of the
    /// rollout of `update` and have it play that rollout; `pool`, bytes or
    /// None, is the opponent pool when it changed), `receive(update)` (every
    /// worker's shard of that rollout, in the workers' order),
    /// `replace(worker, update, reason)` (a refused shard's worker replaced,
    /// and its shard of that rollout played again) and `updated(update,
    /// hands, hands_per_s)` (after every update). An exception raised in
    /// one of them stops the run and is raised here. Then `finish()`.
    fn train(&self, py: Python<'_>, transport: Py<PyAny>) -> PyResult<()> {
        let raised = Arc::new(Mutex::new(None));
        let mut progress = PyTransport { transport: transport.clone_ref(py), raised: Arc::clone(&raised) };
        let mut carrier = PyTransport { transport, raised: Arc::clone(&raised) };
        let result = self.detached(py, |l| l.train(&mut carrier, &mut progress));
        let raised = raised.lock().ok().and_then(|mut r| r.take());
        match raised {
            Some(e) => Err(e),
            None => result,
        }
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

/// A Python object as a [`ByteTransport`] and as the [`Progress`] of
/// `Learner.train`: its methods are called with the GIL; the first exception
/// one raises is kept (`raised`) and stops the run.
struct PyTransport {
    transport: Py<PyAny>,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl PyTransport {
    /// `method(args)` on the transport; an exception is kept and the run told to stop.
    fn call<'py, A: pyo3::call::PyCallArgs<'py>>(
        &self,
        py: Python<'py>,
        method: &str,
        args: A,
    ) -> Result<Bound<'py, PyAny>, bones_train::TrainError> {
        if self.raised.lock().map_or(true, |r| r.is_some()) {
            let reason = "an earlier call raised".to_string();
            return Err(bones_train::TrainError::Transport { reason });
        }
        self.transport.bind(py).call_method1(method, args).map_err(|e| self.stop(method, e))
    }

    fn stop(&self, method: &str, e: PyErr) -> bones_train::TrainError {
        let reason = e.to_string();
        if let Ok(mut raised) = self.raised.lock() {
            raised.get_or_insert(e);
        }
        bones_train::TrainError::Transport { reason: format!("its `{method}` raised {reason}") }
    }

    fn bytes(&self, method: &str, value: Bound<'_, PyAny>) -> Result<Vec<u8>, bones_train::TrainError> {
        value.extract::<Vec<u8>>().map_err(|e| self.stop(method, e))
    }
}

impl ByteTransport for PyTransport {
    fn send(&mut self, update: u64, weights: Vec<u8>, pool: Option<Vec<u8>>) -> Result<(), bones_train::TrainError> {
        Python::attach(|py| {
            let weights = PyBytes::new(py, &weights);
            let pool = pool.map(|p| PyBytes::new(py, &p));
            self.call(py, "send", (update, weights, pool)).map(drop)
        })
    }

    fn receive(&mut self, update: u64) -> Result<Vec<Vec<u8>>, bones_train::TrainError> {
        Python::attach(|py| {
            let shards = self.call(py, "receive", (update,))?;
            let shards: Vec<Bound<'_, PyAny>> = shards.extract().map_err(|e| self.stop("receive", e))?;
            shards.into_iter().map(|s| self.bytes("receive", s)).collect()
        })
    }

    fn replace(
        &mut self,
        worker: usize,
        update: u64,
        why: &bones_train::TrainError,
    ) -> Result<Vec<u8>, bones_train::TrainError> {
        Python::attach(|py| {
            let shard = self.call(py, "replace", (worker, update, why.to_string()))?;
            self.bytes("replace", shard)
        })
    }
}

impl Progress for PyTransport {
    fn update(&mut self, state: &RunState, hands_per_s: f64, _decisions_per_s: f64) {
        // An exception here is kept, and the run stops at the transport's next call.
        Python::attach(|py| {
            let _ = self.call(py, "updated", (state.update, state.hands, hands_per_s));
        });
    }
}

/// Registers the classes and the exception.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TrainError", m.py().get_type::<TrainError>())?;
    m.add("ShardRefused", m.py().get_type::<ShardRefused>())?;
    m.add_class::<Learner>()?;
    m.add_class::<RolloutWorker>()?;
    m.add_function(wrap_pyfunction!(train_flags, m)?)?;
    Ok(())
}
