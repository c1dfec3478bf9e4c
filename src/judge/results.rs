//! A phase adjudicated and its results in words: every order with its outcome, retreats,
//! adjustments, floods, and the results mail.

use std::collections::HashMap;

use super::deadline::{self};
use super::filed::all_stored;
use super::game::{Game, Status};
use super::Judge;
use crate::game::ids::{PowerId, ProvinceId, UnitKind};
use crate::game::map::Map;
use crate::game::order::Order;
use crate::game::position::{Position, Unit};
use crate::game::screen::Command;
use crate::game::turn;
use crate::picture::marks::{self, Mark};

mod centres;
mod floods;
mod report;

use centres::centre_lines;
use floods::flood_lines;
use report::report_lines;

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
pub(super) fn adjudicate(
    judge: &Judge,
    ctx: &super::game_ctx::GameCtx<'_>,
    game: &Game,
    pos: &Position,
) -> Played {
    let (variant, map) = (ctx.variant, ctx.map);
    let stored = all_stored(judge, game);
    let t = turn::play_with(variant, &ctx.rules, map, pos, &stored);
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
    lines.extend(report_lines(map, pos, &t, &mut given));
    // Centres are listed as they stand after the phase (a flood may have changed them).
    let after_map = judge.map_of_phase(game, t.position.phase);
    if !t.events.is_empty() {
        lines.push(String::new());
        lines.extend(flood_lines(map, after_map, &t.events));
    }
    let map = after_map;
    lines.extend(centre_lines(map, pos, &t.position));
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
    let mut marks = marks::unordered(
        marks::routed(marks::of_report(map, pos, &t.position, &t.report), &stored),
        &marks::given(&stored),
    );
    marks.extend(crate::picture::floods::of_events(&t.events));
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
