//! The grammar of agent specs, in one table: [`AGENTS`] names every agent, its
//! options (each `key=VALUE` with its range or words, its default and what it
//! does), the games it plays and what it is. The parser of
//! [`crate::spec::AgentSpec`] reads a spec against it ([`read`]), its errors
//! name the nearest valid spelling from it, and the texts that show the
//! grammar (`--help`, `bones agents`, the web API's `agents`) are printed from
//! it ([`summary`], [`describe`]).
//!
//! A spec is a name, then its options, each after a `:`; a [`Value::Rest`]
//! option and an agent's [`Tail`] take the rest of the spec, so they may hold
//! `:`. Options and words that were removed are refused by name, from the
//! one list of what was removed ([`crate::removed`]).

use crate::removed;
use std::fmt::Write;

/// Which agent a grammar entry is (the parser builds one spec per kind).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `random`.
    Random,
    /// `heuristic`.
    Heuristic,
    /// `highest`.
    Highest,
    /// `pimc`.
    Pimc,
    /// `search`.
    Search,
    /// `model:PATH`.
    Model,
    /// `onnx:PATH`.
    Onnx,
    /// `exec:COMMAND`.
    Exec,
    /// `bridge:COMMAND`.
    Bridge,
}

/// One agent of the grammar.
#[derive(Debug)]
pub struct AgentGrammar {
    /// The name that starts its specs.
    pub name: &'static str,
    /// Which agent it is.
    pub kind: Kind,
    /// The only game it plays (`None`: every game).
    pub only: Option<&'static str>,
    /// What it is, in a line.
    pub about: &'static str,
    /// Its options, in the order its canonical form prints them.
    pub options: &'static [OptionGrammar],
    /// What follows the options and takes the rest of the spec (`model:PATH`).
    pub tail: Option<Tail>,
}

/// One `key=VALUE` option of an agent.
#[derive(Debug)]
pub struct OptionGrammar {
    /// The key.
    pub key: &'static str,
    /// The values it takes.
    pub value: Value,
    /// Its value when not given, as the spec writes it (or in words).
    pub default: &'static str,
    /// What it does.
    pub about: &'static str,
}

/// The values an option takes.
#[derive(Debug)]
pub enum Value {
    /// A whole number from `min` to `max` (`u64::MAX`: no upper bound).
    Whole {
        /// How the grammar shows it (`N`).
        shown: &'static str,
        /// What it is, in words (`a whole number`).
        what: &'static str,
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// A number from `min` to `max`, decimals allowed.
    Decimal {
        /// How the grammar shows it (`SECONDS`).
        shown: &'static str,
        /// What it is, in words.
        what: &'static str,
        /// The least value.
        min: f64,
        /// The greatest value.
        max: f64,
    },
    /// One of `words`.
    Word {
        /// The words it takes.
        words: &'static [&'static str],
    },
    /// The rest of the spec, which may hold `:`; the option comes last.
    Rest {
        /// How the grammar shows it (`PATH`).
        shown: &'static str,
        /// What it is, in words (`a path`).
        what: &'static str,
    },
}

/// The part of a spec after its options that takes the rest of it.
#[derive(Debug)]
pub struct Tail {
    /// How the grammar shows it (`PATH`, `COMMAND`).
    pub shown: &'static str,
    /// What it is, in words (`a path`).
    pub what: &'static str,
    /// What it names.
    pub about: &'static str,
}

const fn whole(shown: &'static str, what: &'static str, min: u64, max: u64) -> Value {
    Value::Whole { shown, what, min, max }
}

const ON_OFF: Value = Value::Word { words: &["on", "off"] };

