//! The Deluge map through its floods: `herald map check` finds nothing in any year, and no
//! fleet can cut across land. A province with one coast must not border two waters that do
//! not touch (the floods give such a province a coast on each, as Spain has); the only
//! exceptions are the standard board's own canals and straits (Kiel, Constantinople,
//! Denmark, Sweden), which stay as they are.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::BTreeSet;

use herald::game::ids::ProvinceId;
use herald::game::map::check::check_map;
use herald::game::map::{builtin, Map, Terrain};
use herald::game::variant::Variant;

/// Single-coast provinces whose waters do not all touch one another.
fn cut_across(map: &Map) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in map.province_ids() {
        let prov = map.province(p);
        if prov.terrain != Terrain::Coast || !prov.coasts.is_empty() {
            continue;
        }
        let waters: Vec<ProvinceId> = map
            .water_neighbours(p)
            .iter()
            .copied()
            .filter(|&w| map.province(w).terrain.is_water())
            .collect();
        let Some(&first) = waters.first() else {
            continue;
        };
        let mut reached = vec![first];
        let mut i = 0;
        while i < reached.len() {
            let here = reached[i];
            for &w in &waters {
                if !reached.contains(&w) && map.water_neighbours(here).contains(&w) {
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

fn coasts(map: &Map, abbr: &str) -> Vec<String> {
    let p = map.lookup(&abbr.to_ascii_lowercase()).expect(abbr);
    map.province(p)
        .coasts
        .iter()
        .map(|&r| map.region_abbr(r))
        .collect()
}

#[test]
fn map_check_passes_in_every_year() {
    assert_eq!(check_map(builtin::DELUGE), Vec::new());
    let v = Variant::deluge();
    let years: Vec<i32> = v.schedule.iter().map(|((y, _), _)| *y).collect();
    assert_eq!(years, (1901..=1907).collect::<Vec<_>>());
}

#[test]
fn no_fleet_cuts_across_land_after_any_flood() {
    let v = Variant::deluge();
    let standard = cut_across(&v.map);
    assert_eq!(
        standard,
        ["Con", "Den", "Kie", "Swe"]
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>()
    );
    for ((year, _), map) in &v.schedule {
        let new: Vec<String> = cut_across(map).difference(&standard).cloned().collect();
        assert!(
            new.is_empty(),
            "after Winter {year}: {new:?} border waters that do not touch"
        );
    }
}

#[test]
fn the_floods_give_two_coasts_where_the_map_file_says() {
    let v = Variant::deluge();
    let at = |year: i32| &v.schedule.iter().find(|((y, _), _)| *y == year).unwrap().1;
    let want: &[(i32, &str, &[&str])] = &[
        (1901, "Mar", &["Mar/sc", "Mar/wc"]),
        (1901, "Bur", &["Bur/nc", "Bur/sc"]),
        (1901, "Pie", &["Pie/ec", "Pie/sc"]),
        (1901, "Tus", &["Tus/ec", "Tus/wc"]),
        (1901, "Rom", &["Rom/ec", "Rom/wc"]),
        (1902, "Arm", &["Arm/nc", "Arm/sc"]),
        (1902, "Mos", &["Mos/nc", "Mos/sc"]),
        (1902, "Nwy", &["Nwy/ec", "Nwy/wc"]),
        (1902, "Par", &["Par/nc", "Par/sc"]),
        (1903, "Tri", &["Tri/nc", "Tri/sc"]),
        (1904, "Sil", &["Sil/nc", "Sil/sc"]),
        (1904, "Tyr", &["Tyr/ec", "Tyr/sc"]),
    ];
    for &(year, abbr, expected) in want {
        let mut got = coasts(at(year), abbr);
        got.sort();
        assert_eq!(got, expected, "{abbr} after Winter {year}");
    }
    // Marseilles itself goes under water in Winter 1904.
    assert_eq!(
        at(1904).province(at(1904).lookup("mar").unwrap()).terrain,
        Terrain::Sea
    );
    // Iceland and Switzerland open on time.
    let ice = v.map.lookup("ice").unwrap();
    let swi = v.map.lookup("swi").unwrap();
    assert_eq!(v.map.province(ice).terrain, Terrain::Shut);
    assert_eq!(at(1901).province(ice).terrain, Terrain::Coast);
    assert_eq!(at(1903).province(swi).terrain, Terrain::Shut);
    assert_ne!(at(1904).province(swi).terrain, Terrain::Shut);
}
