//! Doubles records: the typed record ([`DoublesRecord`]) that `bones replay`
//! reads (with the messages docs/interfaces/encodings.md lists), that writers build
//! ([`DoublesRecord::seeded`], [`DoublesRecord::dealt`]), and its replay of
//! rounds (or whole games) into `result`.

use super::game::{Doubles, DoublesState};
use super::play::{hand_size, Round};
use crate::domino::{Domino, DominoSet};
use crate::game::{Episode, Game};
use crate::record::deals::DealRecords;
use crate::record::fields::keys_of;
use crate::record::json::{check_keys, domino_names, parse_domino_list, parse_hand_lists, RecordError};
use crate::record::typed::{deal_keys, get_rules, typed_record, DealKeys, Dealt, TypedRecord};
use crate::rules::DoublesRules;
use serde_json::{json, Map, Value};

typed_record! {
    /// A Doubles record (docs/interfaces/encodings.md): the table (`players`, `rules`), the
    /// deal (a `seed`, or the `hands` and the `boneyard` in draw order), the
    /// `episode`, the `actions` by name (`"6-6"`, `"6-3@6"`, `"draw"`,
    /// `"pass"`), and the annotations `annotations`, `expect` and `result`. Keys
    /// serialize in this order, absent ones left out; deserializing refuses
    /// unknown keys and checks the types; [`TypedRecord::from_json`] checks
    /// everything `bones replay` checks, with its messages.
    pub struct DoublesRecord("doubles") {
        /// Players, 2..=4 (over the rules' `players`; absent: the rules').
        pub players: Option<u8> = "crate::record::fields::plain",
        /// The rules object as written (docs/rules.md); absent: the defaults.
        pub rules: Option<Value> = "crate::record::fields::plain",
        /// Accepted (0..=3) and unused: the highest double opens.
        pub dealer: Option<u8> = "crate::record::fields::plain",
        /// One hand per player as dealt, by name (with `boneyard`, or instead of `seed`).
        pub hands: Option<Vec<Vec<Domino>>> = "crate::record::fields::hand_lists",
        /// The rest of the dominoes in draw order, by name (with `hands`).
        pub boneyard: Option<Vec<Domino>> = "crate::record::fields::domino_list",
        /// The seed whose shuffle deals the round (and, in a whole game, the later ones).
        pub seed: Option<u64> = "crate::record::fields::plain",
        /// One round (`"hand"` or `"round"`, the default; written `"hand"`) or a
        /// whole game to the target (`"game"`, needs `seed`).
        pub episode: Option<Episode> = "crate::record::fields::round_episode",
    }
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
}

impl TypedRecord for DoublesRecord {
    type Game = Doubles;
    const GAME: &'static str = "doubles";

    /// Checks unknown keys, `rules`, `players`, `dealer`, `seed`, `episode`,
    /// `hands`, `boneyard` and the deal, in this order; a seeded one-round
    /// record echoes its dealt `hands` and `boneyard`.
    fn read_deal(record: &Map<String, Value>) -> Result<Dealt<Doubles>, RecordError> {
        check_keys(record, Self::GAME, keys_of::<DoublesRecord>())?;
        let mut rules = get_rules(record, DoublesRules::from_json)?;
        if let Some(p) = record.get("players") {
            match p.as_u64() {
                Some(n @ 2..=4) => rules.players = n as u8,
                _ => return Err(RecordError::record(format!("bad `players` {p}: expected 2, 3 or 4"))),
            }
        }
        // `dealer` is accepted and unused: the highest double opens.
        let DealKeys { seed, episode: whole, .. } = deal_keys(record, &["round"])?;
        let game = Doubles::new(rules);
        let n = rules.players as usize;
        let k = hand_size(rules.players);
        let mut taken = DominoSet::EMPTY;
        let hands = record.get("hands").map(|v| parse_hand_lists(v, &vec![k; n], &mut taken)).transpose()?;
        let boneyard: Option<Vec<Domino>> = record
            .get("boneyard")
            .map(|v| parse_domino_list(v, "`boneyard`", Some(28 - k * n), &mut taken))
            .transpose()?;
        let sets: Option<Vec<DominoSet>> =
            hands.as_ref().map(|h| h.iter().map(|x| x.iter().copied().collect()).collect());
        let mut echo = Map::new();
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
                    echo = deal_json(r);
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
        Ok(Dealt { game, state, echo })
    }
}

/// A round's dealt `hands` and `boneyard` (in draw order), by name.
fn deal_json(r: &Round) -> Map<String, Value> {
    let players = r.players as usize;
    let mut m = Map::new();
    m.insert("hands".into(), Value::Array(r.dealt[..players].iter().map(|h| domino_names(*h)).collect()));
    m.insert("boneyard".into(), names(r.boneyard_dealt()));
    m
}

impl DealRecords for Doubles {
    fn deal_result(&self, round: &Round, steps: Vec<Value>) -> Map<String, Value> {
        round_result(round, steps)
    }
    fn with_deal(&self, r: &Round, mut result: Map<String, Value>) -> Map<String, Value> {
        result.extend(deal_json(r));
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
