//! The gym-style environment: `reset(seed)` and `step(action)` over any [`Game`],
//! multi-agent and turn-based (one seat acts at a time).
//!
//! Rewards follow PettingZoo's AEC convention: `rewards[s]` in a [`TimeStep`] is
//! what seat `s` earned since it last acted (its entry is cleared when it acts),
//! so at the end of an episode every seat's outstanding reward is reported.
//! Texas 42 rewards are zero-sum per team, Doubles rewards zero-sum per seat.
//!
//! ```
//! use bones_env::{Env, Episode, Texas42, Texas42Rules};
//!
//! let mut env = Env::new(Texas42::new(Texas42Rules::STANDARD), Episode::Hand);
//! let mut t = env.reset(42).clone();
//! while !t.terminated {
//!     let a = t.legal.iter().next().unwrap(); // first legal action
//!     t = env.step(a).unwrap().clone();
//! }
//! assert_eq!(t.rewards[0], -t.rewards[1]);
//! ```
//!
//! An environment saves to bytes and restores from them ([`Env::save`],
//! [`Env::restore`]): the state in bincode (serde) behind a header naming the
//! format, the game and its rules, with a checksum; a restored environment
//! continues exactly as the original would.
//!
//! ```
//! use bones_env::{Env, Episode, Doubles, Game};
//!
//! let game = Doubles::default();
//! let mut env = Env::new(game, Episode::Game);
//! env.reset(3);
//! let bytes = env.save();
//! let mut copy = Env::restore(game, &bytes).unwrap();
//! let a = env.last().legal.iter().next().unwrap();
//! assert_eq!(env.step(a).unwrap(), copy.step(a).unwrap());
//! assert!(Env::restore(game, &bytes[..10]).is_err());
//! ```

use crate::action::ActionMask;
use crate::game::{Action, Episode, Game, GameState};
use serde::{Deserialize, Serialize};

/// What the environment returns after `reset` and `step`.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeStep {
    /// The seat to act now (None when the episode is over).
    pub seat: Option<usize>,
    /// The acting seat's observation (all zeros when the episode is over).
    pub obs: Vec<f32>,
    /// The acting seat's legal actions.
    pub legal: ActionMask,
    /// Reward of each seat since it last acted (zero-sum).
    pub rewards: [f32; 4],
    /// The episode ended by the rules.
    pub terminated: bool,
    /// The episode was cut off by `max_steps`.
    pub truncated: bool,
    /// Decisions taken in this episode.
    pub steps: u32,
}

impl TimeStep {
    /// The legal mask as 0/1 floats of length `num_actions`.
    pub fn mask_f32(&self, num_actions: usize) -> Vec<f32> {
        let mut m = vec![0.0; num_actions];
        self.legal.write_f32(&mut m);
        m
    }
}

/// Why a step was refused (the environment is unchanged).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EnvError {
    /// The action is not legal now.
    #[error("illegal action `{action}` (id {id}); legal: {legal}")]
    Illegal {
        /// Action id.
        id: Action,
        /// Its name (or `?` when out of range).
        action: String,
        /// The legal action names, comma separated.
        legal: String,
    },
    /// `step` after the episode ended, before `reset`.
    #[error("the episode is over: call reset")]
    EpisodeOver,
    /// Saved bytes that could not be restored.
    #[error(transparent)]
    Restore(#[from] RestoreError),
}

/// Why saved bytes could not be restored ([`Env::restore`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The bytes do not start with the header of a saved environment.
    #[error("not a saved bones environment: the bytes do not start with the right header (`BONESENV`, `BONESVEC`)")]
    NotASave,
    /// Saved in another version of the format.
    #[error("the environment was saved in format version {found}; this build reads version {expected}")]
    Version {
        /// The version of the bytes.
        found: u32,
        /// The version this build writes and reads.
        expected: u32,
    },
    /// The checksum does not match: the bytes were damaged or cut short.
    #[error("the saved environment is damaged or cut short (checksum mismatch)")]
    Checksum,
    /// The payload does not decode as this game's environment.
    #[error("the saved environment cannot be decoded: {0}")]
    Decode(String),
    /// The bytes hold another game, or the same game under other rules.
    #[error("the saved environment is {found}, not {expected}")]
    WrongGame {
        /// The game (and rules) asked for.
        expected: String,
        /// The game (and rules) of the bytes.
        found: String,
    },
}

