//! Damaged records give the answers they gave before the typed records: every
//! record of the data files, and 20,000 copies of them damaged at random
//! (keys set to junk or removed, rules keys, dominoes renamed, moved or
//! repeated, the boneyard reordered, actions replaced, inserted or cut, the
//! game or episode changed), replayed, digested (the whole output line and
//! whether it succeeded) and compared with the digest the replay gave before
//! `Texas42Record` and `DoublesRecord` existed.

use super::RULES_KEYS;
use bones_env::replay::replay_line;
use bones_env::seed::splitmix64;
use serde_json::{json, Map, Value};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (splitmix64(&mut self.0) % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const KEYS: &[&str] = &[
    "game", "players", "rules", "dealer", "hands", "boneyard", "seed", "episode", "actions", "expect", "result",
    "error", "junk", "Seed", "hand", "round",
];
const NAMES: &[&str] = &[
    "pass",
    "30",
    "31",
    "1m",
    "2m",
    "sixes",
    "doubles",
    "follow-me",
    "nel-o",
    "sevens",
    "plunge",
    "splash",
    "6-4",
    "4-6",
    "6-6",
    "0-0",
    "7-1",
    "",
    " ",
    "draw",
    "6-3@6",
    "6-3@3",
    "6-3",
    "5-5@5",
    "bogus",
    "PASS",
    "hand",
    "game",
    "round",
    "standard",
    "full",
    "split",
    "own-suit",
    "redeal",
    "forced",
    "marks",
    "points",
    "texas42",
    "doubles",
];

fn junk(r: &mut Rng, depth: u32) -> Value {
    match r.below(if depth > 1 { 9 } else { 12 }) {
        0 => Value::Null,
        1 => json!(r.below(2) == 1),
        2 => json!(r.below(8)),
        3 => json!(splitmix64(&mut r.0)),
        4 => json!(-(r.below(10) as i64) - 1),
        5 => json!(r.below(100) as f64 / 8.0),
        6 | 7 => json!(r.pick(NAMES)),
        8 => json!(r.below(300)),
        9 | 10 => {
            let n = r.below(8);
            Value::Array((0..n).map(|_| junk(r, depth + 1)).collect())
        }
        _ => {
            let n = r.below(3);
            let mut m = Map::new();
            for _ in 0..n {
                let k = r.pick(RULES_KEYS);
                m.insert(k.to_string(), junk(r, depth + 1));
            }
            Value::Object(m)
        }
    }
}

/// The string leaves of `v`, depth first.
fn leaves(v: &mut Value) -> Vec<&mut Value> {
    match v {
        Value::Array(a) => a.iter_mut().flat_map(leaves).collect(),
        Value::String(_) => vec![v],
        _ => Vec::new(),
    }
}

fn edit(rec: &mut Map<String, Value>, r: &mut Rng) {
    match r.below(14) {
        0 | 1 => {
            let k = r.pick(KEYS);
            let v = junk(r, 0);
            rec.insert(k.into(), v);
        }
        2 => {
            let k = r.pick(KEYS);
            rec.remove(k);
        }
        3 => {
            let k = r.pick(RULES_KEYS);
            let v = junk(r, 1);
            match rec.get_mut("rules") {
                Some(Value::Object(rules)) => {
                    rules.insert(k.into(), v);
                }
                _ => {
                    rec.insert("rules".into(), json!({ k: v }));
                }
            }
        }
        4 | 5 => {
            // Rename, repeat or break a domino of the hands or the boneyard.
            let key = if r.below(3) == 0 { "boneyard" } else { "hands" };
            let Some(v) = rec.get_mut(key) else { return };
            let n = leaves(v).len();
            if n == 0 {
                return;
            }
            let i = r.below(n);
            let new = match r.below(3) {
                0 => junk(r, 1),
                1 => {
                    let j = r.below(n);
                    leaves(v)[j].clone()
                }
                _ => json!(r.pick(&["7-1", "6-7", "64", "4-6", "0-0", "6-6", "3-2"])),
            };
            *leaves(v).swap_remove(i) = new;
        }
        6 => {
            if let Some(Value::Array(h)) = rec.get_mut("hands") {
                if h.len() >= 2 {
                    let (a, b) = (r.below(h.len()), r.below(h.len()));
                    let item = h[a].as_array_mut().and_then(|x| if x.is_empty() { None } else { Some(x.remove(0)) });
                    if let (Some(d), Some(dst)) = (item, h[b].as_array_mut()) {
                        dst.push(d);
                    }
                }
                if r.below(4) == 0 && !h.is_empty() {
                    let n = h.len();
                    h.remove(r.below(n));
                }
            }
        }
        7 => {
            if let Some(Value::Array(b)) = rec.get_mut("boneyard") {
                let n = b.len();
                if n > 0 {
                    match r.below(3) {
                        0 => {
                            b.remove(r.below(n));
                        }
                        1 => b.swap(r.below(n), r.below(n)),
                        _ => b.push(json!("0-0")),
                    }
                }
            }
        }
        8..=10 => {
            if let Some(Value::Array(a)) = rec.get_mut("actions") {
                let n = a.len();
                match r.below(4) {
                    0 if n > 0 => {
                        let i = r.below(n);
                        a[i] = junk(r, 1);
                    }
                    1 => {
                        let i = r.below(n + 1);
                        a.insert(i, json!(r.pick(NAMES)));
                    }
                    2 => a.truncate(r.below(n + 1)),
                    _ if n > 1 => a.swap(r.below(n), r.below(n)),
                    _ => {}
                }
            }
        }
        11 => {
            let g = if rec.get("game") == Some(&json!("texas42")) { "doubles" } else { "texas42" };
            rec.insert("game".into(), json!(g));
        }
        12 => {
            if r.below(2) == 0 {
                rec.remove("seed");
            } else {
                rec.insert("seed".into(), json!(r.below(5)));
            }
        }
        _ => {
            let ep = r.pick(&["hand", "game", "round", "games"]);
            rec.insert("episode".into(), json!(ep));
        }
    }
}

/// FNV-1a over the output lines (each `ok` flag, then the JSON, then a newline).
/// The `annotations` key came later (`bones web`'s notes): the unknown-key
/// messages that list it are digested as they read before it (typed.rs checks
/// the message with it), so every other answer is still compared with d55c899's.
fn add(digest: &mut u64, ok: bool, out: &Value) {
    let line = format!("{ok} {out}\n").replace("actions, annotations, expect", "actions, expect");
    for b in line.bytes() {
        *digest ^= b as u64;
        *digest = digest.wrapping_mul(0x0100_0000_01b3);
    }
}

/// The digest of the replay answers to every record of the data files and
/// `n` damaged copies, and how many succeeded.
fn answers(n: usize) -> (u64, usize) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    files.sort();
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut succeeded = 0;
    let mut base = Vec::new();
    let mut line_no = 0;
    for path in files {
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            line_no += 1;
            let (out, ok) = replay_line(line, line_no);
            add(&mut digest, ok, &out);
            succeeded += ok as usize;
            if let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(line) {
                m.remove("expect");
                m.remove("result");
                base.push(m);
                if ok {
                    let mut o = out.as_object().unwrap().clone();
                    o.remove("result");
                    o.remove("expect");
                    base.push(o);
                }
            }
        }
    }
    let mut r = Rng(12345);
    for i in 0..n {
        let mut rec = base[r.below(base.len())].clone();
        for _ in 0..1 + r.below(4) {
            edit(&mut rec, &mut r);
        }
        let (out, ok) = replay_line(&Value::Object(rec).to_string(), i + 1);
        add(&mut digest, ok, &out);
        succeeded += ok as usize;
    }
    (digest, succeeded)
}

#[test]
fn damaged_records_give_the_answers_they_gave_before_the_typed_records() {
    // Computed with the replay of commit d55c899 (records read from maps with
    // hand-kept key lists), then again when the rules gained the `dropped30`
    // key and preset: the same answers, but the messages that list the Texas
    // 42 rules keys and presets name them too (0x41c5_c4db_4ec5_cbbf before).
    assert_eq!(answers(20_000), (0xd0e9_950e_ba4b_cd96, 3789), "the replay answers changed");
}
