//! Small `Copy` identifiers for everything the adjudicator touches.
//!
//! Names live only in the map's lookup tables; the engine works on these indexes.

use std::fmt;

/// A province of a map: a land, coastal, sea or impassable space.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct ProvinceId(pub u16);

/// A place a unit can stand: a province, or one coast of a multi-coast province.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct RegionId(pub u16);

/// One of the powers a map defines.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct PowerId(pub u8);

impl ProvinceId {
    /// The index into per-province tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl RegionId {
    /// The index into per-region tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl PowerId {
    /// The index into per-power tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The kind of a unit.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum UnitKind {
    /// An army: moves over land, may be convoyed.
    Army,
    /// A fleet: moves over water and along coasts, may convoy.
    Fleet,
    /// An army-fleet (Abstraction rules, Deluge): a fleet at sea with an army of its own
    /// power aboard. It moves and fights as one fleet, only between waters.
    ArmyFleet,
}

impl UnitKind {
    /// The short form used in orders and results: `A`, `F` or `A/F`.
    pub fn code(self) -> &'static str {
        match self {
            UnitKind::Army => "A",
            UnitKind::Fleet => "F",
            UnitKind::ArmyFleet => "A/F",
        }
    }

    /// Whether the unit moves as a fleet (a fleet, or an army-fleet).
    #[inline]
    pub fn is_fleet(self) -> bool {
        !matches!(self, UnitKind::Army)
    }

    /// The unit kind for a letter or word (`a`, `army`, `f`, `fleet`, `a/f`), any case.
    pub fn from_word(word: &str) -> Option<UnitKind> {
        match word.to_ascii_lowercase().as_str() {
            "a" | "army" => Some(UnitKind::Army),
            "f" | "fleet" => Some(UnitKind::Fleet),
            "a/f" | "af" | "army-fleet" | "armyfleet" => Some(UnitKind::ArmyFleet),
            _ => None,
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One coast of a multi-coast province.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Coast {
    /// North coast, `/nc`.
    North,
    /// South coast, `/sc`.
    South,
    /// East coast, `/ec`.
    East,
    /// West coast, `/wc`.
    West,
}

impl Coast {
    /// The two-letter abbreviation: `nc`, `sc`, `ec`, `wc`.
    pub fn abbr(self) -> &'static str {
        match self {
            Coast::North => "nc",
            Coast::South => "sc",
            Coast::East => "ec",
            Coast::West => "wc",
        }
    }

    /// The coast named by a word: `nc`, `n`, `north`, `ncs` and so on, any case.
    pub fn from_word(word: &str) -> Option<Coast> {
        match word.to_ascii_lowercase().as_str() {
            "nc" | "n" | "north" | "ncs" => Some(Coast::North),
            "sc" | "s" | "south" | "scs" => Some(Coast::South),
            "ec" | "e" | "east" | "ecs" => Some(Coast::East),
            "wc" | "w" | "west" | "wcs" => Some(Coast::West),
            _ => None,
        }
    }
}
