//! Batched inference on the policy's inference copy (`model.valid()`, no
//! autodiff): one forward pass for many games, then masked sampling (or the
//! greedy action) on the CPU with the caller's seeded generator.

use crate::model::PolicyNet;
use crate::sparse::{sparse_on, HostLinear, SparseRows};
use burn::prelude::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One decision: the action, its log-probability under the masked policy, and
/// the value estimate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Decision {
    /// Chosen action id.
    pub action: usize,
    /// log π(action | obs) over the legal actions.
    pub logp: f32,
    /// V(obs).
    pub value: f32,
}

/// A policy ready to act on batches of observations: the inference copy
/// (`model.valid()`) and, on the CPU, a host copy of its input layer, which it
/// computes from the observations' non-zero entries ([`crate::sparse`]).
#[derive(Clone, Debug)]
pub struct Actor {
    model: PolicyNet,
    device: Device,
    input: Option<HostLinear>,
}

impl Actor {
    /// `model` (an inference copy, on `device`) ready to act; sparse on the CPU.
    pub fn new(model: PolicyNet, device: &Device) -> Actor {
        Actor::with_sparse_input(model, device, sparse_on(device))
    }

    /// [`Actor::new`], choosing whether the input layer is computed sparsely
    /// (`sparse`: only on the CPU; otherwise the dense layer on `device`).
    pub fn with_sparse_input(model: PolicyNet, device: &Device, sparse: bool) -> Actor {
        let input = model.input_layer().filter(|_| sparse && sparse_on(device)).map(HostLinear::of);
        Actor { model, device: device.clone(), input }
    }

    /// The network.
    pub fn model(&self) -> &PolicyNet {
        &self.model
    }

    /// Logits (`rows × num_actions`) and values (`rows`) for the observations `obs`.
    pub fn forward(&self, obs: &SparseRows) -> (Vec<f32>, Vec<f32>) {
        let rows = obs.rows();
        let (logits, values) = match &self.input {
            Some(input) => {
                let first = input.forward(obs);
                let first = Tensor::<2>::from_data(TensorData::new(first, [rows, input.outputs]), &self.device);
                self.model.forward_from_input_layer(first)
            }
            None => {
                let x = Tensor::<2>::from_data(TensorData::new(obs.to_dense(), [rows, obs.width()]), &self.device);
                self.model.forward(x)
            }
        };
        let logits: Vec<f32> = logits.into_data().try_to_vec::<f32>().expect("f32 logits");
        let values: Vec<f32> = values.into_data().try_to_vec::<f32>().expect("f32 values");
        (logits, values)
    }
}

/// Runs the policy on a batch. `obs`: one row per decision; `masks`: rows of
/// `num_actions` 0/1 floats (every row needs a legal action). Samples when `rng`
/// is given, else takes the most probable legal action (lowest id on ties).
pub fn decide(
    actor: &Actor,
    obs: &SparseRows,
    masks: &[f32],
    num_actions: usize,
    mut rng: Option<&mut ChaCha8Rng>,
) -> Vec<Decision> {
    let rows = masks.len() / num_actions;
    assert_eq!(obs.rows(), rows, "one observation per mask");
    if rows == 0 {
        return Vec::new();
    }
    let (logits, values) = actor.forward(obs);
    (0..rows)
        .map(|r| {
            let l = &logits[r * num_actions..(r + 1) * num_actions];
            let m = &masks[r * num_actions..(r + 1) * num_actions];
            let (action, logp) = choose(l, m, rng.as_deref_mut());
            Decision { action, logp, value: values[r] }
        })
        .collect()
}

/// Masked softmax over `logits`; samples with `rng` or takes the argmax.
/// Returns (action, log-probability).
pub fn choose(logits: &[f32], mask: &[f32], rng: Option<&mut ChaCha8Rng>) -> (usize, f32) {
    let legal = || logits.iter().zip(mask).enumerate().filter(|(_, (_, m))| **m > 0.5).map(|(a, (l, _))| (a, *l));
    let max = legal().map(|(_, l)| l).fold(f32::NEG_INFINITY, f32::max);
    let z: f64 = legal().map(|(_, l)| ((l - max) as f64).exp()).sum();
    let log_z = max as f64 + z.ln();
    let action = match rng {
        Some(rng) => {
            let mut u = rng.random::<f64>() * z;
            let mut pick = None;
            for (a, l) in legal() {
                pick = Some(a);
                u -= ((l - max) as f64).exp();
                if u <= 0.0 {
                    break;
                }
            }
            pick.expect("a row with a legal action")
        }
        None => legal().fold((usize::MAX, f32::NEG_INFINITY), |b, (a, l)| if l > b.1 { (a, l) } else { b }).0,
    };
    (action, (logits[action] as f64 - log_z) as f32)
}

/// Probabilities of the legal actions of one row: (action, p).
pub fn legal_probs(logits: &[f32], mask: &[f32]) -> Vec<(usize, f32)> {
    let legal: Vec<(usize, f32)> =
        logits.iter().zip(mask).enumerate().filter(|(_, (_, m))| **m > 0.5).map(|(a, (l, _))| (a, *l)).collect();
    let max = legal.iter().map(|(_, l)| *l).fold(f32::NEG_INFINITY, f32::max);
    let z: f64 = legal.iter().map(|(_, l)| ((l - max) as f64).exp()).sum();
    legal.into_iter().map(|(a, l)| (a, (((l - max) as f64).exp() / z) as f32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_sparse_actor_acts_as_the_dense_network() {
        use crate::model::PolicyNetConfig;
        use bones_env::{Episode, Game, Texas42, Texas42Rules, VecEnv};
        let device = Device::flex();
        let game = Texas42::new(Texas42Rules::STANDARD);
        let (ol, na) = (game.obs_len(), game.num_actions());
        let envs = VecEnv::new(game, Episode::Hand, 32, 3, 1);
        let model = PolicyNetConfig::new(ol, na).with_hidden(48).init(&device);
        let obs = SparseRows::from_dense(&envs.obs, ol);
        let sparse = Actor::new(model.clone(), &device);
        let dense = Actor::with_sparse_input(model, &device, false);
        assert!(sparse.input.is_some() && dense.input.is_none());
        let ((ls, vs), (ld, vd)) = (sparse.forward(&obs), dense.forward(&obs));
        for (a, b) in ls.iter().chain(&vs).zip(ld.iter().chain(&vd)) {
            assert!((a - b).abs() <= 1e-5, "sparse {a} vs dense {b}");
        }
        let greedy = |actor: &Actor| decide(actor, &obs, &envs.mask, na, None);
        assert_eq!(
            greedy(&sparse).iter().map(|d| d.action).collect::<Vec<_>>(),
            greedy(&dense).iter().map(|d| d.action).collect::<Vec<_>>()
        );
    }

    #[test]
    fn masked_choice_never_picks_an_illegal_action() {
        let logits = [5.0, 1.0, 0.0, 9.0];
        let mask = [0.0, 1.0, 1.0, 0.0];
        let (a, lp) = choose(&logits, &mask, None);
        assert_eq!(a, 1);
        let p1 = 1.0f64.exp() / (1.0f64.exp() + 1.0);
        assert!((lp as f64 - p1.ln()).abs() < 1e-6);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut counts = [0; 4];
        for _ in 0..2000 {
            counts[choose(&logits, &mask, Some(&mut rng)).0] += 1;
        }
        assert_eq!(counts[0] + counts[3], 0);
        assert!((counts[1] as f64 / 2000.0 - p1).abs() < 0.05);
        let probs = legal_probs(&logits, &mask);
        assert!((probs.iter().map(|p| p.1).sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
