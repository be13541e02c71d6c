//! `bones.Agent`: an agent of a spec (`random`, `heuristic`, `highest`,
//! `pimc:worlds=N`, `model:PATH`, `onnx:PATH`) for a game, acting for the seat to move of
//! an environment (from that seat's view) or of a game record; agents that act
//! from the observation alone (`random`, `model:PATH`, `onnx:PATH`) also act on an
//! observation vector and a legal mask. And `bones.replay(record)`.

use std::sync::Mutex;

use crate::errors::{spec_error, BonesError, RecordError};
use crate::game::{any_game, from_json, record_value, PyGame};
use crate::table::Table;
use bones_agents::{Agent as RustAgent, AgentRng, AgentSpec, Policy, PolicyLoader, ViewOf};
use bones_env::on_game;
use bones_env::registry::{AnyGame, AnyState, Registered};
use bones_env::replay::{load_record_of, record_game};
use bones_env::{Action, ActionMask, Game, GameState, SeatView};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// The object-safe face of an agent of game `G`.
trait DynAgent: Send {
    /// Acts for the seat to move of `state`; None when `state` is of another game.
    fn act_state(&mut self, state: AnyState<'_>, rng: &mut AgentRng) -> Option<Result<Action, String>>;
}

struct AgentOf<G: PyGame> {
    game: G,
    agent: Box<dyn RustAgent<ViewOf<G>>>,
    /// The spec, naming the agent in its errors.
    spec: String,
    /// Why it is not asked again: it panicked (and may be left in any state).
    broken: Option<String>,
}

impl<G: PyGame> DynAgent for AgentOf<G> {
    fn act_state(&mut self, state: AnyState<'_>, rng: &mut AgentRng) -> Option<Result<Action, String>> {
        let state = G::of_any_state(state)?;
        let Some(seat) = state.current_seat() else {
            return Some(Err("the episode is over: there is no seat to move".into()));
        };
        if let Some(why) = &self.broken {
            return Some(Err(why.clone()));
        }
        let view = state.view(seat);
        let a = match bones_agents::act_contained(&mut self.agent, &view, rng) {
            Ok(a) => a,
            Err(failure) => {
                let why = format!("the agent `{}` in seat {seat} failed: {failure}", self.spec);
                if failure.what.starts_with("it panicked") {
                    self.broken = Some(format!("{why} (it is not asked again: make a new bones.Agent)"));
                }
                return Some(Err(why));
            }
        };
        if !view.legal().contains(a) {
            return Some(Err(format!("the agent chose an illegal action `{}`", self.game.action_name(a))));
        }
        Some(Ok(a))
    }
}

struct Build<'a>(&'a AgentSpec);

impl Build<'_> {
    fn visit<G: PyGame>(self, game: G) -> PyResult<Box<dyn DynAgent>> {
        let agent = bones_policy::agent::factory().build(self.0, &game).map_err(spec_error)?;
        Ok(Box::new(AgentOf { game, agent, spec: self.0.to_string(), broken: None }))
    }
}

/// How an agent acts on an observation vector, if it can.
enum FromObs {
    Random,
    Policy(Box<dyn Policy>),
    No,
}

/// `state`, a state of `game`, as a state of a registered game.
fn any_state<'a, G: Registered>(_: &G, state: &'a G::State) -> AnyState<'a> {
    G::any_state(state)
}

/// An agent of `spec` for a game (`game`, `rules`, `players`), drawing its
/// randomness from a stream seeded by `seed`.
#[pyclass(module = "bones._bones")]
pub struct Agent {
    game: AnyGame,
    spec: AgentSpec,
    seed: u64,
    inner: Mutex<Inner>,
}

/// What an [`Agent`] keeps under its lock: the agent, its stream, its observation policy.
type Inner = (Box<dyn DynAgent>, AgentRng, FromObs);

impl Agent {
    /// The agent, its stream and its observation policy, locked (a panic is
    /// contained inside, so the lock is poisoned only by a bug: then it is
    /// never used again).
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Inner>> {
        self.inner.lock().map_err(|_| {
            BonesError::new_err(format!("the agent `{}` failed in an earlier call: make a new bones.Agent", self.spec))
        })
    }

