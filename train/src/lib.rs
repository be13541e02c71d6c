//! bones-train: PPO self-play on burn for the Bones games. The network, its
//! folders and its agent are bones-policy's; this crate trains it.
//!
//! - [`config`]: every hyperparameter of a run ([`TrainConfig`]), presets.
//! - [`rollout`]: multi-agent rollout storage and GAE per seat.
//! - `collector`: a share of the games and the rollouts it plays (the whole
//!   run's, or one actor-learner worker's).
//! - [`ppo`]: the clipped-surrogate loss and the update over epochs and minibatches.
//! - [`critic`]: the oracle critic and its input (every hidden hand).
//! - [`training`]: the self-play loop (rollouts, updates, pool, eval,
//!   checkpoints), synchronous or as an actor-learner.
//! - `learner`: the networks being trained and their start (fresh, `init`,
//!   resumed); `worker`: the actor-learner's rollout workers and their jobs.
//! - [`eval`]: evaluation against baselines during training.
//! - [`checkpoint`], [`log`]: atomic checkpoints, TensorBoard.
//! - [`profile`]: where a run's time goes, and its peak memory.
//! - [`remote`]: the actor-learner's learner and rollout workers as halves
//!   that trade bytes (for other processes and machines: the Python package, Ray).

#![warn(missing_docs)]

pub mod checkpoint;
mod collector;
pub mod config;
pub mod critic;
mod error;
pub mod eval;
mod learner;
pub mod log;
pub mod ppo;
pub mod profile;
pub mod remote;
pub mod rollout;
pub mod training;
mod worker;

pub use config::TrainConfig;
pub use training::{train, Summary, TrainError};
