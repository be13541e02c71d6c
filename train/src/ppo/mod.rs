//! The PPO update, as in CleanRL's ppo.py: several epochs of shuffled
//! minibatches; advantage normalisation; clipped surrogate; clipped value loss;
//! entropy bonus; Adam; global gradient-norm clipping (computed here: burn's own
//! clipping is per tensor).
//!
//! [`update`] is the loop over epochs and minibatches; each minibatch is
//! `forward` (the networks' outputs), `ppo_loss` (`loss.rs`: a pure function
//! of those outputs and the minibatch), `backward` and `optimizer_step`
//! (`grad.rs`), each timed into the run's profile; its statistics come back
//! by name (`stats.rs`). The rollout's columns on the device are `columns.rs`.
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

mod columns;
mod grad;
mod loss;
mod nets;
mod stats;

use crate::config::TrainConfig;
use crate::profile::{Phase, Profile};
use crate::rollout::Rollout;
use bones_policy::sparse::{sparse_on, SparseInput};
use burn::optim::ModuleOptimizer;
use burn::prelude::*;
use columns::{Columns, Inputs, Minibatch};
pub use grad::clip_global_norm;
use grad::{backward, optimizer_step};
use loss::{ppo_loss, Outputs};
pub use nets::Nets;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
pub use stats::UpdateStats;
use stats::{explained_variance, LossParts, MinibatchStats};

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
    let (Batch { rollout, advantages, returns }, Settings { cfg, lr, device }) = (batch, settings);
    let n = rollout.len();
    let values: Vec<f32> = rollout.steps.iter().map(|t| t.value).collect();
    let mut stats = UpdateStats { explained_variance: explained_variance(&values, returns), ..UpdateStats::default() };
    if n == 0 {
        return (nets, stats);
    }
    let mb_size = n.div_ceil(cfg.ppo.num_minibatches.max(1)).max(1);
    // On the CPU the input layer is computed on the host from the observations'
    // non-zero entries, and its gradients added after the backward pass; other
    // devices take the dense observations, uploaded with the other columns.
    let sparse = cfg.run.sparse_input && sparse_on(device) && nets.model.input_layer().is_some();
    let dense_obs = !sparse || nets.critic.is_some();
    let columns =
        profile.time(Phase::UpdateForward, || Columns::upload(rollout, advantages, returns, dense_obs, device));
    let mut order: Vec<usize> = (0..n).collect();
    let mut sums = LossParts::<f32>::default();
    'epochs: for _ in 0..cfg.ppo.update_epochs {
        order.shuffle(rng);
        for mb in order.chunks(mb_size) {
            let (input, losses) = profile.time(Phase::UpdateForward, || {
                let Minibatch { inputs, targets } = columns.select(mb, device);
                let input = (nets.model.input_layer())
                    .filter(|_| sparse)
                    .map(|layer| SparseInput::forward(layer, rollout.obs.select(mb), device));
                let outputs = forward(&nets, inputs, input.as_ref());
                (input, ppo_loss(outputs, targets, cfg))
            });
            let grads = profile.time(Phase::UpdateBackward, || backward(&nets, losses.total, input));
            let (stepped, grad_norm) =
                profile.time(Phase::Optimizer, || optimizer_step(nets, optim, grads, cfg.ppo.max_grad_norm, lr));
            nets = stepped;
            // The minibatch's one read back from the device: its statistics.
            let read = profile.time(Phase::Optimizer, || MinibatchStats::read(losses.parts, grad_norm));
            sums = sums.add(read.losses);
            stats.grad_norm = read.grad_norm;
            stats.minibatches += 1;
            if cfg.ppo.target_kl > 0.0 && read.losses.approx_kl > cfg.ppo.target_kl {
                break 'epochs;
            }
        }
    }
    stats.set_means(sums);
    (nets, stats)
}

