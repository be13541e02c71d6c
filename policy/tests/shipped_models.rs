//! The shipped models (`models/texas42`, `models/doubles`) load and give today's
//! outputs: for fixed observations from the `Env` (the first decisions of seeded
//! episodes, played by the first legal action or by the model's own greedy
//! choice) the greedy action, the probability of each legal action and the value
//! must match `tests/data/shipped-model-outputs.json` within 1e-4 (and the
//! log-probability of every legal action above 1e-6 within 1e-3).
//!
//! Each decision also stores a hash of its observation, so a failure says whether
//! the environment's encoding or the model's output changed. To regenerate the
//! record after an intended change (and review the diff):
//!
//! ```text
//! BONES_BLESS=1 cargo test -p bones-policy --test main shipped_models
//! ```

use bones_env::rules::DoublesRules;
use bones_env::{Doubles, Env, Episode, Game, Texas42, Texas42Rules};
use bones_policy::agent::PolicyAgent;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/shipped-model-outputs.json");
const TOLERANCE: f32 = 1e-4;
const LOG_TOLERANCE: f64 = 1e-3;

fn blessing() -> bool {
    std::env::var("BONES_BLESS").is_ok_and(|v| v == "1")
}

fn model_dir(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("models").join(game)
}

/// Doubles for `players` players, the other rules at their defaults.
fn doubles(players: u8) -> Doubles {
    Doubles::new(DoublesRules { players, ..DoublesRules::default() })
}

fn obs_hash(obs: &[f32]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for x in obs {
        for b in x.to_bits().to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The model's output at one decision.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Decision {
    /// Which episode (`game/how/seed`) and which decision in it.
    episode: String,
    step: usize,
    seat: usize,
    obs: String,
    /// The greedy action.
    action: usize,
    /// `(action, probability)` for each legal action, in id order.
    policy: Vec<(usize, f32)>,
    value: f32,
}

/// Plays `decisions` decisions of the episode dealt from `seed`, taking the first
/// legal action (`greedy` false) or the model's greedy action, and records the
/// model's output at each.
fn play<G: Game>(
    model: &mut PolicyAgent,
    game: G,
    label: &str,
    seed: u64,
    decisions: usize,
    greedy: bool,
) -> Vec<Decision> {
    let mut env = Env::new(game, Episode::Game);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut t = env.reset(seed).clone();
    let how = if greedy { "greedy" } else { "first-legal" };
    let mut out = Vec::new();
    for step in 0..decisions {
        let Some(seat) = t.seat else { break };
        let o = model.evaluate(&t.obs, t.legal, &mut rng);
        let first = t.legal.iter().next().expect("a legal action");
        out.push(Decision {
            episode: format!("{label}/{how}/seed={seed}"),
            step,
            seat,
            obs: obs_hash(&t.obs),
            action: o.action,
            policy: o.policy,
            value: o.value,
        });
        t = env.step(if greedy { o.action } else { first }).unwrap().clone();
    }
    out
}

fn decisions() -> Vec<Decision> {
    let t42 = Texas42::new(Texas42Rules::STANDARD);
    let mut m = PolicyAgent::load(&model_dir("texas42"), "texas42", t42.obs_len(), t42.num_actions())
        .unwrap_or_else(|e| panic!("load models/texas42: {e}"));
    let mut out = play(&mut m, t42, "texas42/standard", 1, 20, false);
    out.extend(play(&mut m, t42, "texas42/standard", 2, 20, true));
    out.extend(play(&mut m, Texas42::new(Texas42Rules::FULL), "texas42/full", 3, 10, true));

    let d4 = doubles(4);
    let mut m = PolicyAgent::load(&model_dir("doubles"), "doubles", d4.obs_len(), d4.num_actions())
        .unwrap_or_else(|e| panic!("load models/doubles: {e}"));
    out.extend(play(&mut m, d4, "doubles/4p", 1, 20, false));
    out.extend(play(&mut m, d4, "doubles/4p", 2, 20, true));
    out.extend(play(&mut m, doubles(2), "doubles/2p", 3, 10, true));
    out
}

/// What differs between the recorded and the current output of one decision.
fn difference(want: &Decision, got: &Decision) -> Option<String> {
    let mut what = Vec::new();
    if want.obs != got.obs || want.seat != got.seat {
        what.push(format!(
            "the observation changed (seat {} -> {}, obs hash {} -> {}): the env, not the model",
            want.seat, got.seat, want.obs, got.obs
        ));
    }
    if want.action != got.action {
        what.push(format!("greedy action {} -> {}", want.action, got.action));
    }
    let actions = |d: &Decision| d.policy.iter().map(|p| p.0).collect::<Vec<_>>();
    if actions(want) != actions(got) {
        what.push(format!("legal actions {:?} -> {:?}", actions(want), actions(got)));
    } else {
        for (&(a, p), &(_, q)) in want.policy.iter().zip(&got.policy) {
            let log_off = p > 1e-6 && ((p as f64).ln() - (q.max(1e-30) as f64).ln()).abs() > LOG_TOLERANCE;
            if (p - q).abs() > TOLERANCE || log_off {
                what.push(format!("P(action {a}) {p} -> {q}"));
            }
        }
    }
    if (want.value - got.value).abs() > TOLERANCE {
        what.push(format!("value {} -> {}", want.value, got.value));
    }
    (!what.is_empty()).then(|| format!("{} decision {}: {}", want.episode, want.step, what.join("; ")))
}

#[test]
fn shipped_models_give_the_recorded_outputs() {
    let got = decisions();
    if blessing() {
        // One decision a line; floats as their shortest f32 form.
        let lines: Vec<String> = got.iter().map(|d| serde_json::to_string(d).unwrap()).collect();
        let text = format!(
            "{{\"about\": \"outputs of models/texas42 and models/doubles on fixed observations; regenerate with \
             BONES_BLESS=1 cargo test -p bones-policy --test main shipped_models\",\n\"decisions\": [\n{}\n]}}",
            lines.join(",\n")
        );
        std::fs::create_dir_all(Path::new(RECORD).parent().unwrap()).unwrap();
        std::fs::write(RECORD, text + "\n").unwrap();
        eprintln!("blessed {RECORD} ({} decisions)", got.len());
        return;
    }
    let text = std::fs::read_to_string(RECORD).unwrap_or_else(|e| panic!("{RECORD}: {e}"));
    let record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let want: Vec<Decision> = serde_json::from_value(record["decisions"].clone()).unwrap();
    let mut problems: Vec<String> = want.iter().zip(&got).filter_map(|(w, g)| difference(w, g)).collect();
    if want.len() != got.len() {
        problems.push(format!("{} decisions recorded, {} generated", want.len(), got.len()));
    }
    assert!(
        problems.is_empty(),
        "{} of {} shipped-model decisions differ from the record (if intended: \
         BONES_BLESS=1 cargo test -p bones-policy --test main shipped_models, and review the diff):\n{}",
        problems.len(),
        want.len(),
        problems.join("\n")
    );
}
