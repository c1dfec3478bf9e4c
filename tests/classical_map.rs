//! The Classical map checked as data: counts, every abbreviation of the rulebook's section 9
//! and the data files' names, the Nile, Rhodes, and a coastal neighbour that is no fleet
//! neighbour.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use herald::game::ids::UnitKind;
use herald::game::map::{Map, Terrain};
use herald::game::variant::Variant;

fn abbr(map: &Map, name: &str) -> String {
    let p = map
        .lookup(&herald::game::map::normalize(name))
        .unwrap_or_else(|| panic!("'{name}' is not a name on the Classical map"));
    map.abbr(p).to_string()
}

#[test]
fn counts_of_spaces_centres_and_homes() {
    let v = Variant::classical();
    let m = &v.map;
    assert_eq!(m.province_count(), 117);
    assert_eq!(m.centres().count(), 35);
    let homes: usize = m.powers.iter().map(|p| p.homes.len()).sum();
    assert_eq!(homes, 15);
    assert_eq!(
        m.centres().filter(|&c| m.home_power(c).is_none()).count(),
        20
    );
    let letters: String = m.powers.iter().map(|p| p.letter).collect();
    assert_eq!(
        letters, "ACERS",
        "Macedon A, Carthage C, Egypt E, Rome R, Syria S"
    );
    assert_eq!(m.start.len(), 15);
    assert!(
        m.provinces.iter().all(|p| p.coasts.is_empty()),
        "single-coast provinces everywhere"
    );
}

#[test]
fn every_section_9_abbreviation_and_data_file_name_resolves() {
    let v = Variant::classical();
    let m = &v.map;
    for name in [
        "MIn", "MiS", "AnS", "SMa", "SMi", "BaS", "BoP", "MGS", "SLi", "MAd", "MeG", "Fet", "Mam",
        "Bal", "Ant",
    ] {
        abbr(m, name);
    }
    assert_eq!(abbr(m, "Srm"), "Srm");
    assert_eq!(m.province(m.lookup("srm").unwrap()).name, "Sarmatia");
    assert_eq!(m.province(m.lookup("sar").unwrap()).name, "Sardo");
    assert_eq!(m.province(m.lookup("mae").unwrap()).name, "Maeotis Palus");
    assert_eq!(abbr(m, "Cumae"), abbr(m, "Capua"));
    assert_eq!(abbr(m, "Agrigentum"), abbr(m, "Halycus"));
    assert_eq!(abbr(m, "Fetters"), abbr(m, "The Fetters"));
}

#[test]
fn the_nile_rhodes_and_etruria() {
    let v = Variant::classical();
    let m = &v.map;
    let the = m.lookup("the").unwrap();
    let fleet_to = |from: &str| -> Vec<String> {
        let p = m.lookup(from).unwrap();
        m.fleet_neighbours(m.province(p).main)
            .iter()
            .map(|&r| m.region_abbr(r))
            .collect()
    };
    let nile = fleet_to("the");
    for must in ["Sin", "Sor", "Nub"] {
        assert!(
            nile.contains(&must.to_string()),
            "F Thebes reaches {must}: {nile:?}"
        );
    }
    assert!(
        !nile.contains(&"Lib".to_string()) && !nile.contains(&"Sye".to_string()),
        "{nile:?}"
    );
    assert_eq!(m.province(the).terrain, Terrain::Coast);
    let rhodes = m.lookup("rho").unwrap();
    assert!(m.province(rhodes).centre);
    let (etr, cis) = (m.lookup("etr").unwrap(), m.lookup("cis").unwrap());
    assert!(m.army_adjacent(etr, cis));
    assert!(
        !m.can_reach(UnitKind::Fleet, m.province(etr).main, cis),
        "Etruria-Cisalpina is no fleet move"
    );
}
