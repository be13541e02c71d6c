//! The config's typed values, each parsed once when the config is read and
//! written back as it was given: the agent specs of `teacher` and `opponent`
//! ([`GivenSpec`]) and the path of `init`, each empty for none. (Its `f32`s
//! are written as their shortest decimal: bones-policy's `shortest_f32`.)

use bones_agents::{AgentSpec, SpecError};
use serde::{Deserialize, Deserializer, Serializer};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// An agent spec given in a config (`teacher`, `opponent`): the spec it
/// parses to, and its text as given (what the config is written back with).
#[derive(Clone, Debug, PartialEq)]
pub struct GivenSpec {
    text: String,
    spec: AgentSpec,
}

impl GivenSpec {
    /// The parsed spec.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// The text as given (blanks around it aside).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl FromStr for GivenSpec {
    type Err = SpecError;

    /// Parses a spec, keeping its text (trimmed).
    fn from_str(text: &str) -> Result<GivenSpec, SpecError> {
        let text = text.trim();
        Ok(GivenSpec { spec: text.parse()?, text: text.to_string() })
    }
}

impl From<AgentSpec> for GivenSpec {
    /// A spec made in code, written as its canonical text.
    fn from(spec: AgentSpec) -> GivenSpec {
        GivenSpec { text: spec.to_string(), spec }
    }
}

impl fmt::Display for GivenSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Reads the string of the config key `key`: `None` when blank.
fn blank_or<'de, D: Deserializer<'de>, T>(
    d: D,
    read: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<T>, D::Error> {
    let text = String::deserialize(d)?;
    match text.trim() {
        "" => Ok(None),
        given => read(given).map(Some).map_err(serde::de::Error::custom),
    }
}

/// Reads `teacher`: an agent spec, or empty for none; a bad spec is an error naming the key.
pub(super) fn teacher<'de, D: Deserializer<'de>>(d: D) -> Result<Option<GivenSpec>, D::Error> {
    blank_or(d, |s| s.parse().map_err(|e| format!("`teacher`: {e}")))
}

/// Reads `opponent`: an agent spec, or empty for none; a bad spec is an error naming the key.
pub(super) fn opponent<'de, D: Deserializer<'de>>(d: D) -> Result<Option<GivenSpec>, D::Error> {
    blank_or(d, |s| s.parse().map_err(|e| format!("`opponent`: {e}")))
}

/// Writes an optional spec as given, `""` for none.
pub(super) fn write_spec<S: Serializer>(spec: &Option<GivenSpec>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(spec.as_ref().map_or("", GivenSpec::text))
}

/// Reads `init`: a path, or empty for none.
pub(super) fn init<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PathBuf>, D::Error> {
    blank_or(d, |s| Ok(PathBuf::from(s)))
}

/// Writes an optional path as given, `""` for none (a path that is not
/// UTF-8, which no config text gives, is an error).
pub(super) fn write_path<S: Serializer>(path: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
    match path {
        None => s.serialize_str(""),
        Some(p) => match p.to_str() {
            Some(text) => s.serialize_str(text),
            None => Err(serde::ser::Error::custom(format!("`init`: {} is not UTF-8", p.display()))),
        },
    }
}
