//! Outside programs as agents (`exec:COMMAND`): a program that speaks the bot
//! protocol (docs/interfaces/cli.md, "Seat views") on its standard input and
//! output, started once per agent (one per evaluation thread) and kept alive
//! across decisions.
//!
//! At each decision the program is sent one line, `{"id":N,"seat":S,"view":{…}}`
//! (the seat's view, [`SeatRequest`]: never the seed or another seat's
//! dominoes), and must answer within the time limit with one line
//! `{"id":N,"action":NAME}` naming a legal action. Anything else (an error
//! reply, another id, an unknown or illegal action, a line that is not JSON,
//! no reply in time, the program's exit) is an [`AgentFailure`] from
//! [`Agent::try_act`]; after a failure the program is stopped and every later
//! decision fails the same way. The program's standard error is passed through
//! (its last lines are quoted when it exits). The process is killed when the
//! agent is dropped (the crate's `program` module runs it).

use std::marker::PhantomData;

use crate::agent::{Agent, AgentFailure, AgentRng};
use crate::program::{quote, Program};
use crate::seat_request::SeatRequest;
use crate::spec::SpecError;
use bones_env::Action;
use serde_json::{json, Value};

/// A running outside program playing from its seat's views.
pub struct ExecAgent<V> {
    program: Program,
    next_id: u64,
    /// The failure that stopped the program (every later decision repeats it).
    failed: Option<AgentFailure>,
    _view: PhantomData<fn(&V)>,
}

impl<V> std::fmt::Debug for ExecAgent<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecAgent").field("program", &self.program).finish()
    }
}

impl<V: SeatRequest> ExecAgent<V> {
    /// Starts `argv` (program and arguments) for the agent of `spec`, with
    /// `limit_ms` milliseconds for each decision.
    pub fn start(spec: String, argv: &[String], limit_ms: u64) -> Result<ExecAgent<V>, SpecError> {
        let program = Program::start("exec", &spec, argv, limit_ms)?;
        Ok(ExecAgent { program, next_id: 0, failed: None, _view: PhantomData })
    }

    /// Asks the program for the action of `view`'s seat.
    fn ask(&mut self, view: &V) -> Result<Action, AgentFailure> {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"id": id, "seat": view.seat(), "view": view.to_request()});
        let legal: Vec<&str> = view.legal().iter().map(V::action_name).collect();
        let expected_reply =
            || format!("one line {{\"id\":{id},\"action\":NAME}} with NAME one of {}", legal.join(", "));
        let line = self.program.ask(&request.to_string(), &expected_reply)?;
        let bad = |what: &str| AgentFailure { what: what.to_string(), got: quote(&line), expected: expected_reply() };
        let reply: Value = serde_json::from_str(&line).map_err(|e| bad(&format!("the reply is not JSON ({e})")))?;
        let Some(obj) = reply.as_object() else {
            return Err(bad("the reply is not a JSON object"));
        };
        if let Some(err) = obj.get("error") {
            return Err(bad(&format!("the program replied with an error: {err}")));
        }
        if obj.get("id") != Some(&json!(id)) {
            return Err(bad(&format!("the reply's `id` is not the request's ({id})")));
        }
        let Some(name) = obj.get("action").and_then(Value::as_str) else {
            return Err(bad("the reply has no `action` string"));
        };
        match view.legal().iter().find(|&a| V::action_name(a) == name) {
            Some(a) => Ok(a),
            None => Err(bad(&format!("`{name}` is not a legal action now"))),
        }
    }
}

impl<V: SeatRequest> Agent<V> for ExecAgent<V> {
    /// [`Agent::try_act`]; a failure is never replaced by another action: it
    /// panics with the failure (drivers call [`crate::agent::act_contained`],
    /// which reports it).
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action {
        self.try_act(view, rng).unwrap_or_else(|f| panic!("the program failed: {f}"))
    }

    fn try_act(&mut self, view: &V, _rng: &mut AgentRng) -> Result<Action, AgentFailure> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        let out = self.ask(view);
        if let Err(f) = &out {
            self.failed = Some(f.clone());
            self.program.stop();
        }
        out
    }
}
