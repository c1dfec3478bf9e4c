//! A game's phases as adjudication cases in the form `herald datc` reads (`CASES.md`): one
//! case for each phase processed, with the board before it, the orders on file when it was
//! processed, and the board the game went on to. Running the file replays the game phase by
//! phase with the engine of today: every case passes while the engine adjudicates the game
//! as it was played.
//!
//! A retreat phase's case lists the results of the movement before it (PRESTATE_RESULTS),
//! from which the case reader learns where each attacker came from and which provinces a
//! standoff left empty. What a case cannot say is left out: who plays several powers
//! together (the world variant's partners); such a game's cases may differ where that
//! matters. A phase whose orders herald did not keep (an older herald) is written with none.

use super::{replay, Replayed};
use crate::game::ids::PowerId;
use crate::game::map::Map;
use crate::game::order::{Action, Order};
use crate::game::position::{Position, Unit};
use crate::game::resolve::Outcome;
use crate::game::turn::Report;
use crate::judge::{Game, Judge};

/// The case file of a game's phases (finished or not: the phases processed so far).
pub fn datc_case(judge: &Judge, game: &Game) -> String {
    let variant = judge.variant(game);
    let calendar = &variant.calendar;
    let played = replay(judge, game);
    let mut switches = vec![variant.name.clone()];
    switches.extend(game.rules.iter().map(ToString::to_string));
    let mut out = vec![
        format!(
            "# Game '{}' ({}) as herald played it: one case per phase processed.",
            game.name, game.variant
        ),
        "# Each case holds the board before the phase, the orders on file when it was".into(),
        "# processed and the board after it. Run it with: herald datc FILE".into(),
        String::new(),
        format!("VARIANT_ALL {}", switches.join(" ")),
    ];
    for (i, r) in played.iter().enumerate() {
        let before = &r.record.before;
        let map = variant.map_at(before.phase);
        out.push(String::new());
        out.push(format!(
            "CASE {} {}",
            game.name,
            calendar.code(before.phase)
        ));
        out.push(format!("PRESTATE_SETPHASE {}", calendar.show(before.phase)));
        out.push("PRESTATE_SUPPLYCENTER_OWNERS".into());
        out.extend(owners(map, before));
        if before.last_seen.iter().any(Option::is_some) {
            out.push("PRESTATE_LAST_SEEN".into());
            for (p, seen) in before.last_seen.iter().enumerate() {
                let Some(power) = seen else { continue };
                let province = crate::game::ids::ProvinceId(p as u16);
                out.push(format!(
                    "    {}: {}",
                    map.power(*power).name,
                    map.abbr(province)
                ));
            }
        }
        out.push("PRESTATE".into());
        out.extend(units(map, before));
        if before.has_dislodged() {
            out.push("PRESTATE_DISLODGED".into());
            out.extend(dislodged(map, before));
            if let Some(previous) = i.checked_sub(1).and_then(|k| played.get(k)) {
                out.push("PRESTATE_RESULTS".into());
                out.extend(move_results(map, previous));
            }
        }
        out.push("ORDERS".into());
        for (power, order) in &r.orders {
            out.push(format!(
                "    {}: {}",
                map.power(*power).name,
                order.canonical(map)
            ));
        }
        let after = r.after;
        let after_map = variant.map_at(after.phase);
        out.push("POSTSTATE".into());
        out.extend(units(after_map, after));
        if after.has_dislodged() {
            out.push("POSTSTATE_DISLODGED".into());
            out.extend(dislodged(after_map, after));
        }
        out.push("POSTSTATE_SUPPLYCENTER_OWNERS".into());
        out.extend(owners(after_map, after));
        out.push(format!("POSTSTATE_PHASE {}", calendar.show(after.phase)));
        out.push("END".into());
    }
    out.join("\n") + "\n"
}

/// `    France: A Par` for each unit on the board, power by power.
fn units(map: &Map, pos: &Position) -> Vec<String> {
    by_power(map, pos.all_units().map(|(_, u)| u))
}

/// `    Germany: A Mun` for each unit waiting to retreat, power by power.
fn dislodged(map: &Map, pos: &Position) -> Vec<String> {
    by_power(map, pos.all_dislodged().map(|(_, d)| d.unit))
}

/// The lines of units, by power in the map's order, then by place.
fn by_power(map: &Map, units: impl Iterator<Item = Unit>) -> Vec<String> {
    let mut lines: Vec<(PowerId, String)> = units
        .map(|u| {
            let line = format!(
                "    {}: {} {}",
                map.power(u.power).name,
                u.kind.code(),
                map.region_abbr(u.region)
            );
            (u.power, line)
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, line)| line).collect()
}

/// `    France: A Par` for each owned centre, power by power (the unit letter stands for
/// nothing, as in jDip's files).
fn owners(map: &Map, pos: &Position) -> Vec<String> {
    let mut lines: Vec<(PowerId, String)> = map
        .centres()
        .filter_map(|p| {
            let owner = pos.owners.get(p.index()).copied().flatten()?;
            let line = format!("    {}: A {}", map.power(owner).name, map.abbr(p));
            Some((owner, line))
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, line)| line).collect()
}

/// `SUCCESS:` or `FAILURE:` and each move ordered in a movement phase, for the retreat
/// phase after it.
fn move_results(map: &Map, previous: &Replayed<'_>) -> Vec<String> {
    let Report::Movement { orders, result, .. } = &previous.turn.report else {
        return Vec::new();
    };
    let refused: Vec<usize> = previous.turn.rejections.iter().map(|x| x.index).collect();
    let mut out = Vec::new();
    for (i, (power, order)) in previous.orders.iter().enumerate() {
        let Order::Unit {
            at,
            action: Action::Move { .. },
            ..
        } = order
        else {
            continue;
        };
        // A refused order did nothing; of several for one unit the last was played.
        let later = previous.orders[i + 1..]
            .iter()
            .any(|(p, o)| p == power && o.slot() == order.slot());
        if refused.contains(&i) || later {
            continue;
        }
        let moved = orders.iter().zip(&result.orders).any(|(o, res)| {
            o.unit.power == *power && o.at == at.province && res.outcome == Outcome::Moved
        });
        out.push(format!(
            "    {}: {}: {}",
            if moved { "SUCCESS" } else { "FAILURE" },
            map.power(*power).name,
            order.canonical(map)
        ));
    }
    out
}
