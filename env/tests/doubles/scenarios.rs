//! Hand-made Doubles scenarios (`tests/data/doubles-scenarios.jsonl`) replayed
//! through `replay_line`, and the record errors of Doubles (the same shape as
//! Texas 42's: see `bad_input.rs`).
//!
//! # The `expect` object of `doubles-scenarios.jsonl`
//!
//! Every line is a Doubles record (docs/interfaces/encodings.md, "Game records") with an `expect`
//! object worked out by hand from docs/rules.md. All keys are optional:
//!
//! | key | compared with |
//! |---|---|
//! | `name` | nothing: it says what the record shows |
//! | `seats` | the seat of every step (`result.steps[i].seat`), one per action |
//! | `legal_at` | `{"i": [names]}`: the legal actions before action `i` (0-based), as a set |
//! | `next` | `{"seat": s, "legal": [names]}` of an unfinished record (`legal` as a set) |
//! | `end`, `winner`, `scores`, `done` | the result's keys of the same name |
//! | `target` | a whole game (`"episode":"game"`): the last round is the first after which one player alone leads with at least `target` points, and that player is `winner` |
//! | `error` | `{"index": i, "action": "…", "legal": [names]}`: the record fails with this error (`legal` as a set) on its own line, and the message names the action and, for an illegal action, every legal one |
//!
//! Besides its `expect`, every record that replays is checked step by step
//! against [`Model`], a small model of the docs/rules.md Doubles rules written here:
//! seat and legal set at every step, when the round ends (a domino, or blocked,
//! checked after every action), and its scores. Whole-game records are checked
//! round by round (each `hand_results` entry with its own deal), and their totals
//! against the round scores.

use bones_env::replay::replay_line;
use serde_json::{json, Value};

fn data_path() -> String {
    format!("{}/tests/data/doubles-scenarios.jsonl", env!("CARGO_MANIFEST_DIR"))
}

