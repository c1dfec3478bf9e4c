//! A phase adjudicated and its results in words: every order with its outcome, retreats,
//! adjustments, floods, and the results mail.

use std::collections::HashMap;

use super::deadline::{self};
use super::filed::all_stored;
use super::game::{Game, Status};
use super::Judge;
use crate::game::calendar::PhaseKind;
use crate::game::ids::{PowerId, ProvinceId, UnitKind};
use crate::game::map::Map;
use crate::game::order::Order;
use crate::game::position::{Position, Unit};
use crate::game::resolve::{retreat_options, Adjustment, RetreatOutcome};
use crate::game::screen::Command;
use crate::game::turn::{self, Report};
use crate::picture::marks::{self, Mark};

mod floods;
use floods::flood_lines;

/// A phase played: what [`adjudicate`] returns.
pub(super) struct Played {
    /// The board at the next phase.
    pub next: Position,
    /// The results in words.
    pub text: String,
    /// The winners.
    pub winners: Vec<PowerId>,
    /// The powers sharing a draw when the last year ended with several survivors (Deluge).
    pub drawn: Vec<PowerId>,
    /// What the picture of the results draws for the orders.
    pub marks: Vec<Mark>,
}

/// Plays the phase of `pos` (the game's board) with the orders on file.
pub(super) fn adjudicate(judge: &Judge, game: &Game, pos: &Position) -> Played {
    let variant = judge.variant(game);
    let map = judge.map_of(game);
    let stored = all_stored(judge, game);
    let rules = judge.rules(game);
    let t = turn::play_with(variant, &rules, map, pos, &stored);
    let mut given = Given::of(&stored);
    let mut lines = Vec::new();
    let cal = &variant.calendar;
    let season = &cal.season(pos.phase).name;
    let year = cal.show_year(pos.phase.year);
    // One full stop after a year that ends in one (`273 B.C.`).
    let heading = super::render::sentence(format!(
        "{} results for {season} of {year}",
        pos.phase.kind.name()
    ));
    lines.push(format!(
        "{heading} ({}.{:03})",
        game.name,
        game.history.len() + 1
    ));
    lines.push(String::new());
    match &t.report {
        Report::Movement {
            orders,
            result,
            destroyed,
            dip_supports,
        } => {
            // njudge's order: by power, then by the unit's province name.
            let mut sorted: Vec<usize> = (0..orders.len()).collect();
            sorted.sort_by_key(|&i| {
                (
                    orders[i].unit.power,
                    map.province(orders[i].at).name.clone(),
                )
            });
            for i in sorted {
                let o = &orders[i];
                let mut line = format!(
                    "{}: {}",
                    map.power(o.unit.power).name,
                    unit_text(map, o.unit)
                );
                if given.take(map, o.unit.power, o.at) {
                    line.push_str(&command_text(map, pos, o.command, o.unit.power));
                } else {
                    // njudge's words for a unit that held for want of an order (none sent,
                    // or a power in civil disorder).
                    line.push_str(", No Order Processed");
                }
                let mut notes = super::reasons::notes(map, orders, result, &t.position, i);
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
            for r in &t.rejections {
                lines.push(format!(
                    "{}: {} (*void*: {})",
                    map.power(r.power).name,
                    r.order,
                    r.kind
                ));
            }
            let after = &t.position;
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
                        super::board::kind_name(d.unit.kind),
                        map.province(p).name,
                        options.join(" or ")
                    )
                })
                .chain(destroyed.iter().map(|u| {
                    format!(
                        "The {} {} in {} has no place to retreat and is destroyed.",
                        map.power(u.power).adjective,
                        super::board::kind_name(u.kind),
                        map.province(map.province_of(u.region)).name
                    )
                }))
                .collect();
            if !dislodged.is_empty() {
                lines.push(String::new());
                lines.push("The following units were dislodged:".into());
                lines.extend(dislodged);
            }
        }
        Report::Retreat(outcomes) => {
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
        }
        Report::Adjustment(done) => {
            for a in done {
                lines.push(match a {
                    Adjustment::Built(u) => format!(
                        "{}: Builds {} {} in {}.",
                        map.power(u.power).name,
                        article(u.kind),
                        super::board::kind_name(u.kind).to_lowercase(),
                        place(map, u.region)
                    ),
                    Adjustment::Removed(u) => format!(
                        "{}: Removes the {} in {}.",
                        map.power(u.power).name,
                        super::board::kind_name(u.kind).to_lowercase(),
                        place(map, u.region)
                    ),
                    Adjustment::RemovedInDisorder(u) => format!(
                        "{}: Removes the {} in {} (civil disorder).",
                        map.power(u.power).name,
                        super::board::kind_name(u.kind).to_lowercase(),
                        place(map, u.region)
                    ),
                    Adjustment::Waived(p) => format!("{}: Build waived.", map.power(*p).name),
                });
            }
        }
    }
    // Centres are listed as they stand after the phase (a flood may have changed them).
    let after_map = judge.map_of_phase(game, t.position.phase);
    if !t.events.is_empty() {
        lines.push(String::new());
        lines.extend(flood_lines(map, after_map, &t.events));
    }
    let map = after_map;
    let after = &t.position;
    let took_centres = after.owners != pos.owners
        || (pos.phase.kind != PhaseKind::Adjustment && after.phase.kind == PhaseKind::Adjustment);
    if took_centres || after.phase.kind == PhaseKind::Adjustment {
        lines.push(String::new());
        lines.push("Ownership of supply centers:".into());
        lines.push(String::new());
        for p in map.power_ids() {
            let owned: Vec<&str> = map
                .centres()
                .filter(|c| after.owners[c.index()] == Some(p))
                .map(|c| map.province(c).name.as_str())
                .collect();
            if !owned.is_empty() {
                lines.push(format!("{}: {}.", map.power(p).name, owned.join(", ")));
            }
        }
        let free: Vec<&str> = map
            .centres()
            .filter(|c| after.owners[c.index()].is_none())
            .map(|c| map.province(c).name.as_str())
            .collect();
        if !free.is_empty() {
            lines.push(format!("Unowned: {}.", free.join(", ")));
        }
        let changes = super::gains::gains_and_losses(map, pos, after);
        if !changes.is_empty() {
            lines.push(String::new());
            lines.push("Supply centers gained and lost:".into());
            lines.push(String::new());
            lines.extend(changes);
        }
        lines.push(String::new());
        // After the adjustments the count would announce builds nobody can make now.
        let counts = if pos.phase.kind == PhaseKind::Adjustment {
            Vec::new()
        } else {
            map.power_ids().collect()
        };
        // Builds and removals are announced only when an adjustment phase comes next: when
        // nobody had any and the winter was skipped, the board may still have changed after
        // it (a Deluge flood, a new centre), and what that leaves is settled next winter.
        let adjusting = after.phase.kind == PhaseKind::Adjustment;
        let shown = counts.len();
        for p in counts {
            let (c, u) = (after.centre_count(p), after.unit_count(p));
            if c == 0 && u == 0 {
                continue;
            }
            let diff = c as i32 - u as i32;
            let what = match diff {
                _ if !adjusting => String::new(),
                d if d > 0 => format!(": Builds {d} unit{}", if d == 1 { "" } else { "s" }),
                d if d < 0 => format!(": Removes {} unit{}", -d, if d == -1 { "" } else { "s" }),
                _ => ": Builds 0 units".into(),
            };
            lines.push(format!(
                "{}: {c} Supply centers, {u} Units{what}.",
                map.power(p).name
            ));
        }
        if shown > 0 && !adjusting {
            lines.push(String::new());
            lines.push(
                "Nobody had builds or removals, so there is no adjustment phase this year.".into(),
            );
        }
    }
    let winners = if t.winners.is_empty() && t.survivors.len() == 1 {
        t.survivors.clone()
    } else {
        t.winners.clone()
    };
    let drawn = if t.survivors.len() > 1 {
        t.survivors.clone()
    } else {
        Vec::new()
    };
    // Units given no order are drawn as such, not as holds (issue 27).
    let marks = marks::unordered(
        marks::of_report(map, pos, &t.position, &t.report),
        &marks::given(&stored),
    );
    Played {
        next: t.position,
        text: lines.join("\n"),
        winners,
        drawn,
        marks,
    }
}

