//! What was tried, measured and taken out of Bones, in one list
//! ([`REMOVED`]): options and words of agent specs, keys and sections of
//! training configs. Both parsers read it, the spec grammar's
//! ([`crate::spec::grammar`]) and bones-train's config reader (through
//! bones-policy's model config too), so a removed name gets one message
//! wherever it is given: what it was, what it measured and the commit that
//! holds its code. A config key at the value that meant "off" (every config
//! saved while the option existed holds it so) is passed over instead.

/// Where a removed name is given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// An option of an agent's specs (`search:caution=1`).
    Option {
        /// The agent.
        agent: &'static str,
    },
    /// A word an option of an agent's specs took (`search:bidding=playout`).
    Word {
        /// The agent.
        agent: &'static str,
        /// The option.
        key: &'static str,
    },
    /// A key of a training config, in its section; the old flat form (every
    /// key at the top) gives it at the top.
    Key {
        /// Its section (`None`: a key of the flat form only, from before the sections).
        section: Option<&'static str>,
    },
    /// A whole section of a training config (`[bidding]`).
    Section,
}

/// The value of a removed config key that meant "off": a config holding it
/// asks for nothing that is gone.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Off {
    /// None: any use is refused (spec options and words).
    Never,
    /// This text, blanks around it aside (`labels = ""`).
    Text(&'static str),
    /// This number (`bid_hidden = 0`).
    Number(f64),
    /// A section whose key `key` is absent or holds the number `value`
    /// (`[bidding]` with `rounds = 0`; its other keys do not matter then).
    SectionWith {
        /// The key that turned the section on.
        key: &'static str,
        /// Its "off" value.
        value: f64,
    },
}

/// A removed option, word, key or section.
#[derive(Debug)]
pub struct Removed {
    /// Where it is given.
    pub place: Place,
    /// Its name (the key, the word or the section).
    pub name: &'static str,
    /// The value that meant "off", for config keys.
    pub off: Off,
    /// What it was, a noun phrase in the plural for config keys and sections
    /// ("bid values"), in a sentence of its own ("label files were removed").
    pub what: &'static str,
    /// What it measured and where its code is.
    pub why: &'static str,
}

/// A config value as the parsers read it, for [`Removed::is_off`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Setting<'a> {
    /// Absent (a section without the key that turned it on).
    Absent,
    /// A string.
    Text(&'a str),
    /// A number (integer or float).
    Number(f64),
    /// Anything else (a boolean, an array, a table).
    Other,
}

const BID_ROUNDS: &str = "worth +0.004 marks/hand over the policy head's own bids after ten rounds, against a goal of \
                          +0.05 (docs/results.md, Bid rounds); the code is at commit ae72af4";
const LABELS: &str = "they never beat the shipped networks; the code is at commit eb35706";

/// Everything removed, by place.
pub const REMOVED: &[Removed] = &[
    Removed {
        place: Place::Option { agent: "search" },
        name: "caution",
        off: Off::Never,
        what: "a margin of K standard errors on `bidding=playout`'s bids",
        why: "with caution=1 -0.029 marks/hand [-0.084, +0.026] against search over 1,000 hands; the code is at \
              commit fba7eea",
    },
    Removed {
        place: Place::Option { agent: "search" },
        name: "level1",
        off: Off::Never,
        what: "the other seats' replies from their own views (the policy's) in the first tricks",
        why: "-0.008 marks/hand [-0.045, +0.029] against search over 1,000 hands; the code is at \
              commit d922c9e",
    },
    Removed {
        place: Place::Option { agent: "search" },
        name: "replies",
        off: Off::Never,
        what: "each other seat's own pimc reply to a candidate in the first trick",
        why: "+0.010 and -0.016 marks/hand against search over 1,000 hands each; the code is at commit 6a741f9",
    },
    Removed {
        place: Place::Option { agent: "search" },
        name: "reply_worlds",
        off: Off::Never,
        what: "the worlds of `replies`",
        why: "+0.010 and -0.016 marks/hand against search over 1,000 hands each; the code is at commit 6a741f9",
    },
    Removed {
        place: Place::Option { agent: "search" },
        name: "retie",
        off: Off::Never,
        what: "near ties of the contract fight scored again over fresh worlds",
        why: "+0.011 marks/hand [-0.005, +0.028] against search over 5,000 hands, at 2.5 times its time; the code \
              is at commit b9dcaa2",
    },
    Removed {
        place: Place::Word { agent: "search", key: "bidding" },
        name: "playout",
        off: Off::Never,
        what: "each bid priced by policy playouts of the rest of the hand",
        why: "-0.031 marks/hand [-0.086, +0.024] against search over 1,000 hands; the code is at commit fba7eea",
    },
    Removed {
        place: Place::Word { agent: "search", key: "continuation" },
        name: "policy",
        off: Off::Never,
        what: "policy playouts from each seat's own view, the solver finishing the last tricks",
        why: "+0.012 marks/hand [-0.030, +0.054] against search over 1,000 hands; the code is at commit fba7eea",
    },
    Removed {
        place: Place::Key { section: None },
        name: "labels",
        off: Off::Text(""),
        what: "label files",
        why: LABELS,
    },
    Removed {
        place: Place::Key { section: None },
        name: "label_share",
        off: Off::Number(1.0),
        what: "label files",
        why: LABELS,
    },
    Removed {
        place: Place::Key { section: None },
        name: "label_temperature",
        off: Off::Number(0.0),
        what: "label files",
        why: LABELS,
    },
    Removed {
        place: Place::Key { section: Some("model") },
        name: "bid_hidden",
        off: Off::Number(0.0),
        what: "bid values (fitted by bid rounds)",
        why: BID_ROUNDS,
    },
    Removed {
        place: Place::Section,
        name: "bidding",
        off: Off::SectionWith { key: "rounds", value: 0.0 },
        what: "bid rounds",
        why: BID_ROUNDS,
    },
];

