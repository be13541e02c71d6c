//! Batched inference on the policy's inference copy (`model.valid()`, no
//! autodiff): one forward pass for many games, then masked sampling (or the
//! greedy action) on the CPU with the caller's seeded generator.

use crate::model::{Critic, Policy};
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

/// Runs the policy on a batch. `obs`: rows of `obs_len`; `masks`: rows of
/// `num_actions` 0/1 floats (every row needs a legal action). Samples when `rng`
/// is given, else takes the most probable legal action (lowest id on ties).
pub fn decide(
    model: &Policy,
    device: &Device,
    obs: &[f32],
    masks: &[f32],
    num_actions: usize,
    mut rng: Option<&mut ChaCha8Rng>,
) -> Vec<Decision> {
    let rows = masks.len() / num_actions;
    if rows == 0 {
        return Vec::new();
    }
    let obs_len = obs.len() / rows;
    let x = Tensor::<2>::from_data(TensorData::new(obs.to_vec(), [rows, obs_len]), device);
    let (logits, values) = model.forward(x);
    let logits: Vec<f32> = logits.into_data().try_to_vec::<f32>().expect("f32 logits");
    let values: Vec<f32> = values.into_data().try_to_vec::<f32>().expect("f32 values");
    (0..rows)
        .map(|r| {
            let l = &logits[r * num_actions..(r + 1) * num_actions];
            let m = &masks[r * num_actions..(r + 1) * num_actions];
            let (action, logp) = choose(l, m, rng.as_deref_mut());
            Decision { action, logp, value: values[r] }
        })
        .collect()
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
