//! N environments stepped together into flat buffers, with auto-reset and
//! per-env seeds derived from one base seed, optionally across threads.
//!
//! Buffers (row `i` belongs to env `i`): `obs[N*obs_len]`, `mask[N*num_actions]`
//! (0/1 floats), `seats[N]` (the seat to act), `rewards[N*4]` (each seat's reward
//! on this step, zero-sum), `dones[N]` (the episode ended on this step; the env
//! was then reset and its row shows the new episode's first decision).
//! Results are identical for every thread count. A `VecEnv` saves to bytes and
//! restores from them ([`VecEnv::save`], [`VecEnv::restore`]) like [`crate::Env`].

use crate::env::{game_label, seal, unseal, RestoreError};
use crate::game::{Action, Episode, Game, GameState};
use crate::seed::{mix64, GOLDEN_GAMMA};
use serde::{Deserialize, Serialize};

/// The seed of episode `k` of env `i` under base seed `base` (SplitMix64 mix).
pub fn episode_seed(base: u64, env: usize, episode: u64) -> u64 {
    mix64(base ^ (env as u64).wrapping_mul(GOLDEN_GAMMA) ^ episode.wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Why a vector step was refused (no env was changed).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VecEnvError {
    /// Wrong number of actions.
    #[error("expected {expected} actions (one per env), got {got}")]
    WrongLength {
        /// Envs.
        expected: usize,
        /// Actions given.
        got: usize,
    },
    /// An action not legal in its env.
    #[error("env {env}: illegal action id {action}; legal: {legal}")]
    Illegal {
        /// Env index.
        env: usize,
        /// The action id.
        action: Action,
        /// Legal action names.
        legal: String,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct Slot<S: GameState> {
    state: S,
    episodes: u64,
}

/// What [`VecEnv::save`] writes.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct VecSnapshot<S: GameState> {
    episode: Episode,
    base_seed: u64,
    slots: Vec<Slot<S>>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
    episodes_done: u64,
}

const VEC_MAGIC: &[u8; 8] = b"BONESVEC";

/// Many environments of one game in lockstep.
pub struct VecEnv<G: Game> {
    game: G,
    episode: Episode,
    base_seed: u64,
    threads: usize,
    slots: Vec<Slot<G::State>>,
    /// Observations of the seat to act, `N * obs_len`.
    pub obs: Vec<f32>,
    /// Legal masks, `N * num_actions`, 0/1.
    pub mask: Vec<f32>,
    /// Seat to act in each env.
    pub seats: Vec<u8>,
    /// Reward of each seat on the last step, `N * 4`.
    pub rewards: Vec<f32>,
    /// Episode ended (and the env was reset) on the last step.
    pub dones: Vec<bool>,
    /// Episodes finished so far over all envs.
    pub episodes_done: u64,
}

impl<G: Game> VecEnv<G> {
    /// `n` envs of `game`; env `i` plays episodes seeded by `episode_seed(base_seed, i, k)`.
    pub fn new(game: G, episode: Episode, n: usize, base_seed: u64, threads: usize) -> VecEnv<G> {
        let (ol, na) = (game.obs_len(), game.num_actions());
        let slots = (0..n)
            .map(|i| Slot { state: game.new_state(episode_seed(base_seed, i, 0), episode), episodes: 0 })
            .collect();
        let mut v = VecEnv {
            game,
            episode,
            base_seed,
            threads: threads.max(1),
            slots,
            obs: vec![0.0; n * ol],
            mask: vec![0.0; n * na],
            seats: vec![0; n],
            rewards: vec![0.0; n * 4],
            dones: vec![false; n],
            episodes_done: 0,
        };
        v.run(None);
        v
    }

    /// Number of envs.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// No envs.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// One deal or a whole game per episode.
    pub fn episode(&self) -> Episode {
        self.episode
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The state of env `i` (full information).
    pub fn state(&self, i: usize) -> &G::State {
        &self.slots[i].state
    }

    /// Saves every env's state, the last step's rewards and dones, and the
    /// counters as bytes that [`VecEnv::restore`] reads back.
    pub fn save(&self) -> Vec<u8> {
        let snap = VecSnapshot {
            episode: self.episode,
            base_seed: self.base_seed,
            slots: self.slots.iter().map(|s| Slot { state: s.state.clone(), episodes: s.episodes }).collect(),
            rewards: self.rewards.clone(),
            dones: self.dones.clone(),
            episodes_done: self.episodes_done,
        };
        seal(VEC_MAGIC, &game_label(&self.game), &snap)
    }

    /// A `VecEnv` of `game` on `threads` threads restored from
    /// [`VecEnv::save`]'s bytes: it continues exactly as the saved one would.
    pub fn restore(game: G, threads: usize, bytes: &[u8]) -> Result<VecEnv<G>, RestoreError> {
        let snap: VecSnapshot<G::State> = unseal(VEC_MAGIC, &game_label(&game), bytes)?;
        let n = snap.slots.len();
        if snap.rewards.len() != n * 4 || snap.dones.len() != n {
            return Err(RestoreError::Decode("the buffers do not match the number of envs".into()));
        }
        let (ol, na) = (game.obs_len(), game.num_actions());
        let mut v = VecEnv {
            game,
            episode: snap.episode,
            base_seed: snap.base_seed,
            threads: threads.max(1),
            slots: snap.slots,
            obs: vec![0.0; n * ol],
            mask: vec![0.0; n * na],
            seats: vec![0; n],
            rewards: vec![0.0; n * 4],
            dones: vec![false; n],
            episodes_done: snap.episodes_done,
        };
        v.run(None);
        v.rewards = snap.rewards;
        v.dones = snap.dones;
        Ok(v)
    }

    /// Applies one action per env (all validated before any is applied).
    pub fn step(&mut self, actions: &[Action]) -> Result<(), VecEnvError> {
        if actions.len() != self.slots.len() {
            return Err(VecEnvError::WrongLength { expected: self.slots.len(), got: actions.len() });
        }
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            let legal = slot.state.legal_mask();
            if !legal.contains(a) {
                let names: Vec<&str> = legal.iter().map(|a| self.game.action_name(a)).collect();
                return Err(VecEnvError::Illegal { env: i, action: a, legal: names.join(", ") });
            }
        }
        self.run(Some(actions));
        let done = self.dones.iter().filter(|d| **d).count() as u64;
        self.episodes_done += done;
        Ok(())
    }

    /// Steps every env (or just encodes, when `actions` is None) in `threads`
    /// chunks, run as tasks on rayon's thread pool.
    fn run(&mut self, actions: Option<&[Action]>) {
        let (game, episode, base) = (&self.game, self.episode, self.base_seed);
        let (ol, na) = (game.obs_len(), game.num_actions());
        let n = self.slots.len();
        let chunk = n.div_ceil(self.threads).max(1);
        let work = |offset: usize,
                    slots: &mut [Slot<G::State>],
                    obs: &mut [f32],
                    mask: &mut [f32],
                    seats: &mut [u8],
                    rewards: &mut [f32],
                    dones: &mut [bool]| {
            for (j, slot) in slots.iter_mut().enumerate() {
                let i = offset + j;
                let mut done = false;
                rewards[j * 4..j * 4 + 4].fill(0.0);
                if let Some(actions) = actions {
                    slot.state.apply(actions[i]).expect("actions were validated");
                    rewards[j * 4..j * 4 + 4].copy_from_slice(&slot.state.rewards());
                    if slot.state.is_terminal() {
                        done = true;
                        slot.episodes += 1;
                        slot.state = game.new_state(episode_seed(base, i, slot.episodes), episode);
                    }
                }
                dones[j] = done;
                let seat = slot.state.current_seat().unwrap_or(0);
                seats[j] = seat as u8;
                slot.state.observe(seat, &mut obs[j * ol..(j + 1) * ol]);
                slot.state.legal_mask().write_f32(&mut mask[j * na..(j + 1) * na]);
            }
        };
        if self.threads == 1 || n < 2 {
            work(
                0,
                &mut self.slots,
                &mut self.obs,
                &mut self.mask,
                &mut self.seats,
                &mut self.rewards,
                &mut self.dones,
            );
            return;
        }
        // Rayon's pool: its threads persist across steps (a step is a few hundred
        // microseconds; starting threads for each one cost a visible share).
        rayon::scope(|scope| {
            let parts = self
                .slots
                .chunks_mut(chunk)
                .zip(self.obs.chunks_mut(chunk * ol))
                .zip(self.mask.chunks_mut(chunk * na))
                .zip(self.seats.chunks_mut(chunk))
                .zip(self.rewards.chunks_mut(chunk * 4))
                .zip(self.dones.chunks_mut(chunk));
            for (k, (((((slots, obs), mask), seats), rewards), dones)) in parts.enumerate() {
                let work = &work;
                scope.spawn(move |_| work(k * chunk, slots, obs, mask, seats, rewards, dones));
            }
        });
    }
}
