//! `bones.VecEnv`: the Rust `VecEnv` with numpy arrays over its own buffers
//! (no per-step copies: `obs`, `mask`, `seats`, `rewards` and `dones` are
//! read-only views that each `step` updates in place), stepped with the GIL
//! released; and `vec_env_trace`, the pure Rust `VecEnv`'s trajectory for the
//! tests that compare the two.

use crate::errors::{vec_error, BonesError, RestoreError};
use crate::game::{any_game, episode as parse_episode};
use bones_env::registry::{AnyGame, GameVisitor};
use bones_env::{Action, Episode, Game, GameState, VecEnv as RustVecEnv, VecEnvError};
use numpy::ndarray::{ArrayView1, ArrayView2};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Raw views of a vector env's buffers (stable: the buffers never reallocate).
#[derive(Copy, Clone)]
struct Buffers {
    obs: *const f32,
    mask: *const f32,
    seats: *const u8,
    rewards: *const f32,
    dones: *const bool,
}

/// The object-safe face of `VecEnv<G>`.
trait DynVec: Send + Sync {
    fn step(&mut self, actions: &[Action]) -> Result<(), VecEnvError>;
    fn buffers(&self) -> Buffers;
    fn episodes_done(&self) -> u64;
    fn save(&self) -> Vec<u8>;
    fn buffers_len(&self) -> usize;
    fn episode(&self) -> Episode;
}

impl<G: Game> DynVec for RustVecEnv<G> {
    fn step(&mut self, actions: &[Action]) -> Result<(), VecEnvError> {
        RustVecEnv::step(self, actions)
    }
    fn buffers(&self) -> Buffers {
        Buffers {
            obs: self.obs.as_ptr(),
            mask: self.mask.as_ptr(),
            seats: self.seats.as_ptr(),
            rewards: self.rewards.as_ptr(),
            dones: self.dones.as_ptr(),
        }
    }
    fn episodes_done(&self) -> u64 {
        self.episodes_done
    }
    fn save(&self) -> Vec<u8> {
        RustVecEnv::save(self)
    }
    fn buffers_len(&self) -> usize {
        self.len()
    }
    fn episode(&self) -> Episode {
        RustVecEnv::episode(self)
    }
}

struct Build<'a> {
    episode: Episode,
    n: usize,
    seed: u64,
    threads: usize,
    saved: Option<&'a [u8]>,
}

impl GameVisitor for Build<'_> {
    type Output = Result<Box<dyn DynVec>, bones_env::RestoreError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        Ok(match self.saved {
            None => Box::new(RustVecEnv::new(game, self.episode, self.n, self.seed, self.threads)),
            Some(bytes) => Box::new(RustVecEnv::restore(game, self.threads, bytes)?),
        })
    }
}

/// `num_envs` environments of a game stepped in lockstep on `threads` threads
/// (the Rust `VecEnv`): env `i`'s `k`-th episode is dealt from
/// `episode_seed(seed, i, k)`; finished episodes reset at once.
///
/// The arrays `obs` (`float32[n, obs_len]`), `mask` (`float32[n, num_actions]`,
/// 0/1), `seats` (`uint8[n]`), `rewards` (`float32[n, 4]`: each seat's reward on
/// this step) and `dones` (`bool[n]`) are read-only views of the Rust buffers:
/// `step(actions)` updates them in place (copy them to keep a step's values).
#[pyclass(module = "bones._bones", name = "VecEnv", subclass)]
pub struct VecEnv {
    inner: Box<dyn DynVec>,
    game: AnyGame,
    episode: Episode,
    n: usize,
    seed: u64,
    threads: usize,
    actions: Vec<Action>,
}

