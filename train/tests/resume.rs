//! Exact resume: a run stopped after any checkpoint and resumed ends with the
//! weights, optimizer state and counters of the run never stopped, bit for
//! bit; a damaged checkpoint is passed over for the one before it, and said.
//! (The CLI's test kills a real `bones train` with SIGKILL.)

use bones_env::{Doubles, Texas42};
use bones_train::checkpoint::{self, RunState};
use bones_train::training::Progress;
use bones_train::{train, TrainConfig};
use burn::prelude::Device;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bones-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The smoke config cut to 40 hands of Texas 42, trained into the fresh
/// folder `tmp(name)`: the config and the folder.
fn smoke_run(name: &str) -> (TrainConfig, PathBuf) {
    let cfg = TrainConfig::load("smoke").unwrap().with(|c| c.run.total_hands = 40);
    let out = tmp(name);
    train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    (cfg, out)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Copies the run's checkpoints, as a run killed after update `k` leaves
/// them, into `OUT-stop-k` (the run's folder for the resumed run).
struct StopAt<'a> {
    out: &'a Path,
    at: &'a [u64],
}

impl Progress for StopAt<'_> {
    fn update(&mut self, state: &RunState, _: f64, _: f64) {
        if self.at.contains(&state.update) {
            let copy = stopped(self.out, state.update);
            copy_dir(&self.out.join("checkpoints"), &copy.join("checkpoints"));
        }
    }
}

fn stopped(out: &Path, update: u64) -> PathBuf {
    out.with_file_name(format!("{}-stop-{update}", out.file_name().unwrap().to_string_lossy()))
}

/// Lines noted to the user.
#[derive(Default)]
struct Notes(Vec<String>);

impl Progress for Notes {
    fn update(&mut self, _: &RunState, _: f64, _: f64) {}

    fn note(&mut self, line: &str) {
        self.0.push(line.to_string());
    }
}

/// What must match bit for bit: the weights and the counters (but the wall
/// time) of the last checkpoint. (The optimizer's file is not compared byte
/// for byte: burn writes its map of states in no fixed order. Its state is
/// checked through the weights: Adam's moments steer every update after the
/// stop.)
fn ending(out: &Path) -> (Vec<u8>, RunState) {
    let dir = checkpoint::latest(&out.join("checkpoints")).unwrap();
    let mut state = checkpoint::read_meta(&dir).unwrap().1;
    state.seconds = 0.0;
    (std::fs::read(dir.join("model.bpk")).unwrap(), state)
}

