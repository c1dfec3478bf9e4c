//! Deluge's orders around the resolver: conversion, and the Abstraction A/F rules (boarding,
//! army-fleets, landings, the fast ferry), as one model of where an army afloat is
//! (docs/adjudication.md, "Deluge II: armies afloat").
//!
//! An army is ashore or aboard, never both: an army aboard is in its fleet's sea, is
//! attacked only through its fleet (an army-fleet has a fleet's strength), supports nothing
//! itself, and its landing is an attack from that sea like a convoyed army's (no
//! head-to-head). [`prepare`] turns the screened orders into ones the Kruijswijk resolver
//! knows:
//! - a conversion holds;
//! - a valid embarkation takes the army off the land (its fleet sails as the army-fleet) and
//!   an invalid one holds: boarding fails if the fleet supports or convoys, or if any unit is
//!   ordered into the fleet's sea from another sea, whatever becomes of that move (rule 3);
//! - a national army ferried by its own fleet (rule 1) is aboard from the start: its
//!   province is empty, supports for its move count for its landing from the fleet's sea,
//!   and the fleet stands, carrying it;
//! - an army-fleet at sea landing its army becomes two orders, the fleet's and the army's
//!   landing (`Via::Landing`): with its fleet's support if ordered; it fails if the fleet,
//!   staying, is dislodged; a fleet ordered on sails only if the landing succeeds, and if its
//!   vacated sea is then taken by a supported unit the landing is undone and the army sails
//!   on with the fleet (rule 4);
//! - an army landing at the end of a voyage made in the same move (`A Mar E F Lyo`,
//!   `A/F Lyo - Wes`, `A Wes D Tun`) lands from the sea the army-fleet sails into
//!   (`Via::Voyage`), if it gets there, and after it: it cuts no support for the fight over
//!   that sea.
//!
//! [`settle`] then reads the resolution back: fleets that carry an army become army-fleets
//! (dislodged ones too: the two retreat together), converted armies become fleets, and
//! armies that landed leave their fleets.

use crate::game::ids::{ProvinceId, UnitKind};
use crate::game::map::Map;
use crate::game::position::{Position, Unit};
use crate::game::rules::Rules;
use crate::game::screen::{Command, Ordered, Via};

use super::movement::{MovementResult, OrderResult, Outcome};

/// How the screened orders were handed to the resolver, for [`settle`].
#[derive(Debug)]
pub struct Plan {
    /// The orders as screened, reported in the results.
    pub given: Vec<Ordered>,
    /// For each given order, the resolver order it became (None: taken off the board).
    stands_for: Vec<Option<usize>>,
    /// For each given order, why it did nothing before resolution (a failed boarding, a
    /// landing with no ship).
    early: Vec<Option<Outcome>>,
    /// For each given order, the fleet order whose ship its army rides by fast ferry.
    ferried: Vec<Option<usize>>,
    /// The orders for the resolver.
    pub resolver: Vec<Ordered>,
}

/// Whether any order needs this layer (false in every standard game: then the resolver
/// gets the orders as they are).
pub fn needed(rules: &Rules, orders: &[Ordered]) -> bool {
    orders.iter().any(|o| {
        (rules.army_fleets && matches!(o.command, Command::Convoy { .. }))
            || o.unit.kind == UnitKind::ArmyFleet
            || matches!(
                o.command,
                Command::Convert { .. } | Command::Embark { .. } | Command::Disembark { .. }
            )
    })
}

