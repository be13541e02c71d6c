//! Python agents that act from a table, seated in the arena (`bones.evaluate`):
//! any object with a method `act_table(table, seed) -> action id`, such as
//! `bones.openspiel.BotSeat` (an OpenSpiel bot in a seat). At each of its
//! decisions the seat's view is made into a one-deal `bones.Table` whose
//! dominoes the seat cannot see are drawn by Bones' samplers
//! ([`position::world_of`]), so the object is shown no more than the seat may
//! know; `seed` comes from the seat's random stream, so an evaluation is
//! reproducible.

use std::sync::{Arc, Mutex};

use crate::game::PyGame;
use crate::position;
use crate::table::Table;
use bones_agents::{Agent, AgentFailure, AgentRng, ViewOf};
use bones_env::{Action, Episode, SeatView};
use pyo3::prelude::*;
use rand::Rng;

/// A Python object that acts from a table, as one side of an evaluation.
pub struct TableActor {
    /// Its name in reports (`python:NAME`).
    pub name: String,
    /// The object.
    pub obj: Arc<Py<PyAny>>,
    /// The exception it raised, re-raised as it is once the evaluation stops.
    pub raised: Arc<Mutex<Option<PyErr>>>,
}

impl TableActor {
    /// `x` as a table actor if it has a callable `act_table`, named after its
    /// `name` attribute (a str) or its type.
    pub fn of(x: &Bound<'_, PyAny>) -> Option<TableActor> {
        if !x.getattr("act_table").is_ok_and(|m| m.is_callable()) {
            return None;
        }
        let name = x
            .getattr("name")
            .and_then(|n| n.extract::<String>())
            .or_else(|_| x.get_type().name().map(|n| n.to_string()))
            .unwrap_or_else(|_| "table-agent".to_string());
        Some(TableActor {
            name: format!("python:{name}"),
            obj: Arc::new(x.clone().unbind()),
            raised: Arc::new(Mutex::new(None)),
        })
    }

    /// An agent of `game` for one worker thread.
    pub fn agent<G: PyGame>(&self, game: &G) -> Box<dyn Agent<ViewOf<G>>> {
        Box::new(TableAgent { game: game.clone(), obj: self.obj.clone(), raised: self.raised.clone() })
    }

    /// The exception the object raised, if it raised one.
    pub fn take_raised(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// The agent that asks the object.
struct TableAgent<G: PyGame> {
    game: G,
    obj: Arc<Py<PyAny>>,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl<G: PyGame> Agent<ViewOf<G>> for TableAgent<G> {
    fn act(&mut self, view: &ViewOf<G>, rng: &mut AgentRng) -> Action {
        self.try_act(view, rng).unwrap_or_else(|_| view.legal().iter().next().unwrap_or(0))
    }

    fn try_act(&mut self, view: &ViewOf<G>, rng: &mut AgentRng) -> Result<Action, AgentFailure> {
        let expected = || "an action id (an int) for the seat to move".to_string();
        let state = position::world_of(&self.game, view, rng).map_err(|what| AgentFailure {
            what,
            got: "nothing".into(),
            expected: "a position to act from".into(),
        })?;
        let seed: u64 = rng.random();
        Python::attach(|py| {
            let failed = |what: String, got: String| AgentFailure { what, got, expected: expected() };
            let table = Table::of_state(self.game.clone(), state, Episode::Hand, Vec::new())
                .map_err(|e| failed(format!("its table could not be made: {e}"), "nothing".into()))?;
            let out = match self.obj.bind(py).call_method1("act_table", (table, seed)) {
                Ok(out) => out,
                Err(e) => {
                    let what = format!("act_table raised {e}");
                    *self.raised.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    return Err(failed(what, "an exception".into()));
                }
            };
            let got = || out.repr().map_or_else(|_| "?".to_string(), |r| r.to_string().chars().take(120).collect());
            let id = out.extract::<i64>().map_err(|_| failed("act_table returned no int".into(), got()))?;
            usize::try_from(id).map_err(|_| failed(format!("act_table returned the negative id {id}"), got()))
        })
    }
}
