//! Replay of game records (JSON lines) of any registered game: validate a
//! record, run its actions, and annotate it with a `result` (or an `error`), as
//! docs/interfaces/encodings.md specifies. The registry picks the game by the record's
//! `game`; each game reads its own records ([`crate::Game::replay_record`]).
//!
//! ```
//! let line = r#"{"game":"texas42","seed":1,"actions":["pass","30"]}"#;
//! let (out, ok) = bones_env::replay::replay_line(line, 1);
//! assert!(ok);
//! assert_eq!(out["result"]["done"], false);
//! assert_eq!(out["result"]["next"]["seat"], 3);
//! ```

use crate::doubles::{Doubles, DoublesRecord};
use crate::game::{Episode, Game};
use crate::record::json::{kind, RecordError};
use crate::record::typed::TypedRecord;
use crate::registry::{game_names, names_or, replay_record, AnyGame, RecordVisitor};
use crate::texas42::{Texas42, Texas42Record};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// A visitor that keeps nothing (replay only wants the `result`).
struct NoVisit;

impl RecordVisitor for NoVisit {
    type Output = ();
    fn visit<G: Game>(self, _: G, _: G::State) {}
}

/// Replays one input line. Returns the output object (the record with `result`,
/// or with `error`) and whether it succeeded.
pub fn replay_line(line: &str, line_no: usize) -> (Value, bool) {
    let parsed: Result<Value, _> = serde_json::from_str(line);
    let mut record = match parsed {
        Ok(Value::Object(m)) => m,
        Ok(other) => {
            let e = RecordError::record(format!("a record must be a JSON object, got {}", kind(&other)));
            return (json!({ "error": e.to_json(line_no) }), false);
        }
        Err(err) => {
            let e = RecordError::record(format!("malformed JSON: {err}; expected one record (a JSON object) per line"));
            return (json!({ "error": e.to_json(line_no) }), false);
        }
    };
    match run(&mut record, NoVisit) {
        Ok((_, result)) => {
            record.insert("result".into(), result);
            (Value::Object(record), true)
        }
        Err(e) => {
            record.insert("error".into(), e.to_json(line_no));
            (Value::Object(record), false)
        }
    }
}

/// Validates a record (a JSON object, as `bones replay` reads it) and runs its
/// actions; `visitor` gets the game (with the record's rules) and the state
/// after them, for a front end or a bot that continues the game. Fails exactly
/// where `replay_line` reports an `error`.
///
/// ```
/// use bones_env::replay::load_record;
/// use bones_env::registry::RecordVisitor;
/// use bones_env::{Game, GameState};
///
/// struct ToMove;
/// impl RecordVisitor for ToMove {
///     type Output = (&'static str, Option<usize>);
///     fn visit<G: Game>(self, game: G, state: G::State) -> Self::Output {
///         (game.name(), state.current_seat())
///     }
/// }
/// let record = serde_json::json!({"game":"texas42","seed":1,"actions":["pass","30"]});
/// assert_eq!(load_record(&record, ToMove).unwrap(), ("texas42", Some(3)));
/// ```
pub fn load_record<V: RecordVisitor>(record: &Value, visitor: V) -> Result<V::Output, RecordError> {
    run(&mut object(record)?, visitor).map(|(out, _)| out)
}

/// The registered game a record names (its `game`; default rules: what the
/// value is for is its type). With [`load_record_of`], code whose generic
/// bounds go beyond [`Game`] replays a record through
/// [`on_game!`](crate::on_game), with the same checks and messages as
/// [`load_record`]:
///
/// ```
/// use bones_env::replay::{load_record_of, record_game};
/// use bones_env::{on_game, GameState};
///
/// let record = serde_json::json!({"game":"doubles","seed":1,"actions":["6-6"]});
/// let kind = record_game(&record).unwrap();
/// let to_move = on_game!(kind, g => load_record_of(&g, &record).unwrap().1.current_seat());
/// assert_eq!(to_move, Some(1));
/// ```
pub fn record_game(record: &Value) -> Result<AnyGame, RecordError> {
    let name = game_name(&object(record)?)?;
    AnyGame::new(&name, None, None)
        .map_err(|_| RecordError::record(format!("unknown game `{name}`: expected {}", game_names())))
}

/// Replays `record`, a record of the game `kind` is (by its type; see
/// [`record_game`]): the record's game (its own rules) and final state.
pub fn load_record_of<G: Game>(kind: &G, record: &Value) -> Result<(G, G::State), RecordError> {
    let _ = kind;
    let mut record = object(record)?;
    drop_output(&mut record);
    let (game, state, _) = G::replay_record(&mut record)?;
    Ok((game, state))
}

/// Replays a record object (dropping its annotations): the visitor's output on
/// its game and final state, and the `result` object.
fn run<V: RecordVisitor>(record: &mut Map<String, Value>, visitor: V) -> Result<(V::Output, Value), RecordError> {
    drop_output(record);
    let name = game_name(record)?;
    replay_record(&name, record, visitor)
}

