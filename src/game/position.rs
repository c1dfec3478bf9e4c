//! The state of the board between phases: units, dislodged units, centre owners.

use super::calendar::Phase;
use super::ids::{PowerId, ProvinceId, RegionId, UnitKind};
use super::map::Map;

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// Its owner.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it stands (the coast, for a fleet in a multi-coast province).
    pub region: RegionId,
}

/// A unit dislodged in the last movement phase, waiting to retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dislodged {
    /// The unit, still at the place it was dislodged from.
    pub unit: Unit,
    /// Where the attacker came from over land: the unit may not retreat there. `None` when
    /// the attacker came by convoy (DATC 4.A.5: then it may).
    pub attacker_from: Option<ProvinceId>,
}

/// The board at a phase.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    /// The phase about to be played.
    pub phase: Phase,
    /// The unit in each province, by province index.
    pub units: Vec<Option<Unit>>,
    /// Units dislodged in the last movement phase, by the province they were dislodged in.
    pub dislodged: Vec<Option<Dislodged>>,
    /// Provinces left empty by a standoff in the last movement phase: no retreat there.
    pub contested: Vec<bool>,
    /// The owner of each supply centre, by province index.
    pub owners: Vec<Option<PowerId>>,
    /// The last power to have had a unit in each province in a Spring or Fall season (for
    /// Deluge's new centres); empty until a season has been played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last_seen: Vec<Option<PowerId>>,
    /// Fleets in free oceans (the world variant's rule M.1): any number may share one, so
    /// they are kept apart from `units`, each standing on its ocean's main region.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub afloat: Vec<Unit>,
}

impl Position {
    /// An empty board of this map at this phase.
    pub fn empty(map: &Map, phase: Phase) -> Position {
        let n = map.province_count();
        Position {
            phase,
            units: vec![None; n],
            dislodged: vec![None; n],
            contested: vec![false; n],
            owners: vec![None; n],
            last_seen: Vec::new(),
            afloat: Vec::new(),
        }
    }

    /// The map's starting position: its units, and each power owning its home centres.
    pub fn initial(map: &Map, phase: Phase) -> Position {
        let mut pos = Position::empty(map, phase);
        for s in &map.start {
            pos.place(
                map,
                Unit {
                    power: s.power,
                    kind: s.kind,
                    region: s.region,
                },
            );
        }
        for power in map.power_ids() {
            for &home in &map.power(power).homes {
                pos.owners[home.index()] = Some(power);
            }
        }
        pos
    }

    /// Puts a unit on the board, replacing whatever stood in its province.
    pub fn place(&mut self, map: &Map, unit: Unit) {
        let p = map.province_of(unit.region);
        if map.is_free_ocean(p) {
            self.afloat.push(unit);
        } else {
            self.units[p.index()] = Some(unit);
        }
    }

    /// The unit in a province (in a free ocean, the first of those there).
    #[inline]
    pub fn unit_at(&self, p: ProvinceId) -> Option<Unit> {
        match self.units[p.index()] {
            Some(u) => Some(u),
            None if self.afloat.is_empty() => None,
            // An ocean's only region is its main one, whose id is the province's.
            None => self.afloat.iter().copied().find(|u| u.region.0 == p.0),
        }
    }

    /// A power's unit in a province (in a free ocean, the first of its own there).
    pub fn own_unit_at(&self, p: ProvinceId, power: PowerId) -> Option<Unit> {
        match self.units[p.index()] {
            Some(u) if u.power == power => Some(u),
            Some(_) => None,
            None => self
                .afloat
                .iter()
                .copied()
                .find(|u| u.region.0 == p.0 && u.power == power),
        }
    }

    /// Takes a power's unit off the board (in a free ocean, the first of its own there).
    pub fn take_unit(&mut self, p: ProvinceId, power: PowerId) -> Option<Unit> {
        if self.units[p.index()].is_some_and(|u| u.power == power) {
            return self.units[p.index()].take();
        }
        let k = self
            .afloat
            .iter()
            .position(|u| u.region.0 == p.0 && u.power == power)?;
        Some(self.afloat.remove(k))
    }

    /// Every unit with its province: by province order, then the fleets in free oceans.
    pub fn all_units(&self) -> impl Iterator<Item = (ProvinceId, Unit)> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter_map(|(i, u)| u.map(|u| (ProvinceId(i as u16), u)))
            .chain(self.afloat.iter().map(|u| (ProvinceId(u.region.0), *u)))
    }

    /// Every dislodged unit with its province.
    pub fn all_dislodged(&self) -> impl Iterator<Item = (ProvinceId, Dislodged)> + '_ {
        self.dislodged
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.map(|d| (ProvinceId(i as u16), d)))
    }

    /// How many units a power has on the board (an army-fleet is two: its army and its
    /// fleet).
    pub fn unit_count(&self, power: PowerId) -> usize {
        self.units
            .iter()
            .flatten()
            .chain(&self.afloat)
            .filter(|u| u.power == power)
            .map(|u| if u.kind == UnitKind::ArmyFleet { 2 } else { 1 })
            .sum()
    }

    /// Removes one of a power's units in a province for an adjustment: an army-fleet loses
    /// its army and stays a fleet. Returns the unit removed.
    pub fn remove_one(&mut self, p: ProvinceId, power: PowerId) -> Option<Unit> {
        if let Some(u) = self.units[p.index()].as_mut() {
            if u.power == power && u.kind == UnitKind::ArmyFleet {
                u.kind = UnitKind::Fleet;
                return Some(Unit {
                    kind: UnitKind::Army,
                    ..*u
                });
            }
        }
        self.take_unit(p, power)
    }

    /// How many supply centres a power owns.
    pub fn centre_count(&self, power: PowerId) -> usize {
        self.owners.iter().filter(|o| **o == Some(power)).count()
    }

    /// Whether any unit is waiting to retreat.
    pub fn has_dislodged(&self) -> bool {
        self.dislodged.iter().any(Option::is_some)
    }

    /// Records the power of every unit on `board` as the last seen in its province.
    pub fn note_occupants(&mut self, board: &Position) {
        if self.last_seen.len() < self.units.len() {
            self.last_seen.resize(self.units.len(), None);
        }
        for (p, u) in board.all_units() {
            self.last_seen[p.index()] = Some(u.power);
        }
    }

    /// Records the power of every unit on this board as the last seen in its province.
    pub fn note_own_occupants(&mut self) {
        if self.last_seen.len() < self.units.len() {
            self.last_seen.resize(self.units.len(), None);
        }
        for (i, u) in self.units.iter().enumerate() {
            if let Some(u) = u {
                self.last_seen[i] = Some(u.power);
            }
        }
    }

    /// Gives every occupied supply centre to the occupier's power (after a Fall season).
    pub fn take_centres(&mut self, map: &Map) {
        for p in map.centres() {
            if let Some(unit) = self.units[p.index()] {
                self.owners[p.index()] = Some(unit.power);
            }
        }
    }
}
