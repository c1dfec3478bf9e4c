//! Adjustments: builds in vacant owned centres where the rules allow, removals, waives, and
//! civil-disorder removals for a power that removes too few: the unit farthest from its
//! nearest owned supply centre goes first, counting moves over land and sea alike (2023
//! rules, DATC 4.D.8); under the 1982 rules ([`Edition::Rules1982`]) the unit farthest from
//! its home supply centres, fleets counted by fleet moves and armies over land and water.
//! Ties go fleets first, then by the province's English name.

use std::collections::VecDeque;

use crate::game::ids::{PowerId, ProvinceId, RegionId, UnitKind};
use crate::game::map::{Map, Terrain};
use crate::game::order::{Action, Order};
use crate::game::position::{Position, Unit};
use crate::game::rules::{BuildSites, Edition, Rules};
use crate::game::screen::Rejection;

/// One change made in an adjustment phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjustment {
    /// A unit built.
    Built(Unit),
    /// A unit removed by order.
    Removed(Unit),
    /// A unit removed because the power ordered too few removals.
    RemovedInDisorder(Unit),
    /// A build left unused (waived, or not ordered).
    Waived(PowerId),
}

/// How many builds (positive) or removals (negative) a power has.
pub fn adjustment_count(pos: &Position, power: PowerId) -> i32 {
    pos.centre_count(power) as i32 - pos.unit_count(power) as i32
}

/// Whether `power` may build in `p` under `rules` (ignoring vacancy and unit kind).
pub fn may_build_in(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    power: PowerId,
    p: ProvinceId,
) -> Result<(), String> {
    let prov = map.province(p);
    if !prov.centre {
        return Err(format!("{} is not a supply centre", prov.abbr));
    }
    if pos.owners[p.index()] != Some(power) {
        return Err(format!("you do not own {}", prov.abbr));
    }
    let homes = &map.power(power).homes;
    match rules.build_sites {
        BuildSites::Home if !homes.contains(&p) => {
            Err(format!("{} is not one of your home centres", prov.abbr))
        }
        BuildSites::AnyOwnedWhileHomeHeld
            if !homes.iter().any(|h| pos.owners[h.index()] == Some(power)) =>
        {
            Err("you hold none of your home centres, so you cannot build".into())
        }
        _ => Ok(()),
    }
}

/// Checks and carries out an adjustment phase. Orders beyond a power's count are refused;
/// missing removals are made by civil disorder; missing builds are waived.
pub fn resolve_adjustments(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    orders: &[(PowerId, Order)],
) -> (Position, Vec<Adjustment>, Vec<Rejection>) {
    let mut next = pos.clone();
    let mut done = Vec::new();
    let mut rejections = Vec::new();
    for power in map.power_ids() {
        let count = adjustment_count(pos, power);
        let mut left = count.unsigned_abs() as usize;
        for (_, order) in orders.iter().filter(|(p, _)| *p == power) {
            let refuse = |why: String| Rejection {
                power,
                order: order.canonical(map),
                why,
            };
            let result = if left == 0 {
                Err(match count {
                    0 => "you have no builds or removals this winter".to_string(),
                    c if c > 0 => format!("you have only {c} build(s), all used"),
                    c => format!("you have only {} removal(s), all made", -c),
                })
            } else {
                match (order, count > 0) {
                    (Order::Waive, true) => {
                        done.push(Adjustment::Waived(power));
                        Ok(())
                    }
                    (Order::Build { kind, at }, true) => {
                        build(map, rules, &next, power, *kind, at.province, at.coast).map(|unit| {
                            next.place(map, unit);
                            done.push(Adjustment::Built(unit));
                        })
                    }
                    (
                        Order::Remove { at, .. }
                        | Order::Unit {
                            at,
                            action: Action::Disband,
                            ..
                        },
                        false,
                    ) => match next.unit_at(at.province) {
                        Some(_) => match next
                            .own_unit_at(at.province, power)
                            .and_then(|_| next.remove_one(at.province, power))
                        {
                            Some(u) => {
                                done.push(Adjustment::Removed(u));
                                Ok(())
                            }
                            None => Err(format!(
                                "the unit in {} is not yours",
                                map.abbr(at.province)
                            )),
                        },
                        None => Err(format!(
                            "there is no unit in {} to remove",
                            map.abbr(at.province)
                        )),
                    },
                    (Order::Waive | Order::Build { .. }, false) => {
                        Err("you must remove units this winter, not build".into())
                    }
                    (_, true) => Err("you have builds this winter, not removals".into()),
                    _ => Err("this is an adjustment phase: build, remove or waive".into()),
                }
            };
            match result {
                Ok(()) => left -= 1,
                Err(why) => rejections.push(refuse(why)),
            }
        }
        if count > 0 {
            done.extend(std::iter::repeat_n(Adjustment::Waived(power), left));
        } else {
            for _ in 0..left {
                if let Some(u) = disorder_pick(map, rules.edition, &next, power)
                    .and_then(|p| next.remove_one(p, power))
                {
                    done.push(Adjustment::RemovedInDisorder(u));
                }
            }
        }
    }
    (next, done, rejections)
}

