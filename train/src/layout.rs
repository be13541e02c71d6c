//! [`train`]: a run set up (`Run::setup`) and handed to the one schedule
//! (`schedule::drive`) with the transport of its layout: the synchronous
//! loop's one rollout slot in process (`workers = 0`), or worker threads.

use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::schedule::{drive, InProcess};
use crate::training::{Progress, Run, Summary};
use crate::worker::on_threads;
use bones_agents::AgentGame;
use burn::prelude::*;
use std::path::Path;

/// Runs (or resumes) a training run of `game` into `out`: its rollouts
/// played in process with `workers = 0` (the synchronous loop), else on
/// worker threads (`worker`), on the one schedule of `schedule`.
pub fn train<G: AgentGame>(
    game: G,
    cfg: &TrainConfig,
    out: &Path,
    resume: bool,
    device: Device,
    progress: &mut dyn Progress,
) -> Result<Summary, TrainError> {
    let (mut run, nets) = Run::setup(game, cfg, out, resume, device)?;
    for line in std::mem::take(&mut run.notes) {
        progress.note(&line);
    }
    let nets = if cfg.run.workers > 0 {
        on_threads(&mut run, nets, progress)?
    } else {
        let mut slot = InProcess::new(&run)?;
        drive(&mut run, nets, &mut slot, progress)?
    };
    run.finish(&nets)
}
