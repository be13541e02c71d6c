//! The PPO update, as in CleanRL's ppo.py: several epochs of shuffled
//! minibatches; advantage normalisation; clipped surrogate; clipped value loss;
//! entropy bonus; Adam; global gradient-norm clipping (computed here: burn's own
//! clipping is per tensor).
//!
//! With an oracle critic the stored values (and so the advantages) are the
//! critic's; the critic takes the clipped value loss, the policy's own value head
//! an unclipped one towards the same returns (it is what export and `bones
//! serve` report), and each network's gradient is clipped to `max_grad_norm` on
//! its own. One Adam serves both (its state is kept per parameter).

use crate::config::TrainConfig;
use crate::model::{Critic, Policy};
use crate::rollout::Rollout;
use burn::module::{ModuleVisitor, Param};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// What one update measured (CleanRL's `losses/…`).
#[derive(Clone, Copy, Debug, Default)]
pub struct UpdateStats {
    /// Clipped surrogate loss.
    pub policy_loss: f32,
    /// Value loss of the critic giving the advantages (half mean squared error,
    /// clipped if configured).
    pub value_loss: f32,
    /// Mean policy entropy over legal actions.
    pub entropy: f32,
    /// Approximate KL between the old and new policy ((r-1) - log r).
    pub approx_kl: f32,
    /// Share of samples whose ratio left the clip range.
    pub clipfrac: f32,
    /// 1 - Var(returns - values) / Var(returns).
    pub explained_variance: f32,
    /// Global gradient norm before clipping (last minibatch).
    pub grad_norm: f32,
    /// Minibatches taken.
    pub minibatches: usize,
}

/// Per-minibatch statistics summed over an update, averaged into [`UpdateStats`] at the end.
#[derive(Clone, Copy, Debug, Default)]
struct LossSums {
    policy_loss: f32,
    value_loss: f32,
    entropy: f32,
    approx_kl: f32,
    clipfrac: f32,
}

impl LossSums {
    /// Writes the means over `stats.minibatches` into `stats`.
    fn average_into(self, stats: &mut UpdateStats) {
        let k = stats.minibatches.max(1) as f32;
        stats.policy_loss = self.policy_loss / k;
        stats.value_loss = self.value_loss / k;
        stats.entropy = self.entropy / k;
        stats.approx_kl = self.approx_kl / k;
        stats.clipfrac = self.clipfrac / k;
    }
}

/// Sum of squared gradient entries over every parameter.
struct GradNorm<'a> {
    grads: &'a GradientsParams,
    sum: f32,
}

impl ModuleVisitor for GradNorm<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            self.sum += g.powi_scalar(2).sum().into_scalar::<f32>();
        }
    }
}

/// Multiplies every gradient by `scale`.
struct GradScale<'a> {
    grads: &'a mut GradientsParams,
    scale: f32,
}

impl ModuleVisitor for GradScale<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.remove::<D>(param.id) {
            self.grads.register::<D>(param.id, g.mul_scalar(self.scale));
        }
    }
}

/// Clips the global norm of `grads` to `max_norm`; returns the norm before clipping.
pub fn clip_global_norm<M: Module>(model: &M, grads: &mut GradientsParams, max_norm: f32) -> f32 {
    let mut norm = GradNorm { grads, sum: 0.0 };
    model.visit(&mut norm);
    let total = norm.sum.sqrt();
    if max_norm > 0.0 && total > max_norm {
        let mut scale = GradScale { grads, scale: max_norm / (total + 1e-6) };
        model.visit(&mut scale);
    }
    total
}

