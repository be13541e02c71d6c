//! The [`Agent`] trait and agent specs.
//!
//! An agent never sees a game state. The arena (or any driver) builds a view of
//! the acting seat with [`GameState::view`](bones_env::GameState::view) and hands
//! the agent only that view ([`Texas42View`], [`DoublesView`], defined in
//! `bones_env`): the seat's own dominoes plus the public information of the game
//! (bids, the declaration, every trick so far, points, the Doubles board, hand
//! sizes, …) and the legal actions. Views hold exactly those facts, so the other
//! seats' hidden dominoes (and the Doubles boneyard order) cannot be reached
//! through them. Views are `#[non_exhaustive]`: outside `bones_env` they can only
//! be built from a state (or a lone hand or round).
//!
//! Agent specs (used by `bones eval`, `play`, `serve`): `random`, `heuristic`,
//! `highest` (Doubles only), `pimc[:worlds=N]`, `model:PATH`. [`AgentSpec`]
//! parses them; [`AgentSpec::texas42`] and [`AgentSpec::doubles`] build the agent
//! for a game, or say why they cannot ([`SpecError`]).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use bones_env::{Action, DoublesView, SeatView, Texas42View};
use rand_chacha::ChaCha8Rng;

/// The random stream an agent may draw from (seeded by the driver, so a game is
/// reproducible from its seed).
pub type AgentRng = ChaCha8Rng;

/// A player. It acts from one seat's view only and returns a legal action.
///
/// For reproducible evaluation an agent's choice must depend only on the view and
/// the random stream it is given (not on earlier games it played).
pub trait Agent<V>: Send {
    /// Chooses an action; it must be in `view.legal()`.
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action;
}

impl<V, A: Agent<V> + ?Sized> Agent<V> for Box<A> {
    fn act(&mut self, view: &V, rng: &mut AgentRng) -> Action {
        (**self).act(view, rng)
    }
}

// ---------------------------------------------------------------------------
// Specs

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
        reason: &'static str,
    },
    /// A `model:PATH` that could not be loaded.
    #[error("agent `{spec}`: {reason}")]
    BadModel {
        /// The spec as given.
        spec: String,
        /// What was wrong (missing files, another game, …).
        reason: String,
    },
    /// The agent is specified correctly but not built yet.
    #[error("agent `{spec}` is not available yet: {reason}")]
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

const PIMC_MISSING: &str =
    "the PIMC search agent (sampled worlds solved by the open-hand solver) has not been built yet; \
     use `random` or `heuristic`";
/// Loads a trained policy from a model or checkpoint folder as an agent; the
/// reason on failure.
pub type ModelLoader<V> = fn(&std::path::Path) -> Result<Box<dyn Agent<V>>, String>;

static MODEL_LOADERS_42: std::sync::OnceLock<ModelLoader<Texas42View>> = std::sync::OnceLock::new();
static MODEL_LOADERS_DOUBLES: std::sync::OnceLock<ModelLoader<DoublesView>> = std::sync::OnceLock::new();

/// Installs the loaders behind `model:PATH` (the trainer crate provides them; this
/// crate does not depend on the network library). Later calls are ignored.
pub fn register_model_loaders(texas42: ModelLoader<Texas42View>, doubles: ModelLoader<DoublesView>) {
    let _ = MODEL_LOADERS_42.set(texas42);
    let _ = MODEL_LOADERS_DOUBLES.set(doubles);
}

fn load_model<V>(
    loader: &std::sync::OnceLock<ModelLoader<V>>,
    path: &std::path::Path,
    spec: &AgentSpec,
) -> Result<Box<dyn Agent<V>>, SpecError> {
    match loader.get() {
        Some(load) => load(path).map_err(|reason| SpecError::BadModel { spec: spec.to_string(), reason }),
        None => Err(SpecError::NotAvailable { spec: spec.to_string(), reason: MODEL_MISSING }),
    }
}

const MODEL_MISSING: &str = "this program cannot load trained policies (the `bones` binary can)";

impl AgentSpec {
    /// Parses a spec (same as `str::parse`).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        text.parse()
    }

    /// Parses a comma-separated list of specs (`heuristic,random`).
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        text.split(',').map(AgentSpec::parse).collect()
    }

    /// The Texas 42 agent of this spec.
    pub fn texas42(&self) -> Result<Box<dyn Agent<Texas42View>>, SpecError> {
        match self {
            AgentSpec::Random => Ok(Box::new(crate::random::RandomAgent)),
            AgentSpec::Heuristic => Ok(Box::new(crate::heuristic::Texas42Heuristic::default())),
            AgentSpec::Highest => Err(SpecError::WrongGame {
                spec: self.to_string(),
                game: "texas42",
                reason: "`highest` is the Doubles baseline (highest pip total); use `random` or `heuristic`",
            }),
            AgentSpec::Pimc { worlds } => Ok(Box::new(crate::pimc::PimcAgent::new(*worlds))),
            AgentSpec::Model { path } => load_model(&MODEL_LOADERS_42, path, self),
        }
    }

    /// The Doubles agent of this spec.
    pub fn doubles(&self) -> Result<Box<dyn Agent<DoublesView>>, SpecError> {
        match self {
            AgentSpec::Random => Ok(Box::new(crate::random::RandomAgent)),
            AgentSpec::Heuristic => Ok(Box::new(crate::heuristic::DoublesHeuristic::default())),
            AgentSpec::Highest => Ok(Box::new(crate::heuristic::HighestAgent)),
            AgentSpec::Pimc { .. } => Err(SpecError::NotAvailable { spec: self.to_string(), reason: PIMC_MISSING }),
            AgentSpec::Model { path } => load_model(&MODEL_LOADERS_DOUBLES, path, self),
        }
    }
}

/// A view type that has agents for every spec (implemented by both games'
/// views), so generic drivers can build agents.
pub trait SpecGame: SeatView + Sized + 'static {
    /// Builds the agent of `spec` for this game.
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, SpecError>;
}

impl SpecGame for Texas42View {
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, SpecError> {
        spec.texas42()
    }
}

impl SpecGame for DoublesView {
    fn agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, SpecError> {
        spec.doubles()
    }
}
