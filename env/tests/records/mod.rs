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
fn check_file(file: &str, game: &str, compare: Compare) -> usize {
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

/// The differences, by index, between `got` and `want` (lists of steps,
/// plays, hands) that `same` tells apart, each named `what INDEX`.
fn differences<'a>(
    what: &'a str,
    got: &'a [Value],
    want: &'a [Value],
    same: fn(&Value, &Value) -> bool,
) -> impl Iterator<Item = String> + 'a {
    got.iter()
        .zip(want)
        .enumerate()
        .filter(move |(_, (g, w))| !same(g, w))
        .map(move |(i, (g, w))| format!("{what} {i}: expected {w}, got {g}"))
}

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
    let steps = || r["steps"].as_array().unwrap();
    if let Some(want) = expect.get("steps") {
        let steps = steps();
        let want = want.as_array().unwrap();
        if steps.len() != want.len() {
            bad.push(format!("{} steps, expected {}", steps.len(), want.len()));
        }
        let same = |g: &Value, w: &Value| {
            g["seat"] == w["seat"] && g["action"] == w["action"] && sorted(&g["legal"]) == sorted(&w["legal"])
        };
        bad.extend(differences("step", steps, want, same).take(1));
    }
    if let Some(want) = expect.get("legal_plays") {
        // Legal sets at each play step (after bidding and declaring).
        let want = want.as_array().unwrap();
        let plays: Vec<Value> = steps()
            .iter()
            .filter(|s| s["action"].as_str().unwrap().parse::<bones_env::Domino>().is_ok())
            .map(|s| s["legal"].clone())
            .collect();
        bad.extend(differences("play (legal)", &plays, want, |g, w| sorted(g) == sorted(w)).take(1));
        if plays.len() != want.len() {
            bad.push(format!("{} plays, expected {}", plays.len(), want.len()));
        }
    }
    bad
}

fn compare_deal(_input: &Value, expect: &Value, out: &Value) -> Vec<String> {
    let got = out["hands"].as_array().unwrap();
    let mut bad: Vec<String> =
        differences("hand", got, expect["hands"].as_array().unwrap(), |g, w| sorted(g) == sorted(w)).collect();
    if let Some(b) = expect.get("boneyard") {
        if out.get("boneyard") != Some(b) {
            bad.push(format!("boneyard: expected {b}, got {:?}", out.get("boneyard")));
        }
    }
    bad
}

/// How a conformance file's records are compared with their `expect`.
type Compare = fn(&Value, &Value, &Value) -> Vec<String>;

#[test]
fn every_shared_conformance_record_replays_to_its_expectation() {
    let files: [(&str, &str, Compare, usize, &str); 6] = [
        ("texas42-play.jsonl", "texas42", compare_result, 300, "play records match the independent engine"),
        ("texas42-rob-traces.jsonl", "texas42", compare_result, 13, "rob traces replay exactly"),
        ("texas42-hands.jsonl", "texas42", compare_result, 450, "whole hands match the rules reference"),
        ("seeded-deals.jsonl", "texas42", compare_deal, 32, "seeded deals follow the design shuffle"),
        ("seeded-deals.jsonl", "doubles", compare_deal, 30, "seeded deals follow the design shuffle"),
        ("doubles-rounds.jsonl", "doubles", compare_result, 248, "rounds match the rules reference"),
    ];
    for (file, game, compare, records, what) in files {
        assert_eq!(check_file(file, game, compare), records, "{game} {what}: {file}");
    }
}
