//! What the conformance suite is told ([`SuiteConfig`], [`Golden`]) and what it
//! answers ([`SuiteReport`], [`SuiteFailure`] naming the [`Check`] that failed).

use crate::game::Episode;
use std::fmt;

/// How much the suite plays, and what it compares with.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteConfig {
    /// Random one-deal episodes ([`Episode::Hand`]) played and checked.
    pub hand_episodes: u64,
    /// Random whole-game episodes ([`Episode::Game`]) played and checked.
    pub game_episodes: u64,
    /// The base seed: episode `k` (of each kind) is dealt from `seed + k`, and
    /// its actions are drawn uniformly among the legal ones from a SplitMix64
    /// stream derived from that deal seed, so a run is reproducible.
    pub seed: u64,
    /// Resamples of the hidden part per seat and state
    /// ([`GameState::resample_hidden`](crate::GameState::resample_hidden)) whose
    /// observations are compared; 0 skips the hidden-information check.
    pub resamples: usize,
    /// Decisions after which an episode counts as endless (a failure).
    pub max_steps: usize,
    /// The game is zero-sum: the seats of one side (`Game::team_of`) get the
    /// same reward and the sides' rewards add up to zero (to f32 rounding),
    /// on every transition.
    pub zero_sum: bool,
    /// A pinned digest of fixed trajectories to compare with, if any.
    pub golden: Option<Golden>,
}

impl Default for SuiteConfig {
    /// 40 hand episodes, 2 whole games, seed 0, one resample per seat and
    /// state, at most 100,000 decisions per episode, zero-sum, no golden digest.
    fn default() -> SuiteConfig {
        SuiteConfig {
            hand_episodes: 40,
            game_episodes: 2,
            seed: 0,
            resamples: 1,
            max_steps: 100_000,
            zero_sum: true,
            golden: None,
        }
    }
}

/// A pinned observation digest ([`observation_digest`](super::observation_digest)):
/// `episodes` episodes of kind `episode`, dealt from seeds `0..episodes`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Golden {
    /// One deal or whole games.
    pub episode: Episode,
    /// How many episodes.
    pub episodes: u64,
    /// The digest they must give (FNV-1a from its offset basis).
    pub digest: u64,
}

/// What a suite run checked (for tests that want to know the checks had
/// teeth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteReport {
    /// The game and its rules (`name rules-json`).
    pub game: String,
    /// Episodes played.
    pub episodes: u64,
    /// States checked.
    pub states: u64,
    /// States whose dominoes were accounted for (0: the game has no
    /// [`GameState::dominoes`](crate::GameState::dominoes)).
    pub ledgers: u64,
    /// Resampled states whose observations were compared.
    pub resamples: u64,
    /// Of those, the ones where another seat's hand or the boneyard differed.
    pub resamples_changed: u64,
    /// Save/restore round trips that continued identically.
    pub restores: u64,
    /// The golden digest computed, if one was asked for.
    pub digest: Option<u64>,
}

/// The invariant a [`SuiteFailure`] broke.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The legal mask is exactly the set of actions `apply` accepts; a refused
    /// action leaves the state unchanged; terminal states have an empty mask.
    LegalMask,
    /// Seats, the end of episodes and of deals are consistent.
    Termination,
    /// Every domino is in exactly one place, and moves only as played or drawn.
    Dominoes,
    /// Rewards are finite, zero for absent seats, and zero-sum per side.
    ZeroSum,
    /// The same seed and actions give the same trajectory.
    Determinism,
    /// A state (and an `Env`, a `VecEnv`) saved mid-episode continues identically.
    SaveRestore,
    /// A seat's view observes what the state shows it.
    ViewObservation,
    /// A seat's observation does not change when what it cannot see does.
    HiddenInformation,
    /// `Env` and `VecEnv` agree with the state they wrap.
    Env,
    /// The digest of the fixed trajectories is the pinned one.
    Golden,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Check::LegalMask => "legal mask = what apply accepts",
            Check::Termination => "termination",
            Check::Dominoes => "dominoes conserved",
            Check::ZeroSum => "zero-sum rewards",
            Check::Determinism => "determinism per seed",
            Check::SaveRestore => "save/restore",
            Check::ViewObservation => "view observation = state observation",
            Check::HiddenInformation => "no hidden information",
            Check::Env => "Env and VecEnv",
            Check::Golden => "golden digest",
        })
    }
}

/// Why a suite run failed: the game, the check, where (episode kind, seeds,
/// step) and what was seen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game}: {check} failed{at}: {message}")]
pub struct SuiteFailure {
    /// The game and its rules.
    pub game: String,
    /// The invariant broken.
    pub check: Check,
    /// Where: ` at hand episode 3 (deal seed 3), step 12`, or empty.
    pub at: String,
    /// What was wrong.
    pub message: String,
}

impl SuiteFailure {
    /// A failure of `check` in `game`.
    pub fn new(game: impl Into<String>, check: Check, message: impl Into<String>) -> SuiteFailure {
        SuiteFailure { game: game.into(), check, at: String::new(), message: message.into() }
    }
    /// The same failure, located (`at` is written after ` at `).
    pub fn at(mut self, at: impl fmt::Display) -> SuiteFailure {
        self.at = format!(" at {at}");
        self
    }
}
