//! `bones.evaluate`, `bones.benchmark` and the shard functions behind
//! `bones.ray.evaluate`: the arena of bones-agents (`bones eval`) from Python,
//! with the GIL released while the deals are played. The result is the
//! `bones eval --json` object (`EvalReport::to_json`, one definition for both),
//! as a dict.
//!
//! Either side may be a Python callable instead of a spec:
//! `policy(observations, masks, seats) -> actions`, called with a batch of
//! seats across the deals in play (`bones_agents::batched`): observations
//! `float32[n, obs_len]`, masks `bool[n, num_actions]`, seats `int64[n]`; it
//! returns `n` action ids. The GIL is taken only for the call.
//!
//! Sharding: `_eval_deals` gives the evaluation's number of duplicate deals,
//! `_evaluate_shard` plays the deals `start..end` and returns the shard as JSON
//! text (floats as their bits, so nothing is lost on the way), `_merge_shards`
//! joins shards that cover every deal once into the same dict as `evaluate`.

use crate::errors::{spec_error, BonesError};
use crate::game::{any_game, from_json, PyGame};
use crate::seat::TableActor;
use bones_agents::arena::{self, deal_count, Amount, ArenaError, EvalOptions, Shard};
use bones_agents::batched::{self, Batch, BatchPlayer, Entrant};
use bones_agents::benchmark::{self as bench, Benchmark, BenchmarkError};
use bones_agents::{AgentFailure, AgentSpec};
use bones_env::on_game;
use bones_env::registry::{AnyGame, GameVisitor};
use bones_env::{Action, Game};
use bones_policy::agent::{factory, shipped_model};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::ops::Range;

/// A Python callable deciding batches of seats.
struct PyPolicy {
    func: Py<PyAny>,
    /// The exception it raised, re-raised as it is once the evaluation stops.
    raised: Option<PyErr>,
}

impl BatchPlayer for PyPolicy {
    fn decide(&mut self, batch: &Batch<'_>) -> Result<Vec<Action>, AgentFailure> {
        Python::attach(|py| {
            let shape = |cols: usize| [batch.rows, cols];
            let obs = PyArray1::from_slice(py, batch.observations).reshape(shape(batch.obs_len));
            let masks = PyArray1::from_slice(py, batch.masks).reshape(shape(batch.num_actions));
            let seats = PyArray1::from_iter(py, batch.seats.iter().map(|&s| s as i64));
            let (obs, masks) = (obs.expect("rows × obs_len floats"), masks.expect("rows × num_actions flags"));
            match self.func.bind(py).call1((obs, masks, seats)) {
                Ok(out) => action_ids(&out, batch.rows),
                Err(e) => {
                    let what = format!("it raised {e}");
                    self.raised = Some(e);
                    Err(AgentFailure { what, got: "an exception".into(), expected: "action ids".into() })
                }
            }
        })
    }
}

/// The action ids a callable returned: a 1-D array or sequence of `rows` ints.
fn action_ids(out: &Bound<'_, PyAny>, rows: usize) -> Result<Vec<Action>, AgentFailure> {
    let expected = || format!("a 1-D array or sequence of {rows} action ids (ints), one per row");
    let ids: Vec<i64> = match out.extract::<PyReadonlyArray1<'_, i64>>() {
        Ok(a) => a.as_array().to_vec(),
        Err(_) => out.extract::<Vec<i64>>().map_err(|_| {
            let got = out.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
            let kind = out.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
            AgentFailure {
                what: format!("it returned a {kind}, not action ids"),
                got: got.chars().take(120).collect(),
                expected: expected(),
            }
        })?,
    };
    if ids.len() != rows {
        return Err(AgentFailure {
            what: format!("it returned {} action ids for a batch of {rows} seats", ids.len()),
            got: format!("{} ids", ids.len()),
            expected: expected(),
        });
    }
    ids.iter()
        .enumerate()
        .map(|(row, &a)| {
            usize::try_from(a).map_err(|_| AgentFailure {
                what: format!("it returned the negative action id {a} in row {row}"),
                got: a.to_string(),
                expected: expected(),
            })
        })
        .collect()
}

/// One side of an evaluation: a spec, a Python callable, or a Python object
/// that acts from a table (`act_table`).
enum Side {
    Spec(AgentSpec),
    Callable { name: String, policy: PyPolicy },
    Table(TableActor),
}

