//! bones-policy: a trained Bones policy and everything that runs it outside
//! the trainer (the `bones` program, the Python package, other front ends).
//!
//! - [`model`]: the policy/value network ([`model::PolicyNetConfig`], [`model::PolicyNet`]).
//! - [`sparse`]: the input layer from the observation's non-zero entries (CPU).
//! - [`inference`]: batched masked decisions ([`inference::Actor`], [`inference::decide`]).
//! - [`folder`]: model and checkpoint folders and how to read them.
//! - [`agent`]: a trained policy as an agent (`model:PATH`), and the agent
//!   factory of the tools ([`agent::factory`]).
//! - [`export`]: model folders for other front ends (ONNX, safetensors, model.json).
//! - [`onnx`]: an ONNX network from any framework as a policy (`onnx:PATH`), run by tract.
//! - [`protocol`]: the JSON-lines bot protocol (`bones serve`): requests answered, seat views written and read.

#![warn(missing_docs)]

pub mod agent;
pub mod error;
pub mod export;
pub mod folder;
pub mod inference;
pub mod manifest;
mod mlp;
pub mod model;
pub mod onnx;
pub mod protocol;
pub mod sparse;

pub use agent::{factory, PolicyAgent};
