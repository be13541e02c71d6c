//! Bad input never panics and never half-changes state.
//!
//! - random text (arbitrary unicode, JSON-ish fragments) and record-shaped JSON
//!   with random damage go through `replay_line`; random strings through
//!   `parse_42`; random action ids (0..=255, huge, `usize::MAX`) through `apply`:
//!   no panic, a rejected action leaves the state unchanged, and every error says
//!   what was wrong;
//! - explicit records for each kind of mistake docs/interfaces/encodings.md lists, checking the
//!   `error` object (`line`, `index`, `action`, `message`, `legal`) and that the
//!   message names what was wrong and what was expected.

use super::RULES_KEYS;
use crate::texas42::properties::rules_strategy;
use bones_env::deal::{deal_texas42, rng_for_seed};
use bones_env::record::deals::legal_names;
use bones_env::replay::replay_line;
use bones_env::seed::splitmix64;
use bones_env::texas42::actions::{parse_42, NAMES_42, NUM_ACTIONS_42};
use bones_env::{Action, Domino, DominoSet, Episode, Game, GameState, Texas42, Texas42Rules, Texas42State};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Map, Value};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Plays up to `n` random legal actions; returns the state and the actions.
fn random_play(game: &Texas42, seed: u64, episode: Episode, n: usize, mut mix: u64) -> (Texas42State, Vec<Action>) {
    let mut st = game.new_state(seed, episode);
    let mut actions = Vec::new();
    while !st.is_terminal() && actions.len() < n {
        let m = st.legal_mask();
        let a = m.nth((splitmix64(&mut mix) % m.len() as u64) as usize);
        st.apply(a).unwrap();
        actions.push(a);
    }
    (st, actions)
}

fn names(actions: &[Action]) -> Vec<&'static str> {
    actions.iter().map(|&a| NAMES_42[a]).collect()
}

fn hand_names(hands: &[DominoSet; 4]) -> Vec<Vec<String>> {
    hands.iter().map(|h| h.iter().map(|d| d.to_string()).collect()).collect()
}

// ---------------------------------------------------------------------------
// Invariants of every replay output

/// JSON equality, floats compared to 1e-12 relative (serde_json without its
/// `float_roundtrip` feature may parse a printed float back one ulp off).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy))
        }
        _ => a == b,
    }
}

