//! bones-policy from outside: the shipped models' outputs, where they are
//! found, that no shipped file holds a machine's path, the policy-guided
//! search agent and ONNX policies. One test binary, a module per subject.

mod models_search;
mod onnx;
mod search_agent;
mod shipped_models;
mod shipped_paths;
