//! A power's orders: checked against the board as they arrive (each error named beside the
//! line it came from), stored in canonical form (the last order for a unit wins), echoed in
//! every reply, and counted for completeness.

use super::filed::{stored, unreadable};
use super::game::Game;
use super::Judge;
use crate::game::calendar::PhaseKind;
use crate::game::dips::{pay_standing_supports, Purse};
use crate::game::ids::PowerId;
use crate::game::order::{parse_order, Order};
use crate::game::resolve::adjust::{adjustment_count, resolve_adjustments};
use crate::game::resolve::screen_retreats;
use crate::game::screen::{describe, screen_movement};

mod refusal;
mod split;
pub(super) use refusal::unread;
pub use refusal::Refusal;
pub(super) use split::several;

/// The powers that must order in the current phase: with units (movement), with dislodged
/// units (retreat), with builds or removals (adjustment).
pub fn must_act(judge: &Judge, game: &Game) -> Vec<PowerId> {
    let Some(pos) = &game.position else {
        return Vec::new();
    };
    let map = judge.map_of(game);
    map.power_ids()
        .filter(|&p| match pos.phase.kind {
            PhaseKind::Movement => pos.unit_count(p) > 0,
            PhaseKind::Retreat => pos.all_dislodged().any(|(_, d)| d.unit.power == p),
            PhaseKind::Adjustment => adjustment_count(pos, p) != 0,
        })
        .collect()
}

/// Whether a power has complete orders: every unit (or dislodged unit) ordered, or as many
/// builds, waives or removals as it has.
pub fn complete(judge: &Judge, game: &Game, power: PowerId) -> bool {
    let Some(pos) = &game.position else {
        return true;
    };
    let orders = stored(judge, game, power);
    match pos.phase.kind {
        PhaseKind::Movement => pos
            .all_units()
            .filter(|(_, u)| u.power == power)
            .all(|(p, _)| orders.iter().any(|o| o.province() == Some(p))),
        PhaseKind::Retreat => pos
            .all_dislodged()
            .filter(|(_, d)| d.unit.power == power)
            .all(|(p, _)| orders.iter().any(|o| o.province() == Some(p))),
        PhaseKind::Adjustment => {
            orders.len() >= adjustment_count(pos, power).unsigned_abs() as usize
        }
    }
}

/// Whether a power is ready: every unit (or build and removal) has a valid order on file.
/// Lines refused in its mails don't matter: they were reported and ignored, as on njudge.
pub fn ready(judge: &Judge, game: &Game, power: PowerId) -> bool {
    complete(judge, game, power)
}

/// Whether the game is at its unit choice (world1880's Winter 1879): the opening adjustments
/// of a game with the `unit_choice` switch, where a home centre left unchosen gets the map's
/// starting unit.
pub(super) fn unit_choice(
    judge: &Judge,
    game: &Game,
    pos: &crate::game::position::Position,
) -> bool {
    judge.rules(game).unit_choice && pos.phase == judge.variant(game).calendar.start
}

/// The map's starting units of a power in the home centres it has not chosen a unit for
/// (unit choice), as `A Osa`: the units the phase will build there.
fn unchosen_defaults(judge: &Judge, game: &Game, power: PowerId, orders: &[Order]) -> Vec<String> {
    let map = judge.map_of(game);
    map.start
        .iter()
        .filter(|s| s.power == power)
        .filter(|s| {
            let p = map.province_of(s.region);
            !orders.iter().any(|o| o.province() == Some(p))
        })
        .map(|s| {
            let at = crate::game::order::Loc {
                province: map.province_of(s.region),
                coast: map.region(s.region).coast,
            };
            format!("{} {}", s.kind.code(), at.show(map))
        })
        .collect()
}

