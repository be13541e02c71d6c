//! `bones._bones.Table`: one environment of any registered game, with an
//! optional agent in any seat. The PettingZoo AEC environments use it with no
//! agents (Python plays every seat); the Gymnasium environments put agents in
//! every seat but the learner's, and `step` plays them until the learner is to
//! move or the episode ends. One generic [`Core`] over `Env<G>` is built by a
//! registry visitor and used through the object-safe [`DynTable`].

mod core;

use self::core::Build;
pub use self::core::{Core, DynTable, StepError};
use std::sync::Mutex;

use crate::errors::{game_error, illegal, spec_error, BonesError, EpisodeOverError};
use crate::game::{any_game, episode_name, from_json, PyGame};
use crate::position;
use bones_agents::resample::ResampleError;
use bones_agents::table::{self as seats};
use bones_agents::{AgentRng, AgentSpec};
use bones_env::on_game;
use bones_env::registry::AnyGame;
use bones_env::{Action, Env, Episode};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyTuple};
use rand::SeedableRng;

/// What `Table.step` returns: seat, terminated, truncated, transition rewards, rewards.
type StepOut = (Option<usize>, bool, bool, Vec<f32>, Vec<f32>);

/// An observation and its legal mask, as numpy arrays.
type ObsAndMask<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// One environment of a registered game (`game`, `rules`, `players`), one
/// deal (`episode="hand"`) or a whole game (`"game"`), with agents (spec
/// strings) in the seats of `agents` that are not None.
#[pyclass(module = "bones._bones")]
pub struct Table {
    inner: Mutex<Box<dyn DynTable>>,
    game: AnyGame,
    episode: Episode,
    max_steps: Option<u32>,
    specs: Vec<Option<String>>,
}

impl Table {
    /// The inner table (the lock is never poisoned: nothing in it panics on input).
    pub fn with<T>(&self, f: impl FnOnce(&mut Box<dyn DynTable>) -> T) -> T {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut guard)
    }
    /// The game.
    pub fn game(&self) -> AnyGame {
        self.game
    }
}

fn parse_specs(specs: &[Option<String>], players: usize) -> PyResult<Vec<Option<AgentSpec>>> {
    if specs.len() > players {
        return Err(BonesError::new_err(format!("{} agents given for {players} seats", specs.len())));
    }
    specs.iter().map(|s| s.as_deref().map(AgentSpec::parse).transpose().map_err(spec_error)).collect()
}

#[pymethods]
impl Table {
    #[new]
    #[pyo3(signature = (game, rules=None, players=None, episode="hand", agents=None, max_steps=None))]
    fn new(
        game: &str,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<usize>,
        episode: &str,
        agents: Option<Vec<Option<String>>>,
        max_steps: Option<u32>,
    ) -> PyResult<Table> {
        let g = any_game(game, rules, players)?;
        Table::build(g, crate::game::episode(episode)?, max_steps, agents.unwrap_or_default(), None)
    }

    /// Starts an episode dealt from `seed` (the deal of a record with that
    /// `seed`); the agents draw from a stream seeded by `agent_seed`.
    #[pyo3(signature = (seed, agent_seed=0))]
    fn reset(&self, py: Python<'_>, seed: u64, agent_seed: u64) -> PyResult<()> {
        self.with(|t| t.reset(seed, agent_seed)).map_err(|e| e.into_py(py, -1))
    }

