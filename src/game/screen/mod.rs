//! Screening: orders checked against the board before adjudication. What passes becomes a
//! [`Command`] for the resolver; what fails becomes a [`Rejection`] that names the order and
//! why, and the unit is treated as unordered (it holds, or in a retreat phase disbands).
//! A portaged fleet's route, which may be of any length, is matched here against the armies'
//! portage orders, so that every command stays a small `Copy` value.
//!
//! The DATC v3.0 preferences decide the lenient cases: a wrong or missing unit type or
//! nationality is ignored (4.C.1, 4.C.2, 4.C.5, 4.C.6), a wrong coast of the ordered unit is
//! ignored (4.B.5), an unknown or irrelevant coast is ignored (4.B.6), a missing coast is
//! filled in when only one is reachable (4.B.2), an impossible coast is illegal (4.B.3).

use super::ids::{PowerId, ProvinceId, RegionId, UnitKind};
use super::map::{Map, Terrain};
use super::order::{Action, Loc, Order, Target};
use super::position::{Position, Unit};
use super::rules::Rules;

mod afloat;
mod refusal;
mod routes;

use afloat::{convert, embark, landing, ocean_fleet_power};
pub use refusal::Refusal;
pub use routes::convoy_fleets_on_board;
use routes::{match_portage_routes, portage_move};

/// A portaged fleet's route, as matched against the armies' orders. The route the fleet's
/// order names may be of any length (rule 2 sets no limit); [`screen_movement`], which holds
/// every order, matches it once, so the resolver reads a flag here and on each army's
/// [`Command::Portage`] instead of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// Every province of the route holds an army ordered to portage this fleet to its
    /// destination; each of those orders is marked `on_route`.
    pub complete: bool,
}

/// How a move travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// Over land.
    Land,
    /// By convoy, asked for or needed.
    Convoy,
    /// Adjacent and not asked: by convoy only if a fleet of its own power convoys it
    /// (2000 rules, DATC 4.A.3).
    Either,
    /// A fleet carried over land by armies along this route (the portage rule).
    Portage(Route),
    /// An army landing from the army-fleet it rides in the order's sea (Abstraction rules).
    /// The fleet stays the unit of that sea; the landing fails if the fleet, staying, is
    /// dislodged.
    Landing,
    /// An army landing at the end of the voyage its army-fleet makes this move, from the
    /// sea the army-fleet sails into (Abstraction rules): it goes only if the army-fleet
    /// arrives. Made by the Deluge layer (`resolve::afloat`), never by screening.
    Voyage,
}

/// A checked movement-phase order for the resolver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Hold (also every unordered or illegally ordered unit).
    Hold,
    /// Move to a region.
    Move {
        /// The destination region.
        to: RegionId,
        /// How it travels.
        via: Via,
    },
    /// Support the unit in `target` to hold.
    SupportHold {
        /// The supported unit's province.
        target: ProvinceId,
    },
    /// Support the unit in `from` moving to `to` (a coast, if the order named one).
    SupportMove {
        /// The supported unit's province.
        from: ProvinceId,
        /// The destination province.
        to: ProvinceId,
        /// The coast the support names, if any; it must match the move's.
        coast: Option<RegionId>,
        /// In a free ocean, where several fleets may share `from`, the power whose fleet
        /// there is supported (screening settles it: the nationality written, else the
        /// supporter's own fleet, else the one power's fleet there); None elsewhere.
        power: Option<PowerId>,
    },
    /// Convoy the army in `from` to `to`.
    Convoy {
        /// The convoyed army's province.
        from: ProvinceId,
        /// Its destination province.
        to: ProvinceId,
    },
    /// Portage the fleet in `from` over this army's province to `to`.
    Portage {
        /// The carried fleet's province (water).
        from: ProvinceId,
        /// Its destination (water).
        to: ProvinceId,
        /// The fleet's order names a complete route through this army's province (set by
        /// [`screen_movement`]): only then does the portage carry it.
        on_route: bool,
    },
    /// Turn this army into a fleet standing on `to` (Deluge).
    Convert {
        /// The fleet's region.
        to: RegionId,
    },
    /// Board the fleet of the same power in `fleet` (Abstraction rules).
    Embark {
        /// The fleet's sea.
        fleet: ProvinceId,
    },
    /// Land the army aboard the army-fleet in this order's province (where it is at the start,
    /// or where it arrives this move) in `to` (Abstraction rules).
    Disembark {
        /// The landing's region (the province's main region).
        to: RegionId,
    },
}