/// Checks the shape of `replay_line`'s answer. `input` is the parsed record
/// when the line was a JSON object.
fn check_output(out: &Value, ok: bool, line_no: usize, input: Option<&Value>) -> Result<(), TestCaseError> {
    let obj = out.as_object().ok_or_else(|| TestCaseError::fail(format!("output is not an object: {out}")))?;
    let actions = input.and_then(|i| i.get("actions")).and_then(Value::as_array);
    if ok {
        prop_assert!(!obj.contains_key("error"), "success with an error: {}", out);
        let r = obj.get("result").and_then(Value::as_object);
        let r = r.ok_or_else(|| TestCaseError::fail(format!("success without a result object: {out}")))?;
        let done = r.get("done").and_then(Value::as_bool);
        let done = done.ok_or_else(|| TestCaseError::fail(format!("result without `done`: {out}")))?;
        if !done {
            let next = &r["next"];
            prop_assert!(next["seat"].as_u64().is_some_and(|s| s < 4), "bad next seat: {}", out);
            let legal = next["legal"].as_array().cloned().unwrap_or_default();
            prop_assert!(!legal.is_empty(), "unfinished record without legal next actions: {}", out);
            for n in &legal {
                prop_assert!(n.as_str().is_some_and(|s| parse_42(s).is_ok()), "bad legal name {}", n);
            }
        }
        // Replaying the annotated output gives the same output (`result` is replaced).
        let (again, ok2) = replay_line(&out.to_string(), line_no);
        prop_assert!(ok2, "the annotated record does not replay: {}", again);
        prop_assert_eq!(&again["result"], &out["result"], "replaying the output changed its result");
        // Annotation keys pass through unchanged (floats up to serde_json's last-digit parsing).
        prop_assert!(same_json(&again, out), "replaying the output changed it: {} vs {}", again, out);
    } else {
        prop_assert!(!obj.contains_key("result"), "failure with a result: {}", out);
        let e = obj.get("error").and_then(Value::as_object);
        let e = e.ok_or_else(|| TestCaseError::fail(format!("failure without an error object: {out}")))?;
        prop_assert_eq!(e.get("line"), Some(&json!(line_no)), "error line: {}", out);
        for key in ["index", "action", "message", "legal"] {
            prop_assert!(e.contains_key(key), "error without `{}`: {}", key, out);
        }
        let message = e["message"].as_str().unwrap_or("");
        prop_assert!(!message.trim().is_empty(), "error without a message: {}", out);
        match &e["index"] {
            Value::Null => {
                prop_assert!(e["action"].is_null() && e["legal"].is_null(), "record-level error with action: {}", out);
            }
            i => {
                let i = i.as_u64().ok_or_else(|| TestCaseError::fail(format!("bad index {i}")))? as usize;
                let actions = actions.ok_or_else(|| TestCaseError::fail(format!("an index without actions: {out}")))?;
                prop_assert!(i < actions.len(), "index {} past {} actions", i, actions.len());
                if !e["action"].is_null() {
                    prop_assert_eq!(&e["action"], &actions[i]);
                }
            }
        }
        if let Some(legal) = e["legal"].as_array() {
            for n in legal {
                prop_assert!(n.as_str().is_some_and(|s| parse_42(s).is_ok()), "bad legal name {}", n);
            }
        } else {
            prop_assert!(e["legal"].is_null());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Generators

const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\"game\"",
    "\"texas42\"",
    "\"doubles\"",
    "\"seed\"",
    "\"hands\"",
    "\"actions\"",
    "\"rules\"",
    "\"dealer\"",
    "\"episode\"",
    "\"game\"",
    "\"hand\"",
    "\"expect\"",
    "\"result\"",
    "\"error\"",
    "\"preset\"",
    "\"full\"",
    "\"early_end\"",
    "\"variants\"",
    "\"nel-o\"",
    "\"pass\"",
    "\"30\"",
    "\"6-4\"",
    "\"7-1\"",
    "\"1m\"",
    "\"sixes\"",
    "0",
    "1",
    "3",
    "4",
    "-1",
    "1.5",
    "1e400",
    "18446744073709551615",
    "18446744073709551616",
    "-0",
    "null",
    "true",
    "false",
    "[]",
    "{}",
    "\"\\u0000\"",
    "\"\\ud800\"",
    " ",
    "\n",
    "\u{feff}",
    "é",
    "🀱",
    "\\",
];

fn junk_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        ".{0,40}",
        prop::collection::vec(prop::sample::select(FRAGMENTS), 0..40).prop_map(|v| v.concat()),
    ]
}

const NEAR_NAMES: &[&str] = &[
    "",
    " ",
    "7-1",
    "6-7",
    "-",
    "6-",
    "-4",
    "64",
    "6--4",
    "6-4-2",
    "pass ",
    " pass",
    "PASS",
    "Pass",
    "1m ",
    "8m",
    "0m",
    "29",
    "42m",
    "43",
    "85",
    "nel-o ",
    "nelo",
    "follow me",
    "\u{0}",
    "６-４",
    "6–4",
    "٦-٤",
    "4-6",
    "42",
    "84",
];

fn junk_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(&NAMES_42[..]).prop_map(str::to_string),
        prop::sample::select(NEAR_NAMES).prop_map(str::to_string),
        ".{0,6}",
        (prop::sample::select(&NAMES_42[..]), any::<prop::sample::Index>(), any::<char>()).prop_map(|(n, i, c)| {
            let mut s: Vec<char> = n.chars().collect();
            let at = i.index(s.len() + 1);
            s.insert(at, c);
            s.into_iter().collect()
        }),
    ]
}

