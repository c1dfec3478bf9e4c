//! A game as others may read it outside mail (issue 28, point 3): an Atom feed of its
//! results ([`atom`]), its deadlines as an iCalendar feed ([`ics`]), the whole game as JSON
//! in a versioned schema ([`json`], `docs/export.md`), and its orders as adjudication cases
//! in the form `herald datc` reads ([`datc`]).
//!
//! Each is a pure function of the game as the judge keeps it. None holds an address, a
//! password, press (but the results, none at all), or the orders of a phase not yet
//! processed (issue 28, point 5: "No press but broadcasts, no addresses, no orders before
//! their phase is processed"). Whether a private game may be shown to the reader is the
//! caller's decision: these functions show it to anyone they are asked for.
//!
//! The phases played are read again from the game's history ([`replay`]): each phase's
//! board before it and the orders on file when it was processed, adjudicated once more by
//! the same engine, which gives the orders' outcomes the results mail told in words.

pub mod atom;
pub mod datc;
pub mod ics;
pub mod json;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};

use super::game::{Game, PhaseRecord, PowerOrders};
use super::Judge;
use crate::game::calendar::{Calendar, Phase};
use crate::game::ids::PowerId;
use crate::game::map::Map;
use crate::game::order::{parse_order, Order};
use crate::game::position::Position;
use crate::game::turn::{self, Turn};

pub use atom::atom;
pub use datc::datc_case;
pub use ics::ics;
pub use json::export_json;

/// One phase the game played, read again from its history.
pub struct Replayed<'g> {
    /// The phase as kept: the board before it, its results text, its deadline.
    pub record: &'g PhaseRecord,
    /// The orders on file when it was processed, power by power as adjudication took them.
    pub orders: Vec<(PowerId, Order)>,
    /// The phase adjudicated again with those orders.
    pub turn: Turn,
    /// The board the game went on to (the next phase's, or the board now).
    pub after: &'g Position,
    /// Whether adjudicating again gave the board the game went on to. Not so for a phase
    /// played by an older herald that did not keep the orders on file: its orders are not
    /// known.
    pub faithful: bool,
    /// When it was processed: the time of its results in the game's archive, if there.
    pub at: Option<DateTime<Utc>>,
}

/// Every phase the game played, in order, adjudicated again from its history.
pub fn replay<'g>(judge: &Judge, game: &'g Game) -> Vec<Replayed<'g>> {
    let variant = judge.variant(game);
    let rules = judge.rules(game);
    let times = processed_times(judge, game);
    let mut out = Vec::with_capacity(game.history.len());
    for (i, record) in game.history.iter().enumerate() {
        let before = &record.before;
        let map = variant.map_at(before.phase);
        let orders = on_file(map, &record.orders);
        let turn = turn::play_with(variant, &rules, map, before, &orders);
        let after = match game.history.get(i + 1) {
            Some(next) => &next.before,
            None => match &game.position {
                Some(now) => now,
                None => continue,
            },
        };
        out.push(Replayed {
            record,
            faithful: turn.position == *after,
            orders,
            turn,
            after,
            at: times.get(i).copied().flatten(),
        });
    }
    out
}

/// The orders of a phase's record, in the order adjudication takes them ([`super::filed`]):
/// power by power, each power's as given. Lines an older herald kept as text are read; a
/// line that no longer reads was not on file.
fn on_file(map: &Map, orders: &BTreeMap<u8, PowerOrders>) -> Vec<(PowerId, Order)> {
    let mut out = Vec::new();
    for p in map.power_ids() {
        let Some(o) = orders.get(&p.0) else { continue };
        out.extend(o.orders.iter().map(|order| (p, order.clone())));
        out.extend(
            o.legacy
                .iter()
                .filter_map(|line| parse_order(map, line).ok())
                .map(|order| (p, order)),
        );
    }
    out
}

/// When each phase played was processed, by its place in the history: the time of the
/// last results mail for its phase in the archive (a ROLLBACK keeps the undone results, and
/// the phase played again comes later), None where the archive has none. One pass over the
/// archive, however long the game.
pub fn processed_times(judge: &Judge, game: &Game) -> Vec<Option<DateTime<Utc>>> {
    let calendar = &judge.variant(game).calendar;
    let subjects: HashMap<String, Phase> = game
        .history
        .iter()
        .map(|h| {
            let code = calendar.code(h.phase());
            (format!("JUDGE:{} - {code} Results", game.name), h.phase())
        })
        .collect();
    let mut at: HashMap<Phase, DateTime<Utc>> = HashMap::new();
    for a in &game.archive {
        if let Some(&phase) = subjects.get(&a.subject) {
            at.insert(phase, a.at);
        }
    }
    game.history
        .iter()
        .map(|h| at.get(&h.phase()).copied())
        .collect()
}

/// A phase as the results name it: `Spring 1901 Movement`, `Spring 273 B.C. Movement`.
pub fn phase_title(calendar: &Calendar, phase: Phase) -> String {
    format!(
        "{} {} {}",
        calendar.season(phase).name,
        calendar.show_year(phase.year),
        phase.kind.name()
    )
}
