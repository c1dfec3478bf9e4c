//! Screening the orders of units afloat: conversions, boarding and landing (Deluge's
//! army-fleets), and which power's fleet an order in a shared ocean means.

use super::*;

pub(super) fn convert(
    map: &Map,
    rules: &Rules,
    unit: Unit,
    here: ProvinceId,
    coast: Option<crate::game::ids::Coast>,
) -> Result<Command, String> {
    if !rules.conversion {
        return Err("conversion is not played in this game".into());
    }
    if unit.kind != UnitKind::Army {
        return Err("only an army converts (into a fleet)".into());
    }
    let places = map.standable(UnitKind::Fleet, here);
    let named = coast.and_then(|c| map.coast_region(here, c));
    match (places.len(), named) {
        (0, _) => Err(format!(
            "A {} cannot convert: a fleet cannot stand in {}, which is inland",
            map.abbr(here),
            map.abbr(here)
        )),
        (1, _) => Ok(Command::Convert { to: places[0] }),
        (_, Some(r)) => Ok(Command::Convert { to: r }),
        _ => Err(format!(
            "name the coast the fleet will stand on, e.g. `A {} converts {}`",
            map.abbr(here),
            map.region(places[0]).coast.map_or("", |c| c.abbr())
        )),
    }
}

pub(super) fn embark(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    unit: Unit,
    here: ProvinceId,
    sea: ProvinceId,
) -> Result<Command, String> {
    if !rules.army_fleets {
        return Err("army-fleets are not played in this game".into());
    }
    if unit.kind != UnitKind::Army {
        return Err("only an army embarks".into());
    }
    if !map.water_neighbours(here).contains(&sea) || !map.province(sea).terrain.is_water() {
        return Err(format!(
            "{} is not a sea next to {}",
            map.abbr(sea),
            map.abbr(here)
        ));
    }
    match pos.unit_at(sea) {
        Some(f) if f.power == unit.power && f.kind == UnitKind::Fleet => {
            Ok(Command::Embark { fleet: sea })
        }
        Some(f) if f.power == unit.power => {
            Err(format!("{} already carries an army", describe(map, f)))
        }
        Some(_) => Err(format!(
            "the fleet in {} is not yours: an army-fleet is of one power",
            map.abbr(sea)
        )),
        None => Err(format!("there is no fleet in {} to board", map.abbr(sea))),
    }
}

pub(super) fn landing(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    power: PowerId,
    sea: ProvinceId,
    to: Loc,
) -> Result<(ProvinceId, Command), String> {
    if !rules.army_fleets {
        return Err("army-fleets are not played in this game".into());
    }
    if !map.province(sea).terrain.is_water() {
        return Err(format!(
            "an army disembarks from a sea, and {} is not one",
            map.abbr(sea)
        ));
    }
    if let Some(u) = pos.unit_at(sea) {
        if u.power != power && u.kind == UnitKind::ArmyFleet {
            return Err(format!("the army-fleet in {} is not yours", map.abbr(sea)));
        }
    }
    let dest = map.province(to.province);
    if dest.terrain != Terrain::Coast || !map.water_neighbours(sea).contains(&to.province) {
        return Err(format!(
            "an army in {} can only land on a coast of that sea, and {} is not one",
            map.abbr(sea),
            dest.abbr
        ));
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
) -> Result<PowerId, String> {
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
            0 if named == power && here == ocean => Err("a unit cannot support itself".into()),
            0 => Err(format!(
                "there is no {} fleet in {} to support",
                map.power(named).adjective,
                map.abbr(ocean)
            )),
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
        [] if here == ocean => Err("a unit cannot support itself".into()),
        [] => Err(format!(
            "there is no unit in {} to support",
            map.abbr(ocean)
        )),
        [first, ..] => Err(format!(
            "several powers' fleets are in {}: name the one supported, e.g. 'S {} F {} - {}'",
            map.abbr(ocean),
            map.power(first).adjective,
            map.abbr(ocean),
            map.abbr(to)
        )),
    }
}