    /// Applies the action (an id) of the seat to move; then the agents play.
    /// Returns `(seat, terminated, truncated, transition_rewards, rewards)`
    /// (as the properties of those names).
    fn step(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<StepOut> {
        let id: i64 = action.extract().map_err(|_| {
            BonesError::new_err(format!(
                "an action is an integer id, got {}",
                action.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        let num_actions = self.game.num_actions();
        if id < 0 || id as usize >= num_actions {
            return self.with(|t| {
                let legal: Vec<(usize, &str)> = t.legal().iter().map(|a| (a, self.game.action_name(a))).collect();
                let names: Vec<&str> = legal.iter().map(|(_, n)| *n).collect();
                let msg = format!(
                    "illegal action id {id}: ids run 0..{num_actions}; the legal actions are {}",
                    names.join(", ")
                );
                Err(illegal(py, msg, id, "?", &legal))
            });
        }
        let n = self.game.num_players();
        self.with(|t| {
            t.step(id as usize)?;
            let (seat, term, trunc, _, rewards) = t.last();
            Ok((seat, term, trunc, t.transition_rewards()[..n].to_vec(), rewards[..n].to_vec()))
        })
        .map_err(|e: StepError| e.into_py(py, id))
    }

    /// The seat to move (None when the episode is over).
    #[getter]
    fn seat(&self) -> Option<usize> {
        self.with(|t| t.last().0)
    }
    /// The episode ended by the rules.
    #[getter]
    fn terminated(&self) -> bool {
        self.with(|t| t.last().1)
    }
    /// The episode was cut off by `max_steps`.
    #[getter]
    fn truncated(&self) -> bool {
        self.with(|t| t.last().2)
    }
    /// Decisions taken this episode.
    #[getter]
    fn steps(&self) -> u32 {
        self.with(|t| t.last().3)
    }
    /// Each seat's reward since it last acted (the Rust `TimeStep.rewards`).
    #[getter]
    fn rewards(&self) -> Vec<f32> {
        let n = self.game.num_players();
        self.with(|t| t.last().4[..n].to_vec())
    }
    /// Each seat's reward on the last transition.
    #[getter]
    fn transition_rewards(&self) -> Vec<f32> {
        let n = self.game.num_players();
        self.with(|t| t.transition_rewards()[..n].to_vec())
    }
    /// The winning side (team or seat) of a finished whole game.
    #[getter]
    fn winning_side(&self) -> Option<usize> {
        self.with(|t| t.winning_side())
    }
    /// The legal action ids of the seat to move.
    fn legal_ids(&self) -> Vec<usize> {
        self.with(|t| t.legal().iter().collect())
    }
    /// The legal action names of the seat to move.
    fn legal_names(&self) -> Vec<&'static str> {
        self.with(|t| t.legal().iter().map(|a| self.game.action_name(a)).collect())
    }

    /// `seat`'s observation (`float32[obs_len]`) and legal mask (`int8[num_actions]`,
    /// zero unless it is to move), as new arrays.
    fn observe<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<ObsAndMask<'py>> {
        if seat >= self.game.num_players() {
            return Err(BonesError::new_err(format!("no seat {seat}: seats run 0..{}", self.game.num_players())));
        }
        // Filled in place: numpy owns both arrays from the start (no Rust
        // buffer handed over, which costs a base object per array).
        let obs = PyArray1::<f32>::zeros(py, self.game.obs_len(), false);
        let mask = PyArray1::<i8>::zeros(py, self.game.num_actions(), false);
        // SAFETY: both arrays were made just above, are contiguous, and no
        // other reference to them exists until they are returned.
        let (o, m) = unsafe { (obs.as_slice_mut()?, mask.as_slice_mut()?) };
        self.with(|t| t.observe(seat, o, m));
        Ok((obs, mask))
    }

    /// The table as text.
    fn render(&self) -> String {
        self.with(|t| t.render())
    }

    /// The canonical name of an action id.
    fn action_name(&self, action: usize) -> PyResult<&'static str> {
        if action >= self.game.num_actions() {
            return Err(BonesError::new_err(format!("no action id {action}: ids run 0..{}", self.game.num_actions())));
        }
        Ok(self.game.action_name(action))
    }
    /// The id of an action name (canonical or an accepted alias).
    fn action_id(&self, name: &str) -> PyResult<usize> {
        self.game.parse_action(name).map_err(|e| BonesError::new_err(e.to_string()))
    }

    /// The registry name of the game.
    #[getter]
    fn game_name(&self) -> &'static str {
        self.game.name()
    }
    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    /// Length of an observation.
    #[getter]
    fn obs_len(&self) -> usize {
        self.game.obs_len()
    }
    /// The complete rules object.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json(py, &self.game.rules_json())
    }
    /// `"hand"` or `"game"`.
    #[getter]
    fn episode(&self) -> &'static str {
        episode_name(self.episode)
    }
    /// The agent specs by seat.
    #[getter]
    fn agents(&self) -> Vec<Option<String>> {
        self.specs.clone()
    }

    /// The environment as bytes (`Table.restore` reads them).
    fn save<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.with(|t| t.save()))
    }

    /// A table restored from `save()`'s bytes, for the same game, rules,
    /// players, episode, agents and `max_steps`.
    #[staticmethod]
    #[pyo3(signature = (data, game, rules=None, players=None, episode="hand", agents=None, max_steps=None))]
    fn restore(
        data: &[u8],
        game: &str,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<usize>,
        episode: &str,
        agents: Option<Vec<Option<String>>>,
        max_steps: Option<u32>,
    ) -> PyResult<Table> {
        let g = any_game(game, rules, players)?;
        Table::build(g, crate::game::episode(episode)?, max_steps, agents.unwrap_or_default(), Some(data))
    }

    /// Pickling: restore from the saved bytes (`model:PATH` agents are loaded
    /// again from their path).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.borrow();
        let restore = py.import("bones._bones")?.getattr("restore_table")?;
        let args = (
            this.save(py),
            this.game.name(),
            this.game.rules_json().to_string(),
            this.game.num_players(),
            episode_name(this.episode),
            this.specs.clone(),
            this.max_steps,
        );
        Ok((restore, args.into_pyobject(py)?))
    }

    /// An independent copy.
    fn copy(&self) -> PyResult<Table> {
        let bytes = self.with(|t| t.save());
        Table::build(self.game, self.episode, self.max_steps, self.specs.clone(), Some(&bytes))
    }
    /// `copy.copy`: an independent copy (`copy()`).
    fn __copy__(&self) -> PyResult<Table> {
        self.copy()
    }
    /// `copy.deepcopy`: an independent copy (`copy()`).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Table> {
        self.copy()
    }

    /// A table (no agents) at the state a game record (a dict or a JSON
    /// line, as `bones replay` reads it) reaches: its deal (`seed`, or
    /// `hands` and for Doubles `boneyard`), its rules, then its actions.
    /// `bones.RecordError` with `bones replay`'s message when it cannot be
    /// replayed.
    #[staticmethod]
    fn from_record(record: &Bound<'_, PyAny>) -> PyResult<Table> {
        let (start, names, episode) = position::record_start(&crate::game::record_value(record)?)?;
        let bad = |e: bones_env::record::RecordError| crate::errors::RecordError::new_err(e.to_string());
        let kind = bones_env::replay::record_game(&start).map_err(bad)?;
        let from = FromRecord { names, episode };
        on_game!(kind, g => {
            let (game, state) = bones_env::replay::load_record_of(&g, &start).map_err(bad)?;
            from.visit(game, state)
        })
    }

    /// `seat`'s information as text: its view (its own dominoes and every
    /// public fact, as the agents and its observation see them). States that
    /// differ only in what `seat` cannot see give the same text.
    fn info_state(&self, seat: usize) -> PyResult<String> {
        if seat >= self.game.num_players() {
            return Err(BonesError::new_err(format!("no seat {seat}: seats run 0..{}", self.game.num_players())));
        }
        Ok(self.with(|t| t.info_text(seat)))
    }

    /// How the deal the last action finished came out (None while a deal is
    /// played): `{"score", "win", "points"}` per side (a Texas 42 team, a
    /// Doubles seat): the deal's score (Texas 42: marks awarded, or game
    /// points under `points` scoring; Doubles: the round's points), its share
    /// of the win, and the points taken in play (None for Doubles).
    fn deal_outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.with(|t| t.deal_outcome(py))
    }

    /// A new table (this one unchanged) whose state is this one's with the
    /// dominoes `seat` cannot see drawn again from `seed` (0 <= seed < 2**64),
    /// uniformly among the deals consistent with everything `seat` knows, as
    /// the `pimc` agents draw their worlds: `seat`'s observation is the same,
    /// and the game, rules, episode, agents (and their random stream),
    /// `max_steps`, step count and action history are this table's, so it
    /// plays on (e.g. for rollouts). A bad seat or seed raises `BonesError`,
    /// a finished episode `EpisodeOverError`.
    fn resample(&self, py: Python<'_>, seat: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Table> {
        let players = self.game.num_players();
        let seat = int_arg(seat)
            .filter(|&s| s < players as u64)
            .ok_or_else(|| bad_arg("seat", seat, &format!("an integer 0 <= seat < {players}")))?
            as usize;
        let seed = int_arg(seed).ok_or_else(|| bad_arg("seed", seed, "an integer 0 <= seed < 2**64"))?;
        py.detach(|| {
            let bytes = self.with(|t| t.resample(seat, seed)).map_err(|e| match e {
                ResampleError::Over => EpisodeOverError::new_err(format!("cannot resample: {e}")),
                e => BonesError::new_err(format!("cannot resample for seat {seat}: {e}")),
            })?;
            Table::build(self.game, self.episode, self.max_steps, self.specs.clone(), Some(&bytes))
        })
    }
}

