//! The policy's input layer computed from the observation's non-zero entries.
//!
//! An observation is mostly one-hot and 0/1 segments: about 95% of its floats
//! are zero, yet a dense first layer multiplies every one of them. Here a batch
//! of observations becomes [`SparseRows`] (the non-zero entries of each row,
//! with their values, so scalar features need no special case) and the first
//! layer's output is a gather-and-sum of the weight rows of those entries
//! ([`HostLinear::forward`]); its weight gradient scatters back to the same rows
//! ([`HostLinear::grads`]). Both equal the dense layer's results up to the order
//! of float additions (tests compare them).
//!
//! [`SparseInput`] joins this to burn's autodiff for the PPO update: the layer's
//! pre-activation enters the graph as a leaf, and after `backward` its gradient
//! gives the weight and bias gradients, which are registered under the layer's
//! parameter ids, so the optimizer (and the global norm clipping) sees them as
//! if burn had computed them. Only the CPU uses this; GPU devices keep the dense
//! layer. The saved network, its ONNX export and its outputs are unchanged: the
//! weights are the same `Linear`.

use burn::module::Param;
use burn::nn::Linear;
use burn::optim::GradientsParams;
use burn::prelude::*;
use burn::tensor::Gradients;
use rayon::prelude::*;

/// Rows of observations kept as their non-zero entries (compressed sparse rows).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SparseRows {
    /// Length of each dense row.
    width: usize,
    /// Row `r`'s entries are `index[start[r]..start[r + 1]]`, in column order.
    start: Vec<usize>,
    /// Column of each entry.
    index: Vec<u32>,
    /// Value of each entry (never 0).
    value: Vec<f32>,
}

impl SparseRows {
    /// No rows yet, each `width` floats when dense.
    pub fn new(width: usize) -> SparseRows {
        assert!(width > 0 && width <= u32::MAX as usize, "rows of 1 to 2^32 - 1 floats");
        SparseRows { width, start: vec![0], index: Vec::new(), value: Vec::new() }
    }

    /// The non-zero entries of `dense`, rows of `width` floats.
    pub fn from_dense(dense: &[f32], width: usize) -> SparseRows {
        let mut rows = SparseRows::new(width);
        assert!(dense.len().is_multiple_of(width), "dense rows of {width} floats");
        for row in dense.chunks_exact(width) {
            rows.push_dense(row);
        }
        rows
    }

    /// Appends one dense row.
    pub fn push_dense(&mut self, row: &[f32]) {
        assert_eq!(row.len(), self.width, "a dense row of the rows' width");
        // Most blocks of an observation are all zeros: test a block at once
        // (a branch-free fold the compiler vectorises), then look inside.
        const BLOCK: usize = 16;
        for (b, block) in row.chunks(BLOCK).enumerate() {
            if !block.iter().fold(false, |any, &x| any | (x != 0.0)) {
                continue;
            }
            for (k, &x) in block.iter().enumerate() {
                if x != 0.0 {
                    self.index.push((b * BLOCK + k) as u32);
                    self.value.push(x);
                }
            }
        }
        self.start.push(self.index.len());
    }

    /// Appends row `r` of `other` (of the same width).
    pub fn push_row(&mut self, other: &SparseRows, r: usize) {
        assert_eq!(other.width, self.width, "rows of one width");
        let span = other.start[r]..other.start[r + 1];
        self.index.extend_from_slice(&other.index[span.clone()]);
        self.value.extend_from_slice(&other.value[span]);
        self.start.push(self.index.len());
    }

    /// The rows `rows` of `self`, in that order.
    pub fn select(&self, rows: &[usize]) -> SparseRows {
        let mut out = SparseRows::new(self.width);
        for &r in rows {
            out.push_row(self, r);
        }
        out
    }

    /// The rows as dense floats (`rows() × width`).
    pub fn to_dense(&self) -> Vec<f32> {
        let mut out = vec![0f32; self.rows() * self.width];
        for (r, row) in out.chunks_exact_mut(self.width).enumerate() {
            for (j, v) in self.row(r) {
                row[j] = v;
            }
        }
        out
    }

    /// Removes every row.
    pub fn clear(&mut self) {
        self.start.truncate(1);
        self.index.clear();
        self.value.clear();
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.start.len() - 1
    }

