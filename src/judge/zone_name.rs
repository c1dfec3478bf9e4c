//! A time zone stored by its IANA name (`"Europe/Paris"`), as games always stored it: read
//! once when the game loads, so no date is shown in a zone parsed again with a quiet
//! fallback. A stored name this herald does not know fails the game's load with an error
//! naming it (the store reports the game by name); SET ZONE and SET MYZONE only ever store
//! names they read, so only a hand-edited game can hold one.

use chrono_tz::Tz;
use serde::{Deserialize, Deserializer, Serializer};

/// Reads a stored zone name.
fn read<E: serde::de::Error>(name: &str) -> Result<Tz, E> {
    name.parse()
        .map_err(|_| E::custom(format!("'{name}' is not a time zone herald knows")))
}

/// Writes a zone as its name.
pub fn serialize<S: Serializer>(tz: &Tz, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(tz.name())
}

/// Reads a zone from its name.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Tz, D::Error> {
    read(&String::deserialize(d)?)
}

/// A zone that may be absent (a player's own, SET MYZONE).
pub mod option {
    use super::*;

    /// Writes a zone as its name.
    pub fn serialize<S: Serializer>(tz: &Option<Tz>, s: S) -> Result<S::Ok, S::Error> {
        match tz {
            Some(tz) => s.serialize_some(tz.name()),
            None => s.serialize_none(),
        }
    }

    /// Reads a zone from its name.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Tz>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|name| read(&name))
            .transpose()
    }
}
