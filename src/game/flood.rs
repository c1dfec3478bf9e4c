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
        (UnitKind::Fleet, Terrain::Coast) => match region.coast {
            Some(c) => after.coast_region(p, c).unwrap_or(prov.main),
            // A fleet on a province that now has separate coasts takes the first.
            None => prov.coasts.first().copied().unwrap_or(prov.main),
        },
        (UnitKind::Fleet, _) => return None,
    };
    Some(Unit { region: to, ..u })
}