/// Every agent, in the order the grammar lists them.
pub const AGENTS: &[AgentGrammar] = &[
    AgentGrammar {
        name: "random",
        kind: Kind::Random,
        only: None,
        about: "uniform over the legal actions",
        options: &[],
        tail: None,
    },
    AgentGrammar {
        name: "heuristic",
        kind: Kind::Heuristic,
        only: None,
        about: "the rule-based player of the game",
        options: &[],
        tail: None,
    },
    AgentGrammar {
        name: "highest",
        kind: Kind::Highest,
        only: Some("Doubles"),
        about: "the legal play with the highest pip total",
        options: &[],
        tail: None,
    },
    AgentGrammar {
        name: "pimc",
        kind: Kind::Pimc,
        only: None,
        about: "perfect-information Monte Carlo: each action valued in worlds sampled consistently with the \
                public record (Texas 42: solved by the open-hand solver; Doubles: played out by `heuristic`)",
        options: &[OptionGrammar {
            key: "worlds",
            value: whole("N", "a whole number", 1, u32::MAX as u64),
            default: "32",
            about: "worlds sampled per decision",
        }],
        tail: None,
    },
    AgentGrammar {
        name: "search",
        kind: Kind::Search,
        only: Some("Texas 42"),
        about: "a trained policy and the open-hand solver: worlds weighted by how likely the policy finds the \
                other seats' actions, each candidate declaration or play valued in them",
        options: &[
            OptionGrammar {
                key: "worlds",
                value: whole("N", "a whole number", 1, 4096),
                default: "128",
                about: "worlds solved per decision",
            },
            OptionGrammar {
                key: "pool",
                value: whole("N", "a whole number", 1, 4 * 4096),
                default: "4 × worlds",
                about: "worlds sampled and weighted per decision, from which `worlds` are drawn (at least `worlds`)",
            },
            OptionGrammar {
                key: "bidding",
                value: Value::Word { words: &["policy", "pimc"] },
                default: "policy",
                about: "`policy`: the policy's most probable bid, its likeliest declarations the candidates; \
                        `pimc`: bids and declarations as `pimc` makes them",
            },
            OptionGrammar {
                key: "weighted",
                value: ON_OFF,
                default: "on",
                about: "weigh the sampled worlds by the policy (`off`: draw them uniformly, as `pimc` does)",
            },
            OptionGrammar {
                key: "continuation",
                value: Value::Word { words: &["solver", "infoset"] },
                default: "infoset",
                about: "how a candidate is valued in a world: `solver`, the open-hand solver; `infoset`, the \
                        solver until `exact` tricks are left, then one play per information set over all the worlds",
            },
            OptionGrammar {
                key: "exact",
                value: whole("K", "a whole number of tricks", 1, 7),
                default: "3",
                about:
                    "tricks left (the one in progress counted) when `continuation=infoset` takes over (only with it)",
            },
            OptionGrammar {
                key: "tricks",
                value: whole("N", "a whole number of tricks", 0, 6),
                default: "every trick",
                about: "the search plays the first N tricks, the policy (its most probable play) the rest; with 0 \
                        the search only bids (`bidding=pimc`) and declares",
            },
            OptionGrammar {
                key: "model",
                value: Value::Rest { shown: "PATH", what: "a path" },
                default: "the shipped models/texas42",
                about: "the policy, as `model:PATH` takes it",
            },
        ],
        tail: None,
    },
    AgentGrammar {
        name: "model",
        kind: Kind::Model,
        only: None,
        about: "a trained policy, greedy (its most probable legal action)",
        options: &[],
        tail: Some(Tail {
            shown: "PATH",
            what: "a path",
            about: "a model folder (such as models/texas42), a training run folder or a checkpoint folder",
        }),
    },
    AgentGrammar {
        name: "onnx",
        kind: Kind::Onnx,
        only: None,
        about: "an ONNX network from any framework, greedy like `model:PATH`",
        options: &[OptionGrammar {
            key: "observation",
            value: whole("V", "an observation version, a whole number", 1, u32::MAX as u64),
            default: "the folder's model.json",
            about: "the observation version the network reads; a bare .onnx file needs it",
        }],
        tail: Some(Tail {
            shown: "PATH",
            what: "a path",
            about: "a folder holding model.onnx and model.json (as `bones export` writes), or a .onnx file",
        }),
    },
    AgentGrammar {
        name: "exec",
        kind: Kind::Exec,
        only: None,
        about: "an outside program speaking the bot protocol, sent only its seat's view",
        options: &[OptionGrammar {
            key: "limit",
            value: Value::Decimal { shown: "SECONDS", what: "a number of seconds", min: 0.001, max: 86_400.0 },
            default: "10",
            about: "the time the program has for each decision",
        }],
        tail: Some(Tail {
            shown: "COMMAND",
            what: "a command line",
            about: "a program and its arguments, split into words as a shell splits plain words",
        }),
    },
    AgentGrammar {
        name: "bridge",
        kind: Kind::Bridge,
        only: Some("Texas 42"),
        about: "an outside engine speaking the bridge line protocol of walt (github.com/jasonyandell/texas-42: \
                walt_bridge, rob_bridge), sent only its seat's dominoes and the plays; plays `--rules dropped30` deals",
        options: &[OptionGrammar {
            key: "limit",
            value: Value::Decimal { shown: "SECONDS", what: "a number of seconds", min: 0.001, max: 86_400.0 },
            default: "150",
            about: "the time the program has for each decision",
        }],
        tail: Some(Tail {
            shown: "COMMAND",
            what: "a command line",
            about: "a program and its arguments, split into words as a shell splits plain words",
        }),
    },
];

