//! The actor-learner (`workers = N`): rollout workers and the learner overlap,
//! with an exact policy lag, so a run is deterministic for its seed and worker
//! count; one worker without lag is the synchronous loop on another thread.

use bones_env::{Episode, Game, Texas42, Texas42Rules, VecEnv};
use bones_policy::inference::Actor;
use bones_policy::sparse::SparseRows;
use bones_train::checkpoint;
use bones_train::config::CriticKind;
use bones_train::critic::{critic_values, ORACLE_LEN};
use bones_train::log::read_scalars;
use bones_train::profile::Phase;
use bones_train::{train, TrainConfig};
use burn::prelude::Device;
use std::path::{Path, PathBuf};

pub(crate) fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bones-actor-learner-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The smoke config (8 games, 16 steps, an opponent pool from the first update)
/// with `workers` and `policy_lag`.
pub(crate) fn config(workers: usize, policy_lag: usize) -> TrainConfig {
    TrainConfig::load("smoke").unwrap().with(|c| {
        c.run.workers = workers;
        c.run.policy_lag = policy_lag;
    })
}

/// A checkpoint of the smoke config's network to start compared runs from
/// (`init`): a fresh network's weights come from burn's random source, one
/// per process, which the other tests running beside these draw from too.
pub(crate) fn start(name: &str) -> PathBuf {
    let out = tmp(name);
    let cfg = config(0, 0).with(|c| {
        c.run.total_hands = 8;
        c.eval.eval_every = 0;
    });
    train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap().checkpoint
}

/// Trains `cfg` into a fresh folder; returns what the final checkpoint's
/// networks compute ([`outputs_of`]) and the hands played.
fn weights_after(name: &str, cfg: &TrainConfig) -> (Vec<f32>, u64) {
    let out = tmp(name);
    let game = Texas42::new(Texas42Rules::STANDARD);
    let summary = train(game, cfg, &out, false, Device::flex(), &mut ()).unwrap();
    let outputs = outputs_of(&summary.checkpoint, cfg);
    let _ = std::fs::remove_dir_all(&out);
    (outputs, summary.state.hands)
}

/// What the networks of the checkpoint in `dir` (of a run of `cfg`) compute on
/// 32 fixed observations: the policy's logits and values, and with an oracle
/// critic its values (equal outputs, equal weights).
pub(crate) fn outputs_of(dir: &Path, cfg: &TrainConfig) -> Vec<f32> {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let device = Device::flex();
    let (ol, rows) = (game.obs_len(), 32);
    let obs = VecEnv::new(game, Episode::Hand, rows, 5, 1).obs;
    let model = checkpoint::load_model(dir, ol, game.num_actions(), &device).unwrap();
    let (mut outputs, values) = Actor::new(model, &device).forward(&SparseRows::from_dense(&obs, ol));
    outputs.extend(values);
    if cfg.ppo.critic == CriticKind::Oracle {
        let critic = checkpoint::load_critic(dir, ol, ORACLE_LEN, &device).unwrap();
        let hidden: Vec<f32> = (0..rows * ORACLE_LEN).map(|i| (i % 3) as f32).collect();
        outputs.extend(critic_values(&critic, &device, &obs, &hidden, rows));
    }
    outputs
}

#[test]
fn one_worker_without_lag_trains_exactly_the_weights_of_the_synchronous_loop() {
    let init = Some(start("start-one"));
    let sync = config(0, 0).with(|c| c.run.init = init.clone());
    let one = config(1, 0).with(|c| c.run.init = init);
    let (a, hands_a) = weights_after("sync", &sync);
    let (b, hands_b) = weights_after("one", &one);
    assert_eq!(hands_a, hands_b);
    assert!(a == b, "one worker without lag trained other weights than the synchronous loop");
    let _ = std::fs::remove_dir_all(tmp("start-one"));
}

#[test]
fn an_actor_learner_run_is_the_same_for_its_seed_whatever_the_timing() {
    let init = Some(start("start-lag"));
    let cfg = config(2, 1).with(|c| c.run.init = init.clone());
    let (a, _) = weights_after("lag-a", &cfg);
    let (b, _) = weights_after("lag-b", &cfg);
    assert!(a == b, "two runs of one config and seed trained different weights");
    // The lag changes what is learned (the behaviour policy is older).
    let (sync, _) = weights_after("lag-sync", &config(0, 1).with(|c| c.run.init = init));
    assert!(a != sync);
    let _ = std::fs::remove_dir_all(tmp("start-lag"));
}

#[test]
fn an_actor_learner_run_logs_checkpoints_and_resumes_its_run_folder() {
    let cfg = config(3, 1);
    let out = tmp("folder");
    let game = Texas42::new(Texas42Rules::STANDARD);
    let summary = train(game, &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    assert!(summary.state.hands >= cfg.run.total_hands);
    assert!(summary.state.update >= 2);
    // Each update counted its rollout once: 8 games of 16 decisions.
    assert_eq!(summary.state.decisions, summary.state.update * 8 * 16);
    assert!(summary.profile.seconds(Phase::Waiting) > 0.0);
    let scalars = read_scalars(&out).unwrap();
    for tag in ["losses/policy_loss", "losses/value_loss", "charts/hands_per_s", "charts/episodic_return"] {
        let points = scalars.get(tag).unwrap_or_else(|| panic!("no `{tag}` in {:?}", scalars.keys()));
        assert!(points.iter().all(|(_, v)| v.is_finite()), "{tag}: {points:?}");
    }
    assert_eq!(scalars["losses/policy_loss"].len() as u64, summary.state.update);
    assert!(scalars.contains_key("eval/win_rate_vs_heuristic"));
    let saved = checkpoint::read_config(&checkpoint::latest(&out.join("checkpoints")).unwrap()).unwrap();
    assert_eq!(saved.run.workers, 3);

    let more = cfg.with(|c| c.run.total_hands = summary.state.hands + 40);
    let resumed = train(game, &more, &out, true, Device::flex(), &mut ()).unwrap();
    assert!(resumed.state.update > summary.state.update);
    assert!(resumed.state.hands >= more.run.total_hands);
    assert_eq!(resumed.state.decisions, resumed.state.update * 8 * 16);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_actor_learner_hands_its_workers_the_oracle_critic() {
    let cfg = config(2, 1).with(|c| {
        c.ppo.critic = CriticKind::Oracle;
        c.run.total_hands = 40;
    });
    let out = tmp("oracle");
    let summary = train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    let scalars = read_scalars(&out).unwrap();
    assert!(scalars["losses/explained_variance"].iter().all(|(_, v)| v.is_finite()));
    assert!(summary.checkpoint.join("critic.bpk").is_file());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn more_workers_than_games_or_a_long_lag_is_a_clear_config_error() {
    let out = tmp("bad");
    let game = Texas42::default();
    for (cfg, says) in [(config(9, 1), "`workers` must be at most `num_envs`"), (config(2, 17), "`policy_lag`")] {
        let e = train(game, &cfg, &out, false, Device::flex(), &mut ()).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
    assert!(!Path::new(&out).exists(), "a refused config wrote a run folder");
}