/// Checks one mail's orders for a power and stores the good ones. Returns the reply lines:
/// each order as understood, or the text with `*** why` below it.
pub fn submit(
    judge: &Judge,
    game: &mut Game,
    power: PowerId,
    texts: &[(String, Option<String>)],
) -> (Vec<String>, bool) {
    let rules = judge.rules(game);
    let map = judge.map_of(game);
    let Some(pos) = game.position.clone() else {
        return (
            vec!["*** The game has not started: no orders yet.".into()],
            true,
        );
    };
    let mut lines = Vec::new();
    let mut errors = false;
    let mut on_file: Vec<Order> = stored(judge, game, power).into_owned();
    // Lines an older herald stored that no longer read as orders: this write drops them,
    // so the reply says so (they were shown, never on file).
    for line in unreadable(judge, game, power) {
        tracing::warn!(game = %game.name, power = power.0, %line, "a stored order no longer reads as an order; dropped");
        lines.push(line);
        lines.push(format!("  *** {}", Refusal::StoredUnread));
    }
    // For each order on file, the line of this mail's echo it came from (None: an earlier
    // mail's), so an order replaced within the same mail is marked where it was echoed.
    let mut echoed_at: Vec<Option<usize>> = vec![None; on_file.len()];
    let mut replaced: Vec<usize> = Vec::new();
    for (text, wrong_phase) in texts {
        if let Some(why) = wrong_phase {
            lines.push(text.clone());
            lines.push(format!("  *** {why}"));
            errors = true;
            continue;
        }
        let order = match parse_order(map, text) {
            Ok(o) => o,
            Err(e) => {
                let why = unread(map, text, e);
                lines.push(text.clone());
                lines.push(format!("  *** {why}"));
                errors = true;
                continue;
            }
        };
        let check: Result<(), Refusal> = match pos.phase.kind {
            // A standing support is a movement order; in other phases it is refused as
            // one, not read as a build or a retreat.
            _ if matches!(order, Order::DipSupport { .. })
                && pos.phase.kind != PhaseKind::Movement =>
            {
                Err(Refusal::StandingSupportOutOfPhase(
                    judge.variant(game).calendar.code(pos.phase),
                ))
            }
            // The board, then the balance, as `herald datc` checks them (shared code).
            PhaseKind::Movement if matches!(order, Order::DipSupport { .. }) => {
                let on_file_dips = on_file
                    .iter()
                    .filter(|o| matches!(o, Order::DipSupport { .. }))
                    .count() as u32;
                let left = super::dips::left_for_orders(judge, game, power)
                    .saturating_sub(super::dips::STANDING_SUPPORT * on_file_dips);
                let mut purse = Purse::full(map);
                purse.set(power, left);
                pay_standing_supports(map, &rules, &pos, &[(power, order.clone())], &mut purse)
                    .into_iter()
                    .next()
                    .map_or(Ok(()), |r| Err(Refusal::Board(r.kind.into())))
            }
            PhaseKind::Movement => {
                let (_, rejected) = screen_movement(map, &rules, &pos, &[(power, order.clone())]);
                rejected
                    .into_iter()
                    .next()
                    .map_or(Ok(()), |r| Err(Refusal::Board(r.kind.into())))
            }
            PhaseKind::Retreat => {
                let (_, rejected) = screen_retreats(map, &pos, &[(power, order.clone())]);
                rejected
                    .into_iter()
                    .next()
                    .map_or(Ok(()), |r| Err(Refusal::Board(r.kind.into())))
            }
            // A unit's movement order in the winter: say what the phase takes instead.
            PhaseKind::Adjustment if matches!(&order, Order::Unit { action, .. } if *action != crate::game::order::Action::Disband) => {
                Err(Refusal::Winter(winter_form(judge, game, &pos, power)))
            }
            PhaseKind::Adjustment if order == Order::Waive && unit_choice(judge, game, &pos) => {
                Err(Refusal::UnitChoiceWaive)
            }
            PhaseKind::Adjustment => {
                let mut trial: Vec<(PowerId, Order)> = on_file
                    .iter()
                    .filter(|o| o.province().is_none() || o.province() != order.province())
                    .map(|o| (power, o.clone()))
                    .collect();
                // The new order is the last tried: its rejection is the one of that index.
                let new = trial.len();
                trial.push((power, order.clone()));
                let (_, _, rejected) = resolve_adjustments(map, &rules, &pos, &trial);
                rejected
                    .into_iter()
                    .find(|r| r.index == new)
                    .map_or(Ok(()), |r| Err(Refusal::Board(r.kind.into())))
            }
        };
        match check {
            Ok(()) => {
                if matches!(order, Order::DipSupport { .. }) {
                    // Each standing support is a purchase of its own: none replaces another.
                } else if pos.phase.kind != PhaseKind::Adjustment {
                    // In a free ocean a power may have several fleets: it keeps one order
                    // for each, the newest.
                    let room = match order.province() {
                        Some(p) if map.is_free_ocean(p) => pos
                            .all_units()
                            .filter(|(q, u)| *q == p && u.power == power)
                            .count(),
                        _ => 1,
                    };
                    let same: Vec<usize> = on_file
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| o.slot() == order.slot())
                        .map(|(i, _)| i)
                        .collect();
                    let excess = (same.len() + 1).saturating_sub(room.max(1));
                    for &i in same[..excess].iter().rev() {
                        on_file.remove(i);
                        replaced.extend(echoed_at.remove(i));
                    }
                } else {
                    for i in (0..on_file.len()).rev() {
                        let o = &on_file[i];
                        if o.province().is_some() && o.province() == order.province() {
                            on_file.remove(i);
                            replaced.extend(echoed_at.remove(i));
                        }
                    }
                }
                echoed_at.push(Some(lines.len()));
                lines.push(order.canonical(map));
                on_file.push(order);
            }
            Err(why) => {
                lines.push(text.clone());
                lines.push(format!("  *** {why}"));
                errors = true;
            }
        }
    }
    for i in replaced {
        lines[i].push_str("  (replaced by a later order in this mail)");
    }
    let entry = game.orders.entry(power.0).or_default();
    entry.orders = on_file;
    entry.legacy.clear();
    entry.errors = errors;
    (lines, errors)
}