/// A value given in a spec, checked against its option.
#[derive(Clone, Debug, PartialEq)]
pub enum Given<'a> {
    /// Of a [`Value::Whole`].
    Whole(u64),
    /// Of a [`Value::Decimal`].
    Decimal(f64),
    /// Of a [`Value::Word`]: the grammar's word.
    Word(&'static str),
    /// Of a [`Value::Rest`] (trimmed).
    Rest(&'a str),
}

/// A spec read against the grammar: its agent, the options given (in the order
/// given) and its tail.
#[derive(Debug)]
pub struct Read<'a> {
    /// The agent.
    pub agent: &'static AgentGrammar,
    /// Each option given, with its value.
    pub given: Vec<(&'static str, Given<'a>)>,
    /// The tail (trimmed, not empty) when the agent has one.
    pub tail: Option<&'a str>,
}

impl<'a> Read<'a> {
    /// The value of `key`, the last one given.
    pub fn get(&self, key: &str) -> Option<&Given<'a>> {
        self.given.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The whole number given for `key`.
    pub fn whole(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(|g| if let Given::Whole(n) = g { Some(*n) } else { None })
    }

    /// The number given for `key`.
    pub fn decimal(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|g| if let Given::Decimal(x) = g { Some(*x) } else { None })
    }

    /// The word given for `key`.
    pub fn word(&self, key: &str) -> Option<&'static str> {
        self.get(key).and_then(|g| if let Given::Word(w) = g { Some(*w) } else { None })
    }

    /// The rest of the spec given for `key`.
    pub fn rest(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(|g| if let Given::Rest(r) = g { Some(*r) } else { None })
    }
}

/// Why a spec does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The name is no agent's; the hint names the nearest one or lists them.
    Unknown {
        /// The name given.
        name: String,
        /// `did you mean …?` or the names.
        hint: String,
    },
    /// A known agent with a bad option; what is wrong, in one sentence.
    Bad(String),
}

/// The grammar entry of the agent named `name`.
pub fn agent(name: &str) -> Option<&'static AgentGrammar> {
    AGENTS.iter().find(|a| a.name == name)
}

