//! The standard map checked as data: counts, coasts, and every edge against njudge's
//! independently typed `map.txt` (read from the shared reference, never copied).

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::collections::BTreeSet;
use std::path::Path;

use herald::game::ids::UnitKind;
use herald::game::map::{Map, Terrain};
use herald::game::variant::Variant;

#[test]
fn counts_of_spaces_centres_powers_and_units() {
    let v = Variant::standard();
    let m = &v.map;
    assert_eq!(
        m.province_count(),
        76,
        "75 provinces and impassable Switzerland"
    );
    assert_eq!(
        m.provinces
            .iter()
            .filter(|p| p.terrain == Terrain::Shut)
            .count(),
        1
    );
    assert_eq!(
        m.provinces
            .iter()
            .filter(|p| p.terrain == Terrain::Sea)
            .count(),
        19
    );
    assert_eq!(
        m.provinces
            .iter()
            .filter(|p| p.terrain == Terrain::Land)
            .count(),
        14
    );
    assert_eq!(m.centres().count(), 34);
    assert_eq!(m.powers.len(), 7);
    assert_eq!(m.powers.iter().map(|p| p.homes.len()).sum::<usize>(), 22);
    assert_eq!(m.start.len(), 22);
    let letters: String = m.powers.iter().map(|p| p.letter).collect();
    assert_eq!(letters, "AEFGIRT");
}

#[test]
fn multi_coast_provinces_have_their_coasts() {
    let v = Variant::standard();
    let m = &v.map;
    let coasts = |abbr: &str| -> Vec<String> {
        let p = m.lookup(abbr).unwrap();
        m.province(p)
            .coasts
            .iter()
            .map(|&r| m.region_abbr(r))
            .collect()
    };
    assert_eq!(coasts("bul"), ["Bul/ec", "Bul/sc"]);
    assert_eq!(coasts("spa"), ["Spa/nc", "Spa/sc"]);
    assert_eq!(coasts("stp"), ["Stp/nc", "Stp/sc"]);
    let multi = m.provinces.iter().filter(|p| !p.coasts.is_empty()).count();
    assert_eq!(multi, 3);
    let stp = m.lookup("stp").unwrap();
    assert!(m.standable(UnitKind::Fleet, stp).len() == 2);
}

/// Edges as (from, to) abbreviations in lower case.
type Edges = BTreeSet<(String, String)>;

fn edges(m: &Map) -> (Edges, Edges) {
    let mut army = BTreeSet::new();
    let mut fleet = BTreeSet::new();
    for p in m.province_ids() {
        for &q in m.army_neighbours(p) {
            army.insert((m.abbr(p).to_lowercase(), m.abbr(q).to_lowercase()));
        }
    }
    for (i, _) in m.regions.iter().enumerate() {
        let r = herald::game::ids::RegionId(i as u16);
        for &s in m.fleet_neighbours(r) {
            fleet.insert((
                m.region_abbr(r).to_lowercase(),
                m.region_abbr(s).to_lowercase(),
            ));
        }
    }
    (army, fleet)
}

#[test]
fn every_edge_matches_njudges_map() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/maps/njudge/map.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v = Variant::standard();
    let m = &v.map;
    let name = |word: &str| -> String {
        let (prov, coast) = match word.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (word, None),
        };
        let p = m
            .lookup(prov)
            .unwrap_or_else(|| panic!("njudge name '{prov}' unknown to herald"));
        match coast {
            Some(c) => format!("{}/{c}", m.abbr(p)).to_lowercase(),
            None => m.abbr(p).to_lowercase(),
        }
    };
    let mut army = BTreeSet::new();
    let mut fleet = BTreeSet::new();
    for line in text.lines() {
        let Some((head, list)) = line.split_once(':') else {
            continue;
        };
        let Some((prov, kind)) = head.split_once('-') else {
            continue;
        };
        if prov.len() != 3 || !["mv", "xc", "nc", "sc", "ec", "wc"].contains(&kind) {
            continue;
        }
        let from = match kind {
            "mv" | "xc" => name(prov),
            coast => format!("{}/{coast}", name(prov)),
        };
        for to in list.split_whitespace() {
            let to = name(to);
            if to == from {
                continue; // njudge writes Switzerland's "swi-mv: swi"
            }
            if kind == "mv" {
                army.insert((from.clone(), to));
            } else {
                fleet.insert((from.clone(), to));
            }
        }
    }
    let (our_army, our_fleet) = edges(m);
    assert_eq!(our_army.len(), army.len(), "army edge counts");
    assert_eq!(
        our_army.difference(&army).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "army edges herald has, njudge not"
    );
    assert_eq!(
        army.difference(&our_army).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "army edges njudge has, herald not"
    );
    assert_eq!(
        our_fleet.difference(&fleet).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "fleet edges herald has, njudge not"
    );
    assert_eq!(
        fleet.difference(&our_fleet).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "fleet edges njudge has, herald not"
    );
}
