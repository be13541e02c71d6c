//! bones-train: PPO self-play on burn for the Bones games, and the pieces the
//! `bones` binary drives (training, evaluation of trained policies, checkpoints).
//!
//! - [`model`]: the policy/value network ([`model::PolicyConfig`], [`model::Policy`]).
//! - [`rollout`]: multi-agent rollout storage and GAE per seat.
//! - [`ppo`]: the clipped-surrogate update with global gradient-norm clipping.
//! - [`training`]: the self-play loop (rollouts, updates, pool, eval, checkpoints).
//! - [`inference`]: batched masked decisions on the inference copy.
//! - [`sparse`]: the input layer from the observation's non-zero entries (CPU).
//! - [`eval`]: evaluation against baselines during training.
//! - [`export`]: model folders for other front ends (ONNX, safetensors, model.json).
//! - [`serve`]: the JSON-lines bot protocol of `bones serve` (request in, reply out).
//! - [`web`]: the browser front end of `bones web` (an HTTP server, the page and its JSON API).
//! - [`config`], [`checkpoint`], [`log`]: configuration, atomic checkpoints, TensorBoard.
//! - [`profile`]: where a run's time goes, and its peak memory.

#![warn(missing_docs)]

pub mod checkpoint;
pub mod config;
pub mod eval;
pub mod export;
pub mod inference;
pub mod log;
pub mod model;
pub mod policy_agent;
pub mod ppo;
pub mod profile;
pub mod rollout;
pub mod serve;
pub mod sparse;
pub mod training;
pub mod web;

pub use config::TrainConfig;
pub use training::{train, Summary, TrainError};
