//! Every file in `configs/` runs as written: each is read as `bones train
//! --config FILE` reads it and trains with it, for as few hands as a run of
//! it can play. Only the sizes that make a run slow are made smaller, as a
//! user overrides them (`bones train --hands N` sets `run.total_hands` the
//! same way): the run's hands, the games a rollout plays (`ppo.num_envs`) and
//! the deals of its evaluation (`eval.eval_hands`); everything else (the
//! network, the PPO settings, the workers, the critic, the teacher, `init`)
//! is the file's. All run on the CPU, `configs/gpu.toml` too (its actor-learner
//! with 14 workers and its update on the CPU backend: the same code as on a
//! GPU but for the device). A relative `init` is read from the repository's
//! root, where the file says to run it (`models/texas42-v1` of
//! `texas42-shipped.toml` is the shipped folder of that name).

use bones_env::registry::AnyGame;
use bones_train::{train, TrainConfig};
use burn::prelude::Device;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_config_file_trains_as_written_with_only_its_sizes_made_smaller() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("configs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let names: Vec<String> = files.iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    for preset in ["cpu-quick", "cpu-full", "gpu", "smoke", "doubles", "texas42-shipped"] {
        assert!(names.iter().any(|n| n == preset), "configs/{preset}.toml: not found in {names:?}");
    }
    for (path, name) in files.iter().zip(&names) {
        let written = TrainConfig::load(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let cfg = written.clone().with(|c| {
            c.run.total_hands = 1;
            c.ppo.num_envs = c.ppo.num_envs.min(16).max(c.run.workers);
            c.eval.eval_hands = c.eval.eval_hands.min(8);
            if let Some(init) = c.run.init.as_mut().filter(|p| p.is_relative()) {
                *init = root().join(&*init);
            }
        });
        if let Some(init) = &cfg.run.init {
            assert!(init.is_dir(), "{name}: `init` names {}, which is not there", init.display());
        }
        cfg.validate().unwrap_or_else(|e| panic!("{name}, made smaller: {e}"));

        let out = std::env::temp_dir().join(format!("bones-configs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let game = cfg.game().unwrap();
        let run = |out: &Path| match game {
            AnyGame::Texas42(g) => train(g, &cfg, out, false, Device::flex(), &mut ()),
            AnyGame::Doubles(g) => train(g, &cfg, out, false, Device::flex(), &mut ()),
        };
        let summary = run(&out).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(summary.state.update >= 1 && summary.state.hands >= 1, "{name}: {:?}", summary.state);
        assert!(summary.checkpoint.join("model.bpk").is_file(), "{name}: no checkpoint");
        if cfg.ppo.teacher.is_some() {
            assert!(
                summary.profile.seconds(bones_train::profile::Phase::Teacher) > 0.0,
                "{name}: the teacher never ran"
            );
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}
