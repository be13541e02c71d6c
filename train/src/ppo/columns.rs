//! The rollout's columns on the device and the minibatches selected from them.

use crate::rollout::Rollout;
use burn::prelude::*;

/// The rollout's per-decision columns on the device, uploaded once per update;
/// each minibatch is selected from them there ([`Columns::select`]).
pub(super) struct Columns {
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
pub(super) struct Minibatch {
    pub(super) inputs: Inputs,
    pub(super) targets: Targets,
}

/// ... the networks' inputs ...
pub(super) struct Inputs {
    pub(super) obs: Option<Tensor<2>>,
    pub(super) hidden: Option<Tensor<2>>,
    pub(super) legal: Tensor<2, Bool>,
}

/// ... and what the loss compares their outputs with.
pub(super) struct Targets {
    pub(super) act: Tensor<2, Int>,
    pub(super) old_logp: Tensor<2>,
    pub(super) adv: Tensor<2>,
    pub(super) ret: Tensor<2>,
    pub(super) old_v: Tensor<2>,
    pub(super) teacher: Option<(Tensor<2, Int>, Tensor<2>)>,
}

impl Columns {
    pub(super) fn upload(
        rollout: &Rollout,
        advantages: &[f32],
        returns: &[f32],
        dense_obs: bool,
        device: &Device,
    ) -> Columns {
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
    pub(super) fn select(&self, rows: &[usize], device: &Device) -> Minibatch {
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
            },
            targets: Targets {
                act: self.act.clone().select(0, idx.clone()),
                old_logp: pick(&self.old_logp),
                adv: pick(&self.adv),
                ret: pick(&self.ret),
                old_v: pick(&self.old_v),
                teacher: self.teacher.as_ref().map(|(a, w)| (a.clone().select(0, idx.clone()), pick(w))),
            },
        }
    }
}
