//! bones-policy from outside: the shipped models' outputs, the policy-guided
//! search agent and ONNX policies. One test binary, a module per subject.

mod onnx;
mod search_agent;
mod shipped_models;