impl Side {
    /// `x` as a side: a spec string, an object with `act_table` (named
    /// `python:NAME` after its `name`), or a callable (named `python:NAME`
    /// after its `__name__`); `which` names the argument in errors.
    fn of(x: &Bound<'_, PyAny>, which: &str) -> PyResult<Side> {
        if let Ok(s) = x.extract::<String>() {
            return Ok(Side::Spec(AgentSpec::parse(&s).map_err(spec_error)?));
        }
        if let Some(actor) = TableActor::of(x) {
            return Ok(Side::Table(actor));
        }
        if x.is_callable() {
            let name = x
                .getattr("__name__")
                .and_then(|n| n.extract::<String>())
                .or_else(|_| x.get_type().name().map(|n| n.to_string()))
                .unwrap_or_else(|_| "policy".to_string());
            return Ok(Side::Callable {
                name: format!("python:{name}"),
                policy: PyPolicy { func: x.clone().unbind(), raised: None },
            });
        }
        let kind = x.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
        Err(BonesError::new_err(format!(
            "`{which}` must be an agent spec (a str), a callable policy(observations, masks, seats) -> action ids \
             or an object with act_table(table, seed) -> action id; got a {kind}"
        )))
    }

    /// The side as an entrant of the batched arena (a table actor is not one).
    fn entrant(&mut self) -> PyResult<Entrant<'_>> {
        match self {
            Side::Spec(s) => Ok(Entrant::Spec(s)),
            Side::Callable { name, policy } => Ok(Entrant::Batched { name: name.clone(), policy }),
            Side::Table(t) => Err(BonesError::new_err(format!(
                "`{}` acts from a table: it plays agent specs and other table agents in `evaluate`, \
                 not the benchmark",
                t.name
            ))),
        }
    }

    fn name(&self) -> String {
        match self {
            Side::Spec(s) => s.to_string(),
            Side::Callable { name, .. } => name.clone(),
            Side::Table(t) => t.name.clone(),
        }
    }

    /// The name of a side played by Python code.
    fn python_name(&self) -> Option<&str> {
        match self {
            Side::Spec(_) => None,
            Side::Callable { name, .. } => Some(name),
            Side::Table(t) => Some(&t.name),
        }
    }

    fn take_raised(&mut self) -> Option<PyErr> {
        match self {
            Side::Spec(_) => None,
            Side::Callable { policy, .. } => policy.raised.take(),
            Side::Table(t) => t.take_raised(),
        }
    }
}

/// An evaluation's game, sides and amount, checked.
struct Setup {
    game: AnyGame,
    sides: [Side; 2],
    amount: Amount,
}

/// Checks the arguments as `bones eval` does: the amount, the game, and that
/// both specs parse and play this game (a `model:PATH` is loaded once here).
#[allow(clippy::too_many_arguments)]
fn setup(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    game: &str,
    rules: Option<&Bound<'_, PyAny>>,
    players: Option<usize>,
    hands: Option<u64>,
    games: Option<u64>,
) -> PyResult<Setup> {
    let amount = match (hands, games) {
        (Some(_), Some(_)) => return Err(BonesError::new_err("give hands= or games=, not both")),
        (Some(0), _) | (_, Some(0)) => return Err(BonesError::new_err("hands/games must be at least 1")),
        (Some(h), None) => Amount::Hands(h),
        (None, g) => Amount::Games(g.unwrap_or(100)),
    };
    let game = any_game(game, rules, players)?;
    let sides = [Side::of(a, "a")?, Side::of(b, "b")?];
    if let (Some(t), true) = (table_actor(&sides), sides.iter().any(|s| matches!(s, Side::Callable { .. }))) {
        return Err(BonesError::new_err(format!(
            "`{}` acts from a table: it plays agent specs and other table agents, not a callable policy",
            t.name
        )));
    }
    for side in &sides {
        if let Side::Spec(spec) = side {
            py.detach(|| on_game!(game, g => CheckSpec { spec }.visit(g))).map_err(spec_error)?;
        }
    }
    Ok(Setup { game, sides, amount })
}

struct CheckSpec<'a> {
    spec: &'a AgentSpec,
}

impl CheckSpec<'_> {
    fn visit<G: PyGame>(self, game: G) -> Result<(), bones_agents::SpecError> {
        factory().build(self.spec, &game).map(|_| ())
    }
}

fn threads_or_all(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(BonesError::new_err("threads must be at least 1")),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Plays the deals `range` of the evaluation.
struct PlayShard<'a> {
    sides: &'a mut [Side; 2],
    opts: EvalOptions,
    range: Range<u64>,
}

impl PlayShard<'_> {
    fn visit<G: PyGame>(self, game: G) -> Result<Shard, ArenaError> {
        let sides = &*self.sides;
        if table_actor(sides).is_some() {
            // Table actors and specs: the arena's own agents, built per thread.
            let make = |who: usize| match &sides[who] {
                Side::Spec(spec) => factory().build(spec, &game),
                Side::Table(t) => Ok(t.agent(&game)),
                Side::Callable { name, .. } => Err(bones_agents::SpecError::Refused {
                    spec: name.clone(),
                    reason: "a callable policy does not play against a table agent".into(),
                }),
            };
            let names = [sides[0].name(), sides[1].name()];
            return arena::evaluate_shard_with(&game, names, &make, &self.opts, self.range, &|_| {});
        }
        let [a, b] = self.sides;
        match [a.entrant(), b.entrant()] {
            [Ok(a), Ok(b)] => batched::evaluate_shard(&game, [a, b], &factory(), &self.opts, self.range, &|_| {}),
            // Not reached: a table actor takes the branch above.
            _ => Err(ArenaError::Empty),
        }
    }
}