/// The removed option `key` of `agent`'s specs.
pub fn option(agent: &str, key: &str) -> Option<&'static Removed> {
    REMOVED.iter().find(|r| matches!(r.place, Place::Option { agent: a } if a == agent) && r.name == key)
}

/// The removed word `word` of the option `key` of `agent`'s specs.
pub fn word(agent: &str, key: &str, word: &str) -> Option<&'static Removed> {
    REMOVED
        .iter()
        .find(|r| matches!(r.place, Place::Word { agent: a, key: k } if a == agent && k == key) && r.name == word)
}

/// The removed config keys and sections.
pub fn config() -> impl Iterator<Item = &'static Removed> {
    REMOVED.iter().filter(|r| matches!(r.place, Place::Key { .. } | Place::Section))
}

/// The removed key `name` of the config section `section` (`None`: at the
/// top, where the flat form gives every key).
pub fn config_key(section: Option<&str>, name: &str) -> Option<&'static Removed> {
    REMOVED.iter().find(|r| {
        r.name == name
            && match r.place {
                Place::Key { section: s } => section.is_none() || s == section,
                _ => false,
            }
    })
}

impl Removed {
    /// Whether `setting` is the value that meant "off" (for a section: the
    /// setting of its key [`Off::SectionWith`] names).
    pub fn is_off(&self, setting: Setting<'_>) -> bool {
        match (self.off, setting) {
            (Off::Never, _) => false,
            (Off::Text(off), Setting::Text(t)) => t.trim() == off,
            (Off::Number(off), Setting::Number(x)) => x == off,
            (Off::SectionWith { .. }, Setting::Absent) => true,
            (Off::SectionWith { value, .. }, Setting::Number(x)) => x == value,
            _ => false,
        }
    }

    /// The refusal of this name given as `given` (`key=value` or the option
    /// of a spec, `key = value` of a config), in one line.
    pub fn refusal(&self, given: &str) -> String {
        match self.place {
            Place::Option { .. } | Place::Word { .. } => {
                format!("`{given}` was removed ({}: {})", self.what, self.why)
            }
            Place::Key { .. } => {
                format!("`{given}`: {} were removed from the trainer ({}); delete the key", self.what, self.why)
            }
            Place::Section => {
                format!("`{given}`: {} were removed from the trainer ({}); delete the section", self.what, self.why)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_removed_name_is_found_where_it_was_given_and_only_there() {
        assert_eq!(option("search", "retie").map(|r| r.name), Some("retie"));
        assert!(option("pimc", "retie").is_none() && option("search", "worlds").is_none());
        assert_eq!(word("search", "bidding", "playout").map(|r| r.name), Some("playout"));
        assert!(word("search", "continuation", "playout").is_none());
        assert_eq!(word("search", "continuation", "policy").map(|r| r.name), Some("policy"));
        assert_eq!(config_key(Some("model"), "bid_hidden").map(|r| r.name), Some("bid_hidden"));
        assert_eq!(config_key(None, "bid_hidden").map(|r| r.name), Some("bid_hidden"), "the flat form");
        assert!(config_key(Some("ppo"), "bid_hidden").is_none());
        assert!(config_key(Some("ppo"), "labels").is_none(), "label keys are the flat form's only");
        assert_eq!(config().filter(|r| r.place == Place::Section).count(), 1);
    }

    #[test]
    fn only_the_value_that_meant_off_is_off() {
        let bid_hidden = config_key(Some("model"), "bid_hidden").unwrap();
        assert!(bid_hidden.is_off(Setting::Number(0.0)));
        assert!(!bid_hidden.is_off(Setting::Number(64.0)) && !bid_hidden.is_off(Setting::Text("0")));
        let labels = config_key(None, "labels").unwrap();
        assert!(labels.is_off(Setting::Text(" ")) && !labels.is_off(Setting::Text("runs/l.bin")));
        let bidding = config().find(|r| r.name == "bidding").unwrap();
        assert!(bidding.is_off(Setting::Absent) && bidding.is_off(Setting::Number(0.0)));
        assert!(!bidding.is_off(Setting::Number(10.0)) && !bidding.is_off(Setting::Other));
        assert!(!option("search", "caution").unwrap().is_off(Setting::Absent));
    }

    #[test]
    fn a_refusal_is_one_line_naming_what_was_given_and_the_commit_of_its_code() {
        for r in REMOVED {
            let line = r.refusal(r.name);
            assert!(line.starts_with(&format!("`{}`", r.name)) && !line.contains('\n'), "{line}");
            assert!(line.contains("the code is at commit "), "{line}");
        }
    }
}
