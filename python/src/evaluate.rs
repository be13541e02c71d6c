//! `bones.evaluate` and the shard functions behind `bones.ray.evaluate`: the
//! arena of bones-agents (`bones eval`) from Python, with the GIL released while
//! the deals are played. The result is the `bones eval --json` object
//! (`EvalReport::to_json`, one definition for both), as a dict.
//!
//! Sharding: `_eval_deals` gives the evaluation's number of duplicate deals,
//! `_evaluate_shard` plays the deals `start..end` and returns the shard as JSON
//! text (floats as their bits, so nothing is lost on the way), `_merge_shards`
//! joins shards that cover every deal once into the same dict as `evaluate`.

use crate::errors::{spec_error, BonesError};
use crate::game::{any_game, from_json};
use bones_agents::arena::{self, deal_count, Amount, ArenaError, EvalOptions, Shard};
use bones_agents::AgentSpec;
use bones_env::registry::{AnyGame, GameVisitor};
use bones_env::Game;
use bones_policy::agent::factory;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::ops::Range;

/// An evaluation's game, specs and amount, checked.
struct Setup {
    game: AnyGame,
    specs: [AgentSpec; 2],
    amount: Amount,
}

/// Checks the arguments as `bones eval` does: the amount, the game, and that
/// both specs parse and play this game (a `model:PATH` is loaded once here).
#[allow(clippy::too_many_arguments)]
fn setup(
    py: Python<'_>,
    a: &str,
    b: &str,
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
    let specs = [AgentSpec::parse(a).map_err(spec_error)?, AgentSpec::parse(b).map_err(spec_error)?];
    let check = CheckSpecs { specs: &specs };
    py.detach(|| game.visit(check)).map_err(spec_error)?;
    Ok(Setup { game, specs, amount })
}

struct CheckSpecs<'a> {
    specs: &'a [AgentSpec; 2],
}

impl GameVisitor for CheckSpecs<'_> {
    type Output = Result<(), bones_agents::SpecError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let f = factory();
        for s in self.specs {
            f.build(s, &game)?;
        }
        Ok(())
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
    specs: &'a [AgentSpec; 2],
    opts: EvalOptions,
    range: Range<u64>,
}

impl GameVisitor for PlayShard<'_> {
    type Output = Result<Shard, ArenaError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let [a, b] = self.specs;
        arena::evaluate_shard(&game, [a, b], &factory(), &self.opts, self.range, &|_| {})
    }
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

/// An evaluation that failed while playing (an agent chose an illegal action,
/// or an outside program failed): RuntimeError; anything about the arguments:
/// `bones.BonesError`.
fn arena_error(e: ArenaError) -> PyErr {
    match e {
        ArenaError::Spec(s) => spec_error(s),
        ArenaError::Illegal { .. } | ArenaError::Failed { .. } | ArenaError::Stopped { .. } => {
            PyRuntimeError::new_err(e.to_string())
        }
        ArenaError::Empty | ArenaError::Range { .. } => BonesError::new_err(e.to_string()),
    }
}

/// Plays deals `range` with the GIL released.
fn play(py: Python<'_>, s: &Setup, seed: u64, threads: usize, range: Range<u64>) -> PyResult<Shard> {
    let opts = EvalOptions { amount: s.amount, seed, threads };
    let job = PlayShard { specs: &s.specs, opts, range };
    py.detach(|| s.game.visit(job)).map_err(arena_error)
}

/// The evaluation's number of duplicate deals.
fn deals_of(s: &Setup) -> PyResult<u64> {
    deal_count(s.amount, s.game.num_sides()).map_err(arena_error)
}

/// Evaluates agent spec `a` against `b` on duplicate deals exactly as
/// `bones eval --agents a,b --json` does and returns the same dict (keys in the
/// same order; docs/interfaces.md, "bones eval --json"). `hands=` or `games=`
/// (default 100 games), rounded up to whole duplicate deals; `rules` a preset
/// name, JSON text or a dict; `players` for Doubles; `threads` (default: all
/// cores) does not change the result. Raises `bones.SpecError`,
/// `bones.GameError` or `bones.BonesError` (all ValueErrors) for bad arguments,
/// RuntimeError when an agent chooses an illegal action.
#[pyfunction]
#[pyo3(signature = (a, b, *, hands=None, games=None, seed=1, game="texas42", rules=None, players=None, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    hands: Option<u64>,
    games: Option<u64>,
    seed: u64,
    game: &str,
    rules: Option<&Bound<'py, PyAny>>,
    players: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = setup(py, a, b, game, rules, players, hands, games)?;
    let threads = threads_or_all(threads)?;
    let shard = play(py, &s, seed, threads, 0..deals_of(&s)?)?;
    let json =
        s.game.visit(Merge { shards: std::slice::from_ref(&shard) }).map_err(|e| BonesError::new_err(e.to_string()))?;
    from_json(py, &json)
}

/// The number of duplicate deals of `evaluate(a, b, ...)`, after checking its
/// arguments as `evaluate` does (the same exceptions).
#[pyfunction]
#[pyo3(signature = (a, b, *, hands=None, games=None, game="texas42", rules=None, players=None))]
#[allow(clippy::too_many_arguments)]
pub fn _eval_deals(
    py: Python<'_>,
    a: &str,
    b: &str,
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
pub fn _evaluate_shard(
    py: Python<'_>,
    a: &str,
    b: &str,
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
    let s = setup(py, a, b, game, rules, players, hands, games)?;
    let shard = play(py, &s, seed, threads_or_all(Some(threads))?, start..end)?;
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

/// Registers the functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(_eval_deals, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_shard, m)?)?;
    m.add_function(wrap_pyfunction!(_merge_shards, m)?)?;
    Ok(())
}
