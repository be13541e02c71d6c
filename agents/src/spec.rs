//! Agent specs: the strings that name an agent on the command line, in the bot
//! server and in the Python and web front ends (`random`, `heuristic`,
//! `pimc:worlds=16`, `search`, `model:PATH`, …). Their grammar is one table,
//! [`grammar::AGENTS`]: the parser reads a spec against it, and `bones agents`,
//! the `--help` texts and the web API print it ([`grammar::describe`],
//! [`grammar::summary`]). Options follow the name, each after a `:` (a `,`
//! separates the agents of a list); `model=PATH`, the path of `model:`/`onnx:`
//! and the command of `exec:` and `bridge:` take the rest of the spec, so they may hold `:`.
//! [`AgentSpec`] parses and prints them (printing gives the canonical text,
//! which parses back to the same spec); [`AgentSpec::check_remote`] says
//! whether a spec that arrived over the network may be built.
//!
//! A spec is plain data: this module uses nothing else of the crate but the
//! list of what was removed ([`crate::removed`]), and the modules that act on
//! a spec depend on it, never the other way round
//! ([`crate::factory::AgentFactory`] builds the agent of a spec for a game;
//! [`crate::search::SearchAgent`] plays by the [`SearchOptions`] of its spec).

pub mod grammar;
pub mod limits;

pub use limits::Limits;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use grammar::{Fault, Kind, Read};

/// Worlds sampled per decision by `pimc` without `worlds=N`.
pub const DEFAULT_PIMC_WORLDS: u32 = 32;

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniform over the legal actions.
    Random,
    /// The rule-based player of [`crate::heuristic`].
    Heuristic,
    /// Doubles: the legal play with the highest pip total.
    Highest,
    /// Perfect-information Monte Carlo search over sampled worlds.
    Pimc {
        /// Worlds sampled per decision.
        worlds: u32,
    },
    /// Policy-guided search: sampled worlds weighted by the policy, solved.
    Search(SearchOptions),
    /// A trained policy loaded from a model directory or checkpoint.
    Model {
        /// The path given.
        path: PathBuf,
    },
    /// An ONNX network written by any framework: a folder holding `model.onnx`
    /// and `model.json` (as `bones export` writes), or a `.onnx` file whose
    /// observation version is given.
    Onnx {
        /// The folder or file given.
        path: PathBuf,
        /// The observation version the network reads (`observation=V`); for a
        /// folder it must agree with its `model.json`, a bare file needs it.
        observation: Option<u32>,
    },
    /// An outside program that speaks the bot protocol on stdin/stdout, sent
    /// only its seat's view (see docs/interfaces/cli.md, "Seat views").
    Exec {
        /// The command line: a program and its arguments, split like a shell
        /// splits words (quotes group, no other shell syntax).
        command: String,
        /// The words of `command`.
        argv: Vec<String>,
        /// The time the program has for each decision, in milliseconds
        /// (`limit=SECONDS` before the command; default [`DEFAULT_EXEC_LIMIT_MS`]).
        limit_ms: u64,
    },
    /// An outside Texas 42 engine speaking walt's bridge line protocol (see
    /// [`crate::bridge`]), sent only its seat's dominoes and the plays; it plays
    /// `dropped30` deals only.
    Bridge {
        /// The command line, as for [`AgentSpec::Exec`].
        command: String,
        /// The words of `command`.
        argv: Vec<String>,
        /// The time the program has for each decision, in milliseconds
        /// (`limit=SECONDS` before the command; default [`DEFAULT_BRIDGE_LIMIT_MS`]).
        limit_ms: u64,
    },
}

/// The options of `search` and of its agent (see [`crate::search`]): those a
/// spec sets, and two that only code sets (`floor`, `candidate_ratio`; a
/// parsed spec has their defaults, and the printed spec leaves them out).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// Worlds solved per decision (`worlds=N`).
    pub worlds: u32,
    /// Worlds sampled and weighted per decision, from which `worlds` are drawn
    /// (`pool=N`; at least `worlds`).
    pub pool: u32,
    /// How bids are chosen (`bidding=policy|pimc`).
    pub bidding: Bidding,
    /// Weigh the sampled worlds by how likely the policy finds the other seats'
    /// actions in them (`weighted=on`), or draw them uniformly (`weighted=off`).
    pub weighted: bool,
    /// How a candidate is valued in each world
    /// (`continuation=solver|infoset`, `exact=K`).
    pub continuation: Continuation,
    /// The tricks whose plays the search decides, counted from the first
    /// (`tricks=N`, 0 to 6; `None`: all seven); the later plays are the policy's most
    /// probable. `tricks=0` leaves only the bidding (`bidding=pimc`) and the
    /// declaration to the search: how a hand's phases split the gain of search
    /// over its policy is measured with it.
    pub tricks: Option<u8>,
    /// The policy (`model=PATH`; `None`: the shipped model).
    pub model: Option<PathBuf>,
    /// Least probability an observed action contributes to a world's weight.
    pub floor: f32,
    /// A declaration is a candidate when the policy gives it at least this
    /// fraction of the most probable declaration's probability.
    pub candidate_ratio: f32,
}