    /// Length of each dense row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Non-zero entries over all rows.
    pub fn nnz(&self) -> usize {
        self.index.len()
    }

    /// Row `r`'s (column, value) pairs.
    fn row(&self, r: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let span = self.start[r]..self.start[r + 1];
        self.index[span.clone()].iter().map(|&j| j as usize).zip(self.value[span].iter().copied())
    }
}

/// `y += a * x`.
#[inline(always)]
fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// Runs `f` compiled for the widest vector instructions this CPU has.
#[inline(always)]
fn simd<R>(f: impl FnOnce() -> R) -> R {
    pulp::Arch::new().dispatch(f)
}

/// Rows handed to one task at a time by the forward pass.
const ROWS_PER_TASK: usize = 64;
/// Input rows of the weight gradient handed to one task at a time.
const INPUTS_PER_TASK: usize = 32;

/// A linear layer's parameters copied to the host: `weight` `[inputs, outputs]`
/// row-major (burn's `Linear` layout), `bias` `[outputs]`.
#[derive(Clone, Debug, PartialEq)]
pub struct HostLinear {
    /// Input width.
    pub inputs: usize,
    /// Output width.
    pub outputs: usize,
    /// Row `j` is what input `j` adds to the output per unit.
    pub weight: Vec<f32>,
    /// Added to every output row.
    pub bias: Vec<f32>,
}

impl HostLinear {
    /// Copies `layer`'s parameters from its device.
    pub fn of(layer: &Linear) -> HostLinear {
        let [inputs, outputs] = layer.weight.dims();
        let weight = layer.weight.val().into_data().try_to_vec::<f32>().expect("f32 weights");
        let bias = match &layer.bias {
            Some(b) => b.val().into_data().try_to_vec::<f32>().expect("f32 bias"),
            None => vec![0.0; outputs],
        };
        HostLinear { inputs, outputs, weight, bias }
    }

    /// The layer's output for `x` (`x.rows() × outputs`, row-major): the bias plus
    /// each entry's value times its weight row.
    pub fn forward(&self, x: &SparseRows) -> Vec<f32> {
        assert_eq!(x.width(), self.inputs, "sparse rows of the layer's input width");
        let n = self.outputs;
        let mut out = vec![0f32; x.rows() * n];
        out.par_chunks_mut(ROWS_PER_TASK * n).enumerate().for_each(|(task, block)| {
            simd(
                #[inline(always)]
                || {
                    for (k, y) in block.chunks_exact_mut(n).enumerate() {
                        y.copy_from_slice(&self.bias);
                        for (j, v) in x.row(task * ROWS_PER_TASK + k) {
                            axpy(y, v, &self.weight[j * n..(j + 1) * n]);
                        }
                    }
                },
            )
        });
        out
    }

    /// Gradients of the weight and bias given the gradient of the output
    /// (`grad_out`: `x.rows() × outputs`): `Σ_rows x_j · grad_out` into row `j`
    /// of the weight's, and `Σ_rows grad_out` for the bias. The entries are
    /// first sorted by column, then each task owns a band of the weight's rows
    /// (nothing is reduced afterwards, and every sum runs in row order).
    pub fn grads(&self, x: &SparseRows, grad_out: &[f32]) -> (Vec<f32>, Vec<f32>) {
        let n = self.outputs;
        assert_eq!(grad_out.len(), x.rows() * n, "one output gradient row per input row");
        let by_column = ByColumn::of(x);
        let mut dw = vec![0f32; self.inputs * n];
        dw.par_chunks_mut(INPUTS_PER_TASK * n).enumerate().for_each(|(task, band)| {
            simd(
                #[inline(always)]
                || {
                    for (k, w) in band.chunks_exact_mut(n).enumerate() {
                        for (r, v) in by_column.column(task * INPUTS_PER_TASK + k) {
                            axpy(w, v, &grad_out[r * n..(r + 1) * n]);
                        }
                    }
                },
            )
        });
        let mut db = vec![0f32; n];
        simd(
            #[inline(always)]
            || {
                for g in grad_out.chunks_exact(n) {
                    axpy(&mut db, 1.0, g);
                }
            },
        );
        (dw, db)
    }
}

