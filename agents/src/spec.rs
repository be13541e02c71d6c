//! Agent specs: the strings that name an agent on the command line, in the bot
//! server and in the Python and web front ends: `random`, `heuristic`,
//! `highest` (Doubles), `pimc[:worlds=N]` (Texas 42), `model:PATH`. [`AgentSpec`]
//! parses and prints them; [`crate::factory::AgentFactory`] builds the agent of a
//! spec for a game.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The valid agent specs, for error messages and `--help`.
pub const VALID_SPECS: &str =
    "`random`, `heuristic`, `highest` (Doubles only), `pimc[:worlds=N]`, `model:PATH` (a model directory or checkpoint)";

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
    /// A trained policy loaded from a model directory or checkpoint.
    Model {
        /// The path given.
        path: PathBuf,
    },
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
                    for opt in opts.split(',') {
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
