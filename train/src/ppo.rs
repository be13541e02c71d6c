//! The PPO update, as in CleanRL's ppo.py: several epochs of shuffled
//! minibatches; advantage normalisation; clipped surrogate; clipped value loss;
//! entropy bonus; Adam; global gradient-norm clipping (computed here: burn's own
//! clipping is per tensor).
//!
//! [`update`] is the loop over epochs and minibatches; each minibatch is
//! `forward` (the networks' outputs), `ppo_loss` (a pure function of those
//! outputs and the minibatch), `backward` and `optimizer_step`, each timed
//! into the run's profile.
//!
//! With an oracle critic the stored values (and so the advantages) are the
//! critic's; the critic takes the clipped value loss, the policy's own value head
//! an unclipped one towards the same returns (it is what export and `bones
//! serve` report), and each network's gradient is clipped to `max_grad_norm` on
//! its own. One Adam serves both (its state is kept per parameter).
//!
//! The rollout's columns go to the device once per update and each minibatch
//! is selected there; a minibatch reads back one small tensor (its statistics,
//! the gradient norm among them). On the CPU the input layer is computed from
//! the observations' non-zero entries ([`bones_policy::sparse`]).
//!
//! With a label file (config `labels`, see [`crate::labels`]) each minibatch
//! also draws label rows at random (`label_share` per row of its own, 1 by
//! default); they go through the same forward
//! pass (after the rollout's rows) and count only in the teacher's
//! cross-entropy, against their target distributions (the teacher's action,
//! or with `label_temperature` the tilted policy of [`crate::labels::target`]).

use crate::config::TrainConfig;
use crate::critic::Critic;
use crate::labels::LabelSet;
use crate::profile::{Phase, Profile};
use crate::rollout::Rollout;
use bones_policy::model::Policy;
use bones_policy::sparse::{sparse_on, SparseInput};
use burn::module::{ModuleVisitor, Param};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use rand::seq::SliceRandom;
use rand::Rng;
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
    /// Cross-entropy of the policy against the teacher's actions (mean over the
    /// decisions it labelled and the label file's rows drawn; 0 without either).
    pub teacher_loss: f32,
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
    teacher_loss: f32,
}

impl LossSums {
    /// Adds a minibatch's read-back statistics (in [`Losses::parts`] order).
    fn add(&mut self, read: &[f32]) {
        self.policy_loss += read[0];
        self.value_loss += read[1];
        self.entropy += read[2];
        self.approx_kl += read[3];
        self.clipfrac += read[4];
        self.teacher_loss += read[5];
    }

    /// Writes the means over `stats.minibatches` into `stats`.
    fn average_into(self, stats: &mut UpdateStats) {
        let k = stats.minibatches.max(1) as f32;
        stats.policy_loss = self.policy_loss / k;
        stats.value_loss = self.value_loss / k;
        stats.entropy = self.entropy / k;
        stats.approx_kl = self.approx_kl / k;
        stats.clipfrac = self.clipfrac / k;
        stats.teacher_loss = self.teacher_loss / k;
    }
}

/// Sum of squared gradient entries over every parameter, kept on the device.
struct GradNorm<'a> {
    grads: &'a GradientsParams,
    sum: Option<Tensor<1>>,
}

impl ModuleVisitor for GradNorm<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            let sq = g.powi_scalar(2).sum();
            self.sum = Some(match self.sum.take() {
                Some(s) => s + sq,
                None => sq,
            });
        }
    }
}

/// Multiplies every gradient by `scale` (one element, on the device).
struct GradScale<'a> {
    grads: &'a mut GradientsParams,
    scale: Tensor<1>,
}

impl ModuleVisitor for GradScale<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.remove::<D>(param.id) {
            let scale: Tensor<D> = self.scale.clone().reshape([1; D]);
            self.grads.register::<D>(param.id, g * scale);
        }
    }
}

/// Clips the global norm of `grads` to `max_norm` (0: no clipping); returns the
/// norm before clipping (one element). Everything stays on the device: the scale
/// `min(1, max_norm / (norm + 1e-6))` multiplies every gradient (by exactly 1
/// when the norm is within the limit).
pub fn clip_global_norm<M: Module>(model: &M, grads: &mut GradientsParams, max_norm: f32) -> Option<Tensor<1>> {
    let mut norm = GradNorm { grads, sum: None };
    model.visit(&mut norm);
    let total = norm.sum?.sqrt();
    if max_norm > 0.0 {
        let scale = (total.clone() + 1e-6).recip().mul_scalar(max_norm);
        let over = total.clone().greater_elem(max_norm);
        let scale = scale.mask_fill(over.bool_not(), 1.0);
        model.visit(&mut GradScale { grads, scale });
    }
    Some(total)
}

