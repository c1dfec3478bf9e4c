//! The resolver built for one phase: every order indexed by province, supports, convoys,
//! portage routes and landings linked once, so that resolution itself only looks things up.

use super::*;
use crate::game::ids::UnitKind;

impl<'a> Resolver<'a> {
    pub(super) fn new(
        map: &'a Map,
        orders: &'a [Ordered],
        edition: Edition,
        partners: &'a Partners,
    ) -> Resolver<'a> {
        let n = orders.len();
        let np = map.province_count();
        let is_landing = |o: &Ordered| {
            matches!(
                o.command,
                Command::Move {
                    via: Via::Landing | Via::Voyage,
                    ..
                }
            )
        };
        let mut at = vec![NONE; np];
        let mut landing_from = Vec::new();
        for (i, o) in orders.iter().enumerate() {
            if is_landing(o) {
                if landing_from.is_empty() {
                    landing_from = vec![NONE; np];
                }
                landing_from[o.at.index()] = i as u16;
            } else if !map.is_free_ocean(o.at) {
                // Fleets in a free ocean share it; none of them holds it (rule M.1).
                at[o.at.index()] = i as u16;
            }
        }
        let mut dest = vec![NONE; n];
        for (i, o) in orders.iter().enumerate() {
            if let Command::Move { to, .. } = o.command {
                dest[i] = map.province_of(to).0;
            }
        }
        // Each landing's carrier: the army-fleet in its sea, or the one of its power sailing
        // into that sea this move (a voyage's end).
        let mut carrier = Vec::new();
        if !landing_from.is_empty() {
            carrier = vec![NONE; n];
            for (l, o) in orders.iter().enumerate() {
                carrier[l] = match o.command {
                    Command::Move {
                        via: Via::Landing, ..
                    } => at[o.at.index()],
                    Command::Move {
                        via: Via::Voyage, ..
                    } => (0..n)
                        .find(|&c| {
                            dest[c] == o.at.0
                                && !is_landing(&orders[c])
                                && orders[c].unit.power == o.unit.power
                                && orders[c].unit.kind == UnitKind::ArmyFleet
                        })
                        .map_or(NONE, |c| c as u16),
                    _ => NONE,
                };
            }
        }
        let convoy_order_for = |i: usize, same_power: bool| {
            orders.iter().any(|c| {
                matches!(c.command, Command::Convoy { from, to } if from == orders[i].at && to.0 == dest[i])
                    && (!same_power || c.unit.power == orders[i].unit.power)
            })
        };
        // Portage tables are built only when some fleet is carried over land.
        let has_portage = orders.iter().any(|o| {
            matches!(
                o.command,
                Command::Move {
                    via: Via::Portage(_),
                    ..
                }
            )
        });
        let portaged: Vec<bool> = if has_portage {
            orders
                .iter()
                .map(|o| {
                    matches!(
                        o.command,
                        Command::Move {
                            via: Via::Portage(_),
                            ..
                        }
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        let is_portaged = |i: usize| has_portage && portaged[i];
        let convoyed: Vec<bool> = orders
            .iter()
            .enumerate()
            .map(|(i, o)| match o.command {
                Command::Move {
                    via: Via::Convoy | Via::Landing | Via::Voyage,
                    ..
                } => true,
                Command::Move {
                    via: Via::Either, ..
                } => convoy_order_for(i, true),
                _ => is_portaged(i),
            })
            .collect();
        let mut route_broken = if has_portage {
            vec![false; n]
        } else {
            Vec::new()
        };
        // Screening matched each route to the armies on it (`on_route`); a route of any
        // length costs one pair per army here.
        let mut porter_pairs = Vec::new();
        for (m, o) in orders.iter().enumerate().filter(|_| has_portage) {
            if let Command::Move {
                via: Via::Portage(route),
                ..
            } = o.command
            {
                route_broken[m] = !route.complete;
            }
        }
        for (j, o) in orders.iter().enumerate().filter(|_| has_portage) {
            let Command::Portage {
                from,
                to,
                on_route: true,
            } = o.command
            else {
                continue;
            };
            let carries = |m: usize| {
                orders[m].at == from && dest[m] == to.0 && portaged[m] && !route_broken[m]
            };
            if map.is_free_ocean(from) {
                // Fleets share a free ocean: each carried fleet there with this destination.
                for m in (0..n).filter(|&m| carries(m)) {
                    porter_pairs.push((m as u16, j as u16));
                }
            } else if at[from.index()] != NONE && carries(at[from.index()] as usize) {
                porter_pairs.push((at[from.index()], j as u16));
            }
        }
        let into_ocean = |i: usize| dest[i] != NONE && map.is_free_ocean(ProvinceId(dest[i]));
        let mut h2h = vec![NONE; n];
        for i in 0..n {
            if dest[i] == NONE || convoyed[i] || into_ocean(i) || map.is_free_ocean(orders[i].at) {
                continue;
            }
            let j = at[dest[i] as usize];
            if j != NONE && dest[j as usize] == orders[i].at.0 && !convoyed[j as usize] {
                h2h[i] = j;
            }
        }
        let mut attack_pairs = Vec::with_capacity(n);
        for i in 0..n {
            // Entering a free ocean is no attack: it always succeeds and cuts nothing.
            if dest[i] != NONE && !into_ocean(i) {
                attack_pairs.push((dest[i], i as u16));
            }
        }
        let mut matched = vec![true; n];
        let mut support_pairs = Vec::new();
        for (s, o) in orders.iter().enumerate() {
            let target = match o.command {
                Command::SupportHold { target } => {
                    let t = at[target.index()];
                    (t != NONE && dest[t as usize] == NONE).then_some(t)
                }
                Command::SupportMove {
                    from,
                    to,
                    coast,
                    power,
                } => {
                    let landing = landing_from
                        .get(from.index())
                        .copied()
                        .filter(|&l| l != NONE && dest[l as usize] == to.0);
                    let t = landing.unwrap_or(at[from.index()]);
                    // A fleet in a free ocean is found by its power and its move.
                    let t = if t == NONE && map.is_free_ocean(from) {
                        (0..n)
                            .find(|&k| {
                                orders[k].at == from
                                    && dest[k] == to.0
                                    && power.is_none_or(|p| orders[k].unit.power == p)
                            })
                            .map_or(NONE, |k| k as u16)
                    } else {
                        t
                    };
                    let fits = t != NONE
                        && dest[t as usize] == to.0
                        && match (coast, orders[t as usize].command) {
                            (Some(c), Command::Move { to: r, .. }) => c == r,
                            _ => true,
                        };
                    fits.then_some(t)
                }
                _ => continue,
            };
            match target {
                Some(t) => support_pairs.push((t, s as u16)),
                None => matched[s] = false,
            }
        }
        let mut fleet_pairs = Vec::new();
        for i in 0..n {
            if convoyed[i] && !is_portaged(i) && !is_landing(&orders[i]) {
                route_fleets(
                    map,
                    partners,
                    orders,
                    i,
                    ProvinceId(dest[i]),
                    &mut fleet_pairs,
                );
            }
        }
        for (c, o) in orders.iter().enumerate() {
            match o.command {
                Command::Convoy { from, to } => {
                    let a = at[from.index()];
                    let fits = a != NONE && convoyed[a as usize] && dest[a as usize] == to.0;
                    matched[c] = fits && fleet_pairs.iter().any(|&(m, f)| m == a && f == c as u16);
                }
                // A portage order stands only when it carries a fleet (below).
                Command::Portage { .. } => matched[c] = false,
                _ => {}
            }
        }
        for &(_, j) in &porter_pairs {
            matched[j as usize] = true;
        }
        let mut convoy_water = Vec::new();
        if edition == Edition::Rules1982 {
            for (c, o) in orders.iter().enumerate() {
                if matches!(o.command, Command::Convoy { .. }) && matched[c] {
                    if convoy_water.is_empty() {
                        convoy_water = vec![false; np];
                    }
                    convoy_water[o.at.index()] = true;
                }
            }
        }
        Resolver {
            map,
            partners,
            orders,
            at,
            dest,
            convoyed,
            portaged,
            route_broken,
            convoy_water,
            landing_from,
            carrier,
            dips: Vec::new(),
            porters: if has_portage {
                Csr::build(n, &porter_pairs)
            } else {
                Csr::default()
            },
            h2h,
            matched,
            attackers: Csr::build(np, &attack_pairs),
            supports: Csr::build(n, &support_pairs),
            fleets: Csr::build(n, &fleet_pairs),
            state: vec![UNRESOLVED; n],
            result: vec![false; n],
            deps: Vec::with_capacity(16),
            decided_by: Vec::new(),
        }
    }
}

/// Whether two provinces share water (a fleet could pass between them).
pub(super) fn touches(map: &Map, a: ProvinceId, b: ProvinceId) -> bool {
    map.water_neighbours(a).contains(&b)
}

/// The convoy orders for move `m` whose fleets lie on some route from its origin to `dest`.
pub(super) fn route_fleets(
    map: &Map,
    partners: &Partners,
    orders: &[Ordered],
    m: usize,
    dest: ProvinceId,
    out: &mut Vec<(u16, u16)>,
) {
    let origin = orders[m].at;
    let all: Vec<usize> = orders
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.command, Command::Convoy { from, to } if from == origin && to == dest))
        .map(|(i, _)| i)
        .collect();
    if !map.own_fleets_over_oceans() {
        route_fleets_among(map, orders, m, dest, &all, out);
        return;
    }
    // M.2: routes over seas alone by anyone's fleets, and routes of the army's player's
    // fleets (of any power she holds), through oceans too.
    let at_sea: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&c| map.province(orders[c].at).terrain != Terrain::Ocean)
        .collect();
    let own: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&c| partners.same(orders[c].unit.power, orders[m].unit.power))
        .collect();
    let start = out.len();
    route_fleets_among(map, orders, m, dest, &at_sea, out);
    let mut more = Vec::new();
    route_fleets_among(map, orders, m, dest, &own, &mut more);
    for pair in more {
        if !out[start..].contains(&pair) {
            out.push(pair);
        }
    }
}

/// The pairs of [`route_fleets`] with the convoy orders in `candidates` only.
pub(super) fn route_fleets_among(
    map: &Map,
    orders: &[Ordered],
    m: usize,
    dest: ProvinceId,
    candidates: &[usize],
    out: &mut Vec<(u16, u16)>,
) {
    let origin = orders[m].at;
    let spread = |start: ProvinceId| {
        let mut seen = vec![false; candidates.len()];
        let mut stack: Vec<ProvinceId> = vec![start];
        while let Some(p) = stack.pop() {
            for (k, &c) in candidates.iter().enumerate() {
                if !seen[k] && touches(map, p, orders[c].at) {
                    seen[k] = true;
                    stack.push(orders[c].at);
                }
            }
        }
        seen
    };
    let from_origin = spread(origin);
    let from_dest = spread(dest);
    for (k, &c) in candidates.iter().enumerate() {
        if from_origin[k] && from_dest[k] {
            out.push((m as u16, c as u16));
        }
    }
}
