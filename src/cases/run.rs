//! Playing one case and comparing the board with what the case expects.

use std::collections::BTreeSet;

use super::file::Case;
use crate::catalog::Catalog;
use crate::game::calendar::PhaseKind;
use crate::game::dips::{pay_standing_supports, Purse};
use crate::game::ids::{PowerId, ProvinceId, UnitKind};
use crate::game::map::Map;
use crate::game::order::{parse_order, Action, Order, OrderError};
use crate::game::position::{Dislodged, Position, Unit};
use crate::game::rules::Rules;
use crate::game::screen::Rejection;
use crate::game::turn;
use crate::game::variant::Variant;

/// Why a case failed: it could not be read, or the board differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseFailure {
    /// Each problem or difference, one line each.
    pub lines: Vec<String>,
}

/// A case read into the engine's terms: the variant, the board and the orders.
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    /// The case's variant.
    pub variant: &'a Variant,
    /// The variant's rules with the switches the case's `VARIANT` line adds, as a Master's
    /// CREATE would (`VARIANT standard rules=1982`).
    pub rules: Rules,
    /// The board before the phase.
    pub position: Position,
    /// Each power's orders, without the standing supports refused.
    pub orders: Vec<(PowerId, Order)>,
    /// The standing supports refused as the judge refuses them by mail, in line order: by
    /// the board, or because the power's dips (`PRESTATE_DIPS`, else the variant's
    /// allowance) could not pay for them. They are not played.
    pub refused: Vec<Rejection>,
}

/// Plays a case with the built-in variants. `Ok` when the board after the phase is the
/// expected one.
pub fn run_case(case: &Case) -> Result<(), CaseFailure> {
    run_case_in(&Catalog::builtin(), case)
}

/// Plays a case with the variants of a catalog (built-in, or a keeper's maps directory).
pub fn run_case_in(catalog: &Catalog, case: &Case) -> Result<(), CaseFailure> {
    let prepared = prepare(catalog, case)?;
    let turn = turn::play_with(
        prepared.variant,
        &prepared.rules,
        prepared.variant.map_at(prepared.position.phase),
        &prepared.position,
        &prepared.orders,
    );
    check(case, &prepared, &turn)
}

