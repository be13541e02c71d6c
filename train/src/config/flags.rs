//! The flags of a training run, in one table: [`FLAGS`] names each flag of
//! `bones train`, the values it takes, its default, the config field it
//! overrides and what it does. The CLI's `bones train` and the Python
//! package's `python -m bones.ray train` build their parsers and `--help`
//! from it, and both set the fields the flags override through
//! [`TrainConfig::with_overrides`]. Flags of one front end only stay with it:
//! `bones train --device` (the backends a build has), `bones.ray`'s
//! `--address` and `--threads-per-worker`.

use super::{ConfigError, TrainConfig};

/// One flag of a training run (`--NAME VALUE`, or `--NAME` alone for a switch).
#[derive(Debug)]
pub struct TrainFlag {
    /// The flag's name, without the leading `--`.
    pub name: &'static str,
    /// The values it takes.
    pub value: FlagValue,
    /// Its value when not given, as the command line writes it (`None`: the
    /// config's, or nothing).
    pub default: Option<&'static str>,
    /// The config field it overrides, `section.key` (`None`: a flag of the
    /// run itself, not of its config).
    pub field: Option<&'static str>,
    /// What it does, in a line.
    pub help: &'static str,
}

/// The values a flag takes.
#[derive(Debug)]
pub enum FlagValue {
    /// None: the flag is given or not.
    Switch,
    /// A text, shown as `shown` in usage lines.
    Text {
        /// How usage lines show it (`DIR`).
        shown: &'static str,
    },
    /// A whole number from `min` to `max`.
    Whole {
        /// How usage lines show it (`N`).
        shown: &'static str,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// The name of a game the build has.
    Game,
}

impl FlagValue {
    /// How usage lines show the value (`None`: a switch).
    pub fn shown(&self) -> Option<&'static str> {
        match self {
            FlagValue::Switch => None,
            FlagValue::Text { shown } | FlagValue::Whole { shown, .. } => Some(shown),
            FlagValue::Game => Some("GAME"),
        }
    }

    /// The words it takes, when it takes one of a list.
    pub fn words(&self) -> Option<Vec<&'static str>> {
        match self {
            FlagValue::Game => Some(bones_env::GAMES.iter().map(|g| g.name).collect()),
            _ => None,
        }
    }
}

/// Every flag of a training run, in the order `--help` lists them.
pub const FLAGS: &[TrainFlag] = &[
    TrainFlag {
        name: "config",
        value: FlagValue::Text { shown: "CONFIG" },
        default: Some("cpu-quick"),
        field: None,
        help: "A config preset (cpu-quick, cpu-full, gpu, smoke) or a TOML file.",
    },
    TrainFlag {
        name: "out",
        value: FlagValue::Text { shown: "DIR" },
        default: None,
        field: None,
        help: "Run folder (default: `runs/<config name>`).",
    },
    TrainFlag {
        name: "resume",
        value: FlagValue::Switch,
        default: None,
        field: None,
        help: "Continue the run in --out from its latest checkpoint.",
    },
    TrainFlag {
        name: "game",
        value: FlagValue::Game,
        default: None,
        field: Some("model.game"),
        help: "Override the config's game.",
    },
    TrainFlag {
        name: "players",
        value: FlagValue::Whole { shown: "N", min: 2, max: 4 },
        default: None,
        field: Some("model.players"),
        help: "Override the config's Doubles player count.",
    },
    TrainFlag {
        name: "hands",
        value: FlagValue::Whole { shown: "N", min: 0, max: u64::MAX },
        default: None,
        field: Some("run.total_hands"),
        help: "Override the config's total self-play hands.",
    },
    TrainFlag {
        name: "seed",
        value: FlagValue::Whole { shown: "N", min: 0, max: u64::MAX },
        default: None,
        field: Some("run.seed"),
        help: "Override the config's seed.",
    },
    TrainFlag {
        name: "workers",
        value: FlagValue::Whole { shown: "N", min: 0, max: u64::MAX },
        default: None,
        field: Some("run.workers"),
        help: "Override the config's rollout workers (the actor-learner; 0: the synchronous loop).",
    },
];

/// The flag named `name` (without `--`).
pub fn flag(name: &str) -> Option<&'static TrainFlag> {
    FLAGS.iter().find(|f| f.name == name)
}

impl TrainConfig {
    /// This config with `overrides` set: each a config field (`seed` or
    /// `run.seed`, as [`field_path`](super::field_path) reads it) and its
    /// value; the result is checked as a config file is.
    pub fn with_overrides<'a>(
        &self,
        overrides: impl IntoIterator<Item = (&'a str, serde_json::Value)>,
    ) -> Result<TrainConfig, ConfigError> {
        let bad = |message: String| ConfigError::Parse { path: "the overrides".into(), message };
        let mut fields = serde_json::to_value(self).map_err(|e| bad(e.to_string()))?;
        for (key, value) in overrides {
            let (section, name) =
                super::field_path(key).ok_or_else(|| bad(format!("`{key}` is not a config field")))?;
            fields[section][name] = value;
        }
        let cfg: TrainConfig = serde_json::from_value(fields).map_err(|e| bad(e.to_string()))?;
        TrainConfig::from_toml(&cfg.to_toml(), "the config")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_that_overrides_a_field_names_a_field_of_the_config() {
        for f in FLAGS.iter().filter(|f| f.field.is_some()) {
            let field = f.field.unwrap();
            assert!(super::super::field_path(field).is_some(), "--{} overrides `{field}`, no config field", f.name);
        }
    }

    #[test]
    fn overrides_set_their_fields_and_a_bad_value_is_refused() {
        let cfg = TrainConfig::load("smoke").unwrap();
        let set = cfg
            .with_overrides([("run.seed", 9.into()), ("total_hands", 40.into()), ("model.game", "doubles".into())])
            .unwrap();
        assert_eq!((set.run.seed, set.run.total_hands, set.model.game.as_str()), (9, 40, "doubles"));
        assert!(cfg.with_overrides([("run.seed", "nine".into())]).is_err());
        assert!(cfg.with_overrides([("no_such_field", 1.into())]).is_err());
    }
}
