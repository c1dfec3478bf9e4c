//! A game as JSON in the schema `herald-game/1` (`docs/export.md`, checked by
//! `docs/export.schema.json`): its variant, every phase played with the board before it,
//! the orders as adjudicated and their results, the board now, and the centre counts.
//!
//! It holds no address, no password, no press at all (broadcasts included: they are mail,
//! not the game's record), and no order of the phase not yet processed. Whether a private
//! game may be shown to the reader is the caller's decision.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Map as Object, Value};

use super::{replay, Replayed};
use crate::game::calendar::{Calendar, Phase};
use crate::game::ids::{PowerId, ProvinceId};
use crate::game::map::Map;
use crate::game::position::{Position, Unit};
use crate::game::resolve::{Adjustment, Outcome, RetreatOutcome};
use crate::game::screen::Command;
use crate::game::turn::Report;
use crate::judge::{Game, Judge};

/// The schema's name and version, the export's `schema` field. A change that a reader of
/// version 1 could misread makes a version 2; fields added keep version 1.
pub const SCHEMA: &str = "herald-game/1";

/// The whole game as JSON (`docs/export.md`).
pub fn export_json(judge: &Judge, game: &Game) -> Value {
    let variant = judge.variant(game);
    let calendar = &variant.calendar;
    let map = &variant.map;
    let phases: Vec<Value> = replay(judge, game)
        .iter()
        .map(|r| played(judge, game, r))
        .collect();
    let current = game.position.as_ref().map(|pos| {
        let mut now = phase_fields(calendar, pos.phase);
        now.insert("position".into(), position(variant.map_at(pos.phase), pos));
        let running = game.status == crate::judge::game::Status::Running;
        now.insert("deadline".into(), time(game.deadline.filter(|_| running)));
        now.insert("grace".into(), time(game.grace.filter(|_| running)));
        Value::Object(now)
    });
    let counts: Vec<Value> = game
        .centre_counts
        .iter()
        .map(|c| {
            let year = game.year_of(c).map(|y| calendar.show_year(y));
            let by_power: Object<String, Value> = map
                .power_ids()
                .map(|p| {
                    let n = c.counts.get(p.index()).copied().unwrap_or(0);
                    (map.power(p).name.clone(), json!(n))
                })
                .collect();
            json!({ "year": year, "counts": by_power })
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "game": game.name,
        "variant": variant.name,
        "map": map.name,
        "rules": game.rules.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "status": game.status.word(),
        "outcome": game.outcome.as_ref().map(ToString::to_string),
        "powers": map.power_ids().map(|p| {
            let power = map.power(p);
            json!({ "name": power.name, "letter": power.letter.to_string(), "adjective": power.adjective })
        }).collect::<Vec<_>>(),
        "phases": phases,
        "current": current,
        "centre_counts": counts,
    })
}

/// One phase played: when, the board before it, the orders and their results.
fn played(judge: &Judge, game: &Game, r: &Replayed<'_>) -> Value {
    let variant = judge.variant(game);
    let before = &r.record.before;
    let map = variant.map_at(before.phase);
    let mut out = phase_fields(&variant.calendar, before.phase);
    out.insert("processed_at".into(), time(r.at));
    out.insert("position".into(), position(map, before));
    let (orders, results) = if r.faithful {
        let orders: Vec<Value> = r
            .orders
            .iter()
            .map(|(p, o)| json!({ "power": map.power(*p).name, "order": o.canonical(map) }))
            .collect();
        (json!(orders), results(map, r))
    } else {
        (Value::Null, Value::Null)
    };
    out.insert("orders".into(), orders);
    out.insert("results".into(), results);
    Value::Object(out)
}

