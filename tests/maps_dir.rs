//! A keeper's maps directory: extra map files are played without recompiling, and a broken
//! one is refused with its file and line.

use std::path::PathBuf;

use herald::cases::{parse_cases, run_case_in};
use herald::catalog::Catalog;
use herald::game::map::builtin;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("herald-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
