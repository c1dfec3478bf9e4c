//! The results of a phase in words, order by order: each movement order with its outcome, the
//! standing supports bought with dip points, the orders refused and the units dislodged; each
//! retreat; each adjustment.

use super::{article, command_text, place, unit_text, Given};
use crate::game::ids::{PowerId, ProvinceId, UnitKind};
use crate::game::map::Map;
use crate::game::position::{Position, Unit};
use crate::game::resolve::{retreat_options, Adjustment, MovementResult, RetreatOutcome};
use crate::game::screen::{Command, Ordered, Rejection};
use crate::game::turn::{Illegal, Report, Turn};
use crate::judge::board::kind_name;

/// The lines of the phase's orders, as its kind reports them.
pub(super) fn report_lines(map: &Map, pos: &Position, t: &Turn, given: &mut Given) -> Vec<String> {
    match &t.report {
        Report::Movement {
            orders,
            result,
            destroyed,
            dip_supports,
        } => {
            let mut lines = order_lines(map, pos, t, orders, result, destroyed, given);
            lines.extend(dip_support_lines(map, pos, dip_supports));
            lines.extend(rejection_lines(map, &t.rejections));
            lines.extend(dislodged_lines(map, &t.position, destroyed));
            lines
        }
        Report::Retreat(outcomes) => retreat_lines(map, pos, outcomes, given),
        Report::Adjustment(done) => adjustment_lines(map, done),
    }
}

/// Each unit's order and its outcome, in njudge's order: by power, then by the unit's
/// province name.
fn order_lines(
    map: &Map,
    pos: &Position,
    t: &Turn,
    orders: &[Ordered],
    result: &MovementResult,
    destroyed: &[Unit],
    given: &mut Given,
) -> Vec<String> {
    let mut sorted: Vec<usize> = (0..orders.len()).collect();
    sorted.sort_by_key(|&i| {
        (
            orders[i].unit.power,
            map.province(orders[i].at).name.clone(),
        )
    });
    let mut lines = Vec::new();
    for i in sorted {
        let o = &orders[i];
        let mut line = format!(
            "{}: {}",
            map.power(o.unit.power).name,
            unit_text(map, as_ordered(orders, o))
        );
        if given.take(map, o.unit.power, o.at) {
            line.push_str(&command_text(map, pos, o.command, o.unit.power));
        } else {
            // njudge's words for a unit that held for want of an order (none sent, or a
            // power in civil disorder).
            line.push_str(", No Order Processed");
        }
        let mut notes = crate::judge::reasons::notes(map, orders, result, &t.position, i);
        if destroyed.contains(&o.unit) {
            notes.push("(*destroyed*)".to_string());
        }
        line.push('.');
        for n in notes {
            line.push_str("  ");
            line.push_str(&n);
        }
        lines.push(line);
    }
    lines
}

/// The unit an order was given to, as the A/F rules name it: an army-fleet whose army is
/// ordered to land is ordered as its two units, "A/F(ENG); A(ENG) D Bre; F(ENG) - NTH", so
/// its own order is its fleet's (`Fleet English Channel HOLD.` beside `Army English Channel
/// DISEMBARKS -> Wales.`).
fn as_ordered(orders: &[Ordered], o: &Ordered) -> Unit {
    let lands = orders.iter().any(|l| {
        l.at == o.at
            && l.unit.power == o.unit.power
            && matches!(l.command, Command::Disembark { .. })
    });
    if o.unit.kind == UnitKind::ArmyFleet && lands {
        Unit {
            kind: UnitKind::Fleet,
            ..o.unit
        }
    } else {
        o.unit
    }
}

/// The standing supports bought with dip points, void where the supported unit moved.
fn dip_support_lines(
    map: &Map,
    pos: &Position,
    dip_supports: &[(PowerId, ProvinceId, bool)],
) -> Vec<String> {
    let mut lines = Vec::new();
    for &(by, p, given) in dip_supports {
        let Some(u) = pos.unit_at(p) else { continue };
        let nation = if u.power == by {
            String::new()
        } else {
            format!("{} ", map.power(u.power).adjective)
        };
        lines.push(format!(
            "{}: 4 DIPS SUPPORT {nation}{}.{}",
            map.power(by).name,
            unit_text(map, u),
            if given { "" } else { "  (*void: it moved*)" }
        ));
    }
    lines
}

