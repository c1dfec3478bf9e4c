//! The `herald` command as a keeper runs it.

use std::process::Command;

fn herald(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("herald runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn map_check_passes_the_standard_map() {
    let (ok, out) = herald(&["map", "check", "maps/standard.map"]);
    assert!(ok, "{out}");
    assert_eq!(out.trim(), "maps/standard.map: ok");
}

#[test]
fn map_check_fails_on_a_one_way_adjacency_and_names_it() {
    let path = std::env::temp_dir().join(format!("herald-oneway-{}.map", std::process::id()));
    let text = herald::game::map::builtin::STANDARD.replace("fleet Nth: Bel", "fleet Nth: Bal Bel");
    std::fs::write(&path, text).unwrap();
    let (ok, out) = herald(&["map", "check", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(!ok, "{out}");
    assert!(
        out.contains("one-way fleet adjacency: Nth-Bal is listed but Bal-Nth is not"),
        "{out}"
    );
    assert!(out.contains("1 problem(s)"), "{out}");
}

#[test]
fn datc_ends_with_the_count_line() {
    let (ok, out) = herald(&["datc", "tests/cases/datc_6a.txt", "tests/cases/datc_6b.txt"]);
    assert!(ok, "{out}");
    assert_eq!(out.lines().last(), Some("27 passed, 0 failed"));
}

#[test]
fn datc_reports_a_failing_case_and_exits_non_zero() {
    let path = std::env::temp_dir().join(format!("herald-failing-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        "CASE wrong\nPRESTATE\n\tFrance: A par\nORDERS\n\tFrance: A par-bur\nPOSTSTATE_SAME\nEND\n",
    )
    .unwrap();
    let (ok, out) = herald(&["datc", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(!ok);
    assert!(out.contains("FAIL wrong"), "{out}");
    assert!(
        out.contains("expected unit France: A Par, not found"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("0 passed, 1 failed"));
}