/// The networks' outputs for a minibatch: the policy through the sparse input
/// layer's output when `input` is given, else on the dense observations; the
/// critic on the dense observations and the hidden hands.
fn forward(nets: &Nets, inputs: Inputs, input: Option<&SparseInput>) -> Outputs {
    let Inputs { obs, hidden, legal } = inputs;
    let critic_value = nets.critic.as_ref().map(|c| {
        let dense = obs.clone().expect("dense observations for the critic");
        c.forward(dense, hidden.expect("the critic's hidden-hand inputs"))
    });
    let (logp_all, value) = match input {
        Some(input) => nets.model.masked_from_input_layer(input.output(), legal),
        None => nets.model.masked(obs.expect("dense observations"), legal),
    };
    Outputs { logp_all, value, critic_value }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bones_policy::model::PolicyNet;
    use burn::module::{ModuleVisitor, Param};
    use rand::SeedableRng;

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
    fn parameters(model: &PolicyNet) -> Vec<f32> {
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

    /// One `update` of a copy of `model` under `cfg` at learning rate `lr`,
    /// from a fresh Adam and a fixed seed: the updated policy and its statistics.
    fn update_once(
        model: &PolicyNet,
        batch: Batch,
        cfg: &TrainConfig,
        lr: f64,
        device: &Device,
    ) -> (PolicyNet, UpdateStats) {
        let mut optim = burn::optim::AdamConfig::new().with_epsilon(1e-5).init();
        let (Nets { model, .. }, stats) = update(
            Nets { model: model.clone(), critic: None },
            &mut optim,
            batch,
            Settings { cfg, lr, device },
            &mut ChaCha8Rng::seed_from_u64(1),
            &mut Profile::default(),
        );
        (model, stats)
    }

    #[test]
    fn the_sparse_input_layer_gives_the_dense_update() {
        let device = Device::flex().autodiff();
        let (rollout, adv, ret) = random_rollout(16, 24);
        // Two epochs of four minibatches, no early stop: later minibatches must
        // see the weights Adam changed with the sparse layer's gradients.
        let base = TrainConfig::default().with(|c| {
            c.ppo.update_epochs = 2;
            c.ppo.num_minibatches = 4;
            c.ppo.target_kl = 0.0;
            c.model.hidden = 64;
        });
        let model = bones_policy::model::PolicyNetConfig::new(rollout.obs_len, rollout.num_actions)
            .with_hidden(64)
            .init(&device);
        let run = |sparse_input: bool| {
            let cfg = base.clone().with(|c| c.run.sparse_input = sparse_input);
            let (model, stats) =
                update_once(&model, Batch { rollout: &rollout, advantages: &adv, returns: &ret }, &cfg, 1e-3, &device);
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
    fn teacher_cross_entropy(model: &PolicyNet, rollout: &Rollout, labelled: &[usize], device: &Device) -> f32 {
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
        let model = bones_policy::model::PolicyNetConfig::new(rollout.obs_len, rollout.num_actions)
            .with_hidden(64)
            .init(&device);
        let before = teacher_cross_entropy(&model, &rollout, &labelled, &device);
        let run = |teacher_coef: f32, epochs: usize| {
            let cfg = TrainConfig::default().with(|c| {
                c.ppo.update_epochs = epochs;
                c.ppo.num_minibatches = 1;
                c.ppo.target_kl = 0.0;
                c.model.hidden = 64;
                c.ppo.teacher_coef = teacher_coef;
                c.ppo.ent_coef = 0.01;
            });
            let (m, stats) =
                update_once(&model, Batch { rollout: &rollout, advantages: &adv, returns: &ret }, &cfg, 3e-3, &device);
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
        let cfg = TrainConfig::default().with(|c| {
            c.ppo.update_epochs = 1;
            c.ppo.num_minibatches = 1;
            c.model.hidden = 64;
        });
        let (_, stats) =
            update_once(&model, Batch { rollout: &plain, advantages: &adv, returns: &ret }, &cfg, 1e-3, &device);
        assert_eq!(stats.teacher_loss, 0.0);
    }
}