/// What an adjustment phase takes from a power, for a refused order that is no build,
/// removal or waive.
fn winter_form(
    judge: &Judge,
    game: &Game,
    pos: &crate::game::position::Position,
    power: PowerId,
) -> String {
    let code = judge.variant(game).calendar.code(pos.phase);
    let count = adjustment_count(pos, power);
    let what = match count {
        0 => "you have no builds or removals, so there is nothing to order".to_string(),
        c if c > 0 => format!(
            "you have {c} build{}: write e.g. 'Build A <home centre>', or 'Waive'",
            if c == 1 { "" } else { "s" }
        ),
        c => format!(
            "you must remove {} unit{}: write e.g. 'Remove A <space>'",
            -c,
            if c == -1 { "" } else { "s" }
        ),
    };
    format!("units do not move in {code}, the adjustments; {what}")
}

/// The orders on file for a power, one line per unit (`No order` where missing), and its
/// status line.
pub fn echo(judge: &Judge, game: &Game, power: PowerId) -> (Vec<String>, String) {
    let map = judge.map_of(game);
    let Some(pos) = &game.position else {
        return (Vec::new(), String::new());
    };
    let orders = stored(judge, game, power);
    let mut lines = Vec::new();
    match pos.phase.kind {
        PhaseKind::Movement => {
            let mut shown: Vec<(crate::game::ids::ProvinceId, usize)> = Vec::new();
            for (p, u) in pos.all_units().filter(|(_, u)| u.power == power) {
                // Several fleets may share a free ocean: each takes the next order there.
                let k = match shown.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, k)) => {
                        *k += 1;
                        *k
                    }
                    None => {
                        shown.push((p, 0));
                        0
                    }
                };
                let mine: Vec<&Order> = orders.iter().filter(|o| o.province() == Some(p)).collect();
                let ocean = map.is_free_ocean(p);
                match (ocean, mine.get(k)) {
                    (true, Some(o)) => lines.push(o.canonical(map)),
                    (false, _) if !mine.is_empty() => {
                        lines.extend(mine.iter().map(|o| o.canonical(map)))
                    }
                    _ => lines.push(format!("{}: No order", describe(map, u))),
                }
            }
            // Standing supports bought with dips name no unit of the power's own.
            for o in orders
                .iter()
                .filter(|o| matches!(o, Order::DipSupport { .. }))
            {
                lines.push(o.canonical(map));
            }
            // Landings at the end of a voyage name a sea where the power has no unit yet.
            for o in orders.iter() {
                let elsewhere = o
                    .province()
                    .is_some_and(|p| pos.unit_at(p).is_none_or(|u| u.power != power));
                if elsewhere {
                    lines.push(o.canonical(map));
                }
            }
        }
        PhaseKind::Retreat => {
            for (p, d) in pos.all_dislodged().filter(|(_, d)| d.unit.power == power) {
                match orders.iter().rev().find(|o| o.province() == Some(p)) {
                    Some(o) => lines.push(o.canonical(map)),
                    None => lines.push(format!(
                        "{}: No order (it will disband)",
                        describe(map, d.unit)
                    )),
                }
            }
        }
        PhaseKind::Adjustment => {
            let count = adjustment_count(pos, power);
            for o in orders.iter() {
                lines.push(o.canonical(map));
            }
            let need = count.unsigned_abs() as usize;
            let defaults = if unit_choice(judge, game, pos) && count > 0 {
                unchosen_defaults(judge, game, power, &orders)
            } else {
                Vec::new()
            };
            if !defaults.is_empty() {
                lines.push(format!(
                    "{} home centre(s) not chosen: the map's units will be built there ({})",
                    defaults.len(),
                    defaults.join(", ")
                ));
            } else if orders.len() < need {
                let what = if count > 0 {
                    "build(s) not ordered (they will be waived)"
                } else {
                    "removal(s) not ordered (civil disorder will choose)"
                };
                lines.push(format!("{} {what}", need - orders.len()));
            }
        }
    }
    for line in unreadable(judge, game, power) {
        lines.push(format!("{line}  *** {}", Refusal::StoredUnread));
    }
    let name = &map.power(power).name;
    let status = if !must_act(judge, game).contains(&power) {
        format!("{name}: no orders needed this phase.")
    } else {
        let refused = game.orders.get(&power.0).is_some_and(|o| o.errors);
        match (complete(judge, game, power), refused) {
            (true, false) => format!("{name}: orders complete."),
            (true, true) => format!(
                "{name}: orders complete. The lines marked *** were refused and ignored; the orders above are the ones on file."
            ),
            (false, false) => format!("{name}: orders incomplete."),
            (false, true) => {
                // What is missing, in the words of the lines above (issue 25: a build
                // phase shows no "No order").
                let missing = match pos.phase.kind {
                    PhaseKind::Movement => "order the units showing No order",
                    PhaseKind::Adjustment if unit_choice(judge, game, pos) => {
                        "choose units for the home centres not yet chosen"
                    }
                    PhaseKind::Retreat => "order the dislodged units showing No order",
                    PhaseKind::Adjustment if adjustment_count(pos, power) > 0 => {
                        "order the builds not yet ordered (or Waive them)"
                    }
                    PhaseKind::Adjustment => "order the removals not yet ordered",
                };
                format!(
                    "{name}: orders incomplete. The lines marked *** were refused and ignored; {missing}."
                )
            }
        }
    };
    (lines, status)
}

