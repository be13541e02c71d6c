//! Texas 42 records: the typed record ([`Texas42Record`]) that `bones replay`
//! reads (with the messages docs/interfaces.md lists), that writers build
//! ([`Texas42Record::seeded`], [`Texas42Record::dealt`]), and its replay into
//! `result`.

use super::actions::{NAMES_42, PASS};
use super::game::{Texas42, Texas42State};
use super::hand::{Hand, Outcome, Phase};
use crate::deal::{deal_texas42, rng_for_seed};
use crate::domino::{Domino, DominoSet};
use crate::game::{Action, Episode};
use crate::record::deals::{replay_deals, DealRecords};
use crate::record::fields::{self, keys_of};
use crate::record::json::{
    check_keys, domino_names, get_actions, get_annotations, get_u64, parse_hand_lists, RecordError,
};
use crate::rules::{Scoring, Texas42Rules};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Map, Value};

/// A Texas 42 record (docs/interfaces.md): the deal (a `seed`, or the `hands`
/// and the `dealer`), the `rules`, the `episode`, the `actions` by name, and
/// the annotations `annotations`, `expect` and `result`. Keys serialize in this order, absent
/// ones left out; deserializing refuses unknown keys and checks the types;
/// [`Texas42Record::from_json`] checks everything `bones replay` checks, with
/// its messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texas42Record {
    /// `"texas42"`.
    #[serde(deserialize_with = "texas42_name")]
    pub game: String,
    /// The rules object as written (a `preset` and rule keys, docs/rules.md);
    /// absent: the standard rules.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub rules: Option<Value>,
    /// The first shaker, 0..=3 (absent: 0).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub dealer: Option<u8>,
    /// The four hands as dealt, 7 dominoes each by name (a one-hand record
    /// gives these or `seed`, or both when they agree).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "fields::hand_lists")]
    pub hands: Option<Vec<Vec<Domino>>>,
    /// The seed whose shuffle deals the hands (and, in a whole game, the later ones).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub seed: Option<u64>,
    /// One hand (`"hand"`, the default) or a whole game to the target (`"game"`, needs `seed`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "fields::episode")]
    pub episode: Option<Episode>,
    /// The actions in order, by name (`"30"`, `"pass"`, `"sixes"`, `"6-4"`).
    #[serde(default)]
    pub actions: Vec<String>,
    /// A front end's notes on the game (`bones web`: the person's seat, the
    /// levels, the hints used, the reviews of the hands; docs/interfaces.md):
    /// an object that replay checks is one and otherwise keeps as written.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub annotations: Option<Value>,
    /// What a conformance test expects of the replay (replay ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub expect: Option<Value>,
    /// The replay's output of an annotated record (replay replaces it).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub result: Option<Value>,
}

fn texas42_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    fields::game_name(d, "texas42")
}

impl Texas42Record {
    /// A record of `game` dealt from `seed`, as `bones play --save` and the
    /// web page write them: its rules in full, its first shaker when not seat 0.
    pub fn seeded(game: &Texas42, seed: u64, episode: Episode, actions: Vec<String>) -> Texas42Record {
        Texas42Record {
            rules: Some(game.rules.to_json()),
            dealer: (game.dealer != 0).then_some(game.dealer),
            seed: Some(seed),
            episode: Some(episode),
            ..Texas42Record::empty(actions)
        }
    }

    /// A record of one hand of `game` dealt as `hands` by `dealer`.
    pub fn dealt(game: &Texas42, dealer: u8, hands: [DominoSet; 4], actions: Vec<String>) -> Texas42Record {
        Texas42Record {
            rules: Some(game.rules.to_json()),
            dealer: Some(dealer),
            hands: Some(hands.iter().map(|h| h.iter().collect()).collect()),
            ..Texas42Record::empty(actions)
        }
    }

    fn empty(actions: Vec<String>) -> Texas42Record {
        Texas42Record {
            game: "texas42".into(),
            rules: None,
            dealer: None,
            hands: None,
            seed: None,
            episode: None,
            actions,
            annotations: None,
            expect: None,
            result: None,
        }
    }

