//! Bid values: what each contract decision (a bid, a trump) is worth to the
//! seat that makes it, in marks per hand, from that seat's own observation.
//!
//! Two networks of one shape are fitted on disjoint halves of the hands (the
//! trainer's bid rounds, bones-train's `bidding`); a choice's value is the
//! lower of their two estimates, so that a bid is not chosen because one fit
//! happens to over-rate it (the winner's curse). In a
//! [`Policy`](crate::model::Policy) that has them they steer the policy head at
//! contract decisions, inside the network: there the logits are the policy
//! head's plus [`BID_LOGIT_SCALE`] × value (the policy tilted by exp(scale ×
//! value), the step that gains most value for its divergence from the
//! policy), so the exported graph, and every front end that runs it, bids by
//! them. The policy head's prior keeps the choices the fits have no records
//! of (which a fit values at whatever it extrapolates) as unlikely as the
//! policy made them.

use crate::mlp::{hidden_layers, relu_stack};
use burn::module::Param;
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

/// Logits per mark of value at a contract decision: a choice worth a quarter
/// mark more is e times as likely, relative to the policy head, where the policy samples.
pub const BID_LOGIT_SCALE: f32 = 4.0;

/// Hidden layers of each of the two networks.
pub const BID_DEPTH: usize = 2;

/// Shape of the bid values.
#[derive(Config, Debug, PartialEq)]
pub struct BidValuesConfig {
    /// Length of the observation vector.
    pub obs_len: usize,
    /// Size of the dense action space (one value per action; only the
    /// contract decisions' are fitted).
    pub num_actions: usize,
    /// Width of each network's hidden layers.
    pub hidden: usize,
    /// The observation columns (`phase_start`, `phase_len`) of which one is 1
    /// while the seat to act chooses a contract (the game's `ContractDecisions`).
    pub phase_start: usize,
    /// Number of those columns.
    pub phase_len: usize,
}

/// One of the two fits: an MLP from the observation to a value per action.
#[derive(Module, Debug)]
pub struct BidFit {
    hidden: Vec<Linear>,
    out: Linear,
}

/// The two fits, and where the observation says a contract is being chosen.
#[derive(Module, Debug)]
pub struct BidValues {
    fits: Vec<BidFit>,
    /// [obs_len, 1]: 1 in the phase columns, else 0 (never trained: the
    /// gate is the observation times it, which every exporter and runtime
    /// takes, where a column slice of a dynamic batch is not).
    phase: Param<Tensor<2>>,
    phase_start: usize,
    phase_len: usize,
}

impl BidValuesConfig {
    /// Freshly initialised networks on `device`.
    pub fn init(&self, device: &Device) -> BidValues {
        let fit = || {
            let (hidden, width) = hidden_layers(self.obs_len, self.hidden, BID_DEPTH, device);
            BidFit { hidden, out: LinearConfig::new(width, self.num_actions).init(device) }
        };
        let mut select = vec![0f32; self.obs_len];
        select[self.phase_start..self.phase_start + self.phase_len].fill(1.0);
        let phase = Tensor::<2>::from_data(TensorData::new(select, [self.obs_len, 1]), device);
        BidValues {
            fits: vec![fit(), fit()],
            phase: Param::from_tensor(phase),
            phase_start: self.phase_start,
            phase_len: self.phase_len,
        }
    }
}

impl BidFit {
    /// `obs`: [batch, obs_len] → values [batch, num_actions].
    pub fn forward(&self, obs: Tensor<2>) -> Tensor<2> {
        self.out.forward(relu_stack(&self.hidden, obs))
    }
}

impl BidValues {
    /// Each fit's values (the trainer fits fit `h` on the hands of half `h`).
    ///
    /// `obs`: [batch, obs_len] → two [batch, num_actions].
    pub fn fits(&self, obs: Tensor<2>) -> [Tensor<2>; 2] {
        [self.fits[0].forward(obs.clone()), self.fits[1].forward(obs)]
    }

    /// Fit `h` (0 or 1).
    pub fn fit(&self, h: usize) -> &BidFit {
        &self.fits[h]
    }

    /// The values: the lower of the two fits' (as `(a + b - |a - b|) / 2`,
    /// operations every ONNX runtime has).
    ///
    /// `obs`: [batch, obs_len] → [batch, num_actions].
    pub fn forward(&self, obs: Tensor<2>) -> Tensor<2> {
        let [a, b] = self.fits(obs);
        (a.clone() + b.clone() - (a - b).abs()) * 0.5
    }

    /// 1 where the observation is of a contract decision, else 0.
    ///
    /// `obs`: [batch, obs_len] → [batch, 1].
    pub fn gate(&self, obs: Tensor<2>) -> Tensor<2> {
        obs.matmul(self.phase.val().detach())
    }

    /// The observation columns (start, count) that say a contract is being chosen.
    pub fn phase_columns(&self) -> (usize, usize) {
        (self.phase_start, self.phase_len)
    }

    /// `logits` plus, in the rows of contract decisions, [`BID_LOGIT_SCALE`]
    /// × value (as `l + s·v·g`: exactly `l` where g is 0).
    ///
    /// `obs`: [batch, obs_len], `logits`: [batch, num_actions] → [batch, num_actions].
    pub fn steer_logits(&self, obs: Tensor<2>, logits: Tensor<2>) -> Tensor<2> {
        let gate = self.gate(obs.clone());
        let values = self.forward(obs) * BID_LOGIT_SCALE;
        logits + values * gate
    }
}
