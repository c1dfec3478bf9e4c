//! Deluge's orders around the resolver: conversion, and the Abstraction A/F rules (boarding,
//! army-fleets, landings, the fast ferry's failed landing).
//!
//! [`prepare`] turns the screened orders into ones the Kruijswijk resolver knows: a
//! conversion holds; a valid embarkation takes the army off the land (its fleet becomes the
//! army-fleet) and an invalid one holds; an army-fleet landing its army becomes two orders,
//! the fleet's and the army's landing (`Via::Landing`). [`settle`] then reads the resolution
//! back: fleets that carry an army become army-fleets, converted armies become fleets, armies
//! land at the end of a voyage, and a fast-ferried army that failed to land stays aboard a
//! fleet of its own power.
//!
//! The rules read sequentially ("before making a move", "then") where a Diplomacy move is
//! simultaneous; herald's readings, listed in docs/variants.md (Deluge II), are:
//! - boarding fails if the fleet supports or convoys, or if any unit is ordered into the
//!   fleet's sea from another sea, whatever becomes of that move (rule 3);
//! - an army-fleet at sea landing its army attacks the coast like a convoyed army (no
//!   head-to-head), with its fleet's support if ordered; the landing fails if the fleet,
//!   staying, is dislodged; a fleet ordered on after landing sails only if the landing
//!   succeeds, and if its vacated sea is then taken by a supported unit the landing is undone
//!   and the army sails on with the fleet (rule 4);
//! - an army that lands at the end of a voyage made in the same move (`A Mar E F Lyo`,
//!   `A/F Lyo - Wms`, `A Wms D Tun`) goes ashore only into a province the move left empty
//!   and not fought over; otherwise it stays aboard.

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
pub fn prepare(map: &Map, pos: &Position, given: Vec<Ordered>) -> Plan {
    let n = given.len();
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
        match o.command {
            Command::Convert { .. } => r.command = Command::Hold,
            Command::Embark { .. } if early[i].is_some() => r.command = Command::Hold,
            Command::Embark { .. } => continue,
            Command::Disembark { to } => {
                let from_start = pos
                    .unit_at(o.at)
                    .is_some_and(|u| u.kind == UnitKind::ArmyFleet && u.power == o.unit.power);
                if !from_start {
                    // A landing at the end of this move's voyage, settled afterwards.
                    if carrier_into(map, &given, &early, o).is_none() {
                        early[i] = Some(Outcome::NoShip);
                    }
                    continue;
                }
                r.command = Command::Move {
                    to,
                    via: Via::Landing,
                };
            }
            _ => {}
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
        resolver,
    }
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
pub fn settle(map: &Map, rules: &Rules, plan: Plan, mut result: MovementResult) -> MovementResult {
    let Plan {
        given,
        stands_for,
        early,
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

    // Landings at the end of a voyage made this move.
    for i in 0..n {
        let o = given[i];
        let (Command::Disembark { to }, None, None) = (o.command, stands_for[i], early[i]) else {
            continue;
        };
        let Some(c) = carrier_into(map, &given, &early, &o) else {
            results[i].outcome = Outcome::NoShip;
            continue;
        };
        let arrived = moved(c);
        let land = map.province_of(to);
        if arrived && next.units[land.index()].is_none() && !next.contested[land.index()] {
            next.units[land.index()] = Some(Unit {
                power: o.unit.power,
                kind: UnitKind::Army,
                region: to,
            });
            if let Some(u) = next.units[o.at.index()].as_mut() {
                u.kind = UnitKind::Fleet;
            }
            results[i].outcome = Outcome::Landed;
        } else {
            results[i].outcome = Outcome::StayedAboard;
        }
    }

    // The fast ferry: a national army that failed to land stays aboard (rule 1).
    if rules.army_fleets {
        for i in 0..n {
            let o = given[i];
            let Command::Move { to, .. } = o.command else {
                continue;
            };
            if o.unit.kind != UnitKind::Army || !matches!(results[i].outcome, Outcome::Bounced(_)) {
                continue;
            }
            let dest = map.province_of(to);
            let ferry = given.iter().enumerate().find(|(k, c)| {
                matches!(c.command, Command::Convoy { from, to: t } if from == o.at && t == dest)
                    && results[*k].outcome == Outcome::Convoyed
            });
            let Some((_, f)) = ferry else {
                continue;
            };
            let army_home = next.units[o.at.index()].is_some_and(|u| u == o.unit);
            let fleet_there = next.units[f.at.index()]
                .is_some_and(|u| u.power == o.unit.power && u.kind == UnitKind::Fleet);
            if f.unit.power == o.unit.power && army_home && fleet_there {
                next.units[o.at.index()] = None;
                if let Some(u) = next.units[f.at.index()].as_mut() {
                    u.kind = UnitKind::ArmyFleet;
                }
                results[i].outcome = Outcome::Aboard;
            }
        }
    }

    MovementResult {
        orders: results,
        position: result.position,
    }
}