/// Reads a case's variant, board and orders; fails if any of it cannot be read.
pub fn prepare<'a>(catalog: &'a Catalog, case: &Case) -> Result<Prepared<'a>, CaseFailure> {
    let fail = |lines: Vec<String>| Err(CaseFailure { lines });
    if !case.problems.is_empty() {
        return fail(case.problems.clone());
    }
    // The variant's name, then any rule switches, as CREATE takes them.
    let mut words = case.variant.split_whitespace();
    let variant = match catalog.variant(words.next().unwrap_or("")) {
        Ok(v) => v,
        Err(e) => return fail(vec![e.to_string()]),
    };
    let mut rules = variant.rules.clone();
    for switch in words {
        if let Err(why) = rules.apply_switch(switch) {
            return fail(vec![format!("VARIANT: {why}")]);
        }
    }
    // A case without PRESTATE_SETPHASE starts at the variant's first phase.
    let phase = match case.phase.trim() {
        "" => Ok(variant.calendar.start),
        text => variant.calendar.parse(text),
    };
    let phase = match phase {
        Ok(p) => p,
        Err(e) => return fail(vec![format!("PRESTATE_SETPHASE: {e}")]),
    };
    let map = variant.map_at(phase);
    let mut problems = Vec::new();
    let mut pos = Position::empty(map, phase);
    for line in &case.last_seen {
        match read_power_place(map, line) {
            Ok((power, p)) => {
                pos.last_seen.resize(map.province_count(), None);
                pos.last_seen[p.index()] = Some(power);
            }
            Err(e) => problems.push(format!("last seen '{line}': {e}")),
        }
    }
    match &case.owners {
        Some(lines) => {
            for line in lines {
                match read_owner(map, line) {
                    Ok((power, p)) => pos.owners[p.index()] = Some(power),
                    Err(e) => problems.push(format!("owner '{line}': {e}")),
                }
            }
        }
        None => {
            for p in map.power_ids() {
                for &h in &map.power(p).homes {
                    pos.owners[h.index()] = Some(p);
                }
            }
        }
    }
    for line in &case.units {
        match read_unit(map, line) {
            Ok((_, unit)) => pos.place(map, unit),
            Err(e) => problems.push(format!("unit '{line}': {e}")),
        }
    }
    let mut attackers: Vec<(ProvinceId, Option<ProvinceId>)> = Vec::new();
    let mut failed_into: Vec<ProvinceId> = Vec::new();
    for (success, line) in &case.results {
        let Ok((_, order)) = read_order(map, line) else {
            problems.push(format!("result '{line}' cannot be read"));
            continue;
        };
        if let Order::Unit {
            at,
            action: Action::Move { to, via, convoy },
            kind,
        } = &order
        {
            let by_convoy = *convoy
                || !via.is_empty()
                || (*kind != Some(UnitKind::Fleet) && !map.army_adjacent(at.province, to.province));
            if *success {
                attackers.push((to.province, (!by_convoy).then_some(at.province)));
            } else {
                failed_into.push(to.province);
            }
        }
    }
    // A standoff: two or more moves failed into a province that stayed empty.
    for &p in &failed_into {
        if pos.unit_at(p).is_none() && failed_into.iter().filter(|&&q| q == p).count() >= 2 {
            pos.contested[p.index()] = true;
        }
    }
    for line in &case.dislodged {
        match read_unit(map, line) {
            Ok((_, unit)) => {
                let p = map.province_of(unit.region);
                let attacker_from = attackers
                    .iter()
                    .find(|(to, _)| *to == p)
                    .and_then(|(_, from)| *from);
                pos.dislodged[p.index()] = Some(Dislodged {
                    unit,
                    attacker_from,
                });
            }
            Err(e) => problems.push(format!("dislodged unit '{line}': {e}")),
        }
    }
    let mut orders = Vec::new();
    for line in &case.orders {
        match read_order(map, line) {
            Ok(o) => orders.push(o),
            Err(e) => problems.push(format!("order '{line}': {e}")),
        }
    }
    let mut purse = Purse::full(map);
    for line in &case.dips {
        match read_dips(map, line) {
            Ok((power, dips)) => purse.set(power, dips),
            Err(e) => problems.push(format!("dips '{line}': {e}")),
        }
    }
    if !problems.is_empty() {
        return fail(problems);
    }
    // The judge's budget: standing supports are paid in the order given, each from its
    // power's dips, and one refused is not on file (`game::dips`, shared with the judge).
    let refused = match phase.kind {
        PhaseKind::Movement => pay_standing_supports(map, &rules, &pos, &orders, &mut purse),
        _ => Vec::new(),
    };
    let orders = orders
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !refused.iter().any(|r| r.index == *i))
        .map(|(_, o)| o)
        .collect();
    Ok(Prepared {
        variant,
        rules,
        position: pos,
        orders,
        refused,
    })
}

fn check(case: &Case, prepared: &Prepared, turn: &turn::Turn) -> Result<(), CaseFailure> {
    let fail = |lines: Vec<String>| Err(CaseFailure { lines });
    let variant = prepared.variant;
    let after = &turn.position;
    let map = variant.map_at(after.phase);

    let mut diffs = Vec::new();
    let expected_units = match &case.post_units {
        Some(lines) => lines.clone(),
        None => case.units.clone(),
    };
    compare(
        map,
        "unit",
        &expected_units,
        after.all_units().map(|(_, u)| u),
        &mut diffs,
    );
    // A dislodged unit with nowhere to go is disbanded at once. herald's own cases list it
    // under POSTSTATE_DISLODGED (it was dislodged); jDip's file leaves it out (it is gone).
    // Both are read: such a unit may be listed or not; every other one must match exactly.
    let destroyed: Vec<Unit> = match &turn.report {
        turn::Report::Movement { destroyed, .. } => destroyed.clone(),
        _ => Vec::new(),
    };
    let listed = |u: &Unit| {
        case.post_dislodged
            .iter()
            .any(|line| read_unit(map, line).is_ok_and(|(_, e)| e == *u))
    };
    let dislodged = after
        .all_dislodged()
        .map(|(_, d)| d.unit)
        .chain(destroyed.iter().copied().filter(|u| listed(u)));
    compare(
        map,
        "dislodged unit",
        &case.post_dislodged,
        dislodged,
        &mut diffs,
    );
    if let Some(lines) = &case.post_owners {
        let mut want = BTreeSet::new();
        for line in lines {
            match read_owner(map, line) {
                Ok((power, p)) => {
                    want.insert(format!("{}: {}", map.power(power).name, map.abbr(p)));
                }
                Err(e) => diffs.push(format!("owner '{line}': {e}")),
            }
        }
        let got: BTreeSet<String> = map
            .centres()
            .filter_map(|p| {
                after.owners[p.index()].map(|o| format!("{}: {}", map.power(o).name, map.abbr(p)))
            })
            .collect();
        for w in want.difference(&got) {
            diffs.push(format!("expected owner {w}, not found"));
        }
        for g in got.difference(&want) {
            diffs.push(format!("owner {g} not expected"));
        }
    }
    if let Some(text) = &case.post_phase {
        match variant.calendar.parse(text) {
            Ok(p) if p == after.phase => {}
            Ok(_) => diffs.push(format!(
                "expected the next phase {}, got {}",
                text.trim(),
                variant.calendar.show(after.phase)
            )),
            Err(e) => diffs.push(format!("POSTSTATE_PHASE: {e}")),
        }
    }
    if let Some(text) = &case.post_winners {
        compare_powers(map, "winners", text, &turn.winners, &mut diffs);
    }
    if let Some(text) = &case.post_survivors {
        compare_powers(map, "survivors", text, &turn.survivors, &mut diffs);
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        for r in &prepared.refused {
            diffs.push(format!("(rejected {}: {r})", map.power(r.power).name));
        }
        for r in &turn.rejections {
            diffs.push(format!("(rejected {}: {r})", map.power(r.power).name));
        }
        fail(diffs)
    }
}

