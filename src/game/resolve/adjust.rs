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

/// Why an adjustment order was refused: a matchable kind, with the provinces it names (by
/// abbreviation) quoted once in its text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdjustError {
    /// The power has neither builds nor removals this winter.
    #[error("you have no builds or removals this winter")]
    NothingToAdjust,
    /// All the power's builds were used by earlier orders.
    #[error("you have only {0} build(s), all used")]
    BuildsUsed(u32),
    /// All the power's removals were made by earlier orders.
    #[error("you have only {0} removal(s), all made")]
    RemovalsMade(u32),
    /// A build or waive from a power that must remove.
    #[error("you must remove units this winter, not build")]
    MustRemove,
    /// A removal from a power that builds.
    #[error("you have builds this winter, not removals")]
    MustBuild,
    /// An order of another kind of phase.
    #[error("this is an adjustment phase: build, remove or waive")]
    NotAnAdjustment,
    /// The unit to remove is another power's.
    #[error("the unit in {0} is not yours")]
    NotYours(String),
    /// No unit stands where the removal names.
    #[error("there is no unit in {0} to remove")]
    NoUnit(String),
    /// A build outside a supply centre.
    #[error("{0} is not a supply centre")]
    NotCentre(String),
    /// A build in a centre the power does not own.
    #[error("you do not own {0}")]
    NotOwned(String),
    /// A build outside the power's home centres where the rules ask for one.
    #[error("{0} is not one of your home centres")]
    NotHome(String),
    /// A build by a power that holds none of its home centres, where the rules ask for one.
    #[error("you hold none of your home centres, so you cannot build")]
    NoHomeHeld,
    /// A build in an occupied centre.
    #[error("{0} is occupied")]
    Occupied(String),
    /// A build that names no kind of unit where both could stand.
    #[error("say whether to build an army or a fleet in {0}")]
    KindUnsaid(String),
    /// A build of an army-fleet.
    #[error("an army-fleet cannot be built: build a fleet in {0}, then embark an army")]
    ArmyFleet(String),
    /// A fleet built inland.
    #[error("a fleet cannot be built in {0}, which is inland")]
    Inland(String),
    /// A fleet built where several coasts are open, naming none: the province and one coast
    /// as an example (`Stp/nc`).
    #[error("name the coast to build a fleet in {at}, e.g. {example}")]
    CoastUnsaid {
        /// The province.
        at: String,
        /// One of its coasts, written after the province.
        example: String,
    },
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
) -> Result<(), AdjustError> {
    let prov = map.province(p);
    if !prov.centre {
        return Err(AdjustError::NotCentre(prov.abbr.clone()));
    }
    if pos.owners[p.index()] != Some(power) {
        return Err(AdjustError::NotOwned(prov.abbr.clone()));
    }
    let homes = &map.power(power).homes;
    match rules.build_sites {
        BuildSites::Home if !homes.contains(&p) => Err(AdjustError::NotHome(prov.abbr.clone())),
        BuildSites::AnyOwnedWhileHomeHeld
            if !homes.iter().any(|h| pos.owners[h.index()] == Some(power)) =>
        {
            Err(AdjustError::NoHomeHeld)
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
) -> (Position, Vec<Adjustment>, Vec<Rejection<AdjustError>>) {
    let mut next = pos.clone();
    let mut done = Vec::new();
    let mut rejections = Vec::new();
    for power in map.power_ids() {
        let count = adjustment_count(pos, power);
        let mut left = count.unsigned_abs() as usize;
        let own = orders.iter().enumerate().filter(|(_, (p, _))| *p == power);
        for (index, (_, order)) in own {
            let refuse = |kind: AdjustError| Rejection {
                power,
                index,
                order: order.canonical(map),
                kind,
            };
            let result = if left == 0 {
                Err(match count {
                    0 => AdjustError::NothingToAdjust,
                    c if c > 0 => AdjustError::BuildsUsed(c.unsigned_abs()),
                    c => AdjustError::RemovalsMade(c.unsigned_abs()),
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
                            None => Err(AdjustError::NotYours(map.abbr(at.province).to_string())),
                        },
                        None => Err(AdjustError::NoUnit(map.abbr(at.province).to_string())),
                    },
                    (Order::Waive | Order::Build { .. }, false) => Err(AdjustError::MustRemove),
                    (_, true) => Err(AdjustError::MustBuild),
                    _ => Err(AdjustError::NotAnAdjustment),
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
) -> Result<Unit, AdjustError> {
    may_build_in(map, rules, pos, power, p)?;
    let prov = map.province(p);
    if pos.unit_at(p).is_some() {
        return Err(AdjustError::Occupied(prov.abbr.clone()));
    }
    let named_coast = coast.and_then(|c| map.coast_region(p, c));
    let kind = match kind {
        Some(k) => k,
        None if prov.terrain == Terrain::Land => UnitKind::Army,
        None if named_coast.is_some() => UnitKind::Fleet,
        None => return Err(AdjustError::KindUnsaid(prov.abbr.clone())),
    };
    let region: RegionId = match kind {
        UnitKind::Army => prov.main,
        UnitKind::ArmyFleet => return Err(AdjustError::ArmyFleet(prov.abbr.clone())),
        UnitKind::Fleet => {
            let places = map.standable(UnitKind::Fleet, p);
            match (places.len(), named_coast) {
                (0, _) => return Err(AdjustError::Inland(prov.abbr.clone())),
                (1, _) => places[0],
                (_, Some(r)) => r,
                _ => {
                    return Err(AdjustError::CoastUnsaid {
                        at: prov.abbr.clone(),
                        example: map.region_abbr(places[0]),
                    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::variant::Variant;

    /// Issue 26: a refused build is a kind to match on, quoting its province once.
    #[test]
    fn a_refused_build_says_which_kind() {
        let v = Variant::standard();
        let map = &v.map;
        let pos = Position::initial(map, v.calendar.start);
        let france = map.power_by_word("France").unwrap();
        let at = |name: &str| map.lookup(&crate::game::map::normalize(name)).unwrap();
        let refused = may_build_in(map, &v.rules, &pos, france, at("Mun")).unwrap_err();
        assert_eq!(refused, AdjustError::NotOwned("Mun".into()));
        assert_eq!(refused.to_string(), "you do not own Mun");
        assert_eq!(
            may_build_in(map, &v.rules, &pos, france, at("Bur")),
            Err(AdjustError::NotCentre("Bur".into()))
        );
        assert_eq!(
            build(map, &v.rules, &pos, france, None, at("Par"), None),
            Err(AdjustError::Occupied("Par".into()))
        );
    }

    /// Issue 26: "rejections found again by comparing order text". Two orders that read
    /// alike (`Waive`, twice) are told apart: each rejection names its order by its index
    /// among those given, with a kind to match on, and quotes the order once.
    #[test]
    fn a_rejection_names_its_order_by_index_when_two_read_alike() {
        let v = Variant::standard();
        let map = &v.map;
        let mut pos = Position::initial(map, v.calendar.start);
        let england = map.power_by_word("England").unwrap();
        let france = map.power_by_word("France").unwrap();
        let bel = map.lookup("bel").unwrap();
        pos.owners[bel.index()] = Some(france); // one build for France
        let orders = [
            (england, Order::Waive),
            (france, Order::Waive),
            (france, Order::Waive),
        ];
        let (_, done, rejected) = resolve_adjustments(map, &v.rules, &pos, &orders);
        assert_eq!(done, [Adjustment::Waived(france)]);
        let found: Vec<(usize, &AdjustError)> =
            rejected.iter().map(|r| (r.index, &r.kind)).collect();
        assert_eq!(
            found,
            [
                (0, &AdjustError::NothingToAdjust),
                (2, &AdjustError::BuildsUsed(1))
            ]
        );
        assert_eq!(
            rejected[1].to_string(),
            "Waive: you have only 1 build(s), all used"
        );
    }
}
