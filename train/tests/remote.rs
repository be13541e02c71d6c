//! The actor-learner's halves as bytes (`bones_train::remote`): the learner
//! driving workers through a byte transport trains the weights of `bones
//! train --workers N`; a worker that died is replaced and no rollout is
//! counted twice; a refused shard's worker is replaced; bytes of another
//! update, worker or run are refused with the reason.

use crate::actor_learner::{config, outputs_of, start, tmp};
use bones_env::{Texas42, Texas42Rules};
use bones_train::config::CriticKind;
use bones_train::remote::{ByteTransport, Learner, RolloutWorker};
use bones_train::{train, TrainConfig, TrainError};
use burn::prelude::Device;
use std::collections::VecDeque;
use std::path::Path;

/// What a learner sends out for one rollout, asked for step by step: its
/// weights, and the pool of that moment with its version.
struct Job {
    weights: Vec<u8>,
    pool: (u64, Vec<u8>),
}

fn job(learner: &Learner, update: u64) -> Job {
    Job { weights: learner.weights(update).unwrap(), pool: (learner.pool_version(), learner.pool()) }
}

/// Sends `job` to `worker` (the pool only when the worker's is another) and
/// plays its rollout.
fn play(worker: &mut RolloutWorker, job: &Job) -> Vec<u8> {
    if worker.pool_version() != job.pool.0 {
        worker.set_pool(&job.pool.1).unwrap();
    }
    worker.set_weights(&job.weights).unwrap();
    worker.rollout().unwrap()
}

/// Rollout workers in this process as the learner's [`ByteTransport`]: a
/// rollout is played when its shards are asked for. `dies(update)` says
/// whether worker 1 dies before that update's rollout (a fresh worker takes
/// its place); `damaged` is an update whose shard of worker 1 arrives cut in
/// half, once.
struct Local<'a> {
    cfg: TrainConfig,
    workers: Vec<RolloutWorker>,
    /// The latest pool sent, and what was sent for the rollouts to come (the
    /// update, its weights, the pool of that moment), oldest first.
    pool: Vec<u8>,
    sent: VecDeque<(u64, Vec<u8>, Vec<u8>)>,
    /// The weights and pool of the rollout last handed out.
    playing: (Vec<u8>, Vec<u8>),
    dies: &'a dyn Fn(u64) -> bool,
    damaged: Option<u64>,
    /// The replacements the learner asked for: the worker, the update, why.
    replaced: Vec<(usize, u64, String)>,
}

impl<'a> Local<'a> {
    fn new(cfg: &TrainConfig, dies: &'a dyn Fn(u64) -> bool, damaged: Option<u64>) -> Local<'a> {
        let workers = (0..cfg.run.workers).map(|w| worker(cfg, w)).collect();
        Local {
            cfg: cfg.clone(),
            workers,
            pool: Vec::new(),
            sent: VecDeque::new(),
            playing: (Vec::new(), Vec::new()),
            dies,
            damaged,
            replaced: Vec::new(),
        }
    }
}

fn worker(cfg: &TrainConfig, w: usize) -> RolloutWorker {
    RolloutWorker::new(cfg.clone(), w, Device::flex()).unwrap()
}

/// `worker`'s shard of the rollout of `weights`, given `pool` first when its own is older.
fn played(worker: &mut RolloutWorker, weights: &[u8], pool: &[u8]) -> Result<Vec<u8>, TrainError> {
    let wanted = worker.set_weights(weights)?;
    if worker.pool_version() != wanted {
        worker.set_pool(pool)?;
    }
    worker.rollout()
}

impl ByteTransport for Local<'_> {
    fn send(&mut self, update: u64, weights: Vec<u8>, pool: Option<Vec<u8>>) -> Result<(), TrainError> {
        if let Some(p) = pool {
            self.pool = p;
        }
        self.sent.push_back((update, weights, self.pool.clone()));
        Ok(())
    }

    fn receive(&mut self, update: u64) -> Result<Vec<Vec<u8>>, TrainError> {
        let (sent, weights, pool) = self.sent.pop_front().expect("the rollout was sent");
        assert_eq!(sent, update, "the learner asked for another rollout than the oldest sent");
        if (self.dies)(update) {
            self.workers[1] = worker(&self.cfg, 1);
        }
        let mut shards = Vec::new();
        for w in &mut self.workers {
            shards.push(played(w, &weights, &pool)?);
        }
        if self.damaged == Some(update) {
            self.damaged = None;
            let half = shards[1].len() / 2;
            shards[1].truncate(half);
        }
        self.playing = (weights, pool);
        Ok(shards)
    }

    fn replace(&mut self, w: usize, update: u64, why: &TrainError) -> Result<Vec<u8>, TrainError> {
        self.replaced.push((w, update, why.to_string()));
        self.workers[w] = worker(&self.cfg, w);
        played(&mut self.workers[w], &self.playing.0, &self.playing.1)
    }
}

/// Trains `cfg` into `out` through the halves ([`Learner::train`] over
/// [`Local`]); returns the final checkpoint's folder, the counters and the
/// replacements asked for.
fn drive(
    cfg: &TrainConfig,
    out: &Path,
    dies: impl Fn(u64) -> bool,
    damaged: Option<u64>,
) -> (std::path::PathBuf, u64, u64, Vec<(usize, u64, String)>) {
    let mut learner = Learner::new(cfg.clone(), out, false, Device::flex()).unwrap();
    let mut local = Local::new(cfg, &dies, damaged);
    learner.train(&mut local, &mut ()).unwrap();
    let (update, decisions) = (learner.state().update, learner.state().decisions);
    (learner.finish().unwrap().checkpoint, update, decisions, local.replaced)
}