    fn act_any(&self, state: AnyState<'_>) -> PyResult<Action> {
        let mut g = self.lock()?;
        let (agent, rng, _) = &mut *g;
        match agent.act_state(state, rng) {
            None => {
                Err(BonesError::new_err(format!("this agent plays {}, not that environment's game", self.game.name())))
            }
            Some(r) => r.map_err(BonesError::new_err),
        }
    }
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, game="texas42", rules=None, players=None, seed=0))]
    fn new(
        spec: &str,
        game: &str,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<usize>,
        seed: u64,
    ) -> PyResult<Agent> {
        let g = any_game(game, rules, players)?;
        let spec = AgentSpec::parse(spec).map_err(spec_error)?;
        let agent = on_game!(g, x => Build(&spec).visit(x))?;
        let wanted =
            bones_agents::policy::Wanted { game: g.name(), obs_len: g.obs_len(), num_actions: g.num_actions() };
        let from_obs = match &spec {
            AgentSpec::Random => FromObs::Random,
            AgentSpec::Model { path } => {
                FromObs::Policy(bones_policy::agent::ModelLoader.load(path, wanted).map_err(|reason| {
                    spec_error(bones_agents::SpecError::BadModel { spec: spec.to_string(), reason })
                })?)
            }
            AgentSpec::Onnx { path, observation } => {
                FromObs::Policy(bones_policy::agent::ModelLoader.load_onnx(path, *observation, wanted).map_err(
                    |reason| spec_error(bones_agents::SpecError::BadModel { spec: spec.to_string(), reason }),
                )?)
            }
            _ => FromObs::No,
        };
        Ok(Agent { game: g, spec, seed, inner: Mutex::new((agent, AgentRng::seed_from_u64(seed), from_obs)) })
    }

    /// The spec in canonical form.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }
    /// The game's registry name.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }

    /// The action id this agent takes for the seat to move of `env` (a
    /// `bones` AEC or Gymnasium environment, or a `bones._bones.Table`),
    /// acting from that seat's view only.
    fn act(&self, env: &Bound<'_, PyAny>) -> PyResult<Action> {
        let table = match env.cast::<Table>() {
            Ok(t) => t.clone(),
            Err(_) => {
                let inner = env.getattr("unwrapped").unwrap_or_else(|_| env.clone());
                inner.getattr("table")?.cast_into::<Table>().map_err(|_| {
                    BonesError::new_err("act(env): expected a bones environment (AEC, Gymnasium or Table)")
                })?
            }
        };
        let t = table.borrow();
        if t.game().name() != self.game.name() {
            return Err(BonesError::new_err(format!("this agent plays {}, not {}", self.game.name(), t.game().name())));
        }
        t.with(|inner| self.act_any(inner.state_any()))
    }

    /// The action name this agent takes for the seat to move after a game
    /// record (a dict or a JSON line, as `bones replay` reads).
    fn act_record(&self, record: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let value = record_value(record)?;
        let bad = |e: bones_env::record::RecordError| RecordError::new_err(e.to_string());
        let kind = record_game(&value).map_err(bad)?;
        on_game!(kind, g => {
            let (game, state) = load_record_of(&g, &value).map_err(bad)?;
            Ok(game.action_name(self.act_any(any_state(&game, &state))?))
        })
    }

    /// The action id for an observation (`float32[obs_len]`) and its legal mask
    /// (num_actions entries, nonzero = legal): for agents that act from the
    /// observation alone (`random`, `model:PATH`, `onnx:PATH`); the others act from a seat's
    /// view (use `act(env)` or `act_record(record)`).
    fn act_observation(&self, observation: Vec<f32>, action_mask: Vec<f64>) -> PyResult<Action> {
        if observation.len() != self.game.obs_len() || action_mask.len() != self.game.num_actions() {
            return Err(BonesError::new_err(format!(
                "expected an observation of {} floats and a mask of {} entries, got {} and {}",
                self.game.obs_len(),
                self.game.num_actions(),
                observation.len(),
                action_mask.len()
            )));
        }
        let mut legal = ActionMask::EMPTY;
        for (a, &m) in action_mask.iter().enumerate() {
            if m != 0.0 {
                legal = ActionMask(legal.0 | 1 << a);
            }
        }
        if legal.is_empty() {
            return Err(BonesError::new_err("the mask has no legal action"));
        }
        let mut g = self.lock()?;
        let (_, rng, from_obs) = &mut *g;
        match from_obs {
            FromObs::Random => Ok(legal.nth(rng.random_range(0..legal.len()))),
            FromObs::Policy(p) => bones_agents::agent::contain(|| p.try_decide(&observation, legal, rng))
                .map_err(|f| f.what)
                .and_then(|r| r)
                .map_err(|e| BonesError::new_err(format!("the agent `{}` failed: {e}", self.spec))),
            FromObs::No => Err(BonesError::new_err(format!(
                "`{}` acts from a seat's view, not an observation vector: use act(env) or act_record(record)",
                self.spec
            ))),
        }
    }

    /// Restarts the agent's random stream from `seed`.
    fn reseed(&self, seed: u64) -> PyResult<()> {
        self.lock()?.1 = AgentRng::seed_from_u64(seed);
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?}, game={:?}, seed={})", self.spec.to_string(), self.game.name(), self.seed)
    }
}

/// Replays a game record (a dict or a JSON line, the format of `bones
/// replay`): the record with its `result` added, as a dict. A record that
/// cannot be replayed raises `bones.RecordError`, whose `error` attribute is
/// the `error` object `bones replay` prints.
#[pyfunction]
pub fn replay<'py>(py: Python<'py>, record: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = record_value(record)?;
    let (out, ok) = bones_env::replay::replay_line(&value.to_string(), 1);
    if ok {
        return from_json(py, &out);
    }
    let error = out.get("error").cloned().unwrap_or(Value::Null);
    let message = error.get("message").and_then(Value::as_str).unwrap_or("bad record").to_string();
    let err = RecordError::new_err(message);
    err.value(py).setattr("error", from_json(py, &error)?)?;
    Err(err)
}

/// Registers the class and `replay`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    Ok(())
}
