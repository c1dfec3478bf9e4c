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

/// A dislodged unit's province and where it retreats (None: it disbands).
pub type Retreat = (ProvinceId, Option<RegionId>);

/// Checks retreat orders; returns the chosen destination (None: disband) per dislodged
/// province, and the rejections.
pub fn screen_retreats(
    map: &Map,
    pos: &Position,
    orders: &[(PowerId, Order)],
) -> (Vec<Retreat>, Vec<Rejection<RetreatError>>) {
    let mut chosen: Vec<Option<Option<RegionId>>> = vec![None; map.province_count()];
    let mut rejections = Vec::new();
    for (index, (power, order)) in orders.iter().enumerate() {
        let refuse = |kind: RetreatError| Rejection {
            power: *power,
            index,
            order: order.canonical(map),
            kind,
        };
        let Order::Unit { at, action, .. } = order else {
            rejections.push(refuse(RetreatError::NotARetreat));
            continue;
        };
        let p = at.province;
        let d = match pos.dislodged[p.index()] {
            Some(d) if d.unit.power == *power => d,
            Some(_) => {
                rejections.push(refuse(RetreatError::NotYours(map.abbr(p).to_string())));
                continue;
            }
            None => {
                rejections.push(refuse(RetreatError::NotDislodged(map.abbr(p).to_string())));
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
                        rejections.push(refuse(RetreatError::CannotRetreat {
                            unit: describe(map, d.unit),
                            to: to.show(map),
                            blocked: why_not(map, pos, d, to.province),
                        }))
                    }
                    _ => {
                        chosen[p.index()] = None;
                        rejections.push(refuse(RetreatError::CoastUnsaid(
                            map.abbr(to.province).to_string(),
                        )))
                    }
                }
            }
            _ => rejections.push(refuse(RetreatError::RetreatOrDisband)),
        }
    }
    let list = pos
        .all_dislodged()
        .map(|(p, _)| (p, chosen[p.index()].flatten()))
        .collect();
    (list, rejections)
}

fn why_not(map: &Map, pos: &Position, d: Dislodged, to: ProvinceId) -> Option<Blocked> {
    if pos.unit_at(to).is_some() {
        Some(Blocked::Occupied)
    } else if pos.contested[to.index()] {
        Some(Blocked::Standoff)
    } else if d.attacker_from == Some(to) {
        Some(Blocked::Attacker)
    } else if !map.can_reach(d.unit.kind, d.unit.region, to) {
        Some(Blocked::NotAdjacent)
    } else {
        None
    }
}

/// Why a retreat order was refused: a matchable kind, with the units and provinces it names
/// quoted once in its text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RetreatError {
    /// A build, removal or waive in a retreat phase.
    #[error("this is a retreat phase: retreat or disband dislodged units")]
    NotARetreat,
    /// The dislodged unit is another power's.
    #[error("the dislodged unit in {0} is not yours")]
    NotYours(String),
    /// No unit was dislodged from the ordered province.
    #[error("no unit was dislodged from {0}")]
    NotDislodged(String),
    /// A retreat to a place the unit may not go.
    #[error("{unit} cannot retreat to {to}{}", blocked.map_or(String::new(), |b| format!(" ({b})")))]
    CannotRetreat {
        /// The dislodged unit.
        unit: String,
        /// Where it was to go (with its coast when one was named).
        to: String,
        /// What stands in the way, when one thing does.
        blocked: Option<Blocked>,
    },
    /// A retreat to a province with several open coasts, naming none.
    #[error("name the coast of {0} to retreat to")]
    CoastUnsaid(String),
    /// An order other than a retreat or a disband.
    #[error("in a retreat phase a unit retreats ('F Tri - Alb') or disbands")]
    RetreatOrDisband,
}

/// What keeps a dislodged unit from retreating to a province.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Blocked {
    /// A unit stands there.
    #[error("it is occupied")]
    Occupied,
    /// A standoff left it empty in the movement phase.
    #[error("it was left empty by a standoff")]
    Standoff,
    /// The attacker came from there (over land).
    #[error("the attacker came from there")]
    Attacker,
    /// The unit cannot reach it.
    #[error("it is not adjacent")]
    NotAdjacent,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::order::parse_order;
    use crate::game::variant::Variant;

    /// Issue 26: "rejections carry a matchable kind and quote the input once in `Display`".
    #[test]
    fn a_refused_retreat_says_which_kind_and_which_order() {
        let v = Variant::standard();
        let map = &v.map;
        let pos = Position::initial(map, v.calendar.start);
        let france = map.power_by_word("France").unwrap();
        let orders = [
            (france, parse_order(map, "A Par - Bur").unwrap()),
            (france, Order::Waive),
        ];
        let (_, rejected) = screen_retreats(map, &pos, &orders);
        let kinds: Vec<(usize, &RetreatError)> =
            rejected.iter().map(|r| (r.index, &r.kind)).collect();
        assert_eq!(
            kinds,
            [
                (0, &RetreatError::NotDislodged("Par".into())),
                (1, &RetreatError::NotARetreat)
            ]
        );
        assert_eq!(
            rejected[0].to_string(),
            "A Par - Bur: no unit was dislodged from Par"
        );
    }
}
