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

/// An order refused before adjudication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The power that sent it.
    pub power: PowerId,
    /// The order, in canonical form.
    pub order: String,
    /// Why it was refused.
    pub why: String,
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
    // Orders for fleets in free oceans, where several may share a province: in the order
    // given, one for each of the power's fleets there.
    let mut ocean_orders: Vec<(PowerId, ProvinceId, Command, Option<&[ProvinceId]>)> = Vec::new();
    let mut rejections = Vec::new();
    for (power, order) in orders {
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
                    order: order.canonical(map),
                    why,
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
                    .position(|(p, a, _, _)| *p == unit.power && *a == at)
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

/// Matches each portaged fleet's route against the armies' portage orders, once per phase:
/// the route is complete when every province on it holds an army ordered to portage this
/// fleet to the same water (rules 1 and 2), and those orders are marked `on_route`. A route of
/// any length costs one look-up per province.
fn match_portage_routes(map: &Map, ordered: &mut [Ordered], route_of: &[Option<&[ProvinceId]>]) {
    const NOBODY: usize = usize::MAX;
    let mut standing = vec![NOBODY; map.province_count()];
    for (i, o) in ordered.iter().enumerate() {
        if !map.province(o.at).terrain.is_water() {
            standing[o.at.index()] = i;
        }
    }
    let porter = |ordered: &[Ordered], p: ProvinceId, from: ProvinceId, to: ProvinceId| {
        let j = standing[p.index()];
        let fits = j != NOBODY
            && matches!(ordered[j].command, Command::Portage { from: f, to: t, .. } if f == from && t == to);
        fits.then_some(j)
    };
    for (f, route) in route_of.iter().enumerate() {
        let (Some(route), Command::Move { to, .. }) = (route, ordered[f].command) else {
            continue;
        };
        let (from, to) = (ordered[f].at, map.province_of(to));
        if !route
            .iter()
            .all(|&p| porter(ordered, p, from, to).is_some())
        {
            continue;
        }
        for &p in route.iter() {
            if let Some(j) = porter(ordered, p, from, to) {
                if let Command::Portage { on_route, .. } = &mut ordered[j].command {
                    *on_route = true;
                }
            }
        }
        if let Command::Move {
            via: Via::Portage(r),
            ..
        } = &mut ordered[f].command
        {
            r.complete = true;
        }
    }
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
    for (power, order) in orders {
        let Order::DipSupport { target } = order else {
            continue;
        };
        let p = target.at.province;
        let why = if !rules.dip_points {
            Some("dip points are not played in this game".to_string())
        } else if map.is_free_ocean(p) && pos.all_units().any(|(q, _)| q == p) {
            // M.1: fleets enter an ocean without combat, so nobody there is dislodged.
            Some(format!(
                "{} is an ocean: no unit in an ocean is attacked or dislodged, so a standing support there would do nothing; none was bought",
                map.abbr(p)
            ))
        } else if pos.unit_at(p).is_none() || map.is_free_ocean(p) {
            Some(format!("there is no unit in {} to support", map.abbr(p)))
        } else {
            None
        };
        match why {
            None => given.push((*power, p)),
            Some(why) => rejections.push(Rejection {
                power: *power,
                order: order.canonical(map),
                why,
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
) -> Result<(ProvinceId, Command), String> {
    let Order::Unit { at, action, .. } = order else {
        return Err("builds, removals and waives are for adjustment phases".into());
    };
    let here = at.province;
    if let Action::Disembark { to } = action {
        return landing(map, rules, pos, power, here, *to);
    }
    let unit = own_unit(map, pos, power, here)?;
    let command = match action {
        // Landings return above, before the unit check; this keeps the match total.
        Action::Disembark { to } => return landing(map, rules, pos, power, here, *to),
        Action::Convert { coast } => convert(map, rules, unit, here, *coast)?,
        Action::Embark { fleet } => embark(map, rules, pos, unit, here, fleet.province)?,
        Action::Hold => Command::Hold,
        Action::Disband => {
            return Err("a unit on the board can only disband in a retreat phase".into())
        }
        Action::Move { to, via, convoy } => {
            let command = move_command(map, rules, unit, here, *to, via, *convoy)?;
            if let Command::Move {
                via: Via::Convoy, ..
            } = command
            {
                if convoy_fleets_on_board(map, rules, pos, here, to.province).is_empty() {
                    return Err(format!(
                        "no fleets at sea could convoy {} to {}",
                        describe(map, unit),
                        map.abbr(to.province)
                    ));
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
                return Err("a unit cannot support itself".into());
            }
            if map.is_free_ocean(supported) && supported == here && to.is_none() {
                return Err(format!(
                    "{} is an ocean: no unit in an ocean is attacked or dislodged, so a support to hold there does nothing",
                    map.abbr(here)
                ));
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
                return Err(format!(
                    "there is no unit in {} to support",
                    map.abbr(supported)
                ));
            }
            match to {
                None => {
                    if !map.can_reach(unit.kind, unit.region, supported) {
                        return Err(format!(
                            "{} cannot reach {}, so cannot support a unit there",
                            describe(map, unit),
                            map.abbr(supported)
                        ));
                    }
                    Command::SupportHold { target: supported }
                }
                Some(dest) => {
                    if dest.province == supported {
                        return Err("a supported move must go somewhere else".into());
                    }
                    if dest.province == here {
                        return Err(format!(
                            "{} cannot support a move into its own province",
                            describe(map, unit)
                        ));
                    }
                    if !map.can_reach(unit.kind, unit.region, dest.province) {
                        return Err(format!(
                            "{} cannot reach {}, so cannot support a move there",
                            describe(map, unit),
                            map.abbr(dest.province)
                        ));
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
                return Err("portage is not played in this game".into());
            }
            if unit.kind != UnitKind::Army {
                return Err("only armies portage fleets".into());
            }
            let from = target.at.province;
            match pos.unit_at(from) {
                Some(u) if u.kind == UnitKind::Fleet => {}
                _ => {
                    return Err(format!(
                        "there is no fleet in {} to portage",
                        map.abbr(from)
                    ))
                }
            }
            if !map.province(from).terrain.is_water()
                || !map.province(to.province).terrain.is_water()
            {
                return Err("a portage carries a fleet from water to water".into());
            }
            Command::Portage {
                from,
                to: to.province,
                on_route: false,
            }
        }
        Action::Convoy { target, to } => {
            if unit.kind == UnitKind::ArmyFleet {
                return Err("an army-fleet cannot ferry another army".into());
            }
            if unit.kind != UnitKind::Fleet {
                return Err("only fleets convoy".into());
            }
            let terrain = map.province(here).terrain;
            let can = terrain == Terrain::Sea || (terrain == Terrain::Ocean && rules.ocean_convoys);
            if !can {
                return Err(format!(
                    "a fleet in {} cannot convoy: only fleets at sea do",
                    map.abbr(here)
                ));
            }
            let from = target.at.province;
            match pos.unit_at(from) {
                Some(u) if u.kind == UnitKind::Army => {}
                Some(_) => {
                    return Err(format!(
                        "the unit in {} is a fleet; only armies are convoyed",
                        map.abbr(from)
                    ))
                }
                None => return Err(format!("there is no army in {} to convoy", map.abbr(from))),
            }
            if to.province == from {
                return Err("a convoy must take the army somewhere else".into());
            }
            if rules.fast_ferry_only
                && !(map.water_neighbours(here).contains(&from)
                    && map.water_neighbours(here).contains(&to.province))
            {
                return Err(format!(
                    "the fast ferry crosses one sea only: F {} must touch both {} and {} (for a longer voyage, embark the army: A {} E F ...)",
                    map.abbr(here),
                    map.abbr(from),
                    map.abbr(to.province),
                    map.abbr(from)
                ));
            }
            if !convoy_fleets_on_board(map, rules, pos, from, to.province).contains(&here) {
                return Err(format!(
                    "F {} is not needed by any convoy route from {} to {}",
                    map.abbr(here),
                    map.abbr(from),
                    map.abbr(to.province)
                ));
            }
            Command::Convoy {
                from,
                to: to.province,
            }
        }
    };
    Ok((here, command))
}

fn convert(
    map: &Map,
    rules: &Rules,
    unit: Unit,
    here: ProvinceId,
    coast: Option<super::ids::Coast>,
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

fn embark(
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

fn landing(
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
fn ocean_fleet_power(
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

fn own_unit(map: &Map, pos: &Position, power: PowerId, at: ProvinceId) -> Result<Unit, String> {
    if let Some(u) = pos.own_unit_at(at, power) {
        return Ok(u);
    }
    match pos.unit_at(at) {
        None => Err(format!("there is no unit in {}", map.abbr(at))),
        Some(u) if u.power != power => Err(format!("the unit in {} is not yours", map.abbr(at))),
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
) -> Result<Command, String> {
    if to.province == here {
        return Err("a unit cannot move to the province it is in".into());
    }
    let dest = map.province(to.province);
    match unit.kind {
        UnitKind::Army => {
            match dest.terrain {
                Terrain::Sea | Terrain::Ocean => {
                    return Err(format!(
                        "an army cannot move to {}, which is water",
                        dest.abbr
                    ))
                }
                Terrain::Shut => return Err(format!("{} is impassable", dest.abbr)),
                _ => {}
            }
            if let Some(&p) = via.iter().find(|&&p| !map.province(p).terrain.is_water()) {
                return Err(format!(
                    "a convoy route goes by water, and {} is not",
                    map.abbr(p)
                ));
            }
            let adjacent = map.army_adjacent(here, to.province);
            let coastal =
                map.province(here).terrain == Terrain::Coast && dest.terrain == Terrain::Coast;
            let via = match (adjacent, convoy) {
                (_, true) if coastal => Via::Convoy,
                (true, false) => Via::Either,
                (false, false) if coastal => Via::Convoy,
                _ => return Err(format!("{} is not next to {}", dest.abbr, map.abbr(here))),
            };
            Ok(Command::Move { to: dest.main, via })
        }
        UnitKind::Fleet | UnitKind::ArmyFleet => {
            if unit.kind == UnitKind::ArmyFleet && !dest.terrain.is_water() {
                return Err(format!(
                    "an army-fleet moves only at sea: to land its army in {}, order `A {} D {}`",
                    dest.abbr,
                    map.abbr(here),
                    dest.abbr
                ));
            }
            if !via.is_empty() && rules.portage {
                return portage_move(map, unit, here, to, via);
            }
            if convoy {
                return Err("only armies can be convoyed".into());
            }
            match dest.terrain {
                Terrain::Land => {
                    return Err(format!(
                        "a fleet cannot move to {}, which is inland",
                        dest.abbr
                    ))
                }
                Terrain::Shut => return Err(format!("{} is impassable", dest.abbr)),
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
                    Err(format!(
                        "{} cannot reach {}",
                        describe(map, unit),
                        map.region_abbr(region)
                    ))
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
                [] => Err(format!(
                    "{} cannot reach {}",
                    describe(map, unit),
                    dest.abbr
                )),
                _ => Err(format!(
                    "{} has several coasts {} can reach: name one, e.g. {}",
                    dest.abbr,
                    describe(map, unit),
                    map.region_abbr(reachable[0])
                )),
            }
        }
    }
}

/// The provinces of the fleets on the board that some convoy route from `origin` to `dest`
/// needs: each lies on a chain of fleets at sea, from water touching `origin` to water
/// touching `dest`, that has no shortcut. A convoy order from any other fleet is illegal
/// (DATC 4.E.1, 6.G.19), and a move that needs a convoy with no such chain is illegal
/// (6.D.32). Decided from the board alone, before anyone's orders are known. Where the map
/// asks it ([`Map::own_fleets_over_oceans`], M.2), a route through an ocean is of the army's
/// own power's fleets only; a route over seas alone may be of anyone's.
pub fn convoy_fleets_on_board(
    map: &Map,
    rules: &Rules,
    pos: &Position,
    origin: ProvinceId,
    dest: ProvinceId,
) -> Vec<ProvinceId> {
    let afloat: Vec<(ProvinceId, PowerId)> = pos
        .all_units()
        .filter(|(p, u)| {
            let t = map.province(*p).terrain;
            u.kind == UnitKind::Fleet
                && (t == Terrain::Sea || (t == Terrain::Ocean && rules.ocean_convoys))
        })
        .map(|(p, u)| (p, u.power))
        .collect();
    if map.own_fleets_over_oceans() {
        let army = pos.unit_at(origin).map(|u| u.power);
        let at_sea: Vec<ProvinceId> = afloat
            .iter()
            .filter(|(p, _)| map.province(*p).terrain != Terrain::Ocean)
            .map(|&(p, _)| p)
            .collect();
        let own: Vec<ProvinceId> = afloat
            .iter()
            .filter(|(_, power)| Some(*power) == army)
            .map(|&(p, _)| p)
            .collect();
        let mut needed = convoy_chains(map, rules, &at_sea, origin, dest);
        for p in convoy_chains(map, rules, &own, origin, dest) {
            if !needed.contains(&p) {
                needed.push(p);
            }
        }
        return needed;
    }
    let fleets: Vec<ProvinceId> = afloat.into_iter().map(|(p, _)| p).collect();
    convoy_chains(map, rules, &fleets, origin, dest)
}

/// The provinces among `fleets` that lie on a chain from water touching `origin` to water
/// touching `dest` with no shortcut (see [`convoy_fleets_on_board`]).
fn convoy_chains(
    map: &Map,
    rules: &Rules,
    fleets: &[ProvinceId],
    origin: ProvinceId,
    dest: ProvinceId,
) -> Vec<ProvinceId> {
    let touches = |a: ProvinceId, b: ProvinceId| map.water_neighbours(a).contains(&b);
    if rules.fast_ferry_only {
        // The fast ferry crosses one sea: the fleet must touch both shores.
        return fleets
            .iter()
            .copied()
            .filter(|&f| touches(origin, f) && touches(f, dest))
            .collect();
    }
    let mut needed = Vec::new();
    let mut path: Vec<ProvinceId> = Vec::new();
    fn extend(
        fleets: &[ProvinceId],
        touches: &dyn Fn(ProvinceId, ProvinceId) -> bool,
        origin: ProvinceId,
        dest: ProvinceId,
        path: &mut Vec<ProvinceId>,
        needed: &mut Vec<ProvinceId>,
    ) {
        for &f in fleets {
            if path.contains(&f) {
                continue;
            }
            let last = path.last().copied().unwrap_or(origin);
            if !touches(last, f) {
                continue;
            }
            let shortcut = (!path.is_empty() && touches(origin, f))
                || path[..path.len().saturating_sub(1)]
                    .iter()
                    .any(|&q| touches(q, f));
            if shortcut {
                continue;
            }
            path.push(f);
            if touches(f, dest) {
                for &q in path.iter() {
                    if !needed.contains(&q) {
                        needed.push(q);
                    }
                }
            } else {
                extend(fleets, touches, origin, dest, path, needed);
            }
            path.pop();
        }
    }
    extend(fleets, &touches, origin, dest, &mut path, &mut needed);
    needed
}

/// A fleet's move carried over land: from water, through land provinces each next to the
/// last (the first and last off the coast of the water they join), to water.
fn portage_move(
    map: &Map,
    unit: Unit,
    here: ProvinceId,
    to: Loc,
    via: &[ProvinceId],
) -> Result<Command, String> {
    let dest = map.province(to.province);
    if !map.province(here).terrain.is_water() {
        return Err(format!(
            "a portage starts from water, and {} is not",
            map.abbr(here)
        ));
    }
    if !dest.terrain.is_water() {
        return Err(format!("a portage ends on water, and {} is not", dest.abbr));
    }
    if let Some(&p) = via
        .iter()
        .find(|&&p| !matches!(map.province(p).terrain, Terrain::Land | Terrain::Coast))
    {
        return Err(format!(
            "a portage route goes over land, and {} is not land",
            map.abbr(p)
        ));
    }
    let (Some(&first), Some(&last)) = (via.first(), via.last()) else {
        return Err("a portage names the land it crosses".into());
    };
    if !map.water_neighbours(here).contains(&first) {
        return Err(format!(
            "{} is not off the coast of {}",
            map.abbr(here),
            map.abbr(first)
        ));
    }
    if let Some(w) = via.windows(2).find(|w| !map.army_adjacent(w[0], w[1])) {
        return Err(format!(
            "{} and {} are not next to each other",
            map.abbr(w[0]),
            map.abbr(w[1])
        ));
    }
    if !map.water_neighbours(last).contains(&to.province) {
        return Err(format!(
            "{} is not off the coast of {}",
            dest.abbr,
            map.abbr(last)
        ));
    }
    let _ = unit;
    Ok(Command::Move {
        to: dest.main,
        via: Via::Portage(Route { complete: false }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::order::parse_order;
    use crate::game::variant::Variant;

    fn screen(texts: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
        let v = Variant::standard();
        let map = &v.map;
        let pos = Position::initial(map, v.calendar.start);
        let orders: Vec<(PowerId, Order)> = texts
            .iter()
            .map(|(power, text)| {
                (
                    map.power_by_word(power).unwrap(),
                    parse_order(map, text).unwrap(),
                )
            })
            .collect();
        let (ordered, rejected) = screen_movement(map, &v.rules, &pos, &orders);
        let commands = ordered
            .iter()
            .filter(|o| o.command != Command::Hold)
            .map(|o| format!("{} {:?}", map.abbr(o.at), o.command))
            .collect();
        (
            commands,
            rejected
                .into_iter()
                .map(|r| format!("{}: {}", r.order, r.why))
                .collect(),
        )
    }

    #[test]
    fn the_last_order_for_a_unit_wins() {
        let (commands, rejected) = screen(&[("France", "A Par-Bur"), ("France", "A Par-Pic")]);
        assert!(rejected.is_empty());
        assert_eq!(commands.len(), 1);
        assert!(commands[0].starts_with("Par Move"), "{commands:?}");
    }

    #[test]
    fn illegal_orders_are_refused_with_the_reason() {
        let (_, rejected) = screen(&[
            ("Germany", "F Kie-Mun"),
            ("Germany", "A Mun-Par"),
            ("France", "A Mun-Ruh"),
            ("France", "A Pic-Bel"),
            ("England", "Build F Lon"),
            ("England", "A Lvp-Iri"),
            ("Italy", "A Ven S A Ven"),
            ("Russia", "F Sev C A Mos-Ank"),
            ("Turkey", "F Ank-Bul"),
        ]);
        assert_eq!(
            rejected,
            [
                "F Kie - Mun: a fleet cannot move to Mun, which is inland",
                "A Mun - Par: Par is not next to Mun",
                "A Mun - Ruh: the unit in Mun is not yours",
                "A Pic - Bel: there is no unit in Pic",
                "Build F Lon: builds, removals and waives are for adjustment phases",
                "A Lvp - Iri: an army cannot move to Iri, which is water",
                "A Ven S A Ven: a unit cannot support itself",
                "F Sev C A Mos - Ank: a fleet in Sev cannot convoy: only fleets at sea do",
                "F Ank - Bul: F Ank cannot reach Bul",
            ]
        );
    }

    #[test]
    fn a_wrong_unit_kind_is_ignored_and_the_unit_moves() {
        // DATC 4.C.2: Constantinople holds an army; "F Con" still orders it.
        let (commands, rejected) = screen(&[("Turkey", "F Con-Bul")]);
        assert!(rejected.is_empty(), "{rejected:?}");
        assert_eq!(commands.len(), 1);
    }
}