/// Turns Deluge's orders into the resolver's (see the module doc).
pub fn prepare(map: &Map, rules: &Rules, pos: &Position, given: Vec<Ordered>) -> Plan {
    let n = given.len();
    let ferried = if rules.army_fleets {
        ferries(map, &given)
    } else {
        vec![None; n]
    };
    let mut early = vec![None; n];
    let mut boarded_fleets: Vec<ProvinceId> = Vec::new();
    for (i, o) in given.iter().enumerate() {
        let Command::Embark { fleet } = o.command else {
            continue;
        };
        let fleet_order = unit_order_at(&given, fleet).map(|f| given[f].command);
        // The fleet must not support or convoy, and an army-fleet only sails between waters.
        let fleet_busy = match fleet_order {
            Some(
                Command::SupportHold { .. }
                | Command::SupportMove { .. }
                | Command::Convoy { .. }
                | Command::Portage { .. },
            ) => true,
            Some(Command::Move { to, .. }) => !map.province(map.province_of(to)).terrain.is_water(),
            _ => false,
        };
        let attacked_from_sea = given.iter().any(|a| {
            matches!(a.command, Command::Move { to, .. } if map.province_of(to) == fleet)
                && map.province(a.at).terrain.is_water()
                && a.at != fleet
        });
        let landing_here = landing_from(&given, fleet).is_some()
            && pos
                .unit_at(fleet)
                .is_some_and(|u| u.kind == UnitKind::ArmyFleet);
        let carrier_ok = pos
            .unit_at(fleet)
            .is_some_and(|u| u.kind == UnitKind::Fleet && u.power == o.unit.power);
        if fleet_busy
            || attacked_from_sea
            || landing_here
            || !carrier_ok
            || boarded_fleets.contains(&fleet)
        {
            early[i] = Some(Outcome::NotEmbarked);
        } else {
            boarded_fleets.push(fleet);
        }
    }
    let mut resolver = Vec::with_capacity(n + 2);
    let mut stands_for = vec![None; n];
    for (i, o) in given.iter().enumerate() {
        let mut r = *o;
        if let Some(f) = ferried[i] {
            // A national army ferried by its own fleet rides it from the start (rule 1): it
            // lands from the fleet's sea like an army-fleet's army, and its province is empty.
            r.at = given[f].at;
            if let Command::Move { to, .. } = o.command {
                r.command = Command::Move {
                    to,
                    via: Via::Landing,
                };
            }
        }
        if matches!(o.command, Command::Convoy { .. }) && ferried.contains(&Some(i)) {
            // Its army is aboard: the fleet stands in its sea, carrying it.
            r.command = Command::Hold;
        }
        if let Command::SupportMove { from, to, .. } = o.command {
            // A support for a ferried army's landing is a support for the landing from the
            // fleet's sea, where the army is.
            let aboard = given.iter().enumerate().find(|&(k, a)| {
                a.at == from
                    && ferried[k].is_some()
                    && matches!(a.command, Command::Move { to: t, .. } if map.province_of(t) == to)
            });
            if let (Some((k, _)), Command::SupportMove { from, .. }) = (aboard, &mut r.command) {
                *from = ferried[k].map_or(*from, |f| given[f].at);
            }
        }
        match o.command {
            Command::Convert { .. } => r.command = Command::Hold,
            Command::Embark { .. } if early[i].is_some() => r.command = Command::Hold,
            Command::Embark { .. } => continue,
            Command::Disembark { to } => {
                let from_start = pos
                    .unit_at(o.at)
                    .is_some_and(|u| u.kind == UnitKind::ArmyFleet && u.power == o.unit.power);
                if !from_start && carrier_into(map, &given, &early, o).is_none() {
                    early[i] = Some(Outcome::NoShip);
                    continue;
                }
                // From the army-fleet in this sea, or at the end of its voyage into it.
                r.command = Command::Move {
                    to,
                    via: if from_start {
                        Via::Landing
                    } else {
                        Via::Voyage
                    },
                };
            }
            _ => {}
        }
        if boarded_fleets.contains(&o.at) && unit_order_at(&given, o.at) == Some(i) {
            // Boarded this move: the fleet sails on as the army-fleet (rule 2).
            r.unit.kind = UnitKind::ArmyFleet;
        }
        if r.unit.kind == UnitKind::ArmyFleet && landing_from(&given, o.at).is_some() {
            // The fleet's own order, apart from its army's landing.
            r.unit.kind = UnitKind::Fleet;
        }
        stands_for[i] = Some(resolver.len());
        resolver.push(r);
    }
    Plan {
        given,
        stands_for,
        early,
        ferried,
        resolver,
    }
}

