//! Serde pieces of the typed records (`Texas42Record`, `DoublesRecord`): the
//! keys a record type has ([`keys_of`], read off its `Deserialize`, so no list
//! of keys is kept by hand), a present key read as `Some` even when it is
//! `null` ([`present`], so that `null` is refused like any other bad value),
//! dominoes written by name ([`domino_list`], [`hand_lists`]) and the
//! `episode` key ([`episode`], [`round_episode`]).

use crate::domino::Domino;
use crate::game::Episode;
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::Serialize;

/// The keys of the record type `T` (its fields' serde names, in declaration
/// order), read off its derived `Deserialize`.
pub fn keys_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    struct Fields(Option<&'static [&'static str]>);
    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0 = Some(fields);
            Err(de::Error::custom("keys read"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut f = Fields(None);
    let _ = T::deserialize(&mut f);
    f.0.expect("a record type is a struct with named fields")
}

/// Deserializes a present key as `Some` (with `#[serde(default)]`, an absent
/// one is `None`): `null` is then a bad value of the key's type, not absence.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// An optional key written as its value and read by [`present`]: the
/// `with` module of a record key without a form of its own.
pub mod plain {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the value (the key is skipped when absent).
    pub fn serialize<S: Serializer, T: Serialize>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }
    /// Reads a present key as `Some` ([`super::present`]).
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
        super::present(d)
    }
}

/// One domino by name (`"6-4"`; `"4-6"` is read too).
struct Name(Domino);

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map(Name).map_err(de::Error::custom)
    }
}

fn names(list: &[Domino]) -> Vec<String> {
    list.iter().map(Domino::to_string).collect()
}

/// An optional list of dominoes written by name (`["6-4","5-5"]`).
pub mod domino_list {
    use super::*;

    /// Writes the names.
    pub fn serialize<S: Serializer>(v: &Option<Vec<Domino>>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().map(|l| names(l)).serialize(s)
    }
    /// Reads the names (a present key, as [`present`]).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Domino>>, D::Error> {
        let list: Vec<Name> = Vec::deserialize(d)?;
        Ok(Some(list.into_iter().map(|n| n.0).collect()))
    }
}

/// Optional hands: lists of dominoes written by name (`[["6-4",…],…]`).
pub mod hand_lists {
    use super::*;

    /// Writes the names.
    pub fn serialize<S: Serializer>(v: &Option<Vec<Vec<Domino>>>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().map(|hands| hands.iter().map(|h| names(h)).collect::<Vec<_>>()).serialize(s)
    }
    /// Reads the names (a present key, as [`present`]).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Vec<Domino>>>, D::Error> {
        let hands: Vec<Vec<Name>> = Vec::deserialize(d)?;
        Ok(Some(hands.into_iter().map(|h| h.into_iter().map(|n| n.0).collect()).collect()))
    }
}

fn episode_name(e: &Option<Episode>) -> Option<&'static str> {
    e.map(|e| match e {
        Episode::Hand => "hand",
        Episode::Game => "game",
    })
}

/// An optional `episode`: `"hand"` or `"game"`.
pub mod episode {
    use super::*;

    /// Writes `"hand"` or `"game"`.
    pub fn serialize<S: Serializer>(v: &Option<Episode>, s: S) -> Result<S::Ok, S::Error> {
        episode_name(v).serialize(s)
    }
    /// Reads `"hand"` or `"game"` (a present key, as [`present`]).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Episode>, D::Error> {
        match String::deserialize(d)?.as_str() {
            "hand" => Ok(Some(Episode::Hand)),
            "game" => Ok(Some(Episode::Game)),
            other => Err(de::Error::custom(format!("bad `episode` \"{other}\": expected \"hand\" or \"game\""))),
        }
    }
}

/// An optional `episode` of a game of rounds: `"hand"` (or `"round"`) or `"game"`.
pub mod round_episode {
    use super::*;

    /// Writes `"hand"` or `"game"`.
    pub fn serialize<S: Serializer>(v: &Option<Episode>, s: S) -> Result<S::Ok, S::Error> {
        episode_name(v).serialize(s)
    }
    /// Reads `"hand"`, `"round"` or `"game"` (a present key, as [`present`]).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Episode>, D::Error> {
        match String::deserialize(d)?.as_str() {
            "hand" | "round" => Ok(Some(Episode::Hand)),
            "game" => Ok(Some(Episode::Game)),
            other => Err(de::Error::custom(format!("bad `episode` \"{other}\": expected \"hand\" or \"game\""))),
        }
    }
}

/// Reads the `game` key of a record type for `name`: that name, nothing else.
pub fn game_name<'de, D: Deserializer<'de>>(d: D, name: &'static str) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if s == name {
        Ok(s)
    } else {
        Err(de::Error::custom(format!("bad `game` \"{s}\": expected \"{name}\"")))
    }
}
