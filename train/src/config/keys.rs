//! A config file's keys, read against the defaults (`configs/cpu-quick.toml`,
//! which gives every key in its section): a key outside every section (the
//! old flat form, as configs and checkpoints were saved before the sections)
//! moves into its own, the keys of removed attempts are dropped, and an
//! unknown section or key is refused with the nearest known one.

use bones_agents::spec::grammar::edit_distance;
use std::collections::HashSet;
use toml::{Table, Value};

/// The section and name of the field `key` (`name` or `section.name`) among `known`'s.
pub(super) fn field_path<'a>(key: &str, known: &'a Table) -> Option<(&'a str, &'a str)> {
    let (section, name) = match key.split_once('.') {
        Some((section, name)) => (Some(section), name),
        None => (None, key),
    };
    known.iter().filter(|(s, _)| section.is_none_or(|want| want == s.as_str())).find_map(|(s, fields)| {
        let (name, _) = fields.as_table()?.get_key_value(name)?;
        Some((s.as_str(), name.as_str()))
    })
}

/// `defaults` with the keys of `file` (sections, or the old flat form) in
/// their places.
pub(super) fn merge(mut file: Table, defaults: &Table) -> Result<Table, String> {
    drop_removed_keys(&mut file)?;
    let mut merged = defaults.clone();
    if file.values().any(|v| !v.is_table()) {
        // The old flat form: the keys it leaves out mean what they meant then.
        for (key, old) in FLAT_FORM_DEFAULTS {
            if let Some((section, name)) = field_path(key, defaults) {
                let fields = merged.get_mut(section).and_then(Value::as_table_mut).expect("a known section is a table");
                fields.insert(name.to_string(), old);
            }
        }
    }
    let mut given = HashSet::new();
    let mut put = |key: &str, value: Value| {
        let (section, name) = field_path(key, defaults).ok_or_else(|| unknown(key, defaults))?;
        if !given.insert((section, name)) {
            return Err(format!(
                "`{section}.{name}` is given twice: at the top (the old flat form) and in `[{section}]`"
            ));
        }
        let fields = merged.get_mut(section).and_then(Value::as_table_mut).expect("a known section is a table");
        fields.insert(name.to_string(), value);
        Ok(())
    };
    for (key, value) in file {
        match value {
            Value::Table(fields) => {
                if !defaults.contains_key(&key) {
                    let sections = defaults.keys().map(String::as_str);
                    return Err(format!("unknown section `[{key}]` (did you mean `[{}]`?)", nearest(&key, sections)));
                }
                for (name, value) in fields {
                    put(&format!("{key}.{name}"), value)?;
                }
            }
            value => put(&key, value)?,
        }
    }
    Ok(merged)
}

/// The error for an unknown key: it names the key and the nearest known one
/// (the same name in its own section, else the nearest by edit distance).
fn unknown(key: &str, known: &Table) -> String {
    let fields =
        || known.iter().filter_map(|(s, f)| Some((s, f.as_table()?))).flat_map(|(s, f)| f.keys().map(move |n| (s, n)));
    let guess = match key.split_once('.') {
        Some((_, name)) => match field_path(name, known) {
            Some((s, n)) => format!("{s}.{n}"),
            None => {
                let dotted: Vec<String> = fields().map(|(s, n)| format!("{s}.{n}")).collect();
                nearest(key, dotted.iter().map(String::as_str)).to_string()
            }
        },
        None => nearest(key, fields().map(|(_, n)| n.as_str())).to_string(),
    };
    format!("unknown key `{key}` (did you mean `{guess}`?)")
}

/// The candidate nearest to `key` by edit distance (the first of equals).
fn nearest<'a>(key: &str, candidates: impl IntoIterator<Item = &'a str>) -> &'a str {
    candidates.into_iter().min_by_key(|c| edit_distance(key, c)).unwrap_or_default()
}

/// The built-in defaults of the flat form that differ from `cpu-quick`'s: a
/// flat config (written before the sections) that leaves one of these keys
/// out loads with the value it had then, so an old file asks for the run it
/// always asked for.
const FLAT_FORM_DEFAULTS: [(&str, Value); 7] = [
    ("total_hands", Value::Integer(200_000)),
    ("learning_rate", Value::Float(3e-4)),
    ("hidden", Value::Integer(256)),
    ("update_epochs", Value::Integer(4)),
    ("num_minibatches", Value::Integer(4)),
    ("ent_coef", Value::Float(0.01)),
    ("target_kl", Value::Float(0.0)),
];

/// Whether a removed key's value is the one that meant "off".
type IsOff = fn(&Value) -> bool;

/// Keys of attempts removed from the trainer (issue 45: label files made once
/// by `bones label`), each with the value that meant "off". A config or a
/// checkpoint saved before the removal (in the flat form) holds them at those
/// values and still loads; any other value is refused, since the run it asks
/// for no longer exists.
const REMOVED_KEYS: [(&str, IsOff); 3] = [
    ("labels", |v| v.as_str().is_some_and(|s| s.trim().is_empty())),
    ("label_share", |v| v.as_float() == Some(1.0) || v.as_integer() == Some(1)),
    ("label_temperature", |v| v.as_float() == Some(0.0) || v.as_integer() == Some(0)),
];

fn drop_removed_keys(table: &mut Table) -> Result<(), String> {
    for (key, is_off) in REMOVED_KEYS {
        if let Some(v) = table.remove(key) {
            if !is_off(&v) {
                return Err(format!(
                    "`{key} = {v}`: label files were removed from the trainer (they never beat the shipped \
                     networks; the code is at commit eb35706); delete the key"
                ));
            }
        }
    }
    Ok(())
}
