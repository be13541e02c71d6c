//! Rule options of docs/rules.md, their defaults and the presets `standard` and `full`.
//!
//! A rules object is read as docs/rules.md says: start from the preset (default
//! `standard`), then apply every other key given. Unknown keys and bad values are
//! errors that name the key and what was expected.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Why a rules object was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A key that the game does not have.
    #[error("unknown rules key `{key}` for {game}: expected one of {expected}")]
    UnknownKey {
        /// The offending key.
        key: String,
        /// The game whose rules were read.
        game: &'static str,
        /// The valid keys, comma separated.
        expected: String,
    },
    /// A known key with a value it cannot take.
    #[error("bad value {value} for rules key `{key}`: expected {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as JSON.
        value: String,
        /// What the key accepts.
        expected: String,
    },
    /// Two keys whose values do not go together.
    #[error("rules key `{key}` does not go with {other}: {reason}")]
    Conflict {
        /// The key that rules the other out.
        key: &'static str,
        /// The other key and its value, as given or implied (`` `early_end` true ``).
        other: String,
        /// Why, in words.
        reason: &'static str,
    },
    /// The rules were neither a preset name nor a JSON object.
    #[error("bad rules `{0}`: expected a preset name (`standard`, `full`, `dropped30`) or a JSON object such as {{\"preset\":\"full\",\"early_end\":false}}")]
    NotRules(String),
    /// A rules value (in a record or config) that is not a JSON object.
    #[error("bad rules {value}: expected a JSON object of {game} rule options such as {example}")]
    NotObject {
        /// The value as JSON.
        value: String,
        /// The game whose rules were read.
        game: &'static str,
        /// An example rules object for the game.
        example: &'static str,
    },
}

fn bad(key: &str, value: &Value, expected: &str) -> RulesError {
    RulesError::BadValue { key: key.to_string(), value: value.to_string(), expected: expected.to_string() }
}

/// The rules object `v` of `game`, holding only `keys` (`example`: a good one,
/// for the message when `v` is not an object).
fn rules_object<'a>(
    v: &'a Value,
    game: &'static str,
    example: &'static str,
    keys: &[&str],
) -> Result<&'a Map<String, Value>, RulesError> {
    let obj = v.as_object().ok_or_else(|| RulesError::NotObject { value: v.to_string(), game, example })?;
    match obj.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(k) => Err(RulesError::UnknownKey { key: k.clone(), game, expected: keys.join(", ") }),
        None => Ok(obj),
    }
}

fn get_bool(key: &str, v: &Value) -> Result<bool, RulesError> {
    v.as_bool().ok_or_else(|| bad(key, v, "true or false"))
}

fn get_uint(key: &str, v: &Value, min: u64, max: u64) -> Result<u32, RulesError> {
    match v.as_u64() {
        Some(n) if (min..=max).contains(&n) => Ok(n as u32),
        _ => Err(bad(key, v, &format!("an integer {min}..={max}"))),
    }
}

fn get_choice<T: Copy>(key: &str, v: &Value, choices: &[(&str, T)]) -> Result<T, RulesError> {
    let names: Vec<String> = choices.iter().map(|(n, _)| format!("`{n}`")).collect();
    v.as_str()
        .and_then(|s| choices.iter().find(|(n, _)| *n == s).map(|(_, t)| *t))
        .ok_or_else(|| bad(key, v, &format!("one of {}", names.join(", "))))
}

/// Parses `--rules` text: a preset name or a JSON object.
pub fn parse_rules_arg(text: &str) -> Result<Value, RulesError> {
    let t = text.trim();
    if t.starts_with('{') {
        let v: Value = serde_json::from_str(t).map_err(|e| RulesError::NotRules(format!("{t}: {e}")))?;
        Ok(v)
    } else if t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') && !t.is_empty() {
        Ok(serde_json::json!({ "preset": t }))
    } else {
        Err(RulesError::NotRules(t.to_string()))
    }
}

/// A Texas 42 variant (each off in `standard`, all on in `full`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Variant {
    /// Nel-O: the bidder must lose every trick; partner sits out.
    NelO = 1,
    /// Sevens: play the domino closest to 7 pips.
    Sevens = 2,
    /// Plunge: 4 doubles, a 4-mark bid, partner declares and leads.
    Plunge = 4,
    /// Splash: 3 doubles, a 3-mark bid, partner declares and leads.
    Splash = 8,
}

impl Variant {
    /// All variants in their canonical order.
    pub const ALL: [Variant; 4] = [Variant::NelO, Variant::Sevens, Variant::Plunge, Variant::Splash];
    /// Canonical name (`nel-o`, `sevens`, `plunge`, `splash`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::NelO => "nel-o",
            Variant::Sevens => "sevens",
            Variant::Plunge => "plunge",
            Variant::Splash => "splash",
        }
    }
}

