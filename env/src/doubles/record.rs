//! Doubles records: the typed record ([`DoublesRecord`]) that `bones replay`
//! reads (with the messages docs/interfaces.md lists), that writers build
//! ([`DoublesRecord::seeded`], [`DoublesRecord::dealt`]), and its replay of
//! rounds (or whole games) into `result`.

use super::game::{Doubles, DoublesState};
use super::play::{hand_size, Round};
use crate::domino::{Domino, DominoSet};
use crate::game::{Episode, Game};
use crate::record::deals::{replay_deals, DealRecords};
use crate::record::fields::{self, keys_of};
use crate::record::json::{
    check_keys, domino_names, get_actions, get_annotations, get_u64, parse_domino_list, parse_hand_lists, RecordError,
};
use crate::rules::DoublesRules;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Map, Value};

/// A Doubles record (docs/interfaces.md): the table (`players`, `rules`), the
/// deal (a `seed`, or the `hands` and the `boneyard` in draw order), the
/// `episode`, the `actions` by name, and the annotations `annotations`, `expect` and
/// `result`. Keys serialize in this order, absent ones left out; deserializing
/// refuses unknown keys and checks the types; [`DoublesRecord::from_json`]
/// checks everything `bones replay` checks, with its messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoublesRecord {
    /// `"doubles"`.
    #[serde(deserialize_with = "doubles_name")]
    pub game: String,
    /// Players, 2..=4 (over the rules' `players`; absent: the rules').
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub players: Option<u8>,
    /// The rules object as written (docs/rules.md); absent: the defaults.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub rules: Option<Value>,
    /// Accepted (0..=3) and unused: the highest double opens.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub dealer: Option<u8>,
    /// One hand per player as dealt, by name (with `boneyard`, or instead of `seed`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "fields::hand_lists")]
    pub hands: Option<Vec<Vec<Domino>>>,
    /// The rest of the dominoes in draw order, by name (with `hands`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "fields::domino_list")]
    pub boneyard: Option<Vec<Domino>>,
    /// The seed whose shuffle deals the round (and, in a whole game, the later ones).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "fields::present")]
    pub seed: Option<u64>,
    /// One round (`"hand"` or `"round"`, the default; written `"hand"`) or a
    /// whole game to the target (`"game"`, needs `seed`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "fields::round_episode")]
    pub episode: Option<Episode>,
    /// The actions in order, by name (`"6-6"`, `"6-3@6"`, `"draw"`, `"pass"`).
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

fn doubles_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    fields::game_name(d, "doubles")
}

impl DoublesRecord {
    /// A record of `game` dealt from `seed`, as the web page writes them: the
    /// rules in full (`players` among them).
    pub fn seeded(game: &Doubles, seed: u64, episode: Episode, actions: Vec<String>) -> DoublesRecord {
        DoublesRecord {
            rules: Some(game.rules.to_json()),
            seed: Some(seed),
            episode: Some(episode),
            ..DoublesRecord::empty(actions)
        }
    }

    /// A record of one round of `game` dealt as `hands` (one per player) with
    /// `boneyard` in draw order.
    pub fn dealt(game: &Doubles, hands: &[DominoSet], boneyard: &[Domino], actions: Vec<String>) -> DoublesRecord {
        DoublesRecord {
            rules: Some(game.rules.to_json()),
            hands: Some(hands.iter().map(|h| h.iter().collect()).collect()),
            boneyard: Some(boneyard.to_vec()),
            ..DoublesRecord::empty(actions)
        }
    }

