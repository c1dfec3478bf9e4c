//! Deluge's winters on the picture (issue 27, point 6): "Deluge winters mark the spaces
//! that went under, the units that drowned, the new centres, and next winter's floods."
//! The expectations come from the rules text (../shared/seeds/002_e2eb6ba685631640.txt):
//! Table 1 "W 1901: Lon, Hol, Bel, Gas, Ven, Lvn. W 1902: Yor, Pic, Apu, Rum, Sev, Fin,
//! Syr, Den, Lpl.", rule 4 "Armies in provinces which submerge are drowned!" and Table 2
//! "W 1901: Wal, Ruh, Tyr."

use herald::game::map::builtin;
use herald::picture;

/// The SVG of the first case of a Deluge case file, played on the built-in map.
fn deluge_picture(text: &str) -> String {
    let cases = herald::cases::parse_cases(text).unwrap();
    picture::of_case_on_map_text(builtin::DELUGE, &cases[0])
        .unwrap()
        .svg
}

/// The ids of the elements whose id starts with `prefix`, sorted.
fn ids(svg: &str, prefix: &str) -> Vec<String> {
    let key = format!(" id=\"{prefix}");
    let mut out: Vec<String> = svg
        .match_indices(&key)
        .map(|(i, _)| {
            let rest = &svg[i + key.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect();
    out.sort();
    out
}

const WINTER_1901: &str = "VARIANT_ALL Deluge\nCASE w1901\nPRESTATE_SETPHASE Winter 1901, Adjustment\n\
    PRESTATE_SUPPLYCENTER_OWNERS\n\tEngland: lon\n\tEngland: edi\n\tItaly: ven\n\tGermany: hol\n\tFrance: bel\n\
    PRESTATE\n\tEngland: A lon\n\tEngland: F edi\n\tGermany: F hol\n\tFrance: A ruh\n\tItaly: A ven\n\
    ORDERS\nEND\n";

#[test]
fn a_deluge_winter_marks_what_went_under_what_drowned_and_the_new_centres() {
    let svg = deluge_picture(WINTER_1901);
    assert_eq!(
        ids(&svg, "submerged-"),
        ["Bel", "Gas", "Hol", "Lon", "Lvn", "Ven"],
        "Table 1, W 1901"
    );
    // The armies in London and Venice drown; the fleet in Holland stays on its water.
    assert_eq!(ids(&svg, "drowned-"), ["Lon", "Ven"], "rule 4");
    assert!(
        svg.contains(r#"id="unit-Hol""#),
        "the fleet in Holland floats on"
    );
    assert_eq!(
        ids(&svg, "new-centre-"),
        ["Ruh", "Tyr", "Wal"],
        "Table 2, W 1901"
    );
    // Drawn in the floods' ink, in no power's colour.
    let at = svg.find(r#"id="drowned-Lon""#).unwrap();
    let group = &svg[at..at + svg[at..].find("</g>").unwrap()];
    assert!(group.contains(picture::floods::FLOOD), "{group}");
    assert!(group.contains(r#"data-power="England""#), "{group}");
}

#[test]
fn every_deluge_picture_shows_next_winters_floods_and_keys_them() {
    // After Winter 1901 the board stands at Spring 1902: what goes under in Winter 1902.
    let svg = deluge_picture(WINTER_1901);
    assert_eq!(
        ids(&svg, "floods-next-"),
        ["Apu", "Den", "Fin", "Lvp", "Pic", "Rum", "Sev", "Syr", "Yor"],
        "Table 1, W 1902"
    );
    for word in [
        "went under this winter",
        "drowned",
        "new centre",
        "floods next winter",
    ] {
        assert!(
            svg.contains(&format!(">{word}</text>")),
            "the key lacks '{word}'"
        );
    }
    // A Spring of 1901 looks ahead to Winter 1901's floods.
    let spring = deluge_picture(
        "VARIANT_ALL Deluge\nCASE s1901\nPRESTATE_SETPHASE Spring 1901, Movement\n\
         PRESTATE\n\tEngland: A lon\nORDERS\n\tEngland: A lon H\nEND\n",
    );
    assert_eq!(
        ids(&spring, "floods-next-"),
        ["Bel", "Gas", "Hol", "Lon", "Lvn", "Ven"]
    );
    assert!(
        ids(&spring, "submerged-").is_empty(),
        "nothing went under in spring"
    );
}

#[test]
fn a_map_without_floods_has_no_flood_marks_or_key() {
    let cases = herald::cases::parse_cases(
        "VARIANT_ALL standard\nCASE w\nPRESTATE_SETPHASE Winter 1901, Adjustment\n\
         PRESTATE\n\tEngland: A lon\nORDERS\nEND\n",
    )
    .unwrap();
    let svg = picture::of_case_on_map_text(builtin::STANDARD, &cases[0])
        .unwrap()
        .svg;
    assert!(ids(&svg, "floods-next-").is_empty());
    assert!(!svg.contains("floods next winter"));
}