/// A non-negative integer below 2**64 (Python or numpy; not a bool).
fn int_arg(obj: &Bound<'_, PyAny>) -> Option<u64> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    obj.extract::<u64>().ok()
}

/// `BonesError("bad NAME REPR: expected EXPECTED")`.
fn bad_arg(name: &str, obj: &Bound<'_, PyAny>, expected: &str) -> PyErr {
    let repr = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    BonesError::new_err(format!("bad {name} {repr}: expected {expected}"))
}

impl Table {
    /// A table (no agents) of `game` at `state`, with the actions `log` taken
    /// so far (for `render`).
    pub(crate) fn of_state<G: PyGame>(
        game: G,
        state: G::State,
        episode: Episode,
        log: Vec<(usize, Action)>,
    ) -> PyResult<Table> {
        let n = game.num_players();
        let any = AnyGame::new(game.name(), Some(&game.rules_json()), Some(n)).map_err(game_error)?;
        let env = Env::new(game, episode).with_state(state);
        let agents: seats::Seats<G> = (0..n).map(|_| None).collect();
        let table = seats::Table::new(env, agents, AgentRng::seed_from_u64(0)).with_history(log);
        Ok(Table {
            inner: Mutex::new(Box::new(Core { table })),
            game: any,
            episode,
            max_steps: None,
            specs: vec![None; n],
        })
    }

