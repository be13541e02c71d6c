//! The PPO loss of a minibatch, a pure function of the networks' outputs and
//! the minibatch's targets.

use super::columns::Targets;
use super::stats::LossParts;
use crate::config::TrainConfig;
use burn::prelude::*;

/// What the networks said about a minibatch.
pub(super) struct Outputs {
    /// Log-probabilities over the actions, masked to the legal ones (`[mb, num_actions]`).
    pub logp_all: Tensor<2>,
    /// The policy's value head (`[mb, 1]`).
    pub value: Tensor<2>,
    /// The oracle critic's values (`[mb, 1]`), when there is one.
    pub critic_value: Option<Tensor<2>>,
}

/// A minibatch's loss to minimise, and the parts it reports (one element
/// each, on the inner device).
pub(super) struct Losses {
    /// The loss.
    pub total: Tensor<1>,
    /// What it reports.
    pub parts: LossParts<Tensor<1>>,
}

/// The PPO loss of a minibatch, as in CleanRL's ppo.py: the clipped surrogate
/// on the (normalised) advantages, minus `ent_coef` × the entropy, plus
/// `vf_coef` × the value loss (clipped around the rollout's values if
/// `clip_vloss`; with an oracle critic the critic's, plus the policy head's
/// unclipped one towards the same returns), plus `teacher_coef` × the
/// cross-entropy against the teacher's actions where it gave one.
pub(super) fn ppo_loss(outputs: Outputs, targets: Targets, cfg: &TrainConfig) -> Losses {
    let Outputs { logp_all, value, critic_value } = outputs;
    let Targets { act, old_logp, adv, ret, old_v, teacher } = targets;
    let adv = if cfg.ppo.norm_adv { normalise(adv) } else { adv };
    let logp = logp_all.clone().gather(1, act);
    let logratio = logp - old_logp;
    let ratio = logratio.clone().exp();

    // Diagnostics (no gradient).
    let r = ratio.clone().detach();
    let approx_kl = (r.clone() - 1.0 - logratio.detach()).mean();
    let clipfrac = (r - 1.0).abs().greater_elem(cfg.ppo.clip_coef).float().mean();

    let pg1 = adv.clone().neg() * ratio.clone();
    let pg2 = adv.neg() * ratio.clamp(1.0 - cfg.ppo.clip_coef, 1.0 + cfg.ppo.clip_coef);
    let pg_loss = pg1.max_pair(pg2).mean();
    let clip = cfg.ppo.clip_vloss.then_some((old_v, cfg.ppo.clip_coef));
    // The loss of the critic giving the advantages, plus (oracle) the policy's own head.
    let (v_loss, head_loss) = match critic_value {
        Some(cv) => (value_loss(cv, ret.clone(), clip), Some(value_loss(value, ret, None))),
        None => (value_loss(value, ret, clip), None),
    };
    // Imitation of the teacher: cross-entropy over the decisions it labelled.
    let teacher_loss = teacher.map(|(t_act, labelled)| {
        (logp_all.clone().gather(1, t_act).neg() * labelled.clone()).sum() / labelled.sum().clamp_min(1.0)
    });
    let device = logp_all.device();
    let entropy = (logp_all.clone().exp() * logp_all).sum_dim(1).neg().mean();
    let mut total = pg_loss.clone() - entropy.clone() * cfg.ppo.ent_coef + v_loss.clone() * cfg.ppo.vf_coef;
    if let Some(h) = head_loss {
        total = total + h * cfg.ppo.vf_coef;
    }
    let teacher_loss = match teacher_loss {
        Some(t) => {
            total = total + t.clone() * cfg.ppo.teacher_coef;
            t.detach()
        }
        None => Tensor::zeros([1], &device),
    };
    let parts = LossParts { policy_loss: pg_loss, value_loss: v_loss, entropy, approx_kl, clipfrac, teacher_loss };
    Losses { total, parts: parts.map(|t| t.inner()) }
}

