//! `bones export`: a checkpoint as a model folder (ONNX, safetensors, burn
//! weights, model.json) for other front ends.

use anyhow::{Context, Result};
use bones_env::{Game, GameVisitor};
use bones_policy::agent::resolve;
use bones_policy::export::{export, ExportError, ExportOptions, ExportSummary};
use bones_policy::folder;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// A checkpoint folder, a training run folder (its best checkpoint) or a model folder.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The model folder to write (created if missing; files in it are replaced).
    #[arg(long)]
    pub out: PathBuf,
    /// A file of `bones eval --json` results (one per line) to record in model.json; repeatable.
    #[arg(long = "evaluation", value_name = "FILE")]
    pub evaluations: Vec<PathBuf>,
    /// Also write N self-play observations with burn's outputs (parity.json, parity.bin)
    /// for scripts/ci/onnx_parity.py.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub parity_samples: usize,
    /// Seed of the self-play that records the parity samples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

struct Export<'a> {
    dir: &'a std::path::Path,
    out: &'a std::path::Path,
    opts: &'a ExportOptions,
}

impl GameVisitor for Export<'_> {
    type Output = Result<ExportSummary, ExportError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        export(&game, game.rules_json(), self.dir, self.out, self.opts)
    }
}

pub fn run(args: ExportArgs) -> Result<i32> {
    let dir = resolve(&args.checkpoint).map_err(anyhow::Error::msg)?;
    let cfg = folder::read_model_config(&dir)?;
    let game = cfg.game().with_context(|| format!("the checkpoint's config in {}", dir.display()))?;
    let opts = ExportOptions { evaluations: args.evaluations, parity_samples: args.parity_samples, seed: args.seed };
    let summary = game.visit(Export { dir: &dir, out: &args.out, opts: &opts })?;
    println!("exported {}", summary.checkpoint.display());
    for f in &summary.files {
        println!("  {}", f.display());
    }
    Ok(0)
}
