//! Games from Python arguments (a registry name, a rules object or preset, a
//! player count) through the one registry, `bones_env::registry::AnyGame`, and
//! the conversions between Python objects and JSON.

use crate::errors::{game_error, BonesError, GameError, RecordError};
use bones_agents::AgentGame;
use bones_env::registry::AnyGame;
use bones_env::Registered;
use bones_env::{Episode, Game};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;

/// A Python object (dict, list, str, int, float, bool, None) as JSON.
pub fn to_json(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(BonesError::new_err(format!("integer {obj} is out of range")));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(serde_json::Number::from_f64(f.value()).map(Value::Number).unwrap_or(Value::Null));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, v) in d.iter() {
            let key = k
                .cast::<PyString>()
                .map_err(|_| BonesError::new_err(format!("a JSON key must be a string, got {k}")))?;
            m.insert(key.to_cow()?.into_owned(), to_json(&v)?);
        }
        return Ok(Value::Object(m));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l.iter().map(|v| to_json(&v)).collect::<PyResult<Vec<_>>>().map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t.iter().map(|v| to_json(&v)).collect::<PyResult<Vec<_>>>().map(Value::Array);
    }
    // numpy scalars and other numbers
    if let Ok(i) = obj.extract::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = obj.extract::<f64>() {
        return Ok(serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null));
    }
    Err(BonesError::new_err(format!("cannot be written as JSON: {}", obj.repr()?)))
}

/// A game record given as a dict or as JSON text, as JSON.
pub fn record_value(record: &Bound<'_, PyAny>) -> PyResult<Value> {
    match record.cast::<PyString>() {
        Ok(s) => serde_json::from_str(&s.to_cow()?)
            .map_err(|e| RecordError::new_err(format!("malformed JSON: {e}; expected one record (a JSON object)"))),
        Err(_) => to_json(record),
    }
}

/// JSON as a Python object (via the `json` module, so dicts keep their order).
pub fn from_json<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// The game `name` under `rules` (None: the defaults; a dict: a rules object;
/// a str: a preset name or a JSON object) for `players` (None: the default).
pub fn any_game(name: &str, rules: Option<&Bound<'_, PyAny>>, players: Option<usize>) -> PyResult<AnyGame> {
    match rules {
        None => AnyGame::new(name, None, players),
        Some(r) if r.is_none() => AnyGame::new(name, None, players),
        Some(r) => match r.cast::<PyString>() {
            Ok(s) => AnyGame::from_rules_text(name, &s.to_cow()?, players),
            Err(_) => {
                let v = to_json(r)?;
                if !v.is_object() {
                    return Err(GameError::new_err(format!(
                        "bad rules for {name}: expected a rules object (a dict), a preset name or JSON text, got {}",
                        r.repr()?
                    )));
                }
                AnyGame::new(name, Some(&v), players)
            }
        },
    }
    .map_err(game_error)
}

/// `"hand"` (or `"round"`) or `"game"`.
pub fn episode(text: &str) -> PyResult<Episode> {
    match text {
        "hand" | "round" => Ok(Episode::Hand),
        "game" => Ok(Episode::Game),
        other => Err(BonesError::new_err(format!("bad episode `{other}`: expected \"hand\" (one deal) or \"game\""))),
    }
}

/// The name of an episode kind.
pub fn episode_name(e: Episode) -> &'static str {
    match e {
        Episode::Hand => "hand",
        Episode::Game => "game",
    }
}

/// The static facts of a game as a dict: `name`, `players`, `sides`,
/// `num_actions`, `obs_len`, `obs_version`, `action_names`, `segments`
/// (`[{"name","offset","length","contents"}]`), `rules` (the complete rules
/// object), `deal` (what one deal is called).
#[pyfunction]
#[pyo3(signature = (game, rules=None, players=None))]
pub fn game_info<'py>(
    py: Python<'py>,
    game: &str,
    rules: Option<&Bound<'py, PyAny>>,
    players: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let g = any_game(game, rules, players)?;
    let d = PyDict::new(py);
    d.set_item("name", g.name())?;
    d.set_item("players", g.num_players())?;
    d.set_item("sides", g.num_sides())?;
    d.set_item("num_actions", g.num_actions())?;
    d.set_item("obs_len", g.obs_len())?;
    d.set_item("obs_version", g.obs_version())?;
    d.set_item("action_names", g.action_names())?;
    let segs = PyList::empty(py);
    let mut offset = 0;
    for s in g.obs_segments() {
        let e = PyDict::new(py);
        e.set_item("name", s.name)?;
        e.set_item("offset", offset)?;
        e.set_item("length", s.len)?;
        e.set_item("contents", s.doc)?;
        segs.append(e)?;
        offset += s.len;
    }
    d.set_item("segments", segs)?;
    d.set_item("rules", from_json(py, &g.rules_json())?)?;
    d.set_item("deal", g.entry().deal)?;
    Ok(d)
}

/// The registry's games: `[{"name","about","players","default_players","deal"}]`.
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for g in bones_env::GAMES {
        let d = PyDict::new(py);
        d.set_item("name", g.name)?;
        d.set_item("about", g.about)?;
        d.set_item("players", g.players.to_vec())?;
        d.set_item("default_players", g.default_players)?;
        d.set_item("deal", g.deal)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The seed of episode `episode` of env `env` in a `VecEnv` seeded `base`.
#[pyfunction]
pub fn episode_seed(base: u64, env: usize, episode: u64) -> u64 {
    bones_env::vec_env::episode_seed(base, env, episode)
}

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(game_info, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(episode_seed, m)?)?;
    Ok(())
}

/// What the Python package needs of a game: the agents' [`AgentGame`] and the
/// registry's [`Registered`] (its states compared across tables and agents).
/// Every game of the registry is one; the package reaches games through
/// [`bones_env::on_game!`], so a registered game without it does not compile.
pub trait PyGame: AgentGame + Registered {}

impl<G: AgentGame + Registered> PyGame for G {}

/// Names of the legal actions of `mask` with their ids.
pub fn legal_pairs<G: Game>(game: &G, mask: bones_env::ActionMask) -> Vec<(usize, &'static str)> {
    mask.iter().map(|a| (a, game.action_name(a))).collect()
}