fn compare(
    map: &Map,
    what: &str,
    expected: &[String],
    actual: impl Iterator<Item = Unit>,
    diffs: &mut Vec<String>,
) {
    let mut want: Vec<String> = Vec::new();
    for line in expected {
        match read_unit(map, line) {
            Ok((_, u)) => want.push(show(map, u)),
            Err(e) => diffs.push(format!("{what} '{line}': {e}")),
        }
    }
    let mut got: Vec<String> = actual.map(|u| show(map, u)).collect();
    want.sort();
    got.sort();
    for w in &want {
        if let Some(i) = got.iter().position(|g| g == w) {
            got.remove(i);
        } else {
            diffs.push(format!("expected {what} {w}, not found"));
        }
    }
    for g in got {
        diffs.push(format!("{what} {g} not expected"));
    }
}

fn show(map: &Map, u: Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        u.kind.code(),
        map.region_abbr(u.region)
    )
}

/// The power named before the colon, leniently: a name, an adjective, or a unique power
/// sharing the first three letters (jDip's file misspells one).
fn read_power(map: &Map, word: &str) -> Result<PowerId, LineError> {
    let word = word.trim();
    if let Some(p) = map.power_by_word(word) {
        return Ok(p);
    }
    let head: String = word.to_ascii_lowercase().chars().take(3).collect();
    let hits: Vec<PowerId> = map
        .power_ids()
        .filter(|&p| head.len() == 3 && map.power(p).name.to_ascii_lowercase().starts_with(&head))
        .collect();
    match hits[..] {
        [p] => Ok(p),
        _ => Err(LineError::UnknownPower(word.to_string())),
    }
}

fn read_order(map: &Map, line: &str) -> Result<(PowerId, Order), LineError> {
    // "Power: order"; jDip's file sometimes drops the colon.
    let (power, text) = line
        .split_once(':')
        .or_else(|| line.split_once(char::is_whitespace))
        .ok_or(LineError::NoPower)?;
    let power = read_power(map, power)?;
    let order = parse_order(map, text).map_err(LineError::Order)?;
    Ok((power, order))
}

/// Compares a comma-separated list of powers (or `none`) with the powers the turn named.
fn compare_powers(map: &Map, what: &str, text: &str, got: &[PowerId], diffs: &mut Vec<String>) {
    let mut want: Vec<String> = text
        .split(',')
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("none"))
        .map(|w| read_power(map, &w).map_or(w, |p| map.power(p).name.clone()))
        .collect();
    let mut got: Vec<String> = got.iter().map(|&p| map.power(p).name.clone()).collect();
    want.sort();
    got.sort();
    if want != got {
        diffs.push(format!(
            "expected {what} [{}], got [{}]",
            want.join(", "),
            got.join(", ")
        ));
    }
}

