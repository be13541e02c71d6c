//! The MLP building blocks of every network here (the policy, the trainer's
//! oracle critic).

use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;
use burn::tensor::activation::relu;

/// `depth` linear layers from `input` to `hidden` wide, and the width they end at.
pub fn hidden_layers(input: usize, hidden: usize, depth: usize, device: &Device) -> (Vec<Linear>, usize) {
    let mut layers = Vec::with_capacity(depth);
    let mut width = input;
    for _ in 0..depth {
        layers.push(LinearConfig::new(width, hidden).init(device));
        width = hidden;
    }
    (layers, width)
}

/// The layers in turn, a ReLU after each.
pub fn relu_stack(layers: &[Linear], input: Tensor<2>) -> Tensor<2> {
    layers.iter().fold(input, |x, layer| relu(layer.forward(x)))
}
