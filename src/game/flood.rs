//! A scheduled map change laid onto the board (Deluge's floods): units follow their
//! provinces onto the new map, armies in provinces turned to water drown, centres under
//! water are destroyed, and new centres find their controller.

use super::ids::{PowerId, ProvinceId, RegionId, UnitKind};
use super::map::{Map, Terrain};
use super::position::{Position, Unit};

/// Why a new supply centre went to its controller (Deluge rule 5, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A unit stands in the province.
    Occupied,
    /// The last power to have had a unit there in a Spring or Fall.
    LastUnit,
    /// It lies in that power's home country.
    HomeCountry,
    /// None of these: it is neutral.
    Neutral,
}

/// One thing the change did to the board, for the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapEvent {
    /// The province went under water.
    Submerged(ProvinceId),
    /// An army in a submerged province drowned.
    Drowned(Unit),
    /// A supply centre went under water and counts for nobody now.
    CentreDestroyed {
        /// The centre.
        province: ProvinceId,
        /// Who owned it.
        owner: Option<PowerId>,
    },
    /// A new supply centre.
    NewCentre {
        /// The centre.
        province: ProvinceId,
        /// Its controller.
        owner: Option<PowerId>,
        /// Why.
        claim: Claim,
    },
    /// A province that was impassable can be entered from now on.
    Opened(ProvinceId),
}

/// Lays the change from `before` to `after` onto the board; returns what happened.
pub fn reshape(before: &Map, after: &Map, pos: &mut Position) -> Vec<MapEvent> {
    let n = after.province_count();
    pos.units.resize(n, None);
    pos.dislodged.resize(n, None);
    pos.contested.resize(n, false);
    pos.owners.resize(n, None);
    if !pos.last_seen.is_empty() {
        pos.last_seen.resize(n, None);
    }
    let mut events = Vec::new();
    for p in after.province_ids() {
        let old = (p.index() < before.province_count()).then(|| before.province(p));
        let new = after.province(p);
        let was = old.map_or(Terrain::Shut, |o| o.terrain);
        if new.terrain.is_water() && !was.is_water() {
            events.push(MapEvent::Submerged(p));
        }
        if was == Terrain::Shut && new.terrain != Terrain::Shut {
            events.push(MapEvent::Opened(p));
        }
        if let Some(u) = pos.units[p.index()] {
            match follow(before, after, u) {
                Some(moved) => pos.units[p.index()] = Some(moved),
                None => {
                    pos.units[p.index()] = None;
                    events.push(MapEvent::Drowned(u));
                }
            }
        }
        if let Some(mut d) = pos.dislodged[p.index()] {
            match follow(before, after, d.unit) {
                Some(moved) => {
                    d.unit = moved;
                    pos.dislodged[p.index()] = Some(d);
                }
                None => {
                    pos.dislodged[p.index()] = None;
                    events.push(MapEvent::Drowned(d.unit));
                }
            }
        }
        let was_centre = old.is_some_and(|o| o.centre);
        if was_centre && !new.centre {
            events.push(MapEvent::CentreDestroyed {
                province: p,
                owner: pos.owners[p.index()],
            });
            pos.owners[p.index()] = None;
        }
    }
    // New centres after the submergences, so a unit that drowned claims nothing.
    for p in after.province_ids() {
        let was_centre = p.index() < before.province_count() && before.province(p).centre;
        if !after.province(p).centre || was_centre {
            continue;
        }
        let (owner, claim) = if let Some(u) = pos.units[p.index()] {
            (Some(u.power), Claim::Occupied)
        } else if let Some(q) = pos.last_seen.get(p.index()).copied().flatten() {
            (Some(q), Claim::LastUnit)
        } else if let Some(q) = after.province(p).territory {
            (Some(q), Claim::HomeCountry)
        } else {
            (None, Claim::Neutral)
        };
        pos.owners[p.index()] = owner;
        events.push(MapEvent::NewCentre {
            province: p,
            owner,
            claim,
        });
    }
    events
}

/// Where a unit stands on the new map, or None if it drowns (an army under water).
fn follow(before: &Map, after: &Map, u: Unit) -> Option<Unit> {
    let region = before.region(u.region);
    let p = region.province;
    let prov = after.province(p);
    let to: RegionId = match (u.kind, prov.terrain) {
        (UnitKind::Army, Terrain::Land | Terrain::Coast) => prov.main,
        (UnitKind::Army, _) => return None,
        (_, Terrain::Sea | Terrain::Ocean) => prov.main,
        (UnitKind::ArmyFleet, _) => return None,
        (UnitKind::Fleet, Terrain::Coast) if prov.coasts.is_empty() => prov.main,
        (UnitKind::Fleet, Terrain::Coast) => {
            match region.coast.and_then(|c| after.coast_region(p, c)) {
                Some(kept) => kept,
                None => {
                    coast_on_its_water(before, after, u.region, &prov.coasts).unwrap_or(prov.main)
                }
            }
        }
        (UnitKind::Fleet, _) => return None,
    };
    Some(Unit { region: to, ..u })
}

/// The coast a fleet stands on when its province comes to have separate coasts. A flood
/// moves no fleet: it stays on the water it was on, so on the coast that touches the most
/// of the waters its old place touched (the new water lies along another coast). A tie, on
/// no map herald has, goes to the first coast the map lists.
fn coast_on_its_water(
    before: &Map,
    after: &Map,
    from: RegionId,
    coasts: &[RegionId],
) -> Option<RegionId> {
    let was_on = |q: ProvinceId| {
        before.province(q).terrain.is_water()
            && before
                .fleet_neighbours(from)
                .iter()
                .any(|&r| before.province_of(r) == q)
    };
    let shared = |c: &&RegionId| {
        after
            .fleet_neighbours(**c)
            .iter()
            .filter(|&&r| was_on(after.province_of(r)))
            .count()
    };
    // `max_by_key` keeps the last of equals: reversed, that is the first listed.
    coasts.iter().rev().max_by_key(shared).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::variant::Variant;

    /// Wherever a flood cuts a shore in two on the Deluge map, a fleet there has one coast
    /// that keeps its water: no tie falls back on the order the map lists the coasts in.
    #[test]
    fn every_split_shore_keeps_its_fleet_on_one_coast() {
        let v = Variant::builtin("deluge").unwrap();
        let mut before = &v.map;
        let mut split = 0;
        for (_, after) in &v.schedule {
            for p in after.province_ids() {
                let (old, new) = (before.province(p), after.province(p));
                if old.terrain != Terrain::Coast || new.coasts.is_empty() {
                    continue;
                }
                let mut from = vec![old.main];
                from.extend(&old.coasts);
                for &r in from
                    .iter()
                    .filter(|&&r| !before.fleet_neighbours(r).is_empty())
                {
                    if before
                        .region(r)
                        .coast
                        .is_some_and(|c| after.coast_region(p, c).is_some())
                    {
                        continue;
                    }
                    // Listed the other way round, the same coast: it won on its water.
                    let listed = coast_on_its_water(before, after, r, &new.coasts);
                    let mut reversed = new.coasts.clone();
                    reversed.reverse();
                    let other = coast_on_its_water(before, after, r, &reversed);
                    assert_eq!(
                        listed,
                        other,
                        "{} keeps no one coast",
                        before.region_abbr(r)
                    );
                    split += 1;
                }
            }
            before = after;
        }
        assert!(split >= 7, "{split} split shores");
    }
}