fn read_power_place(map: &Map, line: &str) -> Result<(PowerId, ProvinceId), LineError> {
    let (power, place) = line.split_once(':').ok_or(LineError::NoPlace)?;
    let power = read_power(map, power)?;
    let p = map
        .lookup(&crate::game::map::normalize(place))
        .ok_or_else(|| LineError::UnknownProvince(place.trim().to_string()))?;
    Ok((power, p))
}

/// A power's dips left this turn: "Power: N".
fn read_dips(map: &Map, line: &str) -> Result<(PowerId, u32), LineError> {
    let (power, dips) = line.split_once(':').ok_or(LineError::NoDips)?;
    let power = read_power(map, power)?;
    let dips = dips.trim().parse().map_err(|_| LineError::NoDips)?;
    Ok((power, dips))
}

fn read_owner(map: &Map, line: &str) -> Result<(PowerId, ProvinceId), LineError> {
    let (power, order) = read_order(map, line)?;
    match order.province() {
        Some(p) if map.province(p).centre => Ok((power, p)),
        Some(p) => Err(LineError::NotCentre(map.abbr(p).to_string())),
        None => Err(LineError::NoOwnedPlace),
    }
}

fn read_unit(map: &Map, line: &str) -> Result<(PowerId, Unit), LineError> {
    let (power, order) = read_order(map, line)?;
    let Order::Unit {
        kind: Some(kind),
        at,
        action: Action::Hold,
    } = order
    else {
        return Err(LineError::NotUnit);
    };
    let places = map.standable(kind, at.province);
    let region = match (
        kind,
        at.coast.and_then(|c| map.coast_region(at.province, c)),
    ) {
        (UnitKind::Fleet, Some(r)) => r,
        _ if places.len() == 1 => places[0],
        _ if places.is_empty() => {
            return Err(LineError::CannotStand {
                kind: kind.code(),
                at: map.abbr(at.province).to_string(),
            })
        }
        _ => return Err(LineError::NoCoast(map.abbr(at.province).to_string())),
    };
    Ok((
        power,
        Unit {
            power,
            kind,
            region,
        },
    ))
}

/// Why a line of a case's board or orders was not read: what it needs, with the word or
/// province it could not take quoted once (the caller quotes the whole line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// No power before the order.
    #[error("expected 'Power: order'")]
    NoPower,
    /// No power before the province.
    #[error("expected 'Power: prov'")]
    NoPlace,
    /// The power is no power of the map.
    #[error("unknown power '{0}'")]
    UnknownPower(String),
    /// The province is no province of the map.
    #[error("unknown province '{0}'")]
    UnknownProvince(String),
    /// The order could not be read: the parser's refusal, shown by its reason alone (the
    /// caller quotes the line).
    #[error("{}", .0.why)]
    Order(OrderError),
    /// A dips line is not a power and a number.
    #[error("expected 'Power: N', the dips the power has left this turn")]
    NoDips,
    /// An owner's line names no province.
    #[error("expected 'Power: A prov'")]
    NoOwnedPlace,
    /// An owner's province is not a supply centre.
    #[error("{0} is not a supply centre")]
    NotCentre(String),
    /// A unit's line is not a unit and its place.
    #[error("expected 'Power: A prov' or 'Power: F prov/coast'")]
    NotUnit,
    /// The unit cannot stand there (`A` at sea, `F` inland).
    #[error("{kind} cannot stand in {at}")]
    CannotStand {
        /// The kind's letter.
        kind: &'static str,
        /// The province.
        at: String,
    },
    /// A fleet in a province of several coasts, naming none.
    #[error("name the coast of {0}")]
    NoCoast(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26: a case line that cannot be read says which kind of fault, quoting the word
    /// at fault once.
    #[test]
    fn an_unreadable_line_says_which_kind() {
        let v = Variant::standard();
        let map = &v.map;
        let unknown = read_unit(map, "Atlantis: A Par").unwrap_err();
        assert_eq!(unknown, LineError::UnknownPower("Atlantis".into()));
        assert_eq!(unknown.to_string(), "unknown power 'Atlantis'");
        assert!(matches!(
            read_unit(map, "France: A Nth"),
            Err(LineError::CannotStand { kind: "A", .. })
        ));
        assert!(matches!(
            read_owner(map, "France: A Bur"),
            Err(LineError::NotCentre(p)) if p == "Bur"
        ));
        assert!(matches!(
            read_order(map, "France: A Par jumps"),
            Err(LineError::Order(_))
        ));
        assert_eq!(read_power_place(map, "France Par"), Err(LineError::NoPlace));
    }
}