/// How `search` bids.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bidding {
    /// The policy's most probable bid; the policy proposes the declarations
    /// (`bidding=policy`).
    Policy,
    /// `pimc`'s simulated bidding; every declaration is a candidate
    /// (`bidding=pimc`).
    Pimc,
}

impl Bidding {
    /// Every way, in the grammar's order.
    pub const ALL: [Bidding; 2] = [Bidding::Policy, Bidding::Pimc];

    /// The spec's name of the setting.
    pub fn name(self) -> &'static str {
        match self {
            Bidding::Policy => "policy",
            Bidding::Pimc => "pimc",
        }
    }
}

/// How `search` values a candidate action in a sampled world.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Continuation {
    /// The open-hand solver: best play by every seat as if all hands were
    /// known (`continuation=solver`).
    Solver,
    /// The open-hand solver until `exact` tricks are left (the one in progress
    /// counted); from there the rest of the hand is searched over all the
    /// worlds at once with every seat choosing one play per information set
    /// (`continuation=infoset[:exact=K]`, see [`crate::infoset`]).
    Infoset {
        /// Tricks left when the information-set search takes over (1 to 7).
        exact: u8,
    },
}

impl Continuation {
    /// The spec's name of the continuation.
    pub fn name(self) -> &'static str {
        match self {
            Continuation::Solver => "solver",
            Continuation::Infoset { .. } => "infoset",
        }
    }
}

/// Tricks left when the information-set search takes over from the solver
/// in `continuation=infoset` without `exact=K`.
pub const DEFAULT_INFOSET_TRICKS: u8 = 3;

/// The time an `exec:` program has for one decision without `limit=SECONDS`.
pub const DEFAULT_EXEC_LIMIT_MS: u64 = 10_000;

/// The time a `bridge:` program has for one decision without `limit=SECONDS`
/// (walt_bridge gives itself 120 s at most by default, about 1 s as a rule).
pub const DEFAULT_BRIDGE_LIMIT_MS: u64 = 150_000;

/// Worlds solved per decision by `search` without `worlds=N`.
pub const DEFAULT_SEARCH_WORLDS: u32 = 128;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            worlds: DEFAULT_SEARCH_WORLDS,
            pool: 4 * DEFAULT_SEARCH_WORLDS,
            bidding: Bidding::Policy,
            weighted: true,
            continuation: Continuation::Infoset { exact: DEFAULT_INFOSET_TRICKS },
            tricks: None,
            model: None,
            floor: 0.02,
            candidate_ratio: 0.25,
        }
    }
}

impl SearchOptions {
    /// The options of a `search` spec read against the grammar (which checked
    /// each value); what is wrong across options, in one sentence.
    fn from_read(r: &Read<'_>) -> Result<SearchOptions, String> {
        let d = SearchOptions::default();
        let worlds = r.whole("worlds").map_or(d.worlds, |n| n as u32);
        let pool = r.whole("pool").map_or(4 * worlds, |n| n as u32);
        if pool < worlds {
            return Err(format!("`pool` ({pool}) must be at least `worlds` ({worlds})"));
        }
        let bidding = r.word("bidding").and_then(|w| Bidding::ALL.into_iter().find(|b| b.name() == w));
        let exact = r.whole("exact").map(|k| k as u8);
        let continuation = match (r.word("continuation"), exact) {
            (Some("solver"), None) => Continuation::Solver,
            (Some("solver"), Some(_)) => {
                return Err("`exact=K` does not go with `continuation=solver` (the solver continuation is exact \
                            throughout)"
                    .to_string())
            }
            (_, k) => Continuation::Infoset { exact: k.unwrap_or(DEFAULT_INFOSET_TRICKS) },
        };
        Ok(SearchOptions {
            worlds,
            pool,
            bidding: bidding.unwrap_or(d.bidding),
            weighted: r.word("weighted").map_or(d.weighted, |w| w == "on"),
            continuation,
            tricks: r.whole("tricks").map(|n| n as u8),
            model: r.rest("model").map(PathBuf::from),
            ..d
        })
    }
}

impl fmt::Display for SearchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "search:worlds={}:pool={}", self.worlds, self.pool)?;
        write!(f, ":bidding={}", self.bidding.name())?;
        write!(f, ":weighted={}", if self.weighted { "on" } else { "off" })?;
        write!(f, ":continuation={}", self.continuation.name())?;
        if let Continuation::Infoset { exact } = self.continuation {
            write!(f, ":exact={exact}")?;
        }
        if let Some(n) = self.tricks {
            write!(f, ":tricks={n}")?;
        }
        if let Some(p) = &self.model {
            write!(f, ":model={}", p.display())?;
        }
        Ok(())
    }
}