/// `adv` normalised to mean 0 and (sample) standard deviation 1, on the device.
fn normalise(adv: Tensor<2>) -> Tensor<2> {
    let b = adv.dims()[0];
    if b < 2 {
        return adv;
    }
    let centred = adv.clone() - adv.mean().reshape([1, 1]);
    let sd = (centred.clone().powi_scalar(2).sum() / (b - 1) as f32).sqrt().reshape([1, 1]);
    centred / (sd + 1e-8)
}

/// Half the mean squared error of `value` against `ret`; with `clip = (old_v,
/// c)` the clipped form around the rollout's values `old_v`.
fn value_loss(value: Tensor<2>, ret: Tensor<2>, clip: Option<(Tensor<2>, f32)>) -> Tensor<1> {
    match clip {
        Some((old_v, c)) => {
            let unclipped = (value.clone() - ret.clone()).powi_scalar(2);
            let clipped = old_v.clone() + (value - old_v).clamp(-c, c);
            let clipped = (clipped - ret).powi_scalar(2);
            unclipped.max_pair(clipped).mean() * 0.5
        }
        None => (value - ret).powi_scalar(2).mean() * 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(v: &[f32], device: &Device) -> Tensor<2> {
        Tensor::<2>::from_data(TensorData::new(v.to_vec(), [v.len(), 1]), device)
    }

    fn assert_close(got: f32, want: f32) {
        assert!((got - want).abs() < 1e-6, "{got} != {want}");
    }

    #[test]
    fn the_clipped_value_loss_takes_the_larger_error_of_each_sample() {
        let device = Device::flex();
        let loss = |value: &[f32], ret: &[f32], clip: Option<(&[f32], f32)>| {
            let clip = clip.map(|(old, c)| (col(old, &device), c));
            value_loss(col(value, &device), col(ret, &device), clip).into_scalar::<f32>()
        };
        // Clip range 0.2 around the rollout's values `old`:
        // a: old 0, value 0.5, return 1: unclipped (0.5 - 1)^2 = 0.25; clipped value
        //    0 + 0.2, (0.2 - 1)^2 = 0.64: the clipped branch wins.
        // b: old 0, value 0.5, return 0: unclipped 0.25; clipped (0.2 - 0)^2 = 0.04:
        //    the unclipped branch wins.
        // c: old 1, value 1.1, return 2: inside the range, both (1.1 - 2)^2 = 0.81.
        let (value, ret, old) = ([0.5, 0.5, 1.1], [1.0, 0.0, 2.0], [0.0, 0.0, 1.0]);
        assert_close(loss(&value[..1], &ret[..1], Some((&old[..1], 0.2))), 0.5 * 0.64);
        assert_close(loss(&value[1..2], &ret[1..2], Some((&old[1..2], 0.2))), 0.5 * 0.25);
        // Half the mean: 0.5 * (0.64 + 0.25 + 0.81) / 3 = 0.2833…
        assert_close(loss(&value, &ret, Some((&old, 0.2))), 0.5 * (0.64 + 0.25 + 0.81) / 3.0);
        // Unclipped: 0.5 * (0.25 + 0.25 + 0.81) / 3 = 0.2183…
        assert_close(loss(&value, &ret, None), 0.5 * (0.25 + 0.25 + 0.81) / 3.0);
    }

    #[test]
    fn advantages_are_normalised_with_the_sample_deviation() {
        let device = Device::flex();
        let adv = [1.0f32, 2.0, 3.0, 6.0];
        // Mean 3; deviations -2, -1, 0, 3; sample variance (4 + 1 + 0 + 9) / 3.
        let sd = (14.0f32 / 3.0).sqrt();
        let got = normalise(col(&adv, &device)).into_data().try_to_vec::<f32>().unwrap();
        for (g, a) in got.iter().zip(adv) {
            assert_close(*g, (a - 3.0) / (sd + 1e-8));
        }
        // A single sample is left as it is.
        assert_eq!(normalise(col(&[5.0], &device)).into_data().try_to_vec::<f32>().unwrap(), vec![5.0]);
    }
}
