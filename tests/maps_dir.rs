//! A keeper's maps directory: extra map files are played without recompiling, a map named
//! after a built-in one replaces it under its variants, and a broken one is refused with its
//! file and line. (Variant files in the directory: `tests/variant_files.rs`.)

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::path::PathBuf;

use herald::cases::{parse_cases, run_case_in};
use herald::catalog::Catalog;
use herald::game::map::builtin;

fn temp_dir(name: &str) -> PathBuf {
    crate::support::scratch_dir(name)
}

#[test]
fn a_map_dropped_in_the_directory_is_playable() {
    let dir = temp_dir("maps-ok");
    // The standard board under another name, with Burgundy renamed Bourgogne.
    let text = builtin::STANDARD
        .replace("map standard", "map lowlands")
        .replace("\"Burgundy\"", "\"Bourgogne\"");
    std::fs::write(dir.join("lowlands.map"), text).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a map").unwrap();
    let catalog = Catalog::with_maps_dir(&dir).unwrap();
    assert_eq!(catalog.variant("Lowlands").unwrap().map.name, "lowlands");
    assert!(catalog.variant("standard").is_ok());

    let case = "CASE lowlands\nVARIANT lowlands\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tFrance: A par\nORDERS\n\tFrance: A par-bourgogne\nPOSTSTATE\n\tFrance: A bur\nEND\n";
    let cases = parse_cases(case).unwrap();
    assert_eq!(run_case_in(&catalog, &cases[0]), Ok(()));
    assert!(
        run_case_in(&Catalog::builtin(), &cases[0]).is_err(),
        "unknown without the directory"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_map_in_the_directory_is_refused_with_file_and_line() {
    let dir = temp_dir("maps-bad");
    let text = builtin::STANDARD
        .replace("map standard", "map broken")
        .replace(
            "army  Boh: Gal Mun Sil Tyr Vie",
            "army  Boh: Gal Mun Sil Tyr Vie Ukr",
        );
    std::fs::write(dir.join("broken.map"), text).unwrap();
    let err = Catalog::with_maps_dir(&dir).unwrap_err().to_string();
    assert!(err.contains("broken.map"), "{err}");
    assert!(err.contains("one-way army adjacency: Boh-Ukr"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_map_named_after_a_builtin_one_replaces_it_under_its_variants_calendar_and_rules() {
    let dir = temp_dir("maps-replace");
    let text = builtin::DELUGE.replace("\"Burgundy\"", "\"Bourgogne\"");
    std::fs::write(dir.join("mine.map"), text).unwrap();
    let catalog = Catalog::with_maps_dir(&dir).unwrap();
    let deluge = catalog.variant("deluge").unwrap();
    assert!(deluge.map.lookup("bourgogne").is_some());
    assert_eq!(deluge.calendar.code(deluge.calendar.start), "W1900A");
    assert_eq!(deluge.schedule.len(), 7);
    assert_eq!(
        deluge.rules,
        herald::game::variant::Variant::builtin("deluge")
            .unwrap()
            .rules
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_map_whose_changes_name_a_season_its_calendar_lacks_is_refused_with_the_line() {
    let dir = temp_dir("maps-season");
    let text = format!(
        "{}\nat Summer 1903:\n  land Boh \"Bohemia\"\nend\n",
        builtin::STANDARD.replace("map standard", "map summery")
    );
    let at = text
        .lines()
        .position(|l| l.starts_with("at Summer"))
        .unwrap()
        + 1;
    std::fs::write(dir.join("summery.map"), text).unwrap();
    let err = Catalog::with_maps_dir(&dir).unwrap_err().to_string();
    assert!(err.contains("summery.map"), "{err}");
    assert!(
        err.contains(&format!(
            "line {at}: 'at summer ...': the calendar has no season 'summer'"
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