/// For each given order, the fleet order that takes its army aboard by fast ferry (rule 1):
/// the army's move is carried by convoy (asked for, or an own fleet convoys it: the resolver's
/// reading of `Via::Either`) and the first fleet ordered to ferry it there is of its power.
/// A foreign fleet's ferry leaves the army where it is: it "must return to its starting
/// position because multi-national A/Fs are not allowed".
fn ferries(map: &Map, given: &[Ordered]) -> Vec<Option<usize>> {
    given
        .iter()
        .map(|o| {
            let Command::Move { to, via } = o.command else {
                return None;
            };
            if o.unit.kind != UnitKind::Army || !matches!(via, Via::Convoy | Via::Either) {
                return None;
            }
            let dest = map.province_of(to);
            given.iter().position(|f| {
                matches!(f.command, Command::Convoy { from, to: t } if from == o.at && t == dest)
                    && f.unit.kind == UnitKind::Fleet
                    && f.unit.power == o.unit.power
            })
        })
        .collect()
}

/// The order of the unit standing in `p` (not the landing of an army aboard it), if any.
fn unit_order_at(given: &[Ordered], p: ProvinceId) -> Option<usize> {
    given
        .iter()
        .position(|o| o.at == p && !matches!(o.command, Command::Disembark { .. }))
}

/// The landing ordered from the army-fleet in `sea`, if any.
fn landing_from(given: &[Ordered], sea: ProvinceId) -> Option<usize> {
    given
        .iter()
        .position(|l| l.at == sea && matches!(l.command, Command::Disembark { .. }))
}

/// For a landing at the end of a voyage, the given order of the carrier that sails into its
/// sea this move: a fleet just boarded by an army of the landing's power, or an army-fleet.
fn carrier_into(
    map: &Map,
    given: &[Ordered],
    early: &[Option<Outcome>],
    landing: &Ordered,
) -> Option<usize> {
    given.iter().position(|c| {
        let Command::Move { to, .. } = c.command else {
            return false;
        };
        if c.unit.power != landing.unit.power || map.province_of(to) != landing.at {
            return false;
        }
        c.unit.kind == UnitKind::ArmyFleet
            || given.iter().enumerate().any(|(k, e)| {
                matches!(e.command, Command::Embark { fleet } if fleet == c.at)
                    && early[k].is_none()
            })
    })
}