/// The entries of [`SparseRows`] sorted by column (compressed sparse columns),
/// rows ascending within a column.
struct ByColumn {
    /// Column `j`'s entries are `row[start[j]..start[j + 1]]`.
    start: Vec<usize>,
    row: Vec<u32>,
    value: Vec<f32>,
}

impl ByColumn {
    fn of(x: &SparseRows) -> ByColumn {
        let mut start = vec![0usize; x.width + 1];
        for &j in &x.index {
            start[j as usize + 1] += 1;
        }
        for j in 0..x.width {
            start[j + 1] += start[j];
        }
        let mut next = start.clone();
        let (mut row, mut value) = (vec![0u32; x.nnz()], vec![0f32; x.nnz()]);
        for r in 0..x.rows() {
            for (j, v) in x.row(r) {
                row[next[j]] = r as u32;
                value[next[j]] = v;
                next[j] += 1;
            }
        }
        ByColumn { start, row, value }
    }

    /// Column `j`'s (row, value) pairs.
    fn column(&self, j: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let span = self.start[j]..self.start[j + 1];
        self.row[span.clone()].iter().map(|&r| r as usize).zip(self.value[span].iter().copied())
    }
}

/// The input layer of one minibatch on the autodiff device, computed sparsely;
/// [`SparseInput::grads`] turns the gradient of its output into the layer's.
pub struct SparseInput {
    rows: SparseRows,
    host: HostLinear,
    /// The layer's output, a leaf of the autodiff graph.
    leaf: Tensor<2>,
}

impl SparseInput {
    /// `layer`'s output (pre-activation) for the observations `rows`, as a leaf
    /// on `device` (an autodiff device).
    pub fn forward(layer: &Linear, rows: SparseRows, device: &Device) -> SparseInput {
        let host = HostLinear::of(layer);
        let out = host.forward(&rows);
        let leaf = Tensor::<2>::from_data(TensorData::new(out, [rows.rows(), host.outputs]), device).require_grad();
        SparseInput { rows, host, leaf }
    }

    /// The layer's output, to continue the forward pass from.
    pub fn output(&self) -> Tensor<2> {
        self.leaf.clone()
    }

    /// Registers `layer`'s weight and bias gradients in `params`, from the
    /// gradient that `grads` (the loss's backward pass) holds for the output.
    pub fn grads(self, grads: &mut Gradients, layer: &Linear, params: &mut GradientsParams) {
        let device = self.leaf.device();
        let Some(g) = self.leaf.grad_remove(grads) else {
            return; // the loss does not depend on the input layer
        };
        let g = g.into_data().try_to_vec::<f32>().expect("f32 gradient");
        let (dw, db) = self.host.grads(&self.rows, &g);
        let (inputs, outputs) = (self.host.inputs, self.host.outputs);
        let register = |params: &mut GradientsParams, param: &Param<Tensor<2>>, v: Vec<f32>| {
            params.register::<2>(
                param.id,
                Tensor::from_data(TensorData::new(v, [inputs, outputs]), &device.clone().inner()),
            );
        };
        register(params, &layer.weight, dw);
        if let Some(b) = &layer.bias {
            params.register::<1>(b.id, Tensor::from_data(TensorData::new(db, [outputs]), &device.clone().inner()));
        }
    }
}