fn junk_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (0u64..8).prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        junk_name().prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 16, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((junk_name(), inner), 0..4).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A valid Texas 42 rules object (the property tests' rule options), with a
/// `target` or without.
fn rules_json() -> impl Strategy<Value = Value> {
    (rules_strategy(), prop::option::of(1u32..20)).prop_map(|((_, mut r), target)| {
        if let Some(t) = target {
            r["target"] = json!(t);
        }
        r
    })
}

/// A damage done to a valid record.
#[derive(Clone, Debug)]
enum Edit {
    ReplaceAction(prop::sample::Index, String),
    InsertAction(prop::sample::Index, String),
    DropActions(prop::sample::Index),
    SetKey(&'static str, Value),
    RemoveKey(&'static str),
    SetRulesKey(&'static str, Value),
    /// Move a domino from one hand to another (sizes 6 and 8).
    MoveDomino(prop::sample::Index, prop::sample::Index, prop::sample::Index),
    /// Replace a domino name (duplicates, bad names).
    SetDomino(prop::sample::Index, prop::sample::Index, String),
}

const RECORD_KEYS: &[&str] =
    &["game", "rules", "dealer", "hands", "seed", "episode", "actions", "expect", "result", "error", "players", "junk"];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<prop::sample::Index>(), junk_name()).prop_map(|(i, s)| Edit::ReplaceAction(i, s)),
        (any::<prop::sample::Index>(), junk_name()).prop_map(|(i, s)| Edit::InsertAction(i, s)),
        any::<prop::sample::Index>().prop_map(Edit::DropActions),
        (prop::sample::select(RECORD_KEYS), junk_value()).prop_map(|(k, v)| Edit::SetKey(k, v)),
        prop::sample::select(RECORD_KEYS).prop_map(Edit::RemoveKey),
        (prop::sample::select(RULES_KEYS), junk_value()).prop_map(|(k, v)| Edit::SetRulesKey(k, v)),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(a, b, c)| Edit::MoveDomino(a, b, c)),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>(), junk_name())
            .prop_map(|(a, b, s)| Edit::SetDomino(a, b, s)),
    ]
}

fn apply_edit(rec: &mut Map<String, Value>, e: &Edit) {
    match e {
        Edit::ReplaceAction(i, s) => {
            if let Some(Value::Array(a)) = rec.get_mut("actions") {
                if !a.is_empty() {
                    let i = i.index(a.len());
                    a[i] = json!(s);
                }
            }
        }
        Edit::InsertAction(i, s) => {
            if let Some(Value::Array(a)) = rec.get_mut("actions") {
                let i = i.index(a.len() + 1);
                a.insert(i, json!(s));
            }
        }
        Edit::DropActions(i) => {
            if let Some(Value::Array(a)) = rec.get_mut("actions") {
                let i = i.index(a.len() + 1);
                a.truncate(i);
            }
        }
        Edit::SetKey(k, v) => {
            rec.insert(k.to_string(), v.clone());
        }
        Edit::RemoveKey(k) => {
            rec.remove(*k);
        }
        Edit::SetRulesKey(k, v) => {
            if let Some(Value::Object(r)) = rec.get_mut("rules") {
                r.insert(k.to_string(), v.clone());
            }
        }
        Edit::MoveDomino(from, to, which) => {
            if let Some(Value::Array(h)) = rec.get_mut("hands") {
                if h.len() == 4 {
                    let (f, t) = (from.index(4), to.index(4));
                    if let Some(Value::Array(src)) = h.get_mut(f) {
                        if !src.is_empty() {
                            let d = src.remove(which.index(src.len()));
                            if let Some(Value::Array(dst)) = h.get_mut(t) {
                                dst.push(d);
                            }
                        }
                    }
                }
            }
        }
        Edit::SetDomino(seat, which, s) => {
            if let Some(Value::Array(h)) = rec.get_mut("hands") {
                if let Some(Value::Array(hand)) = h.get_mut(seat.index(4)) {
                    if !hand.is_empty() {
                        let i = which.index(hand.len());
                        hand[i] = json!(s);
                    }
                }
            }
        }
    }
}

/// A valid record (random rules, seed or hands, hand or game, a random legal
/// prefix of play), as a JSON object.
fn valid_record() -> impl Strategy<Value = Map<String, Value>> {
    (
        any::<u64>(),
        rules_json(),
        0u8..4,
        prop::bool::weighted(0.2),
        0u8..3,
        0usize..90,
        any::<u64>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(seed, rules, dealer, whole_game, given, n, mix, reversed, with_dealer)| {
            let r = Texas42Rules::from_json(&rules).expect("generated rules are valid");
            let game = Texas42 { rules: r, dealer, ..Texas42::default() };
            let episode = if whole_game { Episode::Game } else { Episode::Hand };
            let (_, actions) = random_play(&game, seed, episode, n, mix);
            let mut rec = Map::new();
            rec.insert("game".into(), json!("texas42"));
            rec.insert("rules".into(), rules);
            if with_dealer || dealer != 0 {
                rec.insert("dealer".into(), json!(dealer));
            }
            // given: 0 = seed, 1 = hands (hand records) or seed + its hands, 2 = seed + its hands.
            let dealt = deal_texas42(&mut rng_for_seed(seed));
            let mut hands = hand_names(&dealt);
            if reversed {
                // Names written low end first, in reverse order, are the same deal.
                for h in hands.iter_mut() {
                    h.reverse();
                    for d in h.iter_mut() {
                        *d = d.chars().rev().collect();
                    }
                }
            }
            if given == 0 || whole_game || given == 2 {
                rec.insert("seed".into(), json!(seed));
            }
            if given > 0 {
                rec.insert("hands".into(), json!(hands));
            }
            if whole_game {
                rec.insert("episode".into(), json!("game"));
            }
            rec.insert("actions".into(), json!(names(&actions)));
            rec
        })
}