/// How many orders each power has on file for its units in each province: one a unit, but
/// a free ocean may hold several of a power's fleets. A unit without one held (or, dislodged,
/// was disbanded) by default, and the results say so.
struct Given(HashMap<(PowerId, ProvinceId), usize>);

impl Given {
    fn of(stored: &[(PowerId, Order)]) -> Given {
        let mut given = HashMap::new();
        for (power, order) in stored {
            if let Some(at) = order.province() {
                *given.entry((*power, at)).or_insert(0) += 1;
            }
        }
        Given(given)
    }

    /// Whether `power`'s unit at `at` had an order; in a free ocean each order counts for
    /// one fleet.
    fn take(&mut self, map: &Map, power: PowerId, at: ProvinceId) -> bool {
        match self.0.get_mut(&(power, at)) {
            Some(n) if *n > 0 => {
                if map.is_free_ocean(at) {
                    *n -= 1;
                }
                true
            }
            _ => false,
        }
    }
}

/// The results mail's body for a mail to `to` (its dates in that player's zone; `""` for
/// the game's own zone, as archived).
pub(super) fn results_mail(judge: &Judge, game: &Game, code: &str, text: &str, to: &str) -> String {
    let variant = judge.variant(game);
    let tz = judge.zone_for(game, to);
    let next_phase = game.position.as_ref().map(|p| {
        let cal = &variant.calendar;
        format!(
            "{} for {} of {}",
            p.phase.kind.name(),
            cal.season(p.phase).name,
            cal.show_year(p.phase.year)
        )
    });
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(outcome) = &game.outcome {
        lines.push(String::new());
        lines.push(format!("{outcome}."));
    }
    judge.templates.render(
        "results.txt",
        minijinja::context! {
            header => judge.header_for(game, to),
            title => format!("Results of {code} in '{}':", game.name),
            lines => lines,
            over => game.status == Status::Finished,
            game => game.name,
            next_phase => next_phase,
            deadline => game.deadline.map(|d| deadline::show(d, tz)),
        },
    )
}