/// Reads `text` (trimmed) against the grammar.
pub fn read(text: &str) -> Result<Read<'_>, Fault> {
    let (name, rest) = match text.split_once(':') {
        Some((n, r)) => (n, Some(r)),
        None => (text, None),
    };
    let Some(agent) = agent(name) else {
        let hint = match nearest(name, AGENTS.iter().map(|a| a.name)) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!("expected {}", or_list(AGENTS.iter().map(|a| a.name))),
        };
        return Err(Fault::Unknown { name: name.to_string(), hint });
    };
    let mut read = Read { agent, given: Vec::new(), tail: None };
    match &agent.tail {
        None => {
            let Some(mut rest) = rest else { return Ok(read) };
            if agent.options.is_empty() {
                return Err(Fault::Bad(format!("`{name}` takes no options")));
            }
            while !rest.is_empty() {
                if let Some((key, what, value)) = rest_option(agent, rest) {
                    if value.is_empty() {
                        return Err(Fault::Bad(format!("`{key}=` needs {what}")));
                    }
                    read.given.push((key, Given::Rest(value)));
                    break;
                }
                let (opt, tail) = rest.split_once(':').unwrap_or((rest, ""));
                read.given.push(option(agent, opt)?);
                rest = tail;
            }
        }
        Some(t) => {
            // Options first, each at most once; what follows is the tail.
            let mut rest = rest.map(str::trim).unwrap_or("");
            while agent.options.iter().any(|o| {
                rest.strip_prefix(o.key).is_some_and(|r| r.starts_with('='))
                    && read.given.iter().all(|(k, _)| *k != o.key)
            }) {
                let (opt, tail) = rest.split_once(':').unwrap_or((rest, ""));
                read.given.push(option(agent, opt)?);
                rest = tail.trim();
            }
            if rest.is_empty() {
                return Err(Fault::Bad(format!("`{name}` needs {}: `{}`", t.what, syntax(agent))));
            }
            read.tail = Some(rest);
        }
    }
    Ok(read)
}

/// The option of `agent` that takes the rest of the spec, when `rest` starts
/// with it: its key, what it takes in words, and its value (trimmed).
fn rest_option<'a>(agent: &'static AgentGrammar, rest: &'a str) -> Option<(&'static str, &'static str, &'a str)> {
    agent.options.iter().find_map(|o| match o.value {
        Value::Rest { what, .. } => Some((o.key, what, rest.strip_prefix(o.key)?.strip_prefix('=')?.trim())),
        _ => None,
    })
}

/// One `key=value` option of `agent`, checked.
fn option(agent: &'static AgentGrammar, opt: &str) -> Result<(&'static str, Given<'static>), Fault> {
    let name = agent.name;
    let (key, value) = match opt.split_once('=') {
        Some((k, v)) => (k, Some(v)),
        None => (opt, None),
    };
    let Some(o) = agent.options.iter().find(|o| o.key == key) else {
        if let Some(gone) = removed::option(name, key) {
            return Err(Fault::Bad(gone.refusal(key)));
        }
        let hint = match nearest(key, agent.options.iter().map(|o| o.key)) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!("{name} takes {}", or_list(agent.options.iter().map(|o| o.key))),
        };
        return Err(Fault::Bad(format!("unknown option `{key}` of {name} ({hint})")));
    };
    let Some(v) = value else {
        return Err(Fault::Bad(format!("`{key}` needs a value: `{key}={}`", shown(&o.value))));
    };
    let given = match &o.value {
        Value::Whole { min, max, .. } => within(v, *min, *max).map(Given::Whole),
        Value::Decimal { min, max, .. } => within(v, *min, *max).map(Given::Decimal),
        Value::Word { words } => {
            if let Some(gone) = removed::word(name, key, v) {
                return Err(Fault::Bad(gone.refusal(&format!("{key}={v}"))));
            }
            words.iter().find(|w| **w == v).map(|w| Given::Word(w))
        }
        Value::Rest { what, .. } => return Err(Fault::Bad(format!("`{key}=` takes {what}, last in the spec"))),
    };
    given.map(|g| (o.key, g)).ok_or_else(|| {
        let near = match &o.value {
            Value::Word { words, .. } => nearest(v, words.iter().copied()).map(|w| format!(" (did you mean `{w}`?)")),
            _ => None,
        };
        Fault::Bad(format!("`{key}` must be {}, got `{v}`{}", range(&o.value), near.unwrap_or_default()))
    })
}

/// `v` read as a `T` from `min` to `max`.
fn within<T: std::str::FromStr + PartialOrd>(v: &str, min: T, max: T) -> Option<T> {
    v.parse::<T>().ok().filter(|x| (min..=max).contains(x))
}

