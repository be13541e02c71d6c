//! Agent specs: the strings that name an agent on the command line, in the bot
//! server and in the Python and web front ends: `random`, `heuristic`,
//! `highest` (Doubles), `pimc[:worlds=N]` (Texas 42),
//! `search[:worlds=N][:pool=N][:bidding=policy|pimc][:weighted=on|off][:model=PATH]`
//! (Texas 42), `model:PATH`. Options follow the name, each after a `:` (a `,`
//! separates the agents of a list); `model=PATH` takes the rest of the spec, so a
//! path may hold `:`. [`AgentSpec`] parses and prints them.
//!
//! A spec is plain data: this module uses nothing else of the crate, and the
//! modules that act on a spec depend on it, never the other way round
//! ([`crate::factory::AgentFactory`] builds the agent of a spec for a game;
//! [`crate::search::SearchSettings`] is made `from` the parsed
//! [`SearchOptions`]).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The valid agent specs, for error messages and `--help`.
pub const VALID_SPECS: &str = "`random`, `heuristic`, `highest` (Doubles only), `pimc[:worlds=N]`, \
     `search[:worlds=N][:pool=N][:bidding=policy|pimc][:weighted=on|off][:model=PATH]` (Texas 42 only), \
     `model:PATH` (a model directory or checkpoint)";

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
}

/// The options of `search` (see [`crate::search`]; its agent's settings are
/// `SearchSettings::from(&options)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Worlds solved per decision.
    pub worlds: u32,
    /// Worlds sampled and weighted per decision, from which `worlds` are drawn.
    pub pool: u32,
    /// Bid and choose declaration candidates with the policy (`bidding=policy`),
    /// or as `pimc` does (`bidding=pimc`).
    pub policy_bidding: bool,
    /// Weigh the sampled worlds by how likely the policy finds the other seats'
    /// actions in them (`weighted=on`), or draw them uniformly (`weighted=off`).
    pub weighted: bool,
    /// The policy (`None`: the shipped model).
    pub model: Option<PathBuf>,
}

/// Worlds solved per decision by `search` without `worlds=N`.
pub const DEFAULT_SEARCH_WORLDS: u32 = 128;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            worlds: DEFAULT_SEARCH_WORLDS,
            pool: 4 * DEFAULT_SEARCH_WORLDS,
            policy_bidding: true,
            weighted: true,
            model: None,
        }
    }
}

impl SearchOptions {
    fn parse(opts: Option<&str>, bad: impl Fn(String) -> SpecError) -> Result<SearchOptions, SpecError> {
        let mut o = SearchOptions::default();
        let mut pool = None;
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
                Some(("bidding", v)) => o.policy_bidding = switch("bidding", v, "policy", "pimc")?,
                Some(("weighted", v)) => o.weighted = switch("weighted", v, "on", "off")?,
                _ => {
                    return Err(bad(format!(
                        "unknown search option `{opt}` (search takes `worlds=N`, `pool=N`, `bidding=policy|pimc`, \
                         `weighted=on|off`, `model=PATH`, each after a `:`)"
                    )))
                }
            }
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
        write!(f, ":bidding={}", if self.policy_bidding { "policy" } else { "pimc" })?;
        write!(f, ":weighted={}", if self.weighted { "on" } else { "off" })?;
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
        }
    }
}

impl AgentSpec {
    /// Parses a spec (same as `str::parse`).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        text.parse()
    }

    /// Parses a comma-separated list of specs (`heuristic,random`).
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        text.split(',').map(AgentSpec::parse).collect()
    }
}
