//! Doubles records: rounds (or whole games) replayed into `result`.

use super::game::{Doubles, DoublesState};
use super::play::{hand_size, Round};
use crate::domino::{Domino, DominoSet};
use crate::game::{Episode, Game};
use crate::record::deals::{replay_deals, DealRecords};
use crate::record::json::{
    check_keys, domino_names, get_actions, get_u64, parse_domino_list, parse_hands, RecordError,
};
use crate::rules::DoublesRules;
use serde_json::{json, Map, Value};

const KEYS: [&str; 11] =
    ["game", "players", "rules", "dealer", "hands", "boneyard", "seed", "episode", "actions", "expect", "result"];

/// Replays a Doubles record; fills in `hands` and `boneyard` for a seeded round record.
/// Returns the game, the state after the actions and the `result` object.
pub(crate) fn replay(record: &mut Map<String, Value>) -> Result<(Doubles, DoublesState, Value), RecordError> {
    check_keys(record, "doubles", &KEYS)?;
    let mut rules = match record.get("rules") {
        None => DoublesRules::default(),
        Some(v) => DoublesRules::from_json(v).map_err(|e| RecordError::record(e.to_string()))?,
    };
    if let Some(p) = record.get("players") {
        match p.as_u64() {
            Some(n @ 2..=4) => rules.players = n as u8,
            _ => return Err(RecordError::record(format!("bad `players` {p}: expected 2, 3 or 4"))),
        }
    }
    get_u64(record, "dealer", 3)?; // accepted, unused: the highest double opens
    let seed = get_u64(record, "seed", u64::MAX)?;
    let episode = match record.get("episode") {
        None => Episode::Hand,
        Some(v) => match v.as_str() {
            Some("hand") | Some("round") => Episode::Hand,
            Some("game") => Episode::Game,
            _ => return Err(RecordError::record(format!("bad `episode` {v}: expected \"hand\" or \"game\""))),
        },
    };
    let game = Doubles::new(rules);
    let players = rules.players as usize;
    let k = hand_size(rules.players);
    let mut taken = DominoSet::EMPTY;
    let hands = record.get("hands").map(|v| parse_hands(v, &vec![k; players], &mut taken)).transpose()?;
    let boneyard: Option<Vec<Domino>> = record
        .get("boneyard")
        .map(|v| parse_domino_list(v, "`boneyard`", Some(28 - k * players), &mut taken))
        .transpose()?;
    let mut state = match (seed, hands, boneyard) {
        (Some(seed), hands, boneyard) => {
            let state = game.new_state(seed, episode);
            let r = state.round();
            if hands.as_ref().is_some_and(|h| h[..] != r.dealt[..players])
                || boneyard.as_ref().is_some_and(|b| b[..] != *r.boneyard_dealt())
            {
                return Err(RecordError::record(format!(
                    "`hands`/`boneyard` are not the deal of seed {seed}: give only `seed`, or the deal without it"
                )));
            }
            if episode == Episode::Hand {
                record.insert(
                    "hands".into(),
                    Value::Array(r.dealt[..players].iter().map(|h| domino_names(*h)).collect()),
                );
                record.insert("boneyard".into(), names(r.boneyard_dealt()));
            }
            state
        }
        (None, Some(h), Some(b)) if episode == Episode::Hand => {
            game.from_deal(&h, &b).map_err(|e| RecordError::record(format!("bad deal: {e}")))?
        }
        (None, Some(_), None) => {
            return Err(RecordError::record("a record with `hands` needs `boneyard` (draw order)"))
        }
        (None, None, Some(_)) => return Err(RecordError::record("a record with `boneyard` needs `hands`")),
        (None, Some(_), Some(_)) => {
            return Err(RecordError::record("a whole-game record (\"episode\":\"game\") needs `seed`, not `hands`"))
        }
        (None, None, None) => {
            return Err(RecordError::record(format!(
                "a record needs `hands` ({players} lists of {k} dominoes) and `boneyard`, or `seed`"
            )))
        }
    };
    let actions = get_actions(record)?;
    let result = replay_deals(&game, &mut state, &actions)?;
    Ok((game, state, result))
}

impl DealRecords for Doubles {
    fn deal_result(&self, round: &Round, steps: Vec<Value>) -> Map<String, Value> {
        round_result(round, steps)
    }
    fn with_deal(&self, r: &Round, mut result: Map<String, Value>) -> Map<String, Value> {
        let players = r.players as usize;
        result.insert("hands".into(), Value::Array(r.dealt[..players].iter().map(|h| domino_names(*h)).collect()));
        result.insert("boneyard".into(), names(r.boneyard_dealt()));
        result
    }
    fn totals_json(&self, state: &DoublesState) -> (&'static str, Value) {
        ("scores", json!(state.totals()[..self.rules.players as usize]))
    }
}

fn names(list: &[Domino]) -> Value {
    Value::Array(list.iter().map(|d| Value::String(d.to_string())).collect())
}

/// The `result` object of one round (without `next`).
fn round_result(r: &Round, steps: Vec<Value>) -> Map<String, Value> {
    let players = r.players as usize;
    let mut m = Map::new();
    m.insert("steps".into(), Value::Array(steps));
    if let Some(end) = r.end {
        m.insert("scores".into(), json!(r.scores[..players]));
        m.insert("end".into(), json!(end.name()));
        m.insert("winner".into(), json!(r.winner));
    }
    m.insert("done".into(), json!(r.is_done()));
    m
}
