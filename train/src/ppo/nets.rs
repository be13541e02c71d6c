//! The networks a PPO update trains.

use crate::critic::Critic;
use bones_policy::model::Policy;

/// The networks an update trains: the policy and, with an oracle critic, the
/// critic (both on an autodiff device).
pub struct Nets {
    /// The policy (its value head learns too).
    pub model: Policy,
    /// The oracle critic, when the config has one.
    pub critic: Option<Critic>,
}