/// The side that acts from a table, if one does.
fn table_actor(sides: &[Side; 2]) -> Option<&TableActor> {
    sides.iter().find_map(|s| match s {
        Side::Table(t) => Some(t),
        _ => None,
    })
}

/// Merges shards into the report's JSON (with the shards' seed).
struct Merge<'a> {
    shards: &'a [Shard],
}

impl GameVisitor for Merge<'_> {
    type Output = Result<serde_json::Value, arena::MergeError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let seed = self.shards.first().map_or(0, |s| s.seed);
        arena::merge_shards(&game, self.shards).map(|r| r.to_json(seed))
    }
}

/// The agent an evaluation's failure blames, if it blames one.
fn blamed(e: &ArenaError) -> Option<&str> {
    match e {
        ArenaError::Illegal { agent, .. }
        | ArenaError::Failed { agent, .. }
        | ArenaError::BatchFailed { agent, .. } => Some(agent),
        ArenaError::Stopped { cause, .. } => blamed(cause),
        ArenaError::Spec(_) | ArenaError::Empty | ArenaError::Range { .. } => None,
    }
}

/// An evaluation's failure as a Python exception: the exception a callable
/// raised, as it is; a callable's bad return (not action ids, too few, an
/// illegal action): `bones.BonesError`; a spec agent's failure while playing
/// (an illegal action, an outside program that failed): RuntimeError; anything
/// about the arguments: `bones.BonesError`.
fn arena_error(e: ArenaError, sides: &mut [Side; 2]) -> PyErr {
    if let Some(raised) = sides.iter_mut().find_map(Side::take_raised) {
        return raised;
    }
    let by_callable = blamed(&e).is_some_and(|a| sides.iter().any(|s| s.python_name() == Some(a)));
    match e {
        ArenaError::Spec(s) => spec_error(s),
        _ if by_callable => BonesError::new_err(e.to_string()),
        ArenaError::Illegal { .. }
        | ArenaError::Failed { .. }
        | ArenaError::BatchFailed { .. }
        | ArenaError::Stopped { .. } => PyRuntimeError::new_err(e.to_string()),
        ArenaError::Empty | ArenaError::Range { .. } => BonesError::new_err(e.to_string()),
    }
}

/// Plays deals `range` with the GIL released (taken again for each callable's
/// call); on one thread when a side acts from a table (its object is shared).
fn play(py: Python<'_>, s: &mut Setup, seed: u64, threads: usize, range: Range<u64>) -> PyResult<Shard> {
    let threads = if table_actor(&s.sides).is_some() { 1 } else { threads };
    let opts = EvalOptions { amount: s.amount, seed, threads };
    let (game, sides) = (&s.game, &mut s.sides);
    let shard = PlayShard { sides, opts, range };
    let played = py.detach(|| on_game!(*game, g => shard.visit(g)));
    played.map_err(|e| arena_error(e, &mut s.sides))
}

/// The evaluation's number of duplicate deals.
fn deals_of(s: &Setup) -> PyResult<u64> {
    deal_count(s.amount, s.game.num_sides()).map_err(|e| BonesError::new_err(e.to_string()))
}

/// Evaluates `a` against `b` on duplicate deals exactly as
/// `bones eval --agents a,b --json` does and returns the same dict (keys in the
/// same order; docs/interfaces/cli.md, "bones eval --json"). Each of `a`, `b` is an
/// agent spec or a callable `policy(observations, masks, seats) -> action ids`
/// (called with batches of seats across the deals in play; reported as
/// `python:NAME`). `hands=` or `games=` (default 100 games), rounded up to whole
/// duplicate deals; `rules` a preset name, JSON text or a dict; `players` for
/// Doubles; `threads` (default: all cores) does not change the result. Raises
/// `bones.SpecError`, `bones.GameError` or `bones.BonesError` (all ValueErrors)
/// for bad arguments or a callable's bad return, the callable's own exception
/// when it raises, RuntimeError when a spec agent chooses an illegal action.
#[pyfunction]
#[pyo3(signature = (a, b, *, hands=None, games=None, seed=1, game="texas42", rules=None, players=None, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    hands: Option<u64>,
    games: Option<u64>,
    seed: u64,
    game: &str,
    rules: Option<&Bound<'py, PyAny>>,
    players: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut s = setup(py, a, b, game, rules, players, hands, games)?;
    let threads = threads_or_all(threads)?;
    let deals = deals_of(&s)?;
    let shard = play(py, &mut s, seed, threads, 0..deals)?;
    let json =
        s.game.visit(Merge { shards: std::slice::from_ref(&shard) }).map_err(|e| BonesError::new_err(e.to_string()))?;
    from_json(py, &json)
}

