//! The oracle critic (training only): a value network over the seat's
//! observation plus every hand the seat cannot see ([`write_oracle`]), used for
//! the advantages when the config's `critic` is `oracle`. The policy never sees
//! its input; it acts from the seat's view.

use bones_env::GameState;
use bones_policy::model::{hidden_layers, relu_stack};
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

/// Floats of the oracle critic's hidden-hand input: three other seats × 28 dominoes.
pub const ORACLE_LEN: usize = 3 * 28;

/// What `seat` cannot see, for the oracle critic only: the dominoes now in the
/// other seats' hands, one 28-float 0/1 set per seat in turn order after `seat`
/// (an absent seat writes zeros). `out` has [`ORACLE_LEN`] floats.
pub fn write_oracle<S: GameState>(state: &S, players: usize, seat: usize, out: &mut [f32]) {
    let hands = state.seat_hands();
    out.fill(0.0);
    for k in 1..players {
        let set = hands[(seat + k) % players];
        for d in set.iter() {
            out[(k - 1) * 28 + d.index()] = 1.0;
        }
    }
}

/// Shape of the oracle critic.
#[derive(Config, Debug, PartialEq)]
pub struct CriticConfig {
    /// Input length: the observation's plus the hidden information's.
    pub input: usize,
    /// Width of each hidden layer.
    #[config(default = 256)]
    pub hidden: usize,
    /// Number of hidden layers.
    #[config(default = 2)]
    pub depth: usize,
}

/// A value network over the observation and the hands the seat cannot see.
#[derive(Module, Debug)]
pub struct Critic {
    layers: Vec<Linear>,
    value: Linear,
}

impl CriticConfig {
    /// A freshly initialised critic on `device`.
    pub fn init(&self, device: &Device) -> Critic {
        let (layers, width) = hidden_layers(self.input, self.hidden, self.depth, device);
        Critic { layers, value: LinearConfig::new(width, 1).init(device) }
    }
}

impl Critic {
    /// Values.
    ///
    /// `obs`: [batch, obs_len], `hidden`: [batch, oracle_len] → `value` [batch, 1].
    pub fn forward(&self, obs: Tensor<2>, hidden: Tensor<2>) -> Tensor<2> {
        self.value.forward(relu_stack(&self.layers, Tensor::cat(vec![obs, hidden], 1)))
    }
}

/// The oracle critic's values for a batch of `rows`: `obs` and `hidden` hold
/// `rows` rows each, row for row.
pub fn critic_values(critic: &Critic, device: &Device, obs: &[f32], hidden: &[f32], rows: usize) -> Vec<f32> {
    if rows == 0 {
        return Vec::new();
    }
    let matrix = |v: &[f32]| Tensor::<2>::from_data(TensorData::new(v.to_vec(), [rows, v.len() / rows]), device);
    critic.forward(matrix(obs), matrix(hidden)).into_data().try_to_vec::<f32>().expect("f32 values")
}
