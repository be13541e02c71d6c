//! bones-train: PPO self-play on burn for the Bones games. The network, its
//! folders and its agent are bones-policy's; this crate trains it.
//!
//! - [`config`]: every hyperparameter of a run ([`TrainConfig`]), presets.
//! - [`rollout`]: multi-agent rollout storage and GAE per seat.
//! - `collector`: a share of the games and the rollouts it plays (the whole
//!   run's, or one actor-learner worker's).
//! - [`ppo`]: the clipped-surrogate loss and the update over epochs and minibatches.
//! - [`critic`]: the oracle critic and its input (every hidden hand).
//! - [`training`]: a run's steps (setup, update, pool, eval, checkpoints).
//! - `schedule`: the one actor-learner schedule (which weights play which
//!   rollout) and the transport it drives, for the synchronous loop's one
//!   rollout slot in process, worker threads (`worker`) and remote workers.
//! - `networks`: the networks being trained with their optimizer, and their
//!   start (fresh, `init`, resumed).
//! - [`eval`]: evaluation against baselines during training.
//! - [`checkpoint`], [`log`]: atomic checkpoints, TensorBoard.
//! - [`profile`]: where a run's time goes, and its peak memory.
//! - [`remote`]: the actor-learner's learner and rollout workers as halves
//!   that trade bytes through a [`remote::ByteTransport`] (for other
//!   processes and machines: the Python package, Ray).

#![warn(missing_docs)]

pub mod checkpoint;
mod collector;
pub mod config;
pub mod critic;
mod error;
pub mod eval;
mod layout;
pub mod log;
mod networks;
pub mod ppo;
pub mod profile;
pub mod remote;
pub mod rollout;
mod schedule;
pub mod training;
mod worker;

pub use config::TrainConfig;
pub use layout::train;
pub use training::{Summary, TrainError};