/// A unit with its checked order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ordered {
    /// The unit's province.
    pub at: ProvinceId,
    /// The unit.
    pub unit: Unit,
    /// What it does.
    pub command: Command,
}

/// An order refused before adjudication: which of the orders given it was (its index
/// among them), whose, and why, as a kind to match on (issue 26: "rejections carry a
/// matchable kind and quote the input once in `Display`"). `Display` quotes the order once,
/// then says why: `A Par - Lon: Lon is not next to Par`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection<K = Refusal> {
    /// The power that sent it.
    pub power: PowerId,
    /// Its index in the orders given to the check that refused it.
    pub index: usize,
    /// The order, in canonical form, as the results quote it.
    pub order: String,
    /// Why it was refused.
    pub kind: K,
}

impl<K> Rejection<K> {
    /// The same rejection with its kind turned into another (a phase's kinds into one).
    pub fn map_kind<L>(self, f: impl FnOnce(K) -> L) -> Rejection<L> {
        Rejection {
            power: self.power,
            index: self.index,
            order: self.order,
            kind: f(self.kind),
        }
    }
}

impl<K: std::fmt::Display> std::fmt::Display for Rejection<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.order, self.kind)
    }
}

/// Checks every power's movement orders against the board. The last order for a unit wins.
/// Returns one [`Ordered`] per unit on the board, in province order, and the rejections.
pub fn screen_movement(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    orders: &[(PowerId, Order)],
) -> (Vec<Ordered>, Vec<Rejection>) {
    let mut commands: Vec<Option<Command>> = vec![None; map.province_count()];
    // The route each portaged fleet's order names, beside its command (matched below).
    let mut routes: Vec<Option<&[ProvinceId]>> = Vec::new();
    let mut landings: Vec<Option<(PowerId, Command)>> = Vec::new();
    // Orders for fleets in free oceans, where several may share a province: one for each of
    // the power's fleets there, the newest ones kept (as a later order replaces an earlier
    // one for any other unit, and as the judge keeps them on file).
    let mut ocean_orders: Vec<(PowerId, ProvinceId, Command, Option<&[ProvinceId]>)> = Vec::new();
    let mut rejections = Vec::new();
    for (index, (power, order)) in orders.iter().enumerate() {
        if matches!(order, Order::DipSupport { .. }) {
            // Checked apart: see `screen_dip_supports`.
            continue;
        }
        let checked = check_one(map, rules, pos, *power, order);
        let route = match (&checked, order) {
            (
                Ok((
                    _,
                    Command::Move {
                        via: Via::Portage(_),
                        ..
                    },
                )),
                Order::Unit {
                    action: Action::Move { via, .. },
                    ..
                },
            ) => Some(via.as_slice()),
            _ => None,
        };
        if route.is_some() && routes.is_empty() {
            routes = vec![None; map.province_count()];
        }
        match checked {
            Ok((at, command)) if map.is_free_ocean(at) => {
                ocean_orders.push((*power, at, command, route));
            }
            Ok((at, command @ Command::Disembark { .. })) => {
                if landings.is_empty() {
                    landings = vec![None; map.province_count()];
                }
                landings[at.index()] = Some((*power, command));
            }
            Ok((at, command)) => {
                commands[at.index()] = Some(command);
                if !routes.is_empty() {
                    routes[at.index()] = route;
                }
            }
            Err(why) => {
                if let Some(at) = order.province() {
                    if pos.unit_at(at).is_some_and(|u| u.power == *power) {
                        commands[at.index()] = None;
                        if !routes.is_empty() {
                            routes[at.index()] = None;
                        }
                    }
                }
                rejections.push(Rejection {
                    power: *power,
                    index,
                    order: order.canonical(map),
                    kind: *why,
                })
            }
        }
    }
    // Each ordered unit's portage route, if it has one (empty when nobody portages).
    let mut route_of: Vec<Option<&[ProvinceId]>> = Vec::new();
    let mut ordered: Vec<Ordered> = pos
        .all_units()
        .map(|(at, unit)| {
            let (command, route) = if map.is_free_ocean(at) {
                ocean_orders
                    .iter()
                    .rposition(|(p, a, _, _)| *p == unit.power && *a == at)
                    .map(|k| {
                        let (_, _, command, route) = ocean_orders.remove(k);
                        (Some(command), route)
                    })
                    .unwrap_or((None, None))
            } else {
                (
                    commands[at.index()],
                    routes.get(at.index()).copied().flatten(),
                )
            };
            if !routes.is_empty() {
                route_of.push(route);
            }
            Ordered {
                at,
                unit,
                command: command.unwrap_or(Command::Hold),
            }
        })
        .collect();
    if !routes.is_empty() {
        match_portage_routes(map, &mut ordered, &route_of);
    }
    // Landings come after the units, one per sea: the army aboard is ordered apart from its
    // fleet (`A Eng D Bre` beside `F Eng - Nth`).
    for (i, landing) in landings.iter().enumerate() {
        if let Some((power, command)) = *landing {
            let at = ProvinceId(i as u16);
            ordered.push(Ordered {
                at,
                unit: Unit {
                    power,
                    kind: UnitKind::Army,
                    region: map.province(at).main,
                },
                command,
            });
        }
    }
    (ordered, rejections)
}