/// The orders refused before adjudication, each with why.
fn rejection_lines(map: &Map, rejections: &[Rejection<Illegal>]) -> Vec<String> {
    rejections
        .iter()
        .map(|r| {
            format!(
                "{}: {} (*void*: {})",
                map.power(r.power).name,
                r.order,
                r.kind
            )
        })
        .collect()
}

/// The units dislodged, with where each can retreat, and those destroyed for want of a
/// retreat.
fn dislodged_lines(map: &Map, after: &Position, destroyed: &[Unit]) -> Vec<String> {
    let dislodged: Vec<String> = after
        .all_dislodged()
        .map(|(p, d)| {
            let options: Vec<String> = retreat_options(map, after, p)
                .iter()
                .map(|&r| {
                    map.region(r).coast.map_or_else(
                        || map.province(map.province_of(r)).name.clone(),
                        |_| map.region_abbr(r),
                    )
                })
                .collect();
            format!(
                "The {} {} in {} can retreat to {}.",
                map.power(d.unit.power).adjective,
                kind_name(d.unit.kind),
                map.province(p).name,
                options.join(" or ")
            )
        })
        .chain(destroyed.iter().map(|u| {
            format!(
                "The {} {} in {} has no place to retreat and is destroyed.",
                map.power(u.power).adjective,
                kind_name(u.kind),
                map.province(map.province_of(u.region)).name
            )
        }))
        .collect();
    if dislodged.is_empty() {
        return dislodged;
    }
    let mut lines = vec![
        String::new(),
        "The following units were dislodged:".to_string(),
    ];
    lines.extend(dislodged);
    lines
}

/// Each dislodged unit's fate.
fn retreat_lines(
    map: &Map,
    pos: &Position,
    outcomes: &[(ProvinceId, RetreatOutcome)],
    given: &mut Given,
) -> Vec<String> {
    let mut lines = Vec::new();
    for &(p, outcome) in outcomes {
        let Some(d) = pos.dislodged[p.index()] else {
            // The engine reports only units that were dislodged.
            continue;
        };
        let who = format!(
            "{}: {}",
            map.power(d.unit.power).name,
            unit_text(map, d.unit)
        );
        lines.push(match outcome {
            RetreatOutcome::Retreated(r) => format!("{who} -> {}.", place(map, r)),
            RetreatOutcome::Bounced(q) => {
                format!("{who} -> {}.  (*bounce, destroyed*)", map.province(q).name)
            }
            RetreatOutcome::Disbanded if !given.take(map, d.unit.power, p) => {
                format!("{who}, No Order Processed (DISBAND).")
            }
            RetreatOutcome::Disbanded => format!("{who} DISBAND."),
        });
    }
    lines
}

/// The builds, removals and waives.
fn adjustment_lines(map: &Map, done: &[Adjustment]) -> Vec<String> {
    done.iter()
        .map(|a| match a {
            Adjustment::Built(u) => format!(
                "{}: Builds {} {} in {}.",
                map.power(u.power).name,
                article(u.kind),
                kind_name(u.kind).to_lowercase(),
                place(map, u.region)
            ),
            Adjustment::Removed(u) => format!(
                "{}: Removes the {} in {}.",
                map.power(u.power).name,
                kind_name(u.kind).to_lowercase(),
                place(map, u.region)
            ),
            Adjustment::RemovedInDisorder(u) => format!(
                "{}: Removes the {} in {} (civil disorder).",
                map.power(u.power).name,
                kind_name(u.kind).to_lowercase(),
                place(map, u.region)
            ),
            Adjustment::Waived(p) => format!("{}: Build waived.", map.power(*p).name),
        })
        .collect()
}
