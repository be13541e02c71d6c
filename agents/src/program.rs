//! An outside program seated as an agent, whatever it speaks: started once per
//! agent, kept alive across decisions, asked one line and given a time limit
//! for the one line of its reply. [`crate::exec`] (the bot protocol, JSON) and
//! [`crate::bridge`] (walt's line protocol, integers) talk through it.
//!
//! Every way the exchange can fail is an [`AgentFailure`] in one line: no reply
//! in time (the program is killed), the program's exit (its status and the last
//! lines of its standard error, which is passed through), a request it cannot
//! be sent. The process is killed when the [`Program`] is dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::agent::AgentFailure;
use crate::spec::SpecError;

/// Lines of the program's standard error kept to quote when it exits.
const STDERR_TAIL: usize = 5;
/// Characters of a reply quoted in a failure.
const QUOTE: usize = 300;

/// A running outside program.
pub(crate) struct Program {
    /// The spec's name (`exec`, `bridge`), for the time limit's hint.
    name: &'static str,
    limit: Duration,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program").field("name", &self.name).field("pid", &self.child.id()).finish()
    }
}

impl Program {
    /// Starts `argv` (program and arguments) for the agent of `spec` (whose
    /// agent is named `name`), with `limit_ms` milliseconds for each reply.
    pub(crate) fn start(name: &'static str, spec: &str, argv: &[String], limit_ms: u64) -> Result<Program, SpecError> {
        let program = argv.first().ok_or_else(|| SpecError::Program {
            spec: spec.to_string(),
            reason: "the command line is empty".to_string(),
        })?;
        let mut child = Command::new(program)
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SpecError::Program { spec: spec.to_string(), reason: format!("`{program}`: {e}") })?;
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
        Ok(Program { name, limit: Duration::from_millis(limit_ms), stdin: child.stdin.take(), child, lines, stderr })
    }

    /// Sends `request` as one line and waits for one line of reply;
    /// `expected` says what the reply should have been, for the failure.
    pub(crate) fn ask(&mut self, request: &str, expected: &dyn Fn() -> String) -> Result<String, AgentFailure> {
        let stdin = self.stdin.as_mut().ok_or_else(|| AgentFailure {
            what: "the program's input is closed".to_string(),
            got: "nothing".to_string(),
            expected: expected(),
        })?;
        if let Err(e) = writeln!(stdin, "{request}").and_then(|_| stdin.flush()) {
            return Err(self.exited(format!("the request could not be written ({e})"), expected()));
        }
        match self.lines.recv_timeout(self.limit) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(self.exited(format!("its output could not be read ({e})"), expected())),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited(String::new(), expected())),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                Err(AgentFailure {
                    what: format!(
                        "no reply within {} s (the time limit; `{}:limit=SECONDS:…` sets it)",
                        self.limit.as_secs_f64(),
                        self.name
                    ),
                    got: "nothing".to_string(),
                    expected: expected(),
                })
            }
        }
    }

    /// Stops the program (after a failure: no later request reaches it).
    pub(crate) fn stop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
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
pub(crate) fn quote(text: &str) -> String {
    let mut q: String = text.chars().take(QUOTE).collect();
    if q.len() < text.len() {
        q.push('…');
    }
    format!("`{q}`")
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