impl VecEnv {
    /// A read-only view of the buffer `pick` chooses, one row per env of
    /// `cols` values (None: one value per env).
    fn buffer<'py, T: numpy::Element>(
        slf: &Bound<'py, Self>,
        pick: fn(&Buffers) -> *const T,
        cols: fn(&VecEnv) -> Option<usize>,
    ) -> Bound<'py, PyAny> {
        let (ptr, rows, cols) = {
            let s = slf.borrow();
            (pick(&s.inner.buffers()), s.n, cols(&s))
        };
        VecEnv::view(slf, ptr, rows, cols)
    }

    /// A read-only numpy array over `rows` (× `cols`) values at `ptr`.
    fn view<'py, T: numpy::Element>(
        slf: &Bound<'py, Self>,
        ptr: *const T,
        rows: usize,
        cols: Option<usize>,
    ) -> Bound<'py, PyAny> {
        // SAFETY: the buffers belong to the VecEnv inside `slf`, which the
        // array keeps alive as its base object; they are allocated once and
        // never reallocated (a VecEnv never changes its number of envs).
        unsafe {
            let arr = match cols {
                Some(c) => {
                    let v = ArrayView2::from_shape_ptr((rows, c), ptr);
                    PyArray2::borrow_from_array(&v, slf.clone().into_any()).into_any()
                }
                None => {
                    let v = ArrayView1::from_shape_ptr(rows, ptr);
                    PyArray1::borrow_from_array(&v, slf.clone().into_any()).into_any()
                }
            };
            // Read-only: Python must not write into the Rust buffers.
            let _ = arr.call_method1("setflags", (false,));
            arr
        }
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game, num_envs, seed=0, threads=1, rules=None, players=None, episode="hand"))]
    fn new(
        game: &str,
        num_envs: usize,
        seed: u64,
        threads: usize,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<usize>,
        episode: &str,
    ) -> PyResult<VecEnv> {
        if num_envs == 0 {
            return Err(BonesError::new_err("num_envs must be at least 1"));
        }
        let g = any_game(game, rules, players)?;
        let episode = parse_episode(episode)?;
        let threads = threads.max(1);
        let inner = g
            .visit(Build { episode, n: num_envs, seed, threads, saved: None })
            .map_err(|e| RestoreError::new_err(e.to_string()))?;
        Ok(VecEnv { inner, game: g, episode, n: num_envs, seed, threads, actions: vec![0; num_envs] })
    }

    /// Every env's state and the last step's buffers as bytes.
    fn save<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.save())
    }

    /// Pickling (and `copy.deepcopy`): restore from the saved bytes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.borrow();
        let restore = py.import("bones._bones")?.getattr("restore_vec_env")?;
        let args = (
            slf.get_type(),
            this.save(py),
            this.game.name(),
            this.game.rules_json().to_string(),
            this.game.num_players(),
            this.threads,
            this.seed,
        );
        Ok((restore, args.into_pyobject(py)?))
    }

    /// Applies one action id per env (any integer array of length
    /// `num_envs`), all validated before any is applied, with the GIL released.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let a = actions.as_slice().map_err(|e| BonesError::new_err(e.to_string()))?;
        if a.len() != self.n {
            return Err(vec_error(VecEnvError::WrongLength { expected: self.n, got: a.len() }));
        }
        let na = self.game.num_actions();
        for (i, (&x, slot)) in a.iter().zip(self.actions.iter_mut()).enumerate() {
            if x < 0 || x as usize >= na {
                return Err(crate::errors::IllegalActionError::new_err(format!(
                    "env {i}: action id {x} is out of range 0..{na}"
                )));
            }
            *slot = x as usize;
        }
        let (inner, acts) = (&mut self.inner, &self.actions);
        py.detach(move || inner.step(acts)).map_err(vec_error)
    }

    /// Observations of the seat to move, `float32[num_envs, obs_len]` (a view).
    #[getter]
    fn obs<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyAny> {
        VecEnv::buffer(slf, |b| b.obs, |s| Some(s.game.obs_len()))
    }
    /// Legal masks, `float32[num_envs, num_actions]` of 0/1 (a view).
    #[getter]
    fn mask<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyAny> {
        VecEnv::buffer(slf, |b| b.mask, |s| Some(s.game.num_actions()))
    }
    /// The seat to move in each env, `uint8[num_envs]` (a view).
    #[getter]
    fn seats<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyAny> {
        VecEnv::buffer(slf, |b| b.seats, |_| None)
    }
    /// Each seat's reward on the last step, `float32[num_envs, 4]` (a view).
    #[getter]
    fn rewards<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyAny> {
        VecEnv::buffer(slf, |b| b.rewards, |_| Some(4))
    }
    /// Whether each env's episode ended on the last step, `bool[num_envs]` (a view).
    #[getter]
    fn dones<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyAny> {
        VecEnv::buffer(slf, |b| b.dones, |_| None)
    }
    /// Episodes finished so far over all envs.
    #[getter]
    fn episodes_done(&self) -> u64 {
        self.inner.episodes_done()
    }
    /// Number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }
    fn __len__(&self) -> usize {
        self.n
    }
    /// Length of an observation.
    #[getter]
    fn obs_len(&self) -> usize {
        self.game.obs_len()
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    /// Seats at each table.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    /// The registry name of the game.
    #[getter]
    fn game_name(&self) -> &'static str {
        self.game.name()
    }
    /// The base seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    /// Threads stepping the envs.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
    /// `"hand"` or `"game"`.
    #[getter]
    fn episode(&self) -> &'static str {
        crate::game::episode_name(self.episode)
    }
}

