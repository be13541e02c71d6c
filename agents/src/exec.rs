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
//! agent is dropped.

use std::io::{BufRead, BufReader, Write};
use std::marker::PhantomData;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::agent::{Agent, AgentFailure, AgentRng};
use crate::seat_request::SeatRequest;
use crate::spec::SpecError;
use bones_env::Action;
use serde_json::{json, Value};

/// Lines of the program's standard error kept to quote when it exits.
const STDERR_TAIL: usize = 5;
/// Characters of a reply quoted in a failure.
const QUOTE: usize = 300;

/// A running outside program playing from its seat's views.
pub struct ExecAgent<V> {
    spec: String,
    limit: Duration,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<Vec<String>>>,
    next_id: u64,
    /// The failure that stopped the program (every later decision repeats it).
    failed: Option<AgentFailure>,
    _view: PhantomData<fn(&V)>,
}

impl<V> std::fmt::Debug for ExecAgent<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecAgent").field("spec", &self.spec).field("pid", &self.child.id()).finish()
    }
}

impl<V: SeatRequest> ExecAgent<V> {
    /// Starts `argv` (program and arguments) for the agent of `spec`, with
    /// `limit_ms` milliseconds for each decision.
    pub fn start(spec: String, argv: &[String], limit_ms: u64) -> Result<ExecAgent<V>, SpecError> {
        let program = argv.first().ok_or_else(|| SpecError::Program {
            spec: spec.clone(),
            reason: "the command line is empty".to_string(),
        })?;
        let mut child = Command::new(program)
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SpecError::Program { spec: spec.clone(), reason: format!("`{program}`: {e}") })?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr_pipe = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                eprintln!("{line}");
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.push(line);
                if t.len() > STDERR_TAIL {
                    t.remove(0);
                }
            }
        });
        Ok(ExecAgent {
            spec,
            limit: Duration::from_millis(limit_ms),
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            next_id: 0,
            failed: None,
            _view: PhantomData,
        })
    }

    /// Asks the program for the action of `view`'s seat.
    fn ask(&mut self, view: &V) -> Result<Action, AgentFailure> {
        let id = self.next_id;
        self.next_id += 1;
        let request = json!({"id": id, "seat": view.seat(), "view": view.to_request()});
        let legal: Vec<&str> = view.legal().iter().map(V::action_name).collect();
        let expected_reply =
            || format!("one line {{\"id\":{id},\"action\":NAME}} with NAME one of {}", legal.join(", "));
        let stdin = self.stdin.as_mut().ok_or_else(|| AgentFailure {
            what: "the program's input is closed".to_string(),
            got: "nothing".to_string(),
            expected: expected_reply(),
        })?;
        if let Err(e) = writeln!(stdin, "{request}").and_then(|_| stdin.flush()) {
            return Err(self.exited(format!("the request could not be written ({e})"), expected_reply()));
        }
        let line = match self.lines.recv_timeout(self.limit) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => return Err(self.exited(format!("its output could not be read ({e})"), expected_reply())),
            Err(RecvTimeoutError::Disconnected) => return Err(self.exited(String::new(), expected_reply())),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                return Err(AgentFailure {
                    what: format!("no reply within {} s (the time limit; `exec:limit=SECONDS:…` sets it)", self.secs()),
                    got: "nothing".to_string(),
                    expected: expected_reply(),
                });
            }
        };
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

    fn secs(&self) -> f64 {
        self.limit.as_secs_f64()
    }

    /// The failure of a program whose output ended: its exit status and the
    /// last lines of its standard error.
    fn exited(&mut self, detail: String, expected: String) -> AgentFailure {
        // The output ended: the program exits (or has); wait briefly for its status.
        let mut status = None;
        for _ in 0..50 {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        let mut what = match status {
            Some(s) => format!("the program exited ({s})"),
            None => "the program closed its output".to_string(),
        };
        if !detail.is_empty() {
            what = format!("{what}: {detail}");
        }
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner()).join(" | ");
        if !tail.is_empty() {
            what = format!("{what}; its last error output: {}", quote(&tail));
        }
        AgentFailure { what, got: "no reply".to_string(), expected }
    }
}

/// `text` cut to [`QUOTE`] characters, in backquotes.
fn quote(text: &str) -> String {
    let mut q: String = text.chars().take(QUOTE).collect();
    if q.len() < text.len() {
        q.push('…');
    }
    format!("`{q}`")
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
            self.stdin = None;
            let _ = self.child.kill();
        }
        out
    }
}

impl<V> Drop for ExecAgent<V> {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
