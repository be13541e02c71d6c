//! The pieces of record handling that every game's record format uses: the
//! error a replay reports, and readers and writers of record JSON.

use crate::domino::{Domino, DominoSet};
use serde_json::{json, Map, Value};

/// Why a record failed; becomes the `error` object of the replay output.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct RecordError {
    /// 0-based index into `actions` (None when the record itself is bad).
    pub index: Option<usize>,
    /// The action at `index`.
    pub action: Option<String>,
    /// What was wrong and what was expected.
    pub message: String,
    /// The legal actions at `index`.
    pub legal: Option<Vec<String>>,
}

impl RecordError {
    /// An error about the record as a whole (bad key, bad hands, …).
    pub fn record(message: impl Into<String>) -> RecordError {
        RecordError { index: None, action: None, message: message.into(), legal: None }
    }

    /// The `error` object with its 1-based input `line`.
    pub fn to_json(&self, line: usize) -> Value {
        json!({ "line": line, "index": self.index, "action": self.action,
                "message": self.message, "legal": self.legal })
    }
}

/// A JSON value's kind, for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Checks that every key of the record is one of `keys`.
pub fn check_keys(record: &Map<String, Value>, game: &str, keys: &[&str]) -> Result<(), RecordError> {
    for k in record.keys() {
        if !keys.contains(&k.as_str()) {
            return Err(RecordError::record(format!(
                "unknown key `{k}` in a {game} record: expected one of {}",
                keys.join(", ")
            )));
        }
    }
    Ok(())
}

/// Reads the optional `annotations` (a front end's notes): an object, kept as written.
pub fn get_annotations(record: &Map<String, Value>) -> Result<Option<Value>, RecordError> {
    match record.get("annotations") {
        None => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v.clone())),
        Some(v) => Err(RecordError::record(format!(
            "bad `annotations`: expected an object (a front end's notes: seat, levels, hints, reviews), got {}",
            kind(v)
        ))),
    }
}

/// Reads an optional unsigned integer key.
pub fn get_u64(record: &Map<String, Value>, key: &str, max: u64) -> Result<Option<u64>, RecordError> {
    match record.get(key) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            _ => Err(RecordError::record(format!("bad `{key}` {v}: expected an integer 0..={max}"))),
        },
    }
}

/// Reads `actions` (a list of strings; missing = empty).
pub fn get_actions(record: &Map<String, Value>) -> Result<Vec<String>, RecordError> {
    match record.get("actions") {
        None => Ok(Vec::new()),
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, a)| {
                a.as_str().map(str::to_string).ok_or_else(|| RecordError {
                    index: Some(i),
                    action: None,
                    message: format!("action {i} is {}: expected an action name string", kind(a)),
                    legal: None,
                })
            })
            .collect(),
        Some(v) => Err(RecordError::record(format!("bad `actions`: expected a list of action names, got {}", kind(v)))),
    }
}

/// Reads a list of hands of domino names. `sizes` gives the expected number of
/// dominoes per hand; dominoes must be distinct across `taken` and the hands.
pub fn parse_hands(v: &Value, sizes: &[usize], taken: &mut DominoSet) -> Result<Vec<DominoSet>, RecordError> {
    Ok(parse_hand_lists(v, sizes, taken)?.into_iter().map(|h| h.into_iter().collect()).collect())
}

/// [`parse_hands`], each hand's dominoes in the given order.
pub fn parse_hand_lists(v: &Value, sizes: &[usize], taken: &mut DominoSet) -> Result<Vec<Vec<Domino>>, RecordError> {
    let list = v.as_array().ok_or_else(|| {
        RecordError::record(format!("bad `hands`: expected a list of {} hands, got {}", sizes.len(), kind(v)))
    })?;
    if list.len() != sizes.len() {
        return Err(RecordError::record(format!("bad `hands`: expected {} hands, got {}", sizes.len(), list.len())));
    }
    let mut hands = Vec::with_capacity(list.len());
    for (seat, (h, &size)) in list.iter().zip(sizes).enumerate() {
        let what = format!("hand {seat}");
        hands.push(parse_domino_list(h, &what, Some(size), taken)?);
    }
    Ok(hands)
}

/// Reads a list of domino names (`what` names it in messages), checking the
/// count and that none repeats or is already in `taken`; adds them to `taken`.
/// Returns them in the given order.
pub fn parse_domino_list(
    v: &Value,
    what: &str,
    size: Option<usize>,
    taken: &mut DominoSet,
) -> Result<Vec<Domino>, RecordError> {
    let list = v.as_array().ok_or_else(|| {
        RecordError::record(format!("bad {what}: expected a list of domino names like \"6-4\", got {}", kind(v)))
    })?;
    if let Some(n) = size {
        if list.len() != n {
            return Err(RecordError::record(format!("bad {what}: expected {n} dominoes, got {}", list.len())));
        }
    }
    let mut out = Vec::with_capacity(list.len());
    for item in list {
        let d = item
            .as_str()
            .ok_or_else(|| RecordError::record(format!("bad {what}: {item} is not a domino name like \"6-4\"")))?
            .parse::<Domino>()
            .map_err(|e| RecordError::record(format!("bad {what}: {e}")))?;
        if taken.contains(d) {
            return Err(RecordError::record(format!("bad {what}: domino {d} appears more than once in the deal")));
        }
        taken.insert(d);
        out.push(d);
    }
    Ok(out)
}

/// A set of dominoes as a list of names in dense order.
pub fn domino_names(set: DominoSet) -> Value {
    Value::Array(set.iter().map(|d| Value::String(d.to_string())).collect())
}