fn resumes_exactly<G: bones_agents::AgentGame>(game: G, cfg: &TrainConfig, name: &str, stops: &[u64]) {
    let out = tmp(name);
    let summary = train(game.clone(), cfg, &out, false, Device::flex(), &mut StopAt { out: &out, at: stops }).unwrap();
    assert!(summary.state.update > *stops.iter().max().unwrap(), "the run is too short to stop at {stops:?}");
    let whole = ending(&out);
    for &k in stops {
        let dir = stopped(&out, k);
        train(game.clone(), cfg, &dir, true, Device::flex(), &mut ()).unwrap();
        let resumed = ending(&dir);
        assert_eq!(resumed.1, whole.1, "{name}: stopped after update {k}");
        assert!(resumed.0 == whole.0, "{name}: stopped after update {k}, the weights differ");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_run_stopped_after_any_checkpoint_and_resumed_ends_bit_for_bit_where_the_unbroken_run_ends() {
    // The smoke config plays against a pool of snapshots (refreshed every
    // update) in half of the games, with games running across rollouts.
    let cfg = TrainConfig::load("smoke").unwrap().with(|c| {
        c.run.total_hands = 160;
        c.checkpoints.checkpoint_every = 1;
    });
    resumes_exactly(Texas42::default(), &cfg, "texas42", &[1, 3, 6]);
    let doubles = cfg.with(|c| {
        c.model.game = "doubles".into();
        c.model.reward_scale = 0.01;
        c.run.total_hands = 40;
    });
    resumes_exactly(Doubles::default(), &doubles, "doubles", &[2]);
}

#[test]
fn a_damaged_latest_checkpoint_is_passed_over_for_the_one_before_and_the_run_still_ends_the_same() {
    let cfg = TrainConfig::load("smoke").unwrap().with(|c| {
        c.run.total_hands = 120;
        c.checkpoints.checkpoint_every = 1;
    });
    let out = tmp("damaged");
    train(Texas42::default(), &cfg, &out, false, Device::flex(), &mut StopAt { out: &out, at: &[4] }).unwrap();
    let whole = ending(&out);

    let dir = stopped(&out, 4);
    let latest = checkpoint::latest(&dir.join("checkpoints")).unwrap();
    assert!(latest.ends_with("update-000004"), "{}", latest.display());
    let model = latest.join("model.bpk");
    let bytes = std::fs::read(&model).unwrap();
    std::fs::write(&model, &bytes[..bytes.len() / 2]).unwrap();

    let mut notes = Notes::default();
    train(Texas42::default(), &cfg, &dir, true, Device::flex(), &mut notes).unwrap();
    let said = notes.0.join("\n");
    assert!(said.contains("update-000004") && said.contains("model.bpk") && said.contains("cut short"), "{said}");
    assert!(said.contains("resuming from") && said.contains("update-000003"), "{said}");
    assert!(notes.0.iter().all(|l| !l.contains('\n')));
    let resumed = ending(&dir);
    assert_eq!(resumed.1, whole.1);
    assert!(resumed.0 == whole.0, "resumed from update 3, the run ends with other weights");

    // With every checkpoint damaged, resume refuses in one line naming them.
    for c in checkpoint::resumable(&dir.join("checkpoints")) {
        std::fs::write(c.join("optim.bpk"), b"not an optimizer").unwrap();
    }
    let e = train(Texas42::default(), &cfg, &dir, true, Device::flex(), &mut ()).unwrap_err().to_string();
    assert!(e.contains("no good checkpoint") && e.contains("optim.bpk"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_file_of_a_checkpoint_damaged_in_turn_is_refused_by_name() {
    let (_, out) = smoke_run("fuzz");
    let dir = checkpoint::latest(&out.join("checkpoints")).unwrap();
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let files: Vec<String> = serde_json::from_str::<serde_json::Value>(&manifest).unwrap()["files"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    for want in ["model.bpk", "optim.bpk", "state.json", "config.toml", "resume.json", "games-0.bin", "pool/00.bpk"] {
        assert!(files.iter().any(|f| f == want), "the manifest lists no {want}: {files:?}");
    }
    let (ol, na) = (bones_env::Game::obs_len(&Texas42::default()), bones_env::Game::num_actions(&Texas42::default()));
    for file in &files {
        let path = dir.join(file);
        let good = std::fs::read(&path).unwrap();
        // Cut short, one byte changed, removed.
        let mut flipped = good.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x55;
        for damage in [Some(good[..good.len() / 3].to_vec()), Some(flipped), None] {
            match &damage {
                Some(bytes) => std::fs::write(&path, bytes).unwrap(),
                None => std::fs::remove_file(&path).unwrap(),
            }
            let e = checkpoint::load_model(&dir, ol, na, &Device::flex()).unwrap_err().to_string();
            let name = Path::new(file).file_name().unwrap().to_string_lossy().to_string();
            assert!(e.contains(&name), "{file} damaged: {e}");
            assert_eq!(e.lines().count(), 1, "{e}");
            std::fs::write(&path, &good).unwrap();
        }
    }
    checkpoint::load_model(&dir, ol, na, &Device::flex()).unwrap();
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_run_resumes_with_other_games_or_as_an_actor_learner_dealing_new_games() {
    let (cfg, out) = smoke_run("reshaped");
    // The checkpoint's 8 games are not 12: the resumed run deals 12 new ones.
    let wider = cfg.clone().with(|c| {
        c.ppo.num_envs = 12;
        c.run.total_hands = 80;
    });
    let summary = train(Texas42::default(), &wider, &out, true, Device::flex(), &mut ()).unwrap();
    assert!(summary.state.hands >= 80);
    // The actor-learner's workers deal their own games.
    let workers = cfg.with(|c| {
        c.run.workers = 2;
        c.run.total_hands = 120;
    });
    let summary = train(Texas42::default(), &workers, &out, true, Device::flex(), &mut ()).unwrap();
    assert!(summary.state.hands >= 120);
    let _ = std::fs::remove_dir_all(&out);
}
