//! Agent specs: the strings that name an agent on the command line, in the bot
//! server and in the Python and web front ends: `random`, `heuristic`,
//! `highest` (Doubles), `pimc[:worlds=N]` (Texas 42),
//! `search[:worlds=N][:pool=N][:bidding=policy|pimc|playout][:caution=K][:weighted=on|off][:continuation=solver|policy|infoset][:exact=K][:model=PATH]`
//! (Texas 42), `model:PATH`, `onnx:[observation=V:]PATH` (an ONNX network from any
//! framework) and `exec:COMMAND` (an outside program speaking the bot protocol).
//! Options follow the name, each after a `:` (a `,` separates the agents of a
//! list); `model=PATH`, the path of `model:`/`onnx:` and the command of `exec:`
//! take the rest of the spec, so they may hold `:`. [`AgentSpec`] parses and
//! prints them; [`AgentSpec::check_remote`] says whether a spec that arrived
//! over the network may be built.
//!
//! A spec is plain data: this module uses nothing else of the crate, and the
//! modules that act on a spec depend on it, never the other way round
//! ([`crate::factory::AgentFactory`] builds the agent of a spec for a game;
//! [`crate::search::SearchSettings`] is made `from` the parsed
//! [`SearchOptions`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The valid agent specs, for error messages and `--help`.
pub const VALID_SPECS: &str = "`random`, `heuristic`, `highest` (Doubles only), `pimc[:worlds=N]`, \
     `search[:worlds=N][:pool=N][:bidding=policy|pimc|playout][:caution=K][:weighted=on|off][:continuation=solver|policy|infoset][:exact=K][:model=PATH]` (Texas 42 only), \
     `model:PATH` (a model directory or checkpoint), `onnx:[observation=V:]PATH` (an ONNX model folder or \
     `.onnx` file), `exec:[limit=SECONDS:]COMMAND` (an outside program speaking the bot protocol)";

/// Worlds sampled per decision by `pimc` without `worlds=N`.
pub const DEFAULT_PIMC_WORLDS: u32 = 32;

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// only its seat's view (see docs/interfaces.md, "Seat views").
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
}

/// The options of `search` (see [`crate::search`]; its agent's settings are
/// `SearchSettings::from(&options)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Worlds solved per decision.
    pub worlds: u32,
    /// Worlds sampled and weighted per decision, from which `worlds` are drawn.
    pub pool: u32,
    /// How bids are chosen (`bidding=policy|pimc|playout`).
    pub bidding: Bidding,
    /// `bidding=playout`'s caution (`caution=K`), in hundredths of a standard
    /// error: a bid gives up this much of its estimated gain over passing.
    pub caution: u16,
    /// Weigh the sampled worlds by how likely the policy finds the other seats'
    /// actions in them (`weighted=on`), or draw them uniformly (`weighted=off`).
    pub weighted: bool,
    /// How a candidate is valued in each world
    /// (`continuation=solver|policy|infoset`, `exact=K`).
    pub continuation: Continuation,
    /// The policy (`None`: the shipped model).
    pub model: Option<PathBuf>,
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
    /// Each legal bid priced by policy playouts of the rest of the hand (the
    /// auction, the declaration and the play) on the weighted worlds; the bid
    /// with the best expected award is made; the policy proposes the
    /// declarations (`bidding=playout`).
    Playout,
}

impl Bidding {
    /// The spec's name of the setting.
    pub fn name(self) -> &'static str {
        match self {
            Bidding::Policy => "policy",
            Bidding::Pimc => "pimc",
            Bidding::Playout => "playout",
        }
    }
}

/// How `search` values a candidate action in a sampled world.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Continuation {
    /// The open-hand solver: best play by every seat as if all hands were
    /// known (`continuation=solver`).
    Solver,
    /// The policy plays every seat from that seat's own view until `exact`
    /// tricks are left (the one in progress counted), then the solver takes
    /// over (`continuation=policy[:exact=K]`).
    Policy {
        /// Tricks left when the solver takes over (0 to 7; 7: the solver throughout).
        exact: u8,
    },
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
            Continuation::Policy { .. } => "policy",
            Continuation::Infoset { .. } => "infoset",
        }
    }
}

/// Tricks left when the solver takes over from the policy in
/// `continuation=policy` without `exact=K`.
pub const DEFAULT_EXACT_TRICKS: u8 = 3;

/// Tricks left when the information-set search takes over from the solver
/// in `continuation=infoset` without `exact=K`.
pub const DEFAULT_INFOSET_TRICKS: u8 = 3;

/// The time an `exec:` program has for one decision without `limit=SECONDS`.
pub const DEFAULT_EXEC_LIMIT_MS: u64 = 10_000;

/// Worlds solved per decision by `search` without `worlds=N`.
pub const DEFAULT_SEARCH_WORLDS: u32 = 128;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            worlds: DEFAULT_SEARCH_WORLDS,
            pool: 4 * DEFAULT_SEARCH_WORLDS,
            bidding: Bidding::Policy,
            caution: 0,
            weighted: true,
            continuation: Continuation::Infoset { exact: DEFAULT_INFOSET_TRICKS },
            model: None,
        }
    }
}