fn build(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    power: PowerId,
    kind: Option<UnitKind>,
    p: ProvinceId,
    coast: Option<crate::game::ids::Coast>,
) -> Result<Unit, String> {
    may_build_in(map, rules, pos, power, p)?;
    let prov = map.province(p);
    if pos.unit_at(p).is_some() {
        return Err(format!("{} is occupied", prov.abbr));
    }
    let named_coast = coast.and_then(|c| map.coast_region(p, c));
    let kind = match kind {
        Some(k) => k,
        None if prov.terrain == Terrain::Land => UnitKind::Army,
        None if named_coast.is_some() => UnitKind::Fleet,
        None => {
            return Err(format!(
                "say whether to build an army or a fleet in {}",
                prov.abbr
            ))
        }
    };
    let region: RegionId = match kind {
        UnitKind::Army => prov.main,
        UnitKind::ArmyFleet => {
            return Err(format!(
                "an army-fleet cannot be built: build a fleet in {}, then embark an army",
                prov.abbr
            ))
        }
        UnitKind::Fleet => {
            let places = map.standable(UnitKind::Fleet, p);
            match (places.len(), named_coast) {
                (0, _) => {
                    return Err(format!(
                        "a fleet cannot be built in {}, which is inland",
                        prov.abbr
                    ))
                }
                (1, _) => places[0],
                (_, Some(r)) => r,
                _ => {
                    return Err(format!(
                        "name the coast to build a fleet in {}, e.g. {}/{}",
                        prov.abbr,
                        prov.abbr,
                        map.region(places[0]).coast.map_or("", |c| c.abbr())
                    ))
                }
            }
        }
    };
    Ok(Unit {
        power,
        kind,
        region,
    })
}

/// The unit a power in civil disorder loses next: farthest from its nearest owned centre
/// (2000 rules, as the 2023 rulebook settles it), or from its nearest home centre (1982).
fn disorder_pick(
    map: &Map,
    edition: Edition,
    pos: &Position,
    power: PowerId,
) -> Option<ProvinceId> {
    let (distance, by_sea) = match edition {
        Edition::Rules2000 => {
            let owned: Vec<ProvinceId> = map
                .centres()
                .filter(|p| pos.owners[p.index()] == Some(power))
                .collect();
            (distances_from(map, &owned), Vec::new())
        }
        Edition::Rules1982 => {
            let homes = &map.power(power).homes;
            (distances_from(map, homes), fleet_distances_from(map, homes))
        }
    };
    // 1982: "the shortest available route, including convoys": an army may count moves
    // over water, a fleet only its own moves.
    let far = |p: ProvinceId, u: &Unit| match u.kind {
        UnitKind::Army => distance[p.index()],
        _ if by_sea.is_empty() => distance[p.index()],
        _ => by_sea[u.region.index()],
    };
    pos.all_units()
        .filter(|(_, u)| u.power == power)
        .max_by(|(pa, ua), (pb, ub)| {
            let da = far(*pa, ua);
            let db = far(*pb, ub);
            da.cmp(&db)
                .then((ua.kind == UnitKind::Fleet).cmp(&(ub.kind == UnitKind::Fleet)))
                .then(map.province(*pb).name.cmp(&map.province(*pa).name))
        })
        .map(|(p, _)| p)
}

/// Fleet moves needed from any of `sources` (a fleet on any coast of one) to each region.
fn fleet_distances_from(map: &Map, sources: &[ProvinceId]) -> Vec<u32> {
    let mut dist = vec![u32::MAX; map.regions.len()];
    let mut queue = VecDeque::new();
    for &s in sources {
        for r in map.standable(UnitKind::Fleet, s) {
            dist[r.index()] = 0;
            queue.push_back(r);
        }
    }
    while let Some(r) = queue.pop_front() {
        let d = dist[r.index()] + 1;
        for &q in map.fleet_neighbours(r) {
            if dist[q.index()] == u32::MAX {
                dist[q.index()] = d;
                queue.push_back(q);
            }
        }
    }
    dist
}

/// Moves needed from any of `sources` to each province, over land and water alike.
fn distances_from(map: &Map, sources: &[ProvinceId]) -> Vec<u32> {
    let mut dist = vec![u32::MAX; map.province_count()];
    let mut queue = VecDeque::new();
    for &s in sources {
        dist[s.index()] = 0;
        queue.push_back(s);
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[p.index()] + 1;
        for &q in map.army_neighbours(p).iter().chain(map.water_neighbours(p)) {
            if dist[q.index()] == u32::MAX {
                dist[q.index()] = d;
                queue.push_back(q);
            }
        }
    }
    dist
}