/// Checks the standing supports bought with dip points (`4 DIPS S A Lon`): the game must
/// play dip points and a unit must stand there. Returns the supported provinces, one entry
/// per support (two supports on one unit count twice), with who bought each.
pub fn screen_dip_supports(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    orders: &[(PowerId, Order)],
) -> (Vec<(PowerId, ProvinceId)>, Vec<Rejection>) {
    let mut given = Vec::new();
    let mut rejections = Vec::new();
    for (index, (power, order)) in orders.iter().enumerate() {
        let Order::DipSupport { target, to } = order else {
            continue;
        };
        let p = target.at.province;
        let why = if !rules.dip_points {
            Some(Refusal::NoDipPoints)
        } else if let Some(to) = to {
            // D.2: "4 Dips to support a unit that is standing".
            Some(Refusal::DipSupportOfMove {
                unit: target.show(map),
                to: to.show(map),
            })
        } else if map.is_free_ocean(p) && pos.all_units().any(|(q, _)| q == p) {
            // M.1: fleets enter an ocean without combat, so nobody there is dislodged.
            Some(Refusal::OceanStandingSupport(abbr(map, p)))
        } else if pos.unit_at(p).is_none() || map.is_free_ocean(p) {
            Some(Refusal::NothingToSupport(abbr(map, p)))
        } else {
            None
        };
        match why {
            None => given.push((*power, p)),
            Some(kind) => rejections.push(Rejection {
                power: *power,
                index,
                order: order.canonical(map),
                kind,
            }),
        }
    }
    (given, rejections)
}