fn explained_variance(values: &[f32], returns: &[f32]) -> f32 {
    let n = returns.len().max(1) as f32;
    let mean = |v: &mut dyn Iterator<Item = f32>| v.sum::<f32>() / n;
    let mr = mean(&mut returns.iter().copied());
    let var_r = mean(&mut returns.iter().map(|r| (r - mr) * (r - mr)));
    let diff: Vec<f32> = returns.iter().zip(values).map(|(r, v)| r - v).collect();
    let md = mean(&mut diff.iter().copied());
    let var_d = mean(&mut diff.iter().map(|d| (d - md) * (d - md)));
    if var_r == 0.0 {
        f32::NAN
    } else {
        1.0 - var_d / var_r
    }
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

/// One PPO update of `model` and the oracle `critic`, if any (both on an
/// autodiff device), from `rollout`.
#[allow(clippy::too_many_arguments)]
pub fn update(
    mut model: Policy,
    mut critic: Option<Critic>,
    optim: &mut ModuleOptimizer,
    rollout: &Rollout,
    advantages: &[f32],
    returns: &[f32],
    cfg: &TrainConfig,
    lr: f64,
    device: &Device,
    rng: &mut ChaCha8Rng,
) -> (Policy, Option<Critic>, UpdateStats) {
    let n = rollout.len();
    let (ol, na, orl) = (rollout.obs_len, rollout.num_actions, rollout.oracle_len);
    let values: Vec<f32> = rollout.steps.iter().map(|t| t.value).collect();
    let mut stats = UpdateStats { explained_variance: explained_variance(&values, returns), ..UpdateStats::default() };
    if n == 0 {
        return (model, critic, stats);
    }
    let mb_size = n.div_ceil(cfg.num_minibatches.max(1)).max(1);
    let mut order: Vec<usize> = (0..n).collect();
    let mut sums = LossSums::default();
    'epochs: for _ in 0..cfg.update_epochs {
        order.shuffle(rng);
        for mb in order.chunks(mb_size) {
            let b = mb.len();
            let mut obs = Vec::with_capacity(b * ol);
            let mut legal = Vec::with_capacity(b * na);
            let mut hidden = Vec::with_capacity(b * orl);
            let (mut act, mut old_logp, mut adv, mut ret, mut old_v) = (
                Vec::with_capacity(b),
                Vec::with_capacity(b),
                Vec::with_capacity(b),
                Vec::with_capacity(b),
                Vec::with_capacity(b),
            );
            for &i in mb {
                obs.extend_from_slice(&rollout.obs[i * ol..(i + 1) * ol]);
                legal.extend(rollout.masks[i * na..(i + 1) * na].iter().map(|m| *m > 0.5));
                hidden.extend_from_slice(&rollout.oracle[i * orl..(i + 1) * orl]);
                let t = &rollout.steps[i];
                act.push(t.action as i64);
                old_logp.push(t.logp);
                adv.push(advantages[i]);
                ret.push(returns[i]);
                old_v.push(t.value);
            }
            if cfg.norm_adv && b > 1 {
                let m = adv.iter().sum::<f32>() / b as f32;
                let sd = (adv.iter().map(|a| (a - m) * (a - m)).sum::<f32>() / (b - 1) as f32).sqrt();
                for a in &mut adv {
                    *a = (*a - m) / (sd + 1e-8);
                }
            }
            let col = |v: Vec<f32>| Tensor::<2>::from_data(TensorData::new(v, [b, 1]), device);
            let obs = Tensor::<2>::from_data(TensorData::new(obs, [b, ol]), device);
            let legal = Tensor::<2, Bool>::from_data(TensorData::new(legal, [b, na]), device);
            let act = Tensor::<2, Int>::from_data(TensorData::new(act, [b, 1]), device);
            let (old_logp, adv, ret, old_v) = (col(old_logp), col(adv), col(ret), col(old_v));

            let critic_value = critic
                .as_ref()
                .map(|c| c.forward(obs.clone(), Tensor::<2>::from_data(TensorData::new(hidden, [b, orl]), device)));
            let (logp_all, value) = model.masked(obs, legal);
            let logp = logp_all.clone().gather(1, act);
            let logratio = logp - old_logp;
            let ratio = logratio.clone().exp();

            // Diagnostics (no gradient).
            let r = ratio.clone().detach();
            let approx_kl = (r.clone() - 1.0 - logratio.detach()).mean().into_scalar::<f32>();
            let clipfrac = (r - 1.0).abs().greater_elem(cfg.clip_coef).float().mean().into_scalar::<f32>();

            let pg1 = adv.clone().neg() * ratio.clone();
            let pg2 = adv.neg() * ratio.clamp(1.0 - cfg.clip_coef, 1.0 + cfg.clip_coef);
            let pg_loss = pg1.max_pair(pg2).mean();
            let clip = cfg.clip_vloss.then_some((old_v, cfg.clip_coef));
            // The loss of the critic giving the advantages, plus (oracle) the policy's own head.
            let (v_loss, head_loss) = match critic_value {
                Some(cv) => (value_loss(cv, ret.clone(), clip), Some(value_loss(value, ret, None))),
                None => (value_loss(value, ret, clip), None),
            };
            let entropy = (logp_all.clone().exp() * logp_all).sum_dim(1).neg().mean();
            let mut loss = pg_loss.clone() - entropy.clone() * cfg.ent_coef + v_loss.clone() * cfg.vf_coef;
            if let Some(h) = head_loss {
                loss = loss + h * cfg.vf_coef;
            }

            let mut grads = loss.backward();
            let mut policy_grads = GradientsParams::from_module(&mut grads, &model);
            stats.grad_norm = clip_global_norm(&model, &mut policy_grads, cfg.max_grad_norm);
            model = optim.step(lr, model, policy_grads);
            if let Some(c) = critic.take() {
                let mut critic_grads = GradientsParams::from_module(&mut grads, &c);
                clip_global_norm(&c, &mut critic_grads, cfg.max_grad_norm);
                critic = Some(optim.step(lr, c, critic_grads));
            }

            sums.policy_loss += pg_loss.into_scalar::<f32>();
            sums.value_loss += v_loss.into_scalar::<f32>();
            sums.entropy += entropy.into_scalar::<f32>();
            sums.approx_kl += approx_kl;
            sums.clipfrac += clipfrac;
            stats.minibatches += 1;
            if cfg.target_kl > 0.0 && approx_kl > cfg.target_kl {
                break 'epochs;
            }
        }
    }
    sums.average_into(&mut stats);
    (model, critic, stats)
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
    fn explained_variance_matches_hand_computed_values() {
        let returns = [1.0, 2.0, 3.0, 4.0];
        // mean 2.5; Var(returns) = (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25.
        // returns - values = [0, 0, 0, 1]: mean 0.25, Var = (3 * 0.0625 + 0.5625) / 4 = 0.1875;
        // 1 - 0.1875 / 1.25 = 0.85.
        assert_close(explained_variance(&[1.0, 2.0, 3.0, 3.0], &returns), 0.85);
        // Perfect values explain everything; a constant offset too (only the variance counts).
        assert_close(explained_variance(&returns, &returns), 1.0);
        assert_close(explained_variance(&[2.0, 3.0, 4.0, 5.0], &returns), 1.0);
        // Zero values explain nothing: returns - values = returns.
        assert_close(explained_variance(&[0.0; 4], &returns), 0.0);
        // Returns without variance (or none at all): undefined.
        assert!(explained_variance(&[1.0, 2.0, 3.0], &[2.0, 2.0, 2.0]).is_nan());
        assert!(explained_variance(&[], &[]).is_nan());
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

    /// Two parameters whose gradients under [`Tiny::loss`] are known.
    #[derive(Module, Debug)]
    struct Tiny {
        a: Param<Tensor<1>>,
        b: Param<Tensor<2>>,
    }

    impl Tiny {
        fn new(device: &Device) -> Tiny {
            Tiny {
                a: Param::from_data(TensorData::new(vec![0.5f32, -1.0], [2]), device),
                b: Param::from_data(TensorData::new(vec![2.0f32, 3.0], [1, 2]), device),
            }
        }

        /// sum(a * [1, 2]) + sum(b * [[2, 4]]): d/da = [1, 2], d/db = [[2, 4]];
        /// global norm sqrt(1 + 4 + 4 + 16) = 5.
        fn loss(&self, device: &Device) -> Tensor<1> {
            let ca = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0], [2]), device);
            let cb = Tensor::<2>::from_data(TensorData::new(vec![2.0f32, 4.0], [1, 2]), device);
            (self.a.val() * ca).sum() + (self.b.val() * cb).sum()
        }

        fn grads(&self, grads: &GradientsParams) -> (Vec<f32>, Vec<f32>) {
            let a = grads.get::<1>(self.a.id).unwrap().into_data().try_to_vec::<f32>().unwrap();
            let b = grads.get::<2>(self.b.id).unwrap().into_data().try_to_vec::<f32>().unwrap();
            (a, b)
        }
    }

    #[test]
    fn clip_global_norm_scales_every_gradient_by_one_factor() {
        let device = Device::flex().autodiff();
        let tiny = Tiny::new(&device);
        let fresh = || GradientsParams::from_grads(tiny.loss(&device).backward(), &tiny);

        // Norm 5 above the limit 1: every gradient times 1 / (5 + 1e-6).
        let mut grads = fresh();
        assert_close(clip_global_norm(&tiny, &mut grads, 1.0), 5.0);
        let (a, b) = tiny.grads(&grads);
        let s = 1.0 / (5.0 + 1e-6);
        for (got, want) in a.iter().chain(&b).zip([1.0 * s, 2.0 * s, 2.0 * s, 4.0 * s]) {
            assert_close(*got, want);
        }
        let norm: f32 = a.iter().chain(&b).map(|g| g * g).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{norm}");

        // Under the limit, or with clipping off (0): unchanged; the norm is still reported.
        for max_norm in [10.0, 0.0] {
            let mut grads = fresh();
            assert_close(clip_global_norm(&tiny, &mut grads, max_norm), 5.0);
            assert_eq!(tiny.grads(&grads), (vec![1.0, 2.0], vec![2.0, 4.0]));
        }
    }
}