/// A set of enabled variants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Variants(pub u8);

impl Variants {
    /// No variants.
    pub const NONE: Variants = Variants(0);
    /// All four variants.
    pub const ALL: Variants = Variants(15);
    /// Whether `v` is enabled.
    #[inline]
    pub const fn has(self, v: Variant) -> bool {
        self.0 & v as u8 != 0
    }
    /// With `v` enabled.
    pub const fn with(self, v: Variant) -> Variants {
        Variants(self.0 | v as u8)
    }
}

/// What happens when all four players pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AllPass {
    /// The shaker must bid (default).
    Forced,
    /// The hand is thrown in and redealt; the shake moves left.
    Redeal,
}

/// How a hand is scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scoring {
    /// Marks; first to `target` (7) marks.
    Marks,
    /// Points; first to `target` (250) points.
    Points,
}

/// How doubles rank in Nel-O.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NelloDoubles {
    /// The doubles form a suit of their own, `6-6` high (default).
    OwnSuit,
    /// A double is the highest of its number's suit (as in follow-me).
    High,
    /// A double is the lowest of its number's suit.
    Low,
}

/// Every Texas 42 rule option of docs/rules.md.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texas42Rules {
    /// Enabled variants (`nel-o`, `sevens`, `plunge`, `splash`).
    pub variants: Variants,
    /// All pass: forced bid or redeal.
    pub all_pass: AllPass,
    /// Stop a hand as soon as its result is settled.
    pub early_end: bool,
    /// Marks or points.
    pub scoring: Scoring,
    /// Marks (or points) to win a game.
    pub target: u32,
    /// Smallest winning bid, in marks, that may declare Nel-O.
    pub nello_min_marks: u8,
    /// How doubles rank in Nel-O.
    pub nello_doubles: NelloDoubles,
    /// Walt's "dropped-30" deals: the seat left of the shaker bids 30, the
    /// others pass, the bidder declares the pip trump with the best static key
    /// ([`crate::texas42::dropped30_trump`]) and all seven tricks are played;
    /// every bid and the declaration are forced (one legal action each).
    #[serde(default)]
    pub dropped30: bool,
}

impl Default for Texas42Rules {
    fn default() -> Self {
        Texas42Rules::STANDARD
    }
}

const T42_KEYS: [&str; 9] = [
    "preset",
    "variants",
    "all_pass",
    "early_end",
    "scoring",
    "target",
    "nello_min_marks",
    "nello_doubles",
    "dropped30",
];

impl Texas42Rules {
    /// The `standard` preset: no variants, every option at its default.
    pub const STANDARD: Texas42Rules = Texas42Rules {
        variants: Variants::NONE,
        all_pass: AllPass::Forced,
        early_end: true,
        scoring: Scoring::Marks,
        target: 7,
        nello_min_marks: 2,
        nello_doubles: NelloDoubles::OwnSuit,
        dropped30: false,
    };

    /// The `full` preset: all four variants.
    pub const FULL: Texas42Rules = Texas42Rules { variants: Variants::ALL, ..Texas42Rules::STANDARD };

    /// The `dropped30` preset: the standard rules with the forced auction and
    /// declaration of walt's "dropped-30" deals, all seven tricks played.
    pub const DROPPED30: Texas42Rules = Texas42Rules { dropped30: true, early_end: false, ..Texas42Rules::STANDARD };

    /// A preset by name.
    pub fn preset(name: &str) -> Option<Texas42Rules> {
        match name {
            "standard" => Some(Texas42Rules::STANDARD),
            "full" => Some(Texas42Rules::FULL),
            "dropped30" => Some(Texas42Rules::DROPPED30),
            _ => None,
        }
    }

