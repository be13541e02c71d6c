//! Texas 42 records: hand and whole-game records, replayed into `result`.

use super::actions::{NAMES_42, PASS};
use super::game::{Texas42, Texas42State};
use super::hand::{Hand, Outcome, Phase};
use crate::deal::{deal_texas42, rng_for_seed};
use crate::domino::DominoSet;
use crate::game::{Action, Episode};
use crate::record::deals::{replay_deals, DealRecords};
use crate::record::json::{check_keys, domino_names, get_actions, get_u64, parse_hands, RecordError};
use crate::rules::{Scoring, Texas42Rules};
use serde_json::{json, Map, Value};

const KEYS: [&str; 9] = ["game", "rules", "dealer", "hands", "seed", "episode", "actions", "expect", "result"];

/// Replays a Texas 42 record; fills in `hands` for a seeded hand record.
/// Returns the game, the state after the actions and the `result` object.
pub(crate) fn replay(record: &mut Map<String, Value>) -> Result<(Texas42, Texas42State, Value), RecordError> {
    check_keys(record, "texas42", &KEYS)?;
    let rules = match record.get("rules") {
        None => Texas42Rules::STANDARD,
        Some(v) => Texas42Rules::from_json(v).map_err(|e| RecordError::record(e.to_string()))?,
    };
    let dealer = get_u64(record, "dealer", 3)?.unwrap_or(0) as u8;
    let seed = get_u64(record, "seed", u64::MAX)?;
    let episode = match record.get("episode") {
        None => Episode::Hand,
        Some(v) => match v.as_str() {
            Some("hand") => Episode::Hand,
            Some("game") => Episode::Game,
            _ => return Err(RecordError::record(format!("bad `episode` {v}: expected \"hand\" or \"game\""))),
        },
    };
    let hands = match record.get("hands") {
        None => None,
        Some(v) => {
            let mut taken = DominoSet::EMPTY;
            let h = parse_hands(v, &[7; 4], &mut taken)?;
            Some([h[0], h[1], h[2], h[3]])
        }
    };
    let game = Texas42 { rules, dealer, ..Texas42::default() };
    let mut state = match (seed, hands) {
        (Some(seed), hands) => {
            let dealt = deal_texas42(&mut rng_for_seed(seed));
            if let Some(h) = hands {
                if h != dealt {
                    return Err(RecordError::record(format!(
                        "`hands` are not the deal of seed {seed}: give only one of `seed` and `hands`"
                    )));
                }
            }
            if episode == Episode::Hand {
                record.insert("hands".into(), Value::Array(dealt.iter().map(|h| domino_names(*h)).collect()));
            }
            game.from_seed(dealer, seed, episode)
        }
        (None, Some(h)) if episode == Episode::Hand => game.from_hands(dealer, h),
        (None, Some(_)) => {
            return Err(RecordError::record("a whole-game record (\"episode\":\"game\") needs `seed`, not `hands`"))
        }
        (None, None) => return Err(RecordError::record("a record needs `hands` (four lists of 7 dominoes) or `seed`")),
    };
    let actions = get_actions(record)?;
    let result = replay_deals(&game, &mut state, &actions)?;
    Ok((game, state, result))
}

impl DealRecords for Texas42 {
    fn deal_result(&self, hand: &Hand, steps: Vec<Value>) -> Map<String, Value> {
        hand_result(hand, steps)
    }
    fn with_deal(&self, h: &Hand, mut result: Map<String, Value>) -> Map<String, Value> {
        result.insert("dealer".into(), json!(h.dealer));
        result.insert("hands".into(), Value::Array(h.dealt.iter().map(|s| domino_names(*s)).collect()));
        result
    }
    fn totals_json(&self, state: &Texas42State) -> (&'static str, Value) {
        let key = if self.rules.scoring == Scoring::Points { "score" } else { "marks" };
        (key, json!(state.totals()))
    }
}

/// The `result` object of one hand (without `next`).
pub fn hand_result(h: &Hand, steps: Vec<Value>) -> Map<String, Value> {
    let mut r = Map::new();
    r.insert("steps".into(), Value::Array(steps));
    if h.outcome == Some(Outcome::Redeal) {
        r.insert("redeal".into(), json!(true));
        r.insert("done".into(), json!(true));
        return r;
    }
    let bidding_over = h.phase != Phase::Bidding;
    if bidding_over {
        r.insert("bidder".into(), json!(h.bidder));
        r.insert("bid".into(), json!(NAMES_42[h.high_bid as Action]));
    } else if h.high_bid as Action != PASS {
        r.insert("high_bid".into(), json!(NAMES_42[h.high_bid as Action]));
        r.insert("high_bidder".into(), json!(h.bidder));
    }
    if matches!(h.phase, Phase::Playing | Phase::Done) {
        r.insert("trump".into(), json!(NAMES_42[h.declaration as Action]));
        let mut tricks = Vec::new();
        for t in 0..=(h.trick as usize).min(6) {
            let trick = &h.tricks[t];
            if trick.len == 0 {
                break;
            }
            let plays: Vec<&str> = trick.played().iter().map(|d| NAMES_42[d.index()]).collect();
            let complete = t < h.trick as usize;
            tricks.push(json!({
                "leader": trick.leader,
                "plays": plays,
                "winner": complete.then_some(trick.winner),
                "points": complete.then_some(trick.points),
            }));
        }
        r.insert("tricks".into(), Value::Array(tricks));
        r.insert("points".into(), json!(h.points));
    }
    if let Some(Outcome::Settled { made }) = h.outcome {
        r.insert("made".into(), json!(made));
        let key = if h.rules.scoring == Scoring::Points { "score" } else { "marks" };
        r.insert(key.into(), json!(h.award()));
    }
    r.insert("done".into(), json!(h.is_done()));
    debug_assert!(h.phase != Phase::Done || h.outcome.is_some());
    r
}