#[test]
fn a_driver_of_the_halves_trains_the_weights_of_bones_train_with_as_many_workers() {
    let init = Some(start("start-remote"));
    for cfg in [
        config(2, 1).with(|c| c.run.init = init.clone()),
        config(3, 0).with(|c| {
            c.run.init = init.clone();
            c.ppo.critic = CriticKind::Oracle;
            c.run.total_hands = 40;
        }),
    ] {
        let (threads, halves) = (tmp("remote-threads"), tmp("remote-halves"));
        let game = Texas42::new(Texas42Rules::STANDARD);
        let want = train(game, &cfg, &threads, false, Device::flex(), &mut ()).unwrap();
        let (dir, update, _, _) = drive(&cfg, &halves, |_| false, None);
        assert_eq!(update, want.state.update);
        assert!(
            outputs_of(&dir, &cfg) == outputs_of(&want.checkpoint, &cfg),
            "the halves trained other weights than `bones train --workers {}`",
            cfg.run.workers
        );
        let _ = std::fs::remove_dir_all(&threads);
        let _ = std::fs::remove_dir_all(&halves);
    }
    let _ = std::fs::remove_dir_all(tmp("start-remote"));
}

#[test]
fn a_replaced_worker_deals_new_games_and_each_rollout_is_counted_once() {
    let cfg = config(2, 1).with(|c| c.run.total_hands = 60);
    let out = tmp("remote-replaced");
    let (dir, update, decisions, _) = drive(&cfg, &out, |update| update == 2 || update == 3, None);
    assert!(update >= 4);
    // 8 games of 16 decisions an update, whichever worker played them.
    assert_eq!(decisions, update * 8 * 16);
    assert!(dir.join("model.bpk").is_file());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_refused_shard_has_its_worker_replaced_and_the_rollout_played_again_counting_it_once() {
    let cfg = config(2, 1).with(|c| c.run.total_hands = 60);
    let out = tmp("remote-refused-replaced");
    let (_, update, decisions, replaced) = drive(&cfg, &out, |_| false, Some(2));
    assert_eq!(replaced.len(), 1, "{replaced:?}");
    let (w, at, why) = &replaced[0];
    assert_eq!((*w, *at), (1, 2));
    assert!(why.starts_with("bad rollout shard 1 of the 2 given"), "{why}");
    assert_eq!(decisions, update * 8 * 16);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_learner_refuses_shards_of_another_update_a_second_shard_and_foreign_bytes() {
    let cfg = config(2, 0);
    let out = tmp("remote-refused");
    let mut learner = Learner::new(cfg.clone(), &out, false, Device::flex()).unwrap();
    let mut w0 = RolloutWorker::new(cfg.clone(), 0, Device::flex()).unwrap();
    let mut w1 = RolloutWorker::new(cfg.clone(), 1, Device::flex()).unwrap();
    let first = job(&learner, 0);
    let (a, b) = (play(&mut w0, &first), play(&mut w1, &first));
    let weights = first.weights;
    let refused = |learner: &mut Learner, shards: &[&[u8]]| learner.update(shards).unwrap_err().to_string();
    assert!(refused(&mut learner, &[&a]).contains("no shard of worker(s) 1"));
    assert!(refused(&mut learner, &[&a, &a]).contains("two shards of worker 0"));
    assert!(refused(&mut learner, &[&a, &weights]).contains("expected rollout shard, got weights"));
    assert!(refused(&mut learner, &[&a, b"not bones"]).contains("no message of a Bones learner or worker"));
    let mut cut = b.clone();
    cut.truncate(b.len() / 2);
    assert!(refused(&mut learner, &[&a, &cut]).starts_with("bad rollout shard 1 of the 2 given: unreadable ("));
    // Nothing refused was counted: the whole pair is one update.
    assert_eq!(learner.state().update, 0);
    learner.update(&[&b, &a]).unwrap();
    assert_eq!(learner.state().update, 1);
    assert!(refused(&mut learner, &[&a, &b]).contains("it is of update 0; the learner is at update 1"));

    // Weights of another run, and a second rollout of one set of weights.
    let other = Learner::new(cfg.clone().with(|c| c.run.seed = 99), &tmp("remote-other"), false, Device::flex());
    let foreign = other.unwrap().weights(1).unwrap();
    let e = w0.set_weights(&foreign).unwrap_err().to_string();
    assert!(e.contains("seed 99") && e.contains("this one trains texas42 with seed"), "{e}");
    let e = w0.rollout().unwrap_err().to_string();
    assert!(e.contains("no weights to play"), "{e}");
    // The pool changed after update 0 (smoke: a snapshot every update): the
    // new weights need the new pool.
    w0.set_weights(&learner.weights(1).unwrap()).unwrap();
    let e = w0.rollout().unwrap_err().to_string();
    assert!(e.contains("holds version 0: send it the learner's pool first"), "{e}");
    // The learner's log must be closed before its folder goes.
    drop(learner);
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(tmp("remote-other"));
}

#[test]
fn halves_without_workers_or_with_a_worker_out_of_range_are_config_errors() {
    let out = tmp("remote-bad");
    let e = Learner::new(config(0, 1), &out, false, Device::flex()).err().unwrap().to_string();
    assert!(e.contains("`workers` is 0"), "{e}");
    let e = RolloutWorker::new(config(2, 1), 2, Device::flex()).err().unwrap().to_string();
    assert!(e.contains("worker 2 of a run with 2 workers"), "{e}");
    let e = RolloutWorker::new(config(2, 17), 0, Device::flex()).err().unwrap().to_string();
    assert!(e.contains("`policy_lag`"), "{e}");
    assert!(!out.exists(), "a refused config wrote a run folder");
}
