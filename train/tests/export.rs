//! `bones export`: a trained checkpoint becomes a model folder whose ONNX graph
//! has the documented names, whose metadata describes the observation and the
//! actions exactly, and which loads back as a `model:PATH` agent.

use bones_env::{Game, Texas42, Texas42Rules};
use bones_policy::agent::PolicyAgent;
use bones_policy::export::{export, ExportError, ExportOptions};
use bones_train::{checkpoint, train, TrainConfig};
use burn::prelude::{Device, Tensor, TensorData};
use burn::store::{ModuleSnapshot, SafetensorsStore};
use onnx_ir::{Message, ModelProto};
use serde_json::Value;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bones-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn trained(name: &str) -> (PathBuf, Texas42) {
    let mut cfg = TrainConfig::load("smoke").unwrap();
    cfg.run.total_hands = 40;
    cfg.eval.eval_every = 0;
    let out = tmp(name);
    let game = Texas42::new(Texas42Rules::STANDARD);
    train(game, &cfg, &out, false, Device::flex(), &mut ()).unwrap();
    (checkpoint::latest(&out.join("checkpoints")).unwrap(), game)
}

#[test]
fn an_export_writes_a_named_onnx_graph_metadata_and_a_loadable_model() {
    let (ck, game) = trained("run");
    let out = tmp("model");
    let evals = out.with_extension("evals.jsonl");
    std::fs::write(&evals, "{\"agents\":[\"model:x\",\"random\"],\"games\":10,\"win_rate\":0.9}\n").unwrap();
    let opts = ExportOptions { evaluations: vec![evals.clone()], parity_samples: 100, seed: 3 };
    let summary = export(&game, Texas42Rules::STANDARD.to_json(), &ck, &out, &opts).unwrap();
    for f in
        ["model.onnx", "weights.safetensors", "model.bpk", "config.toml", "model.json", "parity.json", "parity.bin"]
    {
        assert!(out.join(f).is_file(), "{f} missing");
        assert!(summary.files.contains(&out.join(f)));
    }
    // No temporary files are left behind.
    let names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), 7, "{names:?}");

    // The ONNX graph: `obs` [batch, obs_len] in; `logits` and `value` out; the batch axis is symbolic.
    let proto = ModelProto::parse_from_bytes(&std::fs::read(out.join("model.onnx")).unwrap()).unwrap();
    let graph = proto.graph.as_ref().unwrap();
    let inputs: Vec<&str> = graph.input.iter().map(|v| v.name.as_str()).collect();
    let outputs: Vec<&str> = graph.output.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(inputs, ["obs"]);
    assert_eq!(outputs, ["logits", "value"]);
    let dims = &graph.input[0].type_.tensor_type().shape.dim;
    assert!(!dims[0].dim_param().is_empty(), "the batch axis is not dynamic");
    assert_eq!(dims[1].dim_value() as usize, game.obs_len());
    assert!(graph.node.iter().any(|n| n.input.iter().any(|i| i == "obs")), "no node reads `obs`");
    assert!(graph.node.iter().any(|n| n.output.iter().any(|o| o == "logits")), "no node writes `logits`");

    // model.json: observation table and action names exactly as the game has them.
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(out.join("model.json")).unwrap()).unwrap();
    assert_eq!(meta["game"], "texas42");
    assert_eq!(meta["observation"]["version"], game.obs_version());
    assert_eq!(meta["observation"]["length"], game.obs_len());
    let segs = meta["observation"]["segments"].as_array().unwrap();
    assert_eq!(segs.len(), game.obs_segments().len());
    let mut offset = 0;
    for (s, want) in segs.iter().zip(game.obs_segments()) {
        assert_eq!((s["name"].as_str().unwrap(), s["offset"].as_u64().unwrap()), (want.name, offset as u64));
        offset += want.len;
    }
    assert_eq!(offset, game.obs_len());
    let actions: Vec<&str> = meta["actions"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(actions.len(), game.num_actions());
    assert_eq!((actions[0], actions[28], actions[29], actions[50]), ("0-0", "pass", "30", "blanks"));
    assert_eq!(meta["rules"], Texas42Rules::STANDARD.to_json());
    assert_eq!(meta["network"]["hidden"], 32);
    assert_eq!(meta["evaluation"][0]["games"], 10);
    assert!(meta["training"]["run"]["hands"].as_u64().unwrap() >= 40);

    // The parity samples: `rows` rows of obs | logits | value.
    let header: Value = serde_json::from_str(&std::fs::read_to_string(out.join("parity.json")).unwrap()).unwrap();
    assert_eq!(header["rows"], 100);
    let bytes = std::fs::metadata(out.join("parity.bin")).unwrap().len() as usize;
    assert_eq!(bytes, 100 * (game.obs_len() + game.num_actions() + 1) * 4);

    // The folder is an agent, and re-exporting it keeps the run and the evaluations.
    let agent = PolicyAgent::load(&out, "texas42", game.obs_len(), game.num_actions()).unwrap();
    assert_eq!(agent.trained_rules, "standard");
    let again = tmp("again");
    export(&game, Texas42Rules::STANDARD.to_json(), &out, &again, &ExportOptions::default()).unwrap();
    let meta2: Value = serde_json::from_str(&std::fs::read_to_string(again.join("model.json")).unwrap()).unwrap();
    assert_eq!(meta2["evaluation"], meta["evaluation"]);
    assert_eq!(meta2["training"]["run"], meta["training"]["run"]);
    assert_eq!(meta2["training"]["checkpoint"], meta["training"]["checkpoint"]);
    assert_eq!(std::fs::read(again.join("model.bpk")).unwrap(), std::fs::read(out.join("model.bpk")).unwrap());

    // weights.safetensors holds the same network as model.bpk (its header order
    // may differ between writes, so compare what it loads into).
    let device = Device::flex();
    let (ol, na) = (game.obs_len(), game.num_actions());
    let burn_model = checkpoint::load_model(&out, ol, na, &device).unwrap();
    let cfg = checkpoint::read_config(&out).unwrap();
    let mut st_model = checkpoint::policy_config(&cfg, ol, na).init(&device);
    st_model.load_from(&mut SafetensorsStore::from_file(again.join("weights.safetensors"))).unwrap();
    let x: Vec<f32> = (0..3 * ol).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect();
    let input = || Tensor::<2>::from_data(TensorData::new(x.clone(), [3, ol]), &device);
    let (la, va) = burn_model.forward(input());
    let (lb, vb) = st_model.forward(input());
    assert_eq!(la.into_data().try_to_vec::<f32>().unwrap(), lb.into_data().try_to_vec::<f32>().unwrap());
    assert_eq!(va.into_data().try_to_vec::<f32>().unwrap(), vb.into_data().try_to_vec::<f32>().unwrap());

    for d in [ck.parent().unwrap().parent().unwrap().to_path_buf(), out, again] {
        let _ = std::fs::remove_dir_all(d);
    }
    let _ = std::fs::remove_file(evals);
}

#[test]
fn exporting_to_the_wrong_game_or_a_bad_evaluation_file_is_a_clear_error() {
    let (ck, game) = trained("bad");
    let doubles = bones_env::Doubles::new(bones_env::rules::DoublesRules::default());
    let e = export(&doubles, Value::Null, &ck, &tmp("x"), &ExportOptions::default()).unwrap_err();
    assert!(matches!(e, ExportError::WrongGame { .. }), "{e}");
    assert!(e.to_string().contains("texas42"), "{e}");

    let evals = tmp("evals.jsonl");
    std::fs::write(&evals, "{\"agents\":[\"a\",\"b\"]}\nnot json\n").unwrap();
    let opts = ExportOptions { evaluations: vec![evals.clone()], ..ExportOptions::default() };
    let e = export(&game, Texas42Rules::STANDARD.to_json(), &ck, &tmp("y"), &opts).unwrap_err().to_string();
    assert!(e.contains("line 2"), "{e}");

    let e = export(&game, Value::Null, &tmp("nowhere"), &tmp("z"), &ExportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("config.toml"), "{e}");
    let _ = std::fs::remove_file(evals);
    let _ = std::fs::remove_dir_all(ck.parent().unwrap().parent().unwrap());
}