    /// Reads a rules object (`{}` gives the defaults).
    pub fn from_json(v: &Value) -> Result<Texas42Rules, RulesError> {
        let obj = rules_object(v, "texas42", r#"{"preset":"full","early_end":false}"#, &T42_KEYS)?;
        let mut r = match obj.get("preset") {
            None => Texas42Rules::STANDARD,
            Some(p) => p
                .as_str()
                .and_then(Texas42Rules::preset)
                .ok_or_else(|| bad("preset", p, "one of `standard`, `full`, `dropped30`"))?,
        };
        if let Some(v) = obj.get("variants") {
            let list =
                v.as_array().ok_or_else(|| bad("variants", v, "a list of `nel-o`, `sevens`, `plunge`, `splash`"))?;
            let mut set = Variants::NONE;
            for item in list {
                let choices: Vec<(&str, Variant)> = Variant::ALL.iter().map(|v| (v.name(), *v)).collect();
                set = set.with(get_choice("variants", item, &choices)?);
            }
            r.variants = set;
        }
        if let Some(v) = obj.get("all_pass") {
            r.all_pass = get_choice("all_pass", v, &[("forced", AllPass::Forced), ("redeal", AllPass::Redeal)])?;
        }
        if let Some(v) = obj.get("early_end") {
            r.early_end = get_bool("early_end", v)?;
        }
        if let Some(v) = obj.get("scoring") {
            r.scoring = get_choice("scoring", v, &[("marks", Scoring::Marks), ("points", Scoring::Points)])?;
            if r.scoring == Scoring::Points {
                r.target = 250;
            }
        }
        if let Some(v) = obj.get("target") {
            r.target = get_uint("target", v, 1, 1_000_000)?;
        }
        if let Some(v) = obj.get("nello_min_marks") {
            r.nello_min_marks = get_uint("nello_min_marks", v, 1, 7)? as u8;
        }
        if let Some(v) = obj.get("nello_doubles") {
            r.nello_doubles = get_choice(
                "nello_doubles",
                v,
                &[("own-suit", NelloDoubles::OwnSuit), ("high", NelloDoubles::High), ("low", NelloDoubles::Low)],
            )?;
        }
        if let Some(v) = obj.get("dropped30") {
            r.dropped30 = get_bool("dropped30", v)?;
            if r.dropped30 && !obj.contains_key("early_end") {
                r.early_end = false;
            }
        }
        if r.dropped30 {
            let conflict = |other: String, reason| Err(RulesError::Conflict { key: "dropped30", other, reason });
            if r.early_end {
                return conflict("`early_end` true".into(), "dropped-30 deals play all seven tricks");
            }
            if r.scoring != Scoring::Marks {
                return conflict("`scoring` points".into(), "a dropped-30 deal scores one mark");
            }
            if r.variants != Variants::NONE {
                return conflict(
                    "`variants`".into(),
                    "the auction is forced to a bid of 30 and a pip trump, so no variant can come up",
                );
            }
        }
        Ok(r)
    }

    /// The complete rules as a JSON object (every key, no preset; `dropped30`
    /// only when on, so the rules without it print as they always have).
    pub fn to_json(&self) -> Value {
        let variants: Vec<&str> = Variant::ALL.iter().filter(|v| self.variants.has(**v)).map(|v| v.name()).collect();
        let mut out = serde_json::json!({
            "variants": variants,
            "all_pass": match self.all_pass { AllPass::Forced => "forced", AllPass::Redeal => "redeal" },
            "early_end": self.early_end,
            "scoring": match self.scoring { Scoring::Marks => "marks", Scoring::Points => "points" },
            "target": self.target,
            "nello_min_marks": self.nello_min_marks,
            "nello_doubles": match self.nello_doubles {
                NelloDoubles::OwnSuit => "own-suit", NelloDoubles::High => "high", NelloDoubles::Low => "low" },
        });
        if self.dropped30 {
            out["dropped30"] = true.into();
        }
        out
    }

    /// The rules as their preset plus the keys whose values differ from the
    /// preset's: `{"preset":"full","all_pass":"redeal"}`, `{}` for the
    /// standard rules. The preset is `dropped30` under those rules, `full`
    /// when all four variants are on (`standard`, left out, otherwise).
    /// `bones play --save` writes a record's rules so.
    pub fn preset_diff(&self) -> Map<String, Value> {
        let full = self.variants == Texas42Rules::FULL.variants;
        let (base, name) = if self.dropped30 {
            (Texas42Rules::DROPPED30, Some("dropped30"))
        } else if full {
            (Texas42Rules::FULL, Some("full"))
        } else {
            (Texas42Rules::STANDARD, None)
        };
        let mut out = Map::new();
        if let Some(name) = name {
            out.insert("preset".into(), name.into());
        }
        if let (Value::Object(mine), Value::Object(theirs)) = (self.to_json(), base.to_json()) {
            out.extend(mine.into_iter().filter(|(k, v)| theirs.get(k) != Some(v)));
        }
        out
    }

    /// Early end in force (never under points scoring or `dropped30`).
    #[inline]
    pub fn stops_early(&self) -> bool {
        self.early_end && self.scoring == Scoring::Marks && !self.dropped30
    }
}

/// How a blocked Doubles round with a tie for lowest is scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BlockedTie {
    /// No one scores (default).
    None,
    /// The tied players split the other hands' pips, rounded down.
    Split,
}