/// Reads the resolution back onto Deluge's orders; returns the result with one outcome per
/// given order.
pub fn settle(map: &Map, plan: Plan, mut result: MovementResult) -> MovementResult {
    let Plan {
        given,
        stands_for,
        early,
        ferried,
        resolver,
    } = plan;
    let n = given.len();
    let mut results: Vec<OrderResult> = (0..n)
        .map(|i| {
            let stood = stands_for[i].map(|r| result.orders[r]);
            OrderResult {
                order: given[i],
                outcome: match (early[i], stood) {
                    (Some(o), _) => o,
                    (None, Some(r)) => r.outcome,
                    (None, None) => Outcome::Embarked,
                },
                dislodged: stood.and_then(|r| r.dislodged),
                decided_by: stood.and_then(|r| r.decided_by),
            }
        })
        .collect();
    let next = &mut result.position;
    let moved =
        |i: usize| stands_for[i].is_some_and(|r| result.orders[r].outcome == Outcome::Moved);
    let is_voyage = |i: usize| {
        stands_for[i].is_some_and(|r| {
            matches!(
                resolver[r].command,
                Command::Move {
                    via: Via::Voyage,
                    ..
                }
            )
        })
    };
    // Where a given unit order's unit ended: (province, dislodged?).
    let end_of = |i: usize, next: &Position| -> Option<(ProvinceId, bool)> {
        let o = &given[i];
        if let (true, Command::Move { to, .. }) = (moved(i), o.command) {
            return Some((map.province_of(to), false));
        }
        if next.dislodged[o.at.index()].is_some_and(|d| d.unit.power == o.unit.power) {
            return Some((o.at, true));
        }
        next.units[o.at.index()]
            .filter(|u| u.power == o.unit.power)
            .map(|_| (o.at, false))
    };
    let set_kind = |next: &mut Position, (p, dislodged): (ProvinceId, bool), kind: UnitKind| {
        if dislodged {
            if let Some(d) = next.dislodged[p.index()].as_mut() {
                d.unit.kind = kind;
            }
        } else if let Some(u) = next.units[p.index()].as_mut() {
            u.kind = kind;
        }
    };

    for i in 0..n {
        let o = given[i];
        match o.command {
            Command::Convert { to } => {
                let stays = next.units[o.at.index()].is_some_and(|u| u == o.unit);
                if stays {
                    next.units[o.at.index()] = Some(Unit {
                        kind: UnitKind::Fleet,
                        region: to,
                        ..o.unit
                    });
                    results[i].outcome = Outcome::Converted;
                } else {
                    results[i].outcome = Outcome::NotConverted;
                }
            }
            Command::Embark { fleet } if early[i].is_none() => {
                let Some(f) = unit_order_at(&given, fleet) else {
                    continue;
                };
                if let Some(end) = end_of(f, next) {
                    set_kind(next, end, UnitKind::ArmyFleet);
                }
            }
            _ => {}
        }
    }

    // Landings from an army-fleet that was at sea at the start.
    for i in 0..n {
        let o = given[i];
        let (Command::Disembark { to }, Some(_)) = (o.command, stands_for[i]) else {
            continue;
        };
        if is_voyage(i) {
            continue;
        }
        let Some(f) = unit_order_at(&given, o.at) else {
            continue;
        };
        let landed = moved(i);
        if !landed {
            results[i].outcome = Outcome::StayedAboard;
            if let Some(end) = end_of(f, next) {
                set_kind(next, end, UnitKind::ArmyFleet);
            }
            continue;
        }
        results[i].outcome = Outcome::Landed;
        // Rule 4: the fleet sailed on and its sea was taken with support: the army goes
        // with the fleet after all.
        let sailed = moved(f);
        let retaken = sailed
            && resolver.iter().enumerate().any(|(r, a)| {
                matches!(a.command, Command::Move { to: t, .. } if map.province_of(t) == o.at)
                    && result.orders[r].outcome == Outcome::Moved
                    && resolver.iter().enumerate().any(|(s, sup)| {
                        matches!(sup.command, Command::SupportMove { from, to: st, .. }
                            if from == a.at && st == o.at)
                            && result.orders[s].outcome == Outcome::Supported
                    })
            });
        if retaken {
            let land = map.province_of(to);
            next.units[land.index()] = None;
            if let Some(d) = next.dislodged[land.index()] {
                if d.attacker_from.is_none() || d.attacker_from == Some(o.at) {
                    next.units[land.index()] = Some(d.unit);
                    next.dislodged[land.index()] = None;
                }
            }
            results[i].outcome = Outcome::StayedAboard;
            if let Some(end) = end_of(f, next) {
                set_kind(next, end, UnitKind::ArmyFleet);
            }
        }
    }

    // Landings at the end of a voyage made this move: the army went ashore, or it stays
    // aboard the army-fleet wherever that ended.
    for i in 0..n {
        let o = given[i];
        if !(matches!(o.command, Command::Disembark { .. }) && is_voyage(i)) {
            continue;
        }
        let Some(c) = carrier_into(map, &given, &early, &o) else {
            continue;
        };
        let landed = moved(i);
        results[i].outcome = if landed {
            Outcome::Landed
        } else {
            Outcome::StayedAboard
        };
        if let Some(end) = end_of(c, next) {
            let kind = if landed {
                UnitKind::Fleet
            } else {
                UnitKind::ArmyFleet
            };
            set_kind(next, end, kind);
        }
    }

    // The fast ferry (rule 1): a national army that did not land stays aboard its fleet,
    // which retreats with it if it was dislodged; the fleet's order was the ferry.
    for i in 0..n {
        let Some(f) = ferried[i] else {
            continue;
        };
        let ferry = stands_for[f].map(|r| result.orders[r]);
        results[f].outcome = match ferry.and_then(|r| r.dislodged) {
            Some(_) => Outcome::Disrupted,
            None => Outcome::Convoyed,
        };
        if moved(i) {
            continue;
        }
        results[i].outcome = match results[i].outcome {
            Outcome::Bounced(_) => Outcome::Aboard,
            _ => Outcome::StayedAboard,
        };
        if let Some(end) = end_of(f, next) {
            set_kind(next, end, UnitKind::ArmyFleet);
        }
    }

    MovementResult {
        orders: results,
        position: result.position,
    }
}
