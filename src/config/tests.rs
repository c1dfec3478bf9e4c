//! The configuration's tests: defaults, the shipped file, checks and paths.

use super::*;

#[test]
fn no_password_goes_in_clear_text_to_another_machine() {
    let imap = |host: &str, security: &str| {
        let text = format!(
            "[inbox]\nkind = \"imap\"\n[imap]\nhost = \"{host}\"\nsecurity = \"{security}\"\n"
        );
        toml::from_str::<Config>(&text).unwrap().check()
    };
    for host in ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"] {
        assert!(imap(host, "none").is_ok(), "{host}");
    }
    let err = imap("imap.example.org", "none").unwrap_err().to_string();
    assert!(
        err.starts_with(
            "[imap] security = \"none\" would send the password in clear text to imap.example.org"
        ),
        "{err}"
    );
    assert!(imap("imap.example.org", "tls").is_ok());
    let smtp = |user: &str| {
        let text = format!(
            "[outbox]\nkind = \"smtp\"\n[smtp]\nhost = \"mx.example.org\"\nuser = \"{user}\"\n"
        );
        toml::from_str::<Config>(&text).unwrap().check()
    };
    assert!(smtp("").is_ok(), "no login, no password sent");
    assert!(smtp("judge")
        .unwrap_err()
        .to_string()
        .contains("[smtp] security"));
}

#[test]
fn the_shipped_config_file_is_the_defaults() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut shipped = Config::load(&root.join("config/herald.toml"), true).unwrap();
    let default = Config::default();
    // Its paths are read from config/, and name the same places under the root as the
    // defaults do when herald is started there.
    for (path, default) in [
        (&mut shipped.storage.database, &default.storage.database),
        (&mut shipped.inbox.maildir, &default.inbox.maildir),
        (&mut shipped.outbox.maildir, &default.outbox.maildir),
    ] {
        let rest = path.strip_prefix(root.join("config/..")).unwrap();
        assert_eq!(rest, default, "{}", path.display());
        *path = default.clone();
    }
    // Issue 28: "the shipped config/herald.toml listens on loopback, so the README's
    // first command serves the pages; without the section it is off."
    let web = shipped
        .web
        .take()
        .expect("the shipped file has a [web] section");
    assert_eq!(web.listen, "127.0.0.1:8080");
    // Issue 36: the shipped file writes the edge's limits as their defaults.
    assert_eq!(format!("{web:?}"), format!("{:?}", WebSection::default()));
    assert!(default.web.is_none());
    assert_eq!(format!("{shipped:?}"), format!("{default:?}"));
}

