//! `onnx:PATH`: the shipped models' `model.onnx`, run by tract, decide as the
//! burn policy of the same folder (`model:PATH`) does, and every mismatch
//! between a network and the game is refused with a reason.

use bones_agents::policy::Wanted;
use bones_agents::{AgentFactory, AgentRng, AgentSpec, PolicyLoader};
use bones_env::rules::DoublesRules;
use bones_env::{Doubles, Env, Episode, Game, Texas42, Texas42Rules};
use bones_policy::agent::{factory, ModelLoader};
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};

/// Logits agree within this, relative to their size (at least 1).
const TOLERANCE: f32 = 1e-4;

fn model_dir(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("models").join(game)
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bones-onnx-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// What the two policies did on the positions of one game.
#[derive(Debug, Default)]
struct Parity {
    positions: usize,
    same_action: usize,
    /// Different actions whose logits tie within the tolerance.
    ties: usize,
    largest_gap: f32,
}

impl Parity {
    fn add(&mut self, other: Parity) {
        self.positions += other.positions;
        self.same_action += other.same_action;
        self.ties += other.ties;
        self.largest_gap = self.largest_gap.max(other.largest_gap);
    }
}

/// Plays `episodes` seeded hands of `game` (by the burn policy's greedy
/// choice in even episodes, uniformly at random in odd ones) and compares the
/// two policies at every decision: the action, and every logit, one
/// observation at a time and all of them in one batch.
fn compare<G: Game>(game: G, dir: &Path, episodes: u64) -> Parity {
    let num_actions = game.num_actions();
    let mut burn = ModelLoader.load(dir, Wanted::of(&game)).unwrap_or_else(|e| panic!("model: {e}"));
    let mut onnx = ModelLoader.load_onnx(dir, None, Wanted::of(&game)).unwrap_or_else(|e| panic!("onnx: {e}"));
    let mut env = Env::new(game, Episode::Hand);
    let (mut rng_a, mut rng_b) = (AgentRng::seed_from_u64(7), AgentRng::seed_from_u64(7));
    let mut mover = AgentRng::seed_from_u64(11);
    let mut parity = Parity::default();
    let mut all_obs = Vec::new();
    let mut all_logits = Vec::new();
    for seed in 0..episodes {
        let mut t = env.reset(seed).clone();
        while t.seat.is_some() {
            let a = burn.decide(&t.obs, t.legal, &mut rng_a);
            let b = onnx.decide(&t.obs, t.legal, &mut rng_b);
            let la = burn.logits(&t.obs, 1);
            let lb = onnx.logits(&t.obs, 1);
            assert_eq!(lb.len(), num_actions);
            for (i, (&x, &y)) in la.iter().zip(&lb).enumerate() {
                assert!(close(x, y), "seed {seed} step {}: logit {i}: burn {x}, onnx {y}", t.steps);
                parity.largest_gap = parity.largest_gap.max((x - y).abs());
            }
            assert!(t.legal.contains(b), "seed {seed} step {}: onnx chose illegal {b}", t.steps);
            parity.positions += 1;
            if a == b {
                parity.same_action += 1;
            } else {
                assert!(
                    close(la[a], la[b]),
                    "seed {seed} step {}: burn chose {a} ({}), onnx {b} ({}): not a tie",
                    t.steps,
                    la[a],
                    la[b]
                );
                parity.ties += 1;
            }
            all_obs.extend_from_slice(&t.obs);
            all_logits.extend(la);
            let next = if seed % 2 == 0 {
                a
            } else {
                let legal: Vec<_> = t.legal.iter().collect();
                legal[mover.random_range(0..legal.len())]
            };
            t = env.step(next).unwrap().clone();
        }
    }
    let rows = parity.positions;
    let batched = onnx.logits(&all_obs, rows);
    assert_eq!(batched.len(), all_logits.len(), "batched logits of {rows} rows");
    for (i, (&x, &y)) in all_logits.iter().zip(&batched).enumerate() {
        assert!(close(x, y), "batch row {} logit {}: burn {x}, onnx {y}", i / num_actions, i % num_actions);
    }
    assert!(onnx.logits(&[], 0).is_empty());
    parity
}

#[test]
fn the_shipped_texas42_onnx_decides_as_its_burn_policy() {
    let mut parity = compare(Texas42::new(Texas42Rules::STANDARD), &model_dir("texas42"), 20);
    parity.add(compare(Texas42::new(Texas42Rules::FULL), &model_dir("texas42"), 8));
    eprintln!("texas42: {parity:?}");
    assert!(parity.positions >= 300, "{parity:?}");
    assert_eq!(parity.same_action + parity.ties, parity.positions);
}

#[test]
fn the_shipped_doubles_onnx_decides_as_its_burn_policy() {
    let mut parity = compare(Doubles::new(DoublesRules::default()), &model_dir("doubles"), 16);
    parity.add(compare(Doubles::new(DoublesRules { players: 2, ..DoublesRules::default() }), &model_dir("doubles"), 8));
    eprintln!("doubles: {parity:?}");
    assert!(parity.positions >= 300, "{parity:?}");
    assert_eq!(parity.same_action + parity.ties, parity.positions);
}

#[test]
fn the_onnx_spec_builds_through_the_factory_and_a_bare_file_with_its_version() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let file = model_dir("texas42").join("model.onnx");
    for spec in [format!("onnx:{}", model_dir("texas42").display()), format!("onnx:observation=2:{}", file.display())] {
        let spec = AgentSpec::parse(&spec).unwrap();
        assert!(factory().build(&spec, &game).is_ok(), "{spec}");
    }
    // A program without a loader that runs ONNX says so.
    let spec = AgentSpec::parse(&format!("onnx:{}", model_dir("texas42").display())).unwrap();
    assert!(AgentFactory::new().build(&spec, &game).is_err());
}