/// A record's object (a copy), or the error of a record that is not one.
fn object(record: &Value) -> Result<Map<String, Value>, RecordError> {
    match record {
        Value::Object(m) => Ok(m.clone()),
        other => Err(RecordError::record(format!("a record must be a JSON object, got {}", kind(other)))),
    }
}

/// The name a record's `game` gives, or why it gives none.
fn game_name(record: &Map<String, Value>) -> Result<String, RecordError> {
    match record.get("game") {
        Some(Value::String(name)) => Ok(name.clone()),
        Some(v) => Err(RecordError::record(format!("bad `game` {v}: expected {}", names_or(|n| format!("\"{n}\""))))),
        None => {
            Err(RecordError::record(format!("missing `game`: expected {}", names_or(|n| format!("\"game\":\"{n}\"")))))
        }
    }
}

/// Drops what a replay writes (`result`, `error`) before replaying.
fn drop_output(record: &mut Map<String, Value>) {
    record.remove("result");
    record.remove("error");
}

/// A record of any registered game, typed: one variant per record shape. It
/// serializes as the game's record (keys in its order).
///
/// ```
/// use bones_env::replay::GameRecord;
/// use bones_env::{Doubles, Episode};
///
/// let record = GameRecord::seeded(&Doubles::default(), 7, Episode::Game, vec!["6-6".into()]).unwrap();
/// let line = record.to_json().to_string();
/// assert!(line.starts_with(r#"{"game":"doubles","rules":{"players":4,"#), "{line}");
/// assert!(line.ends_with(r#""seed":7,"episode":"game","actions":["6-6"]}"#), "{line}");
/// assert_eq!(GameRecord::from_json(&record.to_json()).unwrap(), record);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum GameRecord {
    /// A Texas 42 record.
    Texas42(Texas42Record),
    /// A Doubles record.
    Doubles(DoublesRecord),
}

impl GameRecord {
    /// Reads a record of any game as `bones replay` does (the same checks and
    /// messages; `result` and `error` annotations are dropped first).
    pub fn from_json(record: &Value) -> Result<GameRecord, RecordError> {
        let mut map = match record {
            Value::Object(m) => m.clone(),
            other => return Err(RecordError::record(format!("a record must be a JSON object, got {}", kind(other)))),
        };
        map.remove("result");
        map.remove("error");
        match map.get("game") {
            Some(Value::String(name)) if name == "texas42" => Texas42Record::from_json(&map).map(GameRecord::Texas42),
            Some(Value::String(name)) if name == "doubles" => DoublesRecord::from_json(&map).map(GameRecord::Doubles),
            Some(Value::String(other)) => {
                Err(RecordError::record(format!("unknown game `{other}`: expected {}", game_names())))
            }
            Some(v) => {
                Err(RecordError::record(format!("bad `game` {v}: expected {}", names_or(|n| format!("\"{n}\"")))))
            }
            None => Err(RecordError::record(format!(
                "missing `game`: expected {}",
                names_or(|n| format!("\"game\":\"{n}\""))
            ))),
        }
    }

    /// The record of a game of `game` dealt from `seed` with these actions, as
    /// the web page writes it: `game`, the rules in full, `seed`, `episode`,
    /// `actions`. An error for a game that is not registered.
    pub fn seeded<G: Game>(
        game: &G,
        seed: u64,
        episode: Episode,
        actions: Vec<String>,
    ) -> Result<GameRecord, RecordError> {
        let rules = Some(game.rules_json());
        match game.name() {
            "texas42" => Ok(GameRecord::Texas42(Texas42Record {
                rules,
                ..Texas42Record::seeded(&Texas42::default(), seed, episode, actions)
            })),
            "doubles" => Ok(GameRecord::Doubles(DoublesRecord {
                rules,
                ..DoublesRecord::seeded(&Doubles::default(), seed, episode, actions)
            })),
            other => Err(RecordError::record(format!("unknown game `{other}`: expected {}", game_names()))),
        }
    }

    /// The record with `annotations` (a front end's notes, an object) set.
    pub fn with_annotations(self, annotations: Value) -> GameRecord {
        match self {
            GameRecord::Texas42(r) => GameRecord::Texas42(Texas42Record { annotations: Some(annotations), ..r }),
            GameRecord::Doubles(r) => GameRecord::Doubles(DoublesRecord { annotations: Some(annotations), ..r }),
        }
    }

    /// The record as a JSON object.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a record always serializes")
    }

    /// The `result` object of replaying the record (as `bones replay` gives it).
    pub fn replay(&self) -> Result<Value, RecordError> {
        match self {
            GameRecord::Texas42(r) => r.replay().map(|(_, _, result)| result),
            GameRecord::Doubles(r) => r.replay().map(|(_, _, result)| result),
        }
    }
}