/// Whether `device` computes the input layer sparsely: the CPU (burn's flex
/// backend, with or without autodiff) does; GPUs keep the dense layer.
pub fn sparse_on(device: &Device) -> bool {
    device.clone().inner() == Device::flex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::nn::LinearConfig;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Rows like observations: mostly zeros, some ones, a few scalars.
    fn observations(rows: usize, width: usize, seed: u64) -> Vec<f32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..rows * width)
            .map(|_| match rng.random_range(0..100) {
                0..=5 => 1.0,
                6 => rng.random_range(-2.0..2.0),
                _ => 0.0,
            })
            .collect()
    }

    fn to_vec<const D: usize>(t: Tensor<D>) -> Vec<f32> {
        t.into_data().try_to_vec::<f32>().unwrap()
    }

    fn assert_close(got: &[f32], want: &[f32], what: &str) {
        assert_eq!(got.len(), want.len(), "{what}: length");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() <= 1e-5, "{what}[{i}]: sparse {g} vs dense {w}");
        }
    }

    #[test]
    fn sparse_rows_keep_every_nonzero_entry_in_order() {
        let rows = SparseRows::from_dense(&[0.0, 1.0, 0.0, 0.5, 0.0, 0.0, 2.0, 0.0, 0.0], 3);
        assert_eq!(rows.rows(), 3);
        assert_eq!(rows.nnz(), 3);
        assert_eq!(rows.row(0).collect::<Vec<_>>(), vec![(1, 1.0)]);
        assert_eq!(rows.row(1).collect::<Vec<_>>(), vec![(0, 0.5)]);
        assert_eq!(rows.row(2).collect::<Vec<_>>(), vec![(0, 2.0)]);
    }

    #[test]
    fn selected_rows_and_their_dense_form_round_trip() {
        let dense = observations(20, 50, 3);
        let rows = SparseRows::from_dense(&dense, 50);
        assert_eq!(rows.to_dense(), dense);
        let picked = rows.select(&[7, 2, 7]);
        let want: Vec<f32> = [7, 2, 7].iter().flat_map(|&r| dense[r * 50..(r + 1) * 50].to_vec()).collect();
        assert_eq!(picked.to_dense(), want);
        let mut cleared = rows.clone();
        cleared.clear();
        assert_eq!((cleared.rows(), cleared.nnz()), (0, 0));
        // Sorted by column, the same entries, rows ascending.
        let by_column = ByColumn::of(&rows);
        let mut entries: Vec<(usize, usize, f32)> =
            (0..50).flat_map(|j| by_column.column(j).map(move |(r, v)| (r, j, v))).collect();
        entries.sort_by_key(|&(r, j, _)| (r, j));
        let want: Vec<(usize, usize, f32)> = (0..20).flat_map(|r| rows.row(r).map(move |(j, v)| (r, j, v))).collect();
        assert_eq!(entries, want);
    }

    #[test]
    fn the_sparse_layer_equals_the_dense_layer() {
        let device = Device::flex();
        let (rows, width, out) = (200, 914, 96);
        let layer = LinearConfig::new(width, out).init(&device);
        let obs = observations(rows, width, 7);
        let dense = to_vec(layer.forward(Tensor::<2>::from_data(TensorData::new(obs.clone(), [rows, width]), &device)));
        let sparse = HostLinear::of(&layer).forward(&SparseRows::from_dense(&obs, width));
        assert_close(&sparse, &dense, "output");
    }

    #[test]
    fn the_sparse_gradients_equal_burns_dense_gradients() {
        let device = Device::flex().autodiff();
        let (rows, width, out) = (150, 300, 40);
        let layer = LinearConfig::new(width, out).init(&device);
        let obs = observations(rows, width, 11);
        // A loss that weighs each output differently: sum(relu(y) * c).
        let c: Vec<f32> = (0..rows * out).map(|i| ((i % 7) as f32 - 3.0) * 0.25).collect();
        let c = Tensor::<2>::from_data(TensorData::new(c, [rows, out]), &device);
        let loss = |y: Tensor<2>| (burn::tensor::activation::relu(y) * c.clone()).sum();

        let x = Tensor::<2>::from_data(TensorData::new(obs.clone(), [rows, width]), &device);
        let dense = GradientsParams::from_grads(loss(layer.forward(x)).backward(), &layer);

        let input = SparseInput::forward(&layer, SparseRows::from_dense(&obs, width), &device);
        let mut grads = loss(input.output()).backward();
        let mut sparse = GradientsParams::from_module(&mut grads, &layer);
        assert!(sparse.get::<2>(layer.weight.id).is_none(), "burn did not see the input layer");
        input.grads(&mut grads, &layer, &mut sparse);

        let w = |g: &GradientsParams| to_vec(g.get::<2>(layer.weight.id).unwrap());
        let b = |g: &GradientsParams| to_vec(g.get::<1>(layer.bias.as_ref().unwrap().id).unwrap());
        assert_close(&w(&sparse), &w(&dense), "weight gradient");
        assert_close(&b(&sparse), &b(&dense), "bias gradient");
    }

    #[test]
    fn only_the_cpu_computes_sparsely() {
        assert!(sparse_on(&Device::flex()));
        assert!(sparse_on(&Device::flex().autodiff()));
    }
}