/// The rollout's per-decision columns on the device, uploaded once per update;
/// each minibatch is selected from them there ([`Columns::select`]).
struct Columns {
    /// Dense observations (`[n, obs_len]`), unless the input layer is computed
    /// sparsely and no critic needs them.
    obs: Option<Tensor<2>>,
    /// The oracle critic's hidden-hand inputs (`[n, oracle_len]`).
    hidden: Option<Tensor<2>>,
    /// Legal masks as 0/1 floats (`[n, num_actions]`).
    legal: Tensor<2>,
    /// Actions taken (`[n, 1]`).
    act: Tensor<2, Int>,
    /// Behaviour log-probabilities, advantages, returns, values (`[n, 1]` each).
    old_logp: Tensor<2>,
    adv: Tensor<2>,
    ret: Tensor<2>,
    old_v: Tensor<2>,
    /// The teacher's actions (the action taken where it gave none) and 1/0
    /// for whether it gave one (`[n, 1]` each), when any decision has one.
    teacher: Option<(Tensor<2, Int>, Tensor<2>)>,
}

/// One minibatch, selected on the device: what the networks read ...
struct Minibatch {
    inputs: Inputs,
    targets: Targets,
}

/// ... the networks' inputs ...
struct Inputs {
    obs: Option<Tensor<2>>,
    hidden: Option<Tensor<2>>,
    legal: Tensor<2, Bool>,
    /// Label rows drawn for the minibatch, after its own rows.
    labels: Option<LabelInputs>,
}

/// The label rows of a minibatch: their dense observations (when the input
/// layer is dense) and legal actions; their actions are in [`Targets`].
struct LabelInputs {
    obs: Option<Tensor<2>>,
    legal: Tensor<2, Bool>,
}

/// ... and what the loss compares their outputs with.
struct Targets {
    act: Tensor<2, Int>,
    old_logp: Tensor<2>,
    adv: Tensor<2>,
    ret: Tensor<2>,
    old_v: Tensor<2>,
    teacher: Option<(Tensor<2, Int>, Tensor<2>)>,
    /// The label rows' target distributions (`[lb, num_actions]`).
    labels: Option<Tensor<2>>,
}

impl Columns {
    fn upload(rollout: &Rollout, advantages: &[f32], returns: &[f32], dense_obs: bool, device: &Device) -> Columns {
        let n = rollout.len();
        let matrix = |v: Vec<f32>, width: usize| Tensor::<2>::from_data(TensorData::new(v, [n, width]), device);
        let col = |f: &dyn Fn(usize) -> f32| matrix((0..n).map(f).collect(), 1);
        let steps = &rollout.steps;
        Columns {
            obs: dense_obs.then(|| matrix(rollout.obs.to_dense(), rollout.obs_len)),
            hidden: (rollout.oracle_len > 0).then(|| matrix(rollout.oracle.clone(), rollout.oracle_len)),
            legal: matrix(rollout.masks.clone(), rollout.num_actions),
            act: Tensor::<2, Int>::from_data(
                TensorData::new(steps.iter().map(|t| t.action as i64).collect::<Vec<_>>(), [n, 1]),
                device,
            ),
            old_logp: col(&|i| steps[i].logp),
            adv: col(&|i| advantages[i]),
            ret: col(&|i| returns[i]),
            old_v: col(&|i| steps[i].value),
            teacher: steps.iter().any(|t| t.teacher.is_some()).then(|| {
                let act = steps.iter().map(|t| t.teacher.unwrap_or(t.action) as i64).collect::<Vec<_>>();
                (
                    Tensor::<2, Int>::from_data(TensorData::new(act, [n, 1]), device),
                    col(&|i| steps[i].teacher.is_some() as u8 as f32),
                )
            }),
        }
    }

    /// The rows `rows` of every column.
    fn select(&self, rows: &[usize], device: &Device) -> Minibatch {
        let idx = Tensor::<1, Int>::from_data(
            TensorData::new(rows.iter().map(|&i| i as i64).collect::<Vec<_>>(), [rows.len()]),
            device,
        );
        let pick = |t: &Tensor<2>| t.clone().select(0, idx.clone());
        Minibatch {
            inputs: Inputs {
                obs: self.obs.as_ref().map(pick),
                hidden: self.hidden.as_ref().map(pick),
                legal: pick(&self.legal).greater_elem(0.5),
                labels: None,
            },
            targets: Targets {
                act: self.act.clone().select(0, idx.clone()),
                old_logp: pick(&self.old_logp),
                adv: pick(&self.adv),
                ret: pick(&self.ret),
                old_v: pick(&self.old_v),
                teacher: self.teacher.as_ref().map(|(a, w)| (a.clone().select(0, idx.clone()), pick(w))),
                labels: None,
            },
        }
    }
}

/// How many label rows a minibatch of `rows` rows draws: `share` per row,
/// rounded, at least one.
fn label_draws(rows: usize, share: f32) -> usize {
    ((rows as f64 * share as f64).round() as usize).max(1)
}

