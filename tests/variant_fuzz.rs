//! Random boards and random orders, in the dialect players write, through whole turns of
//! Deluge (army-fleets, conversion, floods) and of the 1880 world (free oceans): the engine
//! never panics and never leaves a unit where it cannot stand (an army at sea, an
//! army-fleet ashore, a fleet on a coast that is gone) or filed under another province.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use herald::game::ids::{PowerId, UnitKind};
use herald::game::map::Map;
use herald::game::order::parse_order;
use herald::game::position::{Position, Unit};
use herald::game::turn;
use herald::game::variant::Variant;

use crate::support::rng::Rng;

fn random_board(map: &Map, pos: &mut Position, rng: &mut Rng) {
    let powers: Vec<PowerId> = map.power_ids().collect();
    for p in map.province_ids() {
        if rng.below(3) != 0 {
            continue;
        }
        let power = *rng.pick(&powers);
        let kinds = [UnitKind::Army, UnitKind::Fleet, UnitKind::ArmyFleet];
        let kind = *rng.pick(&kinds);
        let places = map.standable(kind, p);
        if places.is_empty() {
            continue;
        }
        let region = *rng.pick(&places);
        pos.place(
            map,
            Unit {
                power,
                kind,
                region,
            },
        );
    }
    for c in map.centres().collect::<Vec<_>>() {
        pos.owners[c.index()] = (rng.below(2) == 0).then(|| *rng.pick(&powers));
    }
}

fn random_order(map: &Map, pos: &Position, rng: &mut Rng) -> Option<(PowerId, String)> {
    let units: Vec<_> = pos.all_units().collect();
    if units.is_empty() {
        return None;
    }
    let (at, u) = *rng.pick(&units);
    let here = map.abbr(at).to_string();
    let any = map
        .abbr(herald::game::ids::ProvinceId(
            rng.below(map.province_count()) as u16,
        ))
        .to_string();
    let (other_at, other) = *rng.pick(&units);
    let there = map.abbr(other_at).to_string();
    let text = match rng.below(12) {
        0 => format!("{} {here} H", u.kind),
        1 | 2 => format!("{} {here} - {any}", u.kind),
        3 => format!("{} {here} S {} {there}", u.kind, other.kind),
        4 => format!("{} {here} S {} {there} - {any}", u.kind, other.kind),
        5 => format!("F {here} C A {there} - {any}"),
        6 => format!("A {here} converts"),
        7 => format!("A {here} E F {any}"),
        8 => format!("A {here} D {any}"),
        9 => format!("A {any} D {there}"),
        10 => format!("4 DIPS S {} {there}", other.kind),
        _ => format!("F {here} FF A {there} - {any}"),
    };
    Some((u.power, text))
}

fn check_board(map: &Map, pos: &Position, seed: u64) {
    for (p, u) in pos.all_units() {
        let prov = map.province(p);
        assert_eq!(
            map.province_of(u.region),
            p,
            "seed {seed}: unit filed under the wrong province"
        );
        assert!(
            map.standable(u.kind, p).contains(&u.region),
            "seed {seed}: {} cannot stand in {} ({:?})",
            u.kind,
            prov.abbr,
            prov.terrain
        );
    }
    for (p, d) in pos.all_dislodged() {
        assert_eq!(map.province_of(d.unit.region), p, "seed {seed}");
    }
}

/// Plays random turns; returns how many turns were played and how many orders were read.
fn play_random(variant: &Variant, phases: &[&str], seeds: std::ops::Range<u64>) -> (usize, usize) {
    let mut turns = 0;
    let mut read = 0;
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let phase = variant
            .calendar
            .parse(phases[rng.below(phases.len())])
            .unwrap();
        let map = variant.map_at(phase);
        let mut pos = Position::empty(map, phase);
        random_board(map, &mut pos, &mut rng);
        for _ in 0..4 {
            let map = variant.map_at(pos.phase);
            check_board(map, &pos, seed);
            let mut orders = Vec::new();
            for _ in 0..rng.below(40) {
                if let Some((power, text)) = random_order(map, &pos, &mut rng) {
                    if let Ok(order) = parse_order(map, &text) {
                        orders.push((power, order));
                        read += 1;
                    }
                }
            }
            let t = turn::play(variant, map, &pos, &orders);
            turns += 1;
            pos = t.position;
            if !t.winners.is_empty() || variant.rules.last_year.is_some_and(|y| pos.phase.year > y)
            {
                break;
            }
        }
        check_board(variant.map_at(pos.phase), &pos, seed);
    }
    (turns, read)
}

#[test]
fn deluge_random_turns_keep_the_board_sound() {
    let v = Variant::deluge();
    let (turns, read) = play_random(
        &v,
        &[
            "Spring 1901, Movement",
            "Fall 1901, Movement",
            "Winter 1901, Adjustment",
            "Fall 1903, Movement",
            "Winter 1904, Adjustment",
            "Fall 1906, Movement",
            "Winter 1907, Adjustment",
        ],
        0..400,
    );
    assert!(
        turns > 1200 && read > 20_000,
        "{turns} turns, {read} orders"
    );
}

#[test]
fn world_random_turns_keep_the_board_sound() {
    let v = Variant::world1880();
    let (turns, read) = play_random(
        &v,
        &[
            "Spring 1880, Movement",
            "Fall 1881, Movement",
            "Winter 1881, Adjustment",
        ],
        0..200,
    );
    assert!(turns > 600 && read > 10_000, "{turns} turns, {read} orders");
}