#[test]
fn relative_paths_are_read_from_the_files_directory() {
    let dir = std::env::temp_dir().join(format!("herald-cfg-rel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.toml");
    std::fs::write(
        &path,
        "[storage]\ndatabase = \"data/h.db\"\n[inbox]\nmaildir = \"in\"\n\
         [maps]\ndir = \"../maps\"\n[templates]\ndir = \"/abs/t\"\n\
         [imap]\nca_file = \"ca.pem\"\n",
    )
    .unwrap();
    let config = Config::load(&path, true).unwrap();
    assert_eq!(config.storage.database, dir.join("data/h.db"));
    assert_eq!(config.inbox.maildir, dir.join("in"));
    assert_eq!(config.maps.dir, Some(dir.join("../maps")));
    assert_eq!(config.imap.ca_file, Some(dir.join("ca.pem")));
    // Absolute paths stay; a key left out keeps its default, from the current directory.
    assert_eq!(config.templates.dir, Some(PathBuf::from("/abs/t")));
    assert_eq!(config.outbox.maildir, PathBuf::from("var/outbox"));
    assert_eq!(config.smtp.ca_file, None);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// "`[storage] database = "postgres://..."` selects PostgreSQL" (issue 29): the URL is
/// kept as written, not read as a path beside the file.
#[test]
fn a_database_url_is_not_a_path() {
    let dir = std::env::temp_dir().join(format!("herald-cfg-url-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.toml");
    std::fs::write(
        &path,
        "[storage]\ndatabase = \"postgres://herald:pw@db.example/herald\"\n",
    )
    .unwrap();
    let config = Config::load(&path, true).unwrap();
    assert_eq!(
        config.storage.database,
        PathBuf::from("postgres://herald:pw@db.example/herald")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A server's password is not printed (`herald migrate`, `config check`).
#[test]
fn a_database_url_is_shown_without_its_password() {
    let shown = |db: &str| {
        StorageSection {
            database: db.into(),
            ..StorageSection::default()
        }
        .database_shown()
    };
    assert_eq!(
        shown("postgres://herald:s3cr@t@db/h"),
        "postgres://herald:***@db/h"
    );
    assert_eq!(shown("postgres://herald@db/h"), "postgres://herald@db/h");
    assert_eq!(shown("var/herald.db"), "var/herald.db");
}

#[test]
fn unknown_keys_and_bad_values_are_refused() {
    let dir = std::env::temp_dir().join(format!("herald-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.toml");
    std::fs::write(&path, "[judge]\naddres = \"x@y\"\n").unwrap();
    assert!(Config::load(&path, true)
        .unwrap_err()
        .to_string()
        .contains("addres"));
    std::fs::write(&path, "[timing]\nmove_next = \"soon\"\n").unwrap();
    assert!(Config::load(&path, true)
        .unwrap_err()
        .to_string()
        .contains("move_next"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_kind_is_refused_naming_the_key_and_the_choices() {
    let dir = std::env::temp_dir().join(format!("herald-cfg-kind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.toml");
    for (text, choices) in [
        ("[inbox]\nkind = \"pop3\"\n", "`maildir` or `imap`"),
        ("[outbox]\nkind = \"uucp\"\n", "`maildir` or `smtp`"),
    ] {
        std::fs::write(&path, text).unwrap();
        let err = Config::load(&path, true).unwrap_err().to_string();
        let (section, value) = text.split_once('\n').unwrap();
        assert!(
            err.contains(&format!("{section} kind: unknown variant")),
            "{err}"
        );
        assert!(err.contains(value.trim()), "{err}");
        assert!(err.contains(choices), "{err}");
    }
    std::fs::write(
        &path,
        "[inbox]\nkind = \"imap\"\n[outbox]\nkind = \"smtp\"\n",
    )
    .unwrap();
    let config = Config::load(&path, true).unwrap();
    assert_eq!(config.inbox.kind, InboxKind::Imap);
    assert_eq!(config.outbox.kind, OutboxKind::Smtp);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn optional_paths_are_none_when_absent_or_empty() {
    let read = |text: &str| -> Config { toml::from_str(text).unwrap() };
    let none = read("");
    assert_eq!(none.maps.dir, None);
    assert_eq!(none.templates.dir, None);
    assert_eq!(none.imap.ca_file, None);
    assert_eq!(none.smtp.ca_file, None);
    // As configuration files of earlier versions wrote none.
    let empty = read("[maps]\ndir = \"\"\n[templates]\ndir = \"\"\n[imap]\nca_file = \"\"\n[smtp]\nca_file = \"\"\n");
    assert_eq!(format!("{empty:?}"), format!("{none:?}"));
    let some = read("[maps]\ndir = \"m\"\n[templates]\ndir = \"t\"\n[imap]\nca_file = \"ca.pem\"\n[smtp]\nca_file = \"ca2.pem\"\n");
    assert_eq!(some.maps.dir, Some(PathBuf::from("m")));
    assert_eq!(some.templates.dir, Some(PathBuf::from("t")));
    assert_eq!(some.imap.ca_file, Some(PathBuf::from("ca.pem")));
    assert_eq!(some.smtp.ca_file, Some(PathBuf::from("ca2.pem")));
}

#[test]
fn durations_read_days_hours_minutes() {
    assert_eq!(parse_duration("7d"), Some(Duration::days(7)));
    assert_eq!(parse_duration("1d12h"), Some(Duration::hours(36)));
    assert_eq!(parse_duration("90m"), Some(Duration::minutes(90)));
    assert_eq!(parse_duration("0m"), Some(Duration::zero()));
    assert_eq!(parse_duration("7"), None);
    assert_eq!(parse_duration("x"), None);
    assert_eq!(parse_duration("d"), None);
    // What a hostile Master might send saturates instead of overflowing.
    assert_eq!(
        parse_duration("99999999999d"),
        Some(Duration::days(99_999_999_999))
    );
    assert_eq!(parse_duration("999999999999d"), Some(Duration::MAX));
    assert_eq!(
        parse_duration("99999999999999999999999999m"),
        Some(Duration::MAX)
    );
    assert_eq!(
        parse_duration("9223372036854775807d1m"),
        Some(Duration::MAX)
    );
}

#[test]
fn the_web_edge_limits_are_read_and_checked() {
    let web = |keys: &str| toml::from_str::<Config>(&format!("[web]\n{keys}\n")).unwrap();
    let section = web("").web.unwrap();
    assert_eq!(
        (
            section.header_timeout_seconds,
            section.idle_timeout_seconds,
            section.max_connections
        ),
        (10, 30, 256)
    );
    let set = web("header_timeout_seconds = 2\nidle_timeout_seconds = 5\nmax_connections = 8");
    assert!(set.check().is_ok());
    for (keys, key) in [
        (
            "header_timeout_seconds = 0",
            "[web] header_timeout_seconds = '0'",
        ),
        (
            "idle_timeout_seconds = 0",
            "[web] idle_timeout_seconds = '0'",
        ),
        ("max_connections = 0", "[web] max_connections = '0'"),
        (
            "max_connections = 100000",
            "[web] max_connections = '100000'",
        ),
    ] {
        let err = web(keys).check().unwrap_err().to_string();
        assert!(err.starts_with(key), "{keys}: {err}");
    }
}

#[test]
fn a_trusted_proxy_is_an_address_or_a_list_of_them() {
    let dir = std::env::temp_dir().join(format!("herald-cfg-proxy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.toml");
    std::fs::write(&path, "[web]\ntrusted_proxy = \"127.0.0.1, ::1\"\n").unwrap();
    let web = Config::load(&path, true).unwrap().web.unwrap();
    assert_eq!(
        web.trusted_proxies(),
        [
            "127.0.0.1".parse::<std::net::IpAddr>().unwrap(),
            "::1".parse().unwrap()
        ]
    );
    std::fs::write(&path, "[web]\ntrusted_proxy = \"my-proxy\"\n").unwrap();
    let err = Config::load(&path, true).unwrap_err().to_string();
    assert!(err.contains("[web] trusted_proxy = 'my-proxy'"), "{err}");
    assert!(Config::default().web.is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