fn sorted(v: &Value) -> Vec<String> {
    let mut names: Vec<String> = v
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

// ---------------------------------------------------------------------------
// A small model of the docs/rules.md Doubles rules, for the step-by-step check.

/// A domino as (high, low).
type Dom = (u8, u8);

fn dom(name: &str) -> Dom {
    let (a, b) = name.split_once('-').unwrap_or_else(|| panic!("bad domino {name}"));
    let (a, b): (u8, u8) = (a.parse().unwrap(), b.parse().unwrap());
    (a.max(b), a.min(b))
}

fn doms(v: &Value) -> Vec<Dom> {
    v.as_array().unwrap().iter().map(|d| dom(d.as_str().unwrap())).collect()
}

/// One round under docs/rules.md: hands, boneyard in draw order, open ends per number,
/// unlocked numbers, the seat to move and the domino it has just drawn.
struct Model {
    players: usize,
    split: bool,
    hands: Vec<Vec<Dom>>,
    bones: Vec<Dom>,
    drawn_count: usize,
    open: [u32; 7],
    unlocked: [bool; 7],
    opened: bool,
    to_move: usize,
    drawn: Option<Dom>,
    end: Option<&'static str>,
    winner: Option<usize>,
}

impl Model {
    fn new(hands: Vec<Vec<Dom>>, bones: Vec<Dom>, split: bool) -> Model {
        let players = hands.len();
        // The highest double dealt opens.
        let opener = (0..players)
            .filter_map(|s| hands[s].iter().filter(|d| d.0 == d.1).map(|d| (d.0, s)).max())
            .max()
            .expect("a double among the hands")
            .1;
        Model {
            players,
            split,
            hands,
            bones,
            drawn_count: 0,
            open: [0; 7],
            unlocked: [false; 7],
            opened: false,
            to_move: opener,
            drawn: None,
            end: None,
            winner: None,
        }
    }

    fn bones_left(&self) -> usize {
        self.bones.len() - self.drawn_count
    }

    /// The plays of `d`: on an open end showing `e`, if `e` is unlocked or `d` is `e-e`.
    fn plays_of(&self, d: Dom) -> Vec<String> {
        let ends = if d.0 == d.1 { vec![d.0] } else { vec![d.0, d.1] };
        ends.into_iter()
            .filter(|&e| self.open[e as usize] > 0 && (d.0 == d.1 || self.unlocked[e as usize]))
            .map(|e| format!("{}-{}@{e}", d.0, d.1))
            .collect()
    }

    fn legal(&self) -> Vec<String> {
        if self.end.is_some() {
            return Vec::new();
        }
        let mut out: Vec<String> = if !self.opened {
            let n = self.hands[self.to_move].iter().filter(|d| d.0 == d.1).map(|d| d.0).max().unwrap();
            vec![format!("{n}-{n}")]
        } else if let Some(d) = self.drawn {
            let p = self.plays_of(d);
            if p.is_empty() {
                vec!["pass".into()]
            } else {
                p
            }
        } else {
            let p: Vec<String> = self.hands[self.to_move].iter().flat_map(|&d| self.plays_of(d)).collect();
            if !p.is_empty() {
                p
            } else if self.bones_left() > 2 {
                vec!["draw".into()]
            } else {
                vec!["pass".into()]
            }
        };
        out.sort();
        out
    }

    fn next_seat(&mut self) {
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn place(&mut self, d: Dom) {
        let hand = &mut self.hands[self.to_move];
        let i = hand.iter().position(|&x| x == d).expect("a held domino");
        hand.remove(i);
        self.drawn = None;
        if hand.is_empty() {
            self.end = Some("domino");
            self.winner = Some(self.to_move);
        } else {
            self.next_seat();
        }
    }

    /// Applies a legal action (by name), then checks for a block.
    fn apply(&mut self, a: &str) {
        assert!(self.legal().iter().any(|x| x == a), "model: `{a}` is not legal: {:?}", self.legal());
        match a {
            "draw" => {
                let d = self.bones[self.drawn_count];
                self.drawn_count += 1;
                self.hands[self.to_move].push(d);
                self.drawn = Some(d);
            }
            "pass" => {
                self.drawn = None;
                self.next_seat();
            }
            _ => match a.split_once('@') {
                None => {
                    let d = dom(a);
                    self.open[d.0 as usize] = 4;
                    self.unlocked[d.0 as usize] = true;
                    self.opened = true;
                    self.place(d);
                }
                Some((d, e)) => {
                    let (d, e) = (dom(d), e.parse::<u8>().unwrap());
                    self.open[e as usize] -= 1;
                    if d.0 == d.1 {
                        self.open[e as usize] += 3;
                        self.unlocked[e as usize] = true;
                    } else {
                        let other = if d.0 == e { d.1 } else { d.0 };
                        self.open[other as usize] += 1;
                    }
                    self.place(d);
                }
            },
        }
        if self.end.is_none() && self.bones_left() <= 2 {
            let held = self.hands.iter().flatten().copied().collect::<Vec<_>>();
            if held.iter().all(|&d| self.plays_of(d).is_empty()) {
                self.end = Some("blocked");
            }
        }
    }

    fn pips(&self, seat: usize) -> u32 {
        self.hands[seat].iter().map(|d| (d.0 + d.1) as u32).sum()
    }

    /// The round's scores under docs/rules.md, and its winner.
    fn scores(&self) -> (Vec<u32>, Option<usize>) {
        let n = self.players;
        let pips: Vec<u32> = (0..n).map(|s| self.pips(s)).collect();
        let total: u32 = pips.iter().sum();
        let mut scores = vec![0; n];
        match self.end {
            Some("domino") => {
                let w = self.winner.unwrap();
                scores[w] = total - pips[w];
                (scores, Some(w))
            }
            Some("blocked") => {
                let low = *pips.iter().min().unwrap();
                let tied: Vec<usize> = (0..n).filter(|&s| pips[s] == low).collect();
                let others = total - low * tied.len() as u32;
                if tied.len() == 1 {
                    scores[tied[0]] = others;
                    (scores, Some(tied[0]))
                } else {
                    if self.split {
                        for &s in &tied {
                            scores[s] = others / tied.len() as u32;
                        }
                    }
                    (scores, None)
                }
            }
            _ => (scores, None),
        }
    }
}

/// Replays `steps` (the result's) on a model of the deal; returns the model and
/// the mismatches found.
fn check_round(hands: &Value, boneyard: &Value, split: bool, steps: &[Value]) -> (Model, Vec<String>) {
    let mut m = Model::new(hands.as_array().unwrap().iter().map(doms).collect(), doms(boneyard), split);
    let mut bad = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if m.end.is_some() {
            bad.push(format!("model: the round is over before step {i}"));
            break;
        }
        if step["seat"] != json!(m.to_move) {
            bad.push(format!("model: step {i} seat {}, expected {}", step["seat"], m.to_move));
        }
        if sorted(&step["legal"]) != m.legal() {
            bad.push(format!("model: step {i} legal {}, expected {:?}", step["legal"], m.legal()));
            break;
        }
        m.apply(step["action"].as_str().unwrap());
    }
    (m, bad)
}

/// Checks a round result (`r`, with `steps` and, when over, `end`, `winner`,
/// `scores`) against the model.
fn check_round_result(hands: &Value, boneyard: &Value, split: bool, r: &Value) -> (Model, Vec<String>) {
    let (m, mut bad) = check_round(hands, boneyard, split, r["steps"].as_array().unwrap());
    if let Some(end) = m.end {
        let (scores, winner) = m.scores();
        if r["end"] != json!(end) {
            bad.push(format!("model: end {end}, result {}", r["end"]));
        }
        if r["scores"] != json!(scores) {
            bad.push(format!("model: scores {scores:?}, result {}", r["scores"]));
        }
        if r["winner"] != json!(winner) {
            bad.push(format!("model: winner {winner:?}, result {}", r["winner"]));
        }
    } else if r.get("end").is_some() {
        bad.push(format!("model: the round is not over, result says {}", r["end"]));
    }
    (m, bad)
}

// ---------------------------------------------------------------------------
// The scenario file.

fn compare(input: &Value, expect: &Value, out: &Value, ok: bool, line: usize) -> Vec<String> {
    let mut bad = Vec::new();
    if let Some(e) = expect.get("error") {
        if ok {
            return vec![format!("expected an error {e}, got {}", out["result"])];
        }
        let got = &out["error"];
        if got["line"] != json!(line) {
            bad.push(format!("error line {}, expected {line}", got["line"]));
        }
        for k in ["index", "action"] {
            if got[k] != e[k] {
                bad.push(format!("error `{k}` {}, expected {}", got[k], e[k]));
            }
        }
        if sorted(&got["legal"]) != sorted(&e["legal"]) {
            bad.push(format!("error `legal` {}, expected {}", got["legal"], e["legal"]));
        }
        let msg = got["message"].as_str().unwrap_or("");
        if !msg.contains(&format!("`{}`", e["action"].as_str().unwrap())) {
            bad.push(format!("error message {msg:?} does not name the action"));
        }
        for l in sorted(&e["legal"]) {
            if !msg.contains(&l) {
                bad.push(format!("error message {msg:?} does not name legal action {l}"));
            }
        }
        return bad;
    }
    if !ok {
        return vec![format!("replay failed: {}", out["error"])];
    }
    let r = &out["result"];
    let game = input["episode"] == json!("game");
    let split = input["rules"]["blocked_tie"] == json!("split");
    let steps: Vec<&Value> = if game {
        r["hand_results"].as_array().unwrap().iter().flat_map(|h| h["steps"].as_array().unwrap()).collect()
    } else {
        r["steps"].as_array().unwrap().iter().collect()
    };
    let actions = input["actions"].as_array().map_or(0, Vec::len);
    if steps.len() != actions {
        bad.push(format!("{} steps for {actions} actions", steps.len()));
    }
    if let Some(seats) = expect.get("seats") {
        let got: Vec<&Value> = steps.iter().map(|s| &s["seat"]).collect();
        let want: Vec<&Value> = seats.as_array().unwrap().iter().collect();
        if got != want {
            bad.push(format!("seats {got:?}, expected {want:?}"));
        }
    }
    if let Some(at) = expect.get("legal_at") {
        for (i, want) in at.as_object().unwrap() {
            let i: usize = i.parse().unwrap();
            match steps.get(i) {
                Some(s) if sorted(&s["legal"]) == sorted(want) => {}
                Some(s) => bad.push(format!("legal at step {i}: {}, expected {want}", s["legal"])),
                None => bad.push(format!("legal_at {i}: no such step")),
            }
        }
    }
    if let Some(next) = expect.get("next") {
        if r["next"]["seat"] != next["seat"] || sorted(&r["next"]["legal"]) != sorted(&next["legal"]) {
            bad.push(format!("next {}, expected {next}", r["next"]));
        }
    }
    for k in ["end", "winner", "scores", "done"] {
        if let Some(e) = expect.get(k) {
            if r.get(k) != Some(e) {
                bad.push(format!("`{k}` {}, expected {e}", r.get(k).unwrap_or(&Value::Null)));
            }
        }
    }
    if !game {
        let (_, b) = check_round_result(&out["hands"], &out["boneyard"], split, r);
        bad.extend(b);
        return bad;
    }
    // A whole game: every round against the model, the totals, the end.
    let rounds = r["hand_results"].as_array().unwrap();
    let players = input["players"].as_u64().unwrap_or(4) as usize;
    let target = expect.get("target").and_then(Value::as_u64).unwrap_or(100) as u32;
    let mut totals = vec![0u32; players];
    for (k, h) in rounds.iter().enumerate() {
        let (m, b) = check_round_result(&h["hands"], &h["boneyard"], split, h);
        bad.extend(b.into_iter().map(|x| format!("round {k}: {x}")));
        if m.end.is_none() {
            if k + 1 != rounds.len() || r["done"] == json!(true) {
                bad.push(format!("round {k} is not over"));
            }
            continue;
        }
        for (t, s) in totals.iter_mut().zip(m.scores().0) {
            *t += s;
        }
        let high = *totals.iter().max().unwrap();
        let leaders: Vec<usize> = (0..players).filter(|&s| totals[s] == high).collect();
        let over = high >= target && leaders.len() == 1;
        if over != (k + 1 == rounds.len() && r["done"] == json!(true)) {
            bad.push(format!(
                "after round {k} the totals are {totals:?}: the game should {}be over",
                ["not ", ""][over as usize]
            ));
        }
        if over && r["winner"] != json!(leaders[0]) {
            bad.push(format!("winner {}, expected seat {} with {high}", r["winner"], leaders[0]));
        }
    }
    if r["scores"] != json!(totals) {
        bad.push(format!("totals {}, the rounds add up to {totals:?}", r["scores"]));
    }
    bad
}

#[test]
fn hand_made_scenarios_replay_as_worked_out() {
    let text = std::fs::read_to_string(data_path()).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        n += 1;
        let input: Value = serde_json::from_str(line).unwrap();
        assert_eq!(input["game"], "doubles", "line {}", i + 1);
        let (out, ok) = replay_line(line, i + 1);
        let name = input["expect"]["name"].as_str().unwrap_or("");
        for m in compare(&input, &input["expect"], &out, ok, i + 1) {
            failures.push(format!("line {} ({name}): {m}", i + 1));
        }
        if ok {
            // The annotated record replays to itself.
            let (again, ok2) = replay_line(&out.to_string(), i + 1);
            assert!(ok2 && again == out, "line {}: replaying the output changed it", i + 1);
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    assert!(n >= 30, "only {n} scenarios");
}

#[test]
fn the_scenarios_cover_every_rule_and_table_size() {
    let text = std::fs::read_to_string(data_path()).unwrap();
    let recs: Vec<Value> =
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    for players in [2, 3, 4] {
        assert!(
            recs.iter().any(|r| r["players"] == players && r["expect"].get("error").is_none()),
            "{players} players"
        );
    }
    let has = |f: &dyn Fn(&Value) -> bool| recs.iter().any(|r| f(&r["expect"]));
    assert!(has(&|e| e["end"] == "domino"));
    assert!(has(&|e| e["end"] == "blocked" && e["winner"].is_u64()));
    assert!(has(&|e| e["end"] == "blocked"
        && e["winner"].is_null()
        && e["scores"].as_array().unwrap().iter().any(|s| s != 0)));
    assert!(has(&|e| e["end"] == "blocked"
        && e["winner"].is_null()
        && e["scores"].as_array().unwrap().iter().all(|s| s == 0)));
    assert!(has(&|e| e.get("target").is_some()));
    assert!(has(&|e| e.get("error").is_some()));
}

// ---------------------------------------------------------------------------
// Record errors through `replay_line`.

const LINE: usize = 9;

/// Two players; seat 1 holds 5-5, the highest double dealt (6-6 is in the boneyard).
fn deal2() -> Value {
    json!({"game":"doubles","players":2,
           "hands":[["3-3","2-1","4-0","1-0","3-0","2-0","4-1","3-1"],["5-5","4-4","5-3","5-2","4-2","1-1","0-0","6-0"]],
           "boneyard":["6-6","2-2","3-2","4-3","5-0","5-1","5-4","6-1","6-2","6-3","6-4","6-5"]})
}

/// Four players; seat 2 holds 6-6.
fn deal4() -> Value {
    json!({"game":"doubles","players":4,
           "hands":[["5-5","5-4","3-2","1-0","2-0","4-1"],["4-4","3-3","6-1","5-0","2-1","3-0"],
                    ["6-6","2-2","6-5","5-3","3-1","4-0"],["1-1","0-0","6-4","6-3","5-2","4-2"]],
           "boneyard":["6-0","6-2","5-1","4-3"]})
}

fn with(mut rec: Value, key: &str, v: Value) -> Value {
    rec[key] = v;
    rec
}

/// Replays `rec` as line `LINE`; it must fail with a well-formed error, which is returned.
fn error_of(rec: &Value) -> Value {
    let (out, ok) = replay_line(&rec.to_string(), LINE);
    assert!(!ok, "expected an error for {rec}, got {out}");
    assert!(out.get("result").is_none(), "an error with a result: {out}");
    let e = out["error"].clone();
    assert_eq!(e["line"], json!(LINE), "{e}");
    for k in ["index", "action", "message", "legal"] {
        assert!(e.get(k).is_some(), "error without `{k}`: {e}");
    }
    assert!(!e["message"].as_str().unwrap().trim().is_empty(), "{e}");
    e
}

/// The error is about the record as a whole (`index`, `action`, `legal` null)
/// and its message mentions every one of `mentions`.
fn record_error(rec: &Value, mentions: &[&str]) -> String {
    let e = error_of(rec);
    assert!(e["index"].is_null() && e["action"].is_null() && e["legal"].is_null(), "{e}");
    let m = e["message"].as_str().unwrap().to_string();
    for w in mentions {
        assert!(m.contains(w), "message {m:?} does not mention {w:?}");
    }
    m
}

/// The result's `next.legal` after `actions` on `rec`'s deal.
fn legal_after(rec: &Value, actions: &[&str]) -> Value {
    let (out, ok) = replay_line(&with(rec.clone(), "actions", json!(actions)).to_string(), 1);
    assert!(ok, "{out}");
    out["result"]["next"]["legal"].clone()
}

#[test]
fn unknown_action_name() {
    for bad in
        ["bogus", "6-7", "7-7", "6-4", "6-3@2", "6-3@", "@6", "6-3@6@6", "6-3@7", "PASS", "Draw", "", " draw", "6-6 "]
    {
        let e = error_of(&with(deal2(), "actions", json!(["5-5", bad])));
        assert_eq!(e["index"], json!(1), "{bad:?}");
        assert_eq!(e["action"], json!(bad));
        assert_eq!(e["legal"], legal_after(&deal2(), &["5-5"]), "the legal actions at the bad step");
        assert_eq!(e["legal"], json!(["draw"]));
        let m = e["message"].as_str().unwrap();
        assert!(m.contains(&format!("`{bad}`")) && m.contains("unknown action"), "{m}");
        assert!(m.contains("expected") && m.contains("`6-6`") && m.contains("`6-3@6`"), "{m}");
        assert!(m.contains("`draw`") && m.contains("`pass`"), "{m}");
    }
    // The first action too (before the opening).
    let e = error_of(&with(deal4(), "actions", json!(["6-6-6"])));
    assert_eq!((e["index"].clone(), e["legal"].clone()), (json!(0), json!(["6-6"])));
}

#[test]
fn illegal_action_names_the_legal_ones() {
    // (actions, the illegal one's index, the legal actions there): a lower double
    // opening; seat 0 playing for seat 1; playing a drawn domino that has no
    // place; a second draw; drawing, passing when a play exists; a domino the
    // player does not hold; a play on a locked end; the opening double again; a
    // non-double on a locked end.
    let cases: &[(&[&str], usize, &[&str])] = &[
        (&["4-4"], 0, &["5-5"]),
        (&["6-6"], 0, &["5-5"]),
        (&["pass"], 0, &["5-5"]),
        (&["5-5", "5-3@5"], 1, &["draw"]),
        (&["5-5", "draw", "6-6@6"], 2, &["pass"]),
        (&["5-5", "draw", "draw"], 2, &["pass"]),
        (&["5-5", "draw", "pass", "draw"], 3, &["5-2@5", "5-3@5"]),
        (&["5-5", "draw", "pass", "pass"], 3, &["5-2@5", "5-3@5"]),
        (&["5-5", "draw", "pass", "5-4@5"], 3, &["5-2@5", "5-3@5"]),
        (&["5-5", "draw", "pass", "5-3@3"], 3, &["5-2@5", "5-3@5"]),
        (&["5-5", "draw", "pass", "5-5"], 3, &["5-2@5", "5-3@5"]),
        (&["5-5", "draw", "pass", "5-3@5", "3-0@3"], 4, &["3-3@3"]),
    ];
    for (actions, index, legal) in cases {
        let e = error_of(&with(deal2(), "actions", json!(actions)));
        assert_eq!(e["index"], json!(index), "{actions:?}");
        assert_eq!(e["action"], json!(actions[*index]));
        assert_eq!(sorted(&e["legal"]), sorted(&json!(legal)), "{actions:?}");
        assert_eq!(e["legal"], legal_after(&deal2(), &actions[..*index]), "{actions:?}");
        let m = e["message"].as_str().unwrap();
        assert!(m.contains("illegal") && m.contains(&format!("`{}`", actions[*index])), "{m}");
        for l in *legal {
            assert!(m.contains(l), "message {m:?} does not name legal action {l}");
        }
    }
    // Four players: seat 2 opens; 6-4 is seat 3's, 6-3@6 it may play.
    let e = error_of(&with(deal4(), "actions", json!(["6-6", "6-5@6"])));
    assert_eq!((e["index"].clone(), e["action"].clone()), (json!(1), json!("6-5@6")));
    assert_eq!(sorted(&e["legal"]), ["6-3@6", "6-4@6"]);
}

#[test]
fn action_after_the_round_is_over() {
    // The domino round of the scenario file (line with `"end":"domino"`), plus one action.
    let text = std::fs::read_to_string(data_path()).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let rec: Value = serde_json::from_str(line).unwrap();
        if rec["expect"].get("done") != Some(&json!(true)) || rec["episode"] == "game" {
            continue;
        }
        let n = rec["actions"].as_array().unwrap().len();
        for extra in ["pass", "draw", "6-6", "bogus"] {
            let mut more = rec.clone();
            more["actions"].as_array_mut().unwrap().push(json!(extra));
            let e = error_of(&more);
            assert_eq!(e["index"], json!(n), "{extra}");
            assert_eq!(e["action"], json!(extra));
            assert_eq!(e["legal"], json!([]), "nothing is legal after the end");
            let m = e["message"].as_str().unwrap();
            assert!(m.contains(&format!("`{extra}`")) && m.contains("over"), "{m}");
        }
        checked += 1;
    }
    assert!(checked >= 3, "{checked} finished rounds");
    // A whole game to 1 point is over after its first round.
    let (out, ok) =
        replay_line(&json!({"game":"doubles","seed":3,"episode":"game","rules":{"target":1}}).to_string(), 1);
    assert!(ok, "{out}");
    let mut actions = Vec::new();
    let mut next = out["result"]["next"].clone();
    while !next.is_null() {
        actions.push(next["legal"][0].clone());
        let rec = json!({"game":"doubles","seed":3,"episode":"game","rules":{"target":1},"actions":actions});
        let (out, ok) = replay_line(&rec.to_string(), 1);
        assert!(ok, "{out}");
        next = out["result"]["next"].clone();
    }
    let n = actions.len();
    actions.push(json!("pass"));
    let e = error_of(&json!({"game":"doubles","seed":3,"episode":"game","rules":{"target":1},"actions":actions}));
    assert_eq!((e["index"].clone(), e["legal"].clone()), (json!(n), json!([])));
    assert!(e["message"].as_str().unwrap().contains("over"), "{e}");
}

#[test]
fn malformed_json() {
    for line in [
        "",
        "{",
        r#"{"game":"doubles","seed":1,"actions":["pass"]"#,
        r#"{"game":"doubles","seed":1,}"#,
        r#"{game:"doubles"}"#,
        r#"{"game":"doubles","players":2} {"game":"doubles"}"#,
        r#"{"game":"doubles","hands":[["6-6"]],}"#,
        "doubles",
    ] {
        let (out, ok) = replay_line(line, LINE);
        assert!(!ok, "{line:?} was accepted: {out}");
        let e = &out["error"];
        assert_eq!(e["line"], json!(LINE));
        assert!(e["index"].is_null() && e["action"].is_null() && e["legal"].is_null(), "{e}");
        assert!(e["message"].as_str().unwrap().starts_with("malformed JSON"), "{line:?}: {e}");
    }
    for line in ["[\"doubles\"]", "\"doubles\"", "4"] {
        let (out, ok) = replay_line(line, LINE);
        assert!(!ok);
        assert!(out["error"]["message"].as_str().unwrap().contains("must be a JSON object"), "{out}");
    }
}

#[test]
fn wrong_number_of_hands_for_players() {
    // deal4's four hands under two and three players; deal2's two under four.
    record_error(&with(deal4(), "players", json!(2)), &["hands", "expected 2 hands, got 4"]);
    record_error(&with(deal4(), "players", json!(3)), &["hands", "expected 3 hands, got 4"]);
    record_error(&with(deal2(), "players", json!(4)), &["hands", "expected 4 hands, got 2"]);
    // `players` defaults to 4.
    let mut rec = deal2();
    rec.as_object_mut().unwrap().remove("players");
    record_error(&rec, &["expected 4 hands, got 2"]);
    record_error(&with(deal2(), "hands", json!([])), &["expected 2 hands, got 0"]);
    record_error(&with(deal2(), "hands", json!("6-6")), &["hands", "a string"]);
}

#[test]
fn wrong_hand_size() {
    // Two players hold 8 each: move one domino from hand 0 to hand 1.
    let mut rec = deal2();
    let d = rec["hands"][0].as_array_mut().unwrap().pop().unwrap();
    rec["hands"][1].as_array_mut().unwrap().push(d);
    record_error(&rec, &["hand 0", "expected 8 dominoes, got 7"]);
    // Four players hold 6 each: a domino of the boneyard added to hand 3.
    let mut rec = deal4();
    let d = rec["boneyard"].as_array_mut().unwrap().pop().unwrap();
    rec["hands"][3].as_array_mut().unwrap().push(d);
    record_error(&rec, &["hand 3", "expected 6 dominoes, got 7"]);
    // Three players hold 6 each: deal2's hands of 8 are too large.
    let mut rec = with(deal2(), "players", json!(3));
    rec["hands"].as_array_mut().unwrap().push(json!([]));
    record_error(&rec, &["hand 0", "expected 6 dominoes, got 8"]);
    // The boneyard is the rest: 12 with two players, 4 with four.
    let mut rec = deal2();
    rec["boneyard"].as_array_mut().unwrap().pop();
    record_error(&rec, &["boneyard", "expected 12 dominoes, got 11"]);
    let mut rec = deal4();
    rec["boneyard"].as_array_mut().unwrap().push(json!("6-6"));
    record_error(&rec, &["boneyard", "expected 4 dominoes, got 5"]);
}

#[test]
fn duplicated_domino() {
    // In two hands.
    let mut rec = deal4();
    rec["hands"][3][5] = json!("6-6");
    record_error(&rec, &["hand 3", "6-6", "more than once"]);
    // Written the other way round.
    let mut rec = deal4();
    rec["hands"][1][2] = json!("5-6"); // 6-5 is seat 2's: reported at its second place
    record_error(&rec, &["hand 2", "6-5", "more than once"]);
    // In a hand and the boneyard.
    let mut rec = deal2();
    rec["boneyard"][11] = json!("5-5");
    record_error(&rec, &["boneyard", "5-5", "more than once"]);
    // Twice in the boneyard.
    let mut rec = deal4();
    rec["boneyard"][3] = json!("6-0");
    record_error(&rec, &["boneyard", "6-0", "more than once"]);
    // Twice in one hand.
    let mut rec = deal2();
    rec["hands"][0][1] = json!("3-3");
    record_error(&rec, &["hand 0", "3-3", "more than once"]);
}

#[test]
fn hands_and_boneyard_must_come_together() {
    let mut rec = deal2();
    rec.as_object_mut().unwrap().remove("boneyard");
    record_error(&rec, &["`hands`", "needs `boneyard`"]);
    let mut rec = deal2();
    rec.as_object_mut().unwrap().remove("hands");
    record_error(&rec, &["`boneyard`", "needs `hands`"]);
    record_error(&json!({"game":"doubles","players":3,"actions":[]}), &["`hands`", "`boneyard`", "`seed`"]);
    record_error(&with(deal2(), "boneyard", json!("6-6")), &["boneyard", "a string"]);
    // A whole game needs a seed.
    record_error(&with(deal2(), "episode", json!("game")), &["episode", "needs `seed`"]);
}

#[test]
fn hands_without_any_double() {
    // Two players: all seven doubles in the boneyard: a deal that would be thrown in.
    let rec = json!({"game":"doubles","players":2,
        "hands":[["1-0","2-0","2-1","3-0","3-1","3-2","4-0","4-1"],["4-2","4-3","5-0","5-1","5-2","5-3","5-4","6-0"]],
        "boneyard":["0-0","1-1","2-2","3-3","4-4","5-5","6-6","6-1","6-2","6-3","6-4","6-5"]});
    record_error(&rec, &["bad deal", "no double"]);
    // One double among the hands is enough: seat 1's 0-0 opens.
    let mut ok_rec = rec.clone();
    ok_rec["hands"][1][7] = json!("0-0");
    ok_rec["boneyard"][0] = json!("6-0");
    let (out, ok) = replay_line(&with(ok_rec, "actions", json!(["0-0"])).to_string(), 1);
    assert!(ok, "{out}");
    assert_eq!(out["result"]["steps"][0]["seat"], json!(1));
}

#[test]
fn unknown_record_key() {
    for key in ["foo", "hand", "Players", "bones", "shaker", "marks", "target"] {
        let m = record_error(&with(deal2(), key, json!(1)), &[&format!("unknown key `{key}`"), "doubles record"]);
        assert!(m.contains("expected one of") && m.contains("boneyard") && m.contains("players"), "{m}");
    }
    // The annotation keys are allowed; `result` and `error` are replaced.
    let rec = with(with(with(deal2(), "expect", json!({"x":1})), "result", json!(5)), "error", json!(3));
    let (out, ok) = replay_line(&rec.to_string(), 1);
    assert!(ok, "{out}");
    assert!(out.get("error").is_none() && out["result"].is_object());
}

#[test]
fn texas42_rules_keys_in_a_doubles_record() {
    for (key, v) in [
        ("early_end", json!(false)),
        ("variants", json!(["nel-o"])),
        ("nello_doubles", json!("high")),
        ("all_pass", json!("redeal")),
        ("scoring", json!("points")),
        ("nello_min_marks", json!(1)),
        ("blockedtie", json!("split")),
    ] {
        let mut rules = serde_json::Map::new();
        rules.insert(key.into(), v);
        let m = record_error(&with(deal2(), "rules", Value::Object(rules)), &[&format!("`{key}`"), "doubles"]);
        assert!(m.contains("unknown rules key") && m.contains("blocked_tie") && m.contains("target"), "{m}");
    }
    // Doubles has no `full` preset.
    record_error(&with(deal2(), "rules", json!({"preset":"full"})), &["preset", "standard"]);
    record_error(&with(deal2(), "rules", json!({"blocked_tie":"half"})), &["blocked_tie", "none", "split"]);
    record_error(&with(deal2(), "rules", json!({"target":0})), &["target"]);
    // And the Doubles keys are unknown to Texas 42.
    let m = record_error(&json!({"game":"texas42","seed":1,"rules":{"blocked_tie":"split"}}), &["`blocked_tie`"]);
    assert!(m.contains("texas42"), "{m}");
}

#[test]
fn players_out_of_range() {
    for p in [json!(5), json!(1), json!(0), json!(-2), json!("4"), json!(2.5), json!(null)] {
        record_error(&with(deal4(), "players", p.clone()), &["`players`", &p.to_string(), "2, 3 or 4"]);
        record_error(&json!({"game":"doubles","seed":1,"players":p}), &["`players`", "2, 3 or 4"]);
    }
    record_error(&json!({"game":"doubles","seed":1,"rules":{"players":5}}), &["players", "5"]);
}

#[test]
fn seed_with_a_different_deal() {
    let seeded = |seed: u64, players: u64| {
        let (out, ok) = replay_line(&json!({"game":"doubles","seed":seed,"players":players}).to_string(), 1);
        assert!(ok, "{out}");
        (out["hands"].clone(), out["boneyard"].clone())
    };
    let (h1, b1) = seeded(1, 3);
    let (h2, b2) = seeded(2, 3);
    // The seed's own deal (a hand in any order) is accepted.
    let mut h = h1.clone();
    h[0].as_array_mut().unwrap().reverse();
    let (out, ok) = replay_line(&json!({"game":"doubles","seed":1,"players":3,"hands":h,"boneyard":b1}).to_string(), 1);
    assert!(ok, "{out}");
    // Another seed's deal, the boneyard in another order, or two seats swapped.
    let mut b_rev = b1.clone();
    b_rev.as_array_mut().unwrap().reverse();
    let mut h_swap = h1.clone();
    h_swap.as_array_mut().unwrap().swap(0, 1);
    for (h, b) in [(h2, b2.clone()), (h1.clone(), b_rev), (h_swap, b1.clone())] {
        record_error(
            &json!({"game":"doubles","seed":1,"players":3,"hands":h,"boneyard":b}),
            &["not the deal of seed 1"],
        );
    }
    record_error(&json!({"game":"doubles","seed":1,"players":3,"boneyard":b2}), &["not the deal of seed 1"]);
    // The seed's deal under another table size is another deal.
    record_error(&json!({"game":"doubles","seed":1,"players":4,"hands":h1}), &["expected 4 hands, got 3"]);
}

/// Not a test: prints the actions of a seeded whole game played by `highest`
/// (the legal play with the most pips), used to fill the long action lists of the
/// whole-game records. `cargo test -p bones-env --test main doubles::scenarios -- --ignored --nocapture`
#[test]
#[ignore]
fn print_highest_game_actions() {
    use bones_env::doubles::{action_name, highest_pip_action, Doubles};
    use bones_env::rules::DoublesRules;
    use bones_env::{Episode, Game, GameState};
    for (seed, players) in [(7u64, 4u8), (11, 2), (5, 3)] {
        let game = Doubles::new(DoublesRules { players, ..DoublesRules::default() });
        let mut st = game.new_state(seed, Episode::Game);
        let mut actions = Vec::new();
        while !st.is_terminal() {
            let a = highest_pip_action(&st);
            actions.push(action_name(a));
            st.apply(a).unwrap();
        }
        println!("seed {seed} players {players}: {}", serde_json::to_string(&actions).unwrap());
    }
}