impl SearchOptions {
    fn parse(opts: Option<&str>, bad: impl Fn(String) -> SpecError) -> Result<SearchOptions, SpecError> {
        let mut o = SearchOptions::default();
        let mut pool = None;
        let mut continuation = o.continuation.name();
        let mut exact = None;
        let mut caution = None;
        let mut rest = opts.unwrap_or("");
        let count = |key: &str, n: &str| {
            n.parse::<u32>()
                .ok()
                .filter(|&w| (1..=4096).contains(&w))
                .ok_or_else(|| bad(format!("`{key}` must be a whole number from 1 to 4096, got `{n}`")))
        };
        let switch = |key: &str, v: &str, on: &str, off: &str| match v {
            _ if v == on => Ok(true),
            _ if v == off => Ok(false),
            _ => Err(bad(format!("`{key}` must be `{on}` or `{off}`, got `{v}`"))),
        };
        while !rest.is_empty() {
            if let Some(path) = rest.strip_prefix("model=") {
                if path.trim().is_empty() {
                    return Err(bad("`model=` needs a path".to_string()));
                }
                o.model = Some(PathBuf::from(path.trim()));
                break;
            }
            let (opt, tail) = rest.split_once(':').unwrap_or((rest, ""));
            rest = tail;
            match opt.split_once('=') {
                Some(("worlds", n)) => o.worlds = count("worlds", n)?,
                Some(("pool", n)) => pool = Some(count("pool", n)?),
                Some(("bidding", v)) => {
                    o.bidding =
                        [Bidding::Policy, Bidding::Pimc, Bidding::Playout]
                            .into_iter()
                            .find(|b| b.name() == v)
                            .ok_or_else(|| bad(format!("`bidding` must be `policy`, `pimc` or `playout`, got `{v}`")))?
                }
                Some(("caution", k)) => {
                    caution = Some(
                        k.parse::<f64>()
                            .ok()
                            .filter(|k| (0.0..=10.0).contains(k))
                            .map(|k| (k * 100.0).round() as u16)
                            .ok_or_else(|| {
                                bad(format!("`caution` must be a number of standard errors from 0 to 10, got `{k}`"))
                            })?,
                    )
                }
                Some(("weighted", v)) => o.weighted = switch("weighted", v, "on", "off")?,
                Some(("continuation", v)) => {
                    continuation = ["solver", "policy", "infoset"].into_iter().find(|&c| c == v).ok_or_else(|| {
                        bad(format!("`continuation` must be `solver`, `policy` or `infoset`, got `{v}`"))
                    })?
                }
                Some(("exact", k)) => {
                    exact = Some(k.parse::<u8>().ok().filter(|&k| k <= 7).ok_or_else(|| {
                        bad(format!("`exact` must be a whole number of tricks from 0 to 7, got `{k}`"))
                    })?)
                }
                _ => {
                    return Err(bad(format!(
                    "unknown search option `{opt}` (search takes `worlds=N`, `pool=N`, `bidding=policy|pimc|playout`, \
                         `caution=K`, `weighted=on|off`, `continuation=solver|policy|infoset`, `exact=K`, `model=PATH`, each after a `:`)"
                )))
                }
            }
        }
        o.continuation = match (continuation, exact) {
            ("policy", k) => Continuation::Policy { exact: k.unwrap_or(DEFAULT_EXACT_TRICKS) },
            ("infoset", Some(0)) => {
                return Err(bad(
                    "`exact` must be a whole number of tricks from 1 to 7 with `continuation=infoset`, got `0`".into(),
                ))
            }
            ("infoset", k) => Continuation::Infoset { exact: k.unwrap_or(DEFAULT_INFOSET_TRICKS) },
            (_, None) => Continuation::Solver,
            (_, Some(_)) => {
                return Err(bad(
                    "`exact=K` does not go with `continuation=solver` (the solver continuation is exact throughout)"
                        .into(),
                ))
            }
        };
        if let Some(k) = caution {
            if o.bidding != Bidding::Playout {
                return Err(bad("`caution=K` needs `bidding=playout` (only priced bids have a standard error)".into()));
            }
            o.caution = k;
        }
        o.pool = pool.unwrap_or(4 * o.worlds);
        if o.pool < o.worlds {
            return Err(bad(format!("`pool` ({}) must be at least `worlds` ({})", o.pool, o.worlds)));
        }
        Ok(o)
    }
}