/// Adds the label rows `rows` of `labels` to a minibatch: their legal actions
/// and target distributions, and their dense observations unless `sparse`.
fn add_labels(mb: &mut Minibatch, labels: &LabelSet, rows: &[usize], sparse: bool, device: &Device) {
    let (n, na) = (rows.len(), labels.num_actions);
    let legal: Vec<f32> = rows.iter().flat_map(|&r| labels.legal[r * na..(r + 1) * na].iter().copied()).collect();
    let obs = (!sparse).then(|| {
        let dense = labels.obs.select(rows).to_dense();
        Tensor::<2>::from_data(TensorData::new(dense, [n, labels.obs.width()]), device)
    });
    mb.inputs.labels = Some(LabelInputs {
        obs,
        legal: Tensor::<2>::from_data(TensorData::new(legal, [n, na]), device).greater_elem(0.5),
    });
    let target: Vec<f32> = rows.iter().flat_map(|&r| labels.target[r * na..(r + 1) * na].iter().copied()).collect();
    mb.targets.labels = Some(Tensor::<2>::from_data(TensorData::new(target, [n, na]), device));
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

/// The networks an update trains: the policy and, with an oracle critic, the
/// critic (both on an autodiff device).
pub struct Nets {
    /// The policy (its value head learns too).
    pub model: Policy,
    /// The oracle critic, when the config has one.
    pub critic: Option<Critic>,
}

/// What an update learns from: a rollout and its GAE advantages and returns
/// (one per decision).
#[derive(Clone, Copy)]
pub struct Batch<'a> {
    /// The decisions.
    pub rollout: &'a Rollout,
    /// Their advantages.
    pub advantages: &'a [f32],
    /// Their returns (the value targets).
    pub returns: &'a [f32],
}

/// How an update learns: the run's config, this update's learning rate and the device.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    /// Epochs, minibatches, coefficients, clipping.
    pub cfg: &'a TrainConfig,
    /// The learning rate (annealed by the caller).
    pub lr: f64,
    /// Where the networks are.
    pub device: &'a Device,
    /// The run's label file (config `labels`), if it has one.
    pub labels: Option<&'a LabelSet>,
}

/// What the networks said about a minibatch.
struct Outputs {
    /// Log-probabilities over the actions, masked to the legal ones (`[mb, num_actions]`).
    logp_all: Tensor<2>,
    /// The policy's value head (`[mb, 1]`).
    value: Tensor<2>,
    /// Log-probabilities of the label rows (`[lb, num_actions]`), when drawn.
    label_logp: Option<Tensor<2>>,
    /// The oracle critic's values (`[mb, 1]`), when there is one.
    critic_value: Option<Tensor<2>>,
}

/// A minibatch's loss to minimise, and the parts it reports (one element
/// each, on the inner device): policy loss, value loss, entropy, approximate
/// KL, clip fraction, teacher loss.
struct Losses {
    total: Tensor<1>,
    parts: [Tensor<1>; 6],
}

/// The gradients of a minibatch's loss: the policy's (the sparse input
/// layer's included) and the critic's.
struct Grads {
    policy: GradientsParams,
    critic: Option<GradientsParams>,
}

/// One PPO update of the networks from a batch: `update_epochs` passes over
/// shuffled minibatches, each a forward pass, [`ppo_loss`], a backward pass and
/// an Adam step, stopping early past `target_kl`.
pub fn update(
    mut nets: Nets,
    optim: &mut ModuleOptimizer,
    batch: Batch,
    settings: Settings,
    rng: &mut ChaCha8Rng,
    profile: &mut Profile,
) -> (Nets, UpdateStats) {
    let (Batch { rollout, advantages, returns }, Settings { cfg, lr, device, labels }) = (batch, settings);
    let labels = labels.filter(|l| !l.is_empty());
    let n = rollout.len();
    let values: Vec<f32> = rollout.steps.iter().map(|t| t.value).collect();
    let mut stats = UpdateStats { explained_variance: explained_variance(&values, returns), ..UpdateStats::default() };
    if n == 0 {
        return (nets, stats);
    }
    let mb_size = n.div_ceil(cfg.num_minibatches.max(1)).max(1);
    // On the CPU the input layer is computed on the host from the observations'
    // non-zero entries, and its gradients added after the backward pass; other
    // devices take the dense observations, uploaded with the other columns.
    let sparse = cfg.sparse_input && sparse_on(device) && nets.model.input_layer().is_some();
    let dense_obs = !sparse || nets.critic.is_some();
    let columns =
        profile.time(Phase::UpdateForward, || Columns::upload(rollout, advantages, returns, dense_obs, device));
    let mut order: Vec<usize> = (0..n).collect();
    let mut sums = LossSums::default();
    'epochs: for _ in 0..cfg.update_epochs {
        order.shuffle(rng);
        for mb in order.chunks(mb_size) {
            // The label rows of this minibatch: `label_share` per row of its own, drawn at random.
            let label_rows: Vec<usize> = labels
                .map(|l| (0..label_draws(mb.len(), cfg.label_share)).map(|_| rng.random_range(0..l.len())).collect())
                .unwrap_or_default();
            let (input, losses) = profile.time(Phase::UpdateForward, || {
                let mut minibatch = columns.select(mb, device);
                if let Some(l) = labels {
                    add_labels(&mut minibatch, l, &label_rows, sparse, device);
                }
                let Minibatch { inputs, targets } = minibatch;
                let input = (nets.model.input_layer()).filter(|_| sparse).map(|layer| {
                    let mut rows = rollout.obs.select(mb);
                    for &r in &label_rows {
                        rows.push_row(&labels.expect("label rows come from the labels").obs, r);
                    }
                    SparseInput::forward(layer, rows, device)
                });
                let outputs = forward(&nets, inputs, input.as_ref());
                (input, ppo_loss(outputs, targets, cfg))
            });
            let grads = profile.time(Phase::UpdateBackward, || backward(&nets, losses.total, input));
            let (stepped, grad_norm) =
                profile.time(Phase::Optimizer, || optimizer_step(nets, optim, grads, cfg.max_grad_norm, lr));
            nets = stepped;
            // The minibatch's one read back from the device: its statistics.
            let read = profile.time(Phase::Optimizer, || {
                let device_stats = losses.parts.into_iter().chain(grad_norm.map(|g| g.inner())).collect();
                Tensor::cat(device_stats, 0).into_data().try_to_vec::<f32>().expect("f32 statistics")
            });
            sums.add(&read);
            stats.grad_norm = read.get(6).copied().unwrap_or(0.0);
            stats.minibatches += 1;
            if cfg.target_kl > 0.0 && read[3] > cfg.target_kl {
                break 'epochs;
            }
        }
    }
    sums.average_into(&mut stats);
    (nets, stats)
}

