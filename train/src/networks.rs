//! The networks a run trains and their optimizer ([`Networks`]), and how a
//! run gets them: fresh from its seed, from the weights of `init`, or resumed
//! from its latest checkpoint.

use crate::checkpoint::{self, critic_config, policy_config, Resume, RunState};
use crate::collector::Dims;
use crate::config::TrainConfig;
use crate::critic::Critic;
use crate::error::TrainError;
use bones_policy::model::PolicyNet;
use burn::module::{ModuleVisitor, Param};
use burn::optim::{AdamConfig, ModuleOptimizer};
use burn::prelude::*;
use std::path::Path;

/// The networks being trained (on the autodiff device) and their optimizer.
pub(crate) struct Networks {
    /// The policy with its value head.
    pub(crate) model: PolicyNet,
    /// The oracle critic, with `critic = "oracle"`.
    pub(crate) critic: Option<Critic>,
    /// One Adam for both networks.
    pub(crate) optim: ModuleOptimizer,
}

/// Held while seeding burn's random source and drawing initial weights
/// (burn's source is one per process).
static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `net` with every parameter drawn now. burn initialises a parameter lazily,
/// at its first use: without this a seeded network's draws would come later,
/// outside [`INIT`], from whatever another thread had seeded burn's source with
/// meanwhile.
fn drawn<M: burn::module::Module>(net: M) -> M {
    struct Draw;
    impl ModuleVisitor for Draw {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            param.val();
        }
    }
    net.visit(&mut Draw);
    net
}

/// A network made by `blank` on `device` with the parameters of `record`, a
/// burnpack record of a network of its shape (the blank's lazy parameters are
/// replaced, never drawn, so this takes nothing from burn's random source).
pub(crate) fn load_record<M: burn::module::Module>(
    blank: impl FnOnce(&Device) -> M,
    device: &Device,
    record: &[u8],
) -> Result<M, burn::store::RecordError> {
    checkpoint::from_record_bytes(blank(device), record)
}

/// What a resumed run takes from its checkpoint besides the networks and
/// counters, and what it has to say about the checkpoints it passed over.
#[derive(Default)]
pub(crate) struct Resumed {
    /// The opponent pool and the games in progress.
    pub(crate) resume: Resume,
    /// One line per damaged checkpoint skipped, then the one resumed from
    /// (empty when the latest was good).
    pub(crate) notes: Vec<String>,
}

/// The run's optimizer, fresh: one Adam for both networks.
fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-5).init()
}

/// Everything a checkpoint gives a resumed run.
type Loaded = (PolicyNet, Option<Critic>, ModuleOptimizer, RunState, Resume);

/// The checkpoint in `dir`, checked against its manifest and loaded (refused
/// if it has another game or network shape than `cfg`).
fn load_checkpoint(dir: &Path, cfg: &TrainConfig, dims: Dims, train_device: &Device) -> Result<Loaded, TrainError> {
    let Dims { obs: ol, actions: na, oracle: orl, .. } = dims;
    let (saved, state) = checkpoint::read_meta(dir)?;
    let shape = |c: &TrainConfig| (c.model.game.clone(), c.model.hidden, c.model.depth, c.ppo.critic);
    if shape(&saved) != shape(cfg) {
        return Err(TrainError::Resume(format!(
            "{} was trained as {} with hidden={} depth={} critic={}; this config says {} with hidden={} depth={} critic={}",
            dir.display(),
            saved.model.game,
            saved.model.hidden,
            saved.model.depth,
            saved.ppo.critic,
            cfg.model.game,
            cfg.model.hidden,
            cfg.model.depth,
            cfg.ppo.critic
        )));
    }
    let model = checkpoint::load_model(dir, ol, na, train_device)?;
    let critic = match cfg.oracle_critic() {
        true => Some(checkpoint::load_critic(dir, ol, orl, train_device)?),
        false => None,
    };
    let optim = checkpoint::load_optim(dir, adam())?;
    Ok((model, critic, optim, state, checkpoint::read_resume(dir)?))
}

