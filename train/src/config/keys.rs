//! A config file's keys, read against the defaults (`configs/cpu-quick.toml`,
//! which gives every key in its section): a key outside every section (the
//! old flat form, as configs and checkpoints were saved before the sections)
//! moves into its own, the keys and sections of removed attempts are passed
//! over at the values that meant "off" and refused at any other (bones-agents'
//! one list of what was removed), and an unknown section or key is refused
//! with the nearest known one.

use bones_agents::removed::{self, Off, Place, Setting};
use bones_agents::spec::grammar::edit_distance;
use bones_policy::folder::{drop_removed_keys, removed_setting};
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
    drop_removed(&mut file)?;
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

/// Passes over the removed sections and keys of `file` (a config saved while
/// they existed holds them at the values that meant "off"); refuses one at
/// any other value, by name.
fn drop_removed(file: &mut Table) -> Result<(), String> {
    for gone in removed::config().filter(|r| r.place == Place::Section) {
        let Some(value) = file.remove(gone.name) else { continue };
        let Off::SectionWith { key, .. } = gone.off else { continue };
        let setting = match &value {
            Value::Table(fields) => fields.get(key).map_or(Setting::Absent, removed_setting),
            _ => Setting::Other,
        };
        if !gone.is_off(setting) {
            let name = gone.name;
            let given = match &value {
                Value::Table(fields) => {
                    format!("[{name}]{}", fields.get(key).map(|v| format!(" {key} = {v}")).unwrap_or_default())
                }
                v => format!("{name} = {v}"),
            };
            return Err(gone.refusal(&given));
        }
    }
    // The flat form's keys at the top, then each section's.
    drop_removed_keys(file, None)?;
    for (section, fields) in file.iter_mut() {
        if let Value::Table(fields) = fields {
            drop_removed_keys(fields, Some(section))?;
        }
    }
    Ok(())
}
