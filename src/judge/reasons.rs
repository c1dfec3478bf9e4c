//! Why each order of a movement phase did what it did, in words after njudge's mark
//! (issue 17): `(*bounce*: against A Mun - Bur, 1 to 1)`, `(*cut*: by A Boh)`,
//! `(*dislodged*: by F Eng - Nth, 2 to 1; retreat to Edi, Nwg or Hel)`, read from the
//! resolver's typed outcomes, never guessed from the text.

use crate::game::ids::{ProvinceId, UnitKind};
use crate::game::map::Map;
use crate::game::position::Position;
use crate::game::resolve::{retreat_options, Backup, Clash, MovementResult, Outcome};
use crate::game::screen::{Command, Ordered};

/// A unit's order in short: `A Mun - Bur`, or `F Nth` for one that stays; `me` is the
/// order being explained, never the one named (fleets share a free ocean).
fn short(map: &Map, orders: &[Ordered], at: ProvinceId, me: usize) -> String {
    let found = orders
        .iter()
        .enumerate()
        .find(|(k, o)| o.at == at && *k != me)
        .or_else(|| orders.iter().enumerate().find(|(_, o)| o.at == at));
    let Some((_, o)) = found else {
        return map.abbr(at).to_string();
    };
    let kind = match o.unit.kind {
        UnitKind::Army => "A",
        UnitKind::Fleet => "F",
        UnitKind::ArmyFleet => "A-F",
    };
    match o.command {
        Command::Move { to, .. } => format!("{kind} {} - {}", map.abbr(at), map.region_abbr(to)),
        _ => format!("{kind} {}", map.abbr(at)),
    }
}

/// "A, B or C".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The strengths of a clash: `1 to 1`.
fn strengths(c: &Clash) -> String {
    format!("{} to {}", c.attack, c.against)
}

/// The backup rule that decided order `k`, if one did.
fn rule_of(result: &MovementResult, k: usize) -> Option<Backup> {
    result.orders.get(k).and_then(|r| r.decided_by)
}

/// Whether the carrier orders of the move `i` (convoys or portages naming it) were stopped
/// by the Szykman rule.
fn carried_by_paradox(orders: &[Ordered], result: &MovementResult, i: usize) -> bool {
    let o = &orders[i];
    orders.iter().enumerate().any(|(k, c)| {
        let names = match c.command {
            Command::Convoy { from, .. } | Command::Portage { from, .. } => from == o.at,
            _ => false,
        };
        names && rule_of(result, k) == Some(Backup::Szykman)
    })
}

/// Why the Szykman rule stopped a convoyed move or its convoy.
const SZYKMAN_CONVOY: &str =
    "convoy paradox; by the Szykman rule the convoy holds and the army does not move";

/// Why the Szykman rule stopped a portaged move or its portage.
const SZYKMAN_PORTAGE: &str =
    "portage paradox; by the Szykman rule the portage holds and the fleet does not move";

/// The marks with reasons for order `i`: each `(*mark*: reason)` or `(*mark*)`.
pub fn notes(
    map: &Map,
    orders: &[Ordered],
    result: &MovementResult,
    next: &Position,
    i: usize,
) -> Vec<String> {
    let mut notes = Vec::new();
    let o = &orders[i];
    let note = |mark: &str, why: String| {
        if why.is_empty() {
            format!("(*{mark}*)")
        } else {
            format!("(*{mark}*: {why})")
        }
    };
    match result.outcome(i) {
        Outcome::Bounced(c) => {
            let why = match c.by {
                Some(by)
                    if orders
                        .iter()
                        .any(|x| x.at == by && x.unit.power == o.unit.power)
                        && c.attack == 0 =>
                {
                    format!(
                        "against {}, which stayed; a power cannot dislodge its own unit",
                        short(map, orders, by, i)
                    )
                }
                Some(by) => format!("against {}, {}", short(map, orders, by, i), strengths(&c)),
                None => format!("its attack of {} was held back", c.attack),
            };
            notes.push(note("bounce", why));
        }
        Outcome::NoConvoy(fleet) => notes.push(note(
            "no convoy",
            match fleet {
                _ if carried_by_paradox(orders, result, i) => SZYKMAN_CONVOY.into(),
                Some(f) => format!("{} dislodged", short(map, orders, f, i)),
                None => "no fleet convoyed it all the way".into(),
            },
        )),
        Outcome::NoPortage(army) => notes.push(note(
            "portage disrupted",
            match army {
                _ if carried_by_paradox(orders, result, i) => SZYKMAN_PORTAGE.into(),
                Some(a) => format!("{} dislodged", short(map, orders, a, i)),
                None => "no army portaged it all the way".into(),
            },
        )),
        Outcome::Moved if rule_of(result, i) == Some(Backup::Circular) => notes.push(
            "(circular movement: each unit in the ring moves into the space the next one leaves)"
                .into(),
        ),
        Outcome::Portaged if rule_of(result, i) == Some(Backup::PortageRule4) => notes.push(
            "(portage rule 4: the fleet it carries dislodges a unit whose support it did not cut)"
                .into(),
        ),
        Outcome::Disrupted if rule_of(result, i) == Some(Backup::Szykman) => {
            let why = match o.command {
                Command::Portage { .. } => SZYKMAN_PORTAGE,
                _ => SZYKMAN_CONVOY,
            };
            notes.push(note("disrupted", why.into()))
        }
        Outcome::Cut(by) => notes.push(note(
            "cut",
            by.map_or_else(String::new, |b| {
                format!("attacked by {}", short(map, orders, b, i))
            }),
        )),
        Outcome::SupportVoid => notes.push(note(
            "void",
            "the supported unit did not do what the support names".into(),
        )),
        Outcome::Disrupted => notes.push(note("disrupted", "its unit was dislodged".into())),
        Outcome::NotEmbarked => notes.push(note(
            "could not board",
            "its fleet supported, convoyed or was attacked from another sea; the army stays ashore"
                .into(),
        )),
        Outcome::StayedAboard => notes.push(note(
            "stays aboard",
            "the landing did not succeed, so the army stays aboard its fleet".into(),
        )),
        Outcome::NoShip => notes.push(note(
            "no army-fleet there",
            "no army-fleet of this power is in that sea or sails into it".into(),
        )),
        Outcome::Aboard => notes.push(note(
            "bounce, stays aboard",
            "the ferried army did not land and stays aboard its fleet".into(),
        )),
        Outcome::NotConverted => notes.push(note("not converted", "it was dislodged".into())),
        // A portage that carried nothing (issue 37): the fleet was not ordered to its
        // destination over this province, or its route was not portaged all the way.
        Outcome::Held if matches!(o.command, Command::Portage { .. }) => notes.push(note(
            "void",
            "no fleet moved as it names, over a route with an army portaging it in every province"
                .into(),
        )),
        _ => {}
    }
    if let Some(c) = result.orders.get(i).and_then(|r| r.dislodged) {
        let by = c.by.map_or_else(String::new, |b| {
            format!("by {}, {}", short(map, orders, b, i), strengths(&c))
        });
        let options: Vec<String> = retreat_options(map, next, o.at)
            .into_iter()
            .map(|r| map.region_abbr(r).to_string())
            .collect();
        let retreat = if next
            .dislodged
            .get(o.at.index())
            .copied()
            .flatten()
            .is_none()
        {
            String::new()
        } else if options.is_empty() {
            "no retreat".to_string()
        } else {
            format!("retreat to {}", or_list(&options))
        };
        let why = [by, retreat]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        notes.push(note("dislodged", why));
    }
    notes
}
