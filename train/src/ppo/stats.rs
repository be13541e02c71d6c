//! What an update measured: the parts of each minibatch's loss, read back
//! from the device in one tensor ([`MinibatchStats::read`]), summed over the
//! update and averaged into [`UpdateStats`].

use burn::prelude::*;

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
    /// decisions it labelled; 0 without a teacher).
    pub teacher_loss: f32,
    /// Minibatches taken.
    pub minibatches: usize,
}

impl UpdateStats {
    /// Sets the losses to the means of `sums` over `self.minibatches`.
    pub(super) fn set_means(&mut self, sums: LossParts<f32>) {
        let k = self.minibatches.max(1) as f32;
        let means = sums.map(|s| s / k);
        self.policy_loss = means.policy_loss;
        self.value_loss = means.value_loss;
        self.entropy = means.entropy;
        self.approx_kl = means.approx_kl;
        self.clipfrac = means.clipfrac;
        self.teacher_loss = means.teacher_loss;
    }
}

/// The parts of a minibatch's loss that an update reports: tensors of one
/// element on the device, then their values read back, then their sums.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct LossParts<T> {
    /// Clipped surrogate loss.
    pub policy_loss: T,
    /// Value loss of the critic giving the advantages.
    pub value_loss: T,
    /// Mean policy entropy.
    pub entropy: T,
    /// Approximate KL between the behaviour and the current policy.
    pub approx_kl: T,
    /// Share of samples whose ratio left the clip range.
    pub clipfrac: T,
    /// Cross-entropy against the teacher's actions (0 without a teacher).
    pub teacher_loss: T,
}

/// How many parts [`LossParts`] has.
const PARTS: usize = 6;

impl<T> LossParts<T> {
    /// The parts in one order, the one [`LossParts::from_array`] reads.
    fn into_array(self) -> [T; PARTS] {
        [self.policy_loss, self.value_loss, self.entropy, self.approx_kl, self.clipfrac, self.teacher_loss]
    }

    /// The parts from [`LossParts::into_array`]'s order.
    fn from_array([policy_loss, value_loss, entropy, approx_kl, clipfrac, teacher_loss]: [T; PARTS]) -> Self {
        LossParts { policy_loss, value_loss, entropy, approx_kl, clipfrac, teacher_loss }
    }

    /// Each part through `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> LossParts<U> {
        LossParts::from_array(self.into_array().map(f))
    }
}

impl LossParts<f32> {
    /// The sums of `self` and `other`, part by part.
    pub fn add(self, other: LossParts<f32>) -> LossParts<f32> {
        let (a, b) = (self.into_array(), other.into_array());
        LossParts::from_array(std::array::from_fn(|i| a[i] + b[i]))
    }
}

/// One minibatch's statistics, as read back from the device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MinibatchStats {
    /// The parts of its loss.
    pub losses: LossParts<f32>,
    /// The policy's gradient norm before clipping (0 when it had no gradient).
    pub grad_norm: f32,
}

impl MinibatchStats {
    /// Reads `parts` and `grad_norm` back from the device in one tensor.
    pub fn read(parts: LossParts<Tensor<1>>, grad_norm: Option<Tensor<1>>) -> MinibatchStats {
        let tensors = parts.into_array().into_iter().chain(grad_norm.map(|g| g.inner())).collect();
        let values = Tensor::cat(tensors, 0).into_data().try_to_vec::<f32>().expect("f32 statistics");
        let losses: [f32; PARTS] = values[..PARTS].try_into().expect("one value per part");
        MinibatchStats { losses: LossParts::from_array(losses), grad_norm: values.get(PARTS).copied().unwrap_or(0.0) }
    }
}

/// 1 - Var(returns - values) / Var(returns) (NaN when the returns do not vary).
pub(super) fn explained_variance(values: &[f32], returns: &[f32]) -> f32 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_minibatchs_statistics_come_back_by_name() {
        let device = Device::flex();
        let one = |v: f32| Tensor::<1>::from_floats([v], &device);
        let parts = LossParts {
            policy_loss: 1.0,
            value_loss: 2.0,
            entropy: 3.0,
            approx_kl: 4.0,
            clipfrac: 5.0,
            teacher_loss: 6.0,
        };
        let read = MinibatchStats::read(parts.map(one), Some(one(7.0)));
        assert_eq!(read, MinibatchStats { losses: parts, grad_norm: 7.0 });
        assert_eq!(MinibatchStats::read(parts.map(one), None).grad_norm, 0.0);
        let mut stats = UpdateStats { minibatches: 2, ..UpdateStats::default() };
        stats.set_means(parts.add(parts.map(|v| v * 3.0)));
        assert_eq!(
            [stats.policy_loss, stats.value_loss, stats.entropy, stats.approx_kl, stats.clipfrac, stats.teacher_loss],
            [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]
        );
    }
}
