//! The `herald` command as a keeper runs it.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::path::Path;
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

#[test]
fn ingest_tick_migrate_and_the_keepers_game_views() {
    let dir = std::env::temp_dir().join(format!("herald-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("herald.toml");
    std::fs::write(
        &config,
        format!(
            "[storage]\ndatabase = \"{0}/h.db\"\n[inbox]\nmaildir = \"{0}/in\"\n[outbox]\nmaildir = \"{0}/out\"\n",
            dir.display()
        ),
    )
    .unwrap();
    let cfg = config.to_str().unwrap();
    let (ok, out) = herald(&["migrate", "--config", cfg]);
    assert!(ok && out.contains("schema up to date"), "{out}");

    let mail = "From: ann@example.org\nSubject: new\nMessage-ID: <cli1@x>\n\nCREATE ?clig secret\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["ingest", "--config", cfg, "--now", "2026-12-01T10:00:00Z"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(mail.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && text.contains("Handled(1); 1 mail(s) written"),
        "{text}"
    );
    let written: Vec<_> = std::fs::read_dir(dir.join("out/new")).unwrap().collect();
    assert_eq!(written.len(), 1);

    let (ok, out) = herald(&["game", "list", "--config", cfg]);
    assert!(
        ok && out.contains("clig") && out.contains("forming"),
        "{out}"
    );
    let (ok, out) = herald(&["game", "show", "clig", "--config", cfg]);
    assert!(ok && out.contains("master: ann@example.org"), "{out}");
    let (ok, out) = herald(&["game", "show", "nosuch", "--config", cfg]);
    assert!(!ok && out.contains("there is no game 'nosuch'"), "{out}");
    // Issue 28, point 3: "A CLI `herald export GAME [--format json|datc|atom|ics]`".
    let (ok, out) = herald(&["export", "CLIG", "--config", cfg]);
    assert!(ok && out.contains("\"schema\": \"herald-game/1\""), "{out}");
    assert!(!out.contains("ann@example.org"), "{out}");
    for (format, first) in [
        ("datc", "# Game 'clig' (standard)"),
        ("atom", "<?xml version=\"1.0\" encoding=\"utf-8\"?>"),
        ("ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"),
    ] {
        let (ok, out) = herald(&["export", "clig", "--format", format, "--config", cfg]);
        assert!(ok && out.starts_with(first), "{format}: {out}");
    }
    let (ok, out) = herald(&["export", "nosuch", "--config", cfg]);
    assert!(!ok && out.contains("there is no game 'nosuch'"), "{out}");
    let (ok, out) = herald(&["tick", "--config", cfg, "--now", "2026-12-01T11:00:00Z"]);
    assert!(ok && out.contains("0 mail(s) read"), "{out}");
    let (ok, out) = herald(&["tick", "--config", cfg, "--now", "yesterday"]);
    assert!(!ok && out.contains("--now 'yesterday'"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn config_check_finds_what_is_wrong_without_connecting() {
    // The shipped configuration is good.
    let (ok, out) = herald(&["config", "check", "--config", "config/herald.toml"]);
    assert!(ok && out.contains("the configuration is good"), "{out}");
    // A password in clear text to another machine is refused, as `run` refuses it (issue 19,
    // point 2); nothing is contacted (the host does not exist).
    let dir = std::env::temp_dir().join(format!("herald-cfgcheck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("clear.toml");
    std::fs::write(
        &bad,
        "[inbox]\nkind = \"imap\"\n[imap]\nhost = \"imap.invalid\"\nsecurity = \"none\"\npassword = \"x\"\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let (ok, out) = herald(&["config", "check", "--config", bad]);
    assert!(!ok, "{out}");
    assert!(
        out.contains(
            "[imap] security = \"none\" would send the password in clear text to imap.invalid"
        ),
        "{out}"
    );
    let (ok, out) = herald(&["run", "--config", bad]);
    assert!(!ok && out.contains("in clear text"), "{out}");
    let missing = dir.join("templates-missing.toml");
    std::fs::write(&missing, "[templates]\ndir = \"/nonexistent/templates\"\n").unwrap();
    let (ok, out) = herald(&["config", "check", "--config", missing.to_str().unwrap()]);
    assert!(!ok && out.contains("/nonexistent/templates"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A configuration file's relative paths are read from its own directory, whatever directory
/// herald is started in (issue 18, point 8), and `migrate` makes the Maildirs as well as the
/// database, so mail can be dropped in before the daemon first runs.
#[test]
fn relative_paths_in_the_config_file_are_read_from_its_directory() {
    let dir = std::env::temp_dir().join(format!("herald-relcfg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("etc")).unwrap();
    let config = dir.join("etc/herald.toml");
    std::fs::write(
        &config,
        "[storage]\ndatabase = \"../data/h.db\"\n[inbox]\nmaildir = \"../mail/in\"\n[outbox]\nmaildir = \"../mail/out\"\n",
    )
    .unwrap();
    // Started in the crate's directory (see `herald`), not the file's.
    let (ok, out) = herald(&["migrate", "--config", config.to_str().unwrap()]);
    let made = |p: &str| dir.join(p).exists();
    let found = (
        made("data/h.db"),
        ["tmp", "new", "cur"]
            .map(|s| made(&format!("mail/in/{s}")) && made(&format!("mail/out/{s}"))),
    );
    let (checked, said) = herald(&["config", "check", "--config", config.to_str().unwrap()]);
    let stray = Path::new(env!("CARGO_MANIFEST_DIR")).join("mail").exists();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(ok, "{out}");
    assert_eq!(found, (true, [true; 3]), "{out}");
    assert!(!stray, "nothing is made under the current directory");
    // config check says where the paths led.
    let at = |p: &str| format!("{}", dir.join("etc").join(p).display());
    assert!(checked, "{said}");
    assert!(
        said.contains(&format!("database  {}", at("../data/h.db"))),
        "{said}"
    );
    assert!(
        said.contains(&format!("inbox     {}", at("../mail/in"))),
        "{said}"
    );
}

/// Issue 24: "logs carry ANSI colour codes when written to a file or pipe". herald's log
/// goes to a pipe here: it has lines and not one escape byte.
#[test]
fn the_log_in_a_pipe_has_no_colour_codes() {
    let dir = std::env::temp_dir().join(format!("herald-cli-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("herald.toml");
    std::fs::write(
        &config,
        format!(
            "[storage]\ndatabase = \"{0}/h.db\"\n[inbox]\nmaildir = \"{0}/in\"\n[outbox]\nmaildir = \"{0}/out\"\n",
            dir.display()
        ),
    )
    .unwrap();
    let mail = "From: ann@example.org\nSubject: help\nMessage-ID: <log1@x>\n\nHELP\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["ingest", "--config", config.to_str().unwrap()])
        .env_remove("NO_COLOR")
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(mail.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert!(
        log.contains("mail handled"),
        "a log line was written: {log}"
    );
    assert!(!output.stderr.contains(&0x1b), "{log:?}");
}