    fn build(
        game: AnyGame,
        episode: Episode,
        max_steps: Option<u32>,
        specs: Vec<Option<String>>,
        saved: Option<&[u8]>,
    ) -> PyResult<Table> {
        let parsed = parse_specs(&specs, game.num_players())?;
        let build = Build { episode, max_steps, specs: &parsed, saved };
        let inner = on_game!(game, g => build.visit(g))?;
        let mut specs: Vec<Option<String>> = parsed.iter().map(|s| s.as_ref().map(|s| s.to_string())).collect();
        specs.resize(game.num_players(), None);
        Ok(Table { inner: Mutex::new(inner), game, episode, max_steps, specs })
    }
}

/// Builds the table of a record's deal after its actions (`Table.from_record`).
struct FromRecord {
    names: Vec<String>,
    episode: Episode,
}

impl FromRecord {
    fn visit<G: PyGame>(self, game: G, mut state: G::State) -> PyResult<Table> {
        let log = position::apply_names(&game, &mut state, &self.names)?;
        Table::of_state(game, state, self.episode, log)
    }
}

/// A table restored from `Table.save()`'s bytes (what unpickling calls).
#[pyfunction]
#[pyo3(signature = (data, game, rules=None, players=None, episode="hand", agents=None, max_steps=None))]
pub fn restore_table(
    data: &[u8],
    game: &str,
    rules: Option<&Bound<'_, PyAny>>,
    players: Option<usize>,
    episode: &str,
    agents: Option<Vec<Option<String>>>,
    max_steps: Option<u32>,
) -> PyResult<Table> {
    Table::restore(data, game, rules, players, episode, agents, max_steps)
}

/// Registers the class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Table>()?;
    m.add_function(wrap_pyfunction!(restore_table, m)?)?;
    Ok(())
}
