//! Warnings in an order reply (issue 17, point 2): what looks like a mistake in a player's
//! own orders, while there is still time to put it right. A warning never refuses an order:
//! an ally's unit may carry the army, a support may be a feint. The Master turns them off
//! with SET WARNINGS OFF.

use std::collections::HashSet;

use super::filed::stored;
use super::game::Game;
use super::Judge;
use crate::game::calendar::PhaseKind;
use crate::game::ids::{PowerId, ProvinceId, UnitKind};
use crate::game::order::{Action, Order};
use crate::game::resolve::adjust::adjustment_count;
use crate::game::screen::{describe, screen_movement, Command, Ordered, Via};

/// The warnings for a power's orders on file, one line each (none when the game has them
/// off or the power has nothing to order).
pub fn warnings(judge: &Judge, game: &Game, power: PowerId) -> Vec<String> {
    let Some(pos) = game.position.as_ref() else {
        return Vec::new();
    };
    if !game.settings.warnings {
        return Vec::new();
    }
    let map = judge.map_of(game);
    let orders = stored(judge, game, power);
    let mut out = Vec::new();
    match pos.phase.kind {
        PhaseKind::Movement => {
            let own: Vec<_> = orders.iter().map(|o| (power, o.clone())).collect();
            let (ordered, _) = screen_movement(map, &judge.rules(game), pos, &own);
            let mine: Vec<&Ordered> = ordered.iter().filter(|o| o.unit.power == power).collect();
            let given: HashSet<ProvinceId> = orders.iter().filter_map(|o| o.province()).collect();
            // The unit standing in `p`: an army's landing from a sea is not one (it rides
            // the fleet there, or the fleet sailing there: Deluge's A/F rules).
            let command_at = |p: ProvinceId| {
                mine.iter()
                    .find(|o| {
                        o.at == p
                            && !map.is_free_ocean(p)
                            && !matches!(o.command, Command::Disembark { .. })
                    })
                    .map(|o| (o.unit, o.command))
            };
            let goes_to = |c: Command| match c {
                Command::Move { to, .. } => Some(map.province_of(to)),
                _ => None,
            };
            for o in &mine {
                let me = describe(map, o.unit);
                if !given.contains(&o.at) {
                    out.push(format!("{me} has no order: it will hold."));
                    continue;
                }
                match o.command {
                    Command::SupportMove { from, to, .. } => {
                        if let Some((u, c)) = command_at(from) {
                            if goes_to(c) != Some(to) {
                                out.push(format!(
                                    "{me} supports {} to {}, but {} is not ordered there.",
                                    describe(map, u),
                                    map.abbr(to),
                                    describe(map, u)
                                ));
                            }
                        }
                    }
                    Command::SupportHold { target } => {
                        if let Some((u, c)) = command_at(target) {
                            if goes_to(c).is_some() {
                                out.push(format!(
                                    "{me} supports {} to hold, but {} is ordered to move.",
                                    describe(map, u),
                                    describe(map, u)
                                ));
                            }
                        }
                    }
                    Command::Convoy { from, to } => {
                        if let Some((u, c)) = command_at(from) {
                            if goes_to(c) != Some(to) {
                                out.push(format!(
                                    "{me} convoys {} to {}, but {} is not ordered there.",
                                    describe(map, u),
                                    map.abbr(to),
                                    describe(map, u)
                                ));
                            }
                        }
                    }
                    Command::Portage { from, to, on_route } => {
                        // Issue 37: "A portage order that carries nothing … is accepted as
                        // 'orders complete' with no warning". Only what the power's own
                        // orders show: an ally's army on the route may portage too.
                        if let Some((u, c)) = command_at(from).filter(|_| !on_route) {
                            let fleet = describe(map, u);
                            let route = route_of(&orders, from);
                            let gap = route.iter().copied().find(|&p| {
                                p != o.at
                                    && match pos.unit_at(p) {
                                        None => true,
                                        Some(a) if a.power == power => !mine.iter().any(|m| {
                                            m.at == p && matches!(m.command, Command::Portage { from: f, to: t, .. } if f == from && t == to)
                                        }),
                                        Some(_) => false,
                                    }
                            });
                            let why = if goes_to(c) != Some(to) {
                                Some(format!("{fleet} is not ordered there"))
                            } else if !route.contains(&o.at) {
                                Some(format!("{fleet}'s route does not cross {}", map.abbr(o.at)))
                            } else {
                                gap.map(|p| {
                                    format!(
                                        "{fleet}'s route crosses {}, where no army of yours portages it",
                                        map.abbr(p)
                                    )
                                })
                            };
                            if let Some(why) = why {
                                out.push(format!(
                                    "{me} portages {fleet} to {}, but {why}: the portage carries nothing.",
                                    map.abbr(to)
                                ));
                            }
                        }
                    }
                    Command::Move { to, via } => {
                        let dest = map.province_of(to);
                        let carried = mine.iter().any(|f| {
                            matches!(f.command, Command::Convoy { from, to: t } if from == o.at && t == dest)
                        });
                        if o.unit.kind == UnitKind::Army && via == Via::Convoy && !carried {
                            out.push(format!(
                                "{me} goes to {} by convoy, but no fleet of yours is ordered to carry it.",
                                map.abbr(dest)
                            ));
                        }
                        if let Some((u, c)) = command_at(dest) {
                            if goes_to(c).is_none() {
                                out.push(format!(
                                    "{me} moves into {}, where your own {} stays: it cannot dislodge its own unit.",
                                    map.abbr(dest),
                                    describe(map, u)
                                ));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        PhaseKind::Retreat => {
            for (p, d) in pos.all_dislodged().filter(|(_, d)| d.unit.power == power) {
                if !orders.iter().any(|o| o.province() == Some(p)) {
                    out.push(format!(
                        "{} has no order: it will disband.",
                        describe(map, d.unit)
                    ));
                }
            }
        }
        PhaseKind::Adjustment => {
            let count = adjustment_count(pos, power);
            let need = count.unsigned_abs() as usize;
            // In a unit choice an unchosen centre gets the map's unit: the orders say so.
            let choice = super::orders::unit_choice(judge, game, pos);
            if count > 0 && orders.len() < need && !choice {
                out.push(format!(
                    "{} build(s) left unordered: they will be waived.",
                    need - orders.len()
                ));
            } else if count < 0 && orders.len() < need {
                out.push(format!(
                    "{} removal(s) left unordered: civil disorder will choose.",
                    need - orders.len()
                ));
            }
        }
    }
    out
}

/// The provinces a fleet's order at `at` names as its route over land (`F Ion-Tun-TyS`):
/// none if it names none.
fn route_of(orders: &[Order], at: ProvinceId) -> Vec<ProvinceId> {
    orders
        .iter()
        .find_map(|o| match o {
            Order::Unit {
                at: loc,
                action: Action::Move { via, .. },
                ..
            } if loc.province == at => Some(via.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ids::UnitKind;
    use crate::game::position::Unit;
    use crate::judge::testkit::{judge, mail, start, started, GM};

    /// Issue 17, point 2: "a support for a move or hold that the supported own unit is not
    /// ordered to make, a convoy for an army of one's own that is not ordered to go that
    /// way, an army ordered via convoy with no own fleet ordered to carry it, a move into a
    /// space one's own unit holds and does not leave, units with no order".
    #[test]
    fn each_kind_of_mistake_is_warned_of_and_nothing_is_refused() {
        let j = judge();
        let mut games = started(&j);
        let map = j.map_of(&games["g"]).clone();
        let power = |name: &str| {
            map.power_ids()
                .find(|&p| map.power(p).name == name)
                .unwrap()
        };
        let (england, france) = (power("England"), power("France"));
        let place = |games: &mut crate::judge::Games, abbr: &str, power, kind| {
            let p = map.province_ids().find(|&p| map.abbr(p) == abbr).unwrap();
            let pos = games.get_mut("g").unwrap().position.as_mut().unwrap();
            pos.units[p.index()] = Some(Unit {
                power,
                kind,
                region: map.province(p).main,
            });
        };
        place(&mut games, "Nth", england, UnitKind::Fleet);
        place(&mut games, "Yor", england, UnitKind::Army);
        place(&mut games, "Pic", france, UnitKind::Army);
        place(&mut games, "Eng", france, UnitKind::Fleet);
        place(&mut games, "Gas", france, UnitKind::Army);
        let now = start();
        mail(
            &j,
            &mut games,
            "ann@example.org",
            "SIGNON Eg pwE\nA Yor-Lon\nF Nth C A Yor-Nwy\nF Edi S A Lvp-Cly\nA Lvp-Wal\nF Lon H",
            now,
        );
        mail(
            &j,
            &mut games,
            "bob@example.org",
            "SIGNON Fg pwF\nA Pic-Lon via convoy\nF Eng H\nF Bre H\nA Gas S A Par\nA Par-Bur\nA Mar H",
            now,
        );
        let g = &games["g"];
        assert_eq!(
            warnings(&j, g, england),
            [
                "F Edi supports A Lvp to Cly, but A Lvp is not ordered there.",
                "F Nth convoys A Yor to Nwy, but A Yor is not ordered there.",
                "A Yor moves into Lon, where your own F Lon stays: it cannot dislodge its own unit.",
            ]
        );
        let french = warnings(&j, g, france);
        assert!(
            french.contains(
                &"A Pic goes to Lon by convoy, but no fleet of yours is ordered to carry it."
                    .to_string()
            ),
            "{french:?}"
        );
        assert!(
            french.contains(
                &"A Gas supports A Par to hold, but A Par is ordered to move.".to_string()
            ),
            "{french:?}"
        );
        // Germany ordered nothing: each unit is named.
        let germany = warnings(&j, g, power("Germany"));
        assert_eq!(germany.len(), 3, "{germany:?}");
        assert!(germany
            .iter()
            .all(|w| w.ends_with("has no order: it will hold.")));
        // Every order stands: the warnings refused nothing.
        assert!(!g.orders[&england.0].errors);
        // The Master turns them off.
        mail(
            &j,
            &mut games,
            GM,
            "SIGNON Mg gmpass\nSET WARNINGS OFF",
            now,
        );
        assert!(warnings(&j, &games["g"], england).is_empty());
    }
}