/// Every Doubles rule option of docs/rules.md.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoublesRules {
    /// 2, 3 or 4 players.
    pub players: u8,
    /// Scoring of a tied blocked round.
    pub blocked_tie: BlockedTie,
    /// Points to win a game.
    pub target: u32,
}

impl Default for DoublesRules {
    fn default() -> Self {
        DoublesRules { players: 4, blocked_tie: BlockedTie::None, target: 100 }
    }
}

const DOUBLES_KEYS: [&str; 4] = ["preset", "players", "blocked_tie", "target"];

impl DoublesRules {
    /// Reads a rules object. `preset` may only be `standard` (Doubles has no variants).
    pub fn from_json(v: &Value) -> Result<DoublesRules, RulesError> {
        let obj = rules_object(v, "doubles", r#"{"blocked_tie":"split","target":100}"#, &DOUBLES_KEYS)?;
        let mut r = DoublesRules::default();
        if let Some(p) = obj.get("preset") {
            if p.as_str() != Some("standard") {
                return Err(bad("preset", p, "`standard` (Doubles has no variants)"));
            }
        }
        if let Some(v) = obj.get("players") {
            r.players = get_uint("players", v, 2, 4)? as u8;
        }
        if let Some(v) = obj.get("blocked_tie") {
            r.blocked_tie = get_choice("blocked_tie", v, &[("none", BlockedTie::None), ("split", BlockedTie::Split)])?;
        }
        if let Some(v) = obj.get("target") {
            r.target = get_uint("target", v, 1, 1_000_000)?;
        }
        Ok(r)
    }

    /// The complete rules as a JSON object.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "players": self.players,
            "blocked_tie": match self.blocked_tie { BlockedTie::None => "none", BlockedTie::Split => "split" },
            "target": self.target,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn preset_then_keys() {
        let r = Texas42Rules::from_json(&json!({"preset":"full","early_end":false})).unwrap();
        assert_eq!(r.variants, Variants::ALL);
        assert!(!r.early_end);
        let r = Texas42Rules::from_json(&json!({"scoring":"points"})).unwrap();
        assert_eq!(r.target, 250);
        let r = Texas42Rules::from_json(&json!({"variants":["sevens","nel-o"]})).unwrap();
        assert!(r.variants.has(Variant::Sevens) && r.variants.has(Variant::NelO) && !r.variants.has(Variant::Plunge));
    }

    #[test]
    fn unknown_keys_and_bad_values_name_what_was_expected() {
        let e = Texas42Rules::from_json(&json!({"earlyend":true})).unwrap_err().to_string();
        assert!(e.contains("earlyend") && e.contains("early_end"), "{e}");
        let e = Texas42Rules::from_json(&json!({"nello_doubles":"middle"})).unwrap_err().to_string();
        assert!(e.contains("own-suit") && e.contains("middle"), "{e}");
        let e = Texas42Rules::from_json(&json!({"blocked_tie":"split"})).unwrap_err().to_string();
        assert!(e.contains("blocked_tie"), "{e}");
        let e = DoublesRules::from_json(&json!({"early_end":false})).unwrap_err().to_string();
        assert!(e.contains("doubles"), "{e}");
        assert!(Texas42Rules::from_json(&json!({"preset":"fancy"})).is_err());
        assert!(Texas42Rules::from_json(&json!({"variants":["nel-o","bogus"]})).is_err());
    }

    #[test]
    fn a_preset_diff_names_the_preset_and_only_the_keys_that_differ_from_it() {
        let diff = |r: Texas42Rules| Value::Object(r.preset_diff());
        assert_eq!(diff(Texas42Rules::STANDARD), json!({}));
        assert_eq!(diff(Texas42Rules::FULL), json!({"preset":"full"}));
        let redeal = Texas42Rules { all_pass: AllPass::Redeal, target: 3, ..Texas42Rules::FULL };
        assert_eq!(diff(redeal), json!({"preset":"full","all_pass":"redeal","target":3}));
        let some = Variants::NONE.with(Variant::Sevens);
        let sevens = Texas42Rules { variants: some, early_end: false, ..Texas42Rules::STANDARD };
        assert_eq!(diff(sevens), json!({"variants":["sevens"],"early_end":false}));
        for r in [Texas42Rules::STANDARD, Texas42Rules::FULL, redeal, sevens] {
            assert_eq!(Texas42Rules::from_json(&diff(r)).unwrap(), r, "{}", diff(r));
        }
    }

    #[test]
    fn rules_round_trip_through_json() {
        for r in [Texas42Rules::STANDARD, Texas42Rules::FULL] {
            assert_eq!(Texas42Rules::from_json(&r.to_json()).unwrap(), r);
        }
    }
}
