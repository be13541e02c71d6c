//! Positions for tools that drive a table from outside (the OpenSpiel games
//! of `bones.openspiel`, Python agents seated in `bones.evaluate`): the state a
//! game record reaches ([`record_start`], [`apply_names`]), a one-deal state drawn from a seat's
//! view by Bones' samplers ([`world_of`]), a seat's information as text
//! ([`info_text`]) and the outcome of a finished deal ([`outcome_dict`]).

use crate::errors::RecordError;
use bones_agents::resample::ResampleError;
use bones_agents::{AgentGame, AgentRng, ViewOf};
use bones_env::record::deals::apply_named;
use bones_env::registry::RecordVisitor;
use bones_env::{Action, DealOutcome, Episode, Game, GameState};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

/// What a table at the state `record` (a record object, as `bones replay`
/// reads it) starts from: the record checked whole (its errors are `bones
/// replay`'s), then its deal alone (the record without actions), the action
/// names, and the episode.
pub fn record_start(record: &Value) -> PyResult<(Value, Vec<String>, Episode)> {
    let no_actions = record.get("actions").and_then(Value::as_array).is_some_and(Vec::is_empty);
    if !no_actions {
        // (A record without actions is checked whole when its deal is loaded.)
        bones_env::replay::load_record(record, Check).map_err(|e| RecordError::new_err(e.to_string()))?;
    }
    let mut start = record.as_object().cloned().unwrap_or_default();
    let names: Vec<String> = match start.insert("actions".into(), Value::Array(Vec::new())) {
        Some(Value::Array(xs)) => xs.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    };
    let episode = match start.get("episode").and_then(Value::as_str) {
        Some("game") => Episode::Game,
        _ => Episode::Hand,
    };
    Ok((Value::Object(start), names, episode))
}

/// Replays the whole record (its checks and errors, as `bones replay`).
struct Check;

impl RecordVisitor for Check {
    type Output = ();
    fn visit<G: Game>(self, _: G, _: G::State) {}
}

/// Applies the actions `names` to `state`; returns each one's seat and id.
pub fn apply_names<G: Game>(game: &G, state: &mut G::State, names: &[String]) -> PyResult<Vec<(usize, Action)>> {
    let mut log = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let seat = state.current_seat().unwrap_or(0);
        let a = apply_named(game, state, i, name).map_err(|e| RecordError::new_err(e.to_string()))?;
        log.push((seat, a));
    }
    Ok(log)
}

/// `seat`'s information as text: its view (its own dominoes and every public
/// fact of the deal and the game, as the agents and its observation see them)
/// in Rust's debug form. Two states `seat` cannot tell apart give the same
/// text.
pub fn info_text<G: Game>(state: &G::State, seat: usize) -> String {
    format!("{:?}", state.view(seat))
}

/// A one-deal state whose seat to move has the view `view`
/// ([`AgentGame::world_of`]): the dominoes it cannot see drawn by Bones'
/// samplers (those of the `pimc` agents) uniformly among the deals consistent
/// with the view. The game totals are not kept. An error (in words) when no
/// deal fits.
pub fn world_of<G: AgentGame>(game: &G, view: &ViewOf<G>, rng: &mut AgentRng) -> Result<G::State, String> {
    game.world_of(view, rng).map_err(|e| match e {
        ResampleError::NoDeal { .. } => "no deal is consistent with the seat's view".to_string(),
        e => e.to_string(),
    })
}

/// The outcome of the deal the last action finished, as a dict: `score`,
/// `win` and `points` (or None) per side.
pub fn outcome_dict<'py, G: Game>(py: Python<'py>, game: &G, o: &DealOutcome) -> PyResult<Bound<'py, PyDict>> {
    let sides = game.num_sides();
    let d = PyDict::new(py);
    d.set_item("score", o.score[..sides].to_vec())?;
    d.set_item("win", o.win[..sides].to_vec())?;
    d.set_item("points", o.points.map(|p| p[..sides].to_vec()))?;
    Ok(d)
}
