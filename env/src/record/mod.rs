//! Game records: the pieces every game's record format is built from
//! ([`json`]: the replay error, readers and writers of record JSON) and the one
//! replay loop of games played in deals ([`deals`]). Replaying a record of any
//! game by name is [`crate::replay`].

pub mod deals;
pub mod json;

pub use json::*;
