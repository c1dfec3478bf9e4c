//! Screening the orders of units afloat: conversions, boarding and landing (Deluge's
//! army-fleets), and which power's fleet an order in a shared ocean means.

use super::*;

/// Why an order of a unit afloat, or of one joining or leaving a fleet, was refused. Names
/// are the map's abbreviations, as the order was written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AfloatError {
    /// `converts` in a game without the conversion rule.
    #[error("conversion is not played in this game")]
    NoConversion,
    /// A fleet ordered to convert.
    #[error("only an army converts (into a fleet)")]
    OnlyArmiesConvert,
    /// An army inland ordered to convert.
    #[error("A {here} cannot convert: a fleet cannot stand in {here}, which is inland")]
    Inland {
        /// The army's province.
        here: String,
    },
    /// A conversion in a province of several coasts that names none.
    #[error("name the coast the fleet will stand on, e.g. `A {here} converts {coast}`")]
    NameTheCoast {
        /// The army's province.
        here: String,
        /// A coast it could name.
        coast: &'static str,
    },
    /// Embarking or landing in a game without army-fleets.
    #[error("army-fleets are not played in this game")]
    NoArmyFleets,
    /// A fleet ordered to embark.
    #[error("only an army embarks")]
    OnlyArmiesEmbark,
    /// Embarking onto something that is not a sea beside the army.
    #[error("{sea} is not a sea next to {here}")]
    NotASeaNextTo {
        /// The water named.
        sea: String,
        /// The army's province.
        here: String,
    },
    /// Embarking onto one's own fleet that carries an army already.
    #[error("{fleet} already carries an army")]
    AlreadyCarries {
        /// The fleet, described.
        fleet: String,
    },
    /// Embarking onto another power's fleet.
    #[error("the fleet in {sea} is not yours: an army-fleet is of one power")]
    NotYourFleet {
        /// The sea.
        sea: String,
    },
    /// Embarking where no fleet is.
    #[error("there is no fleet in {sea} to board")]
    NoFleetToBoard {
        /// The sea.
        sea: String,
    },
    /// Landing from something that is not water.
    #[error("an army disembarks from a sea, and {sea} is not one")]
    NotASea {
        /// The province named.
        sea: String,
    },
    /// Landing from another power's army-fleet.
    #[error("the army-fleet in {sea} is not yours")]
    NotYourArmyFleet {
        /// The sea.
        sea: String,
    },
    /// Landing anywhere but a coast of the sea.
    #[error("an army in {sea} can only land on a coast of that sea, and {dest} is not one")]
    NotACoastOf {
        /// The sea.
        sea: String,
        /// The province named.
        dest: String,
    },
    /// A support of the supporter itself.
    #[error("a unit cannot support itself")]
    SupportsItself,
    /// A support for a named power's fleet that is not in the ocean.
    #[error("there is no {adjective} fleet in {ocean} to support")]
    NoSuchFleet {
        /// The power named, as an adjective.
        adjective: String,
        /// The ocean.
        ocean: String,
    },
    /// A support for a fleet in an empty ocean.
    #[error("there is no unit in {ocean} to support")]
    NoUnit {
        /// The ocean.
        ocean: String,
    },
    /// A support in an ocean several powers' fleets share, naming none.
    #[error("several powers' fleets are in {ocean}: name the one supported, e.g. 'S {adjective} F {ocean} - {to}'")]
    NameTheFleet {
        /// The ocean.
        ocean: String,
        /// The first power's adjective, for the example.
        adjective: String,
        /// Where the supported move goes.
        to: String,
    },
}

pub(super) fn convert(
    map: &Map,
    rules: &Rules,
    unit: Unit,
    here: ProvinceId,
    coast: Option<crate::game::ids::Coast>,
) -> Result<Command, AfloatError> {
    if !rules.conversion {
        return Err(AfloatError::NoConversion);
    }
    if unit.kind != UnitKind::Army {
        return Err(AfloatError::OnlyArmiesConvert);
    }
    let places = map.standable(UnitKind::Fleet, here);
    let named = coast.and_then(|c| map.coast_region(here, c));
    match (places.len(), named) {
        (0, _) => Err(AfloatError::Inland {
            here: map.abbr(here).to_string(),
        }),
        (1, _) => Ok(Command::Convert { to: places[0] }),
        (_, Some(r)) => Ok(Command::Convert { to: r }),
        _ => Err(AfloatError::NameTheCoast {
            here: map.abbr(here).to_string(),
            coast: map.region(places[0]).coast.map_or("", |c| c.abbr()),
        }),
    }
}