/// The networks' outputs for a minibatch: the policy through the sparse input
/// layer's output when `input` is given (the label rows' included), else on
/// the dense observations; the critic on the dense observations and the
/// hidden hands of the minibatch's own rows.
fn forward(nets: &Nets, inputs: Inputs, input: Option<&SparseInput>) -> Outputs {
    let Inputs { obs, hidden, legal, labels } = inputs;
    let critic_value = nets.critic.as_ref().map(|c| {
        let dense = obs.clone().expect("dense observations for the critic");
        c.forward(dense, hidden.expect("the critic's hidden-hand inputs"))
    });
    let n = legal.dims()[0];
    let (legal, dense) = match labels {
        Some(l) => (Tensor::cat(vec![legal, l.legal], 0), obs.zip(l.obs).map(|(o, lo)| Tensor::cat(vec![o, lo], 0))),
        None => (legal, obs),
    };
    let (logp_all, value) = match input {
        Some(input) => nets.model.masked_from_input_layer(input.output(), legal),
        None => nets.model.masked(dense.expect("dense observations"), legal),
    };
    let total = logp_all.dims()[0];
    if total == n {
        return Outputs { logp_all, value, critic_value, label_logp: None };
    }
    Outputs {
        label_logp: Some(logp_all.clone().narrow(0, n, total - n)),
        logp_all: logp_all.narrow(0, 0, n),
        value: value.narrow(0, 0, n),
        critic_value,
    }
}

/// The PPO loss of a minibatch, as in CleanRL's ppo.py: the clipped surrogate
/// on the (normalised) advantages, minus `ent_coef` × the entropy, plus
/// `vf_coef` × the value loss (clipped around the rollout's values if
/// `clip_vloss`; with an oracle critic the critic's, plus the policy head's
/// unclipped one towards the same returns), plus `teacher_coef` × the
/// cross-entropy against the teacher's actions where it gave one and the
/// label rows' targets (one mean over both).
fn ppo_loss(outputs: Outputs, targets: Targets, cfg: &TrainConfig) -> Losses {
    let Outputs { logp_all, value, critic_value, label_logp } = outputs;
    let Targets { act, old_logp, adv, ret, old_v, teacher, labels } = targets;
    let adv = if cfg.norm_adv { normalise(adv) } else { adv };
    let logp = logp_all.clone().gather(1, act);
    let logratio = logp - old_logp;
    let ratio = logratio.clone().exp();

    // Diagnostics (no gradient).
    let r = ratio.clone().detach();
    let approx_kl = (r.clone() - 1.0 - logratio.detach()).mean();
    let clipfrac = (r - 1.0).abs().greater_elem(cfg.clip_coef).float().mean();

    let pg1 = adv.clone().neg() * ratio.clone();
    let pg2 = adv.neg() * ratio.clamp(1.0 - cfg.clip_coef, 1.0 + cfg.clip_coef);
    let pg_loss = pg1.max_pair(pg2).mean();
    let clip = cfg.clip_vloss.then_some((old_v, cfg.clip_coef));
    // The loss of the critic giving the advantages, plus (oracle) the policy's own head.
    let (v_loss, head_loss) = match critic_value {
        Some(cv) => (value_loss(cv, ret.clone(), clip), Some(value_loss(value, ret, None))),
        None => (value_loss(value, ret, clip), None),
    };
    // Imitation of the teacher: cross-entropy over the labelled decisions
    // and the label file's rows together.
    let live = teacher
        .map(|(t_act, labelled)| ((logp_all.clone().gather(1, t_act).neg() * labelled.clone()).sum(), labelled.sum()));
    let drawn = label_logp.zip(labels).map(|(lp, target)| {
        let rows = target.dims()[0] as f32;
        ((lp * target).sum().neg(), Tensor::<1>::from_floats([rows], &logp_all.device()))
    });
    let teacher_loss = match (live, drawn) {
        (Some((a, n)), Some((b, m))) => Some((a + b) / (n + m).clamp_min(1.0)),
        (Some((a, n)), None) | (None, Some((a, n))) => Some(a / n.clamp_min(1.0)),
        (None, None) => None,
    };
    let device = logp_all.device();
    let entropy = (logp_all.clone().exp() * logp_all).sum_dim(1).neg().mean();
    let mut total = pg_loss.clone() - entropy.clone() * cfg.ent_coef + v_loss.clone() * cfg.vf_coef;
    if let Some(h) = head_loss {
        total = total + h * cfg.vf_coef;
    }
    let teacher_loss = match teacher_loss {
        Some(t) => {
            total = total + t.clone() * cfg.teacher_coef;
            t.detach()
        }
        None => Tensor::zeros([1], &device),
    };
    let parts = [pg_loss, v_loss, entropy, approx_kl, clipfrac, teacher_loss].map(|t| t.inner());
    Losses { total, parts }
}

