//! Gradients: the backward pass, the global-norm clipping (computed here:
//! burn's own clipping is per tensor) and the Adam step.

use super::nets::Nets;
use bones_policy::sparse::SparseInput;
use burn::module::{ModuleVisitor, Param};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;

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

/// The gradients of a minibatch's loss: the policy's (the sparse input
/// layer's included) and the critic's.
pub(super) struct Grads {
    policy: GradientsParams,
    critic: Option<GradientsParams>,
}

/// The gradients of `loss`: the policy's, with the sparse input layer's added
/// from `input` (computed outside the graph), and the critic's.
pub(super) fn backward(nets: &Nets, loss: Tensor<1>, input: Option<SparseInput>) -> Grads {
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
pub(super) fn optimizer_step(
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

    fn assert_close(got: f32, want: f32) {
        assert!((got - want).abs() < 1e-6, "{got} != {want}");
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
