//! The shared conformance records (tests/data, copied from shared/conformance):
//! every record (Texas 42 and Doubles) replays to its `expect`; bad input
//! ([`bad_input`]).

mod bad_input;
mod damaged;
mod typed;

use bones_env::replay::replay_line;
use serde_json::Value;

/// Keys a damaged record's `rules` may be given: every rules key of both games, and junk.
const RULES_KEYS: &[&str] = &[
    "preset",
    "variants",
    "all_pass",
    "early_end",
    "scoring",
    "target",
    "nello_min_marks",
    "nello_doubles",
    "blocked_tie",
    "players",
    "junk",
];

fn sorted(v: &Value) -> Vec<String> {
    let mut names: Vec<String> = v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect();
    names.sort();
    names
}

/// Replays every record of `file`; returns the number checked. Panics with the
/// first few mismatches.
fn check_file(file: &str, game: &str, compare: fn(&Value, &Value, &Value) -> Vec<String>) -> usize {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let input: Value = serde_json::from_str(line).unwrap();
        if input["game"] != game {
            continue;
        }
        n += 1;
        let (out, ok) = replay_line(line, i + 1);
        if !ok {
            failures.push(format!("{file}:{}: replay failed: {}", i + 1, out["error"]));
            continue;
        }
        for m in compare(&input, &input["expect"], &out) {
            failures.push(format!("{file}:{}: {m}", i + 1));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, first:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
    n
}

const RESULT_KEYS: [&str; 13] = [
    "tricks", "points", "made", "marks", "score", "bidder", "bid", "trump", "redeal", "done", "winner", "scores", "end",
];

fn compare_result(_input: &Value, expect: &Value, out: &Value) -> Vec<String> {
    let r = &out["result"];
    let mut bad = Vec::new();
    for k in RESULT_KEYS {
        if let Some(e) = expect.get(k) {
            if r.get(k) != Some(e) {
                bad.push(format!("`{k}`: expected {e}, got {}", r.get(k).unwrap_or(&Value::Null)));
            }
        }
    }
    if let Some(steps) = expect.get("steps") {
        let got = r["steps"].as_array().unwrap();
        let want = steps.as_array().unwrap();
        if got.len() != want.len() {
            bad.push(format!("{} steps, expected {}", got.len(), want.len()));
        }
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            if g["seat"] != w["seat"] || g["action"] != w["action"] || sorted(&g["legal"]) != sorted(&w["legal"]) {
                bad.push(format!("step {i}: expected {w}, got {g}"));
                break;
            }
        }
    }
    if let Some(plays) = expect.get("legal_plays") {
        // Legal sets at each play step (after bidding and declaring).
        let got: Vec<&Value> = r["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["action"].as_str().unwrap().parse::<bones_env::Domino>().is_ok())
            .collect();
        for (i, (g, w)) in got.iter().zip(plays.as_array().unwrap()).enumerate() {
            if sorted(&g["legal"]) != sorted(w) {
                bad.push(format!("play {i}: legal expected {w}, got {}", g["legal"]));
                break;
            }
        }
        if got.len() != plays.as_array().unwrap().len() {
            bad.push(format!("{} plays, expected {}", got.len(), plays.as_array().unwrap().len()));
        }
    }
    bad
}

#[test]
fn texas42_play_records_match_the_independent_engine() {
    assert_eq!(check_file("texas42-play.jsonl", "texas42", compare_result), 300);
}

#[test]
fn texas42_rob_traces_replay_exactly() {
    assert_eq!(check_file("texas42-rob-traces.jsonl", "texas42", compare_result), 13);
}

#[test]
fn texas42_whole_hands_match_the_rules_reference() {
    assert_eq!(check_file("texas42-hands.jsonl", "texas42", compare_result), 450);
}

fn compare_deal(_input: &Value, expect: &Value, out: &Value) -> Vec<String> {
    let mut bad = Vec::new();
    let got = out["hands"].as_array().unwrap();
    for (s, (g, w)) in got.iter().zip(expect["hands"].as_array().unwrap()).enumerate() {
        if sorted(g) != sorted(w) {
            bad.push(format!("hand {s}: expected {w}, got {g}"));
        }
    }
    if let Some(b) = expect.get("boneyard") {
        if out.get("boneyard") != Some(b) {
            bad.push(format!("boneyard: expected {b}, got {:?}", out.get("boneyard")));
        }
    }
    bad
}

#[test]
fn texas42_seeded_deals_follow_the_design_shuffle() {
    assert_eq!(check_file("seeded-deals.jsonl", "texas42", compare_deal), 32);
}

#[test]
fn doubles_seeded_deals_follow_the_design_shuffle() {
    assert_eq!(check_file("seeded-deals.jsonl", "doubles", compare_deal), 30);
}

#[test]
fn doubles_rounds_match_the_rules_reference() {
    assert_eq!(check_file("doubles-rounds.jsonl", "doubles", compare_result), 248);
}
