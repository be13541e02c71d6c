//! Bid rounds (config `[bidding]`): a run fits bid values round after round,
//! deterministically for its seed; from the first fit they steer the network's
//! contract decisions, in burn and in the exported ONNX graph alike; bad
//! settings are refused in one line. (Exact resume of a run with bid rounds
//! is in `resume.rs`.)

use bones_agents::Policy as _;
use bones_env::texas42::CONTRACT_DECISIONS_42;
use bones_env::{Game, GameState, Texas42, Texas42Rules};
use bones_policy::bid_values::BID_LOGIT_SCALE;
use bones_policy::export::{export, ExportOptions};
use bones_policy::inference::Actor;
use bones_policy::onnx::OnnxPolicy;
use bones_policy::sparse::SparseRows;
use bones_train::{checkpoint, train, TrainConfig};
use burn::prelude::{Device, Tensor, TensorData};
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bones-bidding-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The smoke run with three bid rounds of 30 hands.
pub fn bidding_config() -> TrainConfig {
    TrainConfig::load("smoke").unwrap().with(|c| {
        c.run.total_hands = 120;
        c.model.bid_hidden = 16;
        c.bidding.rounds = 3;
        c.bidding.round_hands = 30;
        c.bidding.keep_rounds = 2;
        c.bidding.fit_epochs = 2;
        c.bidding.fit_minibatch = 32;
        c.eval.eval_every = 0;
    })
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Observations of the seat to act along a few self-play hands: (contract decisions, play decisions).
fn observations(game: &Texas42) -> (Vec<f32>, Vec<f32>) {
    let (mut contract, mut play) = (Vec::new(), Vec::new());
    let mut obs = vec![0f32; game.obs_len()];
    for seed in 0..6 {
        let mut state = game.new_state(seed, bones_env::Episode::Hand);
        while let Some(seat) = state.current_seat() {
            state.observe(seat, &mut obs);
            let legal = state.legal_mask();
            let is_contract = legal.iter().all(|a| CONTRACT_DECISIONS_42.actions.contains(a));
            if is_contract { &mut contract } else { &mut play }.extend_from_slice(&obs);
            state.apply(legal.nth(seed as usize % legal.len())).unwrap();
        }
    }
    (contract, play)
}

#[test]
fn bid_rounds_fit_bid_values_that_steer_the_contract_decisions_in_burn_and_in_onnx() {
    let cfg = bidding_config();
    let game = Texas42::new(Texas42Rules::STANDARD);
    let (out, again) = (tmp("run"), tmp("again"));
    train(game, &cfg, &out, false, Device::flex(), &mut ()).unwrap();

    // Each round kept its model; its calibration is in bidding.csv.
    assert!(!out.join("rounds/round-04").exists());
    for r in 1..=3 {
        let dir = out.join(format!("rounds/round-{r:02}"));
        assert!(dir.join("bid_values.bpk").is_file() && dir.join("model.bpk").is_file(), "{}", dir.display());
    }
    let csv = String::from_utf8(read(&out.join("bidding.csv"))).unwrap();
    assert!(csv.starts_with("round,bin,declarations,predicted,made\n"), "{csv}");
    for r in 1..=3 {
        assert!(csv.lines().any(|l| l.starts_with(&format!("{r},"))), "round {r} missing:\n{csv}");
    }

    // At contract decisions the logits are the bid values' (sparse actor,
    // dense network); elsewhere the policy head's.
    let device = Device::flex();
    let (ol, na) = (game.obs_len(), game.num_actions());
    let last = |o: &Path| checkpoint::latest(&o.join("checkpoints")).unwrap();
    let model = checkpoint::load_model(&last(&out), ol, na, &device).unwrap();
    let bids = model.bid_values().expect("the run's network has bid values").clone();
    let (contract, play) = observations(&game);
    let rows = |x: &[f32]| x.len() / ol;
    let tensor = |x: &[f32]| Tensor::<2>::from_data(TensorData::new(x.to_vec(), [rows(x), ol]), &device);
    let values: Vec<f32> = bids.forward(tensor(&contract)).into_data().try_to_vec().unwrap();

    // The same seed, the same bid values and calibration.
    train(game, &cfg, &again, false, Device::flex(), &mut ()).unwrap();
    let twin = checkpoint::load_model(&last(&again), ol, na, &device).unwrap();
    let twin_values: Vec<f32> = twin.bid_values().unwrap().forward(tensor(&contract)).into_data().try_to_vec().unwrap();
    assert!(values == twin_values, "two runs of one seed fitted other bid values");
    assert_eq!(read(&out.join("bidding.csv")), read(&again.join("bidding.csv")));
    let actor = Actor::new(model.clone(), &device);
    let (sparse, _) = actor.forward(&SparseRows::from_dense(&contract, ol));
    let (dense, _) = model.forward(tensor(&contract));
    let dense: Vec<f32> = dense.into_data().try_to_vec().unwrap();
    let policy_head = model.clone().split_bid_values().0;
    let (prior, _) = policy_head.forward(tensor(&contract));
    let prior: Vec<f32> = prior.into_data().try_to_vec().unwrap();
    for (((s, d), v), p) in sparse.iter().zip(&dense).zip(&values).zip(&prior) {
        let want = p + v * BID_LOGIT_SCALE;
        assert!((s - want).abs() <= 1e-4 && (d - want).abs() <= 1e-4, "sparse {s}, dense {d}, head + values {want}");
    }
    let (head, _) = policy_head.forward(tensor(&play));
    let head: Vec<f32> = head.into_data().try_to_vec().unwrap();
    let (sparse_play, _) = actor.forward(&SparseRows::from_dense(&play, ol));
    for (a, b) in sparse_play.iter().zip(&head) {
        assert!((a - b).abs() <= 1e-4, "play logits {a} vs the policy head's {b}");
    }

    // The export carries them: bid_values.bpk, model.json, and the ONNX graph
    // computes the same logits (run by tract).
    let folder = tmp("model");
    export(&game, Texas42Rules::STANDARD.to_json(), &last(&out), &folder, &ExportOptions::default()).unwrap();
    assert!(folder.join("bid_values.bpk").is_file());
    let meta: serde_json::Value = serde_json::from_slice(&read(&folder.join("model.json"))).unwrap();
    assert_eq!(meta["network"]["bid_values"]["hidden"], 16);
    assert_eq!(meta["network"]["bid_values"]["logit_scale"], BID_LOGIT_SCALE as f64);
    let mut onnx = OnnxPolicy::load(&folder, None, "texas42", ol, na).unwrap();
    for (x, burn) in [(&contract, &sparse), (&play, &sparse_play)] {
        let got = onnx.logits(x, rows(x));
        for (a, b) in got.iter().zip(burn.iter()) {
            assert!((a - b).abs() <= 1e-3 * b.abs().max(1.0), "onnx {a} vs burn {b}");
        }
    }
    for d in [out, again, folder] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_bid_round_settings_are_refused_in_one_line() {
    for (text, says) in [
        ("[bidding]\nrounds = 2", "need bid values: set `model.bid_hidden`"),
        ("[model]\nbid_hidden = 8\n[bidding]\nrounds = 2\n[run]\nworkers = 2", "set `workers = 0`"),
        ("[model]\nbid_hidden = 8\n[bidding]\nrounds = 2\nrecent_weight = 2.0", "`recent_weight` must be in 0..=1"),
        ("[model]\nbid_hidden = 8\n[bidding]\nrounds = 2\nround_hands = 0", "`round_hands` must be at least 1"),
        ("[model]\nbid_hidden = 8\n[bidding]\nrounds = 2\nfit_epochs = 0", "`fit_epochs` must be at least 1"),
        ("[model]\ngame = \"doubles\"\nbid_hidden = 8", "doubles has no bidding to price"),
        ("[bidding]\nround = 2", "unknown key `bidding.round` (did you mean `bidding.rounds`?)"),
    ] {
        let e = TrainConfig::from_toml(text, "x").unwrap_err().to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
    }
}