/// Why an agent spec was rejected or cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Not one of the known agents.
    #[error("unknown agent `{name}` ({hint}; `bones agents` lists them)")]
    Unknown {
        /// The name given.
        name: String,
        /// The nearest agent's name (`did you mean …?`), or the names.
        hint: String,
    },
    /// A known agent with a bad option.
    #[error("bad agent spec `{spec}`: {reason}")]
    BadOption {
        /// The text given.
        spec: String,
        /// What is wrong, and the nearest valid spelling where there is one.
        reason: String,
    },
    /// The agent does not play this game.
    #[error("agent `{spec}` does not play {game}: {reason}")]
    WrongGame {
        /// The spec.
        spec: String,
        /// The game asked for.
        game: &'static str,
        /// Why not, and what to use instead.
        reason: String,
    },
    /// A `model:PATH` that could not be loaded.
    #[error("agent `{spec}`: {reason}")]
    BadModel {
        /// The spec as given.
        spec: String,
        /// What was wrong (missing files, another game, …).
        reason: String,
    },
    /// A spec that arrived over the network and may not be built there
    /// ([`AgentSpec::check_remote`]).
    #[error("agent `{spec}` is refused: {reason}")]
    Refused {
        /// The spec.
        spec: String,
        /// Why.
        reason: String,
    },
    /// A spec that asks for more per decision than a server allows
    /// ([`AgentSpec::check_limits`]).
    #[error(
        "agent `{spec}` asks for more than this server allows: `{option}` is {value}, at most {max} here (the \
         server's {flag} raises it)"
    )]
    OverLimit {
        /// The spec.
        spec: String,
        /// The option past its limit.
        option: &'static str,
        /// Its value.
        value: u64,
        /// The limit.
        max: u64,
        /// The server's flag that sets the limit.
        flag: &'static str,
    },
    /// The program of an `exec:` spec cannot be started.
    #[error("agent `{spec}`: cannot start the program: {reason}")]
    Program {
        /// The spec.
        spec: String,
        /// What the system said.
        reason: String,
    },
    /// The agent does not play under the rules asked for.
    #[error("agent `{spec}` does not play these rules: {reason}")]
    WrongRules {
        /// The spec.
        spec: String,
        /// Why not, and which rules it plays.
        reason: String,
    },
    /// The program that builds agents cannot load trained policies.
    #[error("agent `{spec}` is not available here: {reason}")]
    NotAvailable {
        /// The spec.
        spec: String,
        /// What is missing.
        reason: &'static str,
    },
}

impl FromStr for AgentSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let s = text.trim();
        let bad = |reason: String| SpecError::BadOption { spec: s.to_string(), reason };
        let r = grammar::read(s).map_err(|fault| match fault {
            Fault::Unknown { name, hint } => SpecError::Unknown { name, hint },
            Fault::Bad(reason) => bad(reason),
        })?;
        let tail = r.tail.unwrap_or_default();
        Ok(match r.agent.kind {
            Kind::Random => AgentSpec::Random,
            Kind::Heuristic => AgentSpec::Heuristic,
            Kind::Highest => AgentSpec::Highest,
            Kind::Pimc => AgentSpec::Pimc { worlds: r.whole("worlds").map_or(DEFAULT_PIMC_WORLDS, |n| n as u32) },
            Kind::Search => AgentSpec::Search(SearchOptions::from_read(&r).map_err(bad)?),
            Kind::Model => AgentSpec::Model { path: PathBuf::from(tail) },
            Kind::Onnx => {
                AgentSpec::Onnx { path: PathBuf::from(tail), observation: r.whole("observation").map(|v| v as u32) }
            }
            Kind::Exec | Kind::Bridge => {
                let default = if r.agent.kind == Kind::Exec { DEFAULT_EXEC_LIMIT_MS } else { DEFAULT_BRIDGE_LIMIT_MS };
                let limit_ms = r.decimal("limit").map_or(default, |s| (s * 1000.0).round() as u64);
                let argv = split_words(tail).map_err(|e| bad(format!("bad command line: {e}")))?;
                if argv.is_empty() {
                    return Err(bad(format!(
                        "`{}` needs a command line: `{}`",
                        r.agent.name,
                        grammar::syntax(r.agent)
                    )));
                }
                let command = tail.to_string();
                if r.agent.kind == Kind::Exec {
                    AgentSpec::Exec { command, argv, limit_ms }
                } else {
                    AgentSpec::Bridge { command, argv, limit_ms }
                }
            }
        })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Heuristic => f.write_str("heuristic"),
            AgentSpec::Highest => f.write_str("highest"),
            AgentSpec::Pimc { worlds } => write!(f, "pimc:worlds={worlds}"),
            AgentSpec::Search(o) => o.fmt(f),
            AgentSpec::Model { path } => write!(f, "model:{}", path.display()),
            AgentSpec::Onnx { path, observation: Some(v) } => write!(f, "onnx:observation={v}:{}", path.display()),
            AgentSpec::Onnx { path, observation: None } => write!(f, "onnx:{}", path.display()),
            AgentSpec::Exec { command, limit_ms: DEFAULT_EXEC_LIMIT_MS, .. } => write!(f, "exec:{command}"),
            AgentSpec::Exec { command, limit_ms, .. } => {
                write!(f, "exec:limit={}:{command}", *limit_ms as f64 / 1000.0)
            }
            AgentSpec::Bridge { command, limit_ms: DEFAULT_BRIDGE_LIMIT_MS, .. } => write!(f, "bridge:{command}"),
            AgentSpec::Bridge { command, limit_ms, .. } => {
                write!(f, "bridge:limit={}:{command}", *limit_ms as f64 / 1000.0)
            }
        }
    }
}