impl fmt::Display for SearchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "search:worlds={}:pool={}", self.worlds, self.pool)?;
        write!(f, ":bidding={}", self.bidding.name())?;
        if self.caution > 0 {
            write!(f, ":caution={}.{:02}", self.caution / 100, self.caution % 100)?;
        }
        write!(f, ":weighted={}", if self.weighted { "on" } else { "off" })?;
        write!(f, ":continuation={}", self.continuation.name())?;
        if let Continuation::Policy { exact } | Continuation::Infoset { exact } = self.continuation {
            write!(f, ":exact={exact}")?;
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
    #[error("unknown agent `{spec}`: expected one of {VALID_SPECS}")]
    Unknown {
        /// The text given.
        spec: String,
    },
    /// A known agent with a bad option.
    #[error("bad agent spec `{spec}`: {reason}; expected one of {VALID_SPECS}")]
    BadOption {
        /// The text given.
        spec: String,
        /// What is wrong.
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
    /// The program of an `exec:` spec cannot be started.
    #[error("agent `{spec}`: cannot start the program: {reason}")]
    Program {
        /// The spec.
        spec: String,
        /// What the system said.
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
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (s, None),
        };
        match name {
            "random" | "heuristic" | "highest" => {
                if rest.is_some() {
                    return Err(bad(format!("`{name}` takes no options")));
                }
                Ok(match name {
                    "random" => AgentSpec::Random,
                    "heuristic" => AgentSpec::Heuristic,
                    _ => AgentSpec::Highest,
                })
            }
            "pimc" => {
                let mut worlds = DEFAULT_PIMC_WORLDS;
                if let Some(opts) = rest {
                    for opt in opts.split([':', ',']) {
                        match opt.split_once('=') {
                            Some(("worlds", n)) => {
                                worlds =
                                    n.parse::<u32>().ok().filter(|&w| w >= 1).ok_or_else(|| {
                                        bad(format!("`worlds` must be a whole number >= 1, got `{n}`"))
                                    })?;
                            }
                            _ => return Err(bad(format!("unknown pimc option `{opt}` (pimc takes `worlds=N`)"))),
                        }
                    }
                }
                Ok(AgentSpec::Pimc { worlds })
            }
            "search" => Ok(AgentSpec::Search(SearchOptions::parse(rest, bad)?)),
            "model" => match rest {
                Some(p) if !p.trim().is_empty() => Ok(AgentSpec::Model { path: PathBuf::from(p.trim()) }),
                _ => Err(bad("`model` needs a path: `model:PATH`".to_string())),
            },
            "onnx" => {
                let rest = rest.map(str::trim).unwrap_or("");
                let (observation, path) = match rest.strip_prefix("observation=") {
                    Some(tail) => {
                        let (v, path) = tail.split_once(':').unwrap_or((tail, ""));
                        let v = v.parse::<u32>().ok().filter(|&v| v >= 1).ok_or_else(|| {
                            bad(format!(
                                "`observation` must be an observation version (a whole number >= 1), got `{v}`"
                            ))
                        })?;
                        (Some(v), path.trim())
                    }
                    None => (None, rest),
                };
                if path.is_empty() {
                    return Err(bad("`onnx` needs a path: `onnx:PATH` or `onnx:observation=V:FILE.onnx`".to_string()));
                }
                Ok(AgentSpec::Onnx { path: PathBuf::from(path), observation })
            }
            "exec" => {
                let mut command = rest.map(str::trim).unwrap_or("");
                let mut limit_ms = DEFAULT_EXEC_LIMIT_MS;
                if let Some(tail) = command.strip_prefix("limit=") {
                    let (secs, cmd) = tail.split_once(':').unwrap_or((tail, ""));
                    limit_ms = secs
                        .parse::<f64>()
                        .ok()
                        .filter(|s| (0.001..=86_400.0).contains(s))
                        .map(|s| (s * 1000.0).round() as u64)
                        .ok_or_else(|| {
                            bad(format!("`limit` must be a number of seconds from 0.001 to 86400, got `{secs}`"))
                        })?;
                    command = cmd.trim();
                }
                let argv = split_words(command).map_err(|e| bad(format!("bad command line: {e}")))?;
                if argv.is_empty() {
                    return Err(bad("`exec` needs a command line: `exec:[limit=SECONDS:]PROGRAM [ARGS…]`".to_string()));
                }
                Ok(AgentSpec::Exec { command: command.to_string(), argv, limit_ms })
            }
            _ => Err(SpecError::Unknown { spec: s.to_string() }),
        }
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
        }
    }
}

impl AgentSpec {
    /// Parses a spec (same as `str::parse`).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        text.parse()
    }

    /// Parses a comma-separated list of specs (`heuristic,random`); a command
    /// line of `exec:` in a list cannot hold a `,`.
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        text.split(',').map(AgentSpec::parse).collect()
    }

    /// Whether a spec that arrived over the network (a web page, a protocol
    /// request) may be built: `exec:` runs a program, so it is refused, and so is
    /// every path (`model:`, `onnx:`, `search`'s `model=`) outside `models_dir`
    /// (the configured models folder; `None`: no path at all is accepted). Paths
    /// are compared after resolving `.`, `..` and links, so a path that escapes
    /// the folder by either is refused.
    pub fn check_remote(&self, models_dir: Option<&Path>) -> Result<(), SpecError> {
        let refuse = |reason: String| Err(SpecError::Refused { spec: self.to_string(), reason });
        let path = match self {
            AgentSpec::Exec { .. } => {
                return refuse(
                    "`exec:` runs a program on this machine, so it is accepted only on the command line \
                               or from Python, never over the network"
                        .to_string(),
                )
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
