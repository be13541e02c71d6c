//! Doubles: the rule scenarios of docs/rules.md (by hand and as worked-out
//! records), the observation, the conformance records driven through the
//! engine, and the properties that are Doubles' own (the game-independent ones
//! are the conformance suite's).

mod conformance;
mod observe;
mod properties;
mod rules;
mod scenarios;
