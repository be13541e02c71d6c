//! Texas 42 records: the typed record ([`Texas42Record`]) that `bones replay`
//! reads (with the messages docs/interfaces/encodings.md lists), that writers build
//! ([`Texas42Record::seeded`], [`Texas42Record::dealt`]), and its replay into
//! `result`.

use super::actions::{NAMES_42, PASS};
use super::game::{Texas42, Texas42State};
use super::hand::{Hand, Outcome, Phase};
use crate::deal::{deal_texas42, rng_for_seed};
use crate::domino::{Domino, DominoSet};
use crate::game::{Action, Episode};
use crate::record::deals::DealRecords;
use crate::record::fields::keys_of;
use crate::record::json::{check_keys, domino_names, parse_hand_lists, RecordError};
use crate::record::typed::{deal_keys, get_rules, typed_record, DealKeys, Dealt, TypedRecord};
use crate::rules::{Scoring, Texas42Rules};
use serde_json::{json, Map, Value};

typed_record! {
    /// A Texas 42 record (docs/interfaces/encodings.md): the deal (a `seed`, or the `hands`
    /// and the `dealer`), the `rules`, the `episode`, the `actions` by name
    /// (`"30"`, `"pass"`, `"sixes"`, `"6-4"`), and the annotations
    /// `annotations`, `expect` and `result`. Keys serialize in this order, absent
    /// ones left out; deserializing refuses unknown keys and checks the types;
    /// [`TypedRecord::from_json`] checks everything `bones replay` checks, with
    /// its messages.
    pub struct Texas42Record("texas42") {
        /// The rules object as written (a `preset` and rule keys, docs/rules.md);
        /// absent: the standard rules.
        pub rules: Option<Value> = "crate::record::fields::plain",
        /// The first shaker, 0..=3 (absent: 0).
        pub dealer: Option<u8> = "crate::record::fields::plain",
        /// The four hands as dealt, 7 dominoes each by name (a one-hand record
        /// gives these or `seed`, or both when they agree).
        pub hands: Option<Vec<Vec<Domino>>> = "crate::record::fields::hand_lists",
        /// The seed whose shuffle deals the hands (and, in a whole game, the later ones).
        pub seed: Option<u64> = "crate::record::fields::plain",
        /// One hand (`"hand"`, the default) or a whole game to the target (`"game"`, needs `seed`).
        pub episode: Option<Episode> = "crate::record::fields::episode",
    }
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
}

impl TypedRecord for Texas42Record {
    type Game = Texas42;
    const GAME: &'static str = "texas42";

    /// Checks unknown keys, `rules`, `dealer`, `seed`, `episode`, `hands` and
    /// the deal, in this order; a seeded one-hand record echoes its dealt
    /// `hands`.
    fn read_deal(record: &Map<String, Value>) -> Result<Dealt<Texas42>, RecordError> {
        check_keys(record, Self::GAME, keys_of::<Texas42Record>())?;
        let rules = get_rules(record, Texas42Rules::from_json)?;
        let DealKeys { dealer, seed, episode: whole } = deal_keys(record, &[])?;
        let mut taken = DominoSet::EMPTY;
        let hands = record.get("hands").map(|v| parse_hand_lists(v, &[7; 4], &mut taken)).transpose()?;
        let sets =
            hands.as_ref().map(|h| -> [DominoSet; 4] { std::array::from_fn(|s| h[s].iter().copied().collect()) });
        let game = Texas42 { rules, dealer, ..Texas42::default() };
        let mut echo = Map::new();
        let state = match (seed, sets) {
            (Some(seed), sets) => {
                let dealt = deal_texas42(&mut rng_for_seed(seed));
                if sets.is_some_and(|h| h != dealt) {
                    return Err(RecordError::record(format!(
                        "`hands` are not the deal of seed {seed}: give only one of `seed` and `hands`"
                    )));
                }
                if whole == Episode::Hand {
                    echo.insert("hands".into(), hands_json(&dealt));
                }
                game.from_seed(dealer, seed, whole)
            }
            (None, Some(h)) if whole == Episode::Hand => game.from_hands(dealer, h),
            (None, Some(_)) => {
                return Err(RecordError::record("a whole-game record (\"episode\":\"game\") needs `seed`, not `hands`"))
            }
            (None, None) => {
                return Err(RecordError::record("a record needs `hands` (four lists of 7 dominoes) or `seed`"))
            }
        };
        Ok(Dealt { game, state, echo })
    }
}

/// The four dealt hands, by name.
fn hands_json(dealt: &[DominoSet; 4]) -> Value {
    Value::Array(dealt.iter().map(|h| domino_names(*h)).collect())
}

impl DealRecords for Texas42 {
    fn deal_result(&self, hand: &Hand, steps: Vec<Value>) -> Map<String, Value> {
        hand_result(hand, steps)
    }
    fn with_deal(&self, h: &Hand, mut result: Map<String, Value>) -> Map<String, Value> {
        result.insert("dealer".into(), json!(h.dealer));
        result.insert("hands".into(), hands_json(&h.dealt));
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
