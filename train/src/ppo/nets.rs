//! The networks a PPO update trains.

use crate::critic::Critic;
use bones_policy::model::PolicyNet;

/// The networks an update trains: the policy and, with an oracle critic, the
/// critic (both on an autodiff device).
pub struct Nets {
    /// The policy (its value head learns too).
    pub model: PolicyNet,
    /// The oracle critic, when the config has one.
    pub critic: Option<Critic>,
}
