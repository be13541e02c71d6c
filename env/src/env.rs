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

use crate::action::ActionMask;
use crate::game::{Action, Episode, Game, GameState};

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
