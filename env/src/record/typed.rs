//! What every game's typed record shares: the record type's keys that are
//! the same in every game ([`typed_record!`]), the keys read before the deal
//! ([`get_rules`], [`deal_keys`]), and reading, writing and replaying a record
//! ([`TypedRecord`]), for which a game says only how its deal is read
//! ([`TypedRecord::read_deal`]).

use super::deals::{replay_deals, DealRecords};
use super::json::{get_actions, get_annotations, get_u64, RecordError};
use crate::game::Episode;
use crate::rules::RulesError;
use crate::series::Series;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// What a replay gives: the game under the record's rules, the state after its
/// actions and the replay's `result` object.
pub type Replayed<G> = (G, Series<G>, Value);

/// Declares a game's typed record: the struct (keys serialize in field order,
/// unknown keys are refused) with its `game` key first (read by the
/// deserializer it writes, `record_game`), then the game's own keys as given (all
/// optional, each `= "MODULE"`: the serde `with` module of its written form,
/// [`fields::plain`](crate::record::fields::plain) for the value as it is;
/// absent keys are skipped and a present `null` is refused), then the keys every record ends with: `actions`, `annotations`,
/// `expect` and `result`. Its `empty(actions)` is the record of `$game` with
/// every optional key absent, which the constructors start from.
macro_rules! typed_record {
    (
        $(#[$doc:meta])*
        pub struct $name:ident($game:literal) {
            $($(#[$key_doc:meta])* pub $key:ident: Option<$ty:ty> = $with:literal,)*
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[doc = concat!("`\"", $game, "\"`.")]
            #[serde(deserialize_with = "record_game")]
            pub game: String,
            $(
                $(#[$key_doc])*
                #[serde(default, skip_serializing_if = "Option::is_none", with = $with)]
                pub $key: Option<$ty>,
            )*
            /// The actions in order, by name.
            #[serde(default)]
            pub actions: Vec<String>,
            /// A front end's notes on the game (`bones web`: the person's seat, the
            /// levels, the hints used, the reviews of the hands; docs/interfaces/encodings.md):
            /// an object that replay checks is one and otherwise keeps as written.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[serde(deserialize_with = "crate::record::fields::present")]
            pub annotations: Option<serde_json::Value>,
            /// What a conformance test expects of the replay (replay ignores it).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[serde(deserialize_with = "crate::record::fields::present")]
            pub expect: Option<serde_json::Value>,
            /// The replay's output of an annotated record (replay replaces it).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[serde(deserialize_with = "crate::record::fields::present")]
            pub result: Option<serde_json::Value>,
        }

        /// Reads a record's `game`, which must be this game's.
        fn record_game<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
            crate::record::fields::game_name(d, $game)
        }

        impl $name {
            /// The record of no deal with these actions.
            fn empty(actions: Vec<String>) -> $name {
                $name { game: $game.into(), $($key: None,)* actions, annotations: None, expect: None, result: None }
            }
        }
    };
}
pub(crate) use typed_record;

/// A record's deal as [`TypedRecord::read_deal`] reads it.
pub struct Dealt<G: DealRecords> {
    /// The game under the record's rules.
    pub game: G,
    /// The state before the record's actions.
    pub state: Series<G>,
    /// The keys replay writes back into the record: the dealt `hands` (and
    /// `boneyard`) of a seeded one-deal record; none otherwise.
    pub echo: Map<String, Value>,
}

/// A game's typed record (docs/interfaces/encodings.md): how it is read as `bones
/// replay` reads it, written as a JSON object and replayed.
pub trait TypedRecord: Serialize + DeserializeOwned {
    /// The game the record is of.
    type Game: DealRecords;
    /// The record's `game` name.
    const GAME: &'static str;

    /// Reads everything before `annotations` and `actions`, in replay's order
    /// (unknown keys first, then the game's keys, then the deal): the game, the
    /// state before the actions and what replay writes back. The first problem
    /// is the error, naming the key and what was expected.
    fn read_deal(record: &Map<String, Value>) -> Result<Dealt<Self::Game>, RecordError>;

    /// The record as a JSON object (keys in the order of the fields).
    fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a record always serializes")
    }

    /// Reads a record object as `bones replay` does (its `game` is taken to be
    /// [`TypedRecord::GAME`]): the first problem, checked in the order of
    /// [`TypedRecord::read_deal`] and then `annotations` and `actions`, is the
    /// error.
    fn from_json(record: &Map<String, Value>) -> Result<Self, RecordError> {
        Self::read_deal(record)?;
        get_annotations(record)?;
        get_actions(record)?;
        let mut checked = record.clone();
        checked.insert("game".into(), Self::GAME.into());
        serde_json::from_value(Value::Object(checked)).map_err(|e| RecordError::record(e.to_string()))
    }

    /// Replays the record: the game under its rules, the state after its
    /// actions and the replay's `result` object (as `bones replay` gives them).
    fn replay(&self) -> Result<Replayed<Self::Game>, RecordError> {
        let Value::Object(mut map) = self.to_json() else { unreachable!("a record is an object") };
        replay::<Self>(&mut map)
    }
}

/// Replays a record object of `R`'s game, filling in what its deal echoes
/// ([`Dealt::echo`]). Returns the game, the state after the actions and the
/// `result` object.
pub(crate) fn replay<R: TypedRecord>(record: &mut Map<String, Value>) -> Result<Replayed<R::Game>, RecordError> {
    let Dealt { game, mut state, echo } = R::read_deal(record)?;
    get_annotations(record)?;
    record.extend(echo);
    let actions = get_actions(record)?;
    let result = replay_deals(&game, &mut state, &actions)?;
    Ok((game, state, result))
}

/// Reads the optional `rules` object with `parse` (absent: the default rules).
pub(crate) fn get_rules<R: Default>(
    record: &Map<String, Value>,
    parse: fn(&Value) -> Result<R, RulesError>,
) -> Result<R, RecordError> {
    record.get("rules").map_or(Ok(R::default()), |v| parse(v).map_err(|e| RecordError::record(e.to_string())))
}

/// The keys every record reads after its rules, in this order.
pub(crate) struct DealKeys {
    /// `dealer`, 0..=3 (absent: 0).
    pub dealer: u8,
    /// `seed`.
    pub seed: Option<u64>,
    /// `episode` (absent: one deal).
    pub episode: Episode,
}

/// Reads `dealer`, `seed` and `episode` (`"hand"`, one of `hand_names`, or
/// `"game"`).
pub(crate) fn deal_keys(record: &Map<String, Value>, hand_names: &[&str]) -> Result<DealKeys, RecordError> {
    let dealer = get_u64(record, "dealer", 3)?.map_or(0, |d| d as u8);
    let seed = get_u64(record, "seed", u64::MAX)?;
    let episode = match record.get("episode") {
        None => Episode::Hand,
        Some(v) => match v.as_str() {
            Some("hand") => Episode::Hand,
            Some(name) if hand_names.contains(&name) => Episode::Hand,
            Some("game") => Episode::Game,
            _ => return Err(RecordError::record(format!("bad `episode` {v}: expected \"hand\" or \"game\""))),
        },
    };
    Ok(DealKeys { dealer, seed, episode })
}