    /// The record as a JSON object (keys in the order of the fields).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a record always serializes")
    }

    /// Reads a record object as `bones replay` does (its `game` is taken to be
    /// `texas42`): the first problem, checked in a fixed order (unknown keys,
    /// `rules`, `dealer`, `seed`, `episode`, `hands`, the deal, `actions`), is
    /// the error, naming the key and what was expected.
    pub fn from_json(record: &Map<String, Value>) -> Result<Texas42Record, RecordError> {
        let mut rec = read_deal(record)?.record;
        rec.actions = get_actions(record)?;
        Ok(rec)
    }

    /// Replays the record: the game under its rules, the state after its
    /// actions and the replay's `result` object (as `bones replay` gives them).
    pub fn replay(&self) -> Result<(Texas42, Texas42State, Value), RecordError> {
        let Value::Object(mut map) = self.to_json() else { unreachable!("a record is an object") };
        replay(&mut map)
    }
}

/// Reads everything but `actions`, in replay's order: the typed record, the
/// game and the state before the actions, and the dealt hands of a seeded
/// one-hand record (which replay writes back into the record).
fn read_deal(record: &Map<String, Value>) -> Result<Read, RecordError> {
    check_keys(record, "texas42", keys_of::<Texas42Record>())?;
    let rules = match record.get("rules") {
        None => Texas42Rules::STANDARD,
        Some(v) => Texas42Rules::from_json(v).map_err(|e| RecordError::record(e.to_string()))?,
    };
    let dealer = get_u64(record, "dealer", 3)?.map(|d| d as u8);
    let seed = get_u64(record, "seed", u64::MAX)?;
    let episode = match record.get("episode") {
        None => None,
        Some(v) => match v.as_str() {
            Some("hand") => Some(Episode::Hand),
            Some("game") => Some(Episode::Game),
            _ => return Err(RecordError::record(format!("bad `episode` {v}: expected \"hand\" or \"game\""))),
        },
    };
    let mut taken = DominoSet::EMPTY;
    let hands = record.get("hands").map(|v| parse_hand_lists(v, &[7; 4], &mut taken)).transpose()?;
    let sets = hands.as_ref().map(|h| -> [DominoSet; 4] { std::array::from_fn(|s| h[s].iter().copied().collect()) });
    let game = Texas42 { rules, dealer: dealer.unwrap_or(0), ..Texas42::default() };
    let whole = episode.unwrap_or_default();
    let mut echo = None;
    let state = match (seed, sets) {
        (Some(seed), sets) => {
            let dealt = deal_texas42(&mut rng_for_seed(seed));
            if sets.is_some_and(|h| h != dealt) {
                return Err(RecordError::record(format!(
                    "`hands` are not the deal of seed {seed}: give only one of `seed` and `hands`"
                )));
            }
            if whole == Episode::Hand {
                echo = Some(dealt);
            }
            game.from_seed(game.dealer, seed, whole)
        }
        (None, Some(h)) if whole == Episode::Hand => game.from_hands(game.dealer, h),
        (None, Some(_)) => {
            return Err(RecordError::record("a whole-game record (\"episode\":\"game\") needs `seed`, not `hands`"))
        }
        (None, None) => return Err(RecordError::record("a record needs `hands` (four lists of 7 dominoes) or `seed`")),
    };
    let rec = Texas42Record {
        rules: record.get("rules").cloned(),
        dealer,
        hands,
        seed,
        episode,
        annotations: get_annotations(record)?,
        expect: record.get("expect").cloned(),
        result: record.get("result").cloned(),
        ..Texas42Record::empty(Vec::new())
    };
    Ok(Read { record: rec, game, state, echo })
}

/// What [`read_deal`] read.
struct Read {
    record: Texas42Record,
    game: Texas42,
    state: Texas42State,
    /// The dealt hands of a seeded one-hand record.
    echo: Option<[DominoSet; 4]>,
}

/// Replays a Texas 42 record; fills in `hands` for a seeded hand record.
/// Returns the game, the state after the actions and the `result` object.
pub(crate) fn replay(record: &mut Map<String, Value>) -> Result<(Texas42, Texas42State, Value), RecordError> {
    let Read { game, mut state, echo, .. } = read_deal(record)?;
    if let Some(dealt) = echo {
        record.insert("hands".into(), Value::Array(dealt.iter().map(|h| domino_names(*h)).collect()));
    }
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