/// The reason `onnx:` refuses `path` for `game`.
fn refusal(path: &Path, observation: Option<u32>, game: &str) -> String {
    let (obs_len, num_actions) = match game {
        "texas42" => (Texas42::new(Texas42Rules::STANDARD).obs_len(), 61),
        _ => (Doubles::new(DoublesRules::default()).obs_len(), 58),
    };
    match ModelLoader.load_onnx(path, observation, Wanted { game, obs_len, num_actions }) {
        Ok(_) => panic!("{} loaded for {game}", path.display()),
        Err(reason) => reason,
    }
}

fn assert_says(reason: &str, words: &[&str]) {
    for w in words {
        assert!(reason.contains(w), "`{reason}` does not say `{w}`");
    }
}

#[test]
fn a_model_folder_of_the_other_game_is_refused() {
    let reason = refusal(&model_dir("doubles"), None, "texas42");
    assert_says(&reason, &["is a doubles model, not texas42"]);
    let reason = refusal(&model_dir("texas42"), None, "doubles");
    assert_says(&reason, &["is a texas42 model, not doubles"]);
}

#[test]
fn an_observation_version_that_is_not_the_games_is_refused() {
    // Against the folder's model.json.
    let reason = refusal(&model_dir("texas42"), Some(99), "texas42");
    assert_says(&reason, &["observation=99", "version 2", "model.json"]);
    // A bare file read as another version than the game writes.
    let reason = refusal(&model_dir("texas42").join("model.onnx"), Some(99), "texas42");
    assert_says(&reason, &["observation version 99", "writes version 2"]);
    // A model.json that says another version than the game writes.
    let dir = scratch("old-version");
    let text = std::fs::read_to_string(model_dir("doubles").join("model.json")).unwrap();
    let mut meta: serde_json::Value = serde_json::from_str(&text).unwrap();
    meta["observation"]["version"] = 7.into();
    std::fs::write(dir.join("model.json"), meta.to_string()).unwrap();
    std::fs::copy(model_dir("doubles").join("model.onnx"), dir.join("model.onnx")).unwrap();
    let reason = refusal(&dir, None, "doubles");
    assert_says(&reason, &["doubles observation version 7", "writes version 1"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bare_onnx_file_needs_its_observation_version() {
    let reason = refusal(&model_dir("doubles").join("model.onnx"), None, "doubles");
    assert_says(&reason, &["bare .onnx file", "observation=V", "version 1"]);
}

#[test]
fn a_missing_path_or_file_is_refused() {
    let reason = refusal(Path::new("/nonexistent/bones/model"), None, "texas42");
    assert_says(&reason, &["/nonexistent/bones/model", "no such file"]);
    let dir = scratch("no-onnx");
    std::fs::copy(model_dir("texas42").join("model.json"), dir.join("model.json")).unwrap();
    let reason = refusal(&dir, None, "texas42");
    assert_says(&reason, &["model.onnx", "no such file"]);
    let reason = refusal(&scratch("empty"), None, "texas42");
    assert_says(&reason, &["model.json", "no such file"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_that_is_not_onnx_is_refused() {
    let dir = scratch("not-onnx");
    let file = dir.join("policy.onnx");
    std::fs::write(&file, b"this is not a protobuf of an ONNX model \xff\xfe\x00\x01").unwrap();
    let reason = refusal(&file, Some(2), "texas42");
    assert_says(&reason, &["policy.onnx", "not an ONNX model"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_network_of_other_shapes_is_refused() {
    // The doubles network given as a texas42 one: its input has the wrong width.
    let reason = refusal(&model_dir("doubles").join("model.onnx"), Some(2), "texas42");
    assert_says(&reason, &["input `obs`", "[batch, 597]", "expected [batch, 914]"]);
    // A folder whose model.json is right but whose network is another game's.
    let dir = scratch("swapped");
    std::fs::copy(model_dir("texas42").join("model.json"), dir.join("model.json")).unwrap();
    std::fs::copy(model_dir("doubles").join("model.onnx"), dir.join("model.onnx")).unwrap();
    let reason = refusal(&dir, None, "texas42");
    assert_says(&reason, &["[batch, 597]", "914"]);
    let _ = std::fs::remove_dir_all(dir);
}