/// The gradients of `loss`: the policy's, with the sparse input layer's added
/// from `input` (computed outside the graph), and the critic's.
fn backward(nets: &Nets, loss: Tensor<1>, input: Option<SparseInput>) -> Grads {
    let mut grads = loss.backward();
    let mut policy = GradientsParams::from_module(&mut grads, &nets.model);
    if let (Some(input), Some(layer)) = (input, nets.model.input_layer()) {
        input.grads(&mut grads, layer, &mut policy);
    }
    let critic = nets.critic.as_ref().map(|c| GradientsParams::from_module(&mut grads, c));
    Grads { policy, critic }
}

/// One Adam step of each network, its gradient clipped to `max_norm` on its
/// own; returns the networks and the policy's gradient norm before clipping.
fn optimizer_step(
    nets: Nets,
    optim: &mut ModuleOptimizer,
    grads: Grads,
    max_norm: f32,
    lr: f64,
) -> (Nets, Option<Tensor<1>>) {
    let (Nets { model, critic }, Grads { policy: mut policy_grads, critic: critic_grads }) = (nets, grads);
    let grad_norm = clip_global_norm(&model, &mut policy_grads, max_norm);
    let model = optim.step(lr, model, policy_grads);
    let critic = match (critic, critic_grads) {
        (Some(c), Some(mut critic_grads)) => {
            clip_global_norm(&c, &mut critic_grads, max_norm);
            Some(optim.step(lr, c, critic_grads))
        }
        (critic, _) => critic,
    };
    (Nets { model, critic }, grad_norm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

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

    /// A rollout of random play in Texas 42 (uniform behaviour log-probabilities,
    /// values from a fixed rule), with its advantages and returns.
    fn random_rollout(envs: usize, steps: usize) -> (Rollout, Vec<f32>, Vec<f32>) {
        use bones_env::{Episode, Game, Texas42, Texas42Rules, VecEnv};
        use bones_policy::sparse::SparseRows;
        use rand::Rng;
        let game = Texas42::new(Texas42Rules::STANDARD);
        let (ol, na) = (game.obs_len(), game.num_actions());
        let mut vec = VecEnv::new(game, Episode::Hand, envs, 5, 1);
        let mut rollout = Rollout::new(envs, ol, na, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..steps {
            let obs = SparseRows::from_dense(&vec.obs, ol);
            let mut actions = vec![0; envs];
            for (e, a) in actions.iter_mut().enumerate() {
                let mask = &vec.mask[e * na..(e + 1) * na];
                let legal: Vec<usize> = (0..na).filter(|&i| mask[i] > 0.5).collect();
                *a = legal[rng.random_range(0..legal.len())];
                let logp = -(legal.len() as f32).ln();
                let value = (e % 3) as f32 * 0.1 - 0.1;
                rollout.push(e, vec.seats[e] as usize, &obs, e, mask, &[], *a, logp, value);
            }
            vec.step(&actions).unwrap();
            for e in 0..envs {
                rollout.reward(e, &vec.rewards[e * 4..e * 4 + 4], vec.dones[e]);
            }
        }
        let (adv, ret) = rollout.advantages(1.0, 0.95);
        (rollout, adv, ret)
    }

    /// Every parameter of `model`, flattened, in visiting order.
    fn parameters(model: &Policy) -> Vec<f32> {
        struct Collect(Vec<f32>);
        impl ModuleVisitor for Collect {
            fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                self.0.extend(param.val().into_data().try_to_vec::<f32>().unwrap());
            }
        }
        let mut c = Collect(Vec::new());
        model.visit(&mut c);
        c.0
    }

    #[test]
    fn the_sparse_input_layer_gives_the_dense_update() {
        let device = Device::flex().autodiff();
        let (rollout, adv, ret) = random_rollout(16, 24);
        // Two epochs of four minibatches, no early stop: later minibatches must
        // see the weights Adam changed with the sparse layer's gradients.
        let base =
            TrainConfig { update_epochs: 2, num_minibatches: 4, target_kl: 0.0, hidden: 64, ..TrainConfig::default() };
        let model =
            bones_policy::model::PolicyConfig::new(rollout.obs_len, rollout.num_actions).with_hidden(64).init(&device);
        let run = |sparse_input: bool| {
            let cfg = TrainConfig { sparse_input, ..base.clone() };
            let mut optim = burn::optim::AdamConfig::new().with_epsilon(1e-5).init();
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let (Nets { model, .. }, stats) = update(
                Nets { model: model.clone(), critic: None },
                &mut optim,
                Batch { rollout: &rollout, advantages: &adv, returns: &ret },
                Settings { cfg: &cfg, lr: 1e-3, device: &device, labels: None },
                &mut rng,
                &mut Profile::default(),
            );
            (parameters(&model), stats)
        };
        let ((sparse_w, sparse), (dense_w, dense)) = (run(true), run(false));
        assert_eq!((sparse.minibatches, dense.minibatches), (8, 8));
        for (what, a, b) in [
            ("policy_loss", sparse.policy_loss, dense.policy_loss),
            ("value_loss", sparse.value_loss, dense.value_loss),
            ("entropy", sparse.entropy, dense.entropy),
            ("approx_kl", sparse.approx_kl, dense.approx_kl),
            // The norm covers every parameter: the sparse layer's gradients were registered.
            ("grad_norm", sparse.grad_norm, dense.grad_norm),
        ] {
            assert!((a - b).abs() <= 1e-5 * b.abs().max(1.0), "{what}: sparse {a} vs dense {b}");
        }
        assert!(sparse.grad_norm > 0.0);
        let before = parameters(&model);
        let moved = before.iter().zip(&sparse_w).filter(|(a, b)| a != b).count();
        assert!(moved > before.len() / 2, "the update moved {moved} of {} parameters", before.len());
        for (i, (a, b)) in sparse_w.iter().zip(&dense_w).enumerate() {
            assert!((a - b).abs() <= 1e-5, "parameter {i}: sparse {a} vs dense {b}");
        }
    }

    /// Labels every other decision of `rollout` with its lowest legal action.
    fn label_lowest_legal(rollout: &mut Rollout) -> Vec<usize> {
        let na = rollout.num_actions;
        let mut labelled = Vec::new();
        for i in (0..rollout.len()).step_by(2) {
            let low = (0..na).find(|&a| rollout.masks[i * na + a] > 0.5).unwrap();
            rollout.steps[i].teacher = Some(low);
            labelled.push(i);
        }
        labelled
    }

    /// The mean of -log pi(teacher action) over `labelled` under `model`.
    fn teacher_cross_entropy(model: &Policy, rollout: &Rollout, labelled: &[usize], device: &Device) -> f32 {
        let (n, ol, na) = (rollout.len(), rollout.obs_len, rollout.num_actions);
        let obs = Tensor::<2>::from_data(TensorData::new(rollout.obs.to_dense(), [n, ol]), device);
        let legal = Tensor::<2>::from_data(TensorData::new(rollout.masks.clone(), [n, na]), device).greater_elem(0.5);
        let (logp, _) = model.masked(obs, legal);
        let logp = logp.into_data().try_to_vec::<f32>().unwrap();
        let sum: f32 = labelled.iter().map(|&i| -logp[i * na + rollout.steps[i].teacher.unwrap()]).sum();
        sum / labelled.len() as f32
    }

    #[test]
    fn the_teacher_loss_is_the_cross_entropy_of_its_labels_and_pulls_the_policy_to_them() {
        let device = Device::flex().autodiff();
        let (mut rollout, adv, ret) = random_rollout(16, 24);
        let labelled = label_lowest_legal(&mut rollout);
        let model =
            bones_policy::model::PolicyConfig::new(rollout.obs_len, rollout.num_actions).with_hidden(64).init(&device);
        let before = teacher_cross_entropy(&model, &rollout, &labelled, &device);
        let run = |teacher_coef: f32, epochs: usize| {
            let cfg = TrainConfig {
                update_epochs: epochs,
                num_minibatches: 1,
                target_kl: 0.0,
                hidden: 64,
                teacher_coef,
                ..TrainConfig::default()
            };
            let mut optim = burn::optim::AdamConfig::new().with_epsilon(1e-5).init();
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let (Nets { model: m, .. }, stats) = update(
                Nets { model: model.clone(), critic: None },
                &mut optim,
                Batch { rollout: &rollout, advantages: &adv, returns: &ret },
                Settings { cfg: &cfg, lr: 3e-3, device: &device, labels: None },
                &mut rng,
                &mut Profile::default(),
            );
            (teacher_cross_entropy(&m, &rollout, &labelled, &device), stats)
        };
        // One minibatch of one epoch: the reported loss is the cross-entropy
        // over the labelled decisions before the step.
        let (_, one) = run(1.0, 1);
        assert!((one.teacher_loss - before).abs() < 1e-4 * before, "{} vs {before}", one.teacher_loss);
        // Imitation pulls the policy towards the labels; without it (weight 0)
        // PPO alone moves it much less. The network's initial weights are not
        // seeded (burn's one global generator is shared by concurrent tests), so
        // the run is long enough to hold for any of them: over 8 epochs the
        // cross-entropy fell to 0.31-0.53 of its start, over 16 to 0.01-0.04.
        let (with, _) = run(5.0, 16);
        let (without, _) = run(0.0, 16);
        assert!(with < 0.2 * before, "cross-entropy {before} -> {with}");
        assert!(with < without - 0.1, "with the teacher {with}, without {without}");
        // No labels: no teacher loss.
        let mut plain = rollout;
        for t in &mut plain.steps {
            t.teacher = None;
        }
        let cfg = TrainConfig { update_epochs: 1, num_minibatches: 1, hidden: 64, ..TrainConfig::default() };
        let mut optim = burn::optim::AdamConfig::new().with_epsilon(1e-5).init();
        let (_, stats) = update(
            Nets { model: model.clone(), critic: None },
            &mut optim,
            Batch { rollout: &plain, advantages: &adv, returns: &ret },
            Settings { cfg: &cfg, lr: 1e-3, device: &device, labels: None },
            &mut ChaCha8Rng::seed_from_u64(1),
            &mut Profile::default(),
        );
        assert_eq!(stats.teacher_loss, 0.0);
    }

    /// A label set of the rows `rows` of `rollout`, each labelled with its
    /// lowest legal action.
    fn lowest_legal_labels(rollout: &Rollout, rows: &[usize]) -> LabelSet {
        split_labels(rollout, rows, 1.0)
    }

    /// A label set of the rows `rows` of `rollout` whose targets give `share`
    /// to the lowest legal action and the rest to the next (when there is one).
    fn split_labels(rollout: &Rollout, rows: &[usize], share: f32) -> LabelSet {
        let na = rollout.num_actions;
        let target = rows.iter().flat_map(|&i| {
            let mut t = vec![0f32; na];
            let mut legal = (0..na).filter(|&a| rollout.masks[i * na + a] > 0.5);
            let first = legal.next().unwrap();
            match legal.next() {
                Some(second) => (t[first], t[second]) = (share, 1.0 - share),
                None => t[first] = 1.0,
            }
            t
        });
        LabelSet {
            obs: rollout.obs.select(rows),
            legal: rows.iter().flat_map(|&i| rollout.masks[i * na..(i + 1) * na].iter().copied()).collect(),
            target: target.collect(),
            num_actions: na,
        }
    }

    /// The log-probabilities of `model` on the rows of `labels`, `num_actions` per row.
    fn label_logp(model: &Policy, labels: &LabelSet, device: &Device) -> Vec<f32> {
        let (n, na) = (labels.len(), labels.num_actions);
        let obs = Tensor::<2>::from_data(TensorData::new(labels.obs.to_dense(), [n, labels.obs.width()]), device);
        let legal = Tensor::<2>::from_data(TensorData::new(labels.legal.clone(), [n, na]), device).greater_elem(0.5);
        model.masked(obs, legal).0.into_data().try_to_vec::<f32>().unwrap()
    }

    /// The mean over `labels` of the cross-entropy of their targets under `model`.
    fn label_cross_entropy(model: &Policy, labels: &LabelSet, device: &Device) -> f32 {
        let logp = label_logp(model, labels, device);
        let ce: f32 = labels.target.iter().zip(&logp).map(|(&t, &lp)| if t > 0.0 { -t * lp } else { 0.0 }).sum();
        ce / labels.len() as f32
    }

    /// The mean over `labels` of the policy's probability of each row's
    /// lowest legal action, under `model`.
    fn lowest_legal_prob(model: &Policy, labels: &LabelSet, device: &Device) -> f32 {
        let (n, na) = (labels.len(), labels.num_actions);
        let logp = label_logp(model, labels, device);
        let lowest = |i: usize| (0..na).find(|&a| labels.legal[i * na + a] > 0.5).unwrap();
        (0..n).map(|i| logp[i * na + lowest(i)].exp()).sum::<f32>() / n as f32
    }

    #[test]
    fn label_rows_join_the_teacher_loss_and_pull_the_policy_to_them() {
        let device = Device::flex().autodiff();
        let (rollout, adv, ret) = random_rollout(16, 24);
        // Labels on positions of another rollout: none of them is in the batch.
        let (other, _, _) = random_rollout(8, 12);
        let labels = lowest_legal_labels(&other, &(0..other.len()).collect::<Vec<_>>());
        let model =
            bones_policy::model::PolicyConfig::new(rollout.obs_len, rollout.num_actions).with_hidden(64).init(&device);
        let before = label_cross_entropy(&model, &labels, &device);
        let run_shared = |label_share: f32,
                          teacher_coef: f32,
                          epochs: usize,
                          sparse_input: bool,
                          labels: Option<&LabelSet>,
                          lr: f64| {
            let cfg = TrainConfig {
                label_share,
                update_epochs: epochs,
                num_minibatches: 2,
                target_kl: 0.0,
                hidden: 64,
                teacher_coef,
                sparse_input,
                ..TrainConfig::default()
            };
            let mut optim = burn::optim::AdamConfig::new().with_epsilon(1e-5).init();
            let (Nets { model: m, .. }, stats) = update(
                Nets { model: model.clone(), critic: None },
                &mut optim,
                Batch { rollout: &rollout, advantages: &adv, returns: &ret },
                Settings { cfg: &cfg, lr, device: &device, labels },
                &mut ChaCha8Rng::seed_from_u64(1),
                &mut Profile::default(),
            );
            (m, stats)
        };
        let run = |teacher_coef, epochs, sparse_input, labels, lr| {
            run_shared(1.0, teacher_coef, epochs, sparse_input, labels, lr)
        };
        // The label rows go through the sparse input layer with the
        // minibatch's own rows: the same update as the dense layer's (at the
        // sparse-input test's learning rate: Adam turns the layers' float
        // rounding into steps of up to the learning rate).
        let ((sparse, s), (dense, d)) =
            (run(1.0, 1, true, Some(&labels), 1e-3), run(1.0, 1, false, Some(&labels), 1e-3));
        assert!(s.teacher_loss > 0.0 && (s.teacher_loss - d.teacher_loss).abs() < 1e-4, "{s:?} vs {d:?}");
        for (i, (a, b)) in parameters(&sparse).iter().zip(parameters(&dense)).enumerate() {
            assert!((a - b).abs() <= 1e-5, "parameter {i}: sparse {a} vs dense {b}");
        }
        // The labels pull the policy toward them; PPO alone (weight 0) does not.
        let (hard, _) = run(5.0, 16, true, Some(&labels), 3e-3);
        let (without, stats) = run(0.0, 16, true, Some(&labels), 3e-3);
        let (with, without) =
            (label_cross_entropy(&hard, &labels, &device), label_cross_entropy(&without, &labels, &device));
        assert!(with < 0.2 * before, "cross-entropy {before} -> {with}");
        assert!(with < without - 0.1, "with the labels {with}, without {without}");
        assert!(stats.teacher_loss > 0.0, "the loss is reported even at weight 0");
        // A quarter of a label row per row: a different draw, and the labels still pull.
        let (quarter, _) = run_shared(0.25, 5.0, 16, true, Some(&labels), 3e-3);
        let quarter = label_cross_entropy(&quarter, &labels, &device);
        assert!(quarter != with && quarter < without - 0.1, "a quarter share {quarter}, full {with}, none {without}");
        // A target split 70/30 between two actions is learned as a split, not an argmax.
        let split = split_labels(&other, &(0..other.len()).collect::<Vec<_>>(), 0.7);
        let (soft, _) = run(5.0, 16, true, Some(&split), 3e-3);
        let (p_soft, p_hard) = (lowest_legal_prob(&soft, &split, &device), lowest_legal_prob(&hard, &split, &device));
        assert!(p_hard > 0.85, "the one-hot labels' action: {p_hard}");
        assert!((0.5..0.8).contains(&p_soft), "the split labels' first action: {p_soft} (0.7 on the rows with two)");
        // No labels and no teacher: no teacher loss, and the same update as an empty label set.
        let empty = lowest_legal_labels(&other, &[]);
        let ((a, plain), (b, _)) = (run(1.0, 1, true, None, 3e-3), run(1.0, 1, true, Some(&empty), 3e-3));
        assert_eq!(plain.teacher_loss, 0.0);
        assert_eq!(parameters(&a), parameters(&b));
    }

    #[test]
    fn label_share_sets_how_many_label_rows_a_minibatch_draws() {
        assert_eq!(label_draws(1024, 1.0), 1024, "one per row by default: the draws of every earlier run");
        assert_eq!(label_draws(1024, 0.25), 256);
        assert_eq!(label_draws(10, 2.5), 25);
        assert_eq!(label_draws(3, 0.1), 1, "at least one");
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
        assert_close(clip_global_norm(&tiny, &mut grads, 1.0).unwrap().into_scalar::<f32>(), 5.0);
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
            assert_close(clip_global_norm(&tiny, &mut grads, max_norm).unwrap().into_scalar::<f32>(), 5.0);
            assert_eq!(tiny.grads(&grads), (vec![1.0, 2.0], vec![2.0, 4.0]));
        }
    }
}