pub(super) fn embark(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    unit: Unit,
    here: ProvinceId,
    sea: ProvinceId,
) -> Result<Command, AfloatError> {
    if !rules.army_fleets {
        return Err(AfloatError::NoArmyFleets);
    }
    if unit.kind != UnitKind::Army {
        return Err(AfloatError::OnlyArmiesEmbark);
    }
    if !map.water_neighbours(here).contains(&sea) || !map.province(sea).terrain.is_water() {
        return Err(AfloatError::NotASeaNextTo {
            sea: map.abbr(sea).to_string(),
            here: map.abbr(here).to_string(),
        });
    }
    match pos.unit_at(sea) {
        Some(f) if f.power == unit.power && f.kind == UnitKind::Fleet => {
            Ok(Command::Embark { fleet: sea })
        }
        Some(f) if f.power == unit.power => Err(AfloatError::AlreadyCarries {
            fleet: describe(map, f),
        }),
        Some(_) => Err(AfloatError::NotYourFleet {
            sea: map.abbr(sea).to_string(),
        }),
        None => Err(AfloatError::NoFleetToBoard {
            sea: map.abbr(sea).to_string(),
        }),
    }
}

pub(super) fn landing(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    power: PowerId,
    sea: ProvinceId,
    to: Loc,
) -> Result<(ProvinceId, Command), AfloatError> {
    if !rules.army_fleets {
        return Err(AfloatError::NoArmyFleets);
    }
    if !map.province(sea).terrain.is_water() {
        return Err(AfloatError::NotASea {
            sea: map.abbr(sea).to_string(),
        });
    }
    if let Some(u) = pos.unit_at(sea) {
        if u.power != power && u.kind == UnitKind::ArmyFleet {
            return Err(AfloatError::NotYourArmyFleet {
                sea: map.abbr(sea).to_string(),
            });
        }
    }
    let dest = map.province(to.province);
    if dest.terrain != Terrain::Coast || !map.water_neighbours(sea).contains(&to.province) {
        return Err(AfloatError::NotACoastOf {
            sea: map.abbr(sea).to_string(),
            dest: dest.abbr.to_string(),
        });
    }
    Ok((sea, Command::Disembark { to: dest.main }))
}

/// Whose fleet a support for a move out of a free ocean is for, where several powers' fleets
/// may share it: the nationality written; else the supporter's own fleet there (not itself);
/// else the fleet of the one other power there. Refused when that fleet is not there, and
/// when two or more other powers' fleets are and none is named.
pub(super) fn ocean_fleet_power(
    map: &Map,
    pos: &Position,
    power: PowerId,
    here: ProvinceId,
    target: Target,
    to: ProvinceId,
) -> Result<PowerId, AfloatError> {
    let ocean = target.at.province;
    let fleets = |p: PowerId| {
        let n = pos
            .all_units()
            .filter(|(q, u)| *q == ocean && u.power == p)
            .count();
        // The supporter itself is not among the fleets it may support.
        if p == power && here == ocean {
            n.saturating_sub(1)
        } else {
            n
        }
    };
    if let Some(named) = target.power {
        return match fleets(named) {
            0 if named == power && here == ocean => Err(AfloatError::SupportsItself),
            0 => Err(AfloatError::NoSuchFleet {
                adjective: map.power(named).adjective.clone(),
                ocean: map.abbr(ocean).to_string(),
            }),
            _ => Ok(named),
        };
    }
    if fleets(power) > 0 {
        return Ok(power);
    }
    let mut others: Vec<PowerId> = pos
        .all_units()
        .filter(|(q, u)| *q == ocean && u.power != power)
        .map(|(_, u)| u.power)
        .collect();
    others.sort_unstable_by_key(|p| p.0);
    others.dedup();
    match others[..] {
        [one] => Ok(one),
        [] if here == ocean => Err(AfloatError::SupportsItself),
        [] => Err(AfloatError::NoUnit {
            ocean: map.abbr(ocean).to_string(),
        }),
        [first, ..] => Err(AfloatError::NameTheFleet {
            ocean: map.abbr(ocean).to_string(),
            adjective: map.power(first).adjective.clone(),
            to: map.abbr(to).to_string(),
        }),
    }
}
