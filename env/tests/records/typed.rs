//! The typed records (`Texas42Record`, `DoublesRecord`, `GameRecord`): every
//! record of the data files reads as its type, serde and the replay reader
//! agree on it, it writes back to a record that replays the same; and the
//! types write exactly the JSON `bones play --save` and the web page write.

use bones_env::replay::{replay_line, GameRecord};
use bones_env::rules::DoublesRules;
use bones_env::{Doubles, DoublesRecord, Episode, Game, Texas42, Texas42Record, Texas42Rules, TypedRecord};
use serde_json::{json, Map, Value};

fn data_lines() -> Vec<(String, usize, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (i, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
            if !line.trim().is_empty() {
                out.push((name.clone(), i + 1, line.to_string()));
            }
        }
    }
    out
}

#[test]
fn every_record_of_the_data_files_reads_as_its_typed_record_and_replays_the_same() {
    let mut n = [0usize; 2];
    for (file, line_no, line) in data_lines() {
        let at = format!("{file}:{line_no}");
        let (out, ok) = replay_line(&line, line_no);
        let value: Value = serde_json::from_str(&line).unwrap();
        let typed = GameRecord::from_json(&value);
        if !ok {
            // A record meant to fail fails alike: a bad record when read, a bad
            // action when replayed, with replay's error.
            let e = match (typed, out["error"]["index"].is_null()) {
                (Err(e), true) => e,
                (Ok(r), false) => r.replay().expect_err(&at),
                (other, _) => panic!("{at}: {other:?} for {}", out["error"]),
            };
            let mut want = out["error"].clone();
            want.as_object_mut().unwrap().remove("line");
            let mut got = e.to_json(line_no);
            got.as_object_mut().unwrap().remove("line");
            assert_eq!(got, want, "{at}");
            continue;
        }
        let typed = typed.unwrap_or_else(|e| panic!("{at}: {e}"));
        let mut map: Map<String, Value> = value.as_object().unwrap().clone();
        map.remove("result");
        // Serde reads the same record as the replay reader.
        match &typed {
            GameRecord::Texas42(r) => {
                n[0] += 1;
                let by_serde: Texas42Record = serde_json::from_value(Value::Object(map)).unwrap();
                assert_eq!(&by_serde, r, "{at}");
            }
            GameRecord::Doubles(r) => {
                n[1] += 1;
                let by_serde: DoublesRecord = serde_json::from_value(Value::Object(map)).unwrap();
                assert_eq!(&by_serde, r, "{at}");
            }
        }
        // Written back, it reads as itself and replays to the same result.
        assert_eq!(GameRecord::from_json(&typed.to_json()).unwrap(), typed, "{at}");
        assert_eq!(typed.replay().unwrap(), out["result"], "{at}");
    }
    assert!(n[0] >= 790 && n[1] >= 290, "records read: {n:?}");
}