/// The number of duplicate deals of `evaluate(a, b, ...)`, after checking its
/// arguments as `evaluate` does (the same exceptions).
#[pyfunction]
#[pyo3(signature = (a, b, *, hands=None, games=None, game="texas42", rules=None, players=None))]
#[allow(clippy::too_many_arguments)]
pub fn _eval_deals<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    hands: Option<u64>,
    games: Option<u64>,
    game: &str,
    rules: Option<&Bound<'_, PyAny>>,
    players: Option<usize>,
) -> PyResult<u64> {
    deals_of(&setup(py, a, b, game, rules, players, hands, games)?)
}

/// Plays the deals `start..end` of the evaluation `evaluate(a, b, ...)` runs and
/// returns the shard as JSON text, for `_merge_shards`.
#[pyfunction]
#[pyo3(signature = (a, b, start, end, *, hands=None, games=None, seed=1, game="texas42", rules=None, players=None, threads=1))]
#[allow(clippy::too_many_arguments)]
pub fn _evaluate_shard<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    start: u64,
    end: u64,
    hands: Option<u64>,
    games: Option<u64>,
    seed: u64,
    game: &str,
    rules: Option<&Bound<'_, PyAny>>,
    players: Option<usize>,
    threads: usize,
) -> PyResult<String> {
    let mut s = setup(py, a, b, game, rules, players, hands, games)?;
    let shard = play(py, &mut s, seed, threads_or_all(Some(threads))?, start..end)?;
    serde_json::to_string(&shard).map_err(|e| BonesError::new_err(e.to_string()))
}

/// Joins shards (JSON texts from `_evaluate_shard`, in any order) of one
/// evaluation into the dict `evaluate` returns. `bones.BonesError` when they do
/// not cover every deal exactly once or are of different evaluations.
#[pyfunction]
#[pyo3(signature = (shards, *, game="texas42", rules=None, players=None))]
pub fn _merge_shards<'py>(
    py: Python<'py>,
    shards: Vec<String>,
    game: &str,
    rules: Option<&Bound<'py, PyAny>>,
    players: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let g = any_game(game, rules, players)?;
    let shards: Vec<Shard> = shards
        .iter()
        .map(|s| serde_json::from_str(s).map_err(|e| BonesError::new_err(format!("not a shard: {e}"))))
        .collect::<PyResult<_>>()?;
    let json = g.visit(Merge { shards: &shards }).map_err(|e| BonesError::new_err(e.to_string()))?;
    from_json(py, &json)
}

/// Plays `agent` (an agent spec or a callable, as in `evaluate`) through the
/// standard benchmark exactly as `bones benchmark AGENT --json` does and returns
/// its scorecard as a dict. `benchmark` names a version (`texas42-v1`), else the
/// newest of `game` (default `texas42`); `threads` (default: all cores) does not
/// change the result. The shipped networks of the gauntlet are found as `bones`
/// finds them (`models/GAME` in the current folder, else the source tree).
#[pyfunction]
#[pyo3(signature = (agent, *, game=None, benchmark=None, threads=None))]
pub fn benchmark<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyAny>,
    game: Option<&str>,
    benchmark: Option<&str>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let bad = |e: BenchmarkError| match e {
        BenchmarkError::Spec(s) => spec_error(s),
        e => BonesError::new_err(e.to_string()),
    };
    let b = Benchmark::select(benchmark, game).map_err(bad)?;
    let threads = threads_or_all(threads)?;
    let mut side = Side::of(agent, "agent")?;
    let shipped = shipped_model(&b.game);
    let card = py.detach(|| {
        side.entrant().map(|entrant| bench::run_entrant(&b, entrant, &factory(), shipped.as_deref(), threads, &|_| {}))
    })?;
    let card = match card {
        Ok(c) => c,
        Err(BenchmarkError::Arena { opponent, source }) => {
            let mut sides = [side, Side::Spec(AgentSpec::Random)];
            let e = arena_error(*source, &mut sides);
            let msg = format!("against `{opponent}`: {e}");
            return Err(if e.is_instance_of::<BonesError>(py) { BonesError::new_err(msg) } else { e });
        }
        Err(e) => return Err(bad(e)),
    };
    let json = serde_json::to_value(&card).map_err(|e| BonesError::new_err(e.to_string()))?;
    from_json(py, &json)
}

/// Registers the functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(_eval_deals, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_shard, m)?)?;
    m.add_function(wrap_pyfunction!(_merge_shards, m)?)?;
    Ok(())
}
