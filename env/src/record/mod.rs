//! Game records: the pieces every game's record format is built from
//! ([`json`]: the replay error, readers and writers of record JSON; [`fields`]:
//! the serde pieces of the typed records; [`typed`]: what every typed record
//! shares) and the one replay loop of games played in deals ([`deals`]). Each
//! game has its typed record ([`crate::texas42::Texas42Record`],
//! [`crate::doubles::DoublesRecord`]); replaying a record of any game by name
//! is [`crate::replay`].

pub mod deals;
pub mod fields;
pub mod json;
pub mod typed;

pub use json::*;