    fn empty(actions: Vec<String>) -> DoublesRecord {
        DoublesRecord {
            game: "doubles".into(),
            players: None,
            rules: None,
            dealer: None,
            hands: None,
            boneyard: None,
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
    /// `doubles`): the first problem, checked in a fixed order (unknown keys,
    /// `rules`, `players`, `dealer`, `seed`, `episode`, `hands`, `boneyard`, the
    /// deal, `actions`), is the error, naming the key and what was expected.
    pub fn from_json(record: &Map<String, Value>) -> Result<DoublesRecord, RecordError> {
        let (mut rec, ..) = read_deal(record)?;
        rec.actions = get_actions(record)?;
        Ok(rec)
    }

    /// Replays the record: the game under its rules, the state after its
    /// actions and the replay's `result` object (as `bones replay` gives them).
    pub fn replay(&self) -> Result<(Doubles, DoublesState, Value), RecordError> {
        let Value::Object(mut map) = self.to_json() else { unreachable!("a record is an object") };
        replay(&mut map)
    }
}

/// The dealt round of a seeded one-round record, which replay writes back.
type Echo = (Vec<DominoSet>, Vec<Domino>);

/// Reads everything but `actions`, in replay's order: the typed record, the
/// game and the state before the actions, and the dealt hands and boneyard of
/// a seeded one-round record.
fn read_deal(record: &Map<String, Value>) -> Result<(DoublesRecord, Doubles, DoublesState, Option<Echo>), RecordError> {
    check_keys(record, "doubles", keys_of::<DoublesRecord>())?;
    let mut rules = match record.get("rules") {
        None => DoublesRules::default(),
        Some(v) => DoublesRules::from_json(v).map_err(|e| RecordError::record(e.to_string()))?,
    };
    let mut players = None;
    if let Some(p) = record.get("players") {
        match p.as_u64() {
            Some(n @ 2..=4) => {
                rules.players = n as u8;
                players = Some(n as u8);
            }
            _ => return Err(RecordError::record(format!("bad `players` {p}: expected 2, 3 or 4"))),
        }
    }
    let dealer = get_u64(record, "dealer", 3)?.map(|d| d as u8); // accepted, unused: the highest double opens
    let seed = get_u64(record, "seed", u64::MAX)?;
    let episode = match record.get("episode") {
        None => None,
        Some(v) => match v.as_str() {
            Some("hand") | Some("round") => Some(Episode::Hand),
            Some("game") => Some(Episode::Game),
            _ => return Err(RecordError::record(format!("bad `episode` {v}: expected \"hand\" or \"game\""))),
        },
    };
    let whole = episode.unwrap_or_default();
    let game = Doubles::new(rules);
    let n = rules.players as usize;
    let k = hand_size(rules.players);
    let mut taken = DominoSet::EMPTY;
    let hands = record.get("hands").map(|v| parse_hand_lists(v, &vec![k; n], &mut taken)).transpose()?;
    let boneyard: Option<Vec<Domino>> =
        record.get("boneyard").map(|v| parse_domino_list(v, "`boneyard`", Some(28 - k * n), &mut taken)).transpose()?;
    let sets: Option<Vec<DominoSet>> = hands.as_ref().map(|h| h.iter().map(|x| x.iter().copied().collect()).collect());
    let mut echo = None;
    let state = match (seed, &sets, &boneyard) {
        (Some(seed), sets, boneyard) => {
            let state = game.new_state(seed, whole);
            let r = state.round();
            if sets.as_ref().is_some_and(|h| h[..] != r.dealt[..n])
                || boneyard.as_ref().is_some_and(|b| b[..] != *r.boneyard_dealt())
            {
                return Err(RecordError::record(format!(
                    "`hands`/`boneyard` are not the deal of seed {seed}: give only `seed`, or the deal without it"
                )));
            }
            if whole == Episode::Hand {
                echo = Some((r.dealt[..n].to_vec(), r.boneyard_dealt().to_vec()));
            }
            state
        }
        (None, Some(h), Some(b)) if whole == Episode::Hand => {
            game.from_deal(h, b).map_err(|e| RecordError::record(format!("bad deal: {e}")))?
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
                "a record needs `hands` ({n} lists of {k} dominoes) and `boneyard`, or `seed`"
            )))
        }
    };
    let rec = DoublesRecord {
        players,
        rules: record.get("rules").cloned(),
        dealer,
        hands,
        boneyard,
        seed,
        episode,
        annotations: get_annotations(record)?,
        expect: record.get("expect").cloned(),
        result: record.get("result").cloned(),
        ..DoublesRecord::empty(Vec::new())
    };
    Ok((rec, game, state, echo))
}

/// Replays a Doubles record; fills in `hands` and `boneyard` for a seeded round record.
/// Returns the game, the state after the actions and the `result` object.
pub(crate) fn replay(record: &mut Map<String, Value>) -> Result<(Doubles, DoublesState, Value), RecordError> {
    let (_, game, mut state, echo) = read_deal(record)?;
    if let Some((hands, boneyard)) = echo {
        record.insert("hands".into(), Value::Array(hands.iter().map(|h| domino_names(*h)).collect()));
        record.insert("boneyard".into(), names(&boneyard));
    }
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