#[test]
fn deserializing_a_typed_record_refuses_unknown_keys_other_games_and_bad_types() {
    for (line, mention) in [
        (r#"{"game":"texas42","seed":1,"players":4}"#, "unknown field `players`"),
        (r#"{"game":"texas42","seed":1,"Seed":1}"#, "unknown field `Seed`"),
        (r#"{"game":"doubles","seed":1}"#, "bad `game` \"doubles\": expected \"texas42\""),
        (r#"{"game":"texas42","dealer":null,"seed":1}"#, "null"),
        (r#"{"game":"texas42","seed":-1}"#, "-1"),
        (r#"{"game":"texas42","hands":[["6-7"]]}"#, "`6-7` is not a domino"),
        (r#"{"game":"texas42","seed":1,"episode":"round"}"#, "bad `episode` \"round\""),
        (r#"{"game":"texas42","seed":1,"actions":"pass"}"#, "a sequence"),
    ] {
        let e = serde_json::from_str::<Texas42Record>(line).expect_err(line).to_string();
        assert!(e.contains(mention), "{line}: {e}");
    }
    let r: DoublesRecord = serde_json::from_str(r#"{"game":"doubles","seed":1,"episode":"round"}"#).unwrap();
    assert_eq!(r.episode, Some(Episode::Hand), "a round is a one-deal episode");
    assert!(serde_json::from_str::<DoublesRecord>(r#"{"game":"texas42","seed":1}"#).is_err());
}

#[test]
fn the_replay_reader_gives_replay_s_messages_with_the_line_key_and_what_was_expected() {
    let cases = [
        (json!({"game":"texas42","seed":1,"foo":1}), "unknown key `foo` in a texas42 record: expected one of game, rules, dealer, hands, seed, episode, actions, annotations, expect, result"),
        (json!({"game":"doubles","seed":1,"foo":1}), "unknown key `foo` in a doubles record: expected one of game, players, rules, dealer, hands, boneyard, seed, episode, actions, annotations, expect, result"),
        (json!({"game":"texas42","seed":1,"dealer":4}), "bad `dealer` 4: expected an integer 0..=3"),
        (json!({"game":"doubles","seed":1,"players":5}), "bad `players` 5: expected 2, 3 or 4"),
    ];
    for (record, message) in cases {
        let e = GameRecord::from_json(&record).unwrap_err();
        assert_eq!(e.message, message);
        let (out, ok) = replay_line(&record.to_string(), 3);
        assert!(!ok);
        assert_eq!(out["error"]["message"], message);
        assert_eq!(out["error"]["line"], 3);
    }
}

#[test]
fn typed_records_write_the_json_of_bones_play_save_and_of_the_web_page() {
    let actions: Vec<String> = ["pass", "30", "pass", "pass", "sixes"].map(String::from).to_vec();
    for rules in
        [Texas42Rules::STANDARD, Texas42Rules::FULL, Texas42Rules { early_end: false, target: 3, ..Texas42Rules::FULL }]
    {
        let seed = 42;
        // As bones play --save writes it, by hand.
        let mut r = Map::new();
        r.insert("game".into(), json!("texas42"));
        // The rules as their preset plus the keys that differ from it, left out when none do.
        let diff = rules.preset_diff();
        if !diff.is_empty() {
            r.insert("rules".into(), Value::Object(diff.clone()));
        }
        r.insert("seed".into(), json!(seed));
        r.insert("episode".into(), json!("game"));
        r.insert("actions".into(), json!(actions));
        let by_hand = Value::Object(r).to_string();
        let typed = Texas42Record {
            rules: (!diff.is_empty()).then(|| Value::Object(diff)),
            ..Texas42Record::seeded(&Texas42::new(rules), seed, Episode::Game, actions.clone())
        };
        assert_eq!(typed.to_json().to_string(), by_hand);
        // As the web page writes it.
        let game = Texas42::new(rules);
        let web = json!({"game": game.name(), "rules": game.rules_json(), "seed": seed, "episode": "hand", "actions": actions});
        let typed = GameRecord::seeded(&game, seed, Episode::Hand, actions.clone()).unwrap();
        assert_eq!(typed.to_json().to_string(), web.to_string());
        assert_eq!(Texas42Record::seeded(&game, seed, Episode::Hand, actions.clone()).to_json(), web);
    }
    let actions: Vec<String> = vec!["6-6".into()];
    for (players, rules) in [(4, DoublesRules::default()), (3, DoublesRules { target: 150, ..DoublesRules::default() })]
    {
        let rules = DoublesRules { players, ..rules };
        // bones play --save: `players`, then the rules without it when not the defaults.
        let mut r = Map::new();
        r.insert("game".into(), json!("doubles"));
        r.insert("players".into(), json!(players));
        let mut rj = rules.to_json();
        rj.as_object_mut().unwrap().remove("players");
        let non_default = rules != DoublesRules { players, ..DoublesRules::default() };
        if non_default {
            r.insert("rules".into(), rj.clone());
        }
        r.insert("seed".into(), json!(9));
        r.insert("episode".into(), json!("game"));
        r.insert("actions".into(), json!(actions));
        let typed = DoublesRecord {
            players: Some(players),
            rules: non_default.then_some(rj),
            ..DoublesRecord::seeded(&Doubles::new(rules), 9, Episode::Game, actions.clone())
        };
        assert_eq!(typed.to_json().to_string(), Value::Object(r).to_string());
        // The web page.
        let game = Doubles::new(rules);
        let web =
            json!({"game": "doubles", "rules": game.rules_json(), "seed": 9, "episode": "game", "actions": actions});
        assert_eq!(
            GameRecord::seeded(&game, 9, Episode::Game, actions.clone()).unwrap().to_json().to_string(),
            web.to_string()
        );
    }
}

#[test]
fn dealt_records_replay_the_deal_they_were_given() {
    let game = Texas42::new(Texas42Rules::FULL);
    let st = game.from_seed(2, 5, Episode::Hand);
    let rec = Texas42Record::dealt(&game, 2, st.hand().dealt, vec!["30".into()]);
    let (g, after, result) = rec.replay().unwrap();
    assert_eq!((g.rules, g.dealer, after.hand().dealt, after.hand().dealer), (game.rules, 2, st.hand().dealt, 2));
    assert_eq!(result["steps"][0]["action"], "30");
    let d = Doubles::new(DoublesRules { players: 3, ..DoublesRules::default() });
    let st = bones_env::Game::new_state(&d, 4, Episode::Hand);
    let r = st.round();
    let rec = DoublesRecord::dealt(&d, &r.dealt[..3], r.boneyard_dealt(), Vec::new());
    let (_, after, _) = rec.replay().unwrap();
    assert_eq!(after.round().dealt, r.dealt);
    assert_eq!(DoublesRecord::from_json(rec.to_json().as_object().unwrap()).unwrap(), rec);
}