/// The fields that name a phase.
fn phase_fields(calendar: &Calendar, phase: Phase) -> Object<String, Value> {
    let mut out = Object::new();
    out.insert("code".into(), json!(calendar.code(phase)));
    out.insert("name".into(), json!(calendar.show(phase)));
    out.insert("season".into(), json!(calendar.season(phase).name));
    out.insert("year".into(), json!(calendar.show_year(phase.year)));
    out.insert("judge_year".into(), json!(phase.year));
    out.insert("kind".into(), json!(phase.kind.name().to_ascii_lowercase()));
    out
}

/// A time as RFC 3339 UTC, or null.
fn time(t: Option<DateTime<Utc>>) -> Value {
    t.map_or(Value::Null, |t| {
        json!(t.to_rfc3339_opts(SecondsFormat::Secs, true))
    })
}

/// A unit: its power, type and place (province, and coast if it stands on one).
fn unit(map: &Map, u: Unit) -> Object<String, Value> {
    let region = map.region(u.region);
    let mut out = Object::new();
    out.insert("power".into(), json!(map.power(u.power).name));
    out.insert("type".into(), json!(u.kind.code()));
    out.insert("province".into(), json!(map.abbr(region.province)));
    out.insert("coast".into(), json!(region.coast.map(|c| c.abbr())));
    out
}

/// A board: units, dislodged units, provinces left empty by a standoff, centre owners.
fn position(map: &Map, pos: &Position) -> Value {
    let units: Vec<Value> = pos
        .all_units()
        .map(|(_, u)| Value::Object(unit(map, u)))
        .collect();
    let dislodged: Vec<Value> = pos
        .all_dislodged()
        .map(|(_, d)| {
            let mut out = unit(map, d.unit);
            out.insert(
                "attacker_from".into(),
                json!(d.attacker_from.map(|p| map.abbr(p))),
            );
            Value::Object(out)
        })
        .collect();
    let contested: Vec<&str> = map
        .province_ids()
        .filter(|p| pos.contested.get(p.index()).copied().unwrap_or(false))
        .map(|p| map.abbr(p))
        .collect();
    let owner = |p: ProvinceId| pos.owners.get(p.index()).copied().flatten();
    let centres: Vec<Value> = map
        .centres()
        .map(|p| json!({ "province": map.abbr(p), "owner": owner(p).map(|o| &map.power(o).name) }))
        .collect();
    let counts: Object<String, Value> = map
        .power_ids()
        .map(|p| (map.power(p).name.clone(), json!(pos.centre_count(p))))
        .collect();
    json!({
        "units": units,
        "dislodged": dislodged,
        "contested": contested,
        "centres": centres,
        "centre_counts": counts,
    })
}

