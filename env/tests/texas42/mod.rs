//! Texas 42: the rule scenarios of docs/rules.md, and the properties that are
//! Texas 42's own (the game-independent ones are the conformance suite's).

pub(crate) mod properties;
mod rules;