// ---------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn replay_line_never_panics_on_random_text(text in junk_text(), line_no in 1usize..10_000) {
        let (out, ok) = replay_line(&text, line_no);
        let input: Option<Value> = serde_json::from_str::<Value>(&text).ok().filter(Value::is_object);
        if input.is_none() {
            prop_assert!(!ok);
            let e = &out["error"];
            prop_assert!(e["index"].is_null() && e["action"].is_null() && e["legal"].is_null());
            let m = e["message"].as_str().unwrap_or("");
            prop_assert!(m.contains("malformed JSON") || m.contains("must be a JSON object"), "{}", m);
        }
        check_output(&out, ok, line_no, input.as_ref())?;
    }

    #[test]
    fn parse_42_never_panics(name in prop_oneof![any::<String>(), junk_name()]) {
        match parse_42(&name) {
            Ok(a) => {
                prop_assert!(a < NUM_ACTIONS_42);
                let canonical = NAMES_42[a];
                let reversed: String = name.chars().rev().collect();
                let alias = (name == "42" && canonical == "1m") || (name == "84" && canonical == "2m");
                prop_assert!(
                    name == canonical || alias || reversed == canonical,
                    "`{}` parsed as `{}`", name, canonical
                );
                prop_assert_eq!(parse_42(canonical).unwrap(), a);
            }
            Err(e) => {
                prop_assert_eq!(&e.name, &name);
                let m = e.to_string();
                prop_assert!(m.contains(&name) && m.contains("expected") && m.contains("`pass`"), "{}", m);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn replay_line_never_panics_on_damaged_records(
        rec in valid_record(),
        edits in prop::collection::vec(edit(), 0..4),
        line_no in 1usize..100,
    ) {
        let clean = rec.clone();
        let mut rec = rec;
        for e in &edits {
            apply_edit(&mut rec, e);
        }
        let line = Value::Object(rec.clone()).to_string();
        let (out, ok) = replay_line(&line, line_no);
        if edits.is_empty() {
            prop_assert!(ok, "a valid record failed: {}", out);
            // A hand record's steps are its actions.
            if clean.get("episode").is_none() {
                let steps = out["result"]["steps"].as_array().map_or(0, Vec::len);
                prop_assert_eq!(steps, clean["actions"].as_array().unwrap().len());
            }
        }
        check_output(&out, ok, line_no, Some(&Value::Object(rec)))?;
    }

    #[test]
    fn apply_rejects_bad_ids_and_leaves_the_state_unchanged(
        seed in any::<u64>(),
        rules in rules_json(),
        whole_game in any::<bool>(),
        n in 0usize..70,
        mix in any::<u64>(),
        ids in prop::collection::vec(
            prop_oneof![0usize..=255, Just(usize::MAX), any::<usize>(), 61usize..64], 1..24),
    ) {
        let game = Texas42::new(Texas42Rules::from_json(&rules).unwrap());
        let episode = if whole_game { Episode::Game } else { Episode::Hand };
        let (mut st, _) = random_play(&game, seed, episode, n, mix);
        for a in ids {
            let mask = st.legal_mask();
            let before = format!("{st:?}");
            let hand_before = *st.hand();
            match st.apply(a) {
                Ok(()) => prop_assert!(mask.contains(a), "id {} outside the mask {:?} applied", a, mask),
                Err(e) => {
                    prop_assert!(!mask.contains(a), "legal id {} rejected", a);
                    prop_assert_eq!(e.action, a);
                    prop_assert_eq!(e.legal, mask);
                    let m = e.to_string();
                    prop_assert!(m.contains(&a.to_string()) && m.contains("legal"), "{}", m);
                    prop_assert_eq!(format!("{st:?}"), before, "a rejected id {} changed the state", a);
                    prop_assert_eq!(st.hand(), &hand_before);
                    prop_assert_eq!(game.action_name(a), NAMES_42.get(a).copied().unwrap_or("?"));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Explicit cases

const LINE: usize = 7;

/// Replays `rec` as line 7; it must fail. Returns the `error` object after
/// checking its shape.
fn error_of(rec: &Value) -> Value {
    let (out, ok) = replay_line(&rec.to_string(), LINE);
    assert!(!ok, "expected an error for {rec}, got {out}");
    check_output(&out, ok, LINE, Some(rec)).unwrap();
    out["error"].clone()
}

fn message(e: &Value) -> &str {
    e["message"].as_str().unwrap()
}

/// The error is about the record as a whole: `index`, `action`, `legal` null.
fn record_error(rec: &Value, mentions: &[&str]) -> String {
    let e = error_of(rec);
    assert_eq!(e["line"], json!(LINE));
    assert!(e["index"].is_null() && e["action"].is_null() && e["legal"].is_null(), "{e}");
    let m = message(&e).to_string();
    for w in mentions {
        assert!(m.contains(w), "message {m:?} does not mention {w:?}");
    }
    m
}

fn seed_hands(seed: u64) -> Vec<Vec<String>> {
    hand_names(&deal_texas42(&mut rng_for_seed(seed)))
}

fn state_after(seed: u64, actions: &[&str]) -> (Texas42, Texas42State) {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let mut st = game.new_state(seed, Episode::Hand);
    for a in actions {
        st.apply(parse_42(a).unwrap()).unwrap();
    }
    (game, st)
}

#[test]
fn unknown_action_name() {
    for bad in ["bogus", "8m", "6-7", "7-1", "", " pass", "PASS", "29", "6–4"] {
        let e = error_of(&json!({"game":"texas42","seed":1,"actions":["pass", bad]}));
        let (game, st) = state_after(1, &["pass"]);
        assert_eq!(e["line"], json!(LINE));
        assert_eq!(e["index"], json!(1));
        assert_eq!(e["action"], json!(bad));
        assert_eq!(e["legal"], json!(legal_names(&game, &st)), "legal actions at the bad step");
        let m = message(&e);
        assert!(m.contains(&format!("`{bad}`")) && m.contains("unknown action"), "{m}");
        assert!(m.contains("expected") && m.contains("`6-4`") && m.contains("`pass`"), "{m}");
    }
}

#[test]
fn illegal_action_names_the_legal_ones() {
    // The shaker (seat 0) may not pass after three passes under `forced`.
    let e = error_of(&json!({"game":"texas42","seed":1,"actions":["pass","pass","pass","pass"]}));
    let (game, st) = state_after(1, &["pass", "pass", "pass"]);
    let legal = legal_names(&game, &st);
    assert!(!legal.contains(&"pass".to_string()));
    assert_eq!(e["line"], json!(LINE));
    assert_eq!(e["index"], json!(3));
    assert_eq!(e["action"], json!("pass"));
    assert_eq!(e["legal"], json!(legal));
    let m = message(&e);
    assert!(m.contains("illegal") && m.contains("`pass`"), "{m}");
    for n in &legal {
        assert!(m.contains(n.as_str()), "message {m:?} does not name legal action {n}");
    }

    // A domino the player does not hold (seed 1: the bidder is seat 1, who leads).
    let prefix = ["30", "pass", "pass", "pass", "sixes"];
    let (game, st) = state_after(1, &prefix);
    let seat = st.current_seat().unwrap();
    let not_held = (DominoSet::FULL - st.hand().hands[seat]).first().unwrap().to_string();
    let mut actions: Vec<&str> = prefix.to_vec();
    actions.push(&not_held);
    let e = error_of(&json!({"game":"texas42","seed":1,"actions":actions}));
    let legal = legal_names(&game, &st);
    assert_eq!(e["index"], json!(5));
    assert_eq!(e["action"], json!(not_held));
    assert_eq!(e["legal"], json!(legal));
    for n in &legal {
        assert!(message(&e).contains(n.as_str()), "{}", message(&e));
    }

    // A bid during play, a play during bidding, a declaration by the wrong phase.
    for (actions, index) in [(vec!["6-6"], 0), (vec!["30", "pass", "pass", "pass", "31"], 4), (vec!["sixes"], 0)] {
        let e = error_of(&json!({"game":"texas42","seed":1,"actions":actions}));
        assert_eq!(e["index"], json!(index));
        assert!(message(&e).contains("illegal"), "{}", message(&e));
    }
}

#[test]
fn action_after_the_hand_is_over() {
    let game = Texas42::new(Texas42Rules::STANDARD);
    let (st, actions) = random_play(&game, 5, Episode::Hand, 100, 5);
    assert!(st.is_terminal());
    let mut list = names(&actions);
    list.push("pass");
    let e = error_of(&json!({"game":"texas42","seed":5,"actions":list}));
    assert_eq!(e["index"], json!(actions.len()));
    assert_eq!(e["action"], json!("pass"));
    assert_eq!(e["legal"], json!([]), "nothing is legal after the end");
    let m = message(&e);
    assert!(m.contains("`pass`") && m.contains("over"), "{m}");

    // A whole game to 1 mark is over after its first hand.
    let game = Texas42::new(Texas42Rules { target: 1, ..Texas42Rules::STANDARD });
    let (st, actions) = random_play(&game, 9, Episode::Game, 1000, 9);
    assert!(st.is_terminal());
    let mut list = names(&actions);
    list.push("6-6");
    let e = error_of(&json!({"game":"texas42","seed":9,"episode":"game","rules":{"target":1},"actions":list}));
    assert_eq!(e["index"], json!(actions.len()));
    assert!(message(&e).contains("over"), "{}", message(&e));
}

#[test]
fn malformed_json() {
    for line in [
        "",
        "   ",
        "{",
        r#"{"game":"texas42","seed":1,"actions":["pass"]"#,
        r#"{"game":"texas42","seed":1,}"#,
        r#"{game:"texas42"}"#,
        "not json",
        "{\"game\":\"texas42\"}\u{0}",
        r#"{"game":"texas42"} {"game":"texas42"}"#,
        r#"{"game":"texas42","seed":1e400}"#,
    ] {
        let (out, ok) = replay_line(line, LINE);
        assert!(!ok, "{line:?} was accepted: {out}");
        let e = &out["error"];
        assert_eq!(e["line"], json!(LINE));
        assert!(e["index"].is_null() && e["action"].is_null() && e["legal"].is_null(), "{e}");
        assert!(message(e).starts_with("malformed JSON"), "{line:?}: {}", message(e));
    }
    for (line, kind) in [("[1,2]", "a list"), ("\"texas42\"", "a string"), ("null", "null"), ("42", "a number")] {
        let (out, ok) = replay_line(line, LINE);
        assert!(!ok);
        let m = message(&out["error"]);
        assert!(m.contains("must be a JSON object") && m.contains(kind), "{line}: {m}");
        assert!(out["error"]["index"].is_null() && out["error"]["legal"].is_null());
    }
}

#[test]
fn wrong_number_of_hands() {
    let mut h = seed_hands(1);
    h.pop();
    record_error(&json!({"game":"texas42","hands":h,"actions":[]}), &["hands", "expected 4 hands, got 3"]);
    let mut h = seed_hands(1);
    h.push(vec![]);
    record_error(&json!({"game":"texas42","hands":h}), &["expected 4 hands, got 5"]);
    record_error(&json!({"game":"texas42","hands":[]}), &["expected 4 hands, got 0"]);
    record_error(&json!({"game":"texas42","hands":"0-0 1-0"}), &["hands", "expected a list of 4 hands", "a string"]);
    record_error(&json!({"game":"texas42","hands":[["6-6"],"x",[],[]]}), &["hand 0", "expected 7 dominoes, got 1"]);
    record_error(
        &json!({"game":"texas42","hands":[seed_hands(1)[0], 5, [], []]}),
        &["hand 1", "expected a list of domino names", "a number"],
    );
}

#[test]
fn hands_of_six_or_eight_dominoes() {
    // Move one domino from hand 2 to hand 3: hand 2 has 6.
    let mut h = seed_hands(2);
    let d = h[2].pop().unwrap();
    h[3].push(d);
    record_error(&json!({"game":"texas42","hands":h}), &["hand 2", "expected 7 dominoes, got 6"]);
    // Move one domino from hand 3 to hand 0: hand 0 has 8.
    let mut h = seed_hands(2);
    let d = h[3].pop().unwrap();
    h[0].push(d);
    record_error(&json!({"game":"texas42","hands":h}), &["hand 0", "expected 7 dominoes, got 8"]);
}

#[test]
fn duplicated_domino() {
    let mut h = seed_hands(3);
    let dup = h[0][0].clone();
    h[3][6] = dup.clone();
    let m = record_error(&json!({"game":"texas42","hands":h}), &["hand 3", "more than once"]);
    assert!(m.contains(&dup), "{m}");
    // The same domino written both ways is still a duplicate.
    let mut h = seed_hands(3);
    let d: Domino = h[1][0].parse().unwrap();
    let reversed = format!("{}-{}", d.low(), d.high());
    h[1][1] = reversed;
    if !d.is_double() {
        record_error(&json!({"game":"texas42","hands":h}), &["hand 1", "more than once", &d.to_string()]);
    }
}

#[test]
fn bad_domino_names() {
    for bad in ["7-1", "6-7", "64", "6:4", "", "six-four", "-1-0"] {
        let mut h = seed_hands(4);
        h[1][3] = bad.to_string();
        let m = record_error(&json!({"game":"texas42","hands":h}), &["hand 1", &format!("`{bad}`"), "0..6", "6-4"]);
        assert!(m.contains("not a domino"), "{m}");
    }
    let mut h: Vec<Value> = seed_hands(4).into_iter().map(|x| json!(x)).collect();
    h[2][0] = json!(64);
    record_error(&json!({"game":"texas42","hands":h}), &["hand 2", "64", "not a domino name", "6-4"]);
}

#[test]
fn unknown_record_key() {
    for key in ["foo", "Seed", "hand", "rule", "players", "boneyard"] {
        let mut rec = json!({"game":"texas42","seed":1});
        rec[key] = json!(1);
        record_error(&rec, &[&format!("unknown key `{key}`"), "texas42 record", "expected one of", "seed", "actions"]);
    }
    // The annotation keys are allowed; `result` and `error` are replaced.
    let (out, ok) = replay_line(r#"{"game":"texas42","seed":1,"expect":{"x":1},"result":5,"error":3}"#, 1);
    assert!(ok, "{out}");
    assert!(out.get("error").is_none() && out["result"].is_object());
}

#[test]
fn unknown_rules_key() {
    for key in ["blocked_tie", "players", "earlyend", "Early_end", "target_marks"] {
        let mut rules = Map::new();
        rules.insert(key.to_string(), json!("split"));
        let m = record_error(
            &json!({"game":"texas42","seed":1,"rules":rules}),
            &[&format!("`{key}`"), "texas42", "expected one of", "early_end", "nello_doubles"],
        );
        assert!(m.contains("unknown rules key"), "{m}");
    }
}

#[test]
fn bad_rules_values() {
    let cases: &[(Value, &[&str])] = &[
        (json!({"early_end":"yes"}), &["early_end", "\"yes\"", "true or false"]),
        (json!({"nello_min_marks":0}), &["nello_min_marks", "0", "1..=7"]),
        (json!({"nello_min_marks":8}), &["nello_min_marks", "8", "1..=7"]),
        (json!({"nello_min_marks":"2"}), &["nello_min_marks", "1..=7"]),
        (json!({"nello_doubles":"middle"}), &["nello_doubles", "middle", "own-suit", "high", "low"]),
        (json!({"variants":["nel-o","bogus"]}), &["variants", "bogus", "nel-o", "sevens", "plunge", "splash"]),
        (json!({"variants":"nel-o"}), &["variants", "a list"]),
        (json!({"preset":"fancy"}), &["preset", "fancy", "standard", "full"]),
        (json!({"all_pass":1}), &["all_pass", "forced", "redeal"]),
        (json!({"scoring":"goals"}), &["scoring", "goals", "marks", "points"]),
        (json!({"target":0}), &["target", "0", "1..="]),
        (json!({"target":-7}), &["target", "-7"]),
        (json!({"target":7.5}), &["target", "7.5"]),
    ];
    for (rules, mentions) in cases {
        let m = record_error(&json!({"game":"texas42","seed":1,"rules":rules}), mentions);
        assert!(m.contains("expected"), "{m}");
    }
    // `rules` itself must be an object; the message must not claim that what
    // was given is accepted.
    for rules in [json!("full"), json!(5), json!(["full"]), json!(null)] {
        let m = record_error(&json!({"game":"texas42","seed":1,"rules":rules}), &["rules", "object"]);
        assert!(!m.contains("preset name"), "{m}");
    }
}

#[test]
fn seed_with_hands_that_are_not_its_deal() {
    // Seed 1's deal is fine, in any order within a hand.
    let mut h = seed_hands(1);
    h[2].reverse();
    let (out, ok) = replay_line(&json!({"game":"texas42","seed":1,"hands":h}).to_string(), 1);
    assert!(ok, "{out}");
    // Seed 2's deal with seed 1 is not.
    record_error(&json!({"game":"texas42","seed":1,"hands":seed_hands(2)}), &["hands", "seed 1", "not the deal"]);
    // Two seats swapped is not that deal either.
    let mut h = seed_hands(1);
    h.swap(0, 1);
    record_error(&json!({"game":"texas42","seed":1,"hands":h}), &["not the deal of seed 1"]);
}

#[test]
fn whole_game_record_with_hands() {
    record_error(&json!({"game":"texas42","episode":"game","hands":seed_hands(1)}), &["episode", "needs `seed`"]);
    // With the seed too (and its own deal) it is fine.
    let (out, ok) =
        replay_line(&json!({"game":"texas42","episode":"game","seed":1,"hands":seed_hands(1)}).to_string(), 1);
    assert!(ok, "{out}");
    record_error(
        &json!({"game":"texas42","episode":"games","seed":1}),
        &["episode", "\"games\"", "\"hand\"", "\"game\""],
    );
}

#[test]
fn missing_or_bad_game() {
    record_error(&json!({"seed":1,"actions":["pass"]}), &["missing `game`", "texas42"]);
    record_error(&json!({}), &["missing `game`", "texas42"]);
    record_error(&json!({"game":"chess","seed":1}), &["unknown game `chess`", "texas42"]);
    record_error(&json!({"game":"Texas42","seed":1}), &["`Texas42`", "texas42"]);
    for game in [json!(42), json!(null), json!(["texas42"])] {
        let m = record_error(&json!({"game":game,"seed":1}), &["bad `game`", &game.to_string(), "texas42"]);
        assert!(!m.contains("missing"), "`game` is there, only wrong: {m}");
    }
}

#[test]
fn neither_seed_nor_hands_and_other_bad_fields() {
    record_error(&json!({"game":"texas42","actions":[]}), &["`hands`", "`seed`"]);
    record_error(&json!({"game":"texas42","seed":-1}), &["`seed`", "-1", "expected an integer"]);
    record_error(&json!({"game":"texas42","seed":"1"}), &["`seed`", "expected an integer"]);
    record_error(&json!({"game":"texas42","seed":1.5}), &["`seed`", "expected an integer"]);
    record_error(&json!({"game":"texas42","seed":1,"dealer":4}), &["`dealer`", "4", "0..=3"]);
    record_error(&json!({"game":"texas42","seed":1,"dealer":"north"}), &["`dealer`", "0..=3"]);
    record_error(&json!({"game":"texas42","seed":1,"actions":"pass"}), &["`actions`", "a list", "a string"]);
    // A non-string action is reported at its index.
    let e = error_of(&json!({"game":"texas42","seed":1,"actions":["pass", 30]}));
    assert_eq!(e["index"], json!(1));
    assert!(message(&e).contains("action 1") && message(&e).contains("a number"), "{}", message(&e));
    // The largest seed is a seed like any other.
    let (out, ok) = replay_line(&json!({"game":"texas42","seed":u64::MAX}).to_string(), 1);
    assert!(ok, "{out}");
}

#[test]
fn other_lines_are_unaffected_by_a_bad_one() {
    // Replay has no state between lines: a good record replays the same before
    // and after a bad one.
    let good = json!({"game":"texas42","seed":11,"actions":["pass","30"]}).to_string();
    let (a, ok_a) = replay_line(&good, 1);
    let (_, bad_ok) = replay_line(r#"{"game":"texas42","seed":11,"actions":["pass","pass","pass","pass","pass"]}"#, 2);
    let (b, ok_b) = replay_line(&good, 3);
    assert!(ok_a && ok_b && !bad_ok);
    assert_eq!(a, b);
}