fn check_one(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    power: PowerId,
    order: &Order,
) -> Result<(ProvinceId, Command), Box<Refusal>> {
    let Order::Unit { at, action, .. } = order else {
        return Err(Box::new(Refusal::AdjustmentOrder));
    };
    let here = at.province;
    if let Action::Disembark { to } = action {
        return Ok(landing(map, rules, pos, power, here, *to)?);
    }
    let unit = own_unit(map, pos, power, here)?;
    let command = match action {
        // Landings return above, before the unit check; this keeps the match total.
        Action::Disembark { to } => return Ok(landing(map, rules, pos, power, here, *to)?),
        Action::Convert { coast } => convert(map, rules, unit, here, *coast)?,
        Action::Embark { fleet } => embark(map, rules, pos, unit, here, fleet.province)?,
        Action::Hold => Command::Hold,
        Action::Disband => return Err(Box::new(Refusal::DisbandOnBoard)),
        Action::Move { to, via, convoy } => {
            let command = move_command(map, rules, unit, here, *to, via, *convoy)?;
            if let Command::Move {
                via: Via::Convoy, ..
            } = command
            {
                if convoy_fleets_on_board(map, rules, pos, here, to.province).is_empty() {
                    return Err(Box::new(Refusal::NoConvoyingFleets {
                        unit: describe(map, unit),
                        to: abbr(map, to.province),
                    }));
                }
            }
            command
        }
        Action::Support { target, to } => {
            let supported = target.at.province;
            // An army-fleet's fleet may support its own army's landing (Abstraction rule 3).
            let own_landing = unit.kind == UnitKind::ArmyFleet && to.is_some();
            // Fleets share a free ocean (M.1): one may support another's move out of it.
            let shared = map.is_free_ocean(supported) && to.is_some();
            if supported == here && !own_landing && !shared {
                return Err(Box::new(Refusal::SupportsItself));
            }
            if map.is_free_ocean(supported) && supported == here && to.is_none() {
                return Err(Box::new(Refusal::OceanHoldSupport(abbr(map, here))));
            }
            let ocean_power = match to {
                Some(dest) if shared => Some(ocean_fleet_power(
                    map,
                    pos,
                    power,
                    here,
                    *target,
                    dest.province,
                )?),
                _ => None,
            };
            if pos.unit_at(supported).is_none() {
                return Err(Box::new(Refusal::NothingToSupport(abbr(map, supported))));
            }
            match to {
                None => {
                    if !map.can_reach(unit.kind, unit.region, supported) {
                        return Err(Box::new(Refusal::CannotSupportThere {
                            unit: describe(map, unit),
                            to: abbr(map, supported),
                        }));
                    }
                    Command::SupportHold { target: supported }
                }
                Some(dest) => {
                    if dest.province == supported {
                        return Err(Box::new(Refusal::SupportedMoveGoesNowhere));
                    }
                    if dest.province == here {
                        return Err(Box::new(Refusal::SupportIntoOwnProvince(describe(
                            map, unit,
                        ))));
                    }
                    if !map.can_reach(unit.kind, unit.region, dest.province) {
                        return Err(Box::new(Refusal::CannotSupportMoveThere {
                            unit: describe(map, unit),
                            to: abbr(map, dest.province),
                        }));
                    }
                    let coast = dest.coast.and_then(|c| map.coast_region(dest.province, c));
                    Command::SupportMove {
                        from: supported,
                        to: dest.province,
                        coast,
                        power: ocean_power,
                    }
                }
            }
        }
        Action::Portage { target, to } => {
            if !rules.portage {
                return Err(Box::new(Refusal::NoPortageRule));
            }
            if unit.kind != UnitKind::Army {
                return Err(Box::new(Refusal::OnlyArmiesPortage));
            }
            let from = target.at.province;
            match pos.unit_at(from) {
                Some(u) if u.kind == UnitKind::Fleet => {}
                _ => return Err(Box::new(Refusal::NoFleetToPortage(abbr(map, from)))),
            }
            if !map.province(from).terrain.is_water()
                || !map.province(to.province).terrain.is_water()
            {
                return Err(Box::new(Refusal::PortageNotWater));
            }
            Command::Portage {
                from,
                to: to.province,
                on_route: false,
            }
        }
        Action::Convoy { target, to } => {
            if unit.kind == UnitKind::ArmyFleet {
                return Err(Box::new(Refusal::ArmyFleetFerries));
            }
            if unit.kind != UnitKind::Fleet {
                return Err(Box::new(Refusal::OnlyFleetsConvoy));
            }
            let terrain = map.province(here).terrain;
            let can = terrain == Terrain::Sea || (terrain == Terrain::Ocean && rules.ocean_convoys);
            if !can {
                return Err(Box::new(Refusal::NotAtSea(abbr(map, here))));
            }
            let from = target.at.province;
            match pos.unit_at(from) {
                Some(u) if u.kind == UnitKind::Army => {}
                Some(_) => return Err(Box::new(Refusal::ConvoyOfFleet(abbr(map, from)))),
                None => return Err(Box::new(Refusal::NoArmyToConvoy(abbr(map, from)))),
            }
            if to.province == from {
                return Err(Box::new(Refusal::ConvoyGoesNowhere));
            }
            if rules.fast_ferry_only
                && !(map.water_neighbours(here).contains(&from)
                    && map.water_neighbours(here).contains(&to.province))
            {
                return Err(Box::new(Refusal::FastFerryOneSea {
                    fleet: abbr(map, here),
                    from: abbr(map, from),
                    to: abbr(map, to.province),
                }));
            }
            if !convoy_fleets_on_board(map, rules, pos, from, to.province).contains(&here) {
                return Err(Box::new(Refusal::ConvoyNotNeeded {
                    fleet: abbr(map, here),
                    from: abbr(map, from),
                    to: abbr(map, to.province),
                }));
            }
            Command::Convoy {
                from,
                to: to.province,
            }
        }
    };
    Ok((here, command))
}