/// The pure Rust `VecEnv`'s trajectory for `steps` steps of uniformly random
/// legal actions drawn from ChaCha8 seeded by `action_seed`: a dict of arrays
/// `actions` `int64[steps, n]`, and `obs`, `mask`, `seats`, `rewards`, `dones`
/// stacked over the `steps + 1` observations (the first before any step).
#[pyfunction]
#[pyo3(signature = (game, num_envs, seed, threads, steps, action_seed=0, rules=None, players=None, episode="hand"))]
#[allow(clippy::too_many_arguments)]
pub fn vec_env_trace<'py>(
    py: Python<'py>,
    game: &str,
    num_envs: usize,
    seed: u64,
    threads: usize,
    steps: usize,
    action_seed: u64,
    rules: Option<&Bound<'py, PyAny>>,
    players: Option<usize>,
    episode: &str,
) -> PyResult<Bound<'py, PyDict>> {
    struct Trace {
        episode: Episode,
        n: usize,
        seed: u64,
        threads: usize,
        steps: usize,
        action_seed: u64,
    }
    type Out = (Vec<i64>, Vec<f32>, Vec<f32>, Vec<u8>, Vec<f32>, Vec<bool>);
    impl GameVisitor for Trace {
        type Output = Out;
        fn visit<G: Game>(self, game: G) -> Out {
            let mut v = RustVecEnv::new(game, self.episode, self.n, self.seed, self.threads);
            let mut rng = ChaCha8Rng::seed_from_u64(self.action_seed);
            let (mut acts, mut obs, mut mask, mut seats, mut rewards, mut dones) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let record = |v: &RustVecEnv<G>,
                          o: &mut Vec<f32>,
                          m: &mut Vec<f32>,
                          s: &mut Vec<u8>,
                          r: &mut Vec<f32>,
                          d: &mut Vec<bool>| {
                o.extend_from_slice(&v.obs);
                m.extend_from_slice(&v.mask);
                s.extend_from_slice(&v.seats);
                r.extend_from_slice(&v.rewards);
                d.extend_from_slice(&v.dones);
            };
            record(&v, &mut obs, &mut mask, &mut seats, &mut rewards, &mut dones);
            for _ in 0..self.steps {
                let step: Vec<Action> = (0..self.n)
                    .map(|i| {
                        let legal = v.state(i).legal_mask();
                        legal.nth(rng.random_range(0..legal.len()))
                    })
                    .collect();
                v.step(&step).expect("legal actions");
                acts.extend(step.iter().map(|&a| a as i64));
                record(&v, &mut obs, &mut mask, &mut seats, &mut rewards, &mut dones);
            }
            (acts, obs, mask, seats, rewards, dones)
        }
    }
    let g = any_game(game, rules, players)?;
    let t = Trace { episode: parse_episode(episode)?, n: num_envs, seed, threads: threads.max(1), steps, action_seed };
    let (acts, obs, mask, seats, rewards, dones) = g.visit(t);
    let (n, s1) = (num_envs, steps + 1);
    let d = PyDict::new(py);
    d.set_item("actions", PyArray1::from_vec(py, acts).reshape([steps, n])?)?;
    d.set_item("obs", PyArray1::from_vec(py, obs).reshape([s1, n, g.obs_len()])?)?;
    d.set_item("mask", PyArray1::from_vec(py, mask).reshape([s1, n, g.num_actions()])?)?;
    d.set_item("seats", PyArray1::from_vec(py, seats).reshape([s1, n])?)?;
    d.set_item("rewards", PyArray1::from_vec(py, rewards).reshape([s1, n, 4])?)?;
    d.set_item("dones", PyArray1::from_vec(py, dones).reshape([s1, n])?)?;
    Ok(d)
}

/// A `VecEnv` (of class `cls`, a subclass of `bones._bones.VecEnv`) restored
/// from `VecEnv.save()`'s bytes (what unpickling calls).
#[pyfunction]
#[pyo3(signature = (cls, data, game, rules=None, players=None, threads=1, seed=0))]
#[allow(clippy::too_many_arguments)]
pub fn restore_vec_env<'py>(
    cls: &Bound<'py, pyo3::types::PyType>,
    data: &[u8],
    game: &str,
    rules: Option<&Bound<'py, PyAny>>,
    players: Option<usize>,
    threads: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let g = any_game(game, rules, players)?;
    let threads = threads.max(1);
    let inner = g
        .visit(Build { episode: Episode::Hand, n: 0, seed, threads, saved: Some(data) })
        .map_err(|e| RestoreError::new_err(e.to_string()))?;
    let n = inner.buffers_len();
    let episode = inner.episode();
    let base = VecEnv { inner, game: g, episode, n, seed, threads, actions: vec![0; n] };
    // Build an instance of `cls` (the Python subclass) around the restored core.
    let obj = cls.call_method1("__new__", (cls.clone(), game, 1usize))?;
    let mut cell = obj.cast::<VecEnv>()?.borrow_mut();
    *cell = base;
    drop(cell);
    Ok(obj)
}

/// Registers the class and the trace function.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VecEnv>()?;
    m.add_function(wrap_pyfunction!(restore_vec_env, m)?)?;
    m.add_function(wrap_pyfunction!(vec_env_trace, m)?)?;
    Ok(())
}
