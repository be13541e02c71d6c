//! The policy/value network: an MLP trunk over the observation vector, a policy
//! head (logits over the dense action space, masked to the legal actions before
//! the softmax) and a value head.

use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, relu};

/// Shape of the network.
#[derive(Config, Debug, PartialEq)]
pub struct PolicyConfig {
    /// Length of the observation vector.
    pub obs_len: usize,
    /// Size of the dense action space.
    pub num_actions: usize,
    /// Width of each hidden layer.
    #[config(default = 256)]
    pub hidden: usize,
    /// Number of hidden layers.
    #[config(default = 2)]
    pub depth: usize,
}

/// Policy and value heads over a shared MLP trunk.
#[derive(Module, Debug)]
pub struct Policy {
    trunk: Vec<Linear>,
    policy: Linear,
    value: Linear,
}

/// Logit given to illegal actions before the softmax.
pub const ILLEGAL_LOGIT: f32 = -1.0e9;

impl PolicyConfig {
    /// A freshly initialised network on `device`.
    pub fn init(&self, device: &Device) -> Policy {
        let mut trunk = Vec::with_capacity(self.depth);
        let mut width = self.obs_len;
        for _ in 0..self.depth {
            trunk.push(LinearConfig::new(width, self.hidden).init(device));
            width = self.hidden;
        }
        Policy {
            trunk,
            policy: LinearConfig::new(width, self.num_actions).init(device),
            value: LinearConfig::new(width, 1).init(device),
        }
    }
}

impl Policy {
    /// Raw logits and values.
    ///
    /// `obs`: [batch, obs_len] → (`logits` [batch, num_actions], `value` [batch, 1]).
    pub fn forward(&self, obs: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let mut x = obs;
        for layer in &self.trunk {
            x = relu(layer.forward(x));
        }
        (self.policy.forward(x.clone()), self.value.forward(x))
    }

    /// Log-probabilities over the legal actions (illegal ones get about -1e9).
    ///
    /// `obs`: [batch, obs_len], `legal`: [batch, num_actions] (true = legal)
    /// → (`log_probs` [batch, num_actions], `value` [batch, 1]).
    pub fn masked(&self, obs: Tensor<2>, legal: Tensor<2, Bool>) -> (Tensor<2>, Tensor<2>) {
        let (logits, value) = self.forward(obs);
        (log_softmax(logits.mask_fill(legal.bool_not(), ILLEGAL_LOGIT), 1), value)
    }
}