fn own_unit(
    map: &Map,
    pos: &Position,
    power: PowerId,
    at: ProvinceId,
) -> Result<Unit, Box<Refusal>> {
    if let Some(u) = pos.own_unit_at(at, power) {
        return Ok(u);
    }
    match pos.unit_at(at) {
        None => Err(Box::new(Refusal::NoUnit(abbr(map, at)))),
        Some(u) if u.power != power => Err(Box::new(Refusal::NotYours(abbr(map, at)))),
        Some(u) => Ok(u),
    }
}

/// `A Par`, `F Stp/sc`.
pub fn describe(map: &Map, unit: Unit) -> String {
    format!("{} {}", unit.kind.code(), map.region_abbr(unit.region))
}

fn move_command(
    map: &Map,
    rules: &Rules,
    unit: Unit,
    here: ProvinceId,
    to: Loc,
    via: &[ProvinceId],
    convoy: bool,
) -> Result<Command, Box<Refusal>> {
    if to.province == here {
        return Err(Box::new(Refusal::MoveInPlace));
    }
    let dest = map.province(to.province);
    match unit.kind {
        UnitKind::Army => {
            match dest.terrain {
                Terrain::Sea | Terrain::Ocean => {
                    return Err(Box::new(Refusal::ArmyToWater(dest.abbr.clone())))
                }
                Terrain::Shut => return Err(Box::new(Refusal::Impassable(dest.abbr.clone()))),
                _ => {}
            }
            if let Some(&p) = via.iter().find(|&&p| !map.province(p).terrain.is_water()) {
                return Err(Box::new(Refusal::RouteNotWater(abbr(map, p))));
            }
            let adjacent = map.army_adjacent(here, to.province);
            let coastal =
                map.province(here).terrain == Terrain::Coast && dest.terrain == Terrain::Coast;
            let via = match (adjacent, convoy) {
                (_, true) if coastal => Via::Convoy,
                (true, false) => Via::Either,
                (false, false) if coastal => Via::Convoy,
                _ => {
                    return Err(Box::new(Refusal::NotAdjacent {
                        to: dest.abbr.clone(),
                        from: abbr(map, here),
                    }))
                }
            };
            Ok(Command::Move { to: dest.main, via })
        }
        UnitKind::Fleet | UnitKind::ArmyFleet => {
            if unit.kind == UnitKind::ArmyFleet && !dest.terrain.is_water() {
                return Err(Box::new(Refusal::ArmyFleetToLand {
                    to: dest.abbr.clone(),
                    from: abbr(map, here),
                }));
            }
            if !via.is_empty() && rules.portage {
                return Ok(portage_move(map, unit, here, to, via)?);
            }
            if convoy {
                return Err(Box::new(Refusal::ConvoyedFleet));
            }
            match dest.terrain {
                Terrain::Land => return Err(Box::new(Refusal::FleetInland(dest.abbr.clone()))),
                Terrain::Shut => return Err(Box::new(Refusal::Impassable(dest.abbr.clone()))),
                _ => {}
            }
            let named = to.coast.and_then(|c| map.coast_region(to.province, c));
            if let Some(region) = named {
                return if map.fleet_adjacent(unit.region, region) {
                    Ok(Command::Move {
                        to: region,
                        via: Via::Land,
                    })
                } else {
                    Err(Box::new(Refusal::CannotReach {
                        unit: describe(map, unit),
                        to: map.region_abbr(region),
                    }))
                };
            }
            let reachable: Vec<RegionId> = map
                .standable(UnitKind::Fleet, to.province)
                .into_iter()
                .filter(|&r| map.fleet_adjacent(unit.region, r))
                .collect();
            match reachable[..] {
                [region] => Ok(Command::Move {
                    to: region,
                    via: Via::Land,
                }),
                [] => Err(Box::new(Refusal::CannotReach {
                    unit: describe(map, unit),
                    to: dest.abbr.clone(),
                })),
                _ => Err(Box::new(Refusal::CoastUnsaid {
                    to: dest.abbr.clone(),
                    unit: describe(map, unit),
                    example: map.region_abbr(reachable[0]),
                })),
            }
        }
    }
}

/// A province's abbreviation, for a [`Refusal`].
fn abbr(map: &Map, p: ProvinceId) -> String {
    map.abbr(p).to_string()
}

#[cfg(test)]
mod tests;