/// How the grammar shows a value (`N`, `on|off`, `PATH`).
fn shown(v: &Value) -> String {
    match v {
        Value::Whole { shown, .. } | Value::Decimal { shown, .. } | Value::Rest { shown, .. } => shown.to_string(),
        Value::Word { words, .. } => words.join("|"),
    }
}

/// The values an option takes, in words (`a whole number from 1 to 4096`).
fn range(v: &Value) -> String {
    match v {
        Value::Whole { what, min, max: u64::MAX, .. } => format!("{what} >= {min}"),
        Value::Whole { what, min, max, .. } if *max == u32::MAX as u64 => format!("{what} >= {min}"),
        Value::Whole { what, min, max, .. } => format!("{what} from {min} to {max}"),
        Value::Decimal { what, min, max, .. } => format!("{what} from {min} to {max}"),
        Value::Word { words, .. } => or_list(words.iter().map(|w| format!("`{w}`"))),
        Value::Rest { what, .. } => format!("{what} (the rest of the spec)"),
    }
}

/// `a, b or c`.
fn or_list<S: AsRef<str>>(items: impl Iterator<Item = S>) -> String {
    let items: Vec<S> = items.collect();
    let mut out = String::new();
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == items.len() { " or " } else { ", " });
        }
        out.push_str(s.as_ref());
    }
    out
}

/// The spelling of `agent` with all its options (`pimc[:worlds=N]`,
/// `onnx:[observation=V:]PATH`).
pub fn syntax(agent: &AgentGrammar) -> String {
    let mut s = agent.name.to_string();
    match &agent.tail {
        None => {
            for o in agent.options {
                let _ = write!(s, "[:{}={}]", o.key, shown(&o.value));
            }
        }
        Some(t) => {
            s.push(':');
            for o in agent.options {
                let _ = write!(s, "[{}={}:]", o.key, shown(&o.value));
            }
            s.push_str(t.shown);
        }
    }
    s
}

/// Every agent's spelling in one line, for `--help` texts and the web API:
/// `` `random`, …, `highest` (Doubles only), … ``.
pub fn summary() -> String {
    let each = AGENTS.iter().map(|a| match a.only {
        Some(game) => format!("`{}` ({game} only)", syntax(a)),
        None => format!("`{}`", syntax(a)),
    });
    format!("{} (`bones agents` describes each)", each.collect::<Vec<_>>().join(", "))
}

/// The whole grammar, every agent with what it is and its options with their
/// values and defaults, as `bones agents` prints it.
pub fn describe() -> String {
    let mut s = String::from(
        "Agent specs: a name, then options, each after a `:`, in any order; a list of agents is separated by `,`.\n",
    );
    for a in AGENTS {
        let only = a.only.map(|g| format!(" ({g} only)")).unwrap_or_default();
        let _ = write!(s, "\n{}{only}\n    {}\n", syntax(a), a.about);
        for o in a.options {
            let values = match &o.value {
                Value::Word { .. } => String::new(),
                v => format!("; {}", range(v)),
            };
            let _ = writeln!(s, "    {}={}  {}{values}; default {}", o.key, shown(&o.value), o.about, o.default);
        }
        if let Some(t) = &a.tail {
            let _ = writeln!(s, "    {}  {}; it takes the rest of the spec", t.shown, t.about);
        }
    }
    s
}

/// The candidate nearest to `given` by edit distance (letter case ignored),
/// when near enough to be a slip: at most a third of its length, and at least
/// 1 or 2; or a candidate that `given` (3 letters or more) begins.
pub fn nearest<'c>(given: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    let g = given.to_lowercase();
    candidates
        .filter_map(|c| {
            let d = edit_distance(&g, &c.to_lowercase());
            let near = d <= (c.chars().count() / 3).max(1) || (g.chars().count() >= 3 && c.starts_with(&g));
            near.then_some((d, c))
        })
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The Levenshtein distance between `a` and `b`: the fewest letters inserted,
/// deleted or replaced to turn one into the other.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + (ca != cb) as usize).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