impl AgentSpec {
    /// Parses a spec (same as `str::parse`).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        text.parse()
    }

    /// Parses a comma-separated list of specs (`heuristic,random`); a command
    /// line of `exec:` or `bridge:` in a list cannot hold a `,`.
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        text.split(',').map(AgentSpec::parse).collect()
    }

    /// Refuses a spec that asks for more per decision than `limits` allow;
    /// the error names the option, its value, the limit and the server flag
    /// that raises it.
    pub fn check_limits(&self, limits: &Limits) -> Result<(), SpecError> {
        let over = |option: &'static str, value: u64, max: u64, flag: &'static str| {
            Err(SpecError::OverLimit { spec: self.to_string(), option, value, max, flag })
        };
        match self {
            AgentSpec::Pimc { worlds } if *worlds > limits.worlds => {
                over("worlds", *worlds as u64, limits.worlds as u64, "--max-worlds")
            }
            AgentSpec::Search(SearchOptions { worlds, pool, continuation, .. }) => {
                if *worlds > limits.worlds {
                    return over("worlds", *worlds as u64, limits.worlds as u64, "--max-worlds");
                }
                if *pool > limits.pool {
                    return over("pool", *pool as u64, limits.pool as u64, "--max-pool");
                }
                match continuation {
                    Continuation::Infoset { exact } if *exact > limits.exact => {
                        over("exact", *exact as u64, limits.exact as u64, "--max-exact")
                    }
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// Whether a spec that arrived over the network (a web page, a protocol
    /// request) may be built: `exec:` and `bridge:` run a program, so they are refused, and so is
    /// every path (`model:`, `onnx:`, `search`'s `model=`) outside `models_dir`
    /// (the configured models folder; `None`: no path at all is accepted). Paths
    /// are compared after resolving `.`, `..` and links, so a path that escapes
    /// the folder by either is refused.
    pub fn check_remote(&self, models_dir: Option<&Path>) -> Result<(), SpecError> {
        let refuse = |reason: String| Err(SpecError::Refused { spec: self.to_string(), reason });
        let path = match self {
            AgentSpec::Exec { .. } | AgentSpec::Bridge { .. } => {
                let name = if matches!(self, AgentSpec::Exec { .. }) { "exec" } else { "bridge" };
                return refuse(format!(
                    "`{name}:` runs a program on this machine, so it is accepted only on the command line or from \
                     Python, never over the network"
                ));
            }
            AgentSpec::Model { path } | AgentSpec::Onnx { path, .. } => path,
            AgentSpec::Search(SearchOptions { model: Some(path), .. }) => path,
            _ => return Ok(()),
        };
        let Some(root) = models_dir else {
            return refuse(format!("model paths are not accepted over the network (got `{}`)", path.display()));
        };
        let inside = match (root.canonicalize(), path.canonicalize()) {
            (Ok(root), Ok(p)) => p.starts_with(&root),
            _ => false,
        };
        if inside {
            Ok(())
        } else {
            refuse(format!(
                "`{}` is not inside the models folder `{}`: over the network only models in that folder are accepted",
                path.display(),
                root.display()
            ))
        }
    }
}

/// Splits a command line into words as a POSIX shell does for plain words:
/// blanks separate, `'…'` keeps everything, `"…"` keeps everything but `\"`
/// and `\\`, and `\` outside quotes escapes the next character. No other shell
/// syntax (variables, globs, pipes) is interpreted.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a `'` is not closed".to_string()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a `\"` is not closed".to_string()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a `\"` is not closed".to_string()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a `\\` ends the line".to_string()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}
