//! The actor-learner's halves as bytes (`bones_train::remote`): a driver that
//! keeps the schedule of `bones train --workers N` trains its weights; a worker
//! that died is replaced and no rollout is counted twice; bytes of another
//! update, worker or run are refused with the reason.

use crate::actor_learner::{config, outputs_of, start, tmp};
use bones_env::{Texas42, Texas42Rules};
use bones_train::config::CriticKind;
use bones_train::remote::{Learner, RolloutWorker};
use bones_train::{train, TrainConfig};
use burn::prelude::Device;
use std::collections::VecDeque;
use std::path::Path;

/// What the learner sends out for one rollout: the update, its weights, and
/// the pool of that moment with its version.
struct Job {
    update: u64,
    weights: Vec<u8>,
    pool: (u64, Vec<u8>),
}

fn job(learner: &Learner, update: u64) -> Job {
    Job { update, weights: learner.weights(update).unwrap(), pool: (learner.pool_version(), learner.pool()) }
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

/// Trains `cfg` into `out` through the halves, with the schedule of the
/// threads of `bones train --workers N`: the first weights play the first
/// `policy_lag + 1` rollouts; after update `k` the new weights play the rollout
/// of update `k + 1 + policy_lag`. `replace(update)` says whether worker 1 dies
/// before that update's rollout (a fresh worker takes its place). Returns the
/// final checkpoint's folder and the counters.
fn drive(cfg: &TrainConfig, out: &Path, replace: impl Fn(u64) -> bool) -> (std::path::PathBuf, u64, u64) {
    let mut learner = Learner::new(cfg.clone(), out, false, Device::flex()).unwrap();
    let mut workers: Vec<RolloutWorker> =
        (0..cfg.run.workers).map(|w| RolloutWorker::new(cfg.clone(), w, Device::flex()).unwrap()).collect();
    let lag = cfg.run.policy_lag as u64;
    let first = learner.state().update;
    // The jobs of the rollouts to come, oldest first; a worker plays them in order.
    let mut queue: VecDeque<Job> = (first..=first + lag).map(|k| job(&learner, k)).collect();
    while !learner.finished() {
        let job_now = queue.pop_front().unwrap();
        assert_eq!(job_now.update, learner.state().update);
        if replace(job_now.update) {
            workers[1] = RolloutWorker::new(cfg.clone(), 1, Device::flex()).unwrap();
        }
        let shards: Vec<Vec<u8>> = workers.iter_mut().map(|w| play(w, &job_now)).collect();
        learner.update(&shards.iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap();
        queue.push_back(job(&learner, learner.state().update + lag));
    }
    let (update, decisions) = (learner.state().update, learner.state().decisions);
    (learner.finish().unwrap().checkpoint, update, decisions)
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
        let (dir, update, _) = drive(&cfg, &halves, |_| false);
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
    let (dir, update, decisions) = drive(&cfg, &out, |update| update == 2 || update == 3);
    assert!(update >= 4);
    // 8 games of 16 decisions an update, whichever worker played them.
    assert_eq!(decisions, update * 8 * 16);
    assert!(dir.join("model.bpk").is_file());
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
