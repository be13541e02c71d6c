//! The network. [`PolicyNet`]: an MLP trunk over the observation vector, a policy
//! head (logits over the dense action space, masked to the legal actions before
//! the softmax) and a value head.
//! ([`hidden_layers`] and [`relu_stack`] also build the trainer's oracle critic.)

pub use crate::mlp::{hidden_layers, relu_stack};
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, relu};

/// Shape of the network.
#[derive(Config, Debug, PartialEq)]
pub struct PolicyNetConfig {
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

/// Policy and value heads over a shared MLP trunk (the policy network).
#[derive(Module, Debug)]
pub struct PolicyNet {
    trunk: Vec<Linear>,
    policy: Linear,
    value: Linear,
}

/// Logit given to illegal actions before the softmax.
pub const ILLEGAL_LOGIT: f32 = -1.0e9;

impl PolicyNetConfig {
    /// A freshly initialised network on `device`.
    pub fn init(&self, device: &Device) -> PolicyNet {
        let (trunk, width) = hidden_layers(self.obs_len, self.hidden, self.depth, device);
        PolicyNet {
            trunk,
            policy: LinearConfig::new(width, self.num_actions).init(device),
            value: LinearConfig::new(width, 1).init(device),
        }
    }
}

impl PolicyNet {
    /// Raw logits and values.
    ///
    /// `obs`: [batch, obs_len] → (`logits` [batch, num_actions], `value` [batch, 1]).
    pub fn forward(&self, obs: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let x = relu_stack(&self.trunk, obs);
        (self.policy.forward(x.clone()), self.value.forward(x))
    }

    /// The first trunk layer (the one the observation enters); `None` without
    /// hidden layers.
    pub fn input_layer(&self) -> Option<&Linear> {
        self.trunk.first()
    }

    /// Raw logits and values from the input layer's output (before its ReLU),
    /// as computed elsewhere (see [`crate::sparse`]).
    ///
    /// `first`: [batch, hidden] → (`logits` [batch, num_actions], `value` [batch, 1]).
    pub fn forward_from_input_layer(&self, first: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        assert!(!self.trunk.is_empty(), "a network without hidden layers has no input layer");
        let x = relu_stack(&self.trunk[1..], relu(first));
        (self.policy.forward(x.clone()), self.value.forward(x))
    }

    /// Log-probabilities over the legal actions (illegal ones get about -1e9).
    ///
    /// `obs`: [batch, obs_len], `legal`: [batch, num_actions] (true = legal)
    /// → (`log_probs` [batch, num_actions], `value` [batch, 1]).
    pub fn masked(&self, obs: Tensor<2>, legal: Tensor<2, Bool>) -> (Tensor<2>, Tensor<2>) {
        mask_logits(self.forward(obs), legal)
    }

    /// [`PolicyNet::masked`] from the input layer's output (see
    /// [`PolicyNet::forward_from_input_layer`]).
    pub fn masked_from_input_layer(&self, first: Tensor<2>, legal: Tensor<2, Bool>) -> (Tensor<2>, Tensor<2>) {
        mask_logits(self.forward_from_input_layer(first), legal)
    }
}

/// Log-softmax over the legal actions of (`logits`, `value`); the value passes through.
fn mask_logits((logits, value): (Tensor<2>, Tensor<2>), legal: Tensor<2, Bool>) -> (Tensor<2>, Tensor<2>) {
    (log_softmax(logits.mask_fill(legal.bool_not(), ILLEGAL_LOGIT), 1), value)
}
