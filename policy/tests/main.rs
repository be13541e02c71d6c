//! bones-policy from outside: the shipped models' outputs and the policy-guided
//! search agent. One test binary, a module per subject.

mod search_agent;
mod shipped_models;