fn article(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Army => "an",
        UnitKind::Fleet | UnitKind::ArmyFleet => "a",
    }
}

fn place(map: &Map, r: crate::game::ids::RegionId) -> String {
    let region = map.region(r);
    let name = &map.province(region.province).name;
    match region.coast {
        Some(c) => format!("{name} ({})", c.abbr()),
        None => name.clone(),
    }
}

fn unit_text(map: &Map, u: Unit) -> String {
    format!(
        "{} {}",
        super::board::kind_name(u.kind),
        place(map, u.region)
    )
}

fn command_text(map: &Map, pos: &Position, c: Command, me: PowerId) -> String {
    // In a free ocean a support names whose fleet it is for (several may share it).
    let other_of = |p: crate::game::ids::ProvinceId, of: Option<PowerId>| {
        of.and_then(|of| pos.own_unit_at(p, of))
            .or_else(|| pos.unit_at(p))
            .map_or_else(
                || map.province(p).name.clone(),
                |u| {
                    let nation = if u.power == me {
                        String::new()
                    } else {
                        format!("{} ", map.power(u.power).adjective)
                    };
                    format!("{nation}{}", unit_text(map, u))
                },
            )
    };
    let other = |p: crate::game::ids::ProvinceId| other_of(p, None);
    match c {
        Command::Hold => " HOLD".into(),
        Command::Move { to, .. } => format!(" -> {}", place(map, to)),
        Command::SupportHold { target } => format!(" SUPPORT {}", other(target)),
        Command::SupportMove {
            from, to, power, ..
        } => {
            format!(
                " SUPPORT {} -> {}",
                other_of(from, power),
                map.province(to).name
            )
        }
        Command::Convoy { from, to } => {
            format!(" CONVOY {} -> {}", other(from), map.province(to).name)
        }
        Command::Portage { from, to, .. } => {
            format!(" PORTAGE {} -> {}", other(from), map.province(to).name)
        }
        Command::Convert { to } => format!(" CONVERTS to a fleet on {}", place(map, to)),
        Command::Embark { fleet } => format!(" EMBARKS on {}", other(fleet)),
        Command::Disembark { to } => format!(" DISEMBARKS -> {}", place(map, to)),
    }
}

#[cfg(test)]
mod tests;