#[cfg(test)]
mod tests {
    use crate::judge::testkit::{judge, mail, reply, start, started, started_world};

    // Issue 25, point 17: ""order the units showing No order" in a build phase where no
    // line shows it". The status names what the echo above it shows missing.
    #[test]
    fn a_build_phase_says_which_builds_are_missing_not_which_units() {
        let j = judge();
        let mut games = started(&j);
        let g = games.get_mut("g").unwrap();
        let v = j.variant(g);
        let winter = v.calendar.parse("W1901A").unwrap();
        let nwy = v.map.lookup("nwy").unwrap();
        let england = v.map.power_by_word("england").unwrap();
        let pos = g.position.as_mut().unwrap();
        pos.phase = winter;
        pos.owners[nwy.index()] = Some(england);
        let ann = "ann@example.org";
        let h = mail(&j, &mut games, ann, "SIGNON Eg pwE\nBuild A Nwy", start());
        let text = &reply(&h, ann).body;
        assert!(text.contains("1 build(s) not ordered"), "{text}");
        assert!(
            text.contains("England: orders incomplete. The lines marked *** were refused and ignored; order the builds not yet ordered (or Waive them)."),
            "{text}"
        );
        assert!(!text.contains("No order"), "{text}");
    }

    // "Before the game starts, players state which type of unit they want at their starting
    // resource centres." A centre left unchosen gets the map's unit (herald's documented
    // default): the reply says so, and a Waive, which would leave a centre empty, is refused.
    #[test]
    fn unit_choice_replies_say_what_will_be_built() {
        let j = judge();
        let mut games = started_world(&j);
        let pj = "pj@example.org";
        let h = mail(
            &j,
            &mut games,
            pj,
            "SIGNON Jw pwJ\nBuild A Tok\nWaive",
            start(),
        );
        let text = &reply(&h, pj).body;
        assert!(!text.contains("waived"), "{text}");
        assert!(text.contains("  Build A Tok\n"), "{text}");
        assert!(
            text.contains(
                "2 home centre(s) not chosen: the map's units will be built there (A Osa, F Nag)"
            ),
            "{text}"
        );
        assert!(text.contains("Waive\n    *** "), "{text}");
        assert!(text.contains("Japan: orders incomplete."), "{text}");
    }
}
