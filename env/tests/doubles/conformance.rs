//! Doubles against the conformance records: the seeded deals of
//! `seeded-deals.jsonl` and the rounds of `doubles-rounds.jsonl`, driving the
//! engine directly (seat, action, sorted legal set at every step; scores, end,
//! winner at the end).

use bones_env::doubles::{action_name, parse_doubles, Doubles};
use bones_env::rules::DoublesRules;
use bones_env::{Domino, DominoSet, Episode, Game, GameState};
use serde_json::Value;

fn records(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn dominoes(v: &Value) -> Vec<Domino> {
    v.as_array().unwrap().iter().map(|d| d.as_str().unwrap().parse().unwrap()).collect()
}

fn rules_of(rec: &Value) -> DoublesRules {
    let mut rules = DoublesRules::from_json(rec.get("rules").unwrap_or(&serde_json::json!({}))).unwrap();
    rules.players = rec["players"].as_u64().unwrap() as u8;
    rules
}

#[test]
fn seeded_deals_match() {
    let mut n = 0;
    for rec in records("seeded-deals.jsonl") {
        if rec["game"] != "doubles" {
            continue;
        }
        n += 1;
        let game = Doubles::new(rules_of(&rec));
        let seed = rec["seed"].as_u64().unwrap();
        let st = game.new_state(seed, Episode::Hand);
        let players = game.num_players();
        let expect_hands: Vec<DominoSet> =
            rec["expect"]["hands"].as_array().unwrap().iter().map(|h| dominoes(h).into_iter().collect()).collect();
        assert_eq!(&st.hands()[..players], &expect_hands[..], "seed {seed}, {players} players");
        assert_eq!(st.round().boneyard_dealt(), &dominoes(&rec["expect"]["boneyard"])[..], "seed {seed}");
        // Same as the library deal (seat s gets deck[k*s..k*s+k], rest in order).
        let mut rng = bones_env::deal::rng_for_seed(seed);
        let k = bones_env::doubles::hand_size(players as u8);
        let (hands, bones) = bones_env::deal::deal(&mut rng, players, k);
        assert_eq!(&hands[..players], &expect_hands[..]);
        assert_eq!(bones, dominoes(&rec["expect"]["boneyard"]));
    }
    assert_eq!(n, 30);
}

#[test]
fn rounds_match_step_by_step() {
    let recs = records("doubles-rounds.jsonl");
    assert_eq!(recs.len(), 248);
    for (line, rec) in recs.iter().enumerate() {
        let line = line + 1;
        let game = Doubles::new(rules_of(rec));
        let hands: Vec<DominoSet> =
            rec["hands"].as_array().unwrap().iter().map(|h| dominoes(h).into_iter().collect()).collect();
        let mut st = game.from_deal(&hands, &dominoes(&rec["boneyard"])).unwrap();
        let steps = rec["expect"]["steps"].as_array().unwrap();
        let actions = rec["actions"].as_array().unwrap();
        assert_eq!(steps.len(), actions.len(), "line {line}");
        for (i, (step, action)) in steps.iter().zip(actions).enumerate() {
            let seat = st.current_seat().unwrap_or_else(|| panic!("line {line} step {i}: round already over"));
            assert_eq!(seat as u64, step["seat"].as_u64().unwrap(), "line {line} step {i}: seat");
            let mut legal: Vec<&str> = st.legal_mask().iter().map(action_name).collect();
            legal.sort();
            let expect: Vec<&str> = step["legal"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            assert_eq!(legal, expect, "line {line} step {i}: legal");
            let name = action.as_str().unwrap();
            assert_eq!(name, step["action"].as_str().unwrap());
            st.apply(parse_doubles(name).unwrap()).unwrap();
        }
        assert!(st.is_terminal(), "line {line}: not over after its actions");
        let n = game.num_players();
        let scores: Vec<u64> =
            rec["expect"]["scores"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        let got: Vec<u64> = st.scores()[..n].iter().map(|&s| s as u64).collect();
        assert_eq!(got, scores, "line {line}: scores");
        assert_eq!(st.end().unwrap().name(), rec["expect"]["end"].as_str().unwrap(), "line {line}: end");
        assert_eq!(st.round_winner().map(|w| w as u64), rec["expect"]["winner"].as_u64(), "line {line}: winner");
        // Rewards are the scores minus their mean.
        let mean = got.iter().sum::<u64>() as f32 / n as f32;
        let r = st.rewards();
        for s in 0..n {
            assert!((r[s] - (got[s] as f32 - mean)).abs() < 1e-4, "line {line}: reward");
        }
    }
}