/// Fresh networks, optimizer and counters; with `resume`, those of the latest
/// good checkpoint under `ck_root` (a damaged one is skipped for the one
/// before it, and said; refused if it has another game or network shape).
pub(crate) fn load_or_init(
    cfg: &TrainConfig,
    dims: Dims,
    ck_root: &Path,
    resume: bool,
    train_device: &Device,
) -> Result<(Networks, RunState, Resumed), TrainError> {
    let Dims { obs: ol, actions: na, oracle: orl, .. } = dims;
    // Initialised even when resuming (the loads replace them), so the seeded
    // initialisation draws the same whether or not a run resumes. burn's
    // random source is the backend's, one per process: the seeding and the
    // draws hold a lock, so runs started side by side in one process (tests,
    // a Python program's threads) each get their seed's weights.
    let seeded = INIT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    train_device.seed(cfg.run.seed);
    let mut model: PolicyNet = drawn(policy_config(cfg, ol, na).init(train_device));
    let mut critic: Option<Critic> = cfg.oracle_critic().then(|| drawn(critic_config(cfg, ol, orl).init(train_device)));
    drop(seeded);
    let mut optim = adam();
    let mut state = RunState::default();
    let mut resumed = Resumed::default();
    if resume {
        let mut skipped: Vec<String> = Vec::new();
        let mut found = None;
        for dir in checkpoint::resumable(ck_root) {
            match load_checkpoint(&dir, cfg, dims, train_device) {
                Ok(loaded) => {
                    found = Some((dir, loaded));
                    break;
                }
                Err(TrainError::Checkpoint(e)) => skipped.push(e.to_string()),
                Err(e) => return Err(e),
            }
        }
        let Some((dir, (m, c, o, st, r))) = found else {
            return Err(TrainError::Resume(match skipped.is_empty() {
                true => format!("no checkpoint under {}", ck_root.display()),
                false => format!("no good checkpoint under {}: {}", ck_root.display(), skipped.join("; ")),
            }));
        };
        if !skipped.is_empty() {
            resumed.notes = skipped
                .iter()
                .map(|why| format!("skipped {why}"))
                .chain([format!("resuming from {}, the newest good checkpoint", dir.display())])
                .collect();
        }
        (model, critic, optim, state, resumed.resume) = (m, c, o, st, r);
    } else if let Some(init) = &cfg.run.init {
        // A run folder stands for its best checkpoint (else its latest), as in `model:PATH`.
        let dir = bones_policy::agent::resolve(init).map_err(|e| TrainError::Config(format!("`init`: {e}")))?;
        let saved = checkpoint::read_config(&dir)?;
        if (&saved.model.game, saved.model.hidden, saved.model.depth)
            != (&cfg.model.game, cfg.model.hidden, cfg.model.depth)
        {
            return Err(TrainError::Config(format!(
                "`init`: {} is a {} policy with hidden={} depth={}; this config trains {} with hidden={} depth={}",
                dir.display(),
                saved.model.game,
                saved.model.hidden,
                saved.model.depth,
                cfg.model.game,
                cfg.model.hidden,
                cfg.model.depth
            )));
        }
        model = checkpoint::load_model(&dir, ol, na, train_device)?;
    }
    Ok((Networks { model, critic, optim }, state, resumed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::Distribution;

    /// Whether every parameter of a module has its value.
    struct AllDrawn(bool);
    impl ModuleVisitor for AllDrawn {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.0 &= param.is_initialized();
        }
    }

    /// A network made by `blank` on `device` after seeding burn's random
    /// source with `seed`, under [`INIT`] (as [`load_or_init`] makes its networks).
    fn seeded_init<M: burn::module::Module>(device: &Device, seed: u64, blank: impl FnOnce(&Device) -> M) -> M {
        let _seeded = INIT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        device.seed(seed);
        drawn(blank(device))
    }

    #[test]
    fn a_seeded_network_has_drawn_every_weight_before_the_lock_is_released() {
        let device = Device::flex();
        let net = seeded_init(&device, 7, |d| bones_policy::model::PolicyNetConfig::new(10, 5).with_hidden(8).init(d));
        let mut all = AllDrawn(true);
        net.visit(&mut all);
        assert!(all.0, "a parameter is still lazy: its draw would fall outside the lock");
        // So a draw after it (another run's, in another thread) changes nothing.
        let before = checkpoint::record_bytes(net.clone());
        let _ = Tensor::<1>::random([64], Distribution::Default, &device);
        assert_eq!(checkpoint::record_bytes(net), before);
    }

    #[test]
    fn loading_a_record_takes_nothing_from_the_random_source() {
        let device = Device::flex();
        let blank = |d: &Device| bones_policy::model::PolicyNetConfig::new(10, 5).with_hidden(8).init(d);
        let record = checkpoint::record_bytes(seeded_init(&device, 7, blank));
        let draw = || Tensor::<1>::random([4], Distribution::Default, &device).into_data().try_to_vec::<f32>().unwrap();
        // burn's random source is one per process, and the other tests of
        // this binary draw from it at any time (their networks' lazy weights):
        // the comparison is tried a few times. A load that drew would make
        // every try differ.
        let untouched = (0..8).any(|_| {
            let _seeded = INIT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            device.seed(3);
            let plain = draw();
            device.seed(3);
            let loaded = load_record(blank, &device, &record).unwrap();
            assert_eq!(checkpoint::record_bytes(loaded), record);
            draw() == plain
        });
        assert!(untouched, "loading a record drew from the random source");
    }
}
