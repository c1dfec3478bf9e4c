//! Retreat adjudication: a dislodged unit may go to an adjacent space that is empty, was not
//! left empty by a standoff, and is not where its attacker came from over land; two units
//! retreating to the same province both disband; an unordered unit disbands.

use crate::game::ids::{PowerId, ProvinceId, RegionId, UnitKind};
use crate::game::map::Map;
use crate::game::order::{Action, Order};
use crate::game::position::{Dislodged, Position, Unit};
use crate::game::screen::{describe, Rejection};

/// What happened to one dislodged unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetreatOutcome {
    /// It retreated to this region.
    Retreated(RegionId),
    /// It retreated towards this province, but another unit did too: both disbanded.
    Bounced(ProvinceId),
    /// It was ordered to disband, or had no order, or no place to go.
    Disbanded,
}

/// The regions a dislodged unit may retreat to.
pub fn retreat_options(map: &Map, pos: &Position, at: ProvinceId) -> Vec<RegionId> {
    let Some(d) = pos.dislodged[at.index()] else {
        return Vec::new();
    };
    let open = |p: ProvinceId| {
        (map.is_free_ocean(p) || (pos.unit_at(p).is_none() && !pos.contested[p.index()]))
            && Some(p) != d.attacker_from
    };
    match d.unit.kind {
        UnitKind::Army => map
            .army_neighbours(at)
            .iter()
            .filter(|&&p| open(p))
            .map(|&p| map.province(p).main)
            .collect(),
        UnitKind::Fleet => map
            .fleet_neighbours(d.unit.region)
            .iter()
            .filter(|&&r| open(map.province_of(r)))
            .copied()
            .collect(),
        // Abstraction rule 4: an army-fleet retreats to water; only when no water is open
        // may it go ashore, and then only the fleet goes (its army is lost).
        UnitKind::ArmyFleet => {
            let all: Vec<RegionId> = map
                .fleet_neighbours(d.unit.region)
                .iter()
                .filter(|&&r| open(map.province_of(r)))
                .copied()
                .collect();
            let water: Vec<RegionId> = all
                .iter()
                .copied()
                .filter(|&r| map.province(map.province_of(r)).terrain.is_water())
                .collect();
            if water.is_empty() {
                all
            } else {
                water
            }
        }
    }
}

/// Checks retreat orders; returns the chosen destination (None: disband) per dislodged
/// province, and the rejections.
pub fn screen_retreats(
    map: &Map,
    pos: &Position,
    orders: &[(PowerId, Order)],
) -> (Vec<(ProvinceId, Option<RegionId>)>, Vec<Rejection>) {
    let mut chosen: Vec<Option<Option<RegionId>>> = vec![None; map.province_count()];
    let mut rejections = Vec::new();
    for (power, order) in orders {
        let refuse = |why: String| Rejection {
            power: *power,
            order: order.canonical(map),
            why,
        };
        let Order::Unit { at, action, .. } = order else {
            rejections.push(refuse(
                "this is a retreat phase: retreat or disband dislodged units".into(),
            ));
            continue;
        };
        let p = at.province;
        let d = match pos.dislodged[p.index()] {
            Some(d) if d.unit.power == *power => d,
            Some(_) => {
                rejections.push(refuse(format!(
                    "the dislodged unit in {} is not yours",
                    map.abbr(p)
                )));
                continue;
            }
            None => {
                rejections.push(refuse(format!(
                    "no unit was dislodged from {}",
                    map.abbr(p)
                )));
                continue;
            }
        };
        match action {
            Action::Disband => chosen[p.index()] = Some(None),
            Action::Move { to, via, convoy } if via.is_empty() && !convoy => {
                let options = retreat_options(map, pos, p);
                let fits: Vec<RegionId> = options
                    .iter()
                    .copied()
                    .filter(|&r| {
                        map.province_of(r) == to.province
                            && match to.coast.and_then(|c| map.coast_region(to.province, c)) {
                                Some(named) => named == r,
                                None => true,
                            }
                    })
                    .collect();
                match fits[..] {
                    [r] => chosen[p.index()] = Some(Some(r)),
                    [] => {
                        chosen[p.index()] = None;
                        rejections.push(refuse(format!(
                            "{} cannot retreat to {}{}",
                            describe(map, d.unit),
                            to.show(map),
                            why_not(map, pos, d, to.province)
                        )))
                    }
                    _ => {
                        chosen[p.index()] = None;
                        rejections.push(refuse(format!(
                            "name the coast of {} to retreat to",
                            map.abbr(to.province)
                        )))
                    }
                }
            }
            _ => rejections.push(refuse(
                "in a retreat phase a unit retreats ('F Tri - Alb') or disbands".into(),
            )),
        }
    }
    let list = pos
        .all_dislodged()
        .map(|(p, _)| (p, chosen[p.index()].flatten()))
        .collect();
    (list, rejections)
}

fn why_not(map: &Map, pos: &Position, d: Dislodged, to: ProvinceId) -> String {
    if pos.unit_at(to).is_some() {
        " (it is occupied)".into()
    } else if pos.contested[to.index()] {
        " (it was left empty by a standoff)".into()
    } else if d.attacker_from == Some(to) {
        " (the attacker came from there)".into()
    } else if !map.can_reach(d.unit.kind, d.unit.region, to) {
        " (it is not adjacent)".into()
    } else {
        String::new()
    }
}

/// Carries out the retreats; returns the board after them (dislodged units gone) and each
/// dislodged unit's fate.
pub fn resolve_retreats(
    map: &Map,
    pos: &Position,
    retreats: &[(ProvinceId, Option<RegionId>)],
) -> (Position, Vec<(ProvinceId, RetreatOutcome)>) {
    let mut next = pos.clone();
    next.dislodged = vec![None; pos.units.len()];
    next.contested = vec![false; pos.units.len()];
    let mut outcomes = Vec::with_capacity(retreats.len());
    for &(p, to) in retreats {
        let outcome = match to {
            None => RetreatOutcome::Disbanded,
            Some(r) => {
                let target = map.province_of(r);
                let rivals = retreats
                    .iter()
                    .filter(|(_, t)| t.is_some_and(|t| map.province_of(t) == target))
                    .count();
                if rivals > 1 && !map.is_free_ocean(target) {
                    RetreatOutcome::Bounced(target)
                } else {
                    let Some(d) = pos.dislodged[p.index()] else {
                        // No unit was dislodged there: nothing to place.
                        continue;
                    };
                    let mut unit = d.unit;
                    if unit.kind == UnitKind::ArmyFleet && !map.province(target).terrain.is_water()
                    {
                        // Abstraction rule 4: only the fleet goes ashore; its army is lost.
                        unit.kind = UnitKind::Fleet;
                    }
                    next.place(map, Unit { region: r, ..unit });
                    RetreatOutcome::Retreated(r)
                }
            }
        };
        outcomes.push((p, outcome));
    }
    (next, outcomes)
}