/// The first bytes of a saved environment.
pub(crate) const SAVE_MAGIC: &[u8; 8] = b"BONESENV";
/// Version of the saved-environment format.
pub const SAVE_VERSION: u32 = 1;

/// What [`Env::save`] writes after the header (bincode, standard config).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct Snapshot<S: GameState> {
    episode: Episode,
    max_steps: Option<u32>,
    state: S,
    pending: [f32; 4],
    seat: Option<usize>,
    legal: ActionMask,
    rewards: [f32; 4],
    terminated: bool,
    truncated: bool,
    steps: u32,
}

/// FNV-1a over the payload (detects damaged or truncated saves).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The game and its rules as a save names them: `texas42 {"preset":…}`.
pub(crate) fn game_label<G: Game>(game: &G) -> String {
    format!("{} {}", game.name(), game.rules_json())
}

/// A save: `magic`, the format version, a checksum, then in bincode the
/// game's `label` and `value`.
pub(crate) fn seal<T: Serialize>(magic: &[u8; 8], label: &str, value: &T) -> Vec<u8> {
    let config = bincode::config::standard();
    let mut payload = bincode::serde::encode_to_vec(label, config).expect("a string always encodes");
    payload.extend(bincode::serde::encode_to_vec(value, config).expect("plain data always encodes"));
    let mut out = Vec::with_capacity(payload.len() + 20);
    out.extend_from_slice(magic);
    out.extend_from_slice(&SAVE_VERSION.to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Reads what [`seal`] wrote, checking the header, the checksum and that the
/// save is of the game `label`.
pub(crate) fn unseal<T: serde::de::DeserializeOwned>(
    magic: &[u8; 8],
    label: &str,
    bytes: &[u8],
) -> Result<T, RestoreError> {
    if bytes.len() < 20 || &bytes[..8] != magic {
        return Err(RestoreError::NotASave);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != SAVE_VERSION {
        return Err(RestoreError::Version { found: version, expected: SAVE_VERSION });
    }
    let sum = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let payload = &bytes[20..];
    if checksum(payload) != sum {
        return Err(RestoreError::Checksum);
    }
    let config = bincode::config::standard();
    let decode = |e: bincode::error::DecodeError| RestoreError::Decode(e.to_string());
    let (found, used): (String, usize) = bincode::serde::decode_from_slice(payload, config).map_err(decode)?;
    if found != label {
        return Err(RestoreError::WrongGame { expected: label.to_string(), found });
    }
    let rest = &payload[used..];
    let (value, used): (T, usize) = bincode::serde::decode_from_slice(rest, config).map_err(decode)?;
    if used != rest.len() {
        return Err(RestoreError::Decode(format!("{} bytes left over", rest.len() - used)));
    }
    Ok(value)
}

/// A single environment over a game.
pub struct Env<G: Game> {
    game: G,
    episode: Episode,
    /// Truncate episodes after this many decisions (None: never).
    pub max_steps: Option<u32>,
    state: G::State,
    pending: [f32; 4],
    last: TimeStep,
}

impl<G: Game> Env<G> {
    /// An environment of `game`; episodes are hands (rounds) or whole games.
    pub fn new(game: G, episode: Episode) -> Env<G> {
        let state = game.new_state(0, episode);
        let last = TimeStep {
            seat: None,
            obs: vec![0.0; game.obs_len()],
            legal: ActionMask::EMPTY,
            rewards: [0.0; 4],
            terminated: true,
            truncated: false,
            steps: 0,
        };
        Env { game, episode, max_steps: None, state, pending: [0.0; 4], last }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The current state (full information: for agents' own use, not for learners).
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The last `TimeStep` (after `reset` or `step`).
    pub fn last(&self) -> &TimeStep {
        &self.last
    }

    /// One episode or a whole game.
    pub fn episode(&self) -> Episode {
        self.episode
    }

    /// A copy of this environment with its state replaced by `state`, which
    /// the caller keeps consistent with this one (e.g. the hidden dominoes
    /// resampled for one seat): the episode, `max_steps`, the outstanding
    /// rewards and the step count are kept; the seat to act, its legal actions
    /// and observation and the end of the episode are read from `state`.
    pub fn with_state(&self, state: G::State) -> Env<G> {
        let mut last = self.last.clone();
        last.seat = state.current_seat();
        last.legal = state.legal_mask();
        last.terminated = state.is_terminal();
        match last.seat {
            Some(s) => state.observe(s, &mut last.obs),
            None => last.obs.fill(0.0),
        }
        Env {
            game: self.game.clone(),
            episode: self.episode,
            max_steps: self.max_steps,
            state,
            pending: self.pending,
            last,
        }
    }

    /// Saves the environment (state, outstanding rewards, last `TimeStep`,
    /// `max_steps`) as bytes that [`Env::restore`] reads back.
    pub fn save(&self) -> Vec<u8> {
        let t = &self.last;
        let snap = Snapshot {
            episode: self.episode,
            max_steps: self.max_steps,
            state: self.state.clone(),
            pending: self.pending,
            seat: t.seat,
            legal: t.legal,
            rewards: t.rewards,
            terminated: t.terminated,
            truncated: t.truncated,
            steps: t.steps,
        };
        seal(SAVE_MAGIC, &game_label(&self.game), &snap)
    }

    /// An environment of `game` restored from [`Env::save`]'s bytes: it
    /// continues exactly as the saved one would. Bytes of another game or
    /// other rules, of another format version, or damaged, are a
    /// [`RestoreError`] (as [`EnvError::Restore`]).
    pub fn restore(game: G, bytes: &[u8]) -> Result<Env<G>, EnvError> {
        let snap: Snapshot<G::State> = unseal(SAVE_MAGIC, &game_label(&game), bytes)?;
        let mut last = TimeStep {
            seat: snap.seat,
            obs: vec![0.0; game.obs_len()],
            legal: snap.legal,
            rewards: snap.rewards,
            terminated: snap.terminated,
            truncated: snap.truncated,
            steps: snap.steps,
        };
        if let Some(s) = last.seat {
            snap.state.observe(s, &mut last.obs);
        }
        Ok(Env {
            game,
            episode: snap.episode,
            max_steps: snap.max_steps,
            state: snap.state,
            pending: snap.pending,
            last,
        })
    }

    /// Starts a new episode dealt from `seed`.
    pub fn reset(&mut self, seed: u64) -> &TimeStep {
        self.state = self.game.new_state(seed, self.episode);
        self.pending = [0.0; 4];
        self.last.steps = 0;
        self.last.rewards = [0.0; 4];
        self.last.truncated = false;
        self.refresh();
        &self.last
    }

    /// Applies the acting seat's action.
    pub fn step(&mut self, action: Action) -> Result<&TimeStep, EnvError> {
        if self.last.terminated || self.last.truncated {
            return Err(EnvError::EpisodeOver);
        }
        if let Err(e) = self.state.apply(action) {
            let names: Vec<&str> = e.legal.iter().map(|a| self.game.action_name(a)).collect();
            let action = if action < self.game.num_actions() { self.game.action_name(action) } else { "?" };
            return Err(EnvError::Illegal { id: e.action, action: action.to_string(), legal: names.join(", ") });
        }
        let r = self.state.rewards();
        for (p, r) in self.pending.iter_mut().zip(r) {
            *p += r;
        }
        self.last.steps += 1;
        self.refresh();
        if !self.last.terminated && self.max_steps.is_some_and(|m| self.last.steps >= m) {
            self.last.truncated = true;
        }
        Ok(&self.last)
    }

    fn refresh(&mut self) {
        let t = &mut self.last;
        t.terminated = self.state.is_terminal();
        t.seat = self.state.current_seat();
        t.legal = self.state.legal_mask();
        match t.seat {
            Some(s) => self.state.observe(s, &mut t.obs),
            None => t.obs.fill(0.0),
        }
        t.rewards = self.pending;
        if let Some(s) = t.seat {
            // The acting seat collects its reward now; it starts afresh.
            self.pending[s] = 0.0;
        } else {
            self.pending = [0.0; 4];
        }
    }
}
