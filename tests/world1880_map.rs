//! The world of 1880's map checked as data: `herald map check` finds nothing, the counts, the
//! adjacencies corrected against geography (issue 15, point 10a: Sweden-Norway on the
//! Norwegian Sea, Java and Sumatra apart for armies, and the rest the map's header lists),
//! the provinces a fleet may pass through (only the straits and canals the header names),
//! and the convoy geography of rule M.2 (oceans one water, touching no land).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::BTreeSet;

use herald::game::ids::{ProvinceId, UnitKind};
use herald::game::map::check::check_map;
use herald::game::map::{builtin, normalize, Map, Terrain};
use herald::game::variant::Variant;

fn id(map: &Map, name: &str) -> ProvinceId {
    map.lookup(&normalize(name))
        .unwrap_or_else(|| panic!("'{name}' is not a name on the world map"))
}

fn army(map: &Map, a: &str, b: &str) -> bool {
    let (a, b) = (id(map, a), id(map, b));
    let there = map.army_adjacent(a, b);
    assert_eq!(there, map.army_adjacent(b, a), "army {a:?}-{b:?} one way");
    there
}

/// Whether a fleet on some coast of `a` may move to some coast of `b`, and back.
fn fleet(map: &Map, a: &str, b: &str) -> bool {
    let (a, b) = (id(map, a), id(map, b));
    let reach = |from: ProvinceId, to: ProvinceId| {
        map.standable(UnitKind::Fleet, from)
            .into_iter()
            .any(|r| map.fleet_reaches(r, to))
    };
    assert_eq!(reach(a, b), reach(b, a), "fleet {a:?}-{b:?} one way");
    reach(a, b)
}

#[test]
fn map_check_passes_and_the_counts_stand() {
    assert_eq!(check_map(builtin::WORLD1880), Vec::new());
    let v = Variant::world1880();
    assert_eq!(v.map.province_count(), 201);
    assert_eq!(v.map.centres().count(), 70);
}

#[test]
fn adjacencies_corrected_against_geography() {
    let v = Variant::world1880();
    let m = &v.map;
    // Sweden answers to Norway, as the union of 1880 was, and Norway is on the Norwegian Sea.
    assert_eq!(id(m, "Norway"), id(m, "Swe"));
    assert!(fleet(m, "Swe", "Nwg"));
    assert!(fleet(m, "Swe", "Nth") && fleet(m, "Swe", "Bal"));
    // Java and Sumatra are two islands: fleets pass the Sunda Strait, armies do not.
    assert!(!army(m, "Bat", "Sum"));
    assert!(fleet(m, "Bat", "Sum"));
    assert!(
        fleet(m, "Jav", "Ioc"),
        "the Java Sea opens on the Indian Ocean"
    );
    assert!(m.army_neighbours(id(m, "Bat")).is_empty());
    assert!(m.army_neighbours(id(m, "Sum")).is_empty());
    // Lombardy borders the Trentino.
    assert!(army(m, "Pie", "Vie"));
    // Pennsylvania lies between New York and Ohio, Lake Superior between Michigan and
    // Rupert's Land.
    assert!(!army(m, "Chi", "Nyc"));
    assert!(!army(m, "Chi", "Rup"));
    assert!(army(m, "Chi", "Was") && army(m, "Chi", "Ont") && army(m, "Nyc", "Was"));
    // Coasts on open ocean.
    assert!(fleet(m, "Edi", "Nao"));
    assert!(fleet(m, "Wau", "Ioc"));
    // The Cabot Strait.
    assert!(fleet(m, "Gsl", "Sar"));
    // What the rules text fixes stays: Tasman Bay on Sydney, Western Australia, Wellington;
    // Sao Tome on both Atlantic oceans; no way round Suez.
    for coast in ["Syd", "Wau", "Wel"] {
        assert!(fleet(m, "Tby", coast), "Tasman Bay - {coast}");
    }
    assert!(fleet(m, "Sto", "Nao") && fleet(m, "Sto", "Sao"));
    assert!(!fleet(m, "Egy", "Red") && !fleet(m, "Eme", "Red"));
}

/// Single-coast provinces whose waters do not all touch: a fleet passes through them.
fn pass_through(map: &Map) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in map.province_ids() {
        let prov = map.province(p);
        if prov.terrain != Terrain::Coast || !prov.coasts.is_empty() {
            continue;
        }
        let region = prov.main;
        let waters: Vec<ProvinceId> = map
            .fleet_neighbours(region)
            .iter()
            .map(|&r| map.province_of(r))
            .filter(|&w| map.province(w).terrain.is_water())
            .collect();
        let Some(&first) = waters.first() else {
            continue;
        };
        let touch = |a: ProvinceId, b: ProvinceId| {
            map.fleet_neighbours(map.province(a).main)
                .iter()
                .any(|&r| map.province_of(r) == b)
        };
        let mut reached = vec![first];
        let mut i = 0;
        while i < reached.len() {
            for &w in &waters {
                if !reached.contains(&w) && touch(reached[i], w) {
                    reached.push(w);
                }
            }
            i += 1;
        }
        if reached.len() < waters.len() {
            out.insert(prov.abbr.clone());
        }
    }
    out
}

#[test]
fn fleets_pass_through_land_only_at_the_straits_and_canals_the_header_names() {
    let v = Variant::world1880();
    let names: BTreeSet<String> = [
        "Ala", "Con", "Den", "Kie", "Ngu", "Osa", "Sue", "Swe", "Tok",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(pass_through(&v.map), names);
}

#[test]
fn convoy_geography_of_m2() {
    let v = Variant::world1880();
    let m = &v.map;
    let is_ocean = |p: ProvinceId| m.province(p).terrain == Terrain::Ocean;
    let land = |p: ProvinceId| !m.province(p).terrain.is_water();
    for p in m.province_ids() {
        for &q in m.water_neighbours(p) {
            assert!(
                !(is_ocean(p) && land(q) || land(p) && is_ocean(q)),
                "{} and {} touch for convoys: an army boards and lands from a sea (M.2)",
                m.abbr(p),
                m.abbr(q)
            );
        }
    }
    // The oceans are one water: the North Atlantic reaches Tasman Bay and the Java Sea.
    let nao = id(m, "Nao");
    assert!(m.water_neighbours(nao).contains(&id(m, "Tby")));
    assert!(m.water_neighbours(nao).contains(&id(m, "Jav")));
    // Fleets still move from an ocean to a coast on it.
    assert!(fleet(m, "Spo", "Wel"));
    // Hawaii has no sea beside it: no convoy lands there.
    let haw = id(m, "Haw");
    assert!(m
        .water_neighbours(haw)
        .iter()
        .all(|&w| m.province(w).terrain != Terrain::Sea));
}