/// What the phase's orders did, as its kind reports it.
fn results(map: &Map, r: &Replayed<'_>) -> Value {
    let turn = &r.turn;
    let rejected: Vec<usize> = turn.rejections.iter().map(|x| x.index).collect();
    // The order given for a piece: the last one for it that was not refused.
    let given = |power: PowerId, slot: (ProvinceId, bool)| {
        r.orders
            .iter()
            .enumerate()
            .rev()
            .find(|(i, (p, o))| *p == power && o.slot() == Some(slot) && !rejected.contains(i))
            .map(|(_, (_, o))| o.canonical(map))
    };
    let void: Vec<Value> = turn
        .rejections
        .iter()
        .map(|x| json!({ "power": map.power(x.power).name, "order": x.order, "reason": x.kind.to_string() }))
        .collect();
    let mut out = Object::new();
    match &turn.report {
        Report::Movement {
            orders,
            result,
            destroyed,
            dip_supports,
        } => {
            out.insert("kind".into(), json!("movement"));
            let units: Vec<Value> = orders
                .iter()
                .zip(&result.orders)
                .map(|(o, res)| {
                    let landing = matches!(o.command, Command::Disembark { .. });
                    let (word, success) = outcome(res.outcome);
                    let mut u = unit(map, o.unit);
                    u.insert("order".into(), json!(given(o.unit.power, (o.at, landing))));
                    u.insert("outcome".into(), json!(word));
                    u.insert(
                        "success".into(),
                        json!(
                            success && !(res.outcome == Outcome::Held && res.dislodged.is_some())
                        ),
                    );
                    u.insert("dislodged".into(), json!(res.dislodged.is_some()));
                    u.insert(
                        "dislodged_from".into(),
                        json!(res.dislodged.and_then(|c| c.by).map(|p| map.abbr(p))),
                    );
                    u.insert("destroyed".into(), json!(destroyed.contains(&o.unit)));
                    Value::Object(u)
                })
                .collect();
            out.insert("units".into(), json!(units));
            let dips: Vec<Value> = dip_supports
                .iter()
                .map(|&(by, p, given)| json!({ "power": map.power(by).name, "province": map.abbr(p), "given": given }))
                .collect();
            out.insert("dip_supports".into(), json!(dips));
        }
        Report::Retreat(outcomes) => {
            out.insert("kind".into(), json!("retreat"));
            let before = &r.record.before;
            let units: Vec<Value> = outcomes
                .iter()
                .filter_map(|&(p, o)| {
                    let d = before.dislodged.get(p.index()).copied().flatten()?;
                    let mut u = unit(map, d.unit);
                    let (word, to) = match o {
                        RetreatOutcome::Retreated(to) => ("retreated", Some(map.region_abbr(to))),
                        RetreatOutcome::Bounced(to) => ("bounced", Some(map.abbr(to).to_string())),
                        RetreatOutcome::Disbanded => ("disbanded", None),
                    };
                    u.insert("order".into(), json!(given(d.unit.power, (p, false))));
                    u.insert("outcome".into(), json!(word));
                    u.insert("success".into(), json!(word == "retreated"));
                    u.insert("to".into(), json!(to));
                    Some(Value::Object(u))
                })
                .collect();
            out.insert("units".into(), json!(units));
        }
        Report::Adjustment(done) => {
            out.insert("kind".into(), json!("adjustment"));
            let adjustments: Vec<Value> = done
                .iter()
                .map(|a| {
                    let (action, power, u) = match *a {
                        Adjustment::Built(u) => ("built", u.power, Some(u)),
                        Adjustment::Removed(u) => ("removed", u.power, Some(u)),
                        Adjustment::RemovedInDisorder(u) => {
                            ("removed_in_disorder", u.power, Some(u))
                        }
                        Adjustment::Waived(p) => ("waived", p, None),
                    };
                    json!({
                        "power": map.power(power).name,
                        "action": action,
                        "unit": u.map(|u| Value::Object(unit(map, u))),
                    })
                })
                .collect();
            out.insert("adjustments".into(), json!(adjustments));
        }
    }
    out.insert("void".into(), json!(void));
    Value::Object(out)
}

/// The word for a movement order's outcome, and whether the order did what it said.
fn outcome(o: Outcome) -> (&'static str, bool) {
    match o {
        Outcome::Held => ("held", true),
        Outcome::Moved => ("moved", true),
        Outcome::Bounced(_) => ("bounced", false),
        Outcome::NoConvoy(_) => ("no_convoy", false),
        Outcome::NoPortage(_) => ("no_portage", false),
        Outcome::Portaged => ("portaged", true),
        Outcome::Supported => ("supported", true),
        Outcome::SupportVoid => ("support_void", false),
        Outcome::Cut(_) => ("cut", false),
        Outcome::Convoyed => ("convoyed", true),
        Outcome::Disrupted => ("disrupted", false),
        Outcome::Embarked => ("embarked", true),
        Outcome::NotEmbarked => ("not_embarked", false),
        Outcome::Landed => ("landed", true),
        Outcome::StayedAboard => ("stayed_aboard", false),
        Outcome::NoShip => ("no_ship", false),
        Outcome::Aboard => ("aboard", true),
        Outcome::Converted => ("converted", true),
        Outcome::NotConverted => ("not_converted", false),
    }
}
