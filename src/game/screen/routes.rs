//! Screening routes over several spaces: which fleets can carry a convoyed army, and the
//! armies that carry a fleet over land (portage).

use super::*;

/// Why a fleet's move over land (portage) was refused. Names are the map's abbreviations.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PortageError {
    /// The fleet is not on water.
    #[error("a portage starts from water, and {here} is not")]
    NotFromWater {
        /// The fleet's province.
        here: String,
    },
    /// The destination is not water.
    #[error("a portage ends on water, and {dest} is not")]
    NotToWater {
        /// The destination.
        dest: String,
    },
    /// The route crosses something that is not land.
    #[error("a portage route goes over land, and {province} is not land")]
    NotLand {
        /// The province of the route that is not land.
        province: String,
    },
    /// The route names no land.
    #[error("a portage names the land it crosses")]
    NoLand,
    /// An end of the route does not touch the water it joins.
    #[error("{water} is not off the coast of {land}")]
    NotOffTheCoast {
        /// The water.
        water: String,
        /// The land at that end of the route.
        land: String,
    },
    /// Two provinces of the route are not neighbours.
    #[error("{a} and {b} are not next to each other")]
    NotNeighbours {
        /// One province.
        a: String,
        /// The next.
        b: String,
    },
}

/// Matches each portaged fleet's route against the armies' portage orders, once per phase:
/// the route is complete when every province on it holds an army ordered to portage this
/// fleet to the same water (rules 1 and 2), and those orders are marked `on_route`. A route of
/// any length costs one look-up per province.
pub(super) fn match_portage_routes(
    map: &Map,
    ordered: &mut [Ordered],
    route_of: &[Option<&[ProvinceId]>],
) {
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

/// The provinces of the fleets on the board that some convoy route from `origin` to `dest`
/// needs: each lies on a chain of fleets at sea, from water touching `origin` to water
/// touching `dest`, that has no shortcut. A convoy order from any other fleet is illegal
/// (DATC 4.E.1, 6.G.19), and a move that needs a convoy with no such chain is illegal
/// (6.D.32). Decided from the board alone, before anyone's orders are known. Where the map
/// asks it ([`Map::own_fleets_over_oceans`], M.2), a route through an ocean is of the fleets
/// of the army's player only (any power she holds, by [`Rules::partners`]); a route over seas
/// alone may be of anyone's.
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
            .filter(|(_, power)| army.is_some_and(|a| rules.partners.same(a, *power)))
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
pub(super) fn convoy_chains(
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
pub(super) fn portage_move(
    map: &Map,
    unit: Unit,
    here: ProvinceId,
    to: Loc,
    via: &[ProvinceId],
) -> Result<Command, PortageError> {
    let dest = map.province(to.province);
    let abbr = |p: ProvinceId| map.abbr(p).to_string();
    if !map.province(here).terrain.is_water() {
        return Err(PortageError::NotFromWater { here: abbr(here) });
    }
    if !dest.terrain.is_water() {
        return Err(PortageError::NotToWater {
            dest: dest.abbr.clone(),
        });
    }
    if let Some(&p) = via
        .iter()
        .find(|&&p| !matches!(map.province(p).terrain, Terrain::Land | Terrain::Coast))
    {
        return Err(PortageError::NotLand { province: abbr(p) });
    }
    let (Some(&first), Some(&last)) = (via.first(), via.last()) else {
        return Err(PortageError::NoLand);
    };
    if !map.water_neighbours(here).contains(&first) {
        return Err(PortageError::NotOffTheCoast {
            water: abbr(here),
            land: abbr(first),
        });
    }
    if let Some(w) = via.windows(2).find(|w| !map.army_adjacent(w[0], w[1])) {
        return Err(PortageError::NotNeighbours {
            a: abbr(w[0]),
            b: abbr(w[1]),
        });
    }
    if !map.water_neighbours(last).contains(&to.province) {
        return Err(PortageError::NotOffTheCoast {
            water: dest.abbr.clone(),
            land: abbr(last),
        });
    }
    let _ = unit;
    Ok(Command::Move {
        to: dest.main,
        via: Via::Portage(Route { complete: false }),
    })
}
